import ContinuityKit
import Foundation

/// A workspace whose restore brief leaves out knowledge and tasks that stand scattered through
/// `knowledge list` and `task list --status all` (review 28-d, 6: the brief's pointers named
/// lists whose first page need not hold them). Dated two days before `now`, so a command that
/// reads the real clock restores it as it would any handoff.
///
/// - Before the handoff: four open critical tasks (first in task-list order, unchanged since),
///   three open normal tasks, one of them edited after the handoff (changed since), and five
///   knowledge items, one of them edited after everything else (first in knowledge-list order,
///   yet not captured since).
/// - After it: thirty tasks of priorities low, high and normal in turn, every fourth completed,
///   and twenty-five knowledge items, the first of them edited last of all.
public struct ScatteredSinceFixture: Sendable {
  /// The handoff whose brief leaves records out.
  public let handoffID: UUID
  /// The ids of the tasks added, completed or updated after the handoff (31).
  public let tasksChangedSince: Set<UUID>
  /// The ids of the knowledge items captured after the handoff (25).
  public let knowledgeCapturedSince: Set<UUID>

  /// Inserts the records into `tx`, the last of them a minute before `now`.
  public static func insert(into tx: WorkspaceTransaction, now: Date = Date()) throws -> ScatteredSinceFixture {
    let base = now.addingTimeInterval(-2 * 86_400)
    func at(_ minutes: Int) -> Date { base.addingTimeInterval(Double(minutes) * 60) }
    for i in 0..<4 {
      try tx.insertTask(TaskItem(id: UUID(), title: "Rotate the signing key \(i + 1)", priority: .critical, createdAt: at(i)))
    }
    var tasksChanged = Set<UUID>()
    for i in 0..<3 {
      let id = UUID()
      let edited = i == 1
      try tx.insertTask(
        TaskItem(id: id, title: "Review the import path \(i + 1)", createdAt: at(4 + i), updatedAt: edited ? at(200) : at(4 + i)))
      if edited { tasksChanged.insert(id) }
    }
    var knowledgeCaptured = Set<UUID>()
    for i in 0..<5 {
      _ = try tx.insertKnowledge(
        KnowledgeItem(
          id: UUID(), kind: .fact, title: "Storage note \(i + 1)", content: "Written before the handoff.",
          createdAt: at(i), updatedAt: i == 2 ? at(2_000) : at(i)))
    }
    let handoffID = UUID()
    try tx.insertHandoff(Handoff(id: handoffID, focus: "Ship the importer", createdAt: at(10)))
    let priorities: [Priority] = [.low, .high, .normal]
    for i in 0..<30 {
      let id = UUID()
      let completed = i % 4 == 3
      try tx.insertTask(
        TaskItem(
          id: id, title: "Import step \(i + 1)", status: completed ? .completed : .open, priority: priorities[i % 3],
          createdAt: at(20 + i), completedAt: completed ? at(100 + i) : nil, updatedAt: completed ? at(100 + i) : at(20 + i)))
      tasksChanged.insert(id)
    }
    for i in 0..<25 {
      let id = UUID()
      _ = try tx.insertKnowledge(
        KnowledgeItem(
          id: id, kind: i % 2 == 0 ? .decision : .fact, title: "Importer finding \(i + 1)", content: "Found while importing.",
          createdAt: at(20 + i), updatedAt: i == 0 ? at(2_100) : at(20 + i)))
      knowledgeCaptured.insert(id)
    }
    return ScatteredSinceFixture(handoffID: handoffID, tasksChangedSince: tasksChanged, knowledgeCapturedSince: knowledgeCaptured)
  }
}
