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
public struct DigestLine: Codable, Sendable, Equatable {
  /// One line of at most 240 characters.
  public var text: String
  /// The records the line quotes (empty for a `… and N more …` marker line).
  public var evidenceIDs: [UUID]

  /// A line and its evidence.
  public init(text: String, evidenceIDs: [UUID]) {
    self.text = text
    self.evidenceIDs = evidenceIDs
  }
}

/// The bounded sections of a digest; each is a list of evidence-carrying lines.
public struct DigestSections: Codable, Sendable, Equatable {
  public var decisions: [DigestLine]
  public var preferences: [DigestLine]
  public var goals: [DigestLine]
  public var openTasks: [DigestLine]
  public var recentContext: [DigestLine]
  public var priorities: [DigestLine]
  public var questions: [DigestLine]

  public init(
    decisions: [DigestLine] = [], preferences: [DigestLine] = [], goals: [DigestLine] = [],
    openTasks: [DigestLine] = [], recentContext: [DigestLine] = [], priorities: [DigestLine] = [],
    questions: [DigestLine] = []
  ) {
    self.decisions = decisions
    self.preferences = preferences
    self.goals = goals
    self.openTasks = openTasks
    self.recentContext = recentContext
    self.priorities = priorities
    self.questions = questions
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
    [
      ("decisions", decisions), ("preferences", preferences), ("goals", goals), ("openTasks", openTasks),
      ("recentContext", recentContext), ("priorities", priorities), ("questions", questions),
    ]
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
