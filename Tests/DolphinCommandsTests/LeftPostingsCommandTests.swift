import Foundation
import Testing
import TestSupport

/// Regression (review, s14): after `sqlite3 workspace.sqlite "DELETE FROM knowledge WHERE …;
/// DELETE FROM lexical_document WHERE …"` (the newest item and its index document entry, its
/// postings left), `dolphin capture` failed with exit 5 and SQLite's bare `UNIQUE constraint
/// failed: lexical_posting.term_id, lexical_posting.doc`, and so did `dolphin import` (its
/// staged index copy runs on a connection of its own). Both now store their records; doctor,
/// which reported the left postings, is healthy afterwards.
@Suite("capture and import over postings left by an outside delete", .serialized)
struct LeftPostingsCommandTests {
  /// Captures two items, then deletes the newer one and its index document entry with sqlite3.
  static func workspaceWithLeftPostings() throws -> CLI {
    let cli = CLI()
    #expect(try cli.run(["capture", "fact", "Parking rules", "--content", "Level two only."]).status == 0)
    #expect(
      try cli.run(["capture", "decision", "Postgres billing ledger", "--content", "Postgres keeps the ledger."]).status == 0)
    let edit = try runProcess(
      "/usr/bin/env",
      [
        "sqlite3", cli.workspace + "/workspace.sqlite",
        "DELETE FROM knowledge_tag WHERE knowledge_rowid = 2; DELETE FROM knowledge WHERE rowid = 2; "
          + "DELETE FROM lexical_document WHERE doc = 2",
      ])
    try #require(edit.status == 0, "sqlite3 is needed to edit the workspace outside dolphin: \(edit.stderr)")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5 && doctor.stdout.contains("posting(s) but its documents list"), "\(doctor.stdout)")
    return cli
  }

  @Test("dolphin capture stores the item, search finds it and not the deleted one's words, doctor is healthy")
  func capture() throws {
    let cli = try Self.workspaceWithLeftPostings()
    defer { cli.dir.remove() }
    let captured = try cli.run(["capture", "decision", "Postgres for analytics", "--content", "Postgres again."])
    #expect(captured.status == 0, "\(captured.stderr)")
    #expect(!captured.stderr.contains("UNIQUE"))
    let found = try cli.json(["search", "postgres"])
    #expect((found["results"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Postgres for analytics"])
    #expect((try cli.json(["search", "ledger"])["results"] as? [Any])?.isEmpty == true)
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0 && doctor.stdout.hasSuffix("Doctor: healthy.\n"), "\(doctor.stdout)")
  }

  @Test("dolphin import stores the file's items under the reused row ids, doctor is healthy")
  func importFile() throws {
    let source = CLI()
    defer { source.dir.remove() }
    #expect(
      try source.run(["capture", "decision", "Postgres read replicas", "--content", "Replicas serve reports."]).status == 0)
    #expect(try source.run(["capture", "goal", "Postgres upgrade", "--content", "Move to version 16."]).status == 0)
    let file = source.dir.appending("export.json")
    #expect(try source.run(["export", "--output", file.path]).status == 0)

    let cli = try Self.workspaceWithLeftPostings()
    defer { cli.dir.remove() }
    let imported = try cli.run(["import", file.path])
    #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
    let found = try cli.json(["search", "postgres"])
    let titles = (found["results"] as? [[String: Any]])?.compactMap { $0["title"] as? String }.sorted()
    #expect(titles == ["Postgres read replicas", "Postgres upgrade"])
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0 && doctor.stdout.hasSuffix("Doctor: healthy.\n"), "\(doctor.stdout)")
  }
}
