import ContinuityKit
import Dispatch
import Foundation
import Testing
import TestSupport

/// A write that waits longer than the busy timeout for another connection's long write fails
/// as "busy", saying so and that nothing was written — not as a bare "database is locked".
@Suite("A write that outlasts the busy timeout", .serialized)
struct BusyWorkspaceTests {
  @Test("the waiting writer fails with .busy after its timeout; nothing of it is stored, the holder's write is")
  func busyWriter() throws {
    let dir = TemporaryDirectory("busy")
    defer { dir.remove() }
    let holder = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let waiter = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    waiter.setBusyTimeout(milliseconds: 300)
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      _ = try? holder.write { tx in
        _ = try tx.insertKnowledge(item(1))
        holding.signal()
        release.wait()
      }
      finished.signal()
    }
    holding.wait()
    let started = Date()
    let error = #expect(throws: WorkspaceError.self) {
      try waiter.write { tx in _ = try tx.insertKnowledge(item(2)) }
    }
    let waited = Date().timeIntervalSince(started)
    release.signal()
    finished.wait()

    #expect(error == .busy(file: waiter.databasePath, waitedMilliseconds: 300))
    #expect(waited >= 0.25, "it waited for its busy timeout first: \(waited) s")
    let message = error?.description ?? ""
    #expect(message.contains("held a long write for more than 300 ms"), "\(message)")
    #expect(message.contains("nothing was written. Try again"), "\(message)")
    #expect(!message.contains("database is locked"), "\(message)")
    let ids = try waiter.read { tx in try tx.listKnowledge().map(\.id) }
    #expect(ids == [item(1).id])
  }

  @Test("the message names the default wait in seconds")
  func defaultWait() {
    let error = WorkspaceError.busy(
      file: "/w/workspace.sqlite", waitedMilliseconds: Int(SQLiteWorkspaceStore.busyTimeoutMilliseconds))
    #expect(
      error.description
        == "/w/workspace.sqlite is busy: another process (another dolphin, e.g. rebuilding the search index or "
        + "importing) held a long write for more than 15 s, so this command gave up waiting; nothing was "
        + "written. Try again in a moment")
  }
}
