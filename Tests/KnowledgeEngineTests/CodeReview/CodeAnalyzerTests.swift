import Foundation
import Testing

@testable import KnowledgeEngine

/// One analyzer case: a source, the rules it is about, and exactly the findings expected.
struct AnalyzerCase: CustomTestStringConvertible, Sendable {
  /// A finding reduced to what the case asserts: rule, line, column (in `Character`s).
  struct Expected: Equatable, Sendable, CustomStringConvertible {
    var rule: CodeRule
    var line: Int
    var column: Int
    var description: String { "\(rule.rawValue)@\(line):\(column)" }
  }

  var name: String
  var source: String
  /// The rules whose findings are compared; other rules' findings are ignored.
  var rules: Set<CodeRule> = Set(CodeRule.allCases)
  var expected: [Expected]
  var lineLengthLimit = 100

  var testDescription: String { name }

  static func none(_ name: String, _ source: String, rules: Set<CodeRule> = Set(CodeRule.allCases))
    -> AnalyzerCase
  {
    AnalyzerCase(name: name, source: source, rules: rules, expected: [])
  }
}

extension AnalyzerCase.Expected {
  static func todo(_ line: Int, _ column: Int) -> Self { .init(rule: .todo, line: line, column: column) }
  static func unwrap(_ line: Int, _ column: Int) -> Self {
    .init(rule: .forceUnwrap, line: line, column: column)
  }
  static func forceTry(_ line: Int, _ column: Int) -> Self {
    .init(rule: .forceTry, line: line, column: column)
  }
  static func cast(_ line: Int, _ column: Int) -> Self {
    .init(rule: .forceCast, line: line, column: column)
  }
  static func long(_ line: Int, _ column: Int) -> Self {
    .init(rule: .longLine, line: line, column: column)
  }
  static func repeated(_ line: Int, _ column: Int) -> Self {
    .init(rule: .repeatedLine, line: line, column: column)
  }
  static func nesting(_ line: Int, _ column: Int) -> Self {
    .init(rule: .deepNesting, line: line, column: column)
  }
}

let family = "👨‍👩‍👧‍👦"
let forced: Set<CodeRule> = [.forceUnwrap, .forceTry, .forceCast]

