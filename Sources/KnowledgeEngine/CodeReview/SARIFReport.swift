import Foundation

/// Code-analysis reports as a SARIF 2.1.0 log, the format code-scanning tools read.
///
/// One run, tool `dolphin-analyze`, one rule per ``CodeRule`` (id, name, short description,
/// default level), one result per listed finding: `ruleId`, `ruleIndex`, `level` (`warning` or
/// `note`), `message.text`, and a physical location with the report's file name as a relative
/// URI and a region: `startLine`, `startColumn` and `endColumn` in UTF-16 code units
/// (`columnKind` says so), and a `snippet` that holds exactly the source between those columns,
/// as SARIF 2.1.0 §3.30.13 requires of a region's snippet (the finding's ``CodeFinding/excerpt``:
/// from the finding to the end of its line, untrimmed, at most 120 characters; `endColumn`
/// marks where it stops).
/// `repeated_line` results list the other lines as related locations. Walk notices and
/// truncation become tool execution notifications. The run's property bag carries the
/// heuristic label and what no rule checks (``CodeRule/notChecked``). Specification: OASIS SARIF 2.1.0 (errata 01).
public struct SARIFReport: Codable, Sendable, Equatable {
  /// The SARIF version written.
  public static let sarifVersion = "2.1.0"
  /// The schema URI written to `$schema` (data only: never fetched).
  public static let schemaURI =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
  /// The tool name written to `runs[0].tool.driver.name`.
  public static let toolName = "dolphin-analyze"

  /// `$schema`.
  public var schema: String
  /// `version`: ``sarifVersion``.
  public var version: String
  /// `runs`: one run.
  public var runs: [Run]

  enum CodingKeys: String, CodingKey {
    case schema = "$schema"
    case version, runs
  }

  /// Builds the log.
  ///
  /// - Parameters:
  ///   - reports: the analyzed files, in the order results should appear.
  ///   - notices: walk notices (skipped files) to report as notifications.
  ///   - toolVersion: written to `driver.version` when given.
  public init(reports: [CodeAnalysisReport], notices: [String] = [], toolVersion: String? = nil) {
    let rules = CodeRule.allCases.sorted()
    let descriptors = rules.map { rule in
      ReportingDescriptor(
        id: rule.rawValue, name: Self.pascalCase(rule.rawValue),
        shortDescription: Message(text: rule.summary),
        defaultConfiguration: Configuration(level: rule.severity.rawValue))
    }
    var results: [Result] = []
    var notifications = notices.map { Notification(level: "note", message: Message(text: $0)) }
    for report in reports {
      // A name that is not UTF-8 by its exact bytes, percent-encoded (RFC 3986).
      let uri = report.fileNamePercentEncoded.map(Self.uri(forPercentEncoded:)) ?? Self.uri(for: report.fileName)
      for finding in report.findings {
        let related = (finding.relatedLines ?? []).dropFirst().enumerated().map { index, line in
          Location(
            id: index + 1,
            physicalLocation: PhysicalLocation(
              artifactLocation: ArtifactLocation(uri: uri), region: Region(startLine: line)))
        }
        results.append(
          Result(
            ruleId: finding.rule.rawValue, ruleIndex: rules.firstIndex(of: finding.rule) ?? 0,
            level: finding.severity.rawValue, message: Message(text: finding.message),
            locations: [
              Location(
                physicalLocation: PhysicalLocation(
                  artifactLocation: ArtifactLocation(uri: uri),
                  region: Region(finding)))
            ],
            relatedLocations: related.isEmpty ? nil : related))
      }
      if report.truncated {
        notifications.append(
          Notification(
            level: "warning",
            message: Message(
              text: "\(report.fileName): \(report.totalFindings) findings, "
                + "\(report.findings.count) listed")))
      }
    }
    let run = Run(
      tool: Tool(driver: Driver(name: Self.toolName, version: toolVersion, rules: descriptors)),
      invocations: [
        Invocation(
          executionSuccessful: true,
          toolExecutionNotifications: notifications.isEmpty ? nil : notifications)
      ],
      columnKind: "utf16CodeUnits",
      results: results,
      properties: RunProperties(
        analysis: CodeAnalysisReport.analysisKind, note: CodeAnalysisReport.heuristicNote,
        notChecked: CodeRule.notChecked))
    self.schema = Self.schemaURI
    self.version = Self.sarifVersion
    self.runs = [run]
  }

  /// The log as JSON with sorted keys (deterministic), pretty-printed by default.
  /// - Throws: `EncodingError` only if encoding fails, which these types do not cause.
  public func jsonData(pretty: Bool = true) throws -> Data {
    try StableJSON.encoder(pretty: pretty).encode(self)
  }

  /// A relative path as a URI reference (percent-encoded; absolute paths become `file://`).
  public static func uri(for path: String) -> String {
    let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    return path.hasPrefix("/") ? "file://" + encoded : encoded
  }

  /// A relative path already percent-encoded byte by byte (``SourceWalker/File/pathPercentEncoded``)
  /// as a URI reference: as it is, or after `file://` when absolute.
  public static func uri(forPercentEncoded path: String) -> String {
    path.hasPrefix("/") ? "file://" + path : path
  }

