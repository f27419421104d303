@testable import DolphinCommands
import ContinuityKit
import Foundation
import Testing
import TestSupport

/// The words `doctor` prints into shell commands reach the program exactly as given, whatever
/// they hold: checked by handing each to a real `sh`.
@Suite("Shell words")
struct ShellWordTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "plain path", text: "/home/ana/.local/share/dolphin/workspace.sqlite"),
    Case(name: "space and single quote", text: "/tmp/it's a workspace/workspace.sqlite"),
    Case(name: "quote at both ends", text: "'edge'"),
    Case(name: "double quote, dollar, backquote, backslash, bang", text: #"a"b $HOME `id` \n !x *"#),
    Case(name: "line break", text: "two\nlines"),
    Case(name: "empty", text: ""),
    // Review 29-b, 6: written in ANSI-C quotes (`$'…'`), which bash reads; plain single quotes
    // would be printed with `\t` in them, a backslash and a `t` to a shell.
    Case(name: "tab", text: "a\tb"),
    Case(name: "tab and single quote", text: "it's\tx"),
    Case(name: "line break and single quote", text: "it's\nnext"),
    Case(name: "quote then digits, backslash then digits", text: "a'7\t1\\012 \\x41"),
    Case(name: "dollar, bang, backquote beside a tab", text: "$HOME !x `id`\t\"q\""),
    Case(name: "carriage return, escape, DEL, C1", text: "a\r\u{1B}[31m\u{7F}\u{85}z"),
    Case(name: "line and paragraph separators, bidi override", text: "a\u{2028}b\u{2029}c\u{202E}d é 日本"),
    // Review 30-b, 7: characters that show nothing were printed raw inside '…'.
    Case(name: "zero-width space, non-joiner, joiner", text: "my\u{200B}ws\u{200C}x\u{200D}y"),
    Case(name: "word joiner and byte order mark", text: "\u{FEFF}/tmp/ws\u{2060}1"),
    Case(name: "bidi embeddings and isolates", text: "a\u{202A}b\u{202B}c\u{202C}d\u{202D}e\u{2066}f\u{2067}g\u{2068}h\u{2069}"),
    Case(name: "Mongolian vowel separator, soft hyphen, tag characters", text: "a\u{180E}b\u{00AD}c\u{E0001}\u{E0041}d"),
    Case(name: "emoji joined by U+200D, with a quote", text: "👩\u{200D}💻 it's"),
  ]

  /// The cases a POSIX.1-2017 `sh` (dash, `/bin/sh` here) reads too: no character ``ShellWord``
  /// writes in ANSI-C quotes.
  static var posixCases: [Case] { cases.filter { !$0.text.unicodeScalars.contains(where: ShellWord.needsEscape) } }

  @Test("quoted(_:) is one word bash reads back unchanged", arguments: cases)
  func quotedRoundTrips(_ c: Case) throws {
    let r = try runProcess("/bin/bash", ["-c", "printf '%s' " + ShellWord.quoted(c.text)])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == c.text, "\(ShellWord.quoted(c.text))")
  }

  @Test("without a control character, quoted(_:) is plain single quotes that sh reads back too", arguments: posixCases)
  func quotedRoundTripsInSh(_ c: Case) throws {
    #expect(!ShellWord.quoted(c.text).hasPrefix("$"))
    let r = try runProcess("/bin/sh", ["-c", "printf '%s' " + ShellWord.quoted(c.text)])
    #expect(r.stdout == c.text)
  }

  @Test("sqlArgument(_:) keeps the usual double quotes when it can, and is one word either way", arguments: cases)
  func sqlArgumentRoundTrips(_ c: Case) throws {
    let r = try runProcess("/bin/bash", ["-c", "printf '%s' " + ShellWord.sqlArgument(c.text)])
    #expect(r.stdout == c.text)
  }

  @Test("word(_:) leaves plain words bare, and is one word the shell reads back unchanged", arguments: cases)
  func wordRoundTrips(_ c: Case) throws {
    let r = try runProcess("/bin/bash", ["-c", "printf '%s' " + ShellWord.word(c.text)])
    #expect(r.stdout == c.text)
    #expect(ShellWord.word("--workspace=/tmp/ws") == "--workspace=/tmp/ws")
    #expect(ShellWord.word("my ws") == "'my ws'")
    #expect(ShellWord.word("~/ws") == "'~/ws'")
  }

  /// Review 30-b, 7, end to end: the command a message suggests for a workspace path holding a
  /// zero-width space shows it as an escape, and bash reads the word back as the path.
  @Test("a suggested command quotes a workspace path holding a zero-width space visibly, and bash reads it back")
  func suggestedCommandShowsZeroWidthSpace() throws {
    let dir = TemporaryDirectory("zero-width")
    defer { dir.remove() }
    let ws = dir.appending("my\u{200B}notes").path
    let r = try runDolphin(["status", "--workspace", ws])
    #expect(r.status == 3, "\(r.stderr)")
    let start = try #require(r.stderr.range(of: "`dolphin capture KIND TITLE --workspace $'"), "\(r.stderr)")
    let rest = r.stderr[start.upperBound...]
    let end = try #require(rest.firstIndex(of: "'"))
    let word = "$'" + rest[..<end] + "'"
    #expect(word.contains(#"my\342\200\213notes"#), "\(word)")
    #expect(!word.unicodeScalars.contains(where: ShellWord.needsEscape), "\(word)")
    let back = try runProcess("/bin/bash", ["-c", "printf '%s' " + word])
    #expect(back.stdout == ws, "\(word)")
  }

  @Test("the readable forms")
  func forms() {
    #expect(ShellWord.quoted("/tmp/it's here") == #"'/tmp/it'\''s here'"#)
    #expect(ShellWord.quoted("it's\tx") == #"$'it\047s\tx'"#)
    #expect(ShellWord.quoted("a\nb\\c") == #"$'a\nb\\c'"#)
    #expect(ShellWord.quoted("a\u{2028}b") == #"$'a\342\200\250b'"#)
    #expect(ShellWord.quoted("a\u{200B}b") == #"$'a\342\200\213b'"#)
    #expect(ShellWord.quoted("\u{FEFF}x") == #"$'\357\273\277x'"#)
    #expect(ShellWord.word("ws\u{2060}") == #"$'ws\342\201\240'"#)
    for scalar: Unicode.Scalar in ["\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}"] {
      #expect(ShellWord.needsEscape(scalar), "U+\(String(scalar.value, radix: 16, uppercase: true))")
    }
    // Visible characters, joined or not, stay as they are.
    #expect(ShellWord.quoted("é 日本 👍") == "'é 日本 👍'")
    // What a message prints of it holds no control character left for the terminal to escape.
    #expect(!ShellWord.quoted("a\tb\u{1B}c\u{202E}d\u{200B}e\u{FEFF}").unicodeScalars.contains(where: ShellWord.needsEscape))
    #expect(ShellWord.sqlArgument("UPDATE task SET knowledge_ids = '[]' WHERE id = 'X'") == #""UPDATE task SET knowledge_ids = '[]' WHERE id = 'X'""#)
    #expect(ShellWord.sqlArgument("DELETE FROM t WHERE id = '$x'") == #"'DELETE FROM t WHERE id = '\''$x'\'''"#)
    #expect(ShellWord.sqlLiteral("it's") == "'it''s'")
    #expect(ShellWord.sqlIdentifier("task") == #""task""#)
    #expect(ShellWord.sqlIdentifier(#"my "odd" table"#) == #""my ""odd"" table""#)
  }
}
