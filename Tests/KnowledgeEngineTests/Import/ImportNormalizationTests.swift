import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// What an import does with values capture never stores but an earlier build or a legacy file
/// could have: it normalizes them as capture would (so that an export of any workspace dolphin
/// made stays importable, and importing it again changes nothing), and refuses only what no
/// dolphin stored — naming the record, the field and the value — without changing the workspace.
@Suite("Import normalization and refusals")
struct ImportNormalizationTests {
  /// A populated workspace and its export.
  static func source() throws -> (store: SQLiteWorkspaceStore, engine: KnowledgeEngine, sample: SampleWorkspace) {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    return (store, engine, try SampleWorkspace.populate(engine))
  }

  static func export(_ engine: KnowledgeEngine) throws -> WorkspaceExport {
    try WorkspaceExport.decode(try engine.exportWorkspace(generator: "dolphin test").jsonData(), fileName: "export.json")
  }

  static func snapshot(_ store: any WorkspaceStore) throws -> AssistantWorkspace { try store.read { try $0.snapshot() } }

  /// A receipt as an earlier build's executor or a legacy file could leave it.
  static func oddReceipt(arguments: String) -> ActivityReceipt {
    ActivityReceipt(
      id: sequentialID(700), callID: "call-odd", tool: "knowledge_search", risk: "readOnly", arguments: arguments,
      outcome: .failed, startedAt: SampleWorkspace.t0.addingTimeInterval(10), finishedAt: SampleWorkspace.t0.addingTimeInterval(7),
      approval: nil, message: "arguments must be an object")
  }

  struct EmptyStepCase: CustomTestStringConvertible, Sendable {
    var name: String
    var step: String
    var testDescription: String { name }
  }

  // Earlier builds refused these (exit 4), which made the export of a workspace holding one
  // (earlier imports could store one) unimportable; a review (s8/h3) asked for them dropped.
  static let emptySteps = [
    EmptyStepCase(name: "an empty string", step: ""),
    EmptyStepCase(name: "spaces and a tab", step: "  \t"),
    EmptyStepCase(name: "a zero-width space", step: "\u{200B}"),
    EmptyStepCase(name: "a no-break space", step: "\u{A0}"),
    EmptyStepCase(name: "a byte order mark", step: "\u{FEFF}"),
    EmptyStepCase(name: "a BEL", step: "\u{7}"),
    EmptyStepCase(name: "a soft hyphen", step: "\u{AD}"),
    EmptyStepCase(name: "a Hangul filler", step: "\u{3164}"),
    EmptyStepCase(name: "a Braille blank", step: "\u{2800}"),
  ]

  @Test("a handoff's next step with nothing visible is dropped, as capture never stores one; the rest imports", arguments: emptySteps)
  func emptyNextStepDropped(_ c: EmptyStepCase) throws {
    let (store, engine, sample) = try Self.source()
    var document = try Self.export(engine)
    // The file also brings a new item and a new handoff holding the step.
    var extra = document.workspace.knowledge[0]
    extra.id = sequentialID(801)
    extra.title = "Only in the file"
    extra.relationships = []
    document.workspace.knowledge.append(extra)
    let stored = document.workspace.handoffs[0]
    document.workspace.handoffs[0].nextSteps.insert(c.step, at: 1)
    var fresh = stored
    fresh.id = sequentialID(802)
    fresh.nextSteps = [c.step, "Only real steps"]
    document.workspace.handoffs.append(fresh)

    // The stored handoff is the same record once the step is dropped: no conflict.
    let plan = try engine.planImport(document, source: "export.json")
    #expect(!plan.hasConflicts, "\(plan.conflicts)")
    // Counted for the handoff written (the new one), not the one left as stored (review, s8/h5).
    #expect(plan.droppedNextSteps == 1)
    let report = try engine.applyImport(document, source: "export.json")
    #expect(report.plan.droppedNextSteps == 1)
    #expect(try store.read { try $0.handoff(id: sample.handoff.id) } == stored)
    #expect(try store.read { try $0.handoff(id: fresh.id) }?.nextSteps == ["Only real steps"])
    #expect(try store.read { try $0.knowledge(id: extra.id) } != nil)
  }

