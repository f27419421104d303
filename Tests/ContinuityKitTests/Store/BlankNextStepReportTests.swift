import ContinuityKit
import Foundation
import Testing
import TestSupport

/// The stored next steps `doctor` reports as showing nothing.
@Suite("Blank next step report")
struct BlankNextStepReportTests {
  @Test("the report counts every blank step and lists at most `limit` handoffs, by id")
  func reportLimit() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      for n in [3, 1, 2] {
        try tx.insertHandoff(Handoff(id: sequentialID(n), focus: "Handoff \(n)", nextSteps: ["x"], createdAt: t0))
        try tx.db.run(
          "UPDATE handoff SET next_steps = ? WHERE id = ?",
          [.text(n == 2 ? #"["x"]"# : #"["", "x", "\u2800"]"#), .text(sequentialID(n).uuidString)])
      }
    }
    let report = try store.read { tx in try tx.blankNextSteps(limit: 1) }
    #expect(report == BlankNextStepReport(count: 4, handoffCount: 2, handoffs: [.init(handoffID: sequentialID(1).uuidString, positions: [1, 3])]))
    // The limit cut the list, and the report says so (in JSON too); with room for both, it does not.
    #expect(report.truncated)
    let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
    #expect(json["truncated"] as? Bool == true, "\(json)")
    let whole = try store.read { tx in try tx.blankNextSteps(limit: 2) }
    #expect(!whole.truncated && whole.handoffs.count == 2)
    #expect(try JSONDecoder().decode(BlankNextStepReport.self, from: JSONEncoder().encode(report)) == report)
  }
}
