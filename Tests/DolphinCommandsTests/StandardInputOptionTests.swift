import Foundation
import Testing
import TestSupport

/// Review 19-b (F7): `-` read standard input for `--content` and `memory save`, but `--notes -`,
/// `--summary -` and `--focus -` stored a literal `-` and dropped what was piped.
@Suite("`-` reads standard input for every text option", .serialized)
struct StandardInputOptionTests {
  struct PipedCase: CustomStringConvertible, Sendable {
    var name: String
    var args: [String]
    /// Where the text lands in the JSON document, as a path of keys (an index for a list).
    var path: [String]
    var expected: String
    var description: String { name }
  }

  static let piped: [PipedCase] = [
    PipedCase(name: "task add --notes -", args: ["task", "add", "Ship", "--notes", "-"], path: ["task", "notes"], expected: "real notes\n"),
    PipedCase(
      name: "handoff create --summary -", args: ["handoff", "create", "--focus", "Release", "--summary", "-"],
      path: ["handoff", "summary"], expected: "real notes"),
    PipedCase(
      name: "handoff create --focus -", args: ["handoff", "create", "--focus", "-", "--summary", "S"],
      path: ["handoff", "focus"], expected: "real notes"),
    PipedCase(
      name: "handoff create --next -", args: ["handoff", "create", "--focus", "F", "--next", "first", "--next", "-"],
      path: ["handoff", "nextSteps", "1"], expected: "real notes"),
  ]

  @Test("the piped text is stored, as --content - stores it", arguments: piped)
  func readsStandardInput(_ c: PipedCase) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(c.args + ["--json"], stdin: "real notes\n")
    #expect(r.status == 0, "\(r.stderr)")
    var value: Any? = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
    for key in c.path {
      if let index = Int(key) { value = (value as? [Any])?[index] } else { value = (value as? [String: Any])?[key] }
    }
    #expect(value as? String == c.expected, "\(r.stdout)")
  }

  struct RefusedCase: CustomStringConvertible, Sendable {
    var name: String
    var args: [String]
    var stdin: String
    var status: Int32
    var stderr: String
    var description: String { name }
  }

  static let refused: [RefusedCase] = [
    RefusedCase(
      name: "two options asking for stdin", args: ["handoff", "create", "--focus", "-", "--summary", "-"], stdin: "x",
      status: 2,
      stderr: "--focus - and --summary - each ask for standard input, which holds one text and is read once: give `-` to one option only"),
    RefusedCase(
      name: "--next - twice", args: ["handoff", "create", "--focus", "F", "--next", "-", "--next", "-"], stdin: "x", status: 2,
      stderr: "--next - and --next - each ask for standard input"),
    RefusedCase(
      name: "empty standard input", args: ["task", "add", "Ship", "--notes", "-"], stdin: "", status: 4,
      stderr: "--notes -: standard input was empty; pipe the text in, or give it in place of '-'; nothing was stored"),
    RefusedCase(
      name: "over the bound, as --content - says it", args: ["task", "add", "Ship", "--notes", "-"],
      stdin: String(repeating: "n", count: 4_001), status: 4,
      stderr: "--notes is more than 4000 characters; the limit is 4000 characters (standard input holds at least 4001 characters, 4001 bytes: it was read only until that was clear)"),
    RefusedCase(
      name: "a summary over its bound", args: ["handoff", "create", "--focus", "F", "--summary", "-"],
      stdin: String(repeating: "s", count: 4_002), status: 4,
      stderr: "--summary is more than 4000 characters; the limit is 4000 characters (standard input holds at least "),
    RefusedCase(
      name: "not text", args: ["handoff", "create", "--focus", "-"], stdin: "a\u{0}b", status: 4,
      stderr: "--focus from standard input is not text: it holds a NUL byte (at byte 1)"),
  ]

  /// Review 19-d: `echo` text of exactly the bound was refused for its final line break, which
  /// the library then trims from a focus, summary or next step.
  @Test("a focus, summary or next step of exactly the bound then a newline is taken; notes keep their text as given")
  func finalLineBreak() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let focus = String(repeating: "f", count: 300)
    let handoff = try cli.run(["handoff", "create", "--focus", "-", "--json"], stdin: focus + "\n")
    #expect(handoff.status == 0, "\(handoff.stderr)")
    #expect(handoff.stdout.contains("\"focus\" : \"\(focus)\""))
    let summary = String(repeating: "s", count: 4_000)
    let withSummary = try cli.run(["handoff", "create", "--focus", "F", "--summary", "-"], stdin: summary + "\r\n")
    #expect(withSummary.status == 0, "\(withSummary.stderr)")
    // Only one: a second line break is text, and over the bound it is counted.
    let two = try cli.run(["handoff", "create", "--focus", "-"], stdin: focus + "x\n")
    #expect(two.status == 4 && two.stderr.contains("--focus is more than 300 characters; the limit is 300 characters"), "\(two.stderr)")
    // Notes are stored as given, as --content - stores content: the line break counts.
    let notes = try cli.run(["task", "add", "Ship", "--notes", "-", "--json"], stdin: "n\n")
    #expect(notes.stdout.contains(#""notes" : "n\n""#), "\(notes.stdout)")
  }

  /// Review 28-b, 7: a line of only a Braille blank refused the whole command, as "--next #3"
  /// (a step number, not the line's), where an import drops such a step.
  @Test("--next -: a line that shows nothing (invisible characters only) is a blank line; one holding only such lines holds no step")
  func invisibleLinesAreBlank() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["handoff", "create", "--focus", "F", "--next", "-", "--json"], stdin: "a\n\n  b  \n\u{2800}\n\u{00AD}\u{200B}\nc\n")
    #expect(r.status == 0, "\(r.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    #expect((object?["handoff"] as? [String: Any])?["nextSteps"] as? [String] == ["a", "b", "c"], "\(r.stdout)")
    let none = try cli.run(["handoff", "create", "--focus", "G", "--next", "-"], stdin: "\u{2800}\n \n")
    #expect(none.status == 4, "\(none.stderr)")
    #expect(none.stderr.contains("--next -: standard input held no step (no line showing anything but white space or invisible characters)"), "\(none.stderr)")
  }

  @Test("refused with the bounds and errors of --content -; nothing is stored", arguments: refused)
  func refusals(_ c: RefusedCase) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(c.args, stdin: c.stdin)
    #expect(r.status == c.status, "\(r.stderr)")
    #expect(r.stderr.contains(c.stderr), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: cli.workspace))
  }

  @Test("--help says which options read standard input")
  func helpSaysSo() throws {
    let task = try runDolphin(["task", "add", "--help"])
    #expect(task.stdout.contains("Notes, at most 4000 characters; '-' reads stdin."), "\(task.stdout)")
    let handoff = try runDolphin(["handoff", "create", "--help"]).stdout
    #expect(handoff.contains("(required, ≤ 300 characters); '-' reads stdin."), "\(handoff)")
    #expect(handoff.contains("A summary (≤ 4000 characters); '-' reads stdin;"), "\(handoff)")
    #expect(
      handoff.contains(
        "'-' reads steps from stdin, one per non-blank line (blank lines and surrounding white space count for nothing; "
          + "at most 1048576 bytes are read)."), "\(handoff)")
    #expect(handoff.contains("'-' reads standard input for one of --focus, --summary and --next"), "\(handoff)")
  }
}
