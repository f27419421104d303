import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

@Suite("Saving a digest reports the ones dropped")
struct SavedDigestTests {
  // Review 18-b (B14): `context --save` at 50 digests dropped the oldest without a word.
  @Test("below the bound nothing is dropped; at it, the oldest is dropped and named")
  func dropsOldest() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite"))
    var saved: [SavedDigest] = []
    for _ in 0..<Limits.digestsKept { saved.append(try engine.saveDigestReportingDropped()) }
    #expect(saved.allSatisfy { $0.droppedDigestIDs.isEmpty })
    let next = try engine.saveDigestReportingDropped()
    #expect(next.droppedDigestIDs == [saved[0].digest.id])
    let held = try engine.listDigests().map(\.id)
    #expect(held.count == Limits.digestsKept)
    #expect(!held.contains(saved[0].digest.id) && held.contains(next.digest.id))
  }
}
