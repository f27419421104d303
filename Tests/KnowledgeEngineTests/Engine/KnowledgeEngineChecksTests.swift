import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review (s17, F8): an MCP client asked the user to approve writes the engine then refused —
/// credential-looking text, ids no record has. The checks that run before asking must refuse
/// exactly what the write refuses, with the same error, and write nothing.
@Suite("Write checks: what a write would refuse, without writing")
struct KnowledgeEngineChecksTests {
  static let unknown = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!

  /// A write, its check, and whether the engine refuses it.
  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var check: @Sendable (KnowledgeEngine) throws -> Void
    var write: @Sendable (KnowledgeEngine) throws -> Void
    /// The refusal's message, or nil when both succeed.
    var refusal: String?
  }

  static let cases: [Case] = [
    Case(
      testDescription: "capture with a GitHub token in the title",
      check: { try $0.checkCapture(CaptureRequest(kind: .fact, title: "tok \(FakeSecrets.gitHub)")) },
      write: { _ = try $0.capture(CaptureRequest(kind: .fact, title: "tok \(FakeSecrets.gitHub)")) },
      refusal: "title looks like it holds a credential (GitHub token at line 1, column 5); it was not stored. Remove the secret"),
    Case(
      testDescription: "capture with a credential-looking tag",
      check: { try $0.checkCapture(CaptureRequest(kind: .fact, title: "t", tags: ["ok", "password=hunter22"])) },
      write: { _ = try $0.capture(CaptureRequest(kind: .fact, title: "t", tags: ["ok", "password=hunter22"])) },
      refusal: "tags[1] looks like it holds a credential (password or secret assignment at line 1, column 1); it was not stored. Remove the secret"),
    Case(
      testDescription: "capture relating to an unknown item",
      check: { try $0.checkCapture(CaptureRequest(kind: .fact, title: "t", relationships: [.init(kind: .supports, targetID: unknown)])) },
      write: { _ = try $0.capture(CaptureRequest(kind: .fact, title: "t", relationships: [.init(kind: .supports, targetID: unknown)])) },
      refusal: "relationships[0]: no knowledge item has the id \(unknown.uuidString)"),
    Case(
      testDescription: "capture that passes",
      check: { try $0.checkCapture(CaptureRequest(kind: .fact, title: "Use SQLite")) },
      write: { _ = try $0.capture(CaptureRequest(kind: .fact, title: "Use SQLite")) }),
    Case(
      testDescription: "memory with an AWS secret access key",
      check: { try $0.checkSaveMemory(text: "aws_secret_access_key = \(FakeSecrets.awsSecret)") },
      write: { _ = try $0.saveMemory(text: "aws_secret_access_key = \(FakeSecrets.awsSecret)") },
      refusal: "text looks like it holds a credential (AWS secret access key at line 1, column 1); it was not stored. Remove the secret"),
    Case(
      testDescription: "task with credential-looking notes",
      check: { try $0.checkAddTask(title: "Deploy", notes: "then\n  postgres://admin:S3cr3tP4ss@db/prod") },
      write: { _ = try $0.addTask(title: "Deploy", notes: "then\n  postgres://admin:S3cr3tP4ss@db/prod") },
      refusal: "notes looks like it holds a credential (password in a URL at line 2, column 3); it was not stored. Remove the secret"),
    Case(
      testDescription: "task citing an unknown item (after a duplicate)",
      check: { try $0.checkAddTask(title: "Deploy", knowledgeIDs: [unknown, unknown]) },
      write: { _ = try $0.addTask(title: "Deploy", knowledgeIDs: [unknown, unknown]) },
      refusal: "knowledgeIDs[0]: no knowledge item has the id \(unknown.uuidString)"),
    Case(
      testDescription: "handoff with a credential in a next step",
      check: { try $0.checkCreateHandoff(HandoffRequest(focus: "f", nextSteps: ["a", "export GITHUB_TOKEN=FAKEfake0123"])) },
      write: { _ = try $0.createHandoff(HandoffRequest(focus: "f", nextSteps: ["a", "export GITHUB_TOKEN=FAKEfake0123"])) },
      refusal: "nextSteps[1] looks like it holds a credential (password or secret assignment at line 1, column 8); it was not stored. Remove the secret"),
    Case(
      testDescription: "handoff carrying an unknown task",
      check: { try $0.checkCreateHandoff(HandoffRequest(focus: "f", taskIDs: [unknown])) },
      write: { _ = try $0.createHandoff(HandoffRequest(focus: "f", taskIDs: [unknown])) },
      refusal: "taskIDs[0]: no task has the id \(unknown.uuidString)"),
    Case(
      testDescription: "completing an unknown task",
      check: { try $0.checkTaskStatusChange(id: unknown, to: .completed) },
      write: { _ = try $0.completeTaskReportingOutcome(id: unknown) },
      refusal: "no task has the id \(unknown.uuidString)"),
    Case(
      testDescription: "reopening an unknown task",
      check: { try $0.checkTaskStatusChange(id: unknown, to: .open) },
      write: { _ = try $0.reopenTaskReportingOutcome(id: unknown) },
      refusal: "no task has the id \(unknown.uuidString)"),
    Case(
      testDescription: "restoring an unknown handoff",
      check: { try $0.checkRestoreHandoff(id: unknown) },
      write: { _ = try $0.restoreHandoff(id: unknown) },
      refusal: "no handoff has the id \(unknown.uuidString)"),
  ]

  @Test("a check refuses what its write refuses, with the same error, and writes nothing", arguments: cases)
  func checkMatchesWrite(_ c: Case) throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let empty = try engine.store.read { try $0.counts() }
    let checked = Result { try c.check(engine) }
    #expect(try engine.store.read { try $0.counts() } == empty, "a check wrote")
    let written = Result { try c.write(engine) }
    switch (checked, written) {
    case (.success, .success):
      #expect(c.refusal == nil)
    case (.failure(let checkError), .failure(let writeError)):
      #expect("\(checkError)" == c.refusal)
      #expect("\(checkError)" == "\(writeError)")
      #expect(try engine.store.read { try $0.counts() } == empty)
    default:
      Issue.record("check \(checked), write \(written)")
    }
  }

  @Test("checks only read: on a workspace not created yet they create nothing")
  func checksOnlyRead() throws {
    let dir = TemporaryDirectory("checks-new-ws")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let engine = KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite))
    try engine.checkCapture(CaptureRequest(kind: .fact, title: "Use SQLite"))
    try engine.checkAddTask(title: "Deploy")
    #expect(throws: WorkspaceError.notFound(recordType: "task", id: Self.unknown.uuidString)) {
      try engine.checkTaskStatusChange(id: Self.unknown, to: .completed)
    }
    #expect(!FileManager.default.fileExists(atPath: ws.path), "a check created the workspace")
    // Deactivating with nothing active writes nothing either (review, s17: it created the workspace).
    #expect(try engine.deactivateHandoff() == nil)
    #expect(!FileManager.default.fileExists(atPath: ws.path), "a no-op deactivation created the workspace")
  }

  /// Review (s17, C4): at the knowledge item limit, a capture was approved and then refused.
  @Test("a check refuses a write the workspace has no room for, as the write does")
  func capacity() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "One"))
    _ = try engine.setKnowledgeItemLimit(1)
    let checked = #expect(throws: WorkspaceError.self) { try engine.checkCapture(CaptureRequest(kind: .fact, title: "Two")) }
    let written = #expect(throws: WorkspaceError.self) { try engine.capture(CaptureRequest(kind: .fact, title: "Two")) }
    #expect(checked == written && checked == .capacity(what: .knowledge, limit: 1, held: 1, adding: 1))
    // A memory's mirror needs room too.
    #expect(throws: WorkspaceError.capacity(what: .knowledge, limit: 1, held: 1, adding: 1)) {
      try engine.checkSaveMemory(text: "Prefers tea")
    }
  }
}
