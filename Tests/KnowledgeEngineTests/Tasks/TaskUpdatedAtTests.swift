import ContinuityKit
import Foundation
import KnowledgeEngine
import Synchronization
import Testing
import TestSupport

/// A clock a test sets, and ids counting up from 1.
final class SettableClock: Sendable {
  private let state: Mutex<(now: Date, id: Int)>

  init(_ start: Date) { state = Mutex((start, 0)) }

  /// Moves the clock to `date` (earlier too: a clock set back).
  func set(_ date: Date) { state.withLock { $0.now = date } }
  /// Moves the clock on by `seconds`.
  func advance(_ seconds: TimeInterval) { state.withLock { $0.now.addTimeInterval(seconds) } }
  var now: Date { state.withLock { $0.now } }

  var environment: Environment {
    Environment(
      now: { self.state.withLock { $0.now } },
      makeID: { self.state.withLock { s in s.id += 1; return sequentialID(s.id) } })
  }
}

/// ``TaskItem/updatedAt``: set by every change dolphin makes to a task, carried by exports,
/// defaulted for files without it, checked by imports, and read by the restore brief.
@Suite("Task updatedAt")
struct TaskUpdatedAtTests {
  static let start = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21T14:13:20Z

  static func engine() -> (KnowledgeEngine, SettableClock) {
    let clock = SettableClock(start)
    return (KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: clock.environment), clock)
  }

  @Test("a new task is dated updatedAt = createdAt; edit, complete and reopen each date it at their time")
  func everyChangeDatesIt() throws {
    let (engine, clock) = Self.engine()
    let task = try engine.addTask(title: "Write the migration guide", notes: "Cover WAL mode", priority: .high)
    #expect(task.updatedAt == task.createdAt)

    clock.advance(3_600)
    let edited = try engine.editTask(id: task.id, TaskEdit(notes: "Cover WAL mode and the busy timeout"))
    #expect(edited.changed == ["notes"])
    #expect(edited.task.updatedAt == Self.start.addingTimeInterval(3_600))
    #expect(edited.task.createdAt == task.createdAt && edited.task.completedAt == nil)

    // An edit that changes nothing stores nothing, its date included.
    clock.advance(60)
    let same = try engine.editTask(id: task.id, TaskEdit(notes: "Cover WAL mode and the busy timeout"))
    #expect(same.changed.isEmpty && same.task.updatedAt == edited.task.updatedAt)

    clock.advance(600)
    let completed = try engine.completeTaskReportingOutcome(id: task.id).task
    #expect(completed.completedAt == Self.start.addingTimeInterval(4_260))
    #expect(completed.updatedAt == completed.completedAt)
    // Completing again changes nothing.
    clock.advance(60)
    #expect(try engine.completeTask(id: task.id).updatedAt == completed.updatedAt)

    clock.advance(86_400)
    let reopened = try engine.reopenTask(id: task.id)
    #expect(reopened.completedAt == nil && reopened.status == .open)
    #expect(reopened.updatedAt == Self.start.addingTimeInterval(4_260 + 60 + 86_400))
    #expect(try engine.task(id: task.id) == reopened)
  }

  @Test("a clock set back never dates a change before the task's creation or its last change")
  func clockSetBack() throws {
    let (engine, clock) = Self.engine()
    let task = try engine.addTask(title: "Rotate the signing keys")
    clock.advance(7_200)
    let edited = try engine.editTask(id: task.id, TaskEdit(priority: .critical)).task
    clock.set(Self.start.addingTimeInterval(-86_400))
    let again = try engine.editTask(id: task.id, TaskEdit(title: "Rotate the signing keys before release")).task
    #expect(again.updatedAt == edited.updatedAt)
    let completed = try engine.completeTask(id: task.id)
    #expect(completed.completedAt == task.createdAt, "a completion is never before the creation")
    #expect(completed.updatedAt == edited.updatedAt)
  }

  @Test("changing a task's knowledge ids, and deleting or erasing an item it cites, date the task")
  func knowledgeLinksDateIt() throws {
    let (engine, clock) = Self.engine()
    let backups = try engine.capture(CaptureRequest(kind: .decision, title: "Keep nightly backups for 30 days")).item
    let restore = try engine.capture(CaptureRequest(kind: .fact, title: "Restores take 12 minutes")).item
    let task = try engine.addTask(title: "Review the backup script", knowledgeIDs: [backups.id, restore.id])
    let other = try engine.addTask(title: "Document the restore drill", knowledgeIDs: [restore.id])

    clock.advance(600)
    let linked = try engine.editTask(id: task.id, TaskEdit(knowledgeIDs: [backups.id])).task
    #expect(linked.updatedAt == Self.start.addingTimeInterval(600))

    clock.advance(600)
    _ = try engine.apply(try engine.planDeletion(of: .knowledge(backups.id)))
    let unlinked = try engine.task(id: task.id)
    #expect(unlinked.knowledgeIDs.isEmpty)
    #expect(unlinked.updatedAt == Self.start.addingTimeInterval(1_200))
    #expect(try engine.task(id: other.id).updatedAt == other.createdAt, "a task that cited nothing deleted is not dated")

    clock.advance(600)
    _ = try engine.apply(try engine.planErase(.knowledge))
    let erased = try engine.task(id: other.id)
    #expect(erased.knowledgeIDs.isEmpty)
    #expect(erased.updatedAt == Self.start.addingTimeInterval(1_800))
  }

  // MARK: Restore brief

  @Test("the restore brief lists a task edited or reopened since the handoff as updated, and leaves untouched ones out")
  func briefListsUpdatedTasks() throws {
    let (engine, clock) = Self.engine()
    let edited = try engine.addTask(title: "Write the migration guide")
    let reopened = try engine.addTask(title: "Ship the 0.9 release notes")
    let untouched = try engine.addTask(title: "Tidy the CI cache")
    let completedBefore = try engine.addTask(title: "Pick a licence")
    _ = try engine.completeTask(id: reopened.id)
    _ = try engine.completeTask(id: completedBefore.id)
    clock.advance(60)
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Release prep", taskIDs: [edited.id, reopened.id])).handoff

    clock.advance(3_600)
    _ = try engine.editTask(id: edited.id, TaskEdit(priority: .critical))
    clock.advance(60)
    _ = try engine.reopenTask(id: reopened.id)
    clock.advance(60)
    let added = try engine.addTask(title: "Announce the release")
    _ = try engine.completeTask(id: added.id)

    let brief = try engine.restoreHandoff(id: handoff.id)
    #expect(brief.tasksSinceTotal == 3)
    #expect(brief.tasksSince.map(\.id) == [edited.id, reopened.id, added.id], "ordered by their latest change")
    #expect(brief.tasksSince.map(\.change) == ["updated", "updated", "added and completed"])
    #expect(brief.tasksSince.map(\.status) == ["open", "open", "completed"])
    #expect(!brief.tasksSince.contains { $0.id == untouched.id || $0.id == completedBefore.id })
  }

  @Test("a task edited after its completion since the handoff still reads completed; one completed before and edited since reads updated")
  func briefLabels() throws {
    let (engine, clock) = Self.engine()
    let before = try engine.addTask(title: "Pick a licence")
    _ = try engine.completeTask(id: before.id)
    let pending = try engine.addTask(title: "Audit third-party notices")
    clock.advance(60)
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Legal review")).handoff
    clock.advance(60)
    _ = try engine.editTask(id: before.id, TaskEdit(notes: "MIT, see LICENSE"))
    _ = try engine.completeTask(id: pending.id)
    clock.advance(60)
    _ = try engine.editTask(id: pending.id, TaskEdit(notes: "Done for 0.9"))
    let brief = try engine.restoreHandoff(id: handoff.id)
    #expect(brief.tasksSince.map(\.id) == [before.id, pending.id])
    #expect(brief.tasksSince.map(\.change) == ["updated", "completed"])
  }

  // MARK: Export and import

  @Test("an export carries updatedAt; importing it back finds the same tasks")
  func exportCarriesIt() throws {
    let (engine, clock) = Self.engine()
    let task = try engine.addTask(title: "Write the migration guide")
    clock.advance(3_600)
    let edited = try engine.editTask(id: task.id, TaskEdit(priority: .high)).task
    let document = try engine.exportWorkspace(generator: "test")
    #expect(document.workspace.tasks == [edited])
    let json = String(decoding: try document.jsonData(), as: UTF8.self)
    #expect(json.contains(#""updatedAt" : "2026-09-21T15:13:20.000Z""#), "\(json)")

    let (other, _) = Self.engine()
    _ = try other.applyImport(document, source: "backup.json")
    #expect(try other.task(id: task.id) == edited)
    let again = try engine.planImport(document, source: "backup.json")
    #expect(again.conflicts.isEmpty)
  }

  @Test("an export without updatedAt (an earlier build's) imports each task dated completedAt ?? createdAt")
  func olderExportDefaults() throws {
    let (engine, clock) = Self.engine()
    let open = try engine.addTask(title: "Write the migration guide")
    clock.advance(600)
    let done = try engine.addTask(title: "Ship the 0.9 release notes")
    clock.advance(600)
    _ = try engine.completeTask(id: done.id)
    let data = try engine.exportWorkspace(generator: "dolphin 0.1.0").jsonData()
    // The file an earlier build wrote: the same tasks without the member.
    guard case .object(var root) = try JSONValue(parsing: data), case .object(var ws)? = root["workspace"],
      case .array(let tasks)? = ws["tasks"]
    else { Issue.record("not an export"); return }
    #expect(tasks.count == 2 && tasks.allSatisfy { $0["updatedAt"] != nil })
    ws["tasks"] = .array(tasks.map { t in
      guard case .object(var o) = t else { return t }
      o["updatedAt"] = nil
      return .object(o)
    })
    root["workspace"] = .object(ws)
    let text = JSONValue.object(root).jsonString(sortedKeys: true)
    #expect(!text.contains("updatedAt"))
    let older = try WorkspaceExport.decode(Data(text.utf8), fileName: "older.json")
    #expect(WorkspaceExport.unknownFields(in: Data(text.utf8)).isEmpty)

    let (other, _) = Self.engine()
    _ = try other.applyImport(older, source: "older.json")
    let imported = try other.listTasks()
    #expect(imported.first { $0.id == open.id }?.updatedAt == open.createdAt)
    #expect(imported.first { $0.id == done.id }?.updatedAt == Self.start.addingTimeInterval(1_200))
    #expect(imported.first { $0.id == done.id }?.completedAt == Self.start.addingTimeInterval(1_200))
  }

  @Test("a task decoded without updatedAt takes completedAt ?? createdAt; with one, keeps it")
  func decoding() throws {
    let open = #"{"createdAt":"2026-10-01T09:00:00.000Z","id":"00000000-0000-0000-0000-000000000064","knowledgeIDs":[],"#
      + #""notes":"","priority":"normal","status":"open","title":"Write the migration guide"}"#
    let done = #"{"completedAt":"2026-10-02T17:30:00.000Z","createdAt":"2026-10-01T09:00:00.000Z","#
      + #""id":"00000000-0000-0000-0000-000000000065","knowledgeIDs":[],"notes":"","priority":"high","#
      + #""status":"completed","title":"Ship the 0.9 release notes"}"#
    let edited = #"{"createdAt":"2026-10-01T09:00:00.000Z","id":"00000000-0000-0000-0000-000000000066","knowledgeIDs":[],"#
      + #""notes":"","priority":"normal","status":"open","title":"Tidy the CI cache","updatedAt":"2026-10-03T08:15:00.000Z"}"#
    let decoder = StableJSON.decoder()
    #expect(ISO8601.string(from: try decoder.decode(TaskItem.self, from: Data(open.utf8)).updatedAt) == "2026-10-01T09:00:00.000Z")
    #expect(ISO8601.string(from: try decoder.decode(TaskItem.self, from: Data(done.utf8)).updatedAt) == "2026-10-02T17:30:00.000Z")
    #expect(ISO8601.string(from: try decoder.decode(TaskItem.self, from: Data(edited.utf8)).updatedAt) == "2026-10-03T08:15:00.000Z")
    // A required field is still required.
    #expect(throws: DecodingError.self) {
      try decoder.decode(TaskItem.self, from: Data(open.replacingOccurrences(of: #""status":"open","#, with: "").utf8))
    }
  }

  @Test("an import refuses updatedAt before createdAt or more than a day ahead, naming the field; doctor's check gives a fix")
  func importChecksIt() throws {
    let (engine, _) = Self.engine()
    let task = try engine.addTask(title: "Write the migration guide")
    var early = try engine.exportWorkspace(generator: "test")
    early.workspace.tasks[0].updatedAt = Self.start.addingTimeInterval(-86_400)
    let (other, _) = Self.engine()
    let order = #expect(throws: WorkspaceError.self) { _ = try other.applyImport(early, source: "early.json") }
    guard case .validation(let v)? = order else { Issue.record("\(String(describing: order))"); return }
    #expect(v.field == "workspace.tasks[0].updatedAt", "\(v.field)")
    #expect(
      v.message.contains(
        "updatedAt is 2026-09-20T14:13:20.000Z, earlier than createdAt 2026-09-21T14:13:20.000Z; a task cannot change before it was created"),
      "\(v.message)")
    let orderRefusals = KnowledgeEngine.importRefusals(of: early, now: Self.start)
    #expect(orderRefusals.map(\.rule) == [.dateOrder], "\(orderRefusals)")
    #expect(
      orderRefusals.first?.fixStatement
        == "UPDATE task SET updated_at = max(created_at, coalesce(completed_at, created_at)) WHERE id = '\(task.id.uuidString)' COLLATE NOCASE")

    var ahead = try engine.exportWorkspace(generator: "test")
    ahead.workspace.tasks[0].updatedAt = try #require(ISO8601.date(from: "2099-01-01T00:00:00.000Z"))
    let future = #expect(throws: WorkspaceError.self) { _ = try other.applyImport(ahead, source: "ahead.json") }
    guard case .validation(let f)? = future else { Issue.record("\(String(describing: future))"); return }
    #expect(f.field == "workspace.tasks[0].updatedAt")
    #expect(f.message.contains("updatedAt is 2099-01-01T00:00:00.000Z, in the future"), "\(f.message)")
    let futureRefusals = KnowledgeEngine.importRefusals(of: ahead, now: Self.start)
    #expect(futureRefusals.map(\.rule) == [.futureDate], "\(futureRefusals)")
    #expect(futureRefusals.first?.fixStatement?.contains("updated_at = min(updated_at, strftime(") == true)
    #expect(try other.listTasks().isEmpty, "nothing was imported")
  }
}
