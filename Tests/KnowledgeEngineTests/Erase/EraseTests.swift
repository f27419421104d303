import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Unique strings planted in each place text is stored; after an erase, every byte of every file
/// under the workspace directory is searched for them.
enum Canary {
  static let knowledgeTitle = "ZQXKNOWTITLE7"
  static let knowledgeBody = "ZQXKNOWBODY7"
  static let knowledgeTag = "zqxknowtag7"
  static let memory = "ZQXMEMORY7"
  static let task = "ZQXTASKNOTE7"
  static let handoff = "ZQXHANDOFF7"
  static let excerpt = "ZQXEXCERPT7"
  static let conversation = "ZQXCONVTITLE7"
  static let message = "ZQXMESSAGE7"
  static let receipt = "ZQXRECEIPT7"
  static let checkpoint = "ZQXCHECKPOINT7"
  static let digest = "ZQXDIGEST7"
  static let legacy = "ZQXLEGACY7"
  static let indexTerm = "zqxindexterm7"

  static let knowledge = [knowledgeTitle, knowledgeBody, knowledgeTag]
  static let all = knowledge + [
    memory, task, handoff, excerpt, conversation, message, receipt, checkpoint, digest, legacy, indexTerm,
  ]
}

/// Ids of what ``plant(in:)`` stored.
struct Planted {
  var knowledgeID: UUID
  var memoryID: UUID
}

/// Plants a canary in knowledge (title, content, tag), a memory (and its mirror), a task note,
/// a handoff focus and excerpt, a conversation title, a chat message, a receipt, a checkpoint, a
/// digest, a search-index term, and a legacy workspace.json (imported on first use, so it also
/// leaves a 0600 backup in legacy-backups/).
@discardableResult
func plant(in directory: URL) throws -> Planted {
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  let legacy = """
    {"conversations": [], "settings": {},
     "memories": [{"id": "9137C815-2F1D-4CBC-8BCB-6B7190F5DA42", "text": "\(Canary.legacy) legacy note", "createdAt": "2025-01-20T12:00:30Z"}]}
    """
  try Data(legacy.utf8).write(to: directory.appendingPathComponent("workspace.json"))
  let store = try SQLiteWorkspaceStore.open(directory: directory)
  let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
  _ = try engine.importLegacyWorkspaceIfPresent(in: directory)
  let k = try engine.capture(
    CaptureRequest(kind: .decision, title: "\(Canary.knowledgeTitle) decision", content: "\(Canary.knowledgeBody) body",
                   tags: [Canary.knowledgeTag])).item
  let m = try engine.saveMemory(text: "\(Canary.memory) memory").memory
  let t = try engine.addTask(title: "Plain task", notes: "\(Canary.task) notes", knowledgeIDs: [k.id])
  let t0 = SampleWorkspace.t0
  try store.write { tx in
    try tx.insertHandoff(
      Handoff(id: sequentialID(800), focus: "\(Canary.handoff) focus", knowledgeIDs: [k.id], taskIDs: [t.id],
              recentExcerpts: ["user: \(Canary.excerpt)"], createdAt: t0))
    try tx.setActiveHandoffID(sequentialID(800))
    try tx.insertConversation(Conversation(id: sequentialID(801), title: "\(Canary.conversation) chat", createdAt: t0))
    try tx.insertMessage(ChatMessage(id: sequentialID(802), conversationID: sequentialID(801), role: .user, text: "\(Canary.message) hi", createdAt: t0))
    try tx.insertReceipt(
      ActivityReceipt(id: sequentialID(803), callID: "c1", tool: "knowledge_search", risk: "readOnly", arguments: "{}",
                      outcome: .succeeded, startedAt: t0, finishedAt: t0, message: "\(Canary.receipt) ok"))
    try tx.insertCheckpoint(RunCheckpoint(id: sequentialID(804), runID: sequentialID(805), step: 1, state: "finished", note: "\(Canary.checkpoint) note", createdAt: t0))
    try tx.insertDigest(
      Digest(id: sequentialID(806), createdAt: t0, trigger: .manual,
             sections: DigestSections(questions: [DigestLine(text: "\(Canary.digest) open question", evidenceIDs: [])]),
             algorithm: "rule-based-digest", algorithmVersion: "1"))
    // A derived index row, as the lexical index writes them (the index itself is filled in elsewhere).
    try tx.db.run("INSERT INTO lexical_term(term, document_frequency) VALUES (?, 1)", [.text(Canary.indexTerm)])
    let termID = tx.db.lastInsertRowID
    try tx.db.run("INSERT INTO lexical_trigram(trigram, term_id) VALUES ('zqx', ?)", [.integer(termID)])
    // Its posting belongs to a document no partial erase touches.
    try tx.db.run(
      """
      INSERT INTO lexical_posting(term_id, doc, kind, title_length, tags_length, content_length,
        title_frequency, tags_frequency, content_frequency, positions) VALUES (?, 424242, 0, 1, 0, 0, 1, 0, 0, x'00')
      """, [.integer(termID)])
  }
  try store.checkpoint()
  return Planted(knowledgeID: k.id, memoryID: m.id)
}

