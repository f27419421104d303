import ContinuityKit
import Foundation
import Testing
import TestSupport

@Suite("Credential flags over stored text")
struct CredentialFlagTests {
  @Test("stored records holding credential-looking text are counted and named; clean ones are not")
  func flags() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    try store.write { tx in
      try tx.insertMemory(MemoryItem(id: sequentialID(1), text: "deploy key \(FakeSecrets.gitHub)", createdAt: t0))
      try tx.insertMemory(MemoryItem(id: sequentialID(2), text: "Remember to rotate the password monthly", createdAt: t0))
      try tx.insertKnowledge(KnowledgeItem(id: sequentialID(3), kind: .fact, title: "Clean", content: "nothing here", createdAt: t0))
      try tx.insertKnowledge(KnowledgeItem(id: sequentialID(4), kind: .fact, title: "Env", content: "ok", tags: ["password=hunter22"], createdAt: t0))
      try tx.insertTask(TaskItem(id: sequentialID(5), title: "Rotate", notes: "old: \(FakeSecrets.aws)", createdAt: t0))
      try tx.insertHandoff(Handoff(id: sequentialID(6), focus: "Deploy", nextSteps: ["fine", "use \(FakeSecrets.slack)"], createdAt: t0))
      try tx.insertMessage(ChatMessage(id: sequentialID(7), conversationID: sequentialID(8), role: .user, text: FakeSecrets.jwt, createdAt: t0))
    }
    let report = try store.read { try $0.credentialFlags() }
    #expect(report.count == 5)
    #expect(report.complete)
    #expect(report.flags.map { "\($0.recordType) \($0.id.uuidString.suffix(1)) \($0.field) \($0.finding.kind.rawValue)" } == [
      "knowledge 4 tags[0] secretAssignment",
      "memory 1 text gitHubToken",
      "task 5 notes awsAccessKeyID",
      "handoff 6 nextSteps[1] slackToken",
      "message 7 text jsonWebToken",
    ])
    let limited = try store.read { try $0.credentialFlags(limit: 2, bytesPerTable: 10) }
    #expect(limited.flags.count == 2)
    #expect(!limited.complete)
  }

  // A review found one handoff id edited outside dolphin stopping the scan, and with it
  // `status` and every check `doctor` runs after it.
  @Test("a record whose id is not a UUID is named by malformedIDs and skipped by the scan, which goes on")
  func malformedIDSkipped() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    try store.write { tx in
      try tx.insertHandoff(Handoff(id: sequentialID(1), focus: "Deploy", nextSteps: ["use \(FakeSecrets.slack)"], createdAt: t0))
      try tx.insertHandoff(Handoff(id: sequentialID(2), focus: "Ship the beta", summary: "Almost there.", createdAt: t0))
      try tx.insertHandoff(Handoff(id: sequentialID(3), focus: "Rotate", summary: "old: \(FakeSecrets.aws)", createdAt: t0))
      try tx.insertMessage(ChatMessage(id: sequentialID(4), conversationID: sequentialID(5), role: .user, text: FakeSecrets.jwt, createdAt: t0))
      _ = try tx.db.run(
        "UPDATE handoff SET id = ? WHERE id = ?", [.text("HF-7'; DROP\nDoctor: healthy."), .text(sequentialID(2).uuidString)])
    }
    let malformed = try store.read { try $0.malformedIDs() }
    #expect(malformed == [WorkspaceTransaction.MalformedID(table: "handoff", rowID: 2, id: "HF-7'; DROP\nDoctor: healthy.")])
    #expect(malformed.first?.description == #"handoff at row 2: id "HF-7'; DROP\nDoctor: healthy." is not a UUID"#)
    let report = try store.read { try $0.credentialFlags() }
    #expect(report.flags.map { "\($0.recordType) \($0.id.uuidString.suffix(1))" } == ["handoff 3", "handoff 1", "message 4"])
    #expect(report.complete)
    // Reading the record itself still refuses it, naming the id on one line.
    #expect(throws: WorkspaceError.self) { try store.read { try $0.listHandoffs() } }
    do {
      _ = try store.read { try $0.listHandoffs() }
    } catch {
      #expect("\(error)".contains(#"handoff holds a malformed id "HF-7'; DROP\nDoctor: healthy.""#), "\(error)")
    }
  }

  /// Review 24-a, findings 1 and 2: receipts' arguments and digests' sections were read as
  /// JSON text, where a quoted value reads `api_key = \"…\"` and no value follows; a receipt's
  /// message was not read at all.
  @Test("receipts' arguments and digests' sections are read decoded, receipts' messages too")
  func jsonFieldsDecoded() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    func receipt(_ n: Int, arguments: String, message: String = "ok") -> ActivityReceipt {
      ActivityReceipt(
        id: sequentialID(n), callID: "c\(n)", tool: "knowledge_capture", risk: "localWrite", arguments: arguments,
        outcome: .failed, startedAt: t0, finishedAt: t0, message: message)
    }
    try store.write { tx in
      try tx.insertReceipt(receipt(1, arguments: #"{"content":"PASSWORD=\"Tr0ub4dor&3\"","kind":"fact"}"#))
      try tx.insertReceipt(receipt(2, arguments: #"{"notes":"{\"api_key\": \"sk9f8e7d6c5b4a3\"}"}"#))
      try tx.insertReceipt(receipt(3, arguments: #"{"query":"x","\#(FakeSecrets.gitHub)":1}"#))
      try tx.insertReceipt(
        receipt(4, arguments: #"{"kinds":["[withheld]"]}"#, message: "arguments.kinds[0] '\(FakeSecrets.gitHub)' is not one of: fact"))
      try tx.insertReceipt(receipt(5, arguments: #"{"title":"Use \"strict\" mode"}"#, message: "ok"))
      let line = DigestLine(text: #"Deploy notes: api_key = "sk9f8e7d6c5b4a3zz""#, evidenceIDs: [sequentialID(9)])
      _ = try tx.insertDigest(
        Digest(
          id: sequentialID(6), createdAt: t0, trigger: .manual, sections: DigestSections(recentContext: [line]),
          algorithm: "rule-based-digest", algorithmVersion: "8"))
    }
    let report = try store.read { try $0.credentialFlags() }
    #expect(
      report.flags.map { "\($0.recordType) \($0.id.uuidString.suffix(1)) \($0.field) \($0.finding.kind.rawValue)" } == [
        "receipt 4 message gitHubToken",
        "receipt 3 arguments gitHubToken",
        "receipt 2 arguments secretAssignment",
        "receipt 1 arguments secretAssignment",
        "digest 6 sections secretAssignment",
      ], "\(report.flags)")
    #expect(report.count == 5)
  }
}
