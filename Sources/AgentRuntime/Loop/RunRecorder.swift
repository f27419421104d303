import ContinuityKit
import Foundation
import KnowledgeEngine
import Synchronization

/// Where a run's own records go — its conversation, chat messages and run checkpoints: straight
/// to the store, or, on a workspace that does not exist yet, held until the run's outcome says
/// whether to keep them.
///
/// A run on a workspace that does not exist yet (``SQLiteWorkspaceStore/existsOnDisk`` is
/// false) must not create it just to record a read or a failure: when none of its writes
/// succeeds, there is nothing worth a new workspace, and a mistyped `--workspace` would otherwise
/// become one. So its records are held in memory. As soon as the workspace exists — a call of the
/// run created it (a write that succeeded) — what is held is written, in order, and
/// later records go straight to the store. ``finish(keeping:)`` ends the run: it writes what is
/// still held (creating the workspace) or drops it.
final class RunRecorder: Sendable {
  typealias Record = @Sendable (WorkspaceTransaction) throws -> Void

  private let store: any WorkspaceStore
  /// Records not written yet; nil once they go straight to the store.
  private let held: Mutex<[Record]?>

  /// A recorder that holds records while `store` is an SQLite workspace not created yet, and
  /// writes them through otherwise.
  init(store: any WorkspaceStore) {
    self.store = store
    let exists = (store as? SQLiteWorkspaceStore)?.existsOnDisk ?? true
    held = Mutex(exists ? nil : [])
  }

  /// Whether records are held (the workspace did not exist when the run started and no call
  /// has created it since).
  var isHolding: Bool { held.withLock { $0 != nil } }

  /// Writes `record` now, or holds it while the workspace does not exist yet; once it does,
  /// writes the held records first, in one transaction with this one.
  /// - Throws: the store's errors (the record, and what was held, are then not written).
  func record(_ record: @escaping Record) throws {
    try held.withLock { held in
      guard var pending = held else {
        try store.write { tx in try record(tx) }
        return
      }
      pending.append(record)
      guard (store as? SQLiteWorkspaceStore)?.existsOnDisk ?? true else {
        held = pending
        return
      }
      try write(pending)
      held = nil
    }
  }

  /// Ends the run: writes what is held, in one transaction (this creates the workspace), when
  /// `keeping`; otherwise drops it, so nothing of the run is stored.
  /// - Returns: whether the run's records are stored (true when nothing was held).
  /// - Throws: the store's errors.
  @discardableResult
  func finish(keeping: Bool) throws -> Bool {
    try held.withLock { held in
      guard let pending = held else { return true }
      guard keeping else { return false }
      try write(pending)
      held = nil
      return true
    }
  }

  private func write(_ records: [Record]) throws {
    try store.write { tx in
      for record in records { try record(tx) }
    }
  }
}