/// Canaries found in the database files (`workspace.sqlite*`) and in any file.
func scan(_ directory: URL) -> (database: Set<String>, anywhere: Set<String>) {
  var database = Set<String>()
  var anywhere = Set<String>()
  for c in Canary.all {
    let files = filesContaining(c, under: directory)
    if !files.isEmpty { anywhere.insert(c) }
    if files.contains(where: { $0.hasPrefix("workspace.sqlite") }) { database.insert(c) }
  }
  return (database, anywhere)
}

@Suite("Verified erase", .serialized)
struct EraseTests {
  struct Case: CustomStringConvertible, Sendable {
    var target: String
    var steps: [String]
    /// Canaries that must be gone from the database files.
    var gone: [String]
    var files = 0
    var description: String { target }
  }

  static let cases: [Case] = [
    Case(
      target: "knowledge", steps: ["deleteKnowledge 2", "unlinkTasks 1", "unlinkHandoffs 1", "clearMemoryLinks 1"],
      gone: Canary.knowledge),
    Case(target: "memories", steps: ["deleteMemories 2", "deleteMirrors 1"], gone: [Canary.memory, Canary.legacy]),
    Case(target: "tasks", steps: ["deleteTasks 1", "unlinkHandoffs 1"], gone: [Canary.task]),
    Case(target: "handoffs", steps: ["deleteHandoffs 1", "clearActiveHandoff 1"], gone: [Canary.handoff, Canary.excerpt]),
    Case(target: "digests", steps: ["deleteDigests 2"], gone: [Canary.digest]),
    Case(
      target: "conversations", steps: ["deleteConversations 1", "deleteMessages 1", "scrubExcerpts 1"],
      gone: [Canary.conversation, Canary.message, Canary.excerpt]),
    Case(target: "activity", steps: ["deleteReceipts 1", "deleteCheckpoints 1"], gone: [Canary.receipt, Canary.checkpoint]),
    Case(
      target: "chatAndActivity", steps: ["deleteMessages 1", "scrubExcerpts 1", "deleteReceipts 1", "deleteCheckpoints 1"],
      gone: [Canary.message, Canary.excerpt, Canary.receipt, Canary.checkpoint]),
    Case(
      target: "all",
      steps: [
        "deleteKnowledge 2", "deleteMemories 2", "deleteTasks 1", "deleteHandoffs 1", "deleteDigests 2",
        "deleteConversations 1", "deleteMessages 1", "deleteReceipts 1", "deleteCheckpoints 1", "deleteLegacyImports 1",
        "clearActiveHandoff 1", "resetSettings 1", "clearSearchIndex 1",
      ],
      gone: Canary.all, files: 2),
  ]

