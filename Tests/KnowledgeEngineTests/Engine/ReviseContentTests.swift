import ContinuityKit
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import KnowledgeEngine

@Suite("Revising content")
struct ReviseContentTests {
  static func engine() -> KnowledgeEngine {
    KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: DeletionCascadeTests.ticking(from: Date(timeIntervalSince1970: 1_790_000_000)))
  }

  @Test("new content: revision and time move, the search index follows, nothing else changes")
  func revises() throws {
    let engine = Self.engine()
    let item = try engine.capture(CaptureRequest(kind: .code, title: "Heuristic review", content: "185 files, 602 findings", tags: ["review"])).item
    let revised = try engine.reviseContent(of: item.id, to: "200 files, 629 findings")
    #expect(revised.content == "200 files, 629 findings")
    #expect(revised.revision == 2)
    #expect(revised.updatedAt > item.updatedAt)
    #expect(revised.title == item.title && revised.tags == item.tags && revised.createdAt == item.createdAt)
    #expect(try engine.knowledge(id: item.id) == revised)
    #expect(try engine.search("629").results.map(\.id) == [item.id])
    #expect(try engine.search("602").results.isEmpty)
  }

  @Test("the same content is a no-op; over the limit or a credential is refused and changes nothing")
  func refusals() throws {
    let engine = Self.engine()
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "Build host", content: "SQLite 3.40")).item
    #expect(try engine.reviseContent(of: item.id, to: "SQLite 3.40") == item)
    let tooLong = String(repeating: "a", count: 16_001)
    #expect(throws: WorkspaceError.self) { try engine.reviseContent(of: item.id, to: tooLong) }
    #expect(throws: WorkspaceError.self) {
      try engine.reviseContent(of: item.id, to: "export TOKEN=\(FakeSecrets.gitHub)")
    }
    // As a capture refuses them (s17: a revision stored blanks, and control characters as none).
    for blank in ["   ", "\u{1}\u{200B}"] {
      let error = #expect(throws: WorkspaceError.self) { try engine.reviseContent(of: item.id, to: blank) }
      #expect("\(error.map(String.init(describing:)) ?? "")".contains("content has nothing printable"), "\(String(describing: error))")
    }
    #expect(try engine.knowledge(id: item.id) == item)
    #expect(throws: WorkspaceError.self) { try engine.reviseContent(of: UUID(), to: "x") }
  }

  @Test("a clock that went back never dates a revision before the item's creation, so its export still imports")
  func clockWentBack() throws {
    let times = Mutex([Date(timeIntervalSince1970: 1_790_000_000), Date(timeIntervalSince1970: 1_780_000_000)])
    let environment = Environment(now: { times.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] } }, makeID: { UUID() })
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: environment)
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "Build host", content: "SQLite 3.40")).item
    let revised = try engine.reviseContent(of: item.id, to: "SQLite 3.45")
    #expect(revised.updatedAt == item.createdAt)
    #expect(revised.revision == 2)
    let document = try engine.exportWorkspace(generator: "dolphin test")
    let target = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    _ = try target.applyImport(document, source: "export.json")
  }
}
