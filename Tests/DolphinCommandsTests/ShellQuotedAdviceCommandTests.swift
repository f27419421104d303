import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 29-b, 6: given another record's id, `knowledge edit` advised the command of that record
/// with the options given, but printed a value holding a tab or a line break as `'a\tb'`: in a
/// shell, a backslash and a `t`, so the command pasted did something else.
@Suite("Advice carrying a value with control characters pastes into bash as given", .serialized)
struct ShellQuotedAdviceCommandTests {
  struct Value: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var testDescription: String { name }
  }

  static let values: [Value] = [
    Value(name: "tab", text: "Ship\tit"),
    Value(name: "line break", text: "Ship\nit"),
    Value(name: "single quote", text: "Ship it's"),
    Value(name: "single quote and tab", text: "it's\tx"),
    Value(name: "single quote, line break, backslash and digits", text: "it's\n\\012 '7"),
  ]

  /// The command between the backquotes after `marker` in `text`.
  static func advisedLine(in text: String, after marker: String) throws -> String {
    let start = try #require(text.range(of: marker), "\(text)").upperBound
    let rest = text[start...]
    let open = try #require(rest.firstIndex(of: "`"), "\(text)")
    let body = rest[rest.index(after: open)...]
    let close = try #require(body.firstIndex(of: "`"), "\(text)")
    return String(body[..<close])
  }

  /// The words bash makes of `line`, `dolphin` standing for a function that prints them.
  static func bashWords(_ line: String) throws -> [String] {
    let r = try runProcess("/bin/bash", ["-c", #"dolphin() { printf '%s\0' "$@"; }; "# + line])
    #expect(r.status == 0, "\(line): \(r.stderr)")
    return r.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  @Test("knowledge edit given a task's id: the advised task edit carries the exact --title", arguments: values)
  func advisedTitleRoundTrips(_ value: Value) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let task = try #require(try cli.record("task", ["task", "add", "Ship it"])["id"] as? String)
    let wrong = try cli.run(["knowledge", "edit", task, "--title", value.text])
    #expect(wrong.status == 3, "\(wrong.stderr)")
    let line = try Self.advisedLine(in: wrong.stderr, after: "give it to ")
    #expect(!line.contains("\\t'") && !line.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(line)")
    let words = try Self.bashWords(line)
    #expect(words == ["task", "edit", task, "--title", value.text, "--workspace", cli.workspace], "\(line)")
    // The `--json` error's message carries the same command.
    let json = try cli.run(["knowledge", "edit", task, "--title", value.text, "--json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let message = try #require((object["error"] as? [String: Any])?["message"] as? String)
    #expect(try Self.advisedLine(in: message, after: "give it to ") == line)
  }

  @Test("a value without control characters stays in plain single quotes")
  func plainValuesKeepSingleQuotes() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let task = try #require(try cli.record("task", ["task", "add", "Ship it"])["id"] as? String)
    let wrong = try cli.run(["knowledge", "edit", task, "--title", "Ship it's"])
    #expect(
      try Self.advisedLine(in: wrong.stderr, after: "give it to ")
        == #"dolphin task edit \#(task) --title 'Ship it'\''s' --workspace \#(cli.workspace)"#)
  }
}
