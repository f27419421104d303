/// The result of ``CodeAnalyzer/analyze(source:fileName:options:)`` for one source text.
///
/// Findings are ordered by line, then column, then rule id, and bounded by
/// ``CodeAnalysisOptions/maximumFindings`` (at most ``Limits/codeAnalysisFindings``);
/// ``counts`` and ``totalFindings`` count every finding, listed or not.
public struct CodeAnalysisReport: Codable, Sendable, Equatable {
  /// How many findings of one rule there were.
  public struct RuleCount: Codable, Sendable, Equatable {
    /// The rule.
    public var rule: CodeRule
    /// Its findings, listed or not.
    public var count: Int

    /// Creates a count.
    public init(rule: CodeRule, count: Int) {
      self.rule = rule
      self.count = count
    }
  }

  /// Always `"heuristic"`: the analysis is lexical, not a compiler's.
  public static let analysisKind = "heuristic"
  /// The sentence every report carries.
  public static let heuristicNote =
    "Heuristic, read-only lexical checks; not a compiler. "
    + "Nothing was executed, compiled or uploaded."

  /// The name the caller gave the source (a path, relative when possible); a byte of a file
  /// name that is not part of valid UTF-8 is shown as `\xHH` (``SourceWalker/File/path``).
  public var fileName: String
  /// Only for a file whose path is not valid UTF-8: its exact bytes, percent-encoded (RFC 3986,
  /// `sub%FE/x.swift`; ``SourceWalker/File/pathPercentEncoded``), which SARIF's URI uses; nil
  /// (absent in JSON) otherwise.
  public var fileNamePercentEncoded: String?
  /// ``analysisKind``.
  public var analysis: String
  /// ``heuristicNote``.
  public var note: String
  /// The source size in UTF-8 bytes.
  public var byteCount: Int
  /// The number of lines.
  public var lineCount: Int
  /// The options the analysis ran with.
  public var options: CodeAnalysisOptions
  /// The listed findings, in stable order.
  public var findings: [CodeFinding]
  /// Every finding, listed or not.
  public var totalFindings: Int
  /// Whether findings were cut to ``CodeAnalysisOptions/maximumFindings``.
  public var truncated: Bool
  /// Findings per rule, one entry per rule that ran (zero included), ordered by rule id.
  public var counts: [RuleCount]

  /// Creates a report; ``CodeAnalyzer`` is the usual source.
  public init(
    fileName: String, byteCount: Int, lineCount: Int, options: CodeAnalysisOptions,
    findings: [CodeFinding], totalFindings: Int, truncated: Bool, counts: [RuleCount]
  ) {
    self.fileName = fileName
    self.analysis = Self.analysisKind
    self.note = Self.heuristicNote
    self.byteCount = byteCount
    self.lineCount = lineCount
    self.options = options
    self.findings = findings
    self.totalFindings = totalFindings
    self.truncated = truncated
    self.counts = counts
  }

  /// The number of findings of `rule`, listed or not (0 when the rule did not run).
  public func count(of rule: CodeRule) -> Int {
    counts.first { $0.rule == rule }?.count ?? 0
  }
}
