/// One finding of ``CodeAnalyzer``: a rule, a place and a bounded excerpt.
public struct CodeFinding: Codable, Sendable, Equatable {
  /// How much a finding matters.
  public enum Severity: String, Codable, Sendable {
    /// May crash or misbehave at run time (`try!`, `as!`, force unwrap).
    case warning
    /// Style or maintenance (markers, long lines, nesting, repetition).
    case note
  }

  /// The longest ``snippet``, in `Character`s (cut with ``Truncation/marker``).
  public static let snippetLimit = 120

  /// The rule that fired.
  public var rule: CodeRule
  /// The rule's severity.
  public var severity: Severity
  /// The line, 1-based.
  public var line: Int
  /// The column, 1-based, counted in `Character`s (extended grapheme clusters).
  public var column: Int
  /// The same column counted in UTF-16 code units, 1-based (what SARIF and LSP expect by
  /// default).
  public var utf16Column: Int
  /// What was found, in one sentence.
  public var message: String
  /// The trimmed source line, at most ``snippetLimit`` `Character`s, for display; empty when
  /// the line is withheld because it holds what looks like a hard-coded credential (a
  /// `hardcoded_secret` finding, or any finding on such a line, whose ``message`` then ends with
  /// ``CodeAnalyzer/withheldLineNote``).
  public var snippet: String
  /// The source from ``column`` to the end of the line exactly as written (not trimmed, the line
  /// terminator excluded), at most ``snippetLimit`` `Character`s, cut without a marker. It is
  /// the text of the columns `utf16Column ..< utf16Column + excerpt.utf16.count`, which is what
  /// a SARIF region's snippet must hold; empty when not known (a finding decoded from a report
  /// written before findings carried it) or withheld, as ``snippet`` is.
  public var excerpt: String
  /// For `repeated_line`: how many times the line occurs.
  public var occurrences: Int?
  /// For `repeated_line`: the lines where it occurs, ascending, at most
  /// ``CodeAnalysisOptions/relatedLinesLimit`` of them.
  public var relatedLines: [Int]?

  /// Creates a finding.
  public init(
    rule: CodeRule, line: Int, column: Int, utf16Column: Int, message: String, snippet: String,
    excerpt: String = "", occurrences: Int? = nil, relatedLines: [Int]? = nil
  ) {
    self.rule = rule
    self.severity = rule.severity
    self.line = line
    self.column = column
    self.utf16Column = utf16Column
    self.message = message
    self.snippet = snippet
    self.excerpt = excerpt
    self.occurrences = occurrences
    self.relatedLines = relatedLines
  }
}

extension CodeFinding {
  /// Decodes a finding as ``CodeAnalysisReport`` JSON carries it (`dolphin analyze --json`, the
  /// `code_analyze` tool's structured output).
  ///
  /// Reports written before findings carried ``excerpt`` have no `excerpt` key; such a finding
  /// decodes with an empty excerpt, the value that means "not known", so that a SARIF region
  /// built from it has no snippet rather than one its columns contradict. The ``snippet`` is no
  /// stand-in: it is trimmed and may be cut with a marker, so it is not the source at the
  /// finding's columns. Every other key is required as before.
  /// - Throws: `DecodingError` for a missing required key or a value of the wrong type
  ///   (`excerpt` included, when present).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    rule = try c.decode(CodeRule.self, forKey: .rule)
    severity = try c.decode(Severity.self, forKey: .severity)
    line = try c.decode(Int.self, forKey: .line)
    column = try c.decode(Int.self, forKey: .column)
    utf16Column = try c.decode(Int.self, forKey: .utf16Column)
    message = try c.decode(String.self, forKey: .message)
    snippet = try c.decode(String.self, forKey: .snippet)
    excerpt = try c.decodeIfPresent(String.self, forKey: .excerpt) ?? ""
    occurrences = try c.decodeIfPresent(Int.self, forKey: .occurrences)
    relatedLines = try c.decodeIfPresent([Int].self, forKey: .relatedLines)
  }
}
