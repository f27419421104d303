import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 19-c, findings 9 and 13: a merge counted "N new" without naming them, so records
/// deleted since the export came back unnoticed; under `refuse` the plan also promised a digest,
/// and `skip` counted the active-handoff marker as a kept record.
@Suite("Import plan of a merge: new records named, refusal and kept singletons said truthfully")
struct ImportMergePlanTests {
  static func engine() -> KnowledgeEngine {
    KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
  }

  static func export(_ engine: KnowledgeEngine) throws -> WorkspaceExport {
    try WorkspaceExport.decode(try engine.exportWorkspace(generator: "t").jsonData(), fileName: "old.json")
  }

  @Test("a record deleted since the export is named among the new ones, with its collection and title")
  func deletedRecordNamed() throws {
    let engine = Self.engine()
    let kept = try engine.capture(CaptureRequest(kind: .fact, title: "Still here")).item
    let gone = try engine.capture(CaptureRequest(kind: .fact, title: "Staging DB host is db-staging.internal")).item
    let task = try engine.addTask(title: "Rotate keys")
    let memory = try engine.saveMemory(text: "Tom prefers reviews in the afternoon\nsecond line")
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Staging work")).handoff
    let document = try Self.export(engine)
    for request in [DeletionRequest.knowledge(gone.id), .task(task.id), .memory(memory.memory.id), .handoff(handoff.id)] {
      _ = try engine.apply(try engine.planDeletion(of: request))
    }

    let plan = try engine.planImport(document, policy: .skip, source: "old.json")
    #expect(!plan.intoEmptyWorkspace)
    let new = try #require(plan.newRecords)
    #expect(new.count == 5)
    #expect(
      new.records == [
        .init(collection: "knowledge", id: gone.id, title: "Staging DB host is db-staging.internal"),
        .init(collection: "knowledge", id: memory.mirror.id, title: "Tom prefers reviews in the afternoon"),
        .init(collection: "memories", id: memory.memory.id, title: "Tom prefers reviews in the afternoon"),
        .init(collection: "tasks", id: task.id, title: "Rotate keys"),
        .init(collection: "handoffs", id: handoff.id, title: "Staging work"),
      ])
    #expect(!new.records.contains { $0.id == kept.id }, "same records are not new")
    // The same file again changes nothing: nothing is new.
    _ = try engine.applyImport(document, policy: .skip, source: "old.json", expecting: plan)
    #expect(try engine.planImport(document, policy: .skip, source: "old.json").newRecords == nil)
  }

  @Test("into an empty workspace nothing is named (a restore adds everything); the list is bounded, the count is not")
  func emptyAndBounded() throws {
    let source = Self.engine()
    for i in 1...(ImportPlan.newRecordsListed + 3) { _ = try source.addTask(title: "Task \(i)") }
    let document = try Self.export(source)
    // Random ids: a record of its own may not take an id of the file's tasks (one id, two
    // collections, is refused).
    let empty = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: .live)
    #expect(try empty.planImport(document, source: "old.json").newRecords == nil)
    _ = try empty.capture(CaptureRequest(kind: .fact, title: "Already here"))
    let plan = try empty.planImport(document, source: "old.json")
    #expect(plan.newRecords?.count == ImportPlan.newRecordsListed + 3)
    #expect(plan.newRecords?.records.count == ImportPlan.newRecordsListed)
  }

  @Test("under refuse with a conflict no digest is promised; skip and replace still store one")
  func refusePromisesNoDigest() throws {
    let engine = Self.engine()
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "Original")).item
    let other = try engine.capture(CaptureRequest(kind: .fact, title: "Deleted later")).item
    var document = try Self.export(engine)
    _ = try engine.apply(try engine.planDeletion(of: .knowledge(other.id)))
    let index = try #require(document.workspace.knowledge.firstIndex { $0.id == item.id })
    document.workspace.knowledge[index].title = "Edited"

    let refused = try engine.planImport(document, policy: .refuse, source: "old.json")
    #expect(refused.hasConflicts && !refused.storesDigest)
    #expect(
      KnowledgeEngine.conflictError(refused).description.contains(
        "1 record(s) have the same id as a record in this workspace, with different content: knowledge \(item.id.uuidString) (title differs)"))
    #expect(try engine.planImport(document, policy: .skip, source: "old.json").storesDigest)
    #expect(try engine.planImport(document, policy: .replace, source: "old.json").storesDigest)
  }

  @Test("skip counts conflicting records apart from the settings and the active-handoff marker, which it names")
  func skipKeepsSingletons() throws {
    let engine = Self.engine()
    let first = try engine.createHandoff(HandoffRequest(focus: "First")).handoff
    let second = try engine.createHandoff(HandoffRequest(focus: "Second")).handoff
    try engine.store.write { tx in try tx.setActiveHandoffID(first.id) }
    _ = try engine.setKnowledgeItemLimit(20_000)  // stored settings: a file's other ones conflict
    var document = try Self.export(engine)
    document.workspace.activeHandoffID = second.id

    let onlyMarker = try engine.applyImport(document, policy: .skip, source: "old.json")
    #expect(onlyMarker.skipped == 0)
    #expect(onlyMarker.keptActiveHandoff && !onlyMarker.keptSettings)
    #expect(try engine.store.read { try $0.activeHandoffID() } == first.id)

    document.workspace.settings.knowledgeItemLimit = 30_000
    document.workspace.handoffs[0].focus = "Edited focus"
    let all = try engine.applyImport(document, policy: .skip, source: "old.json")
    #expect(all.skipped == 1)
    #expect(all.keptActiveHandoff && all.keptSettings)
    let replaced = try engine.applyImport(document, policy: .replace, source: "old.json")
    #expect(replaced.skipped == 0 && !replaced.keptActiveHandoff && !replaced.keptSettings)
  }
}
