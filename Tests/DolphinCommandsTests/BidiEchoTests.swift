import ContinuityKit
import Foundation
import Testing
import TestSupport

/// A right-to-left override (U+202E) or another bidi control in a command-line argument was
/// echoed raw in the error message, where it reorders the rest of the line on the screen
/// (`TerminalText.inert` leaves bidi controls alone by design). Error messages now show them as
/// escapes; stored text and normal output are as before.
@Suite("Bidi controls in echoed arguments")
struct BidiEchoTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var testDescription: String { name }
    var name: String
    var args: [String]
    var status: Int32
    /// What the error message holds, with the control escaped.
    var shown: String
  }

  static let cases: [Case] = [
    Case(
      name: "an enumerated option", args: ["capture", "fact", "Title", "--priority", "\u{202E}hgih"], status: 2,
      shown: #"--priority '\u{202E}hgih' is not one of: low, normal, high, critical"#),
    Case(
      name: "a UUID argument", args: ["knowledge", "get", "\u{2067}abc\u{2069}"], status: 4,
      shown: #"'\u{2067}abc\u{2069}' is not a UUID"#),
    Case(
      name: "an unknown command", args: ["\u{202E}erutpac"], status: 2,
      shown: #"unknown command '\u{202E}erutpac'"#),
    Case(
      name: "a whole-number option", args: ["knowledge", "list", "--limit", "1\u{200F}0"], status: 2,
      shown: #"--limit must be a whole number, got '1\u{200F}0'"#),
  ]

  @Test("error messages show bidi controls as escapes, on stderr and in the JSON error document", arguments: cases)
  func escaped(_ c: Case) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(c.args)
    #expect(r.status == c.status, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains(c.shown), "\(r.stderr.debugDescription)")
    #expect(!r.stderr.unicodeScalars.contains(where: { $0.properties.isBidiControl }), "\(r.stderr.debugDescription)")
    let json = try cli.run(c.args + ["--json"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let message = try #require((document["error"] as? [String: Any])?["message"] as? String, "\(json.stdout)")
    #expect(message.contains(c.shown), "\(message.debugDescription)")
  }

  @Test("stored text and normal output are shown as before")
  func normalOutputUnchanged() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    // Right-to-left text is stored and shown as given; the sanitizer drops the override at capture.
    let captured = try cli.run(["capture", "fact", "שלום \u{202E}world", "--content", "مرحبا"])
    #expect(captured.status == 0, "\(captured.stderr)")
    #expect(captured.stdout.contains("Captured fact \"שלום world\""), "\(captured.stdout.debugDescription)")
    let list = try cli.run(["knowledge", "list"])
    #expect(list.stdout.contains("\"שלום world\""), "\(list.stdout.debugDescription)")
    #expect(!list.stdout.contains(#"\u{"#), "\(list.stdout)")
  }
}
