import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Items that supersede each other in a cycle used to vanish from the digest without a word:
/// every one of them was "superseded". Now the digest keeps them and asks which one stands,
/// and an import that would make a cycle is refused.
@Suite("Supersede cycles: digest and import")
struct SupersedeCycleDigestTests {
  static func decision(_ n: Int, _ title: String, supersedes targets: [Int] = []) -> KnowledgeItem {
    KnowledgeItem(
      id: sequentialID(n), kind: .decision, title: title,
      relationships: targets.map { KnowledgeRelationship(kind: .supersedes, targetID: sequentialID($0)) },
      createdAt: DigestFixture.t0)
  }

  /// A workspace where A and B supersede each other (the second relationship written as older
  /// data or a direct edit could have), C supersedes D normally, and E stands alone.
  static func cyclicStore() throws -> SQLiteWorkspaceStore {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(decision(1, "Use tabs"))
      try tx.insertKnowledge(decision(2, "Use spaces", supersedes: [1]))
      try tx.insertKnowledge(decision(4, "Ship in May"))
      try tx.insertKnowledge(decision(3, "Ship in June", supersedes: [4]))
      try tx.insertKnowledge(decision(5, "Keep the CLI thin"))
      try tx.db.run(
        "INSERT INTO knowledge_relationship(source_id, ordinal, kind, target_id) VALUES (?, 0, 'supersedes', ?)",
        [.text(sequentialID(1).uuidString), .text(sequentialID(2).uuidString)])
    }
    return store
  }

  @Test("the digest keeps the items of a stored cycle and asks which one stands; an ordinary successor still hides its predecessor")
  func digestNamesTheCycle() throws {
    let store = try Self.cyclicStore()
    let sections = try KnowledgeEngine(store: store).projectContext().sections
    #expect(sections.decisions.map(\.text) == ["Keep the CLI thin", "Ship in June", "Use spaces", "Use tabs"])
    #expect(sections.questions.map(\.text) == ["Supersede cycle: Use spaces; Use tabs supersede each other — decide which one stands"])
    #expect(sections.questions.map(\.evidenceIDs) == [[sequentialID(2), sequentialID(1)]])
    // The pure builder agrees.
    let knowledge = try store.read { tx in try tx.listKnowledge() }
    let pure = DigestBuilder.build(
      knowledge: knowledge, openTasks: [], activeHandoff: nil, id: sequentialID(900), now: DigestFixture.t0, trigger: .manual)
    #expect(pure.sections == sections)
  }

  @Test("an item superseding itself is named too")
  func selfSupersede() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(Self.decision(1, "Use tabs"))
      try tx.db.run(
        "INSERT INTO knowledge_relationship(source_id, ordinal, kind, target_id) VALUES (?, 0, 'supersedes', ?)",
        [.text(sequentialID(1).uuidString), .text(sequentialID(1).uuidString)])
    }
    let sections = try KnowledgeEngine(store: store).projectContext().sections
    #expect(sections.decisions.map(\.text) == ["Use tabs"])
    #expect(sections.questions.map(\.text) == ["Supersede cycle: Use tabs supersedes itself — decide whether it stands"])
  }

  @Test("status names a stored cycle among the integrity problems")
  func statusReportsTheCycle() throws {
    let status = try KnowledgeEngine(store: try Self.cyclicStore()).status()
    #expect(
      status.integrityProblems.contains {
        $0.hasPrefix("knowledge \(sequentialID(1).uuidString), \(sequentialID(2).uuidString) supersede each other in a cycle")
      }, "\(status.integrityProblems)")
  }

  @Test("an import whose items would supersede each other is refused with the record's path, and nothing is written")
  func importRefusesACycle() throws {
    let source = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    var document = try source.exportWorkspace(generator: "test")
    document.workspace.knowledge = [Self.decision(1, "Use tabs", supersedes: [2]), Self.decision(2, "Use spaces", supersedes: [1])]
    let target = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    for attempt in [{ _ = try target.planImport(document, source: "export.json") },
                    { _ = try target.applyImport(document, source: "export.json") }] {
      let error = #expect(throws: WorkspaceError.self) { try attempt() }
      guard case .validation(let v) = error else {
        Issue.record("expected a validation error, got \(String(describing: error))")
        continue
      }
      // The first relationship of the cycle in document order is named.
      #expect(v.field == "workspace.knowledge[0].relationships[0]")
      #expect(
        v.message.hasPrefix(
          "export.json: workspace.knowledge[0].relationships[0]: knowledge item \(sequentialID(1).uuidString) cannot supersede "
            + "\(sequentialID(2).uuidString): \(sequentialID(2).uuidString) already supersedes \(sequentialID(1).uuidString)"),
        "\(v.message)")
      #expect(v.message.hasSuffix("Nothing was imported"))
    }
    #expect(try target.store.read { tx in try tx.knowledgeCount() } == 0)
  }

  @Test("an import is refused when its relationship closes a cycle through the workspace's items")
  func importRefusesACycleThroughTheWorkspace() throws {
    let target = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    try target.store.write { tx in
      try tx.insertKnowledge(Self.decision(1, "Use tabs"))
      try tx.insertKnowledge(Self.decision(2, "Use spaces", supersedes: [1]))
    }
    var document = try target.exportWorkspace(generator: "test")
    document.workspace.knowledge = [Self.decision(3, "Use both", supersedes: [2])]
    // 1 supersedes 3 would close 1 → 3 → 2 → 1.
    var one = Self.decision(1, "Use tabs", supersedes: [3])
    one.revision = 2
    document.workspace.knowledge.append(one)
    let error = #expect(throws: WorkspaceError.self) {
      _ = try target.applyImport(document, policy: .replace, source: "export.json")
    }
    #expect(error?.description.contains("workspace.knowledge[0].relationships[0]") == true, "\(String(describing: error))")
    #expect(try target.store.read { tx in try tx.supersedeGraph().cycles }.isEmpty)
    #expect(try target.store.read { tx in try tx.knowledgeCount() } == 2)
  }

  @Test("re-importing the export of a workspace that holds a cycle from older data changes nothing and is not refused")
  func reimportOfStoredCycle() throws {
    let store = try Self.cyclicStore()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let document = try engine.exportWorkspace(generator: "test")
    let plan = try engine.planImport(document, source: "export.json")
    #expect(plan.recordsToWrite == 0)
  }
}
