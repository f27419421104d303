import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 29-a: stored text that is not UTF-8 went unflagged by doctor.
@Suite("Stored text that is not UTF-8")
struct InvalidUTF8TextTests {
  /// Byte strings, and how Swift reads them.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "a lone 0xFF", bytes: [0xFF, 0x41]),
    Case(name: "a sequence cut short at the end", bytes: [0x61, 0xE2, 0x82]),
    Case(name: "a sequence cut short in the middle", bytes: [0xE2, 0x82, 0x61, 0xE2, 0x82, 0xAC]),
    Case(name: "a stray continuation byte", bytes: [0x61, 0x80, 0x80, 0x62]),
    Case(name: "an overlong form", bytes: [0xC0, 0xAF, 0x41]),
    Case(name: "an encoded surrogate", bytes: [0xED, 0xA0, 0x80]),
    Case(name: "Latin-1", bytes: Array("caf".utf8) + [0xE9, 0x20, 0x6E, 0xE9]),
  ]

  @Test("the fix stores exactly the text dolphin reads: each ill-formed sequence as one U+FFFD", arguments: cases)
  func fixMatchesDecoding(_ c: Case) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(item(1))
      try tx.db.run("UPDATE knowledge SET title = CAST(? AS TEXT) WHERE id = ?", [.blob(c.bytes), .text(sequentialID(1).uuidString)])
    }
    let read = String(decoding: c.bytes, as: UTF8.self)
    let report = try store.read { tx in try tx.invalidUTF8Text() }
    #expect(report.count == 1)
    let entry = try #require(report.records.first)
    #expect(entry.table == "knowledge" && entry.id == sequentialID(1).uuidString && entry.field == "title")
    #expect(entry.invalidSequences == read.filter { $0 == "\u{FFFD}" }.count)
    // What every command reads: the title with U+FFFD, no crash.
    #expect(try store.read { tx in try tx.knowledge(id: sequentialID(1)) }?.title == read)
    let fix = try #require(entry.fixStatement)
    try store.write { tx in try tx.db.run(fix) }
    let stored = try store.read { tx in
      try tx.db.first("SELECT CAST(title AS BLOB) FROM knowledge") { $0.blob(0) }
    }
    #expect(stored == Array(read.utf8))
    #expect(try store.read { tx in try tx.invalidUTF8Text() }.count == 0)
  }

  @Test("every text column an export carries is checked, named by table, id and field; UTF-8 text is not")
  func columnsAndFields() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(item(1, title: "ünïcödé ✓", content: "日本語", tags: ["ok"]))
      try tx.insertKnowledge(item(2, tags: ["x"]))
      try tx.insertTask(TaskItem(id: sequentialID(10), title: "t", notes: "n", createdAt: t0))
      try tx.insertHandoff(Handoff(id: sequentialID(20), focus: "f", nextSteps: ["step"], createdAt: t0))
      try tx.insertQuarantine(.init(sourceFile: "w.json", collection: "memories", recordIndex: 0, reason: "r", raw: "{}", quarantinedAt: t0))
      try tx.setSettings(Settings(assistantName: "Dolphin"))
      let id = { (n: Int) in SQLValue.text(sequentialID(n).uuidString) }
      try tx.db.run("UPDATE knowledge SET tags = CAST(x'5b2278ff225d' AS TEXT) WHERE id = ?", [id(2)])
      try tx.db.run("UPDATE task SET notes = CAST(x'6e80' AS TEXT) WHERE id = ?", [id(10)])
      try tx.db.run("UPDATE handoff SET next_steps = CAST(x'5b2273ff225d' AS TEXT) WHERE id = ?", [id(20)])
      try tx.db.run("UPDATE quarantine SET raw = CAST(x'7bff7d' AS TEXT)")
      try tx.db.run("UPDATE meta SET value = CAST(replace(value, 'Dolphin', 'Dolph' || CAST(x'ff' AS TEXT)) AS TEXT) WHERE key = 'settings'")
    }
    let report = try store.read { tx in try tx.invalidUTF8Text() }
    #expect(report.records.map { "\($0.table) \($0.field) \($0.byteOffset)" } == [
      "knowledge tags 3", "task notes 1", "handoff nextSteps 3", "quarantine raw 1", "settings settings \(report.records.last?.byteOffset ?? -1)",
    ])
    #expect(report.count == 5 && !report.truncated)
    #expect(report.records[0].description == "knowledge \(sequentialID(2).uuidString): tags is not UTF-8: 1 ill-formed byte sequence(s) (the first at byte 3), each read as U+FFFD (�)")
    #expect(report.records[3].description.hasPrefix("quarantine row 1: raw is not UTF-8"))
    #expect(try store.read { tx in try tx.invalidUTF8Text(limit: 2) }.truncated)
    // The records still read, U+FFFD in place of the bytes.
    #expect(try store.read { tx in try tx.knowledge(id: sequentialID(2)) }?.tags == ["x\u{FFFD}"])
    // Each fix makes its value UTF-8 and leaves the others.
    let fixes = report.records.compactMap(\.fixStatement)
    #expect(fixes.count == 5)
    try store.write { tx in for fix in fixes { try tx.db.run(fix) } }
    #expect(try store.read { tx in try tx.invalidUTF8Text() } == InvalidUTF8Report())
    #expect(try store.read { tx in try tx.settings() }.assistantName == "Dolph\u{FFFD}")
  }

  @Test("a value with many ill-formed sequences (another encoding) is reported without a statement")
  func manySequences() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(item(1))
      let latin1 = [UInt8](repeating: 0xE9, count: WorkspaceTransaction.invalidUTF8FixSequences + 1)
      try tx.db.run("UPDATE knowledge SET content = CAST(? AS TEXT)", [.blob(latin1)])
    }
    let entry = try #require(try store.read { tx in try tx.invalidUTF8Text() }.records.first)
    #expect(entry.invalidSequences == WorkspaceTransaction.invalidUTF8FixSequences + 1)
    #expect(entry.fixStatement == nil)
  }
}
