/// A heuristic rule of ``CodeAnalyzer``.
///
/// Raw values are the stable rule ids used in JSON and SARIF output.
public enum CodeRule: String, Codable, Sendable, CaseIterable, Comparable {
  /// `TODO` or `FIXME` (upper case, as a word) used as a marker in a comment: the comment's
  /// first word (`// TODO: …`, `/* FIXME`, `/// TODO(ann) …`, ` * TODO` in a block comment) or
  /// followed by `:` or `(` (`… see below. TODO: …`); not a mention inside backticks
  /// (`` `TODO` ``), not in code or string literals.
  case todo
  /// `try!`: a failing call crashes instead of throwing.
  case forceTry = "force_try"
  /// A postfix `!` that force-unwraps an expression (`dict["a"]!`, `foo()!.bar`); not prefix
  /// `!flag`, not `!=`/`!==`, not implicitly unwrapped optional types (`var x: Int!`).
  case forceUnwrap = "force_unwrap"
  /// `as!`: a failing cast crashes.
  case forceCast = "force_cast"
  /// A line longer than ``CodeAnalysisOptions/lineLengthLimit`` `Character`s, terminator
  /// excluded.
  case longLine = "long_line"
  /// Control flow nested deeper than ``CodeAnalysisOptions/nestingThreshold``: only the bodies
  /// of `if`/`else`/`guard`/`for`/`while`/`repeat`/`switch`/`do`/`catch`/`defer` count, not
  /// type, function, accessor or closure braces (so SwiftUI view builders add no level); see
  /// `Docs/CodeAnalysis.md`.
  case deepNesting = "deep_nesting"
  /// A trimmed code line that occurs at least ``CodeAnalysisOptions/repeatedLineMinimum`` times;
  /// short or structural lines are not counted (see
  /// ``CodeAnalyzer/repeatedLineMinimumTokens``).
  case repeatedLine = "repeated_line"
  /// A `catch` whose block is empty, without even a comment: the error is dropped silently.
  case emptyCatch = "empty_catch"
  /// A string literal assigned to a credential-like name (`password`, `apiKey`, `clientSecret`,
  /// `GITHUB_TOKEN`, …), or keyed by one in a dictionary literal or a subscript
  /// (`["password": "…"]`), that ``CredentialDetector`` reads as a credential. Its line is
  /// withheld from reports, by every finding on it, and so is any line holding the same literal
  /// or a part of its value (``SecretText``).
  case hardcodedSecret = "hardcoded_secret"

  /// A one-line description, for rule tables (SARIF `shortDescription`, help output).
  public var summary: String {
    switch self {
    case .todo: "TODO or FIXME marker in a comment"
    case .forceTry: "try! crashes when the call throws"
    case .forceUnwrap: "Force unwrap (postfix !) crashes on nil"
    case .forceCast: "as! crashes when the cast fails"
    case .longLine: "Line longer than the configured limit (in Characters)"
    case .deepNesting: "Control flow (if/for/while/switch/do/catch bodies) nested deeper than the configured threshold"
    case .repeatedLine: "The same code line repeated several times"
    case .emptyCatch: "Empty catch block drops the error silently"
    case .hardcodedSecret: "Credential-like name assigned a literal that looks like a secret"
    }
  }

  /// The rule's severity: crash risks, swallowed errors and hard-coded secrets are warnings,
  /// the rest notes.
  public var severity: CodeFinding.Severity {
    switch self {
    case .forceTry, .forceUnwrap, .forceCast, .emptyCatch, .hardcodedSecret: .warning
    case .todo, .longLine, .deepNesting, .repeatedLine: .note
    }
  }

  /// What none of the rules looks at, for reports to say next to the rules that ran, so that a
  /// short report is not read as "nothing else is wrong".
  public static let notChecked =
    "SQL or shell commands built from input (injection), process execution, unsafe pointers, "
    + "secrets other than literals assigned to credential-like names, concurrency and logic errors"

  /// The line a text report prints before its findings: the rules that ran, in declaration
  /// order, e.g. `Rules checked: todo, force_try, force_unwrap, …`.
  public static func checkedLine(_ rules: some Sequence<CodeRule>) -> String {
    let ran = Set(rules)
    let names = allCases.filter { ran.contains($0) }.map(\.rawValue)
    return "Rules checked: " + (names.isEmpty ? "none" : names.joined(separator: ", "))
  }

  /// The line a text report prints after ``checkedLine(_:)``: `Not checked (heuristic rules
  /// only): SQL or shell commands built from input …`.
  public static let notCheckedLine = "Not checked (heuristic rules only): \(notChecked)"

  /// Orders rules by id, the tie-breaker of the findings order.
  public static func < (lhs: CodeRule, rhs: CodeRule) -> Bool { lhs.rawValue < rhs.rawValue }
}
