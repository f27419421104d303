import ContinuityKit
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import KnowledgeEngine

@Suite("Editing a knowledge item")
struct KnowledgeEditTests {
  static func engine() -> KnowledgeEngine {
    KnowledgeEngine(
      store: SQLiteWorkspaceStore.inMemory(), environment: DeletionCascadeTests.ticking(from: Date(timeIntervalSince1970: 1_790_000_000)))
  }

  static func capture(_ engine: KnowledgeEngine, _ title: String, content: String = "", tags: [String] = []) throws -> KnowledgeItem {
    try engine.capture(CaptureRequest(kind: .decision, title: title, content: content, tags: tags)).item
  }

  @Test("title, kind, priority and tags change in place: one revision, updatedAt moves, the search index follows")
  func editsInPlace() throws {
    let engine = Self.engine()
    let item = try Self.capture(engine, "Use Postgres for invoices", content: "Chosen in the March review.", tags: ["storage"])
    let result = try engine.editKnowledge(
      id: item.id,
      KnowledgeEdit(title: "  Use SQLite for invoices ", kind: .fact, priority: .high, addTags: ["DB", "storage"]))
    #expect(result.changed == ["kind", "title", "tags", "priority"])
    let edited = result.item
    #expect(edited.title == "Use SQLite for invoices" && edited.kind == .fact && edited.priority == .high)
    #expect(edited.tags == ["storage", "db"])
    #expect(edited.revision == 2 && edited.updatedAt > item.updatedAt)
    #expect(edited.id == item.id && edited.createdAt == item.createdAt && edited.source == item.source)
    #expect(edited.content == item.content)
    #expect(try engine.knowledge(id: item.id) == edited)
    #expect(try engine.search("sqlite invoices").results.map(\.id) == [item.id])
    #expect(try engine.search("postgres").results.isEmpty)
    #expect(try engine.listKnowledge(tag: "db").map(\.id) == [item.id])
  }

  @Test("an edit that changes nothing stores nothing: same revision, same updatedAt")
  func noChange() throws {
    let engine = Self.engine()
    let item = try Self.capture(engine, "Ship on Fridays", tags: ["release"])
    let result = try engine.editKnowledge(id: item.id, KnowledgeEdit(title: "Ship on Fridays", priority: .normal, addTags: ["Release"]))
    #expect(result.changed.isEmpty)
    #expect(result.item == item)
    #expect(try engine.knowledge(id: item.id) == item)
  }

  @Test("tags: replace, then remove, then add; an empty replacement removes them all")
  func tagOrder() throws {
    let engine = Self.engine()
    let item = try Self.capture(engine, "Tagged", tags: ["a", "b", "c"])
    let replaced = try engine.editKnowledge(id: item.id, KnowledgeEdit(tags: ["x", "y", "z"], addTags: ["w", "x"], removeTags: ["Y"]))
    #expect(replaced.item.tags == ["x", "z", "w"])
    let cleared = try engine.editKnowledge(id: item.id, KnowledgeEdit(tags: []))
    #expect(cleared.item.tags.isEmpty && cleared.changed == ["tags"])
  }

  /// Review 19-b (F6): a tag holding a comma cannot be told from two tags on the command line.
  @Test("a new tag holding a comma is refused on capture, memory save and edit; a stored one can still be removed or edited around")
  func commaInTag() throws {
    let engine = Self.engine()
    let refusal = #expect(throws: WorkspaceError.self) { try Self.capture(engine, "Tagged", tags: ["keep", "a,b"]) }
    guard case .validation(let e)? = refusal else { Issue.record("\(String(describing: refusal))"); return }
    #expect(e.field == "tags[1]")
    #expect(e.message.hasPrefix("tags[1] 'a,b' contains a comma (at character 2); a tag holds no comma"), "\(e.message)")
    #expect(throws: WorkspaceError.self) { try engine.saveMemory(text: "m", tags: ["x,"]) }
    let item = try Self.capture(engine, "Tagged", tags: ["keep"])
    let added = #expect(throws: WorkspaceError.self) { try engine.editKnowledge(id: item.id, KnowledgeEdit(addTags: ["a,b"])) }
    guard case .validation(let a)? = added else { Issue.record("\(String(describing: added))"); return }
    #expect(a.field == "addTags[0]")
    #expect(throws: WorkspaceError.self) { try engine.editKnowledge(id: item.id, KnowledgeEdit(tags: ["a,b"])) }

    // One an earlier build stored: the item stays editable, and the tag can be removed by name.
    var stored = try engine.knowledge(id: item.id)
    stored.tags = ["a,b", "keep"]
    try engine.store.write { tx in _ = try tx.updateKnowledge(stored) }
    #expect(try engine.editKnowledge(id: item.id, KnowledgeEdit(priority: .high)).item.tags == ["a,b", "keep"])
    #expect(try engine.editKnowledge(id: item.id, KnowledgeEdit(removeTags: ["A,B"])).item.tags == ["keep"])
  }

