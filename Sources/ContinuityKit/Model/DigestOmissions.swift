import Foundation

/// How many candidates each digest section left out because of its cap.
///
/// A section shows at most a fixed number of lines; what it leaves out is counted here, not
/// written as a line, so that every line of a section is a record it quotes.
///
/// JSON shape: an object with one member per section that left something out, named as the
/// section (`{"openTasks": 70}`); a section that left nothing out has no member, and `{}` means
/// every section shows all of its candidates. A missing member decodes as 0.
public struct DigestOmissions: Codable, Sendable, Equatable {
  /// Decisions not shown.
  public var decisions: Int
  /// Preferences not shown.
  public var preferences: Int
  /// Goals not shown.
  public var goals: Int
  /// Open tasks not shown.
  public var openTasks: Int
  /// Context, fact, insight and code items not shown in recent context.
  public var recentContext: Int
  /// High-priority items and tasks not shown.
  public var priorities: Int
  /// Open questions not shown.
  public var questions: Int

  /// Counts per section (0: nothing left out).
  public init(
    decisions: Int = 0, preferences: Int = 0, goals: Int = 0, openTasks: Int = 0, recentContext: Int = 0,
    priorities: Int = 0, questions: Int = 0
  ) {
    self.decisions = decisions
    self.preferences = preferences
    self.goals = goals
    self.openTasks = openTasks
    self.recentContext = recentContext
    self.priorities = priorities
    self.questions = questions
  }

  /// The section names, in ``DigestSections/named`` order.
  public static let sectionNames = [
    "decisions", "preferences", "goals", "openTasks", "recentContext", "priorities", "questions",
  ]

  /// The most the section named `section` can leave out, with what bounds it: the records a
  /// workspace can hold that the section draws on (review 19-d, #12: an import stored a count of
  /// 999,999,999,999). Knowledge sections: ``Limits/knowledgeItemsMaximum``; `openTasks`:
  /// ``Limits/tasks``; `priorities`, items and tasks: both summed; `questions`, question items and
  /// supersede cycles (each of at least one item, none sharing one): twice the knowledge maximum.
  public static func maximum(ofSection section: String) -> (count: Int, what: String) {
    switch section {
    case "openTasks": (Limits.tasks, "the tasks a workspace can hold")
    case "priorities": (Limits.knowledgeItemsMaximum + Limits.tasks, "the knowledge items and tasks a workspace can hold")
    case "questions":
      (2 * Limits.knowledgeItemsMaximum, "twice the knowledge items a workspace can hold (questions and supersede cycles)")
    default: (Limits.knowledgeItemsMaximum, "the knowledge items a workspace can hold")
    }
  }

  /// The count of the section named `section` (a ``sectionNames`` member); 0 for any other
  /// name.
  public subscript(section section: String) -> Int {
    get {
      switch section {
      case "decisions": return decisions
      case "preferences": return preferences
      case "goals": return goals
      case "openTasks": return openTasks
      case "recentContext": return recentContext
      case "priorities": return priorities
      case "questions": return questions
      default: return 0
      }
    }
    set {
      switch section {
      case "decisions": decisions = newValue
      case "preferences": preferences = newValue
      case "goals": goals = newValue
      case "openTasks": openTasks = newValue
      case "recentContext": recentContext = newValue
      case "priorities": priorities = newValue
      case "questions": questions = newValue
      default: break
      }
    }
  }

  /// Whether no section left anything out.
  public var isEmpty: Bool { Self.sectionNames.allSatisfy { self[section: $0] == 0 } }

  /// What renderings print after the section's lines when it left some out, e.g.
  /// `… and 70 more open tasks (not shown)` or `… and 1 more goal (not shown)`; `nil` when it
  /// left nothing out. It is text about the section, not a line of it: it cites no evidence.
  /// - Parameter section: a ``sectionNames`` member.
  public func marker(for section: String) -> String? {
    let n = self[section: section]
    guard n > 0 else { return nil }
    let (one, many) = Self.nouns[section] ?? ("item", "items")
    return "… and \(n) more \(n == 1 ? one : many) (not shown)"
  }

  /// The marker of a section whose rendering a text bound cut too (``BoundedLines``): besides
  /// the candidates the digest left out, `notInText` of its lines are not in the text, though
  /// the structured output's `field` holds them. `… and 26 more decisions (not shown: the text is
  /// bounded; structuredContent.sections.decisions holds every one)`, or, when the digest left
  /// some out too, `… and 30 more decisions (26 not shown as the text is bounded,
  /// structuredContent.sections.decisions holds them; 4 left out by the digest)`. With
  /// `notInText` 0, ``marker(for:)``.
  /// - Parameters:
  ///   - section: a ``sectionNames`` member.
  ///   - notInText: how many of the section's lines the text left out.
  ///   - field: where the structured output holds the section's lines, e.g.
  ///     `structuredContent.sections.decisions`.
  package func marker(for section: String, notInText: Int, heldIn field: String) -> String? {
    guard notInText > 0 else { return marker(for: section) }
    let digest = self[section: section]
    let n = digest + notInText
    let (one, many) = Self.nouns[section] ?? ("item", "items")
    let why =
      digest == 0
      ? "not shown: the text is bounded; \(field) holds every one"
      : "\(notInText) not shown as the text is bounded, \(field) holds \(notInText == 1 ? "it" : "them"); "
        + "\(digest) left out by the digest"
    return "… and \(n) more \(n == 1 ? one : many) (\(why))"
  }

  static let nouns: [String: (String, String)] = [
    "decisions": ("decision", "decisions"), "preferences": ("preference", "preferences"), "goals": ("goal", "goals"),
    "openTasks": ("open task", "open tasks"),
    // Not the section's kinds: the omitted items may all be of one kind (review 20-b, #10), and
    // the count does not say which.
    "recentContext": ("older item", "older items"),
    "priorities": ("high-priority item or task", "high-priority items and tasks"),
    "questions": ("open question", "open questions"),
  ]

  /// The count a marker line of digests stored before version 7 held (`… and 12 more decisions
  /// (not shown)`, no evidence), or `nil` when `line` is not one.
  static func legacyMarkerCount(_ line: DigestLine) -> Int? {
    guard line.evidenceIDs.isEmpty, line.text.hasPrefix("… and "), line.text.hasSuffix(" (not shown)") else { return nil }
    let rest = line.text.dropFirst("… and ".count)
    guard let space = rest.firstIndex(of: " "), rest[space...].hasPrefix(" more "), let n = Int(rest[..<space]), n > 0
    else { return nil }
    return n
  }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Key.self)
    self.init()
    for name in Self.sectionNames {
      self[section: name] = try c.decodeIfPresent(Int.self, forKey: Key(stringValue: name)) ?? 0
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Key.self)
    for name in Self.sectionNames where self[section: name] != 0 {
      try c.encode(self[section: name], forKey: Key(stringValue: name))
    }
  }
}
