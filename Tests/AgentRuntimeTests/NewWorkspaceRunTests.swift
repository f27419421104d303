import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Runs and tool calls on a workspace that does not exist yet (a store opened with
/// `Creation.atFirstWrite`): what succeeds creates it with its records; what does not succeed
/// records nothing and creates nothing.
@Suite("Runs on a workspace that does not exist yet", .serialized)
struct NewWorkspaceRunTests {
  static let unknownID = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"

  /// A workspace path, absent or a 0-byte `workspace.sqlite` (an interrupted first run).
  struct Place: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var emptyDatabaseFile: Bool

    /// Prepares the place under `dir` and returns the workspace directory.
    func make(in dir: TemporaryDirectory) throws -> URL {
      let ws = dir.appending("ws")
      if emptyDatabaseFile {
        try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: false)
        try Data().write(to: ws.appendingPathComponent(SQLiteWorkspaceStore.fileName))
      }
      return ws
    }

    /// What is on disk: nothing, or the 0-byte file alone.
    func isUntouched(_ ws: URL) throws -> Bool {
      guard emptyDatabaseFile else { return !FileManager.default.fileExists(atPath: ws.path) }
      return try FileManager.default.contentsOfDirectory(atPath: ws.path) == [SQLiteWorkspaceStore.fileName]
        && Data(contentsOf: ws.appendingPathComponent(SQLiteWorkspaceStore.fileName)).isEmpty
    }
  }

  static let places = [
    Place(testDescription: "no directory", emptyDatabaseFile: false),
    Place(testDescription: "a 0-byte workspace.sqlite", emptyDatabaseFile: true),
  ]

  static func engine(_ ws: URL) throws -> KnowledgeEngine {
    KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite), environment: fixedEnvironment())
  }

  static func counts(_ ws: URL) throws -> [String: Int] {
    try SQLiteWorkspaceStore.open(directory: ws, creation: .never).read { try $0.counts() }
  }

  /// A message whose only call does not succeed, and the outcome of that call.
  struct Unsuccessful: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var message: String
    var approver: StaticApprovalPolicy
    var outcome: ReceiptOutcome
  }

  static let unsuccessful = [
    Unsuccessful(
      testDescription: "a read of an unknown id", message: "/get \(unknownID)", approver: .allow, outcome: .failed),
    Unsuccessful(
      testDescription: "a write of an unknown id", message: "/done \(unknownID)", approver: .allow, outcome: .failed),
    Unsuccessful(
      testDescription: "a write the engine refuses", message: "/capture bogus: X | Y", approver: .allow, outcome: .failed),
    Unsuccessful(
      testDescription: "a denied write", message: "/capture decision: X | Y", approver: .deny("no"), outcome: .denied),
  ]

  // Regression (s9/h2): `dolphin ask "/get <unknown id>"` on a mistyped --workspace created a
  // workspace to hold the chat messages and the failed call's receipt.
  @Test(
    "a run none of whose calls succeeds records nothing and creates nothing; its receipts are still in the reply",
    arguments: places, unsuccessful)
  func unsuccessfulRunCreatesNothing(_ place: Place, _ c: Unsuccessful) async throws {
    let dir = TemporaryDirectory("new-ws-run")
    defer { dir.remove() }
    let ws = try place.make(in: dir)
    let session = try AssistantSession(engine: try Self.engine(ws))
    #expect(try place.isUntouched(ws), "opening a session wrote")
    let reply = try await session.ask(c.message, approver: c.approver)
    #expect(!reply.isRecorded)
    #expect(reply.run.receipts.map(\.outcome) == [c.outcome])
    #expect(reply.run.calls.map(\.isReceiptStored) == [false])
    #expect(try place.isUntouched(ws))
  }

  @Test("on an existing workspace the same run is recorded: messages, checkpoints and the receipt", arguments: unsuccessful)
  func unsuccessfulRunIsRecordedWhereTheWorkspaceExists(_ c: Unsuccessful) async throws {
    let dir = TemporaryDirectory("existing-ws-run")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    _ = try SQLiteWorkspaceStore.open(directory: ws, creation: .immediately)
    let reply = try await AssistantSession(engine: try Self.engine(ws)).ask(c.message, approver: c.approver)
    #expect(reply.isRecorded)
    #expect(reply.run.calls.map(\.isReceiptStored) == [true])
    let counts = try Self.counts(ws)
    #expect(counts["conversation"] == 1 && counts["message"] == 2, "\(counts)")
    #expect(counts["receipt"] == 1 && counts["checkpoint"] == 3, "\(counts)")
  }

  /// A message that succeeds, and what its run stores.
  struct Successful: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var message: String
    var receipts: Int
    var checkpoints: Int
    var knowledge: Int
  }

  static let successful = [
    Successful(testDescription: "a write", message: "/capture decision: Adopt SQLite | WAL", receipts: 1, checkpoints: 3, knowledge: 1),
    Successful(testDescription: "a task", message: "/task Buy milk", receipts: 1, checkpoints: 3, knowledge: 0),
  ]

  /// Runs that only read (or run nothing) and succeed.
  static let readsOnly = [
    "Hello!", "hello", "/search storage", "what did we decide about storage?", "/context", "/tasks",
  ]

  // Review 18-b (B7): `ask hello` on a mistyped --workspace created it and stored the chat.
  @Test("a run that only reads (small talk, free text, a search) records nothing and creates nothing", arguments: places, readsOnly)
  func readOnlyRunCreatesNothing(_ place: Place, _ message: String) async throws {
    let dir = TemporaryDirectory("new-ws-read")
    defer { dir.remove() }
    let ws = try place.make(in: dir)
    let reply = try await AssistantSession(engine: try Self.engine(ws)).ask(message, approver: StaticApprovalPolicy.allow)
    #expect(!reply.isRecorded)
    #expect(reply.run.calls.allSatisfy { $0.succeeded })
    #expect(reply.run.calls.allSatisfy { !$0.isReceiptStored })
    #expect(try place.isUntouched(ws))
  }

  @Test("a run whose write succeeds creates the workspace with all of its records", arguments: places, successful)
  func successfulRunCreatesTheWorkspace(_ place: Place, _ c: Successful) async throws {
    let dir = TemporaryDirectory("new-ws-ok")
    defer { dir.remove() }
    let ws = try place.make(in: dir)
    let reply = try await AssistantSession(engine: try Self.engine(ws)).ask(c.message, approver: StaticApprovalPolicy.allow)
    #expect(reply.isRecorded)
    let counts = try Self.counts(ws)
    #expect(counts["conversation"] == 1 && counts["message"] == 2, "\(counts)")
    #expect(counts["receipt"] == c.receipts && counts["checkpoint"] == c.checkpoints, "\(counts)")
    #expect(counts["knowledge"] == c.knowledge, "\(counts)")
    let messages = try SQLiteWorkspaceStore.open(directory: ws, creation: .never).read { try $0.listMessages() }
    #expect(messages.map(\.id) == [reply.userMessage.id, reply.assistantMessage.id])
    #expect(Set(messages.map(\.conversationID)) == [reply.userMessage.conversationID])
  }

  @Test("one session: a failed first run leaves nothing, the next one that succeeds stores its conversation once")
  func failedThenSuccessful() async throws {
    let dir = TemporaryDirectory("new-ws-session")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let session = try AssistantSession(engine: try Self.engine(ws))
    let failed = try await session.ask("/get \(Self.unknownID)", approver: StaticApprovalPolicy.allow)
    #expect(!failed.isRecorded)
    #expect(!FileManager.default.fileExists(atPath: ws.path))
    let read = try await session.ask("/search storage", approver: StaticApprovalPolicy.allow)
    #expect(!read.isRecorded)
    #expect(!FileManager.default.fileExists(atPath: ws.path))
    let ok = try await session.ask("/task Write the plan", approver: StaticApprovalPolicy.allow)
    #expect(ok.isRecorded)
    let again = try await session.ask("/get \(Self.unknownID)", approver: StaticApprovalPolicy.allow)
    #expect(again.isRecorded, "the workspace exists now")
    let counts = try Self.counts(ws)
    #expect(counts["conversation"] == 1 && counts["message"] == 4, "\(counts)")
    #expect(counts["receipt"] == 2, "\(counts)")
  }

  @Test("the executor alone: a call that does not succeed stores no receipt there; one that succeeds creates the workspace")
  func executorReceipts() async throws {
    let dir = TemporaryDirectory("new-ws-executor")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let executor = ToolExecutor(engine: try Self.engine(ws))
    let refused = await executor.execute(
      ToolCall(id: "1", name: "knowledge_capture", arguments: ["kind": "decison", "title": "x"]), approver: StaticApprovalPolicy.allow)
    let failed = await executor.execute(
      ToolCall(id: "2", name: "knowledge_get", arguments: ["id": .string(Self.unknownID)]), approver: StaticApprovalPolicy.allow)
    let denied = await executor.execute(
      ToolCall(id: "3", name: "task_add", arguments: ["title": "x"]), approver: StaticApprovalPolicy.deny("no"))
    #expect([refused, failed, denied].map(\.receipt.outcome) == [.failed, .failed, .denied])
    #expect([refused, failed, denied].allSatisfy { !$0.isReceiptStored })
    #expect(!FileManager.default.fileExists(atPath: ws.path))
    let read = await executor.execute(ToolCall(id: "4", name: "task_list", arguments: [:]), approver: StaticApprovalPolicy.allow)
    #expect(read.succeeded && read.isReceiptStored)
    let failedAfter = await executor.execute(
      ToolCall(id: "5", name: "knowledge_get", arguments: ["id": .string(Self.unknownID)]), approver: StaticApprovalPolicy.allow)
    #expect(failedAfter.isReceiptStored, "the workspace exists now")
    let receipts = try SQLiteWorkspaceStore.open(directory: ws, creation: .never).read { try $0.listReceipts() }
    #expect(receipts.map(\.callID) == ["4", "5"])
  }

  // Review (s17, F13): the MCP server's reads made a mistyped --workspace into a workspace.
  @Test("readsCreateWorkspace false: a read that succeeds there stores no receipt and creates nothing; a write that succeeds creates it")
  func readsDoNotCreate() async throws {
    let dir = TemporaryDirectory("new-ws-reads")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let executor = ToolExecutor(engine: try Self.engine(ws), readsCreateWorkspace: false)
    let read = await executor.execute(ToolCall(id: "1", name: "task_list", arguments: [:]), approver: StaticApprovalPolicy.allow)
    #expect(read.succeeded && !read.isReceiptStored)
    #expect(!FileManager.default.fileExists(atPath: ws.path))
    let write = await executor.execute(ToolCall(id: "2", name: "task_add", arguments: ["title": "x"]), approver: StaticApprovalPolicy.allow)
    #expect(write.succeeded && write.isReceiptStored)
    let readAfter = await executor.execute(ToolCall(id: "3", name: "task_list", arguments: [:]), approver: StaticApprovalPolicy.allow)
    #expect(readAfter.isReceiptStored, "the workspace exists now")
    let receipts = try SQLiteWorkspaceStore.open(directory: ws, creation: .never).read { try $0.listReceipts() }
    #expect(receipts.map(\.callID) == ["2", "3"])
  }
}
