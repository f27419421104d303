import ContinuityKit
import Foundation

/// An import split in two phases so that it holds the write lock only while it stores what it
/// prepared, and stays all or nothing.
///
/// An import used to run in one write transaction: for 20,000 knowledge items about 20 s of a
/// release build on a loaded machine (40 s on a busier one), so another process's capture
/// waiting behind it failed after the 15 s busy timeout. Now:
///
/// 1. ``stage(_:policy:expecting:in:)`` runs in a **read** transaction, which blocks no writer
///    (WAL mode), on a snapshot of the workspace: it classifies the records (new, same,
///    conflicting), checks references, `supersedes` cycles and capacities, refuses a plan that
///    differs from the one shown, and tokenizes the records the import will write into staged
///    search-index rows (``StagedIndexAddition``). The document was already checked and
///    sanitized (``PreparedImport``).
/// 2. ``install(in:engine:)`` runs in one **write** transaction on the same connection: when
///    the connection's change stamp moved since the snapshot (another connection, or this one,
///    committed meanwhile), it classifies and checks again against the workspace as it is now —
///    a few queries per record, no tokenizing — and refuses with
///    ``WorkspaceError/concurrentChange(operation:)`` when the plan or any record's status
///    changed, since the staged rows would then no longer be what to write; a reference or a
///    capacity that no longer holds fails as it would have before. Then it writes the records,
///    copies the staged index rows in under their keys, and stores the digest.
///
/// Nothing is written in phase 1 except the connection's temporary tables, and phase 2 is one
/// transaction: an error anywhere leaves the workspace as it was.
struct StagedImport: Sendable {
  /// The checked, sanitized document.
  let prepared: PreparedImport
  /// The classification against the snapshot.
  let analysis: ImportAnalysis
  /// The index rows of the records the import writes, knowledge then memories, in document order.
  let index: StagedIndexAddition
  /// The connection's change stamp at the end of staging, inside the snapshot it read.
  let stamp: ChangeStamp

  /// Phase 1: classifies and checks the import against `tx`'s snapshot and stages its index rows.
  /// - Parameters:
  ///   - expecting: the plan shown to the user (nil: no check).
  ///   - tx: a read (or write) transaction of the connection that will install it.
  /// - Throws: ``WorkspaceError/concurrentChange(operation:)`` when the plan differs from
  ///   `expecting`; ``WorkspaceError/validation(_:)`` for conflicts under
  ///   ``ImportConflictPolicy/refuse``, a missing reference, a cycle or a collection over its
  ///   limit; storage errors.
  static func stage(
    _ prepared: PreparedImport, policy: ImportConflictPolicy, expecting shown: ImportPlan?,
    in tx: WorkspaceTransaction
  ) throws -> StagedImport {
    let analysis = try ImportAnalysis(prepared, policy: policy, tx)
    if let shown, shown != analysis.plan { throw WorkspaceError.concurrentChange(operation: "import") }
    if policy == .refuse, analysis.plan.hasConflicts { throw KnowledgeEngine.conflictError(analysis.plan) }
    let index = try StagedIndexAddition.stage(analysis.documentsToIndex, in: tx)
    return StagedImport(prepared: prepared, analysis: analysis, index: index, stamp: try tx.changeStamp())
  }

  /// Phase 2: writes the import, after checking that the plan still holds.
  /// - Parameter tx: a write transaction of the connection that staged the import.
  /// - Throws: ``WorkspaceError/concurrentChange(operation:)`` when a record's status or the
  ///   plan changed since staging; ``WorkspaceError/validation(_:)`` when a reference or capacity
  ///   no longer holds;
  ///   storage errors. Nothing is written on error.
  func install(in tx: WorkspaceTransaction, engine: KnowledgeEngine) throws -> ImportReport {
    var analysis = self.analysis
    if try tx.changeStamp() != stamp {
      let now = try ImportAnalysis(prepared, policy: analysis.policy, tx)
      guard now.plan == analysis.plan, now.status == analysis.status else {
        throw WorkspaceError.concurrentChange(operation: "import")
      }
      analysis = now
    }
    return try analysis.apply(tx, engine: engine, index: index)
  }

  /// Drops the staging's temporary tables, if any.
  static func dropTables(_ db: SQLiteConnection) throws { try StagedIndexAddition.dropTables(db) }
}
