/// A heuristic rule of ``CodeAnalyzer``.
///
/// Raw values are the stable rule ids used in JSON and SARIF output.
public enum CodeRule: String, Codable, Sendable, CaseIterable, Comparable {
  /// `TODO` or `FIXME` (upper case, as a word) inside a comment; never in code or strings.
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
  /// Code nested deeper than ``CodeAnalysisOptions/nestingThreshold`` braces.
  case deepNesting = "deep_nesting"
  /// A trimmed code line that occurs at least ``CodeAnalysisOptions/repeatedLineMinimum`` times.
  case repeatedLine = "repeated_line"

  /// A one-line description, for rule tables (SARIF `shortDescription`, help output).
  public var summary: String {
    switch self {
    case .todo: "TODO or FIXME marker in a comment"
    case .forceTry: "try! crashes when the call throws"
    case .forceUnwrap: "Force unwrap (postfix !) crashes on nil"
    case .forceCast: "as! crashes when the cast fails"
    case .longLine: "Line longer than the configured limit (in Characters)"
    case .deepNesting: "Braces nested deeper than the configured threshold"
    case .repeatedLine: "The same code line repeated several times"
    }
  }

  /// The rule's severity: crash risks are warnings, the rest notes.
  public var severity: CodeFinding.Severity {
    switch self {
    case .forceTry, .forceUnwrap, .forceCast: .warning
    case .todo, .longLine, .deepNesting, .repeatedLine: .note
    }
  }

  /// Orders rules by id, the tie-breaker of the findings order.
  public static func < (lhs: CodeRule, rhs: CodeRule) -> Bool { lhs.rawValue < rhs.rawValue }
}
