/// Thresholds of ``CodeAnalyzer``; every default is documented here.
public struct CodeAnalysisOptions: Codable, Sendable, Equatable {
  /// Default ``lineLengthLimit``: 120 `Character`s.
  public static let defaultLineLengthLimit = 120
  /// Default ``nestingThreshold``: control flow nested deeper than 4 is reported (the fifth
  /// `if`/`for`/`while`/`switch`/… body inside one another; type, function and closure braces
  /// do not count, see ``CodeRule/deepNesting``).
  public static let defaultNestingThreshold = 4
  /// Default ``repeatedLineMinimum``: 3 occurrences.
  public static let defaultRepeatedLineMinimum = 3
  /// How many line numbers a `repeated_line` finding lists at most.
  public static let relatedLinesLimit = 20

  /// The rules to run; others are skipped. Default: all.
  public var rules: Set<CodeRule>
  /// A line with more `Character`s than this (line terminator not counted) is a `long_line`.
  /// Must be ≥ 1.
  public var lineLengthLimit: Int
  /// A control-flow body (`if`, `else`, `guard`, `for`, `while`, `repeat`, `switch`, `do`,
  /// `catch`, `defer`) whose `{` makes the control-flow depth exceed this is a `deep_nesting`
  /// finding (reported once each time the depth crosses it); type, function, accessor and
  /// closure braces add no depth. Must be ≥ 1.
  public var nestingThreshold: Int
  /// A trimmed code line occurring at least this many times is a `repeated_line`. Must be ≥ 2.
  public var repeatedLineMinimum: Int
  /// The most findings a report lists, at most ``Limits/codeAnalysisFindings`` (500); the rest
  /// are counted and the report is marked truncated.
  public var maximumFindings: Int

  /// Creates options; out-of-range values are clamped to the documented ranges.
  public init(
    rules: Set<CodeRule> = Set(CodeRule.allCases),
    lineLengthLimit: Int = defaultLineLengthLimit,
    nestingThreshold: Int = defaultNestingThreshold,
    repeatedLineMinimum: Int = defaultRepeatedLineMinimum,
    maximumFindings: Int = Limits.codeAnalysisFindings
  ) {
    self.rules = rules
    self.lineLengthLimit = max(1, lineLengthLimit)
    self.nestingThreshold = max(1, nestingThreshold)
    self.repeatedLineMinimum = max(2, repeatedLineMinimum)
    self.maximumFindings = min(max(0, maximumFindings), Limits.codeAnalysisFindings)
  }

  private enum CodingKeys: String, CodingKey {
    case rules, lineLengthLimit, nestingThreshold, repeatedLineMinimum, maximumFindings
  }

  /// Decodes options, clamping values as the memberwise initializer does; missing keys take the
  /// defaults.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      rules: try c.decodeIfPresent(Set<CodeRule>.self, forKey: .rules) ?? Set(CodeRule.allCases),
      lineLengthLimit: try c.decodeIfPresent(Int.self, forKey: .lineLengthLimit)
        ?? Self.defaultLineLengthLimit,
      nestingThreshold: try c.decodeIfPresent(Int.self, forKey: .nestingThreshold)
        ?? Self.defaultNestingThreshold,
      repeatedLineMinimum: try c.decodeIfPresent(Int.self, forKey: .repeatedLineMinimum)
        ?? Self.defaultRepeatedLineMinimum,
      maximumFindings: try c.decodeIfPresent(Int.self, forKey: .maximumFindings)
        ?? Limits.codeAnalysisFindings)
  }

  /// Encodes options; `rules` is written sorted by id so output is deterministic.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(rules.sorted(), forKey: .rules)
    try c.encode(lineLengthLimit, forKey: .lineLengthLimit)
    try c.encode(nestingThreshold, forKey: .nestingThreshold)
    try c.encode(repeatedLineMinimum, forKey: .repeatedLineMinimum)
    try c.encode(maximumFindings, forKey: .maximumFindings)
  }
}
