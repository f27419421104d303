import Foundation
import Testing
import TestSupport

/// The tag filter reads `knowledge_tag` rows derived from each item's stored tags. A tester
/// edited tags outside dolphin (`--tag` then found the item by its old tags) and deleted a tagged
/// item outside dolphin (the next item stored took its row id and its tag), and neither
/// `dolphin doctor` nor `dolphin reindex` noticed.
@Suite("doctor and reindex keep the tag filter's rows with the stored tags", .serialized)
struct TagFilterRowsDoctorTests {
  func sqlite(_ cli: CLI, _ sql: String) throws {
    let edit = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql])
    try #require(edit.status == 0, "sqlite3 is needed to edit the workspace outside dolphin: \(edit.stderr)")
  }

  func titles(_ cli: CLI, tag: String) throws -> [String] {
    let listed = try cli.json(["knowledge", "list", "--tag", tag])
    return (listed["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
  }

  @Test("tags edited outside dolphin: doctor names the item with the reindex advice; reindex makes --tag follow the tags")
  func tagsEditedOutside() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Unrelated note"]).status == 0)
    let created = try cli.json(["capture", "fact", "Quarterly budget", "--tags", "org"])
    let id = try #require((created["item"] as? [String: Any])?["id"] as? String)
    try sqlite(cli, #"UPDATE knowledge SET tags = '["finance"]' WHERE id = '\#(id)'"#)
    #expect(try titles(cli, tag: "finance") == [])  // The premise.

    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    #expect(
      doctor.stdout.contains(
        "  - 1 knowledge item(s) have tag filter rows that are not their stored tags (changed outside dolphin), so "
          + "`--tag` filters find them by other tags: \(id) (run `dolphin reindex --workspace \(cli.workspace)`)"),
      "\(doctor.stdout)")
    #expect(doctor.stdout.contains("`dolphin reindex --workspace \(cli.workspace)` rebuilds it from them."), "\(doctor.stdout)")

    let reindex = try cli.run(["reindex"])
    #expect(reindex.status == 0 && reindex.stdout.contains("index check: ok"), "\(reindex.stdout)\(reindex.stderr)")
    #expect(try titles(cli, tag: "finance") == ["Quarterly budget"])
    #expect(try titles(cli, tag: "org") == [])
    let healthy = try cli.run(["doctor"])
    #expect(healthy.status == 0 && healthy.stdout.hasSuffix("Doctor: healthy.\n"), "\(healthy.stdout)")
  }

  @Test("a tagged item deleted outside dolphin: doctor reports its rows, reindex drops them, no later item inherits its tag")
  func taggedItemDeletedOutside() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "a"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Secret project Falcon", "--tags", "falcon"]).status == 0)
    try sqlite(cli, "DELETE FROM knowledge WHERE title = 'Secret project Falcon'")

    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    #expect(
      doctor.stdout.contains(
        "  - 1 tag filter row(s) belong to no knowledge item (deleted outside dolphin), and would tag an item stored "
          + "later under the same row id (run `dolphin reindex --workspace \(cli.workspace)`)"),
      "\(doctor.stdout)")
    #expect(try cli.run(["reindex"]).status == 0)
    let healthy = try cli.run(["doctor"])
    #expect(healthy.status == 0 && healthy.stdout.hasSuffix("Doctor: healthy.\n"), "\(healthy.stdout)")
    #expect(try cli.run(["capture", "fact", "Lunch menu"]).status == 0)
    #expect(try titles(cli, tag: "falcon") == [])

    // And a capture does not take up tag rows left under the row id it is given.
    try sqlite(cli, "INSERT INTO knowledge_tag(tag, knowledge_rowid) SELECT 'falcon', max(rowid) + 1 FROM knowledge")
    #expect(try cli.run(["capture", "fact", "Dinner menu"]).status == 0)
    #expect(try titles(cli, tag: "falcon") == [])
    #expect(try cli.run(["doctor"]).status == 0)
  }

  /// Regression (review, s12): the deleted item's index entry kept its row id, which SQLite
  /// gives the next item: the capture failed on `lexical_document.doc`'s UNIQUE constraint.
  @Test("a capture after an item was deleted outside dolphin, before any reindex, succeeds and inherits no words")
  func captureAfterOutsideDelete() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "a"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Secret project Falcon"]).status == 0)
    try sqlite(cli, "DELETE FROM knowledge WHERE title = 'Secret project Falcon'")
    // The index entry left behind is no match: not "0 shown of 1 match(es)".
    let before = try cli.run(["search", "falcon"])
    #expect(before.stdout.contains("0 shown of 0 match(es)") && !before.stdout.contains("cut at"), "\(before.stdout)")
    let capture = try cli.run(["capture", "fact", "Lunch menu"])
    #expect(capture.status == 0, "\(capture.stdout)\(capture.stderr)")
    #expect(try cli.run(["search", "falcon"]).stdout.contains("0 shown of 0"))
    #expect(try cli.run(["search", "lunch"]).stdout.contains("1 shown of 1"))
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0 && doctor.stdout.hasSuffix("Doctor: healthy.\n"), "\(doctor.stdout)")
  }

  /// Regression (review, s12; fixed s13): the bulk paths had the same fault as capture. An
  /// import after an outside delete failed with "UNIQUE constraint failed: lexical_document.doc"
  /// (exit 5) and stored nothing.
  @Test("an import after a knowledge item and a memory were deleted outside dolphin stores everything, inheriting no words")
  func importAfterOutsideDelete() throws {
    let source = CLI()
    defer { source.dir.remove() }
    #expect(try source.run(["capture", "fact", "Lunch menu"]).status == 0)
    #expect(try source.run(["capture", "fact", "Dinner plans"]).status == 0)
    #expect(try source.run(["memory", "save", "Breakfast at eight"]).status == 0)
    let file = source.dir.url.appendingPathComponent("export.json").path
    #expect(try source.run(["export", "--output", file]).status == 0)

    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "a"]).status == 0)
    #expect(try cli.run(["memory", "save", "b"]).status == 0)
    #expect(try cli.run(["memory", "save", "Secret heron sighting"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Secret project Falcon"]).status == 0)
    // The rows with the largest row ids go, so SQLite gives those ids to the imported records.
    try sqlite(
      cli,
      "DELETE FROM knowledge WHERE title = 'Secret project Falcon' OR content LIKE '%heron%'; "
        + "DELETE FROM memory WHERE text LIKE '%heron%'")
    let imported = try cli.run(["import", file])
    #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
    #expect(try cli.run(["search", "falcon", "--include-memories"]).stdout.contains("0 shown of 0"))
    #expect(try cli.run(["search", "heron", "--include-memories"]).stdout.contains("0 shown of 0"))
    #expect(try cli.run(["search", "lunch"]).stdout.contains("1 shown of 1"))
    #expect(try cli.run(["search", "breakfast", "--include-memories"]).stdout.contains("1 shown of 1"))
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0 && doctor.stdout.hasSuffix("Doctor: healthy.\n"), "\(doctor.stdout)")
  }
}
