import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 19-c: what the digest shows of where the project stands — the newest items within a
/// priority when a section is cut, the priorities section in priority order, and open tasks
/// that cite superseded items marked as such (digest version 8).
@Suite("Digest: newest first within a priority, priorities in order, superseded task evidence")
struct DigestStandingOrderTests {
  /// The review's nine decisions, one captured per day, the last one titled `Use …`.
  static let decisionTitles = [
    "Adopt trunk-based development", "Build with Bazel", "Choose AWS eu-west-1", "Deploy with Helm", "Enable HTTP/2",
    "Freeze API v1", "Gate merges on CI", "Host docs on GitHub Pages", "Use Rust for the thumbnailer",
  ]

  /// An engine over a fresh store whose clock advances one day per reading.
  static func dailyEngine() -> KnowledgeEngine {
    KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment(step: 86_400))
  }

  @Test("a capped section keeps the newest decisions: the one captured last is shown, the oldest is left out")
  func newestDecisionIsShown() throws {
    let engine = Self.dailyEngine()
    for title in Self.decisionTitles {
      _ = try engine.capture(CaptureRequest(kind: .decision, title: title, tags: ["arch"]))
    }
    let sections = try engine.projectContext().sections
    #expect(sections.decisions.map(\.text) == Array(Self.decisionTitles.dropFirst().reversed()))
    #expect(sections.omitted.decisions == 1)
    #expect(!sections.decisions.contains { $0.text == "Adopt trunk-based development" })
    // The stored digest and the review say the same.
    #expect(try engine.saveDigest().sections.decisions.first?.text == "Use Rust for the thumbnailer")
    #expect(try engine.review().decisions.first?.text == "Use Rust for the thumbnailer")
  }

  @Test("editing an item makes it recent again; a higher priority still comes before any date")
  func editsAndPriority() throws {
    let engine = Self.dailyEngine()
    var ids: [UUID] = []
    for title in Self.decisionTitles {
      ids.append(try engine.capture(CaptureRequest(kind: .decision, title: title)).item.id)
    }
    // The oldest decision, edited today, is the newest by `updatedAt`.
    _ = try engine.editKnowledge(id: ids[0], KnowledgeEdit(content: "Short-lived branches only."))
    var texts = try engine.projectContext().sections.decisions.map(\.text)
    #expect(texts.first == "Adopt trunk-based development — Short-lived branches only.")
    #expect(!texts.contains("Build with Bazel"), "now the oldest untouched one is left out: \(texts)")
    // A high decision, however old, stands before every normal one.
    _ = try engine.editKnowledge(id: ids[2], KnowledgeEdit(priority: .high))
    _ = try engine.editKnowledge(id: ids[1], KnowledgeEdit(priority: .high))
    texts = try engine.projectContext().sections.decisions.map(\.text)
    #expect(Array(texts.prefix(3)) == [
      "Build with Bazel [high]", "Choose AWS eu-west-1 [high]", "Adopt trunk-based development — Short-lived branches only.",
    ])
  }

  @Test("items of one priority and one time are ordered by title, then id, in any storage order")
  func tiesAreDeterministic() throws {
    let t0 = DigestFixture.t0
    let items = [
      KnowledgeItem(id: sequentialID(3), kind: .goal, title: "item 10", createdAt: t0),
      KnowledgeItem(id: sequentialID(2), kind: .goal, title: "item 2", createdAt: t0),
      KnowledgeItem(id: sequentialID(1), kind: .goal, title: "item 2", createdAt: t0),
      KnowledgeItem(id: sequentialID(4), kind: .goal, title: "item 1", createdAt: t0.addingTimeInterval(-60)),
    ]
    for order in [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1]] {
      let store = SQLiteWorkspaceStore.inMemory()
      try store.write { tx in for i in order { try tx.insertKnowledge(items[i]) } }
      let goals = try KnowledgeEngine(store: store).projectContext().sections.goals
      #expect(goals.map(\.text) == ["item 2", "item 2", "item 10", "item 1"])
      #expect(goals.map(\.evidenceIDs) == [[sequentialID(1)], [sequentialID(2)], [sequentialID(3)], [sequentialID(4)]])
    }
  }

  @Test("priorities are in priority order across items and tasks: a critical task before a high decision")
  func prioritiesInOrder() throws {
    let engine = Self.dailyEngine()
    let decision = try engine.capture(CaptureRequest(kind: .decision, title: "Use Postgres", priority: .high)).item
    let goal = try engine.capture(CaptureRequest(kind: .goal, title: "Ship beta", priority: .critical)).item
    let bug = try engine.addTask(title: "Fix the data-loss bug", priority: .critical)
    let docs = try engine.addTask(title: "Write docs", priority: .high)
    _ = try engine.addTask(title: "Tidy up", priority: .normal)
    let priorities = try engine.projectContext().sections.priorities
    #expect(priorities.map(\.text) == [
      "Critical goal: Ship beta", "Critical task: Fix the data-loss bug", "High decision: Use Postgres", "High task: Write docs",
    ])
    #expect(priorities.map(\.evidenceIDs) == [[goal.id], [bug.id], [decision.id], [docs.id]])
  }

  @Test("the priorities cap keeps the eight highest across items and tasks and counts the rest")
  func prioritiesCap() throws {
    let engine = Self.dailyEngine()
    for i in 1...6 { _ = try engine.capture(CaptureRequest(kind: .fact, title: "High fact \(i)", priority: .high)) }
    for i in 1...4 { _ = try engine.addTask(title: "Critical task \(i)", priority: .critical) }
    let s = try engine.projectContext().sections
    #expect(s.priorities.map(\.text) == (1...4).map { "Critical task: Critical task \($0)" } + [
      "High fact: High fact 6", "High fact: High fact 5", "High fact: High fact 4", "High fact: High fact 3",
    ])
    #expect(s.omitted.priorities == 2)
  }

  @Test("an open task citing a superseded item names its successor (the review's reproduction)")
  func supersededTaskEvidenceIsMarked() throws {
    let engine = Self.dailyEngine()
    let old = try engine.capture(CaptureRequest(kind: .goal, title: "Ship beta by January 15", tags: ["release"])).item
    let new = try engine.capture(
      CaptureRequest(
        kind: .goal, title: "Ship beta by February 1", tags: ["release"], relationships: [.init(kind: .supersedes, targetID: old.id)])
    ).item
    let task = try engine.addTask(title: "Cut the beta branch on January 10", knowledgeIDs: [old.id])
    let current = try engine.addTask(title: "Write the release notes", knowledgeIDs: [new.id])
    let lines = try engine.projectContext().sections.openTasks
    #expect(lines.map(\.text) == [
      "Cut the beta branch on January 10 (\(old.id.uuidString) superseded by \(new.id.uuidString))",
      "Write the release notes",
    ])
    #expect(lines.map(\.evidenceIDs) == [[task.id, old.id], [current.id, new.id]])
  }

  @Test("only the superseded ids of a task are marked, each with all of its successors; the marks survive a long title")
  func marksWithLongTitle() throws {
    let t0 = DigestFixture.t0
    let (a, b, c, d) = (sequentialID(1), sequentialID(2), sequentialID(3), sequentialID(4))
    let items = [
      KnowledgeItem(id: a, kind: .decision, title: "Old", createdAt: t0),
      KnowledgeItem(id: b, kind: .decision, title: "New one", relationships: [.init(kind: .supersedes, targetID: a)], createdAt: t0),
      KnowledgeItem(id: c, kind: .decision, title: "New two", relationships: [.init(kind: .supersedes, targetID: a)], createdAt: t0),
      KnowledgeItem(id: d, kind: .fact, title: "Current", createdAt: t0),
    ]
    let task = TaskItem(
      id: sequentialID(100), title: String(repeating: "t", count: 300), priority: .high, createdAt: t0, knowledgeIDs: [d, a])
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      for k in items { try tx.insertKnowledge(k) }
      try tx.insertTask(task)
    }
    let line = try #require(try KnowledgeEngine(store: store).projectContext().sections.openTasks.first)
    let marks = " [high] (\(a.uuidString) superseded by \(b.uuidString), \(c.uuidString))"
    #expect(line.text.hasSuffix(marks), "\(line.text)")
    #expect(line.text.count == DigestBuilder.lineLimit)
    #expect(line.text.hasPrefix(String(repeating: "t", count: 10)))
    #expect(line.text.contains(Truncation.marker + " [high]"), "the title is what is cut")
    #expect(line.evidenceIDs == [task.id, d, a])
    // The pure builder agrees.
    let pure = DigestBuilder.build(
      knowledge: items, openTasks: [task], activeHandoff: nil, id: sequentialID(900), now: t0, trigger: .manual)
    #expect(pure.sections.openTasks == [line])
  }

  /// Review 19-d: twelve superseded citations cut the second mark inside an id, the title to
  /// about 48 characters, and left ten items unnamed and uncounted.
  @Test("marks that do not fit are counted, never cut inside an id; the title keeps its minimum")
  func manyMarksAreCounted() throws {
    let t0 = DigestFixture.t0
    var items: [KnowledgeItem] = []
    var cited: [UUID] = []
    for i in 0..<9 {
      let old = sequentialID(10 + i)
      cited.append(old)
      items.append(KnowledgeItem(id: old, kind: .decision, title: "Old \(i)", createdAt: t0))
      for j in 0..<2 {
        items.append(
          KnowledgeItem(
            id: sequentialID(100 + 10 * i + j), kind: .decision, title: "New \(i).\(j)",
            relationships: [.init(kind: .supersedes, targetID: old)], createdAt: t0))
      }
    }
    let task = TaskItem(
      id: sequentialID(900), title: String(repeating: "Long task title ", count: 18), createdAt: t0, knowledgeIDs: cited)
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      for k in items { try tx.insertKnowledge(k) }
      try tx.insertTask(task)
    }
    let line = try #require(try KnowledgeEngine(store: store).projectContext().sections.openTasks.first)
    #expect(line.text.count <= DigestBuilder.lineLimit)
    #expect(line.text.hasSuffix("; and 7 more superseded)"), "\(line.text)")
    #expect(line.text.contains("(\(cited[0].uuidString) superseded by \(sequentialID(100).uuidString), \(sequentialID(101).uuidString);"))
    #expect(line.text.components(separatedBy: Truncation.marker).count == 2, "only the title is cut: \(line.text)")
    #expect(line.text.hasPrefix(String(repeating: "Long task title ", count: 3)), "at least 60 characters of the title")
    #expect(line.evidenceIDs == [task.id] + cited.prefix(DigestBuilder.taskEvidenceCap))
  }

  @Test("an older stored digest keeps its version and lines; a new one is version 11")
  func olderDigestsStay() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let old = Digest(
      id: sequentialID(900), createdAt: DigestFixture.t0, trigger: .manual,
      sections: DigestSections(decisions: [DigestLine(text: "Adopt trunk-based development", evidenceIDs: [sequentialID(901)])]),
      algorithm: DigestBuilder.algorithm, algorithmVersion: "7")
    try store.write { tx in
      // Not sequentialID(1), which the engine's first digest takes (one id, two collections,
      // is refused by an import).
      try tx.insertKnowledge(KnowledgeItem(id: sequentialID(901), kind: .decision, title: "Adopt trunk-based development", createdAt: DigestFixture.t0))
      try tx.insertDigest(old)
    }
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let fresh = try engine.saveDigest()
    #expect(fresh.algorithmVersion == "12")
    #expect(try engine.listDigests().first { $0.id == old.id } == old)
    // An export holding both imports into an empty workspace unchanged.
    let exported = try engine.exportWorkspace(generator: "dolphin test")
    let target = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    _ = try target.applyImport(exported, source: "export.json")
    #expect(try target.listDigests().contains(old))
    #expect(Set(try target.listDigests().map(\.algorithmVersion)) == ["7", "12"])
  }
}
