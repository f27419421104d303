import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 28-b, 4: an id prefix 200 handoffs share was refused with every one of them listed
/// (one 10 KB line, in text and JSON, for `handoff get`, `restore` and `delete`).
@Suite("An ambiguous handoff id prefix")
struct AmbiguousHandoffPrefixTests {
  /// A workspace with `count` handoffs whose ids all begin `00000000`, the n-th created n
  /// minutes after the first (so the newest is the last).
  static func engine(handoffs count: Int) throws -> (KnowledgeEngine, [Handoff]) {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    let handoffs = try (1...count).map { n in
      Handoff(
        id: try #require(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012ld", n))), focus: "focus \(n)",
        summary: "", nextSteps: [], knowledgeIDs: [], taskIDs: [], recentExcerpts: [],
        createdAt: start.addingTimeInterval(Double(n) * 60))
    }
    try engine.store.write { tx in for h in handoffs { try tx.insertHandoff(h) } }
    return (engine, handoffs)
  }

  static func message(_ engine: KnowledgeEngine, _ reference: String, hints: HandoffReferenceHints = .commandLine) -> String? {
    do {
      _ = try engine.resolveHandoffReference(reference, field: "id", hints: hints)
    } catch WorkspaceError.validation(let e) {
      return e.message
    } catch {
      Issue.record("\(error)")
    }
    return nil
  }

  @Test("200 matches: the newest 5 are named, then how many more and what lists them; the line stays short")
  func manyMatchesCapped() throws {
    let (engine, handoffs) = try Self.engine(handoffs: 200)
    let message = try #require(Self.message(engine, "00000000"))
    let newest = handoffs.reversed().prefix(5).map { "\($0.id.uuidString) \"\($0.focus)\"" }
    #expect(
      message
        == "id '00000000' begins 200 handoff ids, so it names none of them: the newest 5 are "
        + newest.joined(separator: "; ") + "; and 195 more (`dolphin handoff list` lists them). Give more of the id",
      "\(message)")
    #expect(message.count < 500, "\(message.count) characters")
    #expect(!message.contains(handoffs[0].id.uuidString), "the oldest is not named")
    // The MCP tools' wording names their own tool.
    let tools = try #require(
      Self.message(engine, "00000000", hints: HandoffReferenceHints(listing: "handoff_list", creating: "handoff_create")))
    #expect(tools.contains("; and 195 more (handoff_list lists them). Give more of the id"), "\(tools)")
  }

  @Test("up to 5 matches: every one is named, as before, with no count of more")
  func fewMatchesAllNamed() throws {
    let (engine, handoffs) = try Self.engine(handoffs: 5)
    let message = try #require(Self.message(engine, "00000000-0000"))
    #expect(
      message
        == "id '00000000-0000' begins 5 handoff ids, so it names none of them: "
        + handoffs.reversed().map { "\($0.id.uuidString) \"\($0.focus)\"" }.joined(separator: "; ") + ". Give more of the id",
      "\(message)")
  }
}
