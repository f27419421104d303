import Foundation

/// What caused a digest to be stored.
///
/// JSON shape: `{"kind":"manual"}` or `{"kind":"captureThreshold","count":10}`.
public enum DigestTrigger: Codable, Sendable, Equatable {
  /// Stored on the user's request (`dolphin context --save`) or by a bulk path.
  case manual
  /// Stored by a capture that left the knowledge count at `count` (a multiple of five).
  case captureThreshold(count: Int)

  private enum CodingKeys: String, CodingKey { case kind, count }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    switch try c.decode(String.self, forKey: .kind) {
    case "manual": self = .manual
    case "captureThreshold": self = .captureThreshold(count: try c.decode(Int.self, forKey: .count))
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: c, debugDescription: "unknown digest trigger '\(other)'")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .manual: try c.encode("manual", forKey: .kind)
    case .captureThreshold(let count):
      try c.encode("captureThreshold", forKey: .kind)
      try c.encode(count, forKey: .count)
    }
  }
}

/// One line of a digest with the ids of the records it came from.
///
/// JSON: `{"text", "evidenceIDs", "evidenceTotal", "evidenceTruncated"}`, as an insight gives
/// its evidence; lines of digests before version 11 have only `text` and `evidenceIDs`.
public struct DigestLine: Codable, Sendable, Equatable {
  /// One line of at most 240 characters.
  public var text: String
  /// The records the line quotes (digests before version 7 also stored `… and N more …`
  /// marker lines with none; decoding turns those into ``DigestSections/omitted`` counts).
  public var evidenceIDs: [UUID]
  /// How many records the line is about in all: more than `evidenceIDs.count` when the
  /// builder cut its evidence (a task citing 18 knowledge items cites itself and 8 of them: 9
  /// ids, 19 in all). Nil for the lines of digests before version 11, which did not record it.
  public var evidenceTotal: Int?

  /// Whether `evidenceIDs` was cut: `evidenceTotal > evidenceIDs.count`; nil when
  /// ``evidenceTotal`` is.
  public var evidenceTruncated: Bool? { evidenceTotal.map { $0 > evidenceIDs.count } }

  /// How many of the records the line is about it does not cite; 0 when not recorded.
  public var evidenceLeftOut: Int { max(0, (evidenceTotal ?? 0) - evidenceIDs.count) }

  /// A line and its evidence.
  /// - Parameter evidenceTotal: how many records the line is about in all, at least
  ///   `evidenceIDs.count`; nil when not recorded.
  public init(text: String, evidenceIDs: [UUID], evidenceTotal: Int? = nil) {
    self.text = text
    self.evidenceIDs = evidenceIDs
    self.evidenceTotal = evidenceTotal.map { max($0, evidenceIDs.count) }
  }

  private enum CodingKeys: String, CodingKey { case text, evidenceIDs, evidenceTotal, evidenceTruncated }

  /// Decodes a line; one of a digest before version 11 has no `evidenceTotal`.
  /// - Throws: `DecodingError.dataCorrupted` for an `evidenceTotal` below the ids cited, or an
  ///   `evidenceTruncated` that disagrees with them (it is derived, never stored on its own).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    text = try c.decode(String.self, forKey: .text)
    evidenceIDs = try c.decode([UUID].self, forKey: .evidenceIDs)
    evidenceTotal = try c.decodeIfPresent(Int.self, forKey: .evidenceTotal)
    if let total = evidenceTotal, total < evidenceIDs.count {
      throw DecodingError.dataCorruptedError(
        forKey: .evidenceTotal, in: c,
        debugDescription: "evidenceTotal is \(total), fewer than the \(evidenceIDs.count) ids the line cites")
    }
    let truncated = try c.decodeIfPresent(Bool.self, forKey: .evidenceTruncated)
    if let truncated, truncated != evidenceTruncated {
      throw DecodingError.dataCorruptedError(
        forKey: .evidenceTruncated, in: c,
        debugDescription: "evidenceTruncated is \(truncated), but "
          + (evidenceTotal.map { "evidenceTotal \($0) and the \(evidenceIDs.count) ids cited say \($0 > evidenceIDs.count)" }
            ?? "there is no evidenceTotal"))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(text, forKey: .text)
    try c.encode(evidenceIDs, forKey: .evidenceIDs)
    try c.encodeIfPresent(evidenceTotal, forKey: .evidenceTotal)
    try c.encodeIfPresent(evidenceTruncated, forKey: .evidenceTruncated)
  }
}

