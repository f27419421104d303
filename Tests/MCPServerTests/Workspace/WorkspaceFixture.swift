import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Synchronization
import TestSupport

/// An in-memory workspace with a deterministic clock and ids, and the providers over it.
struct WorkspaceFixture {
  let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
  var workspace: MCPWorkspace { MCPWorkspace(engine: engine) }

  /// Captures a knowledge item directly (as the CLI would).
  @discardableResult
  func capture(_ kind: KnowledgeKind, _ title: String, content: String = "") throws -> KnowledgeItem {
    try engine.capture(CaptureRequest(kind: kind, title: title, content: content)).item
  }

  var knowledgeTitles: [String] {
    get throws { try engine.listKnowledge().map(\.title).sorted() }
  }

  var receipts: [ActivityReceipt] {
    get throws { try engine.store.read { tx in try tx.listReceipts() } }
  }

  /// Stores `handoff`, optionally marking it active.
  func insert(_ handoff: Handoff, active: Bool = false) throws {
    try engine.store.write { tx in
      try tx.insertHandoff(handoff)
      if active { try tx.setActiveHandoffID(handoff.id) }
    }
  }
}

/// What a fake client was asked, and the answer it gives.
final class FakeElicitation: Sendable {
  private let asked = Mutex<[(message: String, schema: JSONObject)]>([])
  private let answer: @Sendable () throws -> MCPElicitationResult

  init(_ answer: @escaping @Sendable () throws -> MCPElicitationResult) {
    self.answer = answer
  }

  var requests: [(message: String, schema: JSONObject)] { asked.withLock { $0 } }

  /// A tool-call context whose client can (or cannot) elicit, answering with this fake.
  func context(id: JSONRPCRequestID = .string("007"), canElicit: Bool = true) -> MCPToolCallContext {
    MCPToolCallContext(requestID: id, canElicit: canElicit) { message, schema in
      self.asked.withLock { $0.append((message, schema)) }
      return try self.answer()
    }
  }
}
