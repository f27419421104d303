import Foundation
import Testing
import TestSupport

/// Review 27-b, 8: a trigger of the user's copying deleted rows into a table of theirs made
/// `erase` fail its verification, naming only the database file; nothing said where the ids were.
@Suite("erase names objects dolphin did not create when erased ids stay in the database")
struct EraseForeignObjectsTests {
  @Test("a trigger copying erased rows: the failed verification names it and its table, and points to doctor")
  func triggerCopy() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Sky is blue"]).status == 0)
    #expect(try cli.run(["capture", "decision", "Use Swift"]).status == 0)
    let db = cli.workspace + "/workspace.sqlite"
    let sql = try runProcess(
      "/usr/bin/env",
      [
        "sqlite3", db,
        "CREATE TABLE knowledge_archive(id TEXT, title TEXT); CREATE TRIGGER keep_deleted AFTER DELETE ON knowledge "
          + "BEGIN INSERT INTO knowledge_archive VALUES(old.id, old.title); END;",
      ])
    #expect(sql.status == 0, "\(sql.stderr)")
    let erase = try cli.run(["erase", "--kind", "knowledge", "--yes"])
    #expect(erase.status == 5, "\(erase.stdout)\(erase.stderr)")
    #expect(erase.stdout.contains("Verification FAILED"), "\(erase.stdout)")
    #expect(
      erase.stdout.contains("objects dolphin did not create, which may keep copies of erased records: ")
        && erase.stdout.contains("table knowledge_archive") && erase.stdout.contains("trigger keep_deleted on knowledge"),
      "\(erase.stdout)")
    #expect(erase.stdout.contains("`dolphin doctor --workspace \(cli.workspace)` lists them"), "\(erase.stdout)")
  }
}