  @Test("a blank next step an earlier build stored: the export imports into the same workspace with no conflict and into an empty one without the step")
  func storedBlankStepRoundTrips() throws {
    let (store, engine, sample) = try Self.source()
    var old = try #require(try store.read { try $0.handoff(id: sample.handoff.id) })
    old.nextSteps = ["Check receipts", "  ", "\u{AD}"]
    try store.write { tx in try tx.updateHandoff(old) }
    let document = try Self.export(engine)
    #expect(document.workspace.handoffs.first { $0.id == old.id }?.nextSteps == ["Check receipts", "  ", "\u{AD}"])

    let again = try engine.planImport(document, source: "old.json")
    #expect(!again.hasConflicts, "\(again.conflicts)")
    #expect(again.recordsToWrite == 0)
    #expect(again.droppedNextSteps == 0)
    _ = try engine.applyImport(document, source: "old.json")

    let target = SQLiteWorkspaceStore.inMemory()
    let restored = try KnowledgeEngine(store: target, environment: fixedEnvironment()).applyImport(document, source: "old.json")
    #expect(restored.plan.droppedNextSteps == 2)
    #expect(try target.read { try $0.handoff(id: old.id) }?.nextSteps == ["Check receipts"])
  }

  @Test("a handoff with no next steps at all imports, as capture stores one without --next")
  func noNextStepsImports() throws {
    let (_, engine, _) = try Self.source()
    var document = try Self.export(engine)
    document.workspace.handoffs[0].nextSteps = []
    let target = SQLiteWorkspaceStore.inMemory()
    _ = try KnowledgeEngine(store: target, environment: fixedEnvironment()).applyImport(document, source: "export.json")
    #expect(try target.read { try $0.listHandoffs() }.map(\.nextSteps) == [[]])
  }

  @Test("a handoff stored with an empty summary (builds before 583e260 did for --summary \"\") exports, imports with one built by rules, and imports again as the same record")
  func emptySummaryRoundTrip() throws {
    let (store, engine, sample) = try Self.source()
    let bare = Handoff(
      id: sequentialID(710), focus: "Left without a summary", summary: "", nextSteps: ["Pick it up"],
      knowledgeIDs: [sample.decision.id], taskIDs: [sample.task.id], createdAt: SampleWorkspace.t0)
    try store.write { tx in try tx.insertHandoff(bare) }
    var document = try Self.export(engine)
    // A file written by hand with a summary of spaces gets the same treatment.
    let spacesIndex = try #require(document.workspace.handoffs.firstIndex { $0.id == sample.handoff.id })
    var spaced = document.workspace.handoffs[spacesIndex]
    spaced.id = sequentialID(711)
    spaced.summary = "   "
    document.workspace.handoffs.append(spaced)

    let target = SQLiteWorkspaceStore.inMemory()
    let importer = KnowledgeEngine(store: target, environment: fixedEnvironment())
    _ = try importer.applyImport(document, source: "export.json")
    for id in [bare.id, spaced.id] {
      let h = try #require(try target.read { try $0.handoff(id: id) })
      #expect(h.summary.hasPrefix(KnowledgeEngine.generatedSummaryLabel), "\(h.summary)")
      #expect(h.summary.contains(sample.decision.title), "\(h.summary)")
    }
    // Capture builds the same summary from the same records.
    let captured = try importer.createHandoff(
      HandoffRequest(focus: "Same records", knowledgeIDs: [sample.decision.id], taskIDs: [sample.task.id]))
    #expect(try target.read { try $0.handoff(id: bare.id) }?.summary == captured.handoff.summary)

    // Importing the file again, here or into the workspace it came from, changes nothing.
    let targetBefore = try Self.snapshot(target)
    let again = try importer.planImport(document, source: "export.json")
    #expect(!again.hasConflicts, "\(again.conflicts)")
    #expect(again.collections.first { $0.name == "handoffs" }.map { $0.same } == 3)
    let report = try importer.applyImport(document, source: "export.json")
    #expect(report.written.isEmpty)
    #expect(try Self.snapshot(target) == targetBefore)
    let home = try engine.planImport(document, source: "export.json")
    #expect(!home.hasConflicts, "\(home.conflicts)")
    #expect(home.collections.first { $0.name == "handoffs" }.map { "\($0.new)/\($0.same)" } == "1/2")
  }

