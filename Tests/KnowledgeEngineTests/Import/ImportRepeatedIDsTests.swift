import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 26-a, #4: an import stored a file's repeated ids in a task's `knowledgeIDs` and a
/// handoff's `knowledgeIDs`/`taskIDs` as given (capture and the MCP tools keep each once), and
/// counted the 64-id bound with the repeats; `doctor` did not notice stored repeats.
@Suite("Import: repeated ids in id lists")
struct ImportRepeatedIDsTests {
  @Test("repeats are kept once at their first place, counted in the plan, and the bound counts distinct ids")
  func repeatsKeptOnce() throws {
    let (_, engine, sample) = try ImportNormalizationTests.source()
    var document = try ImportNormalizationTests.export(engine)
    let t = try #require(document.workspace.tasks.firstIndex { $0.id == sample.task.id })
    let h = try #require(document.workspace.handoffs.firstIndex { $0.id == sample.handoff.id })
    document.workspace.tasks[t].knowledgeIDs = [sample.decision.id, sample.fact.id, sample.decision.id]
    // 3 distinct ids, 66 entries: over the bound of 64 only if repeats were counted.
    let three = document.workspace.knowledge.prefix(3).map(\.id)
    #expect(Set(three).count == 3)
    document.workspace.handoffs[h].knowledgeIDs = Array(repeating: three, count: 22).flatMap { $0 }
    document.workspace.handoffs[h].taskIDs = [sample.task.id, sample.task.id]
    #expect(document.workspace.handoffs[h].knowledgeIDs.count == 66)

    let target = SQLiteWorkspaceStore.inMemory()
    let restore = KnowledgeEngine(store: target, environment: fixedEnvironment())
    let plan = try restore.planImport(document, source: "dup.json")
    #expect(plan.intoEmptyWorkspace)
    // 1 in the task, 63 + 1 in the handoff.
    #expect(plan.droppedRepeatedIDs == 65)
    let report = try restore.applyImport(document, source: "dup.json")
    #expect(report.plan.droppedRepeatedIDs == 65)
    #expect(try target.read { try $0.task(id: sample.task.id) }?.knowledgeIDs == [sample.decision.id, sample.fact.id])
    let handoff = try #require(try target.read { try $0.handoff(id: sample.handoff.id) })
    #expect(handoff.knowledgeIDs == three)
    #expect(handoff.taskIDs == [sample.task.id])
    #expect(try target.read { try $0.referenceProblems() } == [])

    // 65 distinct ids are still refused, naming the list.
    var over = document
    over.workspace.handoffs[h].knowledgeIDs = (0..<65).map { _ in UUID() }
    #expect(throws: WorkspaceError.self) { _ = try KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory()).planImport(over, source: "over.json") }
    do {
      _ = try KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory()).planImport(over, source: "over.json")
    } catch WorkspaceError.validation(let e) {
      #expect(e.message.contains("knowledgeIDs has 65 ids; the limit is 64"), "\(e.message)")
    }
  }

  @Test("an export without repeats drops none and is still called a lossless restore")
  func noRepeatsNoCount() throws {
    let (_, engine, _) = try ImportNormalizationTests.source()
    let document = try ImportNormalizationTests.export(engine)
    let plan = try KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
      .planImport(document, source: "clean.json")
    #expect(plan.droppedRepeatedIDs == 0)
  }

  @Test("stored repeats are named by the reference check, and exporting and importing back with replace keeps each once")
  func storedRepeatsReportedAndRepaired() throws {
    let (store, engine, sample) = try ImportNormalizationTests.source()
    // As an earlier build's import stored them.
    var task = try #require(try store.read { try $0.task(id: sample.task.id) })
    task.knowledgeIDs = [sample.decision.id, sample.decision.id]
    var handoff = try #require(try store.read { try $0.handoff(id: sample.handoff.id) })
    handoff.taskIDs = [sample.task.id, sample.task.id, sample.task.id]
    try store.write { tx in
      try tx.updateTask(task)
      try tx.updateHandoff(handoff)
    }
    let problems = try store.read { try $0.referenceProblems() }
    #expect(problems.count == 2, "\(problems)")
    #expect(
      problems.contains {
        $0.hasPrefix("task \(task.id.uuidString) lists knowledge item \(sample.decision.id.uuidString) 2 times in its knowledgeIDs")
      }, "\(problems)")
    #expect(
      problems.contains { $0.hasPrefix("handoff \(handoff.id.uuidString) lists task \(sample.task.id.uuidString) 3 times in its taskIDs") },
      "\(problems)")
    #expect(problems.allSatisfy { $0.contains("import the file back with --on-conflict replace") })

    // The fix the problem names: the file's records, each id once, differ from the stored ones.
    let document = try ImportNormalizationTests.export(engine)
    let plan = try engine.planImport(document, policy: .replace, source: "self.json")
    #expect(Set(plan.conflicts.compactMap(\.id)) == [task.id, handoff.id], "\(plan.conflicts)")
    #expect(plan.droppedRepeatedIDs == 3)
    _ = try engine.applyImport(document, policy: .replace, source: "self.json")
    #expect(try store.read { try $0.task(id: task.id) }?.knowledgeIDs == [sample.decision.id])
    #expect(try store.read { try $0.handoff(id: handoff.id) }?.taskIDs == [sample.task.id])
    #expect(try store.read { try $0.referenceProblems() } == [])
  }
}
