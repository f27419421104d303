import ContinuityKit
import Foundation
import Testing
import TestSupport

@Suite("Reference integrity")
struct IntegrityTests {
  @Test("dangling references are reported with the ids involved, never a crash")
  func danglingReferences() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let a = item(1), b = item(2, relationships: [KnowledgeRelationship(kind: .contradicts, targetID: sequentialID(1))])
    try store.write { tx in
      try tx.insertKnowledge(a)
      try tx.insertKnowledge(b)
      try tx.insertTask(TaskItem(id: sequentialID(10), title: "t", createdAt: t0, knowledgeIDs: [a.id]))
      try tx.insertHandoff(Handoff(id: sequentialID(20), focus: "f", knowledgeIDs: [a.id], taskIDs: [sequentialID(10)], createdAt: t0))
      try tx.insertMemory(MemoryItem(id: sequentialID(30), text: "m", createdAt: t0, knowledgeID: sequentialID(31)))
      try tx.setActiveHandoffID(sequentialID(20))
    }
    #expect(try store.read { try $0.referenceProblems() } == ["memory \(sequentialID(30).uuidString) links to missing knowledge mirror \(sequentialID(31).uuidString)"])
    // Remove rows behind the records' backs (as a damaged or hand-edited database would).
    try store.write { tx in
      try tx.db.run("DELETE FROM knowledge WHERE id = ?", [.text(a.id.uuidString)])
      try tx.db.run("DELETE FROM task WHERE id = ?", [.text(sequentialID(10).uuidString)])
      try tx.db.run("DELETE FROM handoff WHERE id = ?", [.text(sequentialID(20).uuidString)])
    }
    let problems = try store.read { try $0.referenceProblems() }
    let A = a.id.uuidString, B = b.id.uuidString, H = sequentialID(20).uuidString
    #expect(problems == [
      "knowledge \(B) has a contradicts relationship to missing item \(A)",
      "memory \(sequentialID(30).uuidString) links to missing knowledge mirror \(sequentialID(31).uuidString)",
      "the active handoff marker points at missing handoff \(H)",
    ])
  }

  @Test("task and handoff references to missing records are found")
  func taskAndHandoffReferences() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let a = item(1)
    try store.write { tx in
      try tx.insertKnowledge(a)
      try tx.insertTask(TaskItem(id: sequentialID(10), title: "t", createdAt: t0, knowledgeIDs: [a.id]))
      try tx.insertHandoff(Handoff(id: sequentialID(20), focus: "f", knowledgeIDs: [a.id], taskIDs: [sequentialID(10)], createdAt: t0))
      try tx.db.run("DELETE FROM knowledge WHERE id = ?", [.text(a.id.uuidString)])
      try tx.db.run("DELETE FROM task WHERE id = ?", [.text(sequentialID(10).uuidString)])
      try tx.insertTask(TaskItem(id: sequentialID(11), title: "u", createdAt: t0))
      try tx.db.run("UPDATE task SET knowledge_ids = ? WHERE id = ?", [.text("[\"\(a.id.uuidString)\"]"), .text(sequentialID(11).uuidString)])
    }
    let A = a.id.uuidString
    #expect(try store.read { try $0.referenceProblems() } == [
      "task \(sequentialID(11).uuidString) references missing knowledge item \(A)",
      "handoff \(sequentialID(20).uuidString) references missing knowledge item \(A)",
      "handoff \(sequentialID(20).uuidString) references missing task \(sequentialID(10).uuidString)",
    ])
  }
}