  @Test("the plan lists every change; afterwards no erased canary is in any byte of the database files", arguments: cases)
  func eraseLeavesNoCanary(_ c: Case) throws {
    let dir = TemporaryDirectory("erase")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try plant(in: ws)
    let before = scan(ws)
    #expect(before.database == Set(Canary.all), "positive control: every canary is on disk before")
    let report: EraseReport
    do {
      let store = try SQLiteWorkspaceStore.open(directory: ws)
      let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
      let plan =
        c.target == "chatAndActivity"
        ? try engine.planClearChatAndActivity() : try engine.planErase(try #require(EraseScope(rawValue: c.target)))
      #expect(plan.steps.map { "\($0.action) \($0.count)" } == c.steps)
      #expect(plan.files.count == c.files)
      report = try engine.apply(plan)
    }  // the store is closed here, before the files are read
    #expect(report.verification.passed, "\(report.verification)")
    // Every step of the plan is reported, as records removed or as records kept but changed.
    #expect(report.removed.keys.allSatisfy { $0.hasPrefix("delete") })
    #expect(report.changed.keys.allSatisfy { !$0.hasPrefix("delete") })
    #expect(
      report.removed.merging(report.changed) { a, _ in a }
        == Dictionary(uniqueKeysWithValues: report.plan.steps.map { ($0.action, $0.count) }))
    #expect(report.verification.walBytes == 0)
    #expect(report.verification.freePages == 0)
    #expect(report.verification.idsChecked > 0 || c.target == "chatAndActivity" || c.target == "activity")
    let after = scan(ws)
    for canary in c.gone {
      #expect(!after.database.contains(canary), "\(canary) survived in \(filesContaining(canary, under: ws))")
    }
    // Everything the erase does not cover is still there (the scan does find what exists).
    let kept = Set(Canary.all).subtracting(c.gone)
    #expect(after.database == kept)
    if c.target == "all" {
      #expect(after.anywhere.isEmpty, "\(after.anywhere)")
      #expect(regularFiles(under: ws) == ["workspace.sqlite"])
      #expect(Set(report.removedFiles.map { URL(fileURLWithPath: $0).lastPathComponent }).contains("workspace.json"))
    } else {
      // Legacy backups are kept by partial erases, and reported when they hold erased records.
      #expect(regularFiles(under: ws).contains("workspace.json"))
      #expect(after.anywhere.contains(Canary.legacy))
      if c.target == "memories" { #expect(report.verification.retainedCopies.count == 2) }
    }
  }

  @Test("single-item deletions leave no text on disk (secure_delete and a WAL checkpoint)")
  func singleDeletionsLeaveNoCanary() throws {
    let dir = TemporaryDirectory("delete")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let planted = try plant(in: ws)
    do {
      let store = try SQLiteWorkspaceStore.open(directory: ws)
      let engine = KnowledgeEngine(store: store, environment: .live)
      // More rows around the canaries, so the deleted cells share pages with live ones.
      for i in 0..<40 {
        _ = try engine.capture(CaptureRequest(kind: .fact, title: "Filler \(i)", content: String(repeating: "filler ", count: 60)))
      }
      _ = try engine.apply(try engine.planDeletion(of: .knowledge(planted.knowledgeID)))
      _ = try engine.apply(try engine.planDeletion(of: .memory(planted.memoryID)))
    }
    let after = scan(ws)
    for canary in Canary.knowledge + [Canary.memory] {
      #expect(!after.anywhere.contains(canary), "\(canary) survived in \(filesContaining(canary, under: ws))")
    }
    #expect(after.database.contains(Canary.task), "positive control")
  }

  @Test("clear chat & run activity keeps conversations, handoffs and knowledge")
  func clearChatKeepsTheRest() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let sample = try SampleWorkspace.populate(engine)
    let report = try engine.apply(try engine.planClearChatAndActivity())
    #expect(report.removed == ["deleteMessages": 2, "deleteReceipts": 1, "deleteCheckpoints": 1])
    // The scrubbed handoff is kept: changed, not removed.
    #expect(report.changed == ["scrubExcerpts": 1])
    #expect(report.verification.idsChecked == report.removed.values.reduce(0, +))
    let ws = try store.read { try $0.snapshot() }
    #expect(ws.messages.isEmpty && ws.receipts.isEmpty && ws.checkpoints.isEmpty)
    #expect(ws.conversations.count == 1)
    var handoff = sample.handoff
    handoff.recentExcerpts = []
    #expect(ws.handoffs == [handoff])
    #expect(ws.knowledge.count == 5)
    #expect(report.verification.notes == ["in-memory workspace: there are no files to scan"])
  }

  @Test("an erase planned before the workspace changed is refused and changes nothing")
  func stalePlan() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    try SampleWorkspace.populate(engine)
    let plan = try engine.planErase(.knowledge)
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Added meanwhile"))
    let before = try store.read { try $0.snapshot() }
    #expect(throws: WorkspaceError.self) { try engine.apply(plan) }
    #expect(try store.read { try $0.snapshot() } == before)
  }
}
