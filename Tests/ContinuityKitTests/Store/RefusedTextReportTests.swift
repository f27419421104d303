import ContinuityKit
import Foundation
import Testing
import TestSupport

/// The stored values `doctor` reports because an import refuses them on a record it writes (a
/// NUL in text, a control character in a tag), and the fix each entry carries (review, s14).
@Suite("Refused text report")
struct RefusedTextReportTests {
  @Test("a NUL in text and in a JSON list, controls in tags: each named by table, id and field; each fix keeps the text")
  func reportAndFix() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(item(1))
      try tx.insertKnowledge(item(2))
      try tx.insertMemory(MemoryItem(id: sequentialID(10), text: "m", createdAt: t0))
      try tx.insertTask(TaskItem(id: sequentialID(20), title: "Rotate keys", createdAt: t0))
      try tx.insertHandoff(Handoff(id: sequentialID(30), focus: "f", summary: "Billing migration", createdAt: t0))
      // As another program stores them: a NUL beside a backslash written before `u0000` (text,
      // not a NUL, which the fix must keep), a tab and DEL in tags, a NUL escaped in a JSON list.
      // A NUL is put in by SQL, as sqlite3 puts it in (a bound text ends at its first NUL).
      let edits: [(String, SQLValue, UUID)] = [
        ("UPDATE knowledge SET title = ? || char(0) || 'x' WHERE id = ?", .text("C:\\u0000 path"), sequentialID(1)),
        ("UPDATE knowledge SET tags = ? WHERE id = ?", .text(#"["ops\tteam","Ok\u007f"]"#), sequentialID(2)),
        ("UPDATE memory SET tags = ? WHERE id = ?", .text("[\"db\u{85}a\"]"), sequentialID(10)),
        ("UPDATE task SET notes = 'Ask the ops' || char(0) || ' team' || char(0) || ? WHERE id = ?", .text("."), sequentialID(20)),
        ("UPDATE handoff SET next_steps = ? WHERE id = ?", .text(#"["Copy \\u0000 invoices","Check\u0000 totals"]"#), sequentialID(30)),
      ]
      for (sql, value, id) in edits { try tx.db.run(sql, [value, .text(id.uuidString)]) }
    }
    let report = try store.read { tx in try tx.refusedText() }
    let summary = report.records.map { "\($0.table) \($0.field)" }
    #expect(
      summary == ["knowledge title", "knowledge tags[0]", "memory tags[0]", "task notes", "handoff nextSteps[1]"],
      "\(summary)")
    #expect(report.count == 5 && !report.truncated)
    #expect(report.records.first?.problem == "title contains a NUL character (U+0000) at character 14; NUL is not text, remove it")
    #expect(report.records.first?.description.hasPrefix("knowledge \(sequentialID(1).uuidString): title contains") == true)

    try store.write { tx in
      for entry in report.records { try tx.db.run(entry.fixStatement, []) }
    }
    #expect(try store.read { tx in try tx.refusedText() } == RefusedTextReport())
    let (k1, k2, memory, task, handoff) = try store.read { tx in
      (try tx.knowledge(id: sequentialID(1)), try tx.knowledge(id: sequentialID(2)), try tx.memory(id: sequentialID(10)),
       try tx.task(id: sequentialID(20)), try tx.handoff(id: sequentialID(30)))
    }
    #expect(k1?.title == "C:\\u0000 pathx")
    #expect(k2?.tags == ["ops team", "ok"])
    #expect(memory?.tags == ["db a"])
    #expect(task?.notes == "Ask the ops team.")
    #expect(handoff?.nextSteps == ["Copy \\u0000 invoices", "Check totals"])
    #expect(try store.read { tx in try tx.malformedJSON() }.isEmpty)
  }

  @Test("a workspace that dolphin wrote reports nothing, and the report round-trips as JSON")
  func cleanWorkspace() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(item(1))
      try tx.insertTask(TaskItem(id: sequentialID(20), title: "Café £5 \\u0000 ©", createdAt: t0))
    }
    let report = try store.read { tx in try tx.refusedText() }
    #expect(report == RefusedTextReport())
    #expect(try JSONDecoder().decode(RefusedTextReport.self, from: JSONEncoder().encode(report)) == report)
  }
}
