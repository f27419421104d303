import ContinuityKit
import Foundation
import Testing
import TestSupport

/// The stored text `doctor` reports as over a bound of this build.
@Suite("Text over bound report")
struct TextOverBoundReportTests {
  /// One letter carrying `marks` combining acute accents.
  static func heavy(_ marks: Int) -> String { "x" + String(repeating: "\u{301}", count: marks) }

  @Test("every bounded text field of every record type is checked as writers check it; one entry per record")
  func everyFieldChecked() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      for n in 1...4 { try tx.insertKnowledge(item(n)) }
      try tx.insertMemory(MemoryItem(id: sequentialID(10), text: "m", createdAt: t0))
      try tx.insertTask(TaskItem(id: sequentialID(20), title: "t", createdAt: t0))
      try tx.insertHandoff(Handoff(id: sequentialID(30), focus: "f", createdAt: t0))
      try tx.insertHandoff(Handoff(id: sequentialID(31), focus: "f", createdAt: t0))
      // As an earlier build or another program stored them.
      let edits: [(String, SQLValue, UUID)] = [
        ("UPDATE knowledge SET title = ? WHERE id = ?", .text(Self.heavy(3_000)), sequentialID(1)),  // 3,001 scalars
        ("UPDATE knowledge SET title = ? WHERE id = ?", .text(Self.heavy(2_999)), sequentialID(2)),  // 3,000: at the bound
        ("UPDATE knowledge SET content = ?, tags = '[\"ok\"]' WHERE id = ?", .text(String(repeating: "c", count: 16_001)), sequentialID(3)),
        ("UPDATE knowledge SET tags = ? WHERE id = ?", .text(#"["ok",""# + String(repeating: "t", count: 49) + #""]"#), sequentialID(4)),
        ("UPDATE memory SET tags = ? WHERE id = ?", .text(#"[""# + Self.heavy(600) + #""]"#), sequentialID(10)),
        ("UPDATE task SET notes = ? WHERE id = ?", .text(String(repeating: "n", count: 4_001)), sequentialID(20)),
        ("UPDATE task SET title = ? WHERE id = ?", .text(Self.heavy(3_000)), sequentialID(20)),
        ("UPDATE handoff SET recent_excerpts = ? WHERE id = ?", .text(#"["e",""# + String(repeating: "e", count: 501) + #""]"#), sequentialID(30)),
        // A list that is not JSON is the malformed-records check's to name, not this one's.
        ("UPDATE handoff SET next_steps = ? WHERE id = ?", .text("not json " + String(repeating: "s", count: 400)), sequentialID(31)),
      ]
      for (sql, value, id) in edits { try tx.db.run(sql, [value, .text(id.uuidString)]) }
    }
    let report = try store.read { tx in try tx.textOverBounds(limit: 10) }
    #expect(report.count == 6)
    #expect(report.countsByRecordType == ["knowledge": 3, "memory": 1, "task": 1, "handoff": 1])
    #expect(!report.truncated)
    let summary = report.records.map { "\($0.recordType) \($0.field) \($0.actual)/\($0.limit) \($0.unit)" }
    #expect(
      summary == [
        "knowledge title 3001/3000 Unicode scalars", "knowledge content 16001/16000 characters",
        "knowledge tags[1] 49/48 characters", "memory tags[0] 601/480 Unicode scalars",
        // The title is checked first, as validation does: its entry is the task's one.
        "task title 3001/3000 Unicode scalars", "handoff recentExcerpts[1] 501/500 characters",
      ], "\(summary)")
    #expect(report.records.map(\.id) == [1, 3, 4, 10, 20, 30].map { sequentialID($0).uuidString })
    #expect(report.records.last?.message == "recentExcerpts[1] is 501 characters; the limit is 500 characters")

    let cut = try store.read { tx in try tx.textOverBounds(limit: 2) }
    #expect(cut.count == 6 && cut.records.count == 2 && cut.truncated)
    #expect(try JSONDecoder().decode(TextOverBoundReport.self, from: JSONEncoder().encode(cut)) == cut)
  }

  @Test("a workspace within its bounds, even at them with the longest emoji, reports nothing")
  func withinBounds() throws {
    let kiss = "\u{1F469}\u{1F3FB}\u{200D}\u{2764}\u{FE0F}\u{200D}\u{1F48B}\u{200D}\u{1F468}\u{1F3FF}"
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(item(1, title: String(repeating: kiss, count: Limits.title), tags: [String(repeating: kiss, count: Limits.tagLength)]))
      try tx.insertHandoff(
        Handoff(id: sequentialID(2), focus: "f", nextSteps: [String(repeating: kiss, count: Limits.handoffNextStepLength)], createdAt: t0))
    }
    #expect(try store.read { tx in try tx.textOverBounds() } == TextOverBoundReport())
  }
}
