import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Receipts are listed oldest first by the time their call started, whatever order concurrent
/// calls stored them in; calls that started in the same millisecond keep their storage order.
@Suite("Receipt order")
struct ReceiptOrderTests {
  static func receipt(_ n: Int, callID: String, startedAt: Date) -> ActivityReceipt {
    ActivityReceipt(
      id: sequentialID(500 + n), callID: callID, tool: "knowledge_capture", risk: "localWrite", arguments: "{}",
      outcome: .succeeded, startedAt: startedAt, finishedAt: startedAt.addingTimeInterval(0.01))
  }

  @Test("by start time, then storage order", arguments: StoreKind.allCases)
  func byStartTimeThenStorageOrder(_ kind: StoreKind) throws {
    let dir = TemporaryDirectory("receipts")
    defer { dir.remove() }
    let store = try kind.make(dir)
    // As two concurrent MCP calls leave them: the one that started later finished (and was
    // stored) first.
    let stored = [
      Self.receipt(1, callID: "started-488", startedAt: t0.addingTimeInterval(0.488)),
      Self.receipt(2, callID: "started-485", startedAt: t0.addingTimeInterval(0.485)),
      Self.receipt(3, callID: "tie-first", startedAt: t0.addingTimeInterval(0.490)),
      Self.receipt(4, callID: "tie-second", startedAt: t0.addingTimeInterval(0.490)),
      Self.receipt(5, callID: "earliest", startedAt: t0),
    ]
    try store.write { tx in for r in stored { try tx.insertReceipt(r) } }
    let listed = try store.read { tx in try tx.listReceipts() }
    #expect(listed.map(\.callID) == ["earliest", "started-485", "started-488", "tie-first", "tie-second"])
  }
}
