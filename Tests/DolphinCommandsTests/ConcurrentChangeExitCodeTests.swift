import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

@testable import DolphinCommands

/// A plan (import, erase, deletion) that another process's write made stale between showing it
/// and applying it is a concurrency failure: exit 5, as a busy workspace is, not exit 4
/// ("validation"), which says the user's input was wrong.
@Suite("Concurrent change exit code")
struct ConcurrentChangeExitCodeTests {
  static func engine() -> KnowledgeEngine {
    KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
  }

  /// The error `body` throws.
  static func failure(_ body: () throws -> Void) -> (any Error)? {
    do { try body() } catch { return error }
    return nil
  }

  static func expectConcurrent(_ error: (any Error)?, _ operation: String) throws {
    let e = try #require(error, "\(operation) was applied despite the change")
    let (code, kind, message) = classify(e)
    #expect(code == ExitCode.storage, "\(operation): \(code) \(kind) \(message)")
    #expect(kind == "concurrentChange", "\(operation)")
    #expect(message.contains("changed since this \(operation) was planned"), "\(message)")
    #expect(message.contains("nothing was written") || message.contains("nothing was changed"), "\(message)")
  }

  @Test("an import whose workspace changed after planning exits 5")
  func importRace() throws {
    let source = Self.engine()
    _ = try source.capture(CaptureRequest(kind: .fact, title: "Exported fact"))
    let document = try source.exportWorkspace(generator: "test")
    let engine = Self.engine()
    let plan = try engine.planImport(document, source: "export.json")
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Captured meanwhile"))
    try Self.expectConcurrent(
      Self.failure { _ = try engine.applyImport(document, source: "export.json", expecting: plan) }, "import")
  }

  @Test("an erase whose workspace changed after planning exits 5")
  func eraseRace() throws {
    let engine = Self.engine()
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "To erase"))
    let plan = try engine.planErase(.knowledge)
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Captured meanwhile"))
    try Self.expectConcurrent(Self.failure { _ = try engine.apply(plan) }, "erase")
  }

  /// Review (s17): under a steady writer, `erase --yes` failed every time as a concurrent
  /// change; approved for its scope, it now erases what the scope holds when it runs.
  @Test("an erase approved for its scope (--yes) erases what was written after planning too, and reports that plan")
  func eraseAcceptingChanges() throws {
    let engine = Self.engine()
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "To erase"))
    let plan = try engine.planErase(.knowledge)
    let meanwhile = try engine.capture(CaptureRequest(kind: .fact, title: "Captured meanwhile")).item
    let report = try engine.apply(plan, acceptingChanges: true)
    #expect(try engine.listKnowledge().isEmpty)
    #expect(report.plan != plan)
    // The plan applied counts both items; the one shown counted one.
    #expect(plan.steps.first { $0.action == "deleteKnowledge" }?.count == 1)
    #expect(report.plan.steps.first { $0.action == "deleteKnowledge" }?.count == 2, "\(report.plan)")
    #expect(try engine.listKnowledge().allSatisfy { $0.id != meanwhile.id })
  }

  @Test("a deletion whose workspace changed after planning exits 5")
  func deletionRace() throws {
    let engine = Self.engine()
    let target = try engine.capture(CaptureRequest(kind: .decision, title: "To delete")).item
    let plan = try engine.planDeletion(of: .knowledge(target.id))
    _ = try engine.capture(
      CaptureRequest(
        kind: .fact, title: "Relates meanwhile",
        relationships: [KnowledgeRelationship(kind: .supports, targetID: target.id)]))
    try Self.expectConcurrent(Self.failure { _ = try engine.apply(plan) }, "deletion")
  }

  @Test("input errors keep exit 4")
  func validationStays() {
    #expect(classify(WorkspaceError.validation(ValidationError(field: "title", message: "title is empty"))).code == ExitCode.validation)
  }
}
