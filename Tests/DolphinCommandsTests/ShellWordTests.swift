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

  @Test("the readable forms")
  func forms() {
    #expect(ShellWord.quoted("/tmp/it's here") == #"'/tmp/it'\''s here'"#)
    #expect(ShellWord.quoted("it's\tx") == #"$'it\047s\tx'"#)
    #expect(ShellWord.quoted("a\nb\\c") == #"$'a\nb\\c'"#)
    #expect(ShellWord.quoted("a\u{2028}b") == #"$'a\342\200\250b'"#)
    // What a message prints of it holds no control character left for the terminal to escape.
    #expect(!ShellWord.quoted("a\tb\u{1B}c\u{202E}").unicodeScalars.contains(where: ShellWord.needsEscape))
    #expect(ShellWord.sqlArgument("UPDATE task SET knowledge_ids = '[]' WHERE id = 'X'") == #""UPDATE task SET knowledge_ids = '[]' WHERE id = 'X'""#)
    #expect(ShellWord.sqlArgument("DELETE FROM t WHERE id = '$x'") == #"'DELETE FROM t WHERE id = '\''$x'\'''"#)
    #expect(ShellWord.sqlLiteral("it's") == "'it''s'")
    #expect(ShellWord.sqlIdentifier("task") == #""task""#)
    #expect(ShellWord.sqlIdentifier(#"my "odd" table"#) == #""my ""odd"" table""#)
  }
}
