import Foundation
import Testing
import TestSupport

/// Regression (review, s14): control characters another program stored in titles were shown two
/// ways: a knowledge title `Ctl<BEL>bell<ESC>[31mred` listed as `"Ctl␇bell␛[31mred"` (control
/// pictures) while a task title `Task<BS><CR>x` listed as `"Task␈\rx"` (a picture beside an
/// escape), and README said controls are written as escapes. Every list, detail and search row
/// now writes a stored title's controls as escapes (`\u{7}`, `\u{1B}`, `\u{8}`; `\r` inside quotes).
@Suite("Stored controls in titles, shown one way", .serialized)
struct StoredControlDisplayTests {
  struct Shown: Sendable, CustomTestStringConvertible {
    let name: String
    let args: [String]
    /// What the output must hold.
    let expected: String
    var testDescription: String { name }
  }

  static func sqlite(_ cli: CLI, _ sql: String) throws {
    let edit = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql])
    #expect(edit.status == 0, "\(edit.stderr)")
  }

  static func id(_ obj: [String: Any], _ key: String) throws -> String {
    try #require(((obj[key] as? [String: Any]) ?? obj)["id"] as? String)
  }

  @Test("knowledge, task, handoff and memory titles: escapes in every list, detail and search row, never pictures or raw controls")
  func titlesShownAsEscapes() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try Self.id(cli.json(["capture", "fact", "Ctl bell red", "--content", "Build server notes."]), "item")
    let t = try Self.id(cli.record("task", ["task", "add", "Task x"]), "task")
    let h = try Self.id(cli.json(["handoff", "create", "--focus", "Handoff focus", "--next", "Step one"]), "handoff")
    let m = try Self.id(cli.json(["memory", "save", "Memory bell"]), "memory")
    try Self.sqlite(
      cli,
      """
      UPDATE knowledge SET title = 'Ctl' || char(7) || 'bell' || char(27) || '[31mred' WHERE id = '\(k)';
      UPDATE task SET title = 'Task' || char(8) || char(13) || 'x' WHERE id = '\(t)';
      UPDATE handoff SET focus = 'Handoff' || char(7) || ' focus' || char(27) || '[1m' WHERE id = '\(h)';
      UPDATE memory SET text = 'Memory' || char(127) || ' bell' || char(27) || '[2J' WHERE id = '\(m)';
      """)
    let knowledge = #"Ctl\u{7}bell\u{1B}[31mred"#
    let handoff = #"Handoff\u{7} focus\u{1B}[1m"#
    let cases = [
      Shown(name: "knowledge list", args: ["knowledge", "list"], expected: "\"\(knowledge)\""),
      Shown(name: "knowledge get", args: ["knowledge", "get", k], expected: "fact: \(knowledge)\n"),
      Shown(name: "search", args: ["search", "bell"], expected: "\"\(knowledge)\""),
      Shown(name: "task list", args: ["task", "list"], expected: #""Task\u{8}\rx""#),
      Shown(name: "task search", args: ["task", "search", "task"], expected: #""Task\u{8}\rx""#),
      Shown(name: "handoff list", args: ["handoff", "list"], expected: "\"\(handoff)\""),
      Shown(name: "handoff get", args: ["handoff", "get", h], expected: "Handoff: \(handoff)\n"),
      Shown(name: "memory list", args: ["memory", "list"], expected: #""Memory\u{7F} bell\u{1B}[2J""#),
      Shown(name: "memory search", args: ["memory", "search", "memory"], expected: #""Memory\u{7F} bell\u{1B}[2J""#),
    ]
    for c in cases {
      let r = try cli.run(c.args)
      #expect(r.status == 0, "\(c.name): \(r.stderr)")
      #expect(r.stdout.contains(c.expected), "\(c.name): \(r.stdout.debugDescription)")
      // No control picture (U+2400…U+2421) and no raw control but line feeds.
      let scalars = r.stdout.unicodeScalars
      #expect(!scalars.contains { (0x2400...0x2421).contains($0.value) }, "\(c.name): \(r.stdout.debugDescription)")
      #expect(!scalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, "\(c.name)")
    }
    // --json keeps the characters themselves.
    let listed = try cli.json(["knowledge", "list"])
    let item = try #require((listed["items"] as? [[String: Any]])?.first { $0["id"] as? String == k })
    #expect(item["title"] as? String == "Ctl\u{7}bell\u{1B}[31mred")
  }
}
