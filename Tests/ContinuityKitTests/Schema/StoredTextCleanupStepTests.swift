import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Schema step 0007 on a workspace stopped at step 0006: tags that show nothing (kept by 0006
/// before tags were judged by what they show) and handoff next steps that show nothing (stored
/// by earlier imports) are removed; nothing else changes.
@Suite("Stored text cleanup step (0007)", .serialized)
struct StoredTextCleanupStepTests {
  /// Next steps as an earlier import could store them: text around one step of each kind that
  /// shows nothing.
  static let storedSteps = [
    "Do this", "", "   ", "\u{2800}", "\u{AD}\u{AD}", "\u{200B}", "\u{FEFF}", "\u{7}", "\u{3164}", "Then that",
  ]
  static let handoffID = sequentialID(300)
  static let cleanHandoffID = sequentialID(301)

  /// A workspace as a build that had run step 0006, but not 0007, could leave it: tags that
  /// show nothing beside real ones, blank next steps, and a handoff and items already clean.
  static func workspaceStoppedAt0006(in ws: URL) throws {
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    try store.write { tx in
      for n in 1...3 { try tx.insertKnowledge(item(n, tags: ["kept"])) }
      _ = try tx.insertMemory(MemoryItem(id: sequentialID(50), text: "Remembered", tags: ["style"], createdAt: t0))
      _ = try tx.insertMemory(MemoryItem(id: sequentialID(51), text: "Clean memory", tags: ["clean"], createdAt: t0))
      try tx.insertHandoff(
        Handoff(id: handoffID, focus: "Blank steps", summary: "s", nextSteps: ["Do this"], createdAt: t0))
      try tx.insertHandoff(
        Handoff(id: cleanHandoffID, focus: "Clean", summary: "s", nextSteps: ["Only this"], createdAt: t0))
      // Written as step 0006 of its day left them: it kept tags of invisible characters.
      let tags = #"["\u2800","kept","\u00ad\u00ad","\u3164"]"#
      let rowID = try #require(try tx.knowledgeRowID(sequentialID(1)))
      try tx.db.run("UPDATE knowledge SET tags = ? WHERE rowid = ?", [.text(tags), .integer(rowID)])
      for tag in ["\u{2800}", "\u{AD}\u{AD}", "\u{3164}"] {
        try tx.db.run("INSERT INTO knowledge_tag(tag, knowledge_rowid) VALUES (?, ?)", [.text(tag), .integer(rowID)])
      }
      try tx.db.run("UPDATE memory SET tags = ? WHERE id = ?", [.text(#"["style","\u2800"]"#), .text(sequentialID(50).uuidString)])
      let steps = String(decoding: try JSONEncoder().encode(storedSteps), as: UTF8.self)
      try tx.db.run("UPDATE handoff SET next_steps = ? WHERE id = ?", [.text(steps), .text(handoffID.uuidString)])
      try tx.db.run("DELETE FROM schema_migration WHERE name = ?", [.text(StoredTextCleanupStep.name)])
    }
  }

  /// Every row of the tables the step may write, each column as SQL's `quote()` shows it:
  /// `table|rowid|'id'|…`, `knowledge_tag|'tag'|rowid`.
  static func rows(_ store: SQLiteWorkspaceStore) throws -> [String] {
    try store.read { tx in
      try ["knowledge", "memory", "handoff", "knowledge_tag"].flatMap { table in
        var columns = try tx.db.all("PRAGMA table_info(\(table))") { $0.text(1) }
        if table != "knowledge_tag" { columns = ["rowid"] + columns.filter { $0 != "rowid" } }
        let row = columns.map { "quote(\($0))" }.joined(separator: " || '|' || ")
        return try tx.db.all("SELECT '\(table)|' || \(row) FROM \(table) ORDER BY 1") { $0.text(0) }
      }
    }
  }

  @Test("from 0006: invisible-only tags and blank next steps go, everything else stays as stored")
  func upgradeFrom0006() throws {
    let dir = TemporaryDirectory("step0007")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try Self.workspaceStoppedAt0006(in: ws)

    // Read-only, the step is pending and not needed for reading: the records read as stored.
    let inspected = try SQLiteWorkspaceStore.open(directory: ws, readOnly: true)
    #expect(inspected.pendingMigrationSteps == [StoredTextCleanupStep.name])
    #expect(inspected.pendingMigrationStepsNeededForReading.isEmpty)
    let before = try inspected.read { tx in try tx.snapshot() }
    #expect(before.handoffs.first { $0.id == Self.handoffID }?.nextSteps == Self.storedSteps)
    #expect(try inspected.read { tx in try tx.blankNextSteps() }
      == BlankNextStepReport(count: 8, handoffCount: 1, handoffs: [.init(handoffID: Self.handoffID.uuidString, positions: Array(2...9))]))
    let rawBefore = try Self.rows(inspected)

    let store = try SQLiteWorkspaceStore.open(directory: ws)
    #expect(try store.appliedMigrations().contains(StoredTextCleanupStep.name))
    #expect(store.pendingMigrationSteps.isEmpty)
    let after = try store.read { tx in try tx.snapshot() }
    #expect(after.knowledge.map(\.tags) == [["kept"], ["kept"], ["kept"]])
    #expect(after.memories.map(\.tags) == [["style"], ["clean"]])
    #expect(after.handoffs.first { $0.id == Self.handoffID }?.nextSteps == ["Do this", "Then that"])
    #expect(try store.read { tx in try tx.blankNextSteps() } == BlankNextStepReport())
    // A change of form, not an edit: with tags and next steps as the step writes them, the
    // workspace is the one before (dates, revisions, other handoffs, everything).
    var expected = before
    expected.knowledge[0].tags = ["kept"]
    expected.memories[0].tags = ["style"]
    if let i = expected.handoffs.firstIndex(where: { $0.id == Self.handoffID }) {
      expected.handoffs[i].nextSteps = ["Do this", "Then that"]
    }
    #expect(after == expected)
    // Byte for byte, only the rewritten columns and tag rows differ.
    let rawAfter = try Self.rows(store)
    let changed = Set(rawBefore).symmetricDifference(rawAfter).sorted()
    let records = changed.filter { !$0.hasPrefix("knowledge_tag|") }.map { String($0.split(separator: "|")[2]) }
    let rewritten = [sequentialID(1), sequentialID(50), Self.handoffID].map { "'\($0.uuidString)'" }
    #expect(records.sorted() == (rewritten + rewritten).sorted(), "\(changed)")
    #expect(changed.filter { $0.hasPrefix("knowledge_tag|") }.count == 3, "\(changed)")  // the invisible tags' rows
    // The tag rows follow the items; the rewritten documents are listed for the search index.
    #expect(
      try store.read { tx in try tx.db.all("SELECT DISTINCT tag FROM knowledge_tag ORDER BY tag") { $0.text(0) } }
        == ["kept"])
    let stale = try store.read { tx in try tx.db.all("SELECT doc FROM lexical_stale ORDER BY doc") { $0.int64(0) } }
    let knowledgeRow = try store.read { tx in try tx.knowledgeRowID(sequentialID(1)) }
    let memoryRow = try store.read { tx in try tx.memoryRowID(sequentialID(50)) }
    #expect(stale == [-(memoryRow ?? 0), knowledgeRow ?? 0])
  }

  @Test("run again, the step changes nothing; reopening applies nothing twice")
  func idempotent() throws {
    let dir = TemporaryDirectory("step0007-again")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try Self.workspaceStoppedAt0006(in: ws)
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    let once = try Self.rows(store)
    let changes = try store.write { tx in try StoredTextCleanupStep.apply(tx.db) }
    #expect(changes == StoredTextCleanupStep.Changes())
    #expect(try Self.rows(store) == once)
    let reopened = try SQLiteWorkspaceStore.open(directory: ws)
    #expect(try reopened.appliedMigrations().filter { $0 == StoredTextCleanupStep.name }.count == 1)
    #expect(try Self.rows(reopened) == once)
  }

  @Test("a workspace already in today's form is left byte for byte as it was")
  func cleanWorkspaceUntouched() throws {
    let dir = TemporaryDirectory("step0007-clean")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let before: [String]
    do {
      let store = try SQLiteWorkspaceStore.open(directory: ws)
      try store.write { tx in
        try tx.insertKnowledge(item(1, tags: ["storage", "sqlite"]))
        _ = try tx.insertMemory(MemoryItem(id: sequentialID(50), text: "Saved", tags: ["style"], createdAt: t0))
        try tx.insertHandoff(Handoff(id: Self.handoffID, focus: "Clean", nextSteps: ["One", "Two"], createdAt: t0))
        try tx.db.run("DELETE FROM schema_migration WHERE name = ?", [.text(StoredTextCleanupStep.name)])
      }
      before = try Self.rows(store)
    }
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    #expect(try store.appliedMigrations().contains(StoredTextCleanupStep.name))
    #expect(try Self.rows(store) == before)
    #expect(try store.read { tx in try tx.db.integer("SELECT count(*) FROM lexical_stale") } == 0)
  }

  @Test("a workspace stopped at 0006 is still a dolphin workspace for every way of opening it")
  func recognized() throws {
    let dir = TemporaryDirectory("step0007-recognized")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try Self.workspaceStoppedAt0006(in: ws)
    for opening in WorkspaceRecognitionTests.openings.reversed() {  // read-only first: it applies nothing
      let store = try opening.open(ws)
      #expect(try store.read { tx in try tx.counts() }["handoff"] == 2, "\(opening.name)")
    }
    #expect(try SQLiteWorkspaceStore.open(directory: ws, readOnly: true).pendingMigrationSteps.isEmpty)
  }

  @Test("a list that is not a JSON list of strings is left for doctor to name, and stops nothing")
  func malformedNextStepsLeft() throws {
    let dir = TemporaryDirectory("step0007-malformed")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try Self.workspaceStoppedAt0006(in: ws)
    do {
      let store = try SQLiteWorkspaceStore.open(directory: ws, readOnly: false)
      try store.write { tx in
        try tx.db.run("UPDATE handoff SET next_steps = 'oops' WHERE id = ?", [.text(Self.cleanHandoffID.uuidString)])
        try tx.db.run("UPDATE handoff SET next_steps = '[\"\",\"x\"]' WHERE id = ?", [.text(Self.handoffID.uuidString)])
        try tx.db.run("DELETE FROM schema_migration WHERE name = ?", [.text(StoredTextCleanupStep.name)])
      }
      #expect(try store.read { tx in try tx.blankNextSteps() }.count == 1)
    }
    let store = try SQLiteWorkspaceStore.open(directory: ws)
    #expect(try store.appliedMigrations().contains(StoredTextCleanupStep.name))
    let stored = try store.read { tx in
      try tx.db.all("SELECT next_steps FROM handoff ORDER BY id") { $0.text(0) }
    }
    #expect(stored == [#"["x"]"#, "oops"])
  }
}
