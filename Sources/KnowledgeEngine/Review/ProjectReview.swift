import Foundation

/// Counts of open and completed tasks and the oldest open one.
public struct TaskStatusSummary: Codable, Sendable, Equatable {
  /// How many tasks are open.
  public var open: Int
  /// How many tasks are completed.
  public var completed: Int
  /// The open task created first (then lowest id), if any.
  public var oldestOpen: TaskItem?
}

/// One bounded, rule-based report on where the project stands (what the agent tool
/// `project_review` returns): the digest's key sections, the top insights and task status,
/// each line with its evidence ids.
public struct ProjectReview: Codable, Sendable, Equatable {
  /// Always `rule-based`.
  public var method: String
  /// ``DigestBuilder/algorithm`` of the sections below.
  public var digestAlgorithm: String
  /// ``DigestBuilder/version`` of the sections below.
  public var digestAlgorithmVersion: String
  /// The digest's decisions, goals, open tasks, priorities and questions sections (each
  /// bounded as in ``DigestBuilder``).
  public var decisions: [DigestLine]
  /// The digest's goals section.
  public var goals: [DigestLine]
  /// The digest's open-tasks section.
  public var openTasks: [DigestLine]
  /// The digest's priorities section.
  public var priorities: [DigestLine]
  /// The digest's questions section.
  public var questions: [DigestLine]
  /// How many candidates each of the five sections above left out (the digest's counts; the
  /// review carries no preferences or recent context, so those counts are always 0). JSON:
  /// only the sections that left some out.
  public var omitted: DigestOmissions = DigestOmissions()
  /// The first ``KnowledgeEngine/reviewInsightCount`` insights in insight order.
  public var insights: [Insight]
  /// How many insights fired in all.
  public var insightTotal: Int
  /// Open and completed counts and the oldest open task.
  public var tasks: TaskStatusSummary

  /// Every evidence id cited (sections, insights, the oldest open task), first-seen order.
  public var evidenceIDs: [UUID] {
    var seen = Set<UUID>()
    var out: [UUID] = []
    let ids =
      [decisions, goals, openTasks, priorities, questions].joined().flatMap(\.evidenceIDs)
      + insights.flatMap(\.evidenceIDs) + (tasks.oldestOpen.map { [$0.id] } ?? [])
    for id in ids where seen.insert(id).inserted { out.append(id) }
    return out
  }
}

extension KnowledgeEngine {
  /// Insights a review includes at most.
  public static let reviewInsightCount = 5

  /// Builds the project review in one read transaction. Deterministic for a given workspace
  /// and clock (the clock only matters to the stale-handoff insight).
  /// - Throws: ``WorkspaceError`` from the store.
  public func review() throws -> ProjectReview {
    let now = environment.now()
    return try store.read { tx in
      let sections = try DigestBuilder.sections(tx)
      let report = try InsightRules.evaluate(tx, now: now, minimumPriority: .low)
      return ProjectReview(
        method: DigestBuilder.method, digestAlgorithm: DigestBuilder.algorithm,
        digestAlgorithmVersion: DigestBuilder.version, decisions: sections.decisions, goals: sections.goals,
        openTasks: sections.openTasks, priorities: sections.priorities, questions: sections.questions,
        omitted: DigestOmissions(
          decisions: sections.omitted.decisions, goals: sections.omitted.goals, openTasks: sections.omitted.openTasks,
          priorities: sections.omitted.priorities, questions: sections.omitted.questions),
        insights: Array(report.insights.prefix(Self.reviewInsightCount)), insightTotal: report.total,
        tasks: TaskStatusSummary(
          open: try tx.taskCount(status: .open), completed: try tx.taskCount(status: .completed),
          oldestOpen: try tx.oldestOpenTask()))
    }
  }
}
