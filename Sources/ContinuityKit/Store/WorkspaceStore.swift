import Foundation

/// A workspace persistence backend: serialized read and write transactions over the schema-v5
/// records.
///
/// Every mutation runs inside one ``write(_:)`` call, which is one SQLite transaction: either
/// everything in the closure commits or nothing does (a thrown error rolls back).
public protocol WorkspaceStore: AnyObject, Sendable {
  /// Path of the database file, or `:memory:`.
  var databasePath: String { get }
  /// True when writes are refused (a newer schema, or opened read-only on request).
  var isReadOnly: Bool { get }

  /// Runs `body` in a read transaction (a consistent snapshot).
  /// - Throws: whatever `body` throws, or ``WorkspaceError/storage(file:code:message:)``.
  @discardableResult
  func read<T: Sendable>(_ body: (WorkspaceTransaction) throws -> T) throws -> T

  /// Runs `body` in a write transaction (`BEGIN IMMEDIATE` … `COMMIT`); rolls back when it
  /// throws.
  /// - Throws: ``WorkspaceError/readOnly(file:reason:)`` on a read-only store; whatever `body`
  ///   throws; storage errors.
  @discardableResult
  func write<T: Sendable>(_ body: (WorkspaceTransaction) throws -> T) throws -> T
}
