import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 20-a (data rights): import and migrate agree on what a workspace may hold, every
/// millisecond date round-trips, and a memory never parts from its mirror's text.
@Suite("Import and migrate, review 20-a")
struct ImportReview20aTests {
  static func sample() throws -> (SQLiteWorkspaceStore, KnowledgeEngine, WorkspaceExport) {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    try SampleWorkspace.populate(engine)
    _ = try engine.saveMemory(text: "Prefers tabs over spaces", tags: ["style"])
    let json = try engine.exportWorkspace(generator: "dolphin test").jsonData()
    return (store, engine, try WorkspaceExport.decode(json, fileName: "export.json"))
  }

  static func validation(_ body: () throws -> Void) -> ValidationError? {
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

  static func emptyEngine() -> (SQLiteWorkspaceStore, KnowledgeEngine) {
    let store = SQLiteWorkspaceStore.inMemory()
    return (store, KnowledgeEngine(store: store, environment: fixedEnvironment()))
  }

  // MARK: #6

  @Test("pre-1970 dates (the review's) survive export → import → export byte for byte, and a second import is a no-op")
  func preEpochDatesRoundTrip() throws {
    var (_, _, document) = try Self.sample()
    let dates = ["1969-12-31T23:59:59.999Z", "1965-10-19T09:42:33.379Z", "1929-03-27T04:55:42.358Z", "1969-06-01T10:00:00.001Z"]
    for (i, text) in dates.enumerated() {
      let date = try #require(ISO8601.date(from: text))
      document.workspace.knowledge[i].createdAt = date
      document.workspace.knowledge[i].updatedAt = date
    }
    document.workspace.memories[0].createdAt = try #require(ISO8601.date(from: "1965-10-19T09:42:33.379Z"))
    let json = try document.jsonData()
    let decoded = try WorkspaceExport.decode(json, fileName: "pre1970.json")
    let (_, engine) = Self.emptyEngine()
    _ = try engine.applyImport(decoded, source: "pre1970.json")
    let again = try engine.exportWorkspace(generator: "dolphin test")
    for (i, text) in dates.enumerated() {
      #expect(ISO8601.string(from: again.workspace.knowledge.first { $0.id == document.workspace.knowledge[i].id }?.createdAt ?? Date()) == text)
    }
    #expect(again.workspace.knowledge == decoded.workspace.knowledge)
    #expect(again.workspace.memories == decoded.workspace.memories)
    // The same file again conflicts with nothing.
    let plan = try engine.planImport(decoded, source: "pre1970.json")
    #expect(plan.conflicts.isEmpty, "\(plan.conflicts)")
  }

  // MARK: #4

  @Test("a memory whose text differs from its mirror's is refused, naming both, under replace and into an empty workspace")
  func memoryMirrorTextDisagreementRefused() throws {
    var (_, engine, document) = try Self.sample()
    let memory = try #require(document.workspace.memories.first { $0.text == "Prefers tabs over spaces" })
    let index = try #require(document.workspace.memories.firstIndex { $0.id == memory.id })
    let mirror = try #require(memory.knowledgeID)
    document.workspace.memories[index].text = "Prefers zebracorn editors"
    let v = Self.validation { _ = try engine.applyImport(document, policy: .replace, source: "mem3.json") }
    #expect(v?.field == "workspace.memories[\(index)]")
    let message = v?.message ?? ""
    #expect(message.contains("memory \(memory.id.uuidString)") && message.contains("knowledge item \(mirror.uuidString)"), "\(message)")
    #expect(message.contains("its mirror, disagree: its content 'Prefers tabs over spaces'"), "\(message)")
    // Nothing changed.
    #expect(try engine.listMemories().contains { $0.text == "Prefers tabs over spaces" })

    let (_, empty) = Self.emptyEngine()
    let w = Self.validation { _ = try empty.applyImport(document, source: "mem3.json") }
    #expect(w?.message.contains("disagree") == true, "\(w?.message ?? "")")
    #expect(try empty.listMemories().isEmpty)

    // Both changed together is a change the import takes.
    let k = try #require(document.workspace.knowledge.firstIndex { $0.id == mirror })
    document.workspace.knowledge[k].content = "Prefers zebracorn editors"
    document.workspace.knowledge[k].title = "Prefers zebracorn editors"
    _ = try engine.applyImport(document, policy: .replace, source: "mem3.json")
    #expect(try engine.search("zebracorn", includeMemories: true).results.contains { $0.id == memory.id })
  }

  @Test("doctor's reference check names a stored memory and mirror whose text differs")
  func doctorReportsDivergentPair() throws {
    let (store, engine, _) = try Self.sample()
    let memory = try #require(try engine.listMemories().first { $0.text == "Prefers tabs over spaces" })
    #expect(try store.read { try $0.referenceProblems() } == [])
    try store.write { tx in
      var m = memory
      m.text = "Prefers zebracorn editors"
      _ = try tx.updateMemory(m)
    }
    let problems = try store.read { try $0.referenceProblems() }
    #expect(problems.count == 1 && problems[0].hasPrefix("memory \(memory.id.uuidString) and its mirror knowledge"), "\(problems)")
    #expect(problems.first?.contains("disagree on their text") == true)
  }

  // MARK: #7

  @Test("a knowledge item, memory, task or conversation dated more than a day ahead is refused; doctor lists a stored one")
  func futureDatedRecordsRefused() throws {
    let (_, _, document) = try Self.sample()
    let future = try #require(ISO8601.date(from: "2099-01-01T00:00:00.000Z"))
    var k = document
    k.workspace.knowledge[0].createdAt = future
    k.workspace.knowledge[0].updatedAt = future
    let (_, engine) = Self.emptyEngine()
    let v = Self.validation { _ = try engine.applyImport(k, source: "fut1.json") }
    #expect(v?.field == "workspace.knowledge[0].createdAt", "\(v?.field ?? "")")
    #expect(v?.message.contains("createdAt is 2099-01-01T00:00:00.000Z, in the future") == true, "\(v?.message ?? "")")
    #expect(v?.message.contains("every handoff") == true)
    #expect(try engine.listKnowledge().isEmpty)
    var t = document
    t.workspace.tasks[0].createdAt = future
    #expect(Self.validation { _ = try engine.applyImport(t, source: "t.json") }?.field == "workspace.tasks[0].createdAt")
    var m = document
    m.workspace.memories[0].createdAt = future
    #expect(Self.validation { _ = try engine.applyImport(m, source: "m.json") }?.field == "workspace.memories[0].createdAt")
    // Within the day of tolerance: imported.
    var soon = document
    soon.workspace.knowledge[0].updatedAt = Date(timeIntervalSince1970: 1_790_000_000 + 3_600)
    _ = try engine.applyImport(soon, source: "soon.json")

    // A stored one is listed by doctor's check with a statement that dates it now.
    let refusals = KnowledgeEngine.importRefusals(of: k, now: Date(timeIntervalSince1970: 1_790_000_000))
    #expect(refusals.count == 1 && refusals.first?.rule == .futureDate, "\(refusals)")
    #expect(refusals.first?.fixStatement?.hasPrefix("UPDATE knowledge SET created_at = min(created_at, strftime(") == true)
  }

  // MARK: #8

  @Test("one id in two collections is refused, naming both: within the file, and against the workspace")
  func sharedIDAcrossCollectionsRefused() throws {
    let (_, source, document) = try Self.sample()
    var file = document
    let shared = file.workspace.knowledge[0].id
    file.workspace.tasks[0].id = shared
    file.workspace.digests = []
    let (_, engine) = Self.emptyEngine()
    let v = Self.validation { _ = try engine.applyImport(file, source: "xid.json") }
    #expect(v?.field == "workspace.tasks[0].id")
    #expect(
      v?.message.contains("workspace.tasks[0]: id \(shared.uuidString) is also the id of workspace.knowledge[0]") == true,
      "\(v?.message ?? "")")
    #expect(try engine.listKnowledge().isEmpty)

    // Against the workspace: a new task taking a stored knowledge item's id.
    var other = WorkspaceExport(exportedAt: Date(), generator: "t", workspace: AssistantWorkspace(), quarantine: [])
    var task = document.workspace.tasks[0]
    task.id = shared
    task.knowledgeIDs = []
    other.workspace.tasks = [task]
    other.workspace.settings = document.workspace.settings
    let w = Self.validation { _ = try source.applyImport(other, policy: .skip, source: "xid2.json") }
    #expect(w?.message.contains("id \(shared.uuidString) is the id of a record of knowledge in this workspace") == true, "\(w?.message ?? "")")
  }

