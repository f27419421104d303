import Testing

@testable import KnowledgeEngine

/// One lexer case: a source and, for one line, the expected code and comment views.
struct LexerCase: CustomTestStringConvertible, Sendable {
  var name: String
  var source: String
  var line: Int
  var code: String
  var comment: String
  var testDescription: String { name }
}

let lexerCases: [LexerCase] = [
  LexerCase(
    name: "line comment", source: "let a = 1 // note", line: 1,
    code: "let a = 1        ", comment: "          // note"),
  LexerCase(
    name: "string contents blanked, delimiters kept", source: #"f("a // b")"#, line: 1,
    code: #"f("      ")"#, comment: String(repeating: " ", count: 11)),
  LexerCase(
    name: "interpolation is code, with a nested string holding )",
    source: #"s = "a \(g(")")) b""#, line: 1,
    code: #"s = "  \(g(" "))  ""#, comment: String(repeating: " ", count: 19)),
  LexerCase(
    name: "nested block comment spanning lines",
    source: "x /* a /* b */\nc */ y", line: 2,
    code: "     y", comment: "c */  "),
  LexerCase(
    name: "inside a multiline string nothing is code",
    source: "let s = \"\"\"\n  // x \\(y)\n  \"\"\"", line: 2,
    code: "       \\(y)", comment: String(repeating: " ", count: 11)),
  LexerCase(
    name: "raw string: only \\#( interpolates", source: ##"r = #"\(a) \#(b)"#"##, line: 1,
    code: ##"r = #"     \#(b)"#"##, comment: String(repeating: " ", count: 18)),
  LexerCase(
    name: "two-pound raw string ends only at \"##", source: ###"r = ##"a"#b"## + c"###, line: 1,
    code: ###"r = ##"    "## + c"###, comment: String(repeating: " ", count: 18)),
  LexerCase(
    name: "unterminated string ends at the line break", source: "let s = \"open\nlet t = 1 // c",
    line: 2, code: "let t = 1     ", comment: "          // c"),
  LexerCase(
    name: "backticked identifier is code", source: "let `a // b` = 1", line: 1,
    code: "let `a // b` = 1", comment: String(repeating: " ", count: 16)),
  LexerCase(
    name: "escaped quote stays inside the string", source: #"s = "a\"b" // c"#, line: 1,
    code: #"s = "    "     "#, comment: "           // c"),
]

extension CodeReview {
  @Suite("SwiftLexer")
  struct SwiftLexerTests {
    @Test("code and comment views", arguments: lexerCases)
    func views(_ c: LexerCase) throws {
      let lines = SwiftLexer.lex(c.source)
      let line = try #require(lines.first { $0.number == c.line })
      #expect(line.code == c.code)
      #expect(line.comment == c.comment)
      #expect(line.text.count == line.code.count)
    }

    @Test("code columns are runs of 1-based Character columns")
    func codeColumns() throws {
      let line = try #require(SwiftLexer.lex("👨‍👩‍👧‍👦 = \"x\" // y").first)
      #expect(line.codeColumns == [1...5, 7...8])
      #expect(line.isCode(column: 5))
      #expect(!line.isCode(column: 6))
      #expect(!line.isCode(column: 9))
      #expect(line.hasCode && line.hasComment)
    }

    @Test("line breaks: LF, CRLF and CR; a trailing break adds no line")
    func lineBreaks() {
      let lines = SwiftLexer.lex("a\nb\r\nc\rd\n")
      #expect(lines.map(\.text) == ["a", "b", "c", "d"])
      #expect(lines.map(\.number) == [1, 2, 3, 4])
      #expect(SwiftLexer.lex("").map(\.text) == [""])
    }
  }
}
