import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 29-a, 8: one record another program left unreadable made every export fail.
@Suite("Salvaged snapshot: records that cannot be decoded are carried as stored")
struct SalvagedSnapshotTests {
  /// A store holding a readable and an unreadable record in every table an export carries, the
  /// unreadable ones edited behind the store's back as the `sqlite3` shell would.
  static func damagedStore() throws -> SQLiteWorkspaceStore {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(item(1, title: "readable"))
      try tx.insertKnowledge(item(2, title: "unknown kind"))
      try tx.insertKnowledge(item(3, title: "bad relationship", relationships: [.init(kind: .relatesTo, targetID: sequentialID(1))]))
      try tx.insertMemory(MemoryItem(id: sequentialID(30), text: "kept memory", createdAt: t0))
      try tx.insertMemory(MemoryItem(id: sequentialID(31), text: "bad date", createdAt: t0))
      try tx.insertTask(TaskItem(id: sequentialID(10), title: "kept task", createdAt: t0))
      try tx.insertTask(TaskItem(id: sequentialID(11), title: "bad list", createdAt: t0))
      try tx.insertHandoff(Handoff(id: sequentialID(20), focus: "kept handoff", createdAt: t0))
      try tx.insertHandoff(Handoff(id: sequentialID(21), focus: "bad steps", createdAt: t0))
      try tx.insertConversation(Conversation(id: sequentialID(40), title: "kept", createdAt: t0))
      try tx.insertConversation(Conversation(id: sequentialID(41), title: "bad id", createdAt: t0))
      try tx.insertMessage(ChatMessage(id: sequentialID(50), conversationID: sequentialID(40), role: .user, text: "hi", createdAt: t0))
      try tx.insertMessage(ChatMessage(id: sequentialID(51), conversationID: sequentialID(40), role: .user, text: "robot", createdAt: t0))
      for n in [60, 61] {
        try tx.insertReceipt(
          ActivityReceipt(
            id: sequentialID(n), callID: "c\(n)", tool: "knowledge_search", risk: "readOnly", arguments: "{}",
            outcome: .succeeded, startedAt: t0, finishedAt: t0))
      }
      try tx.insertCheckpoint(RunCheckpoint(id: sequentialID(70), runID: sequentialID(79), step: 0, state: "s", createdAt: t0))
      try tx.insertCheckpoint(RunCheckpoint(id: sequentialID(71), runID: sequentialID(79), step: 1, state: "s", createdAt: t0))
      for n in 0..<2 {
        try tx.insertQuarantine(
          .init(sourceFile: "w.json", collection: "memories", recordIndex: n, reason: "r", raw: "{}", quarantinedAt: t0))
      }
      try tx.setSettings(Settings(assistantName: "Flipper"))
      let id = { (n: Int) in sequentialID(n).uuidString }
      try tx.db.run("UPDATE knowledge SET kind = 'hypothesis' WHERE id = ?", [.text(id(2))])
      try tx.db.run("UPDATE knowledge_relationship SET kind = 'bogus' WHERE source_id = ?", [.text(id(3))])
      try tx.db.run("UPDATE memory SET created_at = 'yesterday' WHERE id = ?", [.text(id(31))])
      try tx.db.run("UPDATE task SET knowledge_ids = 'oops' WHERE id = ?", [.text(id(11))])
      try tx.db.run("UPDATE handoff SET next_steps = '{' WHERE id = ?", [.text(id(21))])
      try tx.db.run("UPDATE conversation SET id = 'not-a-uuid' WHERE id = ?", [.text(id(41))])
      try tx.db.run("UPDATE message SET role = 'robot' WHERE id = ?", [.text(id(51))])
      try tx.db.run("UPDATE receipt SET changed_ids = 'x' WHERE id = ?", [.text(id(61))])
      try tx.db.run("UPDATE checkpoint SET run_id = 'nope' WHERE id = ?", [.text(id(71))])
      try tx.db.run("UPDATE quarantine SET quarantined_at = 'never' WHERE record_index = 1")
      try tx.db.run("UPDATE meta SET value = '{bad' WHERE key = 'settings'")
    }
    return store
  }

  @Test("every readable record is read; each unreadable one is returned as stored, by table, id and column")
  func salvage() throws {
    let store = try Self.damagedStore()
    // What an export read before: the first unreadable record stopped it.
    #expect(throws: WorkspaceError.self) { try store.read { tx in try tx.snapshot() } }
    let (ws, quarantine, unreadable) = try store.read { tx in try tx.salvagedSnapshot() }
    #expect(ws.knowledge.map(\.title) == ["readable"])
    #expect(ws.memories.map(\.text) == ["kept memory"])
    #expect(ws.tasks.map(\.title) == ["kept task"])
    #expect(ws.handoffs.map(\.focus) == ["kept handoff"])
    #expect(ws.conversations.map(\.title) == ["kept"])
    #expect(ws.messages.map(\.text) == ["hi"])
    #expect(ws.receipts.map(\.callID) == ["c60"])
    #expect(ws.checkpoints.map(\.step) == [0])
    #expect(quarantine.map(\.recordIndex) == [0])
    #expect(ws.settings == .default, "unreadable settings give the defaults")

    let id = { (n: Int) in sequentialID(n).uuidString }
    #expect(unreadable.map { "\($0.table) \($0.collection) \($0.id)" } == [
      "knowledge knowledge \(id(2))", "knowledge knowledge \(id(3))", "memory memories \(id(31))", "task tasks \(id(11))",
      "handoff handoffs \(id(21))", "conversation conversations not-a-uuid", "message messages \(id(51))",
      "receipt receipts \(id(61))", "checkpoint checkpoints \(id(71))", "quarantine quarantine 2", "meta settings settings",
    ])
    let byID = Dictionary(uniqueKeysWithValues: unreadable.map { ($0.id, $0) })
    let kind = try #require(byID[id(2)])
    #expect(kind.columns["kind"] == "hypothesis")
    #expect(kind.columns["title"] == "unknown kind")
    #expect(kind.columns["content"] == "body")
    #expect(kind.reason.contains("knowledge.kind holds an unknown value \"hypothesis\""), "\(kind.reason)")
    let relationship = try #require(byID[id(3)]?.columns["relationships"] ?? nil)
    #expect(relationship == #"[{"kind":"bogus","targetID":"\#(id(1))","ordinal":0}]"#)
    #expect(byID[id(11)]?.columns["knowledge_ids"] == "oops")
    #expect(byID[id(21)]?.columns["next_steps"] == "{")
    #expect(byID["not-a-uuid"]?.columns["title"] == "bad id")
    #expect(byID[id(71)]?.columns["run_id"] == "nope")
    #expect(kind.columns.keys.contains("memory_id"))
    #expect(kind.columns["memory_id"] == .some(nil), "NULL is kept as null")
    #expect(byID["2"]?.columns["quarantined_at"] == "never")
    #expect(byID["settings"]?.columns["value"] == "{bad")
  }

  @Test("a sound workspace salvages to exactly its snapshot, with nothing unreadable")
  func soundWorkspace() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(item(1, tags: ["a"], relationships: []))
      try tx.insertKnowledge(item(2, relationships: [.init(kind: .supersedes, targetID: sequentialID(1))]))
      try tx.insertTask(TaskItem(id: sequentialID(10), title: "t", createdAt: t0, knowledgeIDs: [sequentialID(1)]))
    }
    let salvaged = try store.read { tx in try tx.salvagedSnapshot() }
    #expect(salvaged.workspace == (try store.read { tx in try tx.snapshot() }))
    #expect(salvaged.unreadable.isEmpty)
  }

  @Test("an export document carries the unreadable records, and leaves the key out when there are none")
  func documentShape() throws {
    let record = WorkspaceExport.UnreadableRecord(
      table: "task", collection: "tasks", id: "X", reason: "why", columns: ["title": "t", "completed_at": nil])
    let document = WorkspaceExport(
      exportedAt: t0, generator: "test", workspace: AssistantWorkspace(), quarantine: [], unreadable: [record])
    let data = try document.jsonData()
    #expect(String(decoding: data, as: UTF8.self).contains(#""completed_at" : null"#))
    #expect(try WorkspaceExport.decode(data, fileName: "e.json") == document)
    #expect(WorkspaceExport.unknownFields(in: data) == [], "the section is a field of the format")
    let sound = WorkspaceExport(exportedAt: t0, generator: "test", workspace: AssistantWorkspace(), quarantine: [])
    #expect(!String(decoding: try sound.jsonData(), as: UTF8.self).contains("unreadable"))
    // Kept aside by an import as a quarantine entry whose raw text is the record.
    let entry = record.quarantineEntry(sourceFile: "e.json", index: 3, exportedAt: t0, generator: "test")
    #expect(entry.collection == "tasks" && entry.recordIndex == 3 && entry.quarantinedAt == t0)
    #expect(entry.reason.hasSuffix(": why"), "\(entry.reason)")
    #expect(try StableJSON.decoder().decode(WorkspaceExport.UnreadableRecord.self, from: Data(entry.raw.utf8)) == record)
  }
}
