import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 31-a, 6: the stale-handoff advice named the newer handoff to restore even when that one
/// was stale itself (A of 2026-10-01 sent to B of 2026-11-01, itself 32 days old on 2026-12-03),
/// and two handoffs made at the same moment sent the reader back and forth. The newer handoff is
/// now advised only when it is not stale itself; otherwise creating one marked active is.
@Suite("Stale-handoff advice: only a newer handoff that is not stale itself")
struct StaleAdviceNewerTests {
  static func date(_ text: String) throws -> Date { try #require(ISO8601DateFormatter().date(from: text)) }

  /// An engine whose clock reads 2026-12-03, holding the handoffs `handoffs` (none active).
  static func engine(_ handoffs: [Handoff]) throws -> KnowledgeEngine {
    let engine = KnowledgeEngine(
      store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment(start: try date("2026-12-03T09:00:00Z")))
    try engine.store.write { tx in for h in handoffs { try tx.insertHandoff(h) } }
    return engine
  }

  @Test("the reviewer's two old handoffs: restoring A does not send to B, which is stale too")
  func bothOld() throws {
    let a = Handoff(id: sequentialID(1), focus: "A", createdAt: try Self.date("2026-10-01T09:00:00Z"))
    let b = Handoff(id: sequentialID(2), focus: "B", createdAt: try Self.date("2026-11-01T09:00:00Z"))
    let engine = try Self.engine([a, b])
    let sa = try #require(try engine.staleness(of: engine.restoreHandoff(id: a.id)))
    #expect(sa.isOld && sa.remedy == .createActive && sa.newerHandoffID == nil, "\(sa)")
    #expect(sa.commandAdvice.hasPrefix("create a new handoff and mark it active"), "\(sa.commandAdvice)")
    #expect(!sa.commandAdvice.contains("restore the newer handoff"))
    let insight = try #require(try engine.insights().insights.first { $0.rule == .staleHandoff })
    #expect(!insight.message.contains("restore the newer handoff"), "\(insight.message)")
    let sb = try #require(try engine.staleness(of: engine.restoreHandoff(id: b.id)))
    #expect(sb.remedy == .createActive && sb.newerHandoffID == nil)
  }

  @Test("two handoffs made at the same moment, both stale: neither sends the reader to the other")
  func sameMoment() throws {
    let at = try Self.date("2026-10-01T09:00:00Z")
    let a = Handoff(id: sequentialID(1), focus: "A", createdAt: at)
    let b = Handoff(id: sequentialID(2), focus: "B", createdAt: at)
    let engine = try Self.engine([a, b])
    for h in [a, b] {
      let s = try #require(try engine.staleness(of: engine.restoreHandoff(id: h.id)))
      #expect(s.remedy == .createActive && s.newerHandoffID == nil, "\(h.focus): \(s)")
    }
  }

  @Test("a newer handoff that is not stale itself is still the one to restore")
  func freshNewer() throws {
    let a = Handoff(id: sequentialID(1), focus: "A", createdAt: try Self.date("2026-10-01T09:00:00Z"))
    let b = Handoff(id: sequentialID(2), focus: "B", createdAt: try Self.date("2026-12-01T09:00:00Z"))
    let engine = try Self.engine([a, b])
    let s = try #require(try engine.staleness(of: engine.restoreHandoff(id: a.id)))
    #expect(s.remedy == .restoreNewer && s.newerHandoffID == b.id && s.newerHandoffFocus == "B", "\(s)")
    // Once a knowledge item is captured after B, B is stale too (as A is), and no longer advised.
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use Redis"))
    let again = try #require(try engine.staleness(of: engine.restoreHandoff(id: a.id)))
    #expect(again.remedy == .createActive && again.newerHandoffID == nil, "\(again)")
  }
}