  static func pascalCase(_ id: String) -> String {
    id.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  /// `run`.
  public struct Run: Codable, Sendable, Equatable {
    /// The analyzer that produced the run.
    public var tool: Tool
    /// One invocation, with walk notices and truncation notes.
    public var invocations: [Invocation]
    /// `utf16CodeUnits`: how `startColumn` counts.
    public var columnKind: String
    /// One result per listed finding, in report then finding order.
    public var results: [Result]
    /// Property bag: the heuristic label.
    public var properties: RunProperties
  }

  /// The run's property bag: the heuristic label.
  public struct RunProperties: Codable, Sendable, Equatable {
    /// ``CodeAnalysisReport/analysisKind`` (`heuristic`).
    public var analysis: String
    /// ``CodeAnalysisReport/heuristicNote``.
    public var note: String
    /// ``CodeRule/notChecked``: what none of the rules (listed in `tool.driver.rules`) looks
    /// at; absent in a log written before it was said.
    public var notChecked: String?
  }

  /// `tool`.
  public struct Tool: Codable, Sendable, Equatable {
    /// The tool's driver component.
    public var driver: Driver
  }

  /// `toolComponent` (the driver).
  public struct Driver: Codable, Sendable, Equatable {
    /// The tool name, or the rule name in PascalCase (`ForceUnwrap`).
    public var name: String
    /// The tool version, when the caller gave one.
    public var version: String?
    /// One descriptor per ``CodeRule``, sorted by id (`ruleIndex` points here).
    public var rules: [ReportingDescriptor]
  }

  /// `reportingDescriptor` (a rule).
  public struct ReportingDescriptor: Codable, Sendable, Equatable {
    /// The rule id, e.g. `force_unwrap`.
    public var id: String
    /// The tool name, or the rule name in PascalCase (`ForceUnwrap`).
    public var name: String
    /// ``CodeRule/summary``.
    public var shortDescription: Message
    /// The rule's default level.
    public var defaultConfiguration: Configuration
  }

  /// `reportingConfiguration`.
  public struct Configuration: Codable, Sendable, Equatable {
    /// `warning` or `note`.
    public var level: String
  }

  /// `message`.
  public struct Message: Codable, Sendable, Equatable {
    /// Plain text.
    public var text: String
  }

  /// `result`.
  public struct Result: Codable, Sendable, Equatable {
    /// The rule id, e.g. `force_unwrap`.
    public var ruleId: String
    /// The rule's index in ``Driver/rules``.
    public var ruleIndex: Int
    /// `warning` or `note`.
    public var level: String
    /// What was found.
    public var message: Message
    /// Where: one physical location.
    public var locations: [Location]
    /// For `repeated_line`: the other lines holding the same code.
    public var relatedLocations: [Location]?
  }

  /// `location`.
  public struct Location: Codable, Sendable, Equatable {
    /// Related locations are numbered from 1.
    public var id: Int?
    /// File and region.
    public var physicalLocation: PhysicalLocation
  }

  /// `physicalLocation`.
  public struct PhysicalLocation: Codable, Sendable, Equatable {
    /// The file.
    public var artifactLocation: ArtifactLocation
    /// The place in the file.
    public var region: Region
  }

  /// `artifactLocation`.
  public struct ArtifactLocation: Codable, Sendable, Equatable {
    /// A relative, percent-encoded URI reference (``SARIFReport/uri(for:)``).
    public var uri: String
  }

  /// `region`: 1-based line and columns. Per SARIF 2.1.0, an absent `startColumn` is 1 and an
  /// absent `endColumn` is one past the end of the line (its terminator excluded).
  public struct Region: Codable, Sendable, Equatable {
    /// 1-based line.
    public var startLine: Int
    /// 1-based column in UTF-16 code units (``Run/columnKind``).
    public var startColumn: Int?
    /// The column just past the region, in UTF-16 code units.
    public var endColumn: Int?
    /// Exactly the source from `startColumn` up to `endColumn` (SARIF's `artifactContent`:
    /// "the portion of the artifact specified by the region").
    public var snippet: Message?

    /// A whole line, without a snippet (related locations).
    init(startLine: Int) {
      self.startLine = startLine
    }

    /// The finding's place: its column to the end of its excerpt, which is the snippet.
    init(_ finding: CodeFinding) {
      startLine = finding.line
      startColumn = finding.utf16Column
      // An excerpt that is not known gives no snippet rather than one the columns contradict.
      if !finding.excerpt.isEmpty {
        endColumn = finding.utf16Column + finding.excerpt.utf16.count
        snippet = Message(text: finding.excerpt)
      }
    }
  }

  /// `invocation`.
  public struct Invocation: Codable, Sendable, Equatable {
    /// Always `true`: skipped files are notifications, not failures.
    public var executionSuccessful: Bool
    /// Walk notices and truncation notes, when any.
    public var toolExecutionNotifications: [Notification]?
  }

  /// `notification`.
  public struct Notification: Codable, Sendable, Equatable {
    /// `warning` or `note`.
    public var level: String
    /// What was found.
    public var message: Message
  }
}
