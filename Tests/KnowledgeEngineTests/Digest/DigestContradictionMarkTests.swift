import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 20-b, #9: two decisions linked by `contradicts` read as both current in the digest;
/// #10: the recent-context omission named the section's kinds, not what it left out.
@Suite("Digest contradiction marks and omission wording")
struct DigestContradictionMarkTests {
  static func item(_ n: Int, _ kind: KnowledgeKind, _ title: String, relationships: [KnowledgeRelationship] = [], minute: Int = 0)
    -> KnowledgeItem
  {
    var k = DigestFixture.item(n, kind, title, minute: minute)
    k.relationships = relationships
    return k
  }

  /// The sections from the store and from the pure builder, which must agree.
  static func sections(_ items: [KnowledgeItem]) throws -> DigestSections {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in for k in items { try tx.insertKnowledge(k) } }
    let stored = try store.read { tx in try DigestBuilder.sections(tx) }
    let pure = DigestBuilder.build(
      knowledge: items, openTasks: [], activeHandoff: nil, id: sequentialID(900), now: DigestFixture.t0, trigger: .manual
    ).sections
    #expect(stored == pure)
    return stored
  }

  @Test("both items of a contradicts relationship are marked with the other's id, and cite it")
  func contradictingDecisionsAreMarked() throws {
    let a = Self.item(1, .decision, "Use SQLite WAL mode")
    let b = Self.item(2, .decision, "Do not use SQLite WAL mode", relationships: [.init(kind: .contradicts, targetID: a.id)])
    let c = Self.item(3, .decision, "Keep the CLI thin")
    let lines = try Self.sections([a, b, c]).decisions
    let first = try #require(lines.first { $0.evidenceIDs.first == a.id })
    let second = try #require(lines.first { $0.evidenceIDs.first == b.id })
    #expect(first.text == "Use SQLite WAL mode (contradicts \(b.id.uuidString))")
    #expect(first.evidenceIDs == [a.id, b.id])
    #expect(second.text == "Do not use SQLite WAL mode (contradicts \(a.id.uuidString))")
    #expect(second.evidenceIDs == [b.id, a.id])
    #expect(lines.first { $0.evidenceIDs.first == c.id }?.text == "Keep the CLI thin")
  }

  @Test("a contradiction settled by a supersession is not marked")
  func settledContradictionIsNotMarked() throws {
    let a = Self.item(1, .decision, "Use REST")
    let b = Self.item(2, .decision, "Use GraphQL", relationships: [.init(kind: .contradicts, targetID: a.id)])
    let c = Self.item(3, .decision, "Use GraphQL everywhere", relationships: [.init(kind: .supersedes, targetID: a.id)])
    let lines = try Self.sections([a, b, c]).decisions
    #expect(lines.map(\.text).sorted() == ["Use GraphQL", "Use GraphQL everywhere"])
  }

  @Test("marks are bounded: two ids, then a count; a long title is cut, never the mark")
  func marksAreBounded() throws {
    let long = String(repeating: "Long decision title ", count: 14)
    let hub = Self.item(1, .decision, long)
    let others = (2...5).map { n in
      Self.item(n, .fact, "Opposite fact \(n)", relationships: [.init(kind: .contradicts, targetID: hub.id)], minute: n)
    }
    let sections = try Self.sections([hub] + others)
    let line = try #require(sections.decisions.first)
    #expect(line.text.count <= DigestBuilder.lineLimit)
    #expect(
      line.text.hasSuffix(" (contradicts \(sequentialID(2).uuidString), \(sequentialID(3).uuidString) and 2 more)"), "\(line.text)")
    #expect(line.evidenceIDs == [hub.id, sequentialID(2), sequentialID(3)])
    // The facts are marked in recent context too.
    #expect(sections.recentContext.allSatisfy { $0.text.hasSuffix("(contradicts \(hub.id.uuidString))") }, "\(sections.recentContext)")
  }

  @Test("review 20-b #10: the recent-context omission names no kinds it did not leave out")
  func recentOmissionWording() throws {
    let facts = (1...9).map { Self.item($0, .fact, "Fact number \($0)", minute: $0) }
    let sections = try Self.sections(facts)
    #expect(sections.omitted.recentContext == 3)
    #expect(sections.omitted.marker(for: "recentContext") == "… and 3 more older items (not shown)")
  }
}
