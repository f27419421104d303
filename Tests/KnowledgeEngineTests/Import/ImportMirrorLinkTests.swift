import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// A sample workspace with a second memory, and its export decoded back from JSON.
private func exportedWithTwoMemories() throws -> (store: SQLiteWorkspaceStore, engine: KnowledgeEngine, document: WorkspaceExport) {
  let store = SQLiteWorkspaceStore.inMemory()
  let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
  try SampleWorkspace.populate(engine)
  _ = try engine.saveMemory(text: "Standup is at nine", tags: ["team"])
  let json = try engine.exportWorkspace(generator: "dolphin test").jsonData()
  return (store, engine, try WorkspaceExport.decode(json, fileName: "export.json"))
}

/// The id of the `user`-source decision, which mirrors no memory.
private func userDecision(_ ws: AssistantWorkspace) throws -> UUID {
  try #require(ws.knowledge.first { $0.source == .user && $0.kind == .decision && $0.memoryID == nil }).id
}

private func validationError(_ body: () throws -> Void) -> ValidationError? {
  do {
    try body()
  } catch WorkspaceError.validation(let v) {
    return v
  } catch {
    Issue.record("expected a validation error, got \(error)")
    return nil
  }
  Issue.record("expected a validation error, got none")
  return nil
}

@Suite("Import: memory ↔ mirror links")
struct ImportMirrorLinkTests {
  @Test("an export with two memories and their mirrors comes back: export → import → export is identical")
  func roundTripKeepsLinks() throws {
    let (source, _, document) = try exportedWithTwoMemories()
    let target = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: target, environment: fixedEnvironment())
    _ = try engine.applyImport(document, source: "export.json")
    #expect(try target.read { try $0.snapshot() } == (try source.read { try $0.snapshot() }))
    #expect(try target.read { try $0.referenceProblems() } == [])
  }

  @Test("a memory whose knowledgeID names a user decision (the review's repro) is refused, naming file, path and ids")
  func crossedLinkInFileIsRefused() throws {
    var (_, _, document) = try exportedWithTwoMemories()
    let decision = try userDecision(document.workspace)
    let memory = document.workspace.memories[0].id
    document.workspace.memories[0].knowledgeID = decision
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let v = validationError { _ = try engine.applyImport(document, source: "export.json") }
    #expect(v?.field == "workspace.memories[0].knowledgeID")
    let message = v?.message ?? ""
    #expect(message.hasPrefix("export.json: workspace.memories[0].knowledgeID (in record \(memory.uuidString))"), "\(message)")
    #expect(message.contains("knowledge item \(decision.uuidString)"), "\(message)")
    #expect(message.contains("its source is user and it has no memoryID"), "\(message)")
    #expect(message.hasSuffix("Nothing was imported"), "\(message)")
    #expect(try store.read { try $0.holdsNoRecords() })
  }

  @Test("a legacyMemory mirror whose memory does not link back is refused")
  func oneSidedMirrorIsRefused() throws {
    var (_, _, document) = try exportedWithTwoMemories()
    let ws = document.workspace
    // Memory 0 loses its link; its mirror still names it.
    let memory = ws.memories[0]
    let mirrorIndex = try #require(ws.knowledge.firstIndex { $0.id == memory.knowledgeID })
    document.workspace.memories[0].knowledgeID = nil
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let v = validationError { _ = try engine.applyImport(document, source: "export.json") }
    #expect(v?.field == "workspace.knowledge[\(mirrorIndex)].memoryID")
    #expect(v?.message.contains("memory \(memory.id.uuidString) (in the file) does not link back to this item: its knowledgeID is absent") == true, "\(v?.message ?? "")")
  }

  @Test("two memories that swap mirrors are refused")
  func swappedMirrorsAreRefused() throws {
    var (_, _, document) = try exportedWithTwoMemories()
    let a = document.workspace.memories[0].knowledgeID
    document.workspace.memories[0].knowledgeID = document.workspace.memories[1].knowledgeID
    document.workspace.memories[1].knowledgeID = a
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let v = validationError { _ = try engine.applyImport(document, source: "export.json") }
    #expect(v?.field == "workspace.memories[0].knowledgeID")
    #expect(v?.message.contains("its source is legacyMemory and its memoryID is \(document.workspace.memories[1].id.uuidString)") == true, "\(v?.message ?? "")")
  }

  @Test("a memoryID on an item that is not a legacyMemory mirror is refused")
  func memoryIDOnUserItemIsRefused() throws {
    var (_, _, document) = try exportedWithTwoMemories()
    let i = try #require(document.workspace.knowledge.firstIndex { $0.source == .user })
    document.workspace.knowledge[i].memoryID = document.workspace.memories[0].id
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let v = validationError { _ = try engine.applyImport(document, source: "export.json") }
    #expect(v?.field == "workspace.knowledge[\(i)].memoryID")
    #expect(v?.message.contains("only a knowledge item of source legacyMemory mirrors a memory, and this one's source is user") == true, "\(v?.message ?? "")")
  }

  @Test("a new memory whose knowledgeID names a decision already in the workspace is refused")
  func crossedLinkToStoredItemIsRefused() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let decision = try engine.capture(CaptureRequest(kind: .decision, title: "Keep the CLI thin")).item
    var document = try engine.exportWorkspace(generator: "dolphin test")
    let memory = MemoryItem(id: sequentialID(700), text: "A memory", createdAt: SampleWorkspace.t0, knowledgeID: decision.id)
    document.workspace.memories = [memory]
    let v = validationError { _ = try engine.applyImport(document, source: "export.json") }
    #expect(v?.field == "workspace.memories[0].knowledgeID")
    #expect(v?.message.contains("knowledge item \(decision.id.uuidString) (in this workspace) is not this memory's mirror") == true, "\(v?.message ?? "")")
    #expect(try store.read { try $0.memoryCount() } == 0)
  }

  @Test("replacing a stored mirror with an item that no longer mirrors its memory is refused")
  func replacingStoredMirrorIsRefused() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let saved = try engine.saveMemory(text: "Prefers tabs")
    var document = try engine.exportWorkspace(generator: "dolphin test")
    document.workspace.memories = []
    let i = try #require(document.workspace.knowledge.firstIndex { $0.id == saved.mirror.id })
    document.workspace.knowledge[i].source = .user
    document.workspace.knowledge[i].memoryID = nil
    let v = validationError { _ = try engine.applyImport(document, policy: .replace, source: "export.json") }
    #expect(v?.field == "workspace.knowledge[\(i)]")
    #expect(v?.message.contains("memory \(saved.memory.id.uuidString) in this workspace links to this item as its mirror") == true, "\(v?.message ?? "")")
    #expect(try store.read { try $0.knowledge(id: saved.mirror.id) } == saved.mirror)
  }

  @Test("a fixing import with --on-conflict replace is accepted")
  func fixingImportIsAccepted() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let saved = try engine.saveMemory(text: "Prefers tabs")
    let decision = try engine.capture(CaptureRequest(kind: .decision, title: "Keep the CLI thin")).item
    let good = try engine.exportWorkspace(generator: "dolphin test")
    // A link crossed by an earlier build's import.
    try store.write { tx in try tx.setMemoryKnowledgeID(saved.memory.id, decision.id) }
    #expect(try store.read { try $0.referenceProblems() }.count == 2)
    _ = try engine.applyImport(good, policy: .replace, source: "export.json")
    #expect(try store.read { try $0.memory(id: saved.memory.id) }?.knowledgeID == saved.mirror.id)
    #expect(try store.read { try $0.referenceProblems() } == [])
  }
}
