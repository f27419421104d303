import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Digest lists put titles that differ in a number in numeric order ("item 2" before "item 10"),
/// not in text order ("item 1, item 10, item 2"), and stay deterministic.
@Suite("Digest: natural order of titles")
struct DigestNaturalOrderTests {
  static func item(_ n: Int, _ kind: KnowledgeKind, _ title: String, priority: Priority = .normal) -> KnowledgeItem {
    KnowledgeItem(id: sequentialID(n), kind: kind, title: title, priority: priority, createdAt: DigestFixture.t0)
  }

  static let knowledge: [KnowledgeItem] = [
    item(1, .decision, "item 10"), item(2, .decision, "item 2"), item(3, .decision, "item 1"),
    // Equal as numbers: the plain code-unit order decides ("0" < "2").
    item(4, .decision, "item 02"),
    item(5, .fact, "step 10"), item(6, .fact, "step 9"),
    item(7, .goal, "v1.10 release", priority: .high), item(8, .goal, "v1.9 release", priority: .high),
  ]

  @Test("decisions, recent context and priorities list item 1, item 2, item 10")
  func naturalOrder() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in for k in Self.knowledge.reversed() { try tx.insertKnowledge(k) } }
    let sections = try KnowledgeEngine(store: store).projectContext().sections
    #expect(sections.decisions.map(\.text) == ["item 1", "item 02", "item 2", "item 10"])
    #expect(sections.recentContext.map(\.text) == ["fact: step 9", "fact: step 10"])
    #expect(sections.goals.map(\.text) == ["v1.9 release [high]", "v1.10 release [high]"])
    #expect(sections.priorities.map(\.text) == ["High goal: v1.9 release", "High goal: v1.10 release"])
    let pure = DigestBuilder.build(
      knowledge: Self.knowledge, openTasks: [], activeHandoff: nil, id: sequentialID(900), now: DigestFixture.t0,
      trigger: .manual)
    #expect(pure.sections == sections)
  }
}
