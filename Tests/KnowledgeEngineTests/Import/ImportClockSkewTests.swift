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
        "Where they come from: a record dated ahead of this machine's clock was written while a clock ran ahead "
          + "(dolphin dates a record by the clock of the machine that writes it"),
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

  /// 2099-01-01T00:00:00Z.
  static let y2099 = Date(timeIntervalSince1970: 4_070_908_800)

  // Review 19-d, #1: a workspace keeps the newest digests, messages, receipts and checkpoints by
  // date, so records of a file dated in 2099 pushed out the workspace's own at the import and at
  // every later write. They are refused as a handoff dated ahead is, naming the JSON path.
  @Test("50 digests dated 2099 are refused naming the path; the workspace's own digest stays")
  func digestsAheadOfTheClock() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "own fact"))
    _ = try engine.saveDigest()
    var document = try Self.export(engine)
    let own = try engine.store.read { tx in try tx.listDigests() }
    let template = try #require(document.workspace.digests.first)
    document.workspace.digests = (0..<50).map { i in
      var d = template
      d.id = sequentialID(5_000 + i)
      d.createdAt = Self.y2099.addingTimeInterval(Double(i) * 86_400)
      return d
    }
    #expect {
      try engine.planImport(document, source: "fut50.json")
    } throws: { error in
      "\(error)".contains(
        "fut50.json: workspace.digests[0] (id \(sequentialID(5_000).uuidString)): createdAt is 2099-01-01T00:00:00.000Z, "
          + "in the future (this machine's clock says ")
        && "\(error)".contains("a workspace keeps its newest 50 digests by date")
        && "\(error)".contains("Nothing was imported")
    }
    #expect(throws: WorkspaceError.self) { try engine.applyImport(document, source: "fut50.json") }
    #expect(try engine.store.read { tx in try tx.listDigests() } == own)
    let refusals = KnowledgeEngine.importRefusals(of: document)
    #expect(refusals.count == 50 && refusals.allSatisfy { $0.rule == .futureDate && $0.field == "createdAt" }, "\(refusals)")
    #expect(
      refusals.first?.fixStatement
        == "UPDATE digest SET created_at = min(created_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) WHERE id = '"
        + sequentialID(5_000).uuidString + "' COLLATE NOCASE")
  }

  @Test("10,000 receipts dated 2099 are refused naming the path; no receipt is imported")
  func receiptsAheadOfTheClock() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store)
    let now = Date()
    let own = ActivityReceipt(
      id: sequentialID(1), callID: "own", tool: "knowledge_search", risk: "readOnly", arguments: "{}", outcome: .succeeded,
      startedAt: now, finishedAt: now, approval: "notRequired", message: "1 result")
    try store.write { tx in try tx.insertReceipt(own) }
    let file = (0..<Limits.receiptsKept).map { i in
      ActivityReceipt(
        id: sequentialID(10_000 + i), callID: "c\(i)", tool: "knowledge_search", risk: "readOnly", arguments: "{}",
        outcome: .succeeded, startedAt: Self.y2099, finishedAt: Self.y2099, approval: "notRequired", message: "")
    }
    let document = WorkspaceExport(
      exportedAt: now, generator: "dolphin test", workspace: AssistantWorkspace(receipts: file), quarantine: [])
    #expect {
      try engine.applyImport(document, source: "receipts.json")
    } throws: { error in
      "\(error)".contains(
        "receipts.json: workspace.receipts[0] (id \(sequentialID(10_000).uuidString)): startedAt is 2099-01-01T00:00:00.000Z, "
          + "in the future")
        && "\(error)".contains("a workspace keeps its newest 10000 receipts by date")
    }
    #expect(try store.read { tx in try tx.listReceipts() }.map(\.id) == [own.id])

    // The end alone ahead is refused too, naming finishedAt; a clamped receipt imports.
    var ends = document
    ends.workspace.receipts = [file[0]]
    ends.workspace.receipts[0].startedAt = now
    let refusals = KnowledgeEngine.importRefusals(of: ends, now: now)
    #expect(refusals.map(\.field) == ["finishedAt"] && refusals.first?.rule == .futureDate, "\(refusals)")
    #expect(refusals.first?.fixStatement?.hasPrefix(
      "UPDATE receipt SET started_at = min(started_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), finished_at = min(") == true)
    ends.workspace.receipts[0].finishedAt = now.addingTimeInterval(3_600)
    _ = try engine.applyImport(ends, source: "receipts.json")
    #expect(try store.read { tx in try tx.listReceipts() }.count == 2, "within a day of the clock is accepted")
  }

  @Test("a message or checkpoint dated 2099 is refused naming its createdAt, with a statement that dates it now")
  func messagesAndCheckpointsAheadOfTheClock() throws {
    let now = Date()
    let conversation = Conversation(id: sequentialID(1), title: "Plans", createdAt: now)
    let message = ChatMessage(id: sequentialID(2), conversationID: conversation.id, role: .user, text: "hi", createdAt: Self.y2099)
    let checkpoint = RunCheckpoint(id: sequentialID(3), runID: sequentialID(4), step: 0, state: "finished", createdAt: Self.y2099)
    let document = WorkspaceExport(
      exportedAt: now, generator: "dolphin test",
      workspace: AssistantWorkspace(conversations: [conversation], messages: [message], checkpoints: [checkpoint]),
      quarantine: [])
    let refusals = KnowledgeEngine.importRefusals(of: document, now: now)
    #expect(refusals.map(\.recordPath) == ["workspace.messages[0]", "workspace.checkpoints[0]"], "\(refusals)")
    #expect(refusals.allSatisfy { $0.rule == .futureDate && $0.field == "createdAt" })
    #expect(refusals.map { $0.fixStatement?.components(separatedBy: " SET ").first } == ["UPDATE message", "UPDATE checkpoint"])
    #expect(refusals.first?.problem.contains("a workspace keeps its newest 10000 messages by date") == true)
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    #expect(throws: WorkspaceError.self) { try engine.applyImport(document, source: "chat.json") }
    #expect(try engine.store.read { tx in try tx.listMessages() }.isEmpty)
  }
}