let analyzerCases: [AnalyzerCase] = [
  // Strings and interpolations.
  .none("interpolation followed by ! inside the string", #"print("Hello \(name)!")"#),
  .none("markers and forced operators inside a string", #"let note = "TODO: not real, try! it, x as! Y""#),
  .none("FIXME inside a URL string", #"let u = "https://x.example/FIXME""#),
  AnalyzerCase(
    name: "TODO in a line comment and FIXME in a block comment",
    source: "let a = 1\n// TODO: real one\nlet b = 2\n/* FIXME: real two */\n",
    expected: [.todo(2, 4), .todo(4, 4)]),
  AnalyzerCase(
    name: "lowercase todo and TODOS are not markers; a doc comment's is",
    source: "// todo later\n// TODOS\n/// FIXME(ann): doc\n",
    expected: [.todo(3, 5)]),
  // Prefix !, comparison operators and implicitly unwrapped types.
  .none("prefix ! in parentheses", "let ok = (!flag)", rules: forced),
  .none("prefix !, != and !==", "if !items.isEmpty && a != b && c !== d {}", rules: forced),
  .none("prefix ! before a parenthesized expression", "guard !(opt ?? false) else { return }", rules: forced),
  .none("implicitly unwrapped dictionary property", "var cache: [String: Int]!", rules: forced),
  .none("implicitly unwrapped return type", "func load() -> [AnyHashable: Any]! { nil }", rules: forced),
  .none("implicitly unwrapped constant", "let x: Int!", rules: forced),
  .none(
    "implicitly unwrapped parameters, generic and function types",
    "func f<T>(a: T!, b: ((Int) -> Void)!, c: Array<Int>! = nil) -> (Int, Int)! { nil }",
    rules: forced),
  .none("failable init!", "init!(x: Int) { return nil }", rules: forced),
  // Real forced operations, with columns in Characters.
  AnalyzerCase(
    name: "force unwrap of a subscript", source: #"let x = dict["a"]!"#, rules: forced,
    expected: [.unwrap(1, 18)]),
  AnalyzerCase(
    name: "force unwrap of a call result", source: "foo()!.bar", rules: forced,
    expected: [.unwrap(1, 6)]),
  AnalyzerCase(
    name: "force unwrap before a method call", source: "obj!.method()", rules: forced,
    expected: [.unwrap(1, 4)]),
  AnalyzerCase(
    name: "try! and as!", source: "let v = try! load()\nlet n = any as! Int", rules: forced,
    expected: [.forceTry(1, 9), .cast(2, 13)]),
  AnalyzerCase(
    name: "a!=b is a force unwrap then =, as in Swift", source: "if a!=b {}", rules: forced,
    expected: [.unwrap(1, 5)]),
  // Review 24-a, 11 took `k2!==l2` for the identity operator. Swift 6.3's lexer makes a `!` with
  // no white space before it a postfix `!` whatever follows, so it is `k2!` then `== l2`:
  // `let k2: C? = C(); let j2 = k2!==l2` fails to compile with "binary operator '==' cannot be
  // applied to two 'C' operands", and for an `Int?` it compiles as a force unwrap.
  AnalyzerCase(
    name: "k2!==l2 and k2!===l2 are force unwraps then == and ===, as in Swift",
    source: "let j2 = k2!==l2\nlet j3 = k2!===l2", rules: forced, expected: [.unwrap(1, 12), .unwrap(2, 12)]),
  .none("spaced !== and != are operators", "let m2 = n2 !== o2\nlet m3 = n3 != o3", rules: forced),
  AnalyzerCase(
    name: "a force unwrap before a spaced == or !=", source: "let e = a! == b\nlet f = c! != d", rules: forced,
    expected: [.unwrap(1, 10), .unwrap(2, 10)]),
  AnalyzerCase(
    name: "double force unwrap", source: "let y = x!!", rules: forced,
    expected: [.unwrap(1, 10), .unwrap(1, 11)]),
  AnalyzerCase(
    name: "column counted in Characters after an emoji", source: "let \(family) = a!",
    rules: forced, expected: [.unwrap(1, 10)]),
  AnalyzerCase(
    name: "force unwrap after an IUO declaration on the same line",
    source: "var computed: Int! { return a! }", rules: forced, expected: [.unwrap(1, 30)]),
  AnalyzerCase(
    name: "ternary after a cast", source: "let t = c ? any as! Int : opt!", rules: forced,
    expected: [.cast(1, 17), .unwrap(1, 30)]),
  .none("key path component !", #"let kp = \S<Int>.t!.description"#, rules: forced),
  // Comments.
  AnalyzerCase(
    name: "nested block comments",
    source: "/* outer /* inner */ try! x! as! Y */\nlet y = z!\n/* a /* b */ TODO: c */",
    expected: [.unwrap(2, 10), .todo(3, 14)]),
  AnalyzerCase(
    name: "interpolation holding a string holding )",
    source: #"let s = "a \(f(")")) b""# + "\nlet y = x!", rules: forced,
    expected: [.unwrap(2, 10)]),
  AnalyzerCase(
    name: "multiline string holding // and try!",
    source: "let q = \"\"\"\n  // not a comment try! x! as! T TODO\n  \"\"\"\nlet after = y!",
    expected: [.unwrap(4, 14)]),
  .none("raw string: \\( is not an interpolation", ##"let r = #"\(notInterp) "quoted" "#"##),
  AnalyzerCase(
    name: "raw string interpolation \\#( is code", source: ##"let r = #"value \#(x!)"#"##,
    rules: forced, expected: [.unwrap(1, 21)]),
  AnalyzerCase(
    name: "raw multiline string with an interpolation",
    source: "let m = #\"\"\"\n  \\(a!) \\#(b!) \"\"\" still inside\n  \"\"\"#\nlet c = d!", rules: forced,
    expected: [.unwrap(2, 13), .unwrap(4, 10)]),
  // Long lines, counted in Characters without the line terminator.
  .none("60 Cyrillic letters in a comment", "// " + String(repeating: "ж", count: 60), rules: [.longLine]),
  .none(
    "40 family emoji", "let s = \"" + String(repeating: family, count: 40) + "\"", rules: [.longLine]),
  .none("exactly 100 characters then CRLF", String(repeating: "a", count: 100) + "\r\nb", rules: [.longLine]),
  AnalyzerCase(
    name: "150-character raw-string line",
    source: "let r = #\"" + String(repeating: "x", count: 138) + "\"#", rules: [.longLine],
    expected: [.long(1, 101)]),
  // Repeated lines.
  .none(
    "imports and lone braces are not repeated",
    "import Foundation\nimport Foundation\nimport Foundation\n}\n}\n}\n})\n})\n})\nreturn\nreturn\nreturn",
    rules: [.repeatedLine]),
  AnalyzerCase(
    name: "four differently indented copies",
    source: "total += price * count\n  total += price * count\n\ttotal += price * count\n"
      + "        total += price * count // again\n",
    rules: [.repeatedLine], expected: [.repeated(1, 1)]),
  .none(
    "comment-only lines are not repeated", "// same\n// same\n// same", rules: [.repeatedLine]),
  // Nesting.
  AnalyzerCase(
    name: "five nested control-flow bodies cross the default threshold once per crossing",
    source: "if a {\n for b in c {\n  while d {\n   switch e {\n   case f:\n    if g {\n    }\n    "
      + "guard h else {\n    }\n   default: break\n   }\n  }\n }\n}",
    rules: [.deepNesting], expected: [.nesting(6, 10), .nesting(8, 18)]),
  .none(
    "six nested closure and type braces are not control flow",
    "a {\n b {\n  c {\n   d {\n    e {\n     f {\n     }\n    }\n   }\n  }\n }\n}",
    rules: [.deepNesting]),
  .none("braces in strings and comments do not nest", #"let s = "{{{{{{{{" // {{{{{{{{"#),
]

extension CodeReview {
  @Suite("CodeAnalyzer")
  struct CodeAnalyzerTests {
    @Test("findings", arguments: analyzerCases)
    func findings(_ c: AnalyzerCase) throws {
      let options = CodeAnalysisOptions(lineLengthLimit: c.lineLengthLimit)
      let report = try CodeAnalyzer.analyze(source: c.source, fileName: "Case.swift", options: options)
      let got = report.findings.filter { c.rules.contains($0.rule) }.map {
        AnalyzerCase.Expected(rule: $0.rule, line: $0.line, column: $0.column)
      }
      #expect(got == c.expected)
    }

    @Test("repeated line reports its count, lines and message once")
    func repeatedLineDetails() throws {
      let source = "total += price * count\n  total += price * count\n\ttotal += price * count\n"
        + "        total += price * count\n"
      let report = try CodeAnalyzer.analyze(source: source, fileName: "R.swift")
      let finding = try #require(report.findings.first { $0.rule == .repeatedLine })
      #expect(report.count(of: .repeatedLine) == 1)
      #expect(finding.occurrences == 4)
      #expect(finding.relatedLines == [1, 2, 3, 4])
      #expect(finding.message == "Line repeated 4 times (lines 1, 2, 3, 4)")
      #expect(finding.snippet == "total += price * count")
    }

    @Test("long line message, snippet bound and UTF-16 column")
    func longLineDetails() throws {
      let line = "let r = #\"" + String(repeating: "x", count: 138) + "\"#"
      let report = try CodeAnalyzer.analyze(
        source: line, fileName: "L.swift", options: CodeAnalysisOptions(lineLengthLimit: 100))
      let finding = try #require(report.findings.first)
      #expect(finding.message == "Line is 150 characters; the limit is 100")
      #expect(finding.snippet.count == CodeFinding.snippetLimit)
      #expect(finding.snippet.hasSuffix(Truncation.marker))
      #expect(finding.severity == .note)

      let emoji = try CodeAnalyzer.analyze(source: "let \(family) = a!", fileName: "E.swift")
      let unwrap = try #require(emoji.findings.first)
      #expect(unwrap.column == 10)
      #expect(unwrap.utf16Column == 20)
      #expect(unwrap.severity == .warning)
    }

    @Test("a UTF-8 byte-order mark is not a column and not part of the snippet")
    func byteOrderMark() throws {
      let report = try CodeAnalyzer.analyze(source: "\u{FEFF}let a = b!\nlet c = d!\n", fileName: "bom.swift")
      let first = try #require(report.findings.first)
      #expect(first.line == 1)
      #expect(first.column == 10)
      #expect(first.utf16Column == 10)
      #expect(first.snippet == "let a = b!")
      #expect(!first.excerpt.contains("\u{FEFF}"))
      #expect(report.findings.last?.column == 10)
      #expect(report.byteCount == 25)
    }

    @Test("input over 200,000 UTF-8 bytes is rejected with field, limit and size")
    func inputBound() throws {
      let atLimit = String(repeating: "a", count: Limits.codeAnalysisBytes - 1) + "\n"
      #expect(atLimit.utf8.count == Limits.codeAnalysisBytes)
      _ = try CodeAnalyzer.analyze(source: atLimit, fileName: "ok.swift")

      let over = String(repeating: "ж", count: 100_001)  // 200,002 bytes, 100,001 Characters
      let error = #expect(throws: ValidationError.self) {
        try CodeAnalyzer.analyze(source: over, fileName: "big.swift")
      }
      #expect(error?.field == "source")
      #expect(error?.limit == 200_000)
      #expect(error?.actual == 200_002)
      #expect(
        error?.message
          == "source of big.swift is 200002 UTF-8 bytes; the limit is 200000 UTF-8 bytes. Analyze a smaller file or split it.")
    }

    @Test("findings are capped at 500 with a truncated flag; counts stay exact")
    func findingsBound() throws {
      let source = (1...600).map { "_ = x\($0)!" }.joined(separator: "\n")
      let report = try CodeAnalyzer.analyze(source: source, fileName: "many.swift")
      #expect(report.findings.count == 500)
      #expect(report.truncated)
      #expect(report.totalFindings == 600)
      #expect(report.count(of: .forceUnwrap) == 600)
      #expect(report.findings.last?.line == 500)

      let lowered = try CodeAnalyzer.analyze(
        source: source, fileName: "many.swift", options: CodeAnalysisOptions(maximumFindings: 10_000))
      #expect(lowered.options.maximumFindings == 500)
    }

    @Test("findings are ordered by line, column, then rule id")
    func order() throws {
      let source = "let a = try! x as! Y // TODO\nlet b = c!"
      let report = try CodeAnalyzer.analyze(source: source, fileName: "o.swift")
      let keys = report.findings.map { "\($0.line):\($0.column):\($0.rule.rawValue)" }
      #expect(keys == ["1:9:force_try", "1:16:force_cast", "1:25:todo", "2:10:force_unwrap"])
    }

    @Test("the report says it is heuristic and round-trips through JSON")
    func reportShape() throws {
      let report = try CodeAnalyzer.analyze(source: "let x = y!\n", fileName: "Sources/A.swift")
      #expect(report.analysis == "heuristic")
      #expect(report.note == "Heuristic, read-only lexical checks; not a compiler. Nothing was executed, compiled or uploaded.")
      #expect(report.fileName == "Sources/A.swift")
      #expect(report.byteCount == 11)
      #expect(report.lineCount == 1)
      #expect(report.counts.map(\.rule) == CodeRule.allCases.sorted())
      let json = try StableJSON.encoder().encode(report)
      let decoded = try JSONDecoder().decode(CodeAnalysisReport.self, from: json)
      #expect(decoded == report)
      let text = String(decoding: json, as: UTF8.self)
      #expect(text.contains(#""analysis":"heuristic""#))
      #expect(text.contains(#""rule":"force_unwrap""#))
    }

    @Test("rules can be turned off")
    func ruleSelection() throws {
      let report = try CodeAnalyzer.analyze(
        source: "let a = try! b!  // TODO", fileName: "s.swift",
        options: CodeAnalysisOptions(rules: [.todo]))
      #expect(report.findings.map(\.rule) == [.todo])
      #expect(report.counts == [.init(rule: .todo, count: 1)])
    }

    /// The counts SwiftParser gives for the fixture, recorded by
    /// `scripts/differential-code-analysis.sh` (force_unwrap, force_try, force_cast).
    @Test("fixture counts agree with SwiftParser's")
    func fixtureAgreesWithSwiftParser() throws {
      let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ForcedOperations.swift")
      let source = try String(contentsOf: url, encoding: .utf8)
      let report = try CodeAnalyzer.analyze(source: source, fileName: "ForcedOperations.swift")
      #expect(report.count(of: .forceUnwrap) == 151)
      #expect(report.count(of: .forceTry) == 2)
      #expect(report.count(of: .forceCast) == 18)
    }
  }
}
