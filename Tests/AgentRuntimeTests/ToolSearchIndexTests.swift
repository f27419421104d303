import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Synchronization
import Testing
import TestSupport

/// Tools that rank get a usable search index first — a read-only tool cannot rebuild one
/// itself — and tools that do not rank never touch it.
@Suite("Tool calls and an outdated search index")
struct ToolSearchIndexTests {
  /// What an engine's search-index observer was told.
  final class Seen: Sendable {
    let list = Mutex<[SearchIndexPreparation]>([])
    func withLock<T>(_ body: (inout [SearchIndexPreparation]) -> T) -> T { list.withLock { body(&$0) } }
  }

  /// An engine over a workspace whose index says tokenizer version 1, and what its observer saw.
  static func outdated() throws -> (KnowledgeEngine, Seen, UUID) {
    let seen = Seen()
    let engine = KnowledgeEngine(
      store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment(),
      searchIndexObserver: { p in seen.withLock { $0.append(p) } })
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "Øresund bridge notes")).item
    try engine.store.write { tx in try tx.setMeta("lexicalTokenizerVersion", "1") }
    return (engine, seen, item.id)
  }

  @Test("tools that do not rank leave it alone, even a write; knowledge_search rebuilds it once and reports it")
  func onlyRankingToolsRebuild() async throws {
    let (engine, seen, id) = try Self.outdated()
    let executor = ToolExecutor(engine: engine)
    let allow = RecordingApprover(.approved(by: "user"))
    for call in [
      ToolCall(id: "g", name: "knowledge_get", arguments: ["id": .string(id.uuidString)]),
      ToolCall(id: "c", name: "project_context", arguments: [:]),
      ToolCall(id: "h", name: "handoff_create", arguments: ["focus": "oresund crossing"]),
    ] {
      let r = await executor.execute(call, approver: allow)
      #expect(r.succeeded, "\(call.name): \(r.failureMessage ?? "")")
      #expect(try engine.searchIndexTokenizerStatus() == .stale(.version(1)), "\(call.name)")
    }
    #expect(seen.withLock { $0 }.isEmpty)

    let search = ToolCall(id: "s", name: "knowledge_search", arguments: ["query": "oresund"])
    let first = await executor.execute(search, approver: allow)
    #expect(first.output?.structured["total"] == 1)
    #expect(try engine.searchIndexTokenizerStatus() == .current)
    #expect(seen.withLock { $0 } == [.rebuilt(from: .version(1), documents: 1)])
    _ = await executor.execute(search, approver: allow)
    #expect(seen.withLock { $0 }.count == 1, "current now: nothing more to report")
  }

  @Test("a refused search or auto-selecting handoff leaves it alone: nothing ranked, nothing rebuilt")
  func refusedCallsDoNotRebuild() async throws {
    let (engine, seen, _) = try Self.outdated()
    let executor = ToolExecutor(engine: engine)
    let allow = RecordingApprover(.approved(by: "user"))
    for call in [
      ToolCall(id: "1", name: "knowledge_search", arguments: ["query": "\u{2800}"]),
      ToolCall(id: "2", name: "knowledge_search", arguments: ["query": "\u{00AD}"]),
      ToolCall(id: "3", name: "memory_search", arguments: ["query": "\u{200B}"]),
      ToolCall(id: "4", name: "handoff_create", arguments: ["focus": "\u{2800}", "autoSelect": true]),
      // Refused by the engine after the schema passed it: a credential, an unknown id.
      ToolCall(id: "5", name: "handoff_create", arguments: ["focus": "password=hunter22222", "autoSelect": true]),
      ToolCall(
        id: "6", name: "handoff_create",
        arguments: ["focus": "oresund", "autoSelect": true, "knowledgeIDs": ["3F2504E0-4F89-11D3-9A0C-0305E82C3301"]]),
    ] {
      let r = await executor.execute(call, approver: allow)
      #expect(!r.succeeded, "\(call.name)")
      #expect(try engine.searchIndexTokenizerStatus() == .stale(.version(1)), "\(call.name)")
    }
    #expect(seen.withLock { $0 }.isEmpty)
  }

  @Test("an auto-selecting handoff_create rebuilds it before ranking")
  func autoSelectingHandoffRebuilds() async throws {
    let (engine, seen, id) = try Self.outdated()
    let r = await ToolExecutor(engine: engine).execute(
      ToolCall(id: "h", name: "handoff_create", arguments: ["focus": "oresund crossing", "autoSelect": true]),
      approver: RecordingApprover(.approved(by: "user")))
    #expect(r.succeeded, "\(r.failureMessage ?? "")")
    #expect(r.output?.structured["handoff"]?["knowledgeIDs"] == [.string(id.uuidString)])
    #expect(seen.withLock { $0 } == [.rebuilt(from: .version(1), documents: 1)])
  }
}
