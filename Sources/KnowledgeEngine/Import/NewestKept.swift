import ContinuityKit
import Foundation

/// Which records of a kept collection (``KeptCollection``) stay when records from a file join
/// those the workspace stores: the newest, as the workspace keeps them. Shared by `import` and
/// the legacy migration, so that both keep the same records and report the same counts.
///
/// *Newest* is by date (a receipt's `startedAt`, the others' `createdAt`); at equal dates the
/// file's count as newer than the workspace's (they are stored after them), and within each side
/// the later in storage order (the workspace's) or write order (the file's) is newer.
struct NewestKept: Sendable, Equatable {
  /// The stored records to remove, oldest first: the workspace's records older than those kept.
  var prunedStored: [UUID] = []
  /// The file's records not to store, oldest first: older than those kept.
  var olderIncoming: [UUID] = []

  /// Decides which records stay.
  /// - Parameters:
  ///   - stored: the workspace's records as ``WorkspaceTransaction/retentionOrder(_:)`` gives
  ///     them (oldest first).
  ///   - incoming: the file's records to be stored, in the order they would be written.
  ///   - room: how many records the collection may hold once they are stored (its
  ///     ``KeptCollection/limit``, less one for a digest stored afterwards).
  ///   - sparing: ids that stay whatever their date (a stored record an import replaces keeps
  ///     its place).
  /// - Complexity: O(*n* log *n*) in `stored.count + incoming.count`.
  init(stored: [(id: UUID, date: Date)], incoming: [(id: UUID, date: Date)], room: Int, sparing: Set<UUID> = []) {
    var excess = stored.count + incoming.count - max(room, 0)
    guard excess > 0 else { return }
    struct Candidate {
      var id: UUID
      var date: Date
      var fromFile: Bool
      var position: Int
    }
    var candidates = stored.enumerated().map { Candidate(id: $1.id, date: $1.date, fromFile: false, position: $0) }
    candidates += incoming.enumerated().map { Candidate(id: $1.id, date: $1.date, fromFile: true, position: $0) }
    // Oldest first: date, then the workspace's before the file's, then storage order.
    candidates.sort { a, b in
      if a.date != b.date { return a.date < b.date }
      if a.fromFile != b.fromFile { return !a.fromFile }
      return a.position < b.position
    }
    for c in candidates where excess > 0 && !sparing.contains(c.id) {
      excess -= 1
      if c.fromFile { olderIncoming.append(c.id) } else { prunedStored.append(c.id) }
    }
  }
}
