import Foundation
import Testing
import TestSupport

/// A workspace whose tags an older import stored un-normalized: the first command after the
/// upgrade normalizes them (schema step 0006) and indexes the rewritten items again.
@Suite("Stored tags at the command line", .serialized)
struct StoredTagsMigrationCommandTests {
  /// What doctor notes while one rewritten item waits to be indexed again.
  static let pendingNote =
    "pending: 1 search index document(s) predate a change to their record's tags (schema step "
    + "0006-normalize-stored-tags or 0007-renormalize-tags-drop-blank-next-steps), or were written by a dolphin "
    + "older than the index, and are to be indexed "
    + "again; the next search (or other command that ranks) "
    + "does it by itself, or run `dolphin reindex` now"

  @Test("a tag filter finds old tags after the upgrade, and doctor finds the index in step")
  func oldTagsAreFound() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let captured = try cli.json(["capture", "fact", "Imported long ago", "--tags", "storage"])
    let id = try #require((captured["item"] as? [String: Any])?["id"] as? String)
    // Back to what a build before step 0006 could hold after an import.
    let downgrade = """
      UPDATE knowledge SET tags = '[" Storage ","SQLITE","sqlite"]' WHERE id = '\(id)';
      DELETE FROM knowledge_tag WHERE knowledge_rowid = (SELECT rowid FROM knowledge WHERE id = '\(id)');
      INSERT INTO knowledge_tag(tag, knowledge_rowid) SELECT ' Storage ', rowid FROM knowledge WHERE id = '\(id)';
      INSERT INTO knowledge_tag(tag, knowledge_rowid) SELECT 'SQLITE', rowid FROM knowledge WHERE id = '\(id)';
      INSERT INTO knowledge_tag(tag, knowledge_rowid) SELECT 'sqlite', rowid FROM knowledge WHERE id = '\(id)';
      DROP TABLE lexical_stale;
      DELETE FROM schema_migration WHERE name = '0006-normalize-stored-tags';
      """
    let edit = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", downgrade])
    #expect(edit.status == 0, "\(edit.stderr)")

    let list = try cli.json(["knowledge", "list", "--tag", "Storage"])
    let items = try #require(list["items"] as? [[String: Any]])
    #expect(items.map { $0["id"] as? String } == [id])
    #expect(items.first?["tags"] as? [String] == ["storage", "sqlite"])
    // Commands that do not rank leave the search index as it is; doctor notes what is pending
    // and that the next search does it: upgrade work, not a problem (exit 0).
    let before = try cli.run(["doctor"])
    #expect(before.status == 0, "\(before.stdout)\(before.stderr)")
    #expect(
      before.stdout.contains(
        "Search index: upgrade work pending (not a problem; see the note)\n  note: " + cli.naming(Self.pendingNote) + "\n"),
      "\(before.stdout)")
    #expect(before.stdout.contains("Doctor: healthy (the search index work noted as pending is not a problem)."))
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(try cli.run(["doctor", "--json"]).stdout.utf8)) as? [String: Any])
    #expect(report["ok"] as? Bool == true)
    #expect(report["searchIndexUpgradePending"] as? Bool == true)
    #expect(report["searchIndexProblems"] as? [String] == [])
    #expect(report["searchIndexNotes"] as? [String] == [cli.naming(Self.pendingNote)])
    // The first command that ranks indexes the rewritten item again, says so once on stderr
    // (as a rebuild does), and finds it by its tags.
    let searched = try cli.run(["search", "sqlite", "--json"])
    #expect(searched.status == 0, "\(searched.stderr)")
    #expect(
      searched.stderr
        == "dolphin: notice: updated the search index after the workspace upgrade (schema step "
        + "0006-normalize-stored-tags or 0007-renormalize-tags-drop-blank-next-steps rewrote stored tags, or a dolphin "
        + "from before the upgrade wrote records without "
        + "their search terms): re-indexed 1 document(s) (knowledge items and memories); "
        + "no record changed\n")
    let search = try #require(try JSONSerialization.jsonObject(with: Data(searched.stdout.utf8)) as? [String: Any])
    let results = try #require(search["results"] as? [[String: Any]])
    #expect(results.map { $0["id"] as? String } == [id])
    let again = try cli.run(["search", "sqlite"])
    #expect(again.stderr.isEmpty, "nothing left to index, nothing said: \(again.stderr)")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Doctor: healthy."))
  }
}
