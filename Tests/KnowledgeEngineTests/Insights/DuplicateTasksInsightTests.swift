import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 18-b B5: `insights` advertised duplicates, but identical open tasks were never
/// flagged. The duplicate-tasks rule groups open tasks by the near-duplicate rule of knowledge
/// titles.
@Suite("Duplicate-tasks insight")
struct DuplicateTasksInsightTests {
  static let t0 = InsightsTests.t0

  static func task(_ n: Int, _ title: String, status: TaskStatus = .open, minute: Int = 0) -> TaskItem {
    TaskItem(
      id: sequentialID(n), title: title, status: status, createdAt: t0.addingTimeInterval(Double(minute) * 60),
      completedAt: status == .completed ? t0 : nil)
  }

  static func found(_ tasks: [TaskItem]) throws -> [Insight] {
    try InsightsTests.insights(InsightsTests.engine([], tasks: tasks), .duplicateTasks)
  }

  @Test("two identical open tasks are one insight citing both (the review's reproduction)")
  func identicalOpenTasks() throws {
    let insights = try Self.found([Self.task(1, "Deploy"), Self.task(2, "Deploy", minute: 1)])
    let insight = try #require(insights.first)
    #expect(insights.count == 1)
    #expect(insight.priority == .normal)
    #expect(insight.evidenceIDs == [sequentialID(1), sequentialID(2)])
    #expect(
      insight.message
        == #"2 open tasks have the same title: "Deploy", "Deploy"; complete or delete the extra ones, or make the titles distinct."#)
  }

  @Test("near-identical titles group by the knowledge rule and state their similarity")
  func nearIdenticalTitles() throws {
    let tasks = [
      Self.task(1, "Fix tokenizer perf"), Self.task(2, "Fix tokenizer perf."), Self.task(3, "Set up CI"),
      Self.task(4, "Set up CI"), Self.task(5, "Write the README"),
    ]
    let insights = try Self.found(tasks)
    #expect(insights.map { Set($0.evidenceIDs) } == [[sequentialID(1), sequentialID(2)], [sequentialID(3), sequentialID(4)]])
  }

  @Test("completed tasks, a numbered series and distinct titles are not duplicates")
  func notDuplicates() throws {
    #expect(try Self.found([Self.task(1, "Deploy"), Self.task(2, "Deploy", status: .completed)]).isEmpty)
    #expect(
      try Self.found([
        Self.task(1, "Migration step 2 of the storage rollout"), Self.task(2, "Migration step 10 of the storage rollout"),
      ]).isEmpty)
    #expect(try Self.found([Self.task(1, "Deploy"), Self.task(2, "Write the README")]).isEmpty)
  }

  @Test("a group larger than the evidence cap cites 64 ids and counts them all")
  func evidenceCap() throws {
    let insight = try #require(try Self.found((1...70).map { Self.task($0, "Set up CI") }).first)
    #expect(insight.message.hasPrefix("70 open tasks have the same title"), "\(insight.message)")
    #expect(insight.evidenceIDs.count == Limits.idsPerList)
    #expect(insight.evidenceTotal == 70)
    #expect(insight.evidenceTruncated)
  }

  @Test("larger groups come first, and the order does not depend on storage order")
  func order() throws {
    let tasks = [
      Self.task(9, "Set up CI"), Self.task(3, "Deploy"), Self.task(7, "Set up CI"), Self.task(1, "Deploy"),
      Self.task(5, "Set up CI"),
    ]
    let forward = try Self.found(tasks).map(\.evidenceIDs)
    #expect(forward == [[sequentialID(5), sequentialID(7), sequentialID(9)], [sequentialID(1), sequentialID(3)]])
    #expect(try Self.found(tasks.reversed()).map(\.evidenceIDs) == forward)
  }

  struct ValueCase: CustomStringConvertible, Sendable {
    var a: String
    var b: String
    var values: String
    var description: String { "\(a) / \(b)" }
  }

  /// Review 23-a, 2: titles that differ only in a value were told "complete or delete the extra
  /// ones"; they are asked which one holds, naming the values, as near-duplicate knowledge is.
  static let valueCases = [
    ValueCase(a: "Benchmark capture at 10k items", b: "Benchmark capture at 100k items", values: "10k / 100k"),
    ValueCase(a: "Upgrade CI runners to Node 18", b: "Upgrade CI runners to Node 20", values: "18 / 20"),
    ValueCase(a: "Task 1 widget", b: "Task 11 widget", values: "1 / 11"),
  ]

  @Test("open tasks whose titles differ in a value are asked which one holds, never told to delete the extra ones", arguments: valueCases)
  func differentValues(_ c: ValueCase) throws {
    let insight = try #require(try Self.found([Self.task(1, c.a), Self.task(2, c.b, minute: 1)]).first)
    #expect(!insight.message.contains("extra ones"), "\(insight.message)")
    #expect(insight.message.hasPrefix("2 open tasks have near-identical titles (trigram similarity up to "), "\(insight.message)")
    #expect(
      insight.message.contains(
        "that may state different values (\(c.values)): \"\(c.a)\", \"\(c.b)\"; check which one holds: complete or delete the outdated one, or make the titles distinct if both are work to do."
      ), "\(insight.message)")
    #expect(insight.evidenceIDs == [sequentialID(1), sequentialID(2)])
  }

  @Test("open tasks whose titles say opposite things are asked to decide, and identical ones keep the old advice")
  func oppositeAndIdentical() throws {
    let opposite = try #require(
      try Self.found([Self.task(1, "Enable the feature flag for search"), Self.task(2, "Disable the feature flag for search")]).first)
    #expect(
      opposite.message.hasSuffix(
        "that say opposite things (disable / enable): \"Disable the feature flag for search\", \"Enable the feature flag for search\"; decide which one holds: complete or delete the other, or reword one."
      ), "\(opposite.message)")
    // A pair differing only in punctuation states no value: the old advice fits.
    let same = try #require(try Self.found([Self.task(1, "Fix tokenizer perf"), Self.task(2, "Fix tokenizer perf.")]).first)
    #expect(same.message.hasSuffix("complete or delete the extra ones, or make the titles distinct."), "\(same.message)")
  }
}
