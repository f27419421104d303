import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// A conflict found at millisecond precision names the field that differs: a review (s8/h3)
/// found `differingFields` empty when a date changed within the same second, because fields
/// were compared by their descriptions, which show dates to the second.
@Suite("Import conflict fields")
struct ImportConflictFieldsTests {
  static let start = Date(timeIntervalSince1970: 1_780_000_000.125)

  /// A workspace holding one knowledge item and one receipt, and its export as a file would carry it.
  static func workspace(receiptFinishedAfter seconds: TimeInterval) throws -> (KnowledgeEngine, WorkspaceExport) {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment(start: start))
    try store.write { tx in
      try tx.insertKnowledge(
        KnowledgeItem(id: sequentialID(1), kind: .fact, title: "Dates keep milliseconds", createdAt: start, updatedAt: start))
      try tx.insertReceipt(
        ActivityReceipt(
          id: sequentialID(2), callID: "call-1", tool: "knowledge_search", risk: "readOnly", arguments: "{}",
          outcome: .succeeded, startedAt: start, finishedAt: start.addingTimeInterval(seconds)))
    }
    let json = try engine.exportWorkspace(generator: "dolphin test").jsonData()
    return (engine, try WorkspaceExport.decode(json, fileName: "edited.json"))
  }

  @Test("a receipt's finishedAt changed by milliseconds within the same second is named")
  func receiptMilliseconds() throws {
    let (engine, original) = try Self.workspace(receiptFinishedAfter: 0.801)  // .926
    var document = original
    document.workspace.receipts[0].finishedAt = Self.start.addingTimeInterval(0.865)  // .990
    let plan = try engine.planImport(document, source: "edited.json")
    #expect(plan.conflicts == [.init(collection: "receipts", id: sequentialID(2), differingFields: ["finishedAt"])])
    let error = KnowledgeEngine.conflictError(plan)
    #expect(error.description.contains("(finishedAt differs)"), "\(error)")
  }

  @Test("a knowledge item's updatedAt changed by milliseconds within the same second is named")
  func knowledgeMilliseconds() throws {
    let (engine, original) = try Self.workspace(receiptFinishedAfter: 0.5)
    var document = original
    document.workspace.knowledge[0].updatedAt = Self.start.addingTimeInterval(0.064)
    let plan = try engine.planImport(document, source: "edited.json")
    #expect(plan.conflicts == [.init(collection: "knowledge", id: sequentialID(1), differingFields: ["updatedAt"])])
  }

  @Test("a file's receipt ending before it starts is normalized: a conflict naming finishedAt, or none when stored alike")
  func finishedBeforeStarted() throws {
    // Stored as a call of 0.5 s; the file's copy ends before it starts, which import reads as
    // ending when it starts: a different record, and the field is named.
    let (engine, original) = try Self.workspace(receiptFinishedAfter: 0.5)
    var document = original
    document.workspace.receipts[0].finishedAt = Self.start.addingTimeInterval(-0.2)
    let plan = try engine.planImport(document, source: "edited.json")
    #expect(plan.conflicts == [.init(collection: "receipts", id: sequentialID(2), differingFields: ["finishedAt"])])

    // Stored ending before it starts (an earlier build's record), exported as stored: both
    // sides are read as this build would write them, so it is the same record.
    let (stored, export) = try Self.workspace(receiptFinishedAfter: -0.3)
    let again = try stored.planImport(export, source: "old.json")
    #expect(!again.hasConflicts, "\(again.conflicts)")
    // The file's copy ends before it starts by another amount: still the same once normalized.
    var shifted = export
    shifted.workspace.receipts[0].finishedAt = Self.start.addingTimeInterval(-0.9)
    let same = try stored.planImport(shifted, source: "old.json")
    #expect(!same.hasConflicts, "\(same.conflicts)")
  }
}
