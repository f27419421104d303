import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 31-a, 2: the restore brief listed the knowledge captured since a handoff, but not the
/// knowledge it carries that was edited since: a carried decision reversed after the handoff
/// showed its new title as though it had always read so, under the old written summary, and the
/// stale-handoff rule did not fire. An edit is now marked with the revision it shows, counted,
/// and makes the handoff stale.
@Suite("Restore brief: carried knowledge edited since the handoff")
struct RestoreEditedSinceTests {
  /// The reviewer's workspace: a decision carried by a handoff with a written summary, then
  /// reversed by an edit; and a second carried item left as it was.
  static func reversed() throws -> (engine: KnowledgeEngine, edited: KnowledgeItem, kept: KnowledgeItem, handoff: Handoff) {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let k = try engine.capture(CaptureRequest(kind: .decision, title: "Use Redis for caching", content: "TTL 30 minutes")).item
    let kept = try engine.capture(CaptureRequest(kind: .fact, title: "The cache sits behind the API")).item
    let h = try engine.createHandoff(
      HandoffRequest(focus: "Caching", summary: "We chose Redis; TTL 30 minutes.", knowledgeIDs: [k.id, kept.id])).handoff
    let edited = try engine.editKnowledge(
      id: k.id, KnowledgeEdit(title: "Do not use Redis for caching", content: "Abandoned: licence change")).item
    return (engine, edited, kept, h)
  }

  @Test("the edited item is marked with its revision and counted; the one left as it was is not")
  func marked() throws {
    let (engine, edited, kept, h) = try Self.reversed()
    #expect(edited.revision == 2)
    let brief = try engine.restoreHandoff(id: h.id)
    #expect(brief.editedSince == 1)
    #expect(brief.capturedSinceTotal == 0)
    let refs = brief.knowledge
    #expect(refs.map(\.id) == [edited.id, kept.id])
    #expect(refs[0].title == "Do not use Redis for caching")
    #expect(refs[0].change == KnowledgeEngine.editedChange && refs[0].change == "edited")
    #expect(refs[0].revision == 2)
    #expect(refs[1].change == nil && refs[1].revision == nil)
    // In JSON: `change` and `revision` on the edited item only, `editedSince` on the brief.
    let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(brief)) as? [String: Any])
    #expect(json["editedSince"] as? Int == 1)
    let items = try #require(json["knowledge"] as? [[String: Any]])
    #expect(items[0]["revision"] as? Int == 2 && items[0]["change"] as? String == "edited")
    #expect(items[1]["revision"] == nil && items[1]["change"] == nil)
  }

  @Test("an edit of a carried item makes the handoff stale, in the brief and in the insight")
  func stale() throws {
    let (engine, edited, _, h) = try Self.reversed()
    let brief = try engine.restoreHandoff(id: h.id)
    let s = try #require(try engine.staleness(of: brief))
    #expect(s.editedAfter == 1 && s.capturedAfter == 0 && !s.isOld)
    #expect(s.priority == .normal)
    #expect(s.reason == "1 knowledge item it carries was edited after it")
    #expect(s.remedy == .createActive)
    let insight = try #require(try engine.insights().insights.first { $0.rule == .staleHandoff })
    #expect(insight.message.contains("may be stale: 1 knowledge item it carries was edited after it; "), "\(insight.message)")
    #expect(insight.evidenceIDs == [h.id, edited.id])
  }

  @Test("a handoff whose carried items were not edited since is not stale and marks nothing")
  func untouched() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let k = try engine.capture(CaptureRequest(kind: .decision, title: "Use Redis for caching")).item
    let h = try engine.createHandoff(HandoffRequest(focus: "Caching", knowledgeIDs: [k.id])).handoff
    // An item captured since and then edited is captured since, not a carried item edited.
    let later = try engine.capture(CaptureRequest(kind: .fact, title: "Redis 7 is installed")).item
    _ = try engine.editKnowledge(id: later.id, KnowledgeEdit(title: "Redis 7.2 is installed"))
    let brief = try engine.restoreHandoff(id: h.id)
    #expect(brief.editedSince == 0)
    #expect(brief.knowledge.allSatisfy { $0.change == nil && $0.revision == nil })
    let s = try #require(try engine.staleness(of: brief))
    #expect(s.editedAfter == 0 && s.capturedAfter == 1)
    #expect(s.reason == "1 knowledge item was captured after it")
  }

  @Test("three reasons read as a list: old, captured after and edited after")
  func threeReasons() throws {
    let h = Handoff(id: sequentialID(1), focus: "Caching", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
    let s = try #require(
      HandoffStaleness.evaluate(
        h, capturedAfter: 2, editedAfter: 3, newest: h, now: h.createdAt.addingTimeInterval(20 * 86_400)))
    #expect(s.reason == "it is 20 days old (older than 14 days), 2 knowledge items were captured after it and 3 knowledge items it carries were edited after it")
    #expect(s.priority == .high)
    let editedOnly = try #require(
      HandoffStaleness.evaluate(h, capturedAfter: 0, editedAfter: 1, newest: h, now: h.createdAt.addingTimeInterval(20 * 86_400)))
    #expect(editedOnly.priority == .high, "old and followed by an edit")
  }
}