/// The bounded sections of a digest; each is a list of evidence-carrying lines, and
/// ``omitted`` counts what each left out.
///
/// Decoding accepts digests stored before version 7, whose sections ended with a marker line
/// (`… and 12 more decisions (not shown)`, no evidence): such a last line becomes the section's
/// count in ``omitted``, so that every line of a decoded section quotes a record.
public struct DigestSections: Codable, Sendable, Equatable {
  /// Decisions, by priority, then newest first (digests before version 8: by priority, then
  /// title).
  public var decisions: [DigestLine]
  /// Preferences, ordered as ``decisions``.
  public var preferences: [DigestLine]
  /// Goals, ordered as ``decisions``.
  public var goals: [DigestLine]
  /// Open tasks, by priority, then oldest first.
  public var openTasks: [DigestLine]
  /// The active handoff, then the newest context, fact, insight and code items.
  public var recentContext: [DigestLine]
  /// High- and critical-priority items and open tasks, by priority (critical first), an item
  /// before a task of the same priority (digests before version 8: every item, then every
  /// task).
  public var priorities: [DigestLine]
  /// Supersede cycles, then items that read as open questions.
  public var questions: [DigestLine]
  /// How many candidates each section left out because of its cap (JSON: only the sections
  /// that left some out; absent in digests stored before version 7).
  public var omitted: DigestOmissions

  /// Sections as given.
  public init(
    decisions: [DigestLine] = [], preferences: [DigestLine] = [], goals: [DigestLine] = [],
    openTasks: [DigestLine] = [], recentContext: [DigestLine] = [], priorities: [DigestLine] = [],
    questions: [DigestLine] = [], omitted: DigestOmissions = DigestOmissions()
  ) {
    self.decisions = decisions
    self.preferences = preferences
    self.goals = goals
    self.openTasks = openTasks
    self.recentContext = recentContext
    self.priorities = priorities
    self.questions = questions
    self.omitted = omitted
  }

  private enum CodingKeys: String, CodingKey {
    case decisions, preferences, goals, openTasks, recentContext, priorities, questions, omitted
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      decisions: try c.decode([DigestLine].self, forKey: .decisions),
      preferences: try c.decode([DigestLine].self, forKey: .preferences),
      goals: try c.decode([DigestLine].self, forKey: .goals),
      openTasks: try c.decode([DigestLine].self, forKey: .openTasks),
      recentContext: try c.decode([DigestLine].self, forKey: .recentContext),
      priorities: try c.decode([DigestLine].self, forKey: .priorities),
      questions: try c.decode([DigestLine].self, forKey: .questions),
      omitted: try c.decodeIfPresent(DigestOmissions.self, forKey: .omitted) ?? DigestOmissions())
    // A digest stored before version 7 ended a capped section with a marker line.
    for (name, path) in Self.lineKeyPaths where omitted[section: name] == 0 {
      if let last = self[keyPath: path].last, let n = DigestOmissions.legacyMarkerCount(last) {
        self[keyPath: path].removeLast()
        omitted[section: name] = n
      }
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(decisions, forKey: .decisions)
    try c.encode(preferences, forKey: .preferences)
    try c.encode(goals, forKey: .goals)
    try c.encode(openTasks, forKey: .openTasks)
    try c.encode(recentContext, forKey: .recentContext)
    try c.encode(priorities, forKey: .priorities)
    try c.encode(questions, forKey: .questions)
    try c.encode(omitted, forKey: .omitted)
  }

  /// The sections' JSON names and lines, in declaration order.
  static var lineKeyPaths: [(String, WritableKeyPath<DigestSections, [DigestLine]>)] {
    [
      ("decisions", \.decisions), ("preferences", \.preferences), ("goals", \.goals), ("openTasks", \.openTasks),
      ("recentContext", \.recentContext), ("priorities", \.priorities), ("questions", \.questions),
    ]
  }
}

/// A stored, rule-based project digest (deterministic templates, no model).
public struct Digest: Codable, Sendable, Equatable, Identifiable {
  public var id: UUID
  public var createdAt: Date
  public var trigger: DigestTrigger
  public var sections: DigestSections
  /// Algorithm label, e.g. `rule-based-digest`.
  public var algorithm: String
  /// Algorithm version, e.g. `1`.
  public var algorithmVersion: String

  public init(
    id: UUID, createdAt: Date, trigger: DigestTrigger, sections: DigestSections,
    algorithm: String, algorithmVersion: String
  ) {
    self.id = id
    self.createdAt = createdAt
    self.trigger = trigger
    self.sections = sections
    self.algorithm = algorithm
    self.algorithmVersion = algorithmVersion
  }

  /// Every evidence id cited anywhere in the digest, in first-seen order.
  public var evidenceIDs: [UUID] { sections.evidenceIDs }
}

extension DigestSections {
  /// The sections with their JSON names, in declaration order.
  public var named: [(name: String, lines: [DigestLine])] {
    Self.lineKeyPaths.map { ($0.0, self[keyPath: $0.1]) }
  }

  /// The sections with their JSON names, in declaration order, each with the marker to print
  /// after its lines when it left candidates out (``DigestOmissions/marker(for:)``).
  public var namedWithMarkers: [(name: String, lines: [DigestLine], marker: String?)] {
    Self.lineKeyPaths.map { ($0.0, self[keyPath: $0.1], omitted.marker(for: $0.0)) }
  }

  /// Every evidence id cited in any section, in first-seen order.
  public var evidenceIDs: [UUID] {
    var seen = Set<UUID>()
    var out: [UUID] = []
    for (_, lines) in named {
      for line in lines {
        for id in line.evidenceIDs where seen.insert(id).inserted { out.append(id) }
      }
    }
    return out
  }
}