  // MARK: #3

  @Test("migrate quarantines receipt arguments nested deeper than import takes, and a message dated ahead; the export restores")
  func migrateAppliesImportRules() throws {
    let dir = TemporaryDirectory("mig20a")
    defer { dir.remove() }
    let original = try String(contentsOf: fixture("workspace-v4.json"), encoding: .utf8)
    var json = try #require(try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [String: Any])
    var receipts = try #require(json["receipts"] as? [[String: Any]])
    let receiptID = try #require(receipts[0]["id"] as? String)
    let deep = try JSONSerialization.jsonObject(with: Data((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8))
    receipts[0]["arguments"] = ["x": deep]
    json["receipts"] = receipts
    var conversations = try #require(json["conversations"] as? [[String: Any]])
    var messages = try #require(conversations[0]["messages"] as? [[String: Any]])
    let messageID = try #require(messages[0]["id"] as? String)
    messages[0]["createdAt"] = "2099-01-01T00:00:00Z"
    conversations[0]["messages"] = messages
    json["conversations"] = conversations
    let file = dir.appending("deep-v4.json")
    try JSONSerialization.data(withJSONObject: json).write(to: file)

    let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let report = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("ws/legacy-backups"))
    let receiptQ = try #require(report.quarantined.first { $0.collection == "receipts" })
    #expect(receiptQ.index == 0 && receiptQ.reason.contains("nested deeper than 64 levels"), "\(receiptQ.reason)")
    #expect(receiptQ.rawJSON.contains(receiptID))
    let messageQ = try #require(report.quarantined.first { $0.collection == "conversations[0].messages" })
    #expect(messageQ.index == 0 && messageQ.reason.contains("in the future"), "\(messageQ.reason)")
    #expect(messageQ.rawJSON.contains(messageID) && messageQ.rawJSON.contains("2099-01-01T00:00:00Z"))
    #expect(report.integrityProblems.contains { $0.hasPrefix("receipts[0] (id \(receiptID)") }, "\(report.integrityProblems)")
    let receipts2 = try store.read { try $0.listReceipts() }
    #expect(!receipts2.contains { $0.id.uuidString == receiptID.uppercased() })

    // The migrated workspace's export restores into an empty workspace.
    let export = try engine.exportWorkspace(generator: "dolphin test")
    #expect(KnowledgeEngine.importRefusals(of: export).isEmpty)
    let (_, empty) = Self.emptyEngine()
    _ = try empty.applyImport(try WorkspaceExport.decode(try export.jsonData(), fileName: "lc.json"), source: "lc.json")
  }
}
