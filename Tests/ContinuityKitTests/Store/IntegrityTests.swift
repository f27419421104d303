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

  @Test("crossed and one-sided memory ↔ mirror links are reported with both ids and how to fix them")
  func crossedMirrorLinks() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let M = sequentialID(40), R = sequentialID(41), D = sequentialID(42)
    try store.write { tx in
      try tx.insertKnowledge(KnowledgeItem(id: R, kind: .context, title: "m", content: "m", source: .legacyMemory, createdAt: t0, memoryID: M))
      try tx.insertKnowledge(KnowledgeItem(id: D, kind: .decision, title: "d", createdAt: t0))
      // The memory links to the decision (as an import by an earlier build let in).
      try tx.insertMemory(MemoryItem(id: M, text: "m", createdAt: t0, knowledgeID: D))
    }
    let problems = try store.read { try $0.referenceProblems() }
    #expect(problems.count == 2)
    #expect(problems.first?.hasPrefix(
      "memory \(M.uuidString) links to knowledge \(D.uuidString) as its mirror, but that item does not mirror it "
        + "(source user, no memoryID); `dolphin memory delete` keeps that item. To fix the link, export, set the memory's knowledgeID") == true,
      "\(problems)")
    #expect(problems.last?.hasPrefix(
      "knowledge \(R.uuidString) mirrors memory \(M.uuidString), but that memory does not link back to it (knowledgeID \(D.uuidString))") == true,
      "\(problems)")
    try store.write { tx in try tx.setMemoryKnowledgeID(M, R) }
    #expect(try store.read { try $0.referenceProblems() } == [])
  }

  @Test("a message of a missing conversation and a receipt whose arguments are not JSON are reported")
  func activityProblems() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertMessage(ChatMessage(id: sequentialID(50), conversationID: sequentialID(51), role: .user, text: "hi", createdAt: t0))
      try tx.insertReceipt(
        ActivityReceipt(
          id: sequentialID(52), callID: "c", tool: "knowledge_search", risk: "readOnly", arguments: "not json {",
          outcome: .succeeded, startedAt: t0, finishedAt: t0))
    }
    let problems = try store.read { try $0.referenceProblems() }
    #expect(problems.count == 2)
    #expect(problems.first?.hasPrefix(
      "message \(sequentialID(50).uuidString) belongs to missing conversation \(sequentialID(51).uuidString); to keep it") == true,
      "\(problems)")
    #expect(problems.last?.hasPrefix(
      "receipt \(sequentialID(52).uuidString) has arguments that are not JSON text ('not json {')") == true, "\(problems)")
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