  @Test("a receipt whose arguments are JSON but not an object, or that finished before it started, imports normalized and again as the same record")
  func oddReceiptRoundTrip() throws {
    let (store, engine, _) = try Self.source()
    let odd = Self.oddReceipt(arguments: "[1,2]")
    let nullArguments = ActivityReceipt(
      id: sequentialID(701), callID: "call-null", tool: "task_list", risk: "readOnly", arguments: "null",
      outcome: .failed, startedAt: SampleWorkspace.t0, finishedAt: SampleWorkspace.t0, message: "unknown field")
    // What an earlier build's executor stored for a library caller's non-object arguments.
    try store.write { tx in
      try tx.insertReceipt(odd)
      try tx.insertReceipt(nullArguments)
    }
    let document = try Self.export(engine)
    #expect(document.workspace.receipts.contains(odd), "the export carries the receipt as stored")

    let target = SQLiteWorkspaceStore.inMemory()
    let importer = KnowledgeEngine(store: target, environment: fixedEnvironment())
    _ = try importer.applyImport(document, source: "export.json")
    let stored = try #require(try target.read { try $0.receipt(id: odd.id) })
    #expect(stored.arguments == #"{"notAnObject":true,"value":[1,2]}"#)
    #expect(stored.finishedAt == odd.startedAt)
    #expect(stored.startedAt == odd.startedAt)
    #expect(try target.read { try $0.receipt(id: nullArguments.id) }?.arguments == "{}")
    // Everything else about it is kept.
    var expected = odd
    expected.arguments = stored.arguments
    expected.finishedAt = odd.startedAt
    #expect(stored == expected)

    for (name, workspace, importing) in [("target", target as SQLiteWorkspaceStore, importer), ("source", store, engine)] {
      let before = try Self.snapshot(workspace)
      let plan = try importing.planImport(document, source: "export.json")
      #expect(!plan.hasConflicts, "\(name): \(plan.conflicts)")
      #expect(plan.recordsToWrite == 0, "\(name)")
      #expect(try importing.applyImport(document, source: "export.json").written.isEmpty, "\(name)")
      #expect(try Self.snapshot(workspace) == before, "\(name)")
    }
  }

  @Test("receipt arguments that are not JSON at all are still refused, and nothing changes")
  func nonJSONArgumentsStillRefused() throws {
    let (store, engine, _) = try Self.source()
    var document = try Self.export(engine)
    document.workspace.receipts.append(Self.oddReceipt(arguments: "query=restore"))
    let before = try Self.snapshot(store)
    let error = #expect(throws: WorkspaceError.self) { try engine.applyImport(document, source: "export.json") }
    guard case .validation(let v)? = error else { Issue.record("expected a validation error, got \(String(describing: error))"); return }
    #expect(v.field == "workspace.receipts[1].arguments")
    #expect(try Self.snapshot(store) == before)
  }

  @Test("a legacy v3 receipt that finished before it started migrates as it is, and its export imports with finishedAt = startedAt")
  func legacyReversedReceiptRoundTrip() throws {
    let dir = TemporaryDirectory("legacy-receipt")
    defer { dir.remove() }
    let fixture = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy/workspace-v3.json")
    var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [String: Any])
    var receipts = try #require(json["receipts"] as? [[String: Any]])
    receipts[0]["startedAt"] = "2025-03-02T14:00:05Z"
    receipts[0]["finishedAt"] = "2025-03-02T14:00:00Z"
    json["receipts"] = receipts
    let file = dir.appending("workspace.json")
    try JSONSerialization.data(withJSONObject: json).write(to: file)
    let idText = try #require(receipts[0]["id"] as? String)
    let receiptID = try #require(UUID(uuidString: idText))

    let migrated = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let engine = KnowledgeEngine(store: migrated, environment: fixedEnvironment())
    _ = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("ws/legacy-backups"))
    let legacy = try #require(try migrated.read { try $0.receipt(id: receiptID) })
    #expect(legacy.finishedAt < legacy.startedAt, "the legacy migration keeps the receipt as the file has it")

    let document = try Self.export(engine)
    let target = SQLiteWorkspaceStore.inMemory()
    let importer = KnowledgeEngine(store: target, environment: fixedEnvironment())
    _ = try importer.applyImport(document, source: "export.json")
    let imported = try #require(try target.read { try $0.receipt(id: receiptID) })
    #expect(imported.finishedAt == legacy.startedAt)
    #expect(imported.startedAt == legacy.startedAt)
    #expect(try target.read { try $0.listReceipts() }.count == receipts.count)
    // And back into the migrated workspace: the same records, nothing written.
    let plan = try engine.planImport(document, source: "export.json")
    #expect(!plan.hasConflicts, "\(plan.conflicts)")
    #expect(plan.recordsToWrite == 0)
  }
}
