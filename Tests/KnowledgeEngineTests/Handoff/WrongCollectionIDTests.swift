import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 26-a, #7: an id given where the other collection's is expected was refused as
/// "no knowledge item has the id …" without saying whose id it is.
@Suite("An id of the other collection is named as such")
struct WrongCollectionIDTests {
  @Test("a task's id as a handoff's knowledge, a knowledge item's as its task, a task's as a task's knowledge")
  func namedAsTheOtherCollections() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "WAL is on")).item
    let task = try engine.addTask(title: "Benchmark WAL")
    func refusal(_ body: () throws -> Void) -> ValidationError? {
      do { try body() } catch WorkspaceError.validation(let e) { return e } catch { Issue.record("\(error)") }
      return nil
    }
    let asKnowledge = refusal { _ = try engine.createHandoff(HandoffRequest(focus: "f", knowledgeIDs: [task.id])) }
    #expect(asKnowledge?.field == "knowledgeIDs[0]")
    #expect(
      asKnowledge?.message
        == "knowledgeIDs[0]: no knowledge item has the id \(task.id.uuidString) (it is a task's id; give it as taskIDs)")
    #expect(asKnowledge?.missingRecord?.id == task.id.uuidString)
    let asTask = refusal { _ = try engine.createHandoff(HandoffRequest(focus: "f", taskIDs: [item.id])) }
    #expect(
      asTask?.message
        == "taskIDs[0]: no task has the id \(item.id.uuidString) (it is a knowledge item's id; give it as knowledgeIDs)")
    // The check run before an approval says the same.
    let checked = refusal { try engine.checkCreateHandoff(HandoffRequest(focus: "f", knowledgeIDs: [task.id])) }
    #expect(checked?.message == asKnowledge?.message)
    let taskKnowledge = refusal { _ = try engine.addTask(title: "t", knowledgeIDs: [task.id]) }
    #expect(
      taskKnowledge?.message
        == "knowledgeIDs[0]: no knowledge item has the id \(task.id.uuidString) (it is a task's id, not a knowledge item's)")
    let relation = refusal {
      _ = try engine.capture(CaptureRequest(kind: .fact, title: "x", relationships: [.init(kind: .supports, targetID: task.id)]))
    }
    #expect(relation?.message.hasSuffix("(it is a task's id; a relationship joins knowledge items)") == true, "\(relation?.message ?? "")")
    // An id no record has is refused as before, with no hint.
    let unknown = UUID()
    let none = refusal { _ = try engine.createHandoff(HandoffRequest(focus: "f", knowledgeIDs: [unknown])) }
    #expect(none?.message == "knowledgeIDs[0]: no knowledge item has the id \(unknown.uuidString)")
  }
}
