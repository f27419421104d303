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

  /// Review 21-a F1: keys with text before or after the credential word, as `.env` files name
  /// them, were stored, and status then said none were found.
  static let affixedKeys = [
    "REDIS_PASSWORD_PROD=Tr0ub4dor3", "SECRET_KEY_BASE=0123456789abcdef0123456789abcdef",
    "GITHUB_TOKEN_CI=abcdef1234567890abcd", "client_secret_prod = \"abcdef123456\"", "password2 = \"Tr0ub4dor&3\"",
    "db_password_2=Tr0ub4dor3", "token1: abcdef123456", "REDIS_PASSWORD=Tr0ub4dor3",
  ]

  @Test("a key with a prefix, suffix or digit around the credential word is refused at capture", arguments: affixedKeys)
  func affixedKeyRefused(_ content: String) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let error = #expect(throws: WorkspaceError.self) {
      _ = try engine.capture(CaptureRequest(kind: .fact, title: "env", content: "staging:\n\(content)"))
    }
    guard case .validation(let v)? = error else { Issue.record("expected validation, got \(String(describing: error))"); return }
    #expect(v.field == "content")
    #expect(
      v.message.hasPrefix("content looks like it holds a credential (password or secret assignment at line 2, column 1)"),
      "\(v.message)")
    #expect(!v.message.contains("Tr0ub4dor") && !v.message.contains("abcdef"))
    #expect(try store.read { try $0.counts() }.values.allSatisfy { $0 == 0 }, "nothing was written")
  }

  @Test("stored deliberately, every such key is counted by status")
  func affixedKeysCounted() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    var stored: Set<UUID> = []
    for content in Self.affixedKeys {
      stored.insert(try engine.capture(CaptureRequest(kind: .fact, title: "env", content: content, allowCredentials: true)).item.id)
    }
    // A note that only describes credentials is stored without a flag.
    _ = try engine.capture(
      CaptureRequest(
        kind: .fact, title: "auth settings",
        content: "max_tokens = 4096\ntoken_count: 12\npassword_min_length=12\nsecret_name: prod-db\ntoken_type: bearer"))
    let flags = try engine.status().credentials.flags
    // The digest the captures refreshed quotes them too, and is flagged as well.
    #expect(flags.filter { $0.recordType != "knowledge" }.allSatisfy { $0.recordType == "digest" })
    let knowledge = flags.filter { $0.recordType == "knowledge" }
    #expect(Set(knowledge.map(\.id)) == stored)
    #expect(knowledge.allSatisfy { $0.finding.kind == .secretAssignment && $0.field == "content" })
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
