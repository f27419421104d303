import ContinuityKit
import Testing

@Suite("TerminalText")
struct TerminalTextTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let input: String
    let expected: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "plain text", input: "héllo 👨‍👩‍👧‍👦 <b>", expected: "héllo 👨‍👩‍👧‍👦 <b>"),
    Case(name: "tab and newline", input: "a\tb\nc", expected: "a\tb\nc"),
    Case(name: "CSI color", input: "\u{1B}[31mred\u{1B}[0m", expected: "␛[31mred␛[0m"),
    Case(
      name: "CSI cursor movement", input: "ok\u{1B}[2K\u{1B}[1Afake", expected: "ok␛[2K␛[1Afake"),
    Case(name: "OSC title ended by BEL", input: "\u{1B}]0;pwned\u{07}", expected: "␛]0;pwned␇"),
    Case(
      name: "OSC 8 hyperlink ended by ST",
      input: "\u{1B}]8;;http://evil\u{1B}\\click\u{1B}]8;;\u{1B}\\",
      expected: "␛]8;;http://evil␛\\click␛]8;;␛\\"),
    Case(name: "OSC 52 clipboard", input: "\u{1B}]52;c;aGk=\u{07}", expected: "␛]52;c;aGk=␇"),
    Case(name: "other ESC: full reset", input: "\u{1B}c", expected: "␛c"),
    Case(name: "other ESC: save cursor", input: "\u{1B}7x\u{1B}8", expected: "␛7x␛8"),
    Case(name: "8-bit CSI", input: "\u{9B}31mred", expected: "\u{FFFD}31mred"),
    Case(name: "8-bit OSC and ST", input: "\u{9D}0;t\u{9C}", expected: "\u{FFFD}0;t\u{FFFD}"),
    Case(name: "NEL", input: "a\u{85}b", expected: "a\u{FFFD}b"),
    Case(name: "NUL and backspace", input: "abc\u{00}\u{08}\u{08}xy", expected: "abc␀␈␈xy"),
    Case(name: "DEL", input: "a\u{7F}b", expected: "a␡b"),
    Case(name: "unit separator", input: "\u{1F}", expected: "␟"),
    Case(name: "CRLF", input: "a\r\nb", expected: "a\nb"),
    Case(name: "lone CR overprinting", input: "rm -rf /\rls", expected: "rm -rf /␍ls"),
    Case(name: "CR CR LF", input: "a\r\r\n", expected: "a␍\n"),
    Case(name: "empty", input: "", expected: ""),
  ]

  @Test("Controls become visible placeholders", arguments: cases)
  func makesInert(_ testCase: Case) {
    let output = TerminalText.inert(testCase.input)
    #expect(
      Array(output.unicodeScalars) == Array(testCase.expected.unicodeScalars),
      "\(output.debugDescription)")
    #expect(
      Array(TerminalText.inert(output).unicodeScalars) == Array(output.unicodeScalars), "idempotent"
    )
    let controls = output.unicodeScalars.filter {
      ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
    }
    #expect(controls.isEmpty)
  }

  @Test("Every C0 and C1 control is replaced")
  func everyControl() {
    for value in Array(0x00...0x1F) + Array(0x7F...0x9F) where value != 0x09 && value != 0x0A {
      guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
      let output = TerminalText.inert("a" + String(Character(scalar)) + "b")
      #expect(output.unicodeScalars.count == 3, "U+\(String(value, radix: 16))")
      #expect(!output.unicodeScalars.contains(scalar), "U+\(String(value, radix: 16))")
    }
  }

  static let singleLineCases: [Case] = [
    Case(name: "no break", input: "plain title", expected: "plain title"),
    Case(name: "line feed", input: "a\nb", expected: "a b"),
    Case(name: "CRLF is one break", input: "a\r\nb", expected: "a b"),
    Case(name: "lone CR", input: "a\rb", expected: "a b"),
    Case(name: "tab", input: "a\tb", expected: "a b"),
    Case(
      name: "vertical tab, form feed, NEL, U+2028, U+2029",
      input: "a\u{0B}b\u{0C}c\u{85}d\u{2028}e\u{2029}f", expected: "a b c d e f"),
    Case(name: "each break is one space", input: "a\n\nb", expected: "a  b"),
  ]

  @Test("singleLine folds each line break and tab to one space", arguments: singleLineCases)
  func singleLine(_ testCase: Case) {
    let output = TerminalText.singleLine(testCase.input)
    #expect(Array(output.unicodeScalars) == Array(testCase.expected.unicodeScalars), "\(output.debugDescription)")
    #expect(!output.contains { $0.isNewline })
  }

  static let quotedCases: [Case] = [
    Case(name: "plain", input: "Rotate keys", expected: #""Rotate keys""#),
    Case(
      name: "a quote cannot close the quotation early",
      input: #"Rotate keys" (AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAAA); newest: "x"#,
      expected: #""Rotate keys\" (AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAAA); newest: \"x""#),
    Case(name: "a backslash before a quote stays escaped", input: #"a\" b"#, expected: #""a\\\" b""#),
    Case(name: "a quote with a combining mark", input: "a\"\u{301} b", expected: "\"a\\\"\u{301} b\""),
    Case(name: "a line feed shows as \\n", input: "a\nb", expected: #""a\nb""#),
    Case(name: "a tab shows as \\t", input: "a\tb", expected: #""a\tb""#),
    Case(name: "CRLF and a lone CR", input: "a\r\nb\rc", expected: #""a\r\nb\rc""#),
    Case(name: "a backslash before an n is not a line feed", input: #"C:\new"#, expected: #""C:\\new""#),
    Case(
      name: "VT, FF, NEL, U+2028, U+2029", input: "a\u{0B}b\u{0C}c\u{85}d\u{2028}e\u{2029}f",
      expected: #""a\u{B}b\u{C}c\u{85}d\u{2028}e\u{2029}f""#),
    // Review, s14: a quoted title showed BEL and ESC as pictures beside `\r` as an escape.
    Case(
      name: "every other control as its escape, as line breaks are (review, s14)",
      input: "Ctl\u{7}bell\u{1B}[31mred Task\u{8}\rx\u{0}\u{7F}\u{9B}",
      expected: #""Ctl\u{7}bell\u{1B}[31mred Task\u{8}\rx\u{0}\u{7F}\u{9B}""#),
    Case(name: "a control picture stored as text stays itself", input: "a\u{241B}b", expected: "\"a\u{241B}b\""),
  ]

  static let bidiCases: [Case] = [
    Case(name: "right-to-left override", input: "'\u{202E}txt.exe'", expected: #"'\u{202E}txt.exe'"#),
    Case(
      name: "every Bidi_Control character",
      input: "\u{061C}\u{200E}\u{200F}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}",
      expected: #"\u{61C}\u{200E}\u{200F}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}"#),
    Case(name: "right-to-left letters stay", input: "שלום مرحبا", expected: "שלום مرحبا"),
    Case(name: "zero-width joiner in an emoji stays", input: "👨‍👩‍👧‍👦", expected: "👨‍👩‍👧‍👦"),
    Case(name: "controls are inert's to show", input: "a\u{1B}[31m\nb", expected: "a\u{1B}[31m\nb"),
    Case(name: "empty", input: "", expected: ""),
  ]

  @Test("escapingBidiControls shows each bidirectional control as an escape and changes nothing else", arguments: bidiCases)
  func escapingBidiControls(_ testCase: Case) {
    let output = TerminalText.escapingBidiControls(testCase.input)
    #expect(Array(output.unicodeScalars) == Array(testCase.expected.unicodeScalars), "\(output.debugDescription)")
    #expect(!output.unicodeScalars.contains(where: { $0.properties.isBidiControl }))
    #expect(TerminalText.escapingBidiControls(output) == output, "idempotent")
  }

  @Test("inert still leaves bidirectional controls alone: stored and normal output are unchanged")
  func inertLeavesBidi() {
    #expect(TerminalText.inert("a\u{202E}b\u{200F}") == "a\u{202E}b\u{200F}")
  }

  @Test("quoted escapes quotes and backslashes, and writes every control as an escape", arguments: quotedCases)
  func quoted(_ testCase: Case) {
    let output = TerminalText.quoted(testCase.input)
    #expect(Array(output.unicodeScalars) == Array(testCase.expected.unicodeScalars), "\(output.debugDescription)")
    #expect(!output.contains { $0.isNewline || $0 == "\t" }, "one line: \(output.debugDescription)")
    // Between the outer quotes, every quote is escaped.
    let inner = Array(output.unicodeScalars.dropFirst().dropLast())
    for (i, scalar) in inner.enumerated() where scalar == "\"" {
      let backslashes = inner[..<i].reversed().prefix { $0 == "\\" }.count
      #expect(backslashes % 2 == 1, "\(output.debugDescription)")
    }
  }
}