  @Test("relationships: add to existing items, remove by target; a supersede cycle and a self-relationship are refused")
  func relationships() throws {
    let engine = Self.engine()
    let a = try Self.capture(engine, "A")
    let b = try Self.capture(engine, "B")
    let c = try Self.capture(engine, "C")
    let added = try engine.editKnowledge(
      id: a.id,
      KnowledgeEdit(addRelationships: [.init(kind: .supersedes, targetID: b.id), .init(kind: .supports, targetID: c.id)]))
    #expect(added.item.relationships.map(\.targetID) == [b.id, c.id])
    let cycle = #expect(throws: WorkspaceError.self) {
      try engine.editKnowledge(id: b.id, KnowledgeEdit(addRelationships: [.init(kind: .supersedes, targetID: a.id)]))
    }
    #expect("\(String(describing: cycle))".contains("supersede cycle"))
    #expect(throws: WorkspaceError.self) {
      try engine.editKnowledge(id: a.id, KnowledgeEdit(addRelationships: [.init(kind: .relatesTo, targetID: a.id)]))
    }
    let missing = #expect(throws: WorkspaceError.self) {
      try engine.editKnowledge(id: a.id, KnowledgeEdit(addRelationships: [.init(kind: .relatesTo, targetID: sequentialID(77))]))
    }
    #expect(missing?.description == "relationships[2]: no knowledge item has the id \(sequentialID(77).uuidString)")
    let removed = try engine.editKnowledge(id: a.id, KnowledgeEdit(removeRelationshipsTo: [b.id]))
    #expect(removed.item.relationships == [.init(kind: .supports, targetID: c.id)])
    #expect(removed.item.revision == 3)
    // With the old relationship gone, b may now supersede a.
    let reversed = try engine.editKnowledge(id: b.id, KnowledgeEdit(addRelationships: [.init(kind: .supersedes, targetID: a.id)]))
    #expect(reversed.changed == ["relationships"])
  }

  /// The refusals, each leaving the stored item exactly as it was.
  struct Refusal: CustomStringConvertible, Sendable {
    var name: String
    var edit: @Sendable (KnowledgeItem) -> KnowledgeEdit
    var field: String
    var message: String
    var description: String { name }
  }

  static let refusals: [Refusal] = [
    Refusal(name: "an empty edit", edit: { _ in KnowledgeEdit() }, field: "edit", message: "the edit names no change"),
    Refusal(
      name: "a blank title", edit: { _ in KnowledgeEdit(title: " \t") }, field: "title",
      message: "title has nothing printable: all 2 character(s) given are white space, and a value is required"),
    Refusal(name: "an empty title", edit: { _ in KnowledgeEdit(title: "") }, field: "title", message: "title must not be empty"),
    Refusal(
      name: "a title one past the limit", edit: { _ in KnowledgeEdit(title: String(repeating: "t", count: Limits.title + 1)) },
      field: "title", message: "title is 301 characters; the limit is 300 characters"),
    Refusal(
      name: "content one past the limit", edit: { _ in KnowledgeEdit(content: String(repeating: "c", count: Limits.content + 1)) },
      field: "content", message: "content is 16001 characters; the limit is 16000 characters"),
    Refusal(
      name: "blank content", edit: { _ in KnowledgeEdit(content: "   ") }, field: "content",
      message: "content has nothing printable: all 3 character(s) given are white space"),
    Refusal(
      name: "a tag to remove that is not held", edit: { _ in KnowledgeEdit(removeTags: ["nope"]) }, field: "removeTags",
      message: "removeTags: the item has no tag 'nope' (its tags: storage, sqlite); nothing was changed"),
    Refusal(
      name: "seventeen tags", edit: { _ in KnowledgeEdit(addTags: (1...15).map { "t\($0)" }) }, field: "addTags",
      message: "addTags would make 17 tags (2 held + 15 added); the limit is 16; nothing was changed"),
    Refusal(
      name: "seventeen tags, one already held", edit: { _ in KnowledgeEdit(addTags: ["sqlite"] + (1...15).map { "t\($0)" }) },
      field: "addTags", message: "addTags would make 17 tags (2 held + 15 added); the limit is 16"),
    Refusal(
      name: "a tag one past its length", edit: { _ in KnowledgeEdit(addTags: [String(repeating: "g", count: Limits.tagLength + 1)]) },
      field: "tags[2]", message: "is 49 characters; the limit is 48 characters"),
    Refusal(
      name: "a tag holding a line break", edit: { _ in KnowledgeEdit(addTags: ["two\nlines"]) }, field: "addTags[0]",
      message: "addTags[0]"),
    Refusal(
      name: "no relationship to remove", edit: { _ in KnowledgeEdit(removeRelationshipsTo: [sequentialID(5)]) },
      field: "removeRelationshipsTo",
      message: "removeRelationshipsTo: the item has no relationship to \(sequentialID(5).uuidString); nothing was changed"),
    Refusal(
      name: "a tag both added and removed", edit: { _ in KnowledgeEdit(addTags: ["storage"], removeTags: ["Storage"]) },
      field: "removeTags",
      message: "removeTags: the tag 'storage' is also to be added; give it to one of addTags and removeTags; nothing was changed"),
    Refusal(
      name: "credential-looking new content", edit: { _ in KnowledgeEdit(content: "password=hunter22222") }, field: "content",
      message: "looks like it holds a credential"),
  ]

  @Test("refused with the field named, and nothing changes", arguments: refusals)
  func refused(_ r: Refusal) throws {
    let engine = Self.engine()
    let item = try Self.capture(engine, "Use SQLite", content: "WAL mode.", tags: ["storage", "sqlite"])
    do {
      _ = try engine.editKnowledge(id: item.id, r.edit(item))
      Issue.record("\(r.name) was accepted")
    } catch let WorkspaceError.validation(e) {
      #expect(e.field == r.field, "\(e)")
      #expect(e.message.contains(r.message), "\(e.message)")
    }
    #expect(try engine.knowledge(id: item.id) == item)
    #expect(try engine.search("wal").results.map(\.id) == [item.id])
  }

  // Review 18-b (B12): the error named the whole list ("relationships has 33 …"), not the addition.
  @Test("relationships added past the bound are refused naming addRelationships, with held + added")
  func relationshipsPastTheBound() throws {
    let engine = Self.engine()
    let targets = try (0...Limits.relationshipsPerItem).map { try Self.capture(engine, "Target \($0)") }
    let item = try Self.capture(engine, "Hub")
    _ = try engine.editKnowledge(
      id: item.id,
      KnowledgeEdit(addRelationships: targets.prefix(Limits.relationshipsPerItem).map { KnowledgeRelationship(kind: .relatesTo, targetID: $0.id) }))
    let held = try engine.knowledge(id: item.id)
    do {
      _ = try engine.editKnowledge(
        id: item.id, KnowledgeEdit(addRelationships: [KnowledgeRelationship(kind: .supports, targetID: targets[Limits.relationshipsPerItem].id)]))
      Issue.record("a 33rd relationship was accepted")
    } catch let WorkspaceError.validation(e) {
      #expect(e.field == "addRelationships")
      #expect(e.limit == 32 && e.actual == 33)
      #expect(e.message == "addRelationships would make 33 relationships (32 held + 1 added); the limit is 32; nothing was changed")
    }
    #expect(try engine.knowledge(id: item.id) == held)
  }

  @Test("an unknown id is not found")
  func unknownID() throws {
    let engine = Self.engine()
    #expect(throws: WorkspaceError.notFound(recordType: "knowledge item", id: sequentialID(9).uuidString)) {
      try engine.editKnowledge(id: sequentialID(9), KnowledgeEdit(title: "x"))
    }
  }

  @Test("only the text an edit sets is checked for credentials; --allow-credentials lets new text through")
  func credentials() throws {
    let engine = Self.engine()
    let stored = try engine.capture(
      CaptureRequest(kind: .fact, title: "Staging login", content: "password=hunter22222", allowCredentials: true)
    ).item
    let retitled = try engine.editKnowledge(id: stored.id, KnowledgeEdit(title: "Staging login (rotated monthly)"))
    #expect(retitled.changed == ["title"] && retitled.item.content == "password=hunter22222")
    let allowed = try engine.editKnowledge(id: stored.id, KnowledgeEdit(content: "password=rotated33333", allowCredentials: true))
    #expect(allowed.item.content == "password=rotated33333")
  }

  /// Review (s17): an edited mirror made `search --include-memories` show its new text under
  /// the memory's id, and a search for the memory's own words say no memory held them.
  @Test("a legacy memory's mirror is not edited: search shows the memory through it")
  func mirror() throws {
    let engine = Self.engine()
    let saved = try engine.saveMemory(text: "Prefers green tea", tags: ["drinks"])
    let error = #expect(throws: WorkspaceError.self) {
      try engine.editKnowledge(id: saved.mirror.id, KnowledgeEdit(content: "Prefers coffee"))
    }
    #expect(
      error?.description
        == "knowledge item \(saved.mirror.id.uuidString) mirrors legacy memory \(saved.memory.id.uuidString): search shows "
        + "the memory through it, so it is not edited (memories are kept as saved); capture a new item that supersedes "
        + "it, or delete the memory and save it again; nothing was changed")
    #expect(try engine.knowledge(id: saved.mirror.id) == saved.mirror)
    #expect(try engine.search("green tea", includeMemories: true).results.map(\.id).contains(saved.memory.id))
  }

  @Test("at the revision bound an edit is refused with what to do instead")
  func revisionBound() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    var item = try engine.capture(CaptureRequest(kind: .fact, title: "Old")).item
    item.revision = Limits.revision
    try store.write { tx in _ = try tx.updateKnowledge(item) }
    let error = #expect(throws: WorkspaceError.self) { try engine.editKnowledge(id: item.id, KnowledgeEdit(title: "New")) }
    #expect("\(String(describing: error))".contains("the item is at revision 1000000, the most kept (1000000)"))
    #expect(try engine.knowledge(id: item.id).title == "Old")
  }

  /// Review (s17, C8): a credential edited out of an item lived on in a stored digest, while
  /// status said none was stored.
  @Test("an edit of text a stored digest quotes says so, and the credential scan reads digests")
  func digestsQuoteEarlierText() throws {
    let engine = Self.engine()
    let item = try engine.capture(
      CaptureRequest(kind: .fact, title: "Staging", content: "password=hunter22222", allowCredentials: true)
    ).item
    for i in 1...4 { _ = try engine.capture(CaptureRequest(kind: .fact, title: "Filler \(i)")) }
    let edited = try engine.editKnowledge(id: item.id, KnowledgeEdit(content: "rotated; see the vault"))
    #expect(edited.digestsQuotingEarlierText == 1)
    let flags = try engine.status().credentials
    #expect(flags.flags.map(\.recordType) == ["digest"], "\(flags)")
    // A change of priority alone quotes nothing new.
    #expect(try engine.editKnowledge(id: item.id, KnowledgeEdit(priority: .high)).digestsQuotingEarlierText == 0)
  }

  @Test("a handoff summary built by rules follows a new title; one written by hand is kept as written")
  func handoffSummaries() throws {
    let engine = Self.engine()
    let item = try Self.capture(engine, "Use Postgers")
    let built = try engine.createHandoff(HandoffRequest(focus: "Built", knowledgeIDs: [item.id])).handoff
    let written = try engine.createHandoff(HandoffRequest(focus: "Written", summary: "Use Postgers, said Ana.", knowledgeIDs: [item.id])).handoff
    #expect(built.summary.contains(#"decision "Use Postgers""#), "\(built.summary)")
    _ = try engine.editKnowledge(id: item.id, KnowledgeEdit(title: "Use Postgres"))
    #expect(try engine.handoff(id: built.id).summary.contains(#"decision "Use Postgres""#))
    #expect(try engine.handoff(id: written.id).summary == "Use Postgers, said Ana.")
  }

  @Test("a clock that went back never dates an edit before the last change, so the export still imports")
  func clockWentBack() throws {
    let times = Mutex([Date(timeIntervalSince1970: 1_790_000_000), Date(timeIntervalSince1970: 1_780_000_000)])
    let environment = Environment(now: { times.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] } }, makeID: { UUID() })
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: environment)
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "Build host")).item
    let edited = try engine.editKnowledge(id: item.id, KnowledgeEdit(title: "Build host (arm64)")).item
    #expect(edited.updatedAt == item.updatedAt && edited.revision == 2)
    let target = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    _ = try target.applyImport(try engine.exportWorkspace(generator: "dolphin test"), source: "export.json")
    #expect(try target.knowledge(id: item.id) == edited)
  }
}
