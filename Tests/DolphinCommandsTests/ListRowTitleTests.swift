import Foundation
import Testing
import TestSupport

/// The rows of `knowledge list`, `task list` and `task search` print the id first and the title
/// quoted (``TerminalText/quoted(_:)``), so that a title holding a quote, a tab, a line break or
/// a terminal escape cannot end early and print what reads as the row's own tags, priority,
/// provenance or matched stems, or a row of its own; a line break and a tab show as `\n` and
/// `\t`.
@Suite("titles in list rows", .serialized)
struct ListRowTitleTests {
  static let fake = "AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAAA"

  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    /// The title as stored.
    let title: String
    /// The title as the row shows it, quotes included.
    let shown: String
    var testDescription: String { name }
  }

  static let knowledgeCases: [Case] = [
    Case(
      name: "quote", title: #"Rotate keys"  [approved]  (legacy memory)"#,
      shown: #""Rotate keys\"  [approved]  (legacy memory)""#),
    Case(name: "tab", title: "Rotate keys\t[approved]", shown: #""Rotate keys\t[approved]""#),
    Case(
      name: "line feed", title: "Rotate keys\n\(fake)  decision   Approved",
      shown: #""Rotate keys\n\#(fake)  decision   Approved""#),
    Case(name: "backslash", title: #"C:\keys" [x]"#, shown: #""C:\\keys\" [x]""#),
  ]

  static func id(_ obj: [String: Any]) throws -> String {
    try #require(((obj["item"] as? [String: Any]) ?? obj)["id"] as? String)
  }

  static func rows(_ output: String) -> [String] { output.split(separator: "\n").map(String.init) }

  @Test("knowledge list: id, kind, the quoted title, then the tags", arguments: knowledgeCases)
  func knowledgeList(_ c: Case) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try Self.id(cli.json(["capture", "fact", c.title, "--tags", "ops"]))
    let r = try cli.run(["knowledge", "list"])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = Self.rows(r.stdout)
    #expect(rows.count == 2, "a header and one row: \(rows)")
    #expect(rows.contains("\(id)  fact       \(c.shown)  [ops]"), "\(rows)")
  }

  @Test("knowledge list shows a terminal escape stored outside dolphin as its escape, inside the quotes")
  func knowledgeListEscape() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try Self.id(cli.json(["capture", "fact", "Rotate keys"]))
    // Capture drops control characters; an older build or a direct edit could store one.
    let edit = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite",
       "UPDATE knowledge SET title = 'Rotate keys' || char(27) || '[8m' || char(9) || '[approved]' WHERE id = '\(id)';"])
    #expect(edit.status == 0, "\(edit.stderr)")
    let r = try cli.run(["knowledge", "list"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!r.stdout.contains("\u{1B}"))
    #expect(Self.rows(r.stdout).contains("\(id)  fact       \"Rotate keys\\u{1B}[8m\\t[approved]\""), "\(r.stdout)")
  }

  @Test("task list: status box, id, the quoted title, then the priority", arguments: [
    Case(name: "quote", title: #"Ship it" (critical)"#, shown: #""Ship it\" (critical)""#),
    Case(name: "tab", title: "Ship it\t(critical)", shown: #""Ship it\t(critical)""#),
    Case(name: "line feed", title: "Ship it\n[x] \(fake)  Done", shown: #""Ship it\n[x] \#(fake)  Done""#),
  ])
  func taskList(_ c: Case) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try Self.id(cli.record("task", ["task", "add", c.title, "--priority", "high"]))
    let r = try cli.run(["task", "list"])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = Self.rows(r.stdout)
    #expect(rows == ["1 task(s) shown of 1", "[ ] \(id)  \(c.shown) (high)"], "\(rows)")
  }

  @Test("task search: the quoted title comes before the matched stems, which it cannot fake")
  func taskSearch() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try Self.id(cli.record("task", ["task", "add", #"Ship it"  matched stems: approved"#]))
    let r = try cli.run(["task", "search", "ship"])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = Self.rows(r.stdout)
    #expect(rows.count == 2, "\(rows)")
    #expect(rows.last == #"[ ] \#(id)  "Ship it\"  matched stems: approved"  matched stems: ship"#, "\(rows)")
  }

  @Test("task search shows a line break and a tab in a title as \\n and \\t, as the other lists and analyze do")
  func taskSearchLineBreak() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try Self.id(cli.record("task", ["task", "add", "Ship it\nnow\tplease"]))
    let r = try cli.run(["task", "search", "ship"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(Self.rows(r.stdout).last == #"[ ] \#(id)  "Ship it\nnow\tplease"  matched stems: ship"#, "\(r.stdout)")
  }
}
