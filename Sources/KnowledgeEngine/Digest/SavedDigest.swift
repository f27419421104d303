import ContinuityKit
import Foundation

/// A digest just stored, and the oldest ones dropped to keep at most ``Limits/digestsKept``.
public struct SavedDigest: Sendable, Equatable {
  /// The stored digest.
  public var digest: Digest
  /// The digests removed to make room, oldest first; empty while fewer than
  /// ``Limits/digestsKept`` were held.
  public var droppedDigestIDs: [UUID]

  /// Makes a result.
  public init(digest: Digest, droppedDigestIDs: [UUID]) {
    self.digest = digest
    self.droppedDigestIDs = droppedDigestIDs
  }
}

extension KnowledgeEngine {
  /// ``saveDigest()``, also saying which digests were dropped to make room, so that a caller
  /// can tell the user (review 18-b, B14: the oldest digest vanished without a word).
  /// - Returns: the stored digest and the ids of the digests pruned in the same transaction.
  /// - Throws: ``WorkspaceError/readOnly(file:reason:)`` on a read-only store; storage errors.
  public func saveDigestReportingDropped() throws -> SavedDigest {
    try store.write { tx in
      let d = try DigestBuilder.build(tx, id: environment.makeID(), now: environment.now(), trigger: .manual)
      let dropped = try tx.insertDigest(d)
      return SavedDigest(digest: d, droppedDigestIDs: dropped.reversed())
    }
  }
}
