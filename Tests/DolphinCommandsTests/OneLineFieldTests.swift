import Foundation
import Testing
import TestSupport

/// A line break stored in a one-line field (a title, a handoff's focus) must not let one record
/// print what reads as a second row of a list. The stored text and the JSON keep the break.
@Suite("One-line fields in lists")
struct OneLineFieldTests {
  /// A row a record could fake: an id, a kind column and an approving title.
  static let fakeID = "11111111-2222-3333-4444-555555555555"
  static let fakeRow = "\(fakeID)  decision   Approved: rotate nothing"

  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    /// The line break spliced between `harmless` and the fake row.
    let lineBreak: String
    var testDescription: String { name }
    /// The break as escapes print it (`\n`, `\r\n`, `\u{2028}`): in messages, and in a
    /// quoted title (``TerminalText/quoted(_:)``).
    var escaped: String {
      lineBreak.unicodeScalars.map { s in
        switch s {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
        }
      }.joined()
    }
  }

  static let breaks: [Case] = [
    Case(name: "line feed", lineBreak: "\n"),
    Case(name: "carriage return and line feed", lineBreak: "\r\n"),
    Case(name: "line separator U+2028", lineBreak: "\u{2028}"),
    Case(name: "paragraph separator U+2029", lineBreak: "\u{2029}"),
  ]

  /// Runs `args` on `ws` and returns stdout, expecting success.
  static func stdout(_ args: [String], _ ws: String) throws -> String {
    let r = try runDolphin(args + ["--workspace", ws])
    #expect(r.status == 0, "\(args): \(r.stderr)")
    return r.stdout
  }

  /// No printed line starts with the fake id, and the record's row shows the break as one space,
  /// or, in a quoted title, as its escape (a handoff's focus is cut at 80 characters, so only the
  /// start of the fake row is checked).
  /// - Parameter stored: for a quoted title, the title as stored (the sanitizer stores CRLF as
  ///   LF), whose break the row shows escaped.
  static func expectOneRow(_ output: String, id: String, _ c: Case, quoted stored: String? = nil) {
    let lines = output.split(whereSeparator: \.isNewline)
    let storedBreak = stored.map { Case(name: c.name, lineBreak: String($0.dropFirst("harmless".count).prefix(1))) }
    let shown = "harmless" + (storedBreak?.escaped ?? " ") + fakeID
    #expect(!lines.contains { $0.hasPrefix(fakeID) }, "\(c.name): \(output.debugDescription)")
    #expect(lines.contains { $0.contains(id) && $0.contains(shown) }, "\(c.name): \(output.debugDescription)")
  }

  static func json(_ args: [String], _ ws: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(stdout(args + ["--json"], ws).utf8)) as? [String: Any])
  }

  @Test("a memory's search row shows its first line as the title, as the MCP tools do", arguments: [["memory", "search"], ["search", "--include-memories"]])
  func memorySearchTitle(_ command: [String]) throws {
    let dir = TemporaryDirectory("one-line-memory")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    _ = try Self.stdout(["memory", "save", "Prefers tabs\nsecond line"], ws)
    let lines = try Self.stdout(command + ["tabs"], ws).split(whereSeparator: \.isNewline)
    #expect(
      lines.contains { $0.contains("memory (legacy)  score ") && $0.hasSuffix("  \"Prefers tabs\"") }, "\(lines)")
    let result = try #require((try Self.json(command + ["tabs"], ws)["results"] as? [[String: Any]])?.first)
    #expect(result["title"] as? String == "Prefers tabs")
  }

  @Test("knowledge list keeps a title with a line break on its row", arguments: breaks)
  func knowledgeList(_ c: Case) throws {
    let dir = TemporaryDirectory("one-line-knowledge")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let captured = try Self.json(["capture", "fact", "harmless" + c.lineBreak + Self.fakeRow], ws)
    let item = try #require((captured["item"] as? [String: Any]) ?? captured)
    let id = try #require(item["id"] as? String)
    let stored = try #require(item["title"] as? String)
    #expect(stored.contains { $0.isNewline }, "the stored title keeps its line break")

    Self.expectOneRow(try Self.stdout(["knowledge", "list"], ws), id: id, c, quoted: stored)
    let listed = try #require((try Self.json(["knowledge", "list"], ws)["items"] as? [[String: Any]])?.first)
    #expect(listed["title"] as? String == stored, "the JSON keeps the line break")
  }

  @Test("handoff list keeps a focus with a line break on its row", arguments: breaks)
  func handoffList(_ c: Case) throws {
    let dir = TemporaryDirectory("one-line-handoff")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let created = try Self.json(["handoff", "create", "--focus", "harmless" + c.lineBreak + Self.fakeRow], ws)
    let handoff = try #require((created["handoff"] as? [String: Any]) ?? created)
    let id = try #require(handoff["id"] as? String)
    let stored = try #require(handoff["focus"] as? String)
    #expect(stored.contains { $0.isNewline }, "the stored focus keeps its line break")

    // The focus is quoted, its break escaped.
    Self.expectOneRow(try Self.stdout(["handoff", "list"], ws), id: id, c, quoted: stored)
    let listed = try #require((try Self.json(["handoff", "list"], ws)["handoffs"] as? [[String: Any]])?.first)
    #expect(listed["focus"] as? String == stored, "the JSON keeps the line break")
  }

  @Test("task list keeps a title with a line break on its row", arguments: breaks)
  func taskList(_ c: Case) throws {
    let dir = TemporaryDirectory("one-line-task")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let task = try #require(try Self.json(["task", "add", "harmless" + c.lineBreak + Self.fakeRow], ws)["task"] as? [String: Any])
    let id = try #require(task["id"] as? String)
    let stored = try #require(task["title"] as? String)
    #expect(stored.contains { $0.isNewline }, "the stored title keeps its line break")

    Self.expectOneRow(try Self.stdout(["task", "list"], ws), id: id, c, quoted: stored)
    let listed = try #require((try Self.json(["task", "list"], ws)["tasks"] as? [[String: Any]])?.first)
    #expect(listed["title"] as? String == stored, "the JSON keeps the line break")
  }

  @Test("a tag with a line break is refused at capture and memory save, and as a --tag filter", arguments: breaks + [Case(name: "tab", lineBreak: "\t")])
  func tagWithLineBreakRefused(_ c: Case) throws {
    let dir = TemporaryDirectory("tags")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let tag = "x\(c.lineBreak)y"
    let escaped = c.escaped
    let problem = c.lineBreak == "\t" ? "a tab" : "a line break"
    for args in [["capture", "fact", "t", "--tags", "ok," + tag], ["memory", "save", "m", "--tags", "ok," + tag]] {
      let r = try runDolphin(args + ["--workspace", ws])
      #expect(r.status == 4, "\(c.name) \(args[0]): \(r.stderr)")
      #expect(
        r.stderr.contains("--tags 'x\(escaped)y' contains \(problem); a tag is one line without tabs or control characters"),
        "\(c.name): \(r.stderr)")
    }
    // The library names the field as given (tags[1]); the CLI names the flag and quotes the value.
    let json = try runDolphin(["capture", "fact", "t", "--tags", "ok," + tag, "--json", "--workspace", ws])
    #expect(json.stdout.contains("\"field\" : \"tags[1]\"") || json.stdout.contains("\"field\":\"tags[1]\""), "\(json.stdout)")
    _ = try Self.stdout(["capture", "fact", "t", "--tags", "x y"], ws)
    let list = try JSONSerialization.jsonObject(with: Data(Self.stdout(["knowledge", "list", "--json"], ws).utf8)) as? [String: Any]
    #expect(list?["total"] as? Int == 1, "the refused captures stored nothing")
    let filter = try runDolphin(["knowledge", "list", "--tag", tag, "--workspace", ws])
    #expect(filter.status == 4, "\(c.name): \(filter.stderr)")
    #expect(filter.stderr.contains("--tag 'x\(escaped)y' contains \(problem)"), "\(c.name): \(filter.stderr)")
    #expect(try Self.stdout(["knowledge", "list", "--tag", "x y"], ws).contains("[x y]"))
  }
}
