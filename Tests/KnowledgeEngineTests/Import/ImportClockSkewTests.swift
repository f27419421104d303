import ContinuityKit
import Foundation
import KnowledgeEngine
import Synchronization
import Testing
import TestSupport

/// Review 19-c, #10: a handoff written while a laptop's clock ran ahead made `doctor` and `export`
/// say "another program wrote them", which was false: dolphin wrote it, by the clock it had. The
/// refusal and its fix stay; the words say where such a record comes from. A task completed
/// while the clock was set back was likewise stored with a completion before its creation, which
/// `import` refuses; the completion is now never dated before the task's creation.
struct ImportClockSkewTests {
  /// An environment whose clock the test sets.
  final class Clock: Sendable {
    let now: Mutex<Date>
    let ids = Mutex(0)
    init(_ now: Date) { self.now = Mutex(now) }
    func set(_ date: Date) { now.withLock { $0 = date } }
    var environment: Environment {
      Environment(
        now: { self.now.withLock { $0 } },
        makeID: { self.ids.withLock { n in n += 1; return sequentialID(n) } })
    }
  }

  static func export(_ engine: KnowledgeEngine) throws -> WorkspaceExport {
    try WorkspaceExport.decode(try engine.exportWorkspace(generator: "dolphin test").jsonData(), fileName: "export.json")
  }

  @Test("a handoff dolphin wrote while the clock ran ahead: refused as before, and said to come from the clock, not only another program")
  func handoffAheadOfTheClock() throws {
    let real = Date()
    let clock = Clock(real.addingTimeInterval(3 * 86_400))
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: clock.environment)
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Release notes", summary: "Drafted")).handoff
    let document = try Self.export(engine)

    let refusals = KnowledgeEngine.importRefusals(of: document, now: real)
    let refusal = try #require(refusals.first)
    #expect(refusals.count == 1 && refusal.rule == .futureDate && refusal.id == handoff.id, "\(refusals)")
    #expect(refusal.fixStatement?.hasPrefix("UPDATE handoff SET created_at = min(created_at, strftime(") == true)
    let warning = try #require(KnowledgeEngine.importRefusalWarning(refusals))
    #expect(
      warning.contains(
        "Where they come from: a handoff dated ahead of this machine's clock was written while a clock ran ahead "
          + "(dolphin dates a handoff by the clock of the machine that writes it"),
      "\(warning)")
    #expect(!warning.contains("another program wrote them"), "\(warning)")
    #expect(!warning.contains("no dolphin command stores"), "\(warning)")

    // A rule no dolphin command breaks keeps naming the earlier dolphin or another program.
    var other = document
    other.workspace.handoffs = []
    other.workspace.checkpoints = [
      RunCheckpoint(id: sequentialID(900), runID: sequentialID(901), step: -1, state: "finished", note: "", createdAt: real)
    ]
    let stepWarning = try #require(KnowledgeEngine.importRefusalWarning(KnowledgeEngine.importRefusals(of: other, now: real)))
    #expect(
      stepWarning.contains(
        "Where they come from: an earlier dolphin stored such a record before this rule existed (an import or a "
          + "migration), or another program wrote it; no dolphin command stores one now"),
      "\(stepWarning)")
  }

  @Test("task complete after the clock was set back dates the completion at the task's creation, and its export imports")
  func completionAfterClockSetBack() throws {
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    let clock = Clock(start)
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: clock.environment)
    let task = try engine.addTask(title: "Ship the beta")
    clock.set(start.addingTimeInterval(-3_600))
    let completed = try engine.completeTask(id: task.id)
    #expect(completed.completedAt == task.createdAt)
    // With a clock that did not go back, the completion is dated now.
    let later = try engine.addTask(title: "Write the notes")
    clock.set(start.addingTimeInterval(60))
    #expect(try engine.completeTask(id: later.id).completedAt == start.addingTimeInterval(60))
    let document = try Self.export(engine)
    #expect(KnowledgeEngine.importRefusals(of: document).isEmpty)
    _ = try KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory()).applyImport(document, source: "export.json")
  }
}
