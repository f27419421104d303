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
  ]

  @Test("quoted(_:) is one word the shell reads back unchanged", arguments: cases)
  func quotedRoundTrips(_ c: Case) throws {
    let r = try runProcess("/bin/sh", ["-c", "printf '%s' " + ShellWord.quoted(c.text)])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == c.text)
  }

  @Test("sqlArgument(_:) keeps the usual double quotes when it can, and is one word either way", arguments: cases)
  func sqlArgumentRoundTrips(_ c: Case) throws {
    let r = try runProcess("/bin/sh", ["-c", "printf '%s' " + ShellWord.sqlArgument(c.text)])
    #expect(r.stdout == c.text)
  }

  @Test("word(_:) leaves plain words bare, and is one word the shell reads back unchanged", arguments: cases)
  func wordRoundTrips(_ c: Case) throws {
    let r = try runProcess("/bin/sh", ["-c", "printf '%s' " + ShellWord.word(c.text)])
    #expect(r.stdout == c.text)
    #expect(ShellWord.word("--workspace=/tmp/ws") == "--workspace=/tmp/ws")
    #expect(ShellWord.word("my ws") == "'my ws'")
    #expect(ShellWord.word("~/ws") == "'~/ws'")
  }

  @Test("the readable forms")
  func forms() {
    #expect(ShellWord.quoted("/tmp/it's here") == #"'/tmp/it'\''s here'"#)
    #expect(ShellWord.sqlArgument("UPDATE task SET knowledge_ids = '[]' WHERE id = 'X'") == #""UPDATE task SET knowledge_ids = '[]' WHERE id = 'X'""#)
    #expect(ShellWord.sqlArgument("DELETE FROM t WHERE id = '$x'") == #"'DELETE FROM t WHERE id = '\''$x'\'''"#)
    #expect(ShellWord.sqlLiteral("it's") == "'it''s'")
    #expect(ShellWord.sqlIdentifier("task") == #""task""#)
    #expect(ShellWord.sqlIdentifier(#"my "odd" table"#) == #""my ""odd"" table""#)
  }
}
