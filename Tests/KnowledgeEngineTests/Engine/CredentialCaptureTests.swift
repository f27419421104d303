import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

@Suite("Credential hygiene at capture")
struct CredentialCaptureTests {
  struct Refusal: CustomStringConvertible, Sendable {
    var name: String
    var store: @Sendable (KnowledgeEngine, Bool) throws -> Void
    var field: String
    var finding: String
    var description: String { name }
  }

  static let refusals: [Refusal] = [
    Refusal(
      name: "capture content", store: { e, allow in
        _ = try e.capture(CaptureRequest(kind: .fact, title: "Deploy", content: "step 1\nexport TOKEN=\(FakeSecrets.gitHub)", allowCredentials: allow))
      }, field: "content", finding: "GitHub token at line 2, column 14"),
    Refusal(
      name: "capture title", store: { e, allow in
        _ = try e.capture(CaptureRequest(kind: .fact, title: "key \(FakeSecrets.aws)", allowCredentials: allow))
      }, field: "title", finding: "AWS access key id at line 1, column 5"),
    Refusal(
      name: "capture tag", store: { e, allow in
        _ = try e.capture(CaptureRequest(kind: .fact, title: "x", tags: ["ok", "password=hunter22"], allowCredentials: allow))
      }, field: "tags[1]", finding: "password or secret assignment at line 1, column 1"),
    Refusal(
      name: "memory save", store: { e, allow in
        _ = try e.saveMemory(text: "server key:\n\(FakeSecrets.rsaKey)", allowCredentials: allow)
      }, field: "text", finding: "private key block at line 2, column 1"),
    Refusal(
      name: "task notes", store: { e, allow in
        _ = try e.addTask(title: "Rotate", notes: "old one: \(FakeSecrets.stripe)", allowCredentials: allow)
      }, field: "notes", finding: "Stripe live key at line 1, column 10"),
    Refusal(
      name: "bulk capture names the request", store: { e, allow in
        _ = try e.captureBulk([
          CaptureRequest(kind: .fact, title: "fine"),
          CaptureRequest(kind: .fact, title: "jwt", content: FakeSecrets.jwt, allowCredentials: allow),
        ])
      }, field: "requests[1].content", finding: "JSON Web Token at line 1, column 1"),
  ]

  @Test("new text that looks like a credential is refused, naming field, kind and line:column", arguments: refusals)
  func refused(_ c: Refusal) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let error = #expect(throws: WorkspaceError.self) { try c.store(engine, false) }
    guard case .validation(let v)? = error else { Issue.record("expected validation, got \(String(describing: error))"); return }
    #expect(v.field == c.field)
    #expect(v.message.hasPrefix("\(c.field) looks like it holds a credential (\(c.finding))"), "\(v.message)")
    #expect(try store.read { try $0.counts() }.values.allSatisfy { $0 == 0 }, "nothing was written")
  }

  @Test("the explicit override stores it, and status then flags it", arguments: refusals)
  func overridden(_ c: Refusal) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    try c.store(engine, true)
    #expect(try engine.status().credentials.count >= 1)
  }

  @Test("a capture request refuses credentials unless told otherwise")
  func defaultIsRefuse() {
    #expect(CaptureRequest(kind: .fact, title: "x").allowCredentials == false)
  }

  @Test("migration keeps a credential-looking legacy memory; status and its flags name it")
  func migrationKeepsAndFlags() throws {
    let dir = TemporaryDirectory("mig-cred")
    defer { dir.remove() }
    let file = dir.appending("workspace.json")
    let legacy = """
      {"conversations": [], "settings": {},
       "memories": [
         {"id": "9137C815-2F1D-4CBC-8BCB-6B7190F5DA42", "text": "Harbor targets iOS 17", "createdAt": "2025-01-20T12:00:30Z"},
         {"id": "0D6C1C1E-8E4B-4B7B-9C57-2A8D2C6B1F10", "text": "staging db password: Tr0ub4dor-33", "createdAt": "2025-01-20T12:01:00Z"}
       ]}
      """
    try Data(legacy.utf8).write(to: file)
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let report = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("backups"))
    #expect(report.imported["memories"] == 2)
    let kept = try engine.memory(id: try #require(UUID(uuidString: "0D6C1C1E-8E4B-4B7B-9C57-2A8D2C6B1F10")))
    #expect(kept.text == "staging db password: Tr0ub4dor-33")
    let status = try engine.status()
    #expect(status.credentials.count == 1)
    #expect(status.credentials.flags == [
      CredentialFlag(
        recordType: "memory", id: kept.id, field: "text",
        finding: CredentialFinding(kind: .secretAssignment, line: 1, column: 12)),
    ])
  }
}
