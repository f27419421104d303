import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 19-c: an open task whose cited knowledge has all been superseded was counted as
/// supported and no rule said it rests on replaced knowledge. The superseded-evidence rule
/// does, naming each superseded item and its successors.
@Suite("Superseded-evidence insight")
struct SupersededEvidenceInsightTests {
  static let t0 = InsightsTests.t0

  static func item(_ n: Int, _ kind: KnowledgeKind, _ title: String, supersedes: [Int] = [], minute: Int = 0) -> KnowledgeItem {
    InsightsTests.item(
      n, kind, title, relationships: supersedes.map { .init(kind: .supersedes, targetID: sequentialID($0)) }, minute: minute)
  }

  static func task(_ n: Int, _ title: String, citing: [Int], priority: Priority = .normal, status: TaskStatus = .open) -> TaskItem {
    TaskItem(
      id: sequentialID(n), title: title, status: status, priority: priority, createdAt: t0,
      completedAt: status == .completed ? t0 : nil, knowledgeIDs: citing.map(sequentialID))
  }

  static func found(_ items: [KnowledgeItem], _ tasks: [TaskItem]) throws -> [Insight] {
    try InsightsTests.insights(InsightsTests.engine(items, tasks: tasks), .supersededEvidence)
  }

  @Test("a task citing only a superseded goal rests on replaced knowledge (the review's reproduction)")
  func reviewReproduction() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let old = try engine.capture(CaptureRequest(kind: .goal, title: "Ship beta by January 15", tags: ["release"])).item
    let new = try engine.capture(
      CaptureRequest(
        kind: .goal, title: "Ship beta by February 1", tags: ["release"], relationships: [.init(kind: .supersedes, targetID: old.id)])
    ).item
    let task = try engine.addTask(title: "Cut the beta branch on January 10", knowledgeIDs: [old.id])
    let report = try engine.insights()
    let insight = try #require(report.insights.first { $0.rule == .supersededEvidence }, "\(report.insights)")
    #expect(insight.priority == .normal)
    #expect(
      insight.message
        == #"Open task "Cut the beta branch on January 10" rests on replaced knowledge: "Ship beta by January 15" is superseded by "Ship beta by February 1"; check that the task still holds under what replaced it: complete or delete it, or add a task that cites the successor."#
    )
    #expect(insight.evidenceIDs == [task.id, old.id, new.id])
    #expect(report.algorithmVersion == "14")
    // The task still counts as supported: it cites knowledge.
    #expect(!report.insights.contains { $0.rule == .unsupportedTasks })
  }

  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var citing: [Int]
    var status: TaskStatus = .open
    var fires: Bool
    var description: String { name }
  }

  // Items: 1 superseded by 2; 3 superseded by 4 and 5; 6 current.
  static let items: [KnowledgeItem] = [
    item(1, .decision, "Use REST"), item(2, .decision, "Use GraphQL", supersedes: [1]),
    item(3, .fact, "Node 18 in CI"), item(4, .fact, "Node 20 in CI", supersedes: [3]),
    item(5, .fact, "Bun in CI", supersedes: [3]),
    item(6, .fact, "CI runs on Linux"),
  ]

  static let cases: [Case] = [
    Case(name: "one superseded item", citing: [1], fires: true),
    Case(name: "two superseded items", citing: [1, 3], fires: true),
    Case(name: "a superseded and a current item", citing: [1, 6], fires: false),
    Case(name: "a current item only", citing: [6], fires: false),
    Case(name: "the successor itself", citing: [2], fires: false),
    Case(name: "a completed task", citing: [1], status: .completed, fires: false),
    Case(name: "no knowledge (unsupported-tasks says so)", citing: [], fires: false),
    Case(name: "the same superseded id twice", citing: [1, 1], fires: true),
  ]

  @Test("successors are listed as a sentence lists them")
  func successorList() {
    #expect(InsightRules.listed([]) == "")
    #expect(InsightRules.listed(["A"]) == "A")
    #expect(InsightRules.listed(["A", "B"]) == "A and B")
    #expect(InsightRules.listed(["A", "B", "C"]) == "A, B and C")
  }

  @Test("fires only for open tasks whose every cited item is superseded", arguments: cases)
  func whenItFires(_ c: Case) throws {
    let found = try Self.found(Self.items, [Self.task(100, "The task", citing: c.citing, status: c.status)])
    #expect(found.count == (c.fires ? 1 : 0), "\(found)")
  }

  @Test("each superseded item is named with all of its successors, and cited after the task")
  func namesSuccessors() throws {
    let insight = try #require(try Self.found(Self.items, [Self.task(100, "Migrate the API", citing: [3, 1])]).first)
    #expect(
      insight.message.hasPrefix(
        #"Open task "Migrate the API" rests on replaced knowledge: "Node 18 in CI" is superseded by "Node 20 in CI" and "Bun in CI"; "Use REST" is superseded by "Use GraphQL"; "#
      ), "\(insight.message)")
    #expect(insight.evidenceIDs == [100, 3, 1, 4, 5, 2].map(sequentialID))
    #expect(insight.evidenceTotal == 6)
  }

  @Test("a supersedes cycle supersedes nothing, as the digest reads it")
  func cycleIsNotReplacement() throws {
    // 1 and 2 supersede each other; 3 supersedes 4.
    let store = try SupersedeCycleDigestTests.cyclicStore()
    try store.write { tx in
      try tx.insertTask(Self.task(100, "Reformat", citing: [1]))
      try tx.insertTask(Self.task(101, "Plan the June release", citing: [4]))
    }
    let found = try InsightsTests.insights(KnowledgeEngine(store: store), .supersededEvidence)
    #expect(found.map(\.evidenceIDs) == [[101, 4, 3].map(sequentialID)])
  }

  @Test("one insight per task: higher priority first, then titles in natural order")
  func ordering() throws {
    let tasks = [
      Self.task(100, "Task 10", citing: [1]), Self.task(101, "Task 2", citing: [3]),
      Self.task(102, "Urgent one", citing: [1], priority: .critical), Self.task(103, "Task 2", citing: [1]),
    ]
    let found = try Self.found(Self.items, tasks)
    #expect(found.map { $0.evidenceIDs[0] } == [102, 101, 103, 100].map(sequentialID))
    #expect(try Self.found(Self.items, tasks.reversed()) == found)
  }
}
