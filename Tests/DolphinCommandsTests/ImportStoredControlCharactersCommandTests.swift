import Foundation
import Testing
import TestSupport

/// Regression (review, s14): after `sqlite3 workspace.sqlite "UPDATE knowledge SET content = … ||
/// char(7) …"`, `dolphin export` followed by `dolphin import` of that file into the same workspace
/// listed the edited records as conflicts (exit 4: the import compared its sanitized copy with the
/// raw stored text), and a tag holding a control character refused the file. Both now import as
/// the same records, write nothing and leave the stored text as it was.
@Suite("dolphin import of an export holding text written with sqlite3", .serialized)
struct ImportStoredControlCharactersCommandTests {
  struct EditCase: CustomTestStringConvertible, Sendable {
    var name: String
    var sql: String
    var testDescription: String { name }
  }

  static let edits = [
    EditCase(
      name: "a BEL in content and an ESC in a title",
      sql: "UPDATE knowledge SET content = 'Runs on ci-3' || char(7) || ' nightly.', title = 'Build' || char(27) || ' server'"),
    EditCase(name: "a SOH in a task's notes", sql: "UPDATE task SET notes = 'Ask the ops team' || char(1) || '.'"),
    EditCase(
      name: "a BEL inside a tag", sql: "UPDATE knowledge SET tags = json_array('ops' || char(7) || 'team', 'infra')"),
  ]

  @Test("export, then import into the same workspace: all same, nothing written, exit 0", arguments: edits)
  func roundTrip(_ c: EditCase) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Build server", "--content", "Runs on ci-3.", "--tags", "ops"]).status == 0)
    #expect(try cli.run(["task", "add", "Rotate the deploy keys", "--notes", "Ask the ops team."]).status == 0)
    let database = cli.workspace + "/workspace.sqlite"
    let edit = try runProcess("/usr/bin/env", ["sqlite3", database, c.sql])
    try #require(edit.status == 0, "sqlite3 is needed to edit the workspace outside dolphin: \(edit.stderr)")
    let dump = "SELECT title, content, tags FROM knowledge; SELECT title, notes FROM task;"
    let before = try runProcess("/usr/bin/env", ["sqlite3", database, dump]).stdout
    let file = cli.dir.appending("export.json")
    #expect(try cli.run(["export", "--output", file.path]).status == 0)

    let imported = try cli.run(["import", file.path])
    #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
    #expect(imported.stdout.contains("knowledge          0     1            0"), "\(imported.stdout)")
    #expect(imported.stdout.contains("tasks              0     1            0"), "\(imported.stdout)")
    #expect(imported.stdout.contains("Imported 0 record(s)."), "\(imported.stdout)")
    #expect(try runProcess("/usr/bin/env", ["sqlite3", database, dump]).stdout == before)
  }
}
