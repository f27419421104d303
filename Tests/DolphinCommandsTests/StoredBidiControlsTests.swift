import Foundation
import Testing
import TestSupport

/// Regression (review, s13): a title written into the database by another program with a
/// right-to-left override (U+202E) was printed raw by `search`, `knowledge list`, `insights` and
/// handoff summaries, reversing the rest of the line (`gpj.exe` read as `exe.jpg`). Capture and
/// import never store one; the CLI and the Markdown export now show it escaped wherever stored text
/// is printed. JSON keeps the stored value exactly.
@Suite("stored bidirectional controls are printed escaped", .serialized)
struct StoredBidiControlsTests {
  func sqlite(_ cli: CLI, _ sql: String) throws {
    let edit = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql])
    try #require(edit.status == 0, "sqlite3 is needed to edit the workspace outside dolphin: \(edit.stderr)")
  }

  @Test("search, list, get, handoff and the Markdown export show \\u{202E}, never the control")
  func escapedEverywhere() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try #require((try cli.json(["capture", "fact", "Colour notes", "--content", "colour body", "--json"])["item"] as? [String: Any])?["id"] as? String)
    try sqlite(
      cli,
      "UPDATE knowledge SET title = 'Colour RED' || char(8238) || 'gpj.exe', "
        + "content = 'body ' || char(8238) || 'txt.exe colour' WHERE id = '\(id)'")
    #expect(try cli.run(["reindex"]).status == 0)
    #expect(try cli.run(["handoff", "create", "--focus", "Review colours", "--summary", "s", "--knowledge", id]).status == 0)

    // (Markdown escapes the backslash of the escape, as it escapes every stored backslash.)
    let shown = [
      "search colour": "RED\\u{202E}gpj.exe", "knowledge list": "RED\\u{202E}gpj.exe",
      "knowledge get": "RED\\u{202E}gpj.exe", "handoff list": "Review colours",
      "export --format markdown": "RED\\\\u{202E}gpj.exe",
    ]
    for (command, expected) in shown.sorted(by: { $0.key < $1.key }) {
      let args = command.split(separator: " ").map(String.init) + (command == "knowledge get" ? [id] : [])
      let out = try cli.run(args)
      #expect(out.status == 0, "\(args): \(out.stderr)")
      #expect(!out.stdout.unicodeScalars.contains("\u{202E}"), "\(args) printed U+202E raw")
      #expect(out.stdout.contains(expected), "\(args): \(out.stdout.prefix(600))")
    }
    let markdown = try cli.run(["export", "--format", "markdown"]).stdout
    #expect(markdown.contains("body \\u{202E}txt.exe colour"), "\(markdown)")
    // JSON is data: the stored title exactly.
    let listed = try cli.json(["knowledge", "list", "--json"])
    let titles = (listed["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    #expect(titles == ["Colour RED\u{202E}gpj.exe"])
  }

  /// Regression (second review, s13): JSON printed to stdout went through the terminal filter,
  /// which shows C1 controls as U+FFFD: a stored U+0085 came out of `export` and `--json` as
  /// U+FFFD, so the export on stdout was not the stored value. JSON now carries them escaped.
  @Test("--json and export on stdout keep a stored C1 control or DEL exactly, escaped")
  func jsonKeepsC1Controls() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try #require((try cli.json(["capture", "fact", "C1 test", "--content", "body", "--json"])["item"] as? [String: Any])?["id"] as? String)
    try sqlite(cli, "UPDATE knowledge SET content = 'a' || char(133) || 'NEL' || char(127) || char(155) WHERE id = '\(id)'")
    let stored = "a\u{85}NEL\u{7F}\u{9B}"
    let got = try cli.run(["knowledge", "get", id, "--json"])
    #expect(got.stdout.contains(#""content" : "a\u0085NEL\u007f\u009b""#), "\(got.stdout)")
    #expect(!got.stdout.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0 == "\u{FFFD}" })
    let shown = try #require(try JSONSerialization.jsonObject(with: Data(got.stdout.utf8)) as? [String: Any])
    #expect((shown["item"] as? [String: Any])?["content"] as? String == stored)
    let export = try cli.run(["export"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
    let workspace = document["workspace"] as? [String: Any] ?? [:]
    let contents = (workspace["knowledge"] as? [[String: Any]] ?? []).compactMap { $0["content"] as? String }
    #expect(contents == [stored], "\(contents)")
  }
}
