import ContinuityKit
import Foundation

/// What ``KnowledgeEngine/setKnowledgeItemLimit(_:)`` did.
public struct SettingsUpdate: Sendable, Equatable, Codable {
  /// The settings as stored after the call.
  public var settings: Settings
  /// The settings the call changed; empty when the value asked for was already stored (then
  /// nothing was written).
  public var changes: [SettingChange]
  /// How many knowledge items the workspace holds (the lowest `knowledgeItemLimit` it accepts).
  public var knowledgeItems: Int

  /// Makes an update's outcome.
  public init(settings: Settings, changes: [SettingChange], knowledgeItems: Int) {
    self.settings = settings
    self.changes = changes
    self.knowledgeItems = knowledgeItems
  }
}

/// The workspace's settings, as `dolphin settings show` lists them.
public struct SettingsReport: Sendable, Equatable, Codable {
  /// The settings (the defaults when none were stored).
  public var settings: Settings
  /// The names of the settings ``KnowledgeEngine/setKnowledgeItemLimit(_:)`` changes
  /// (``SettingsEntry/settableNames``); the others are the Dolphin app's.
  public var settable: [String]
  /// How many knowledge items the workspace holds (the lowest `knowledgeItemLimit` it accepts).
  public var knowledgeItems: Int

  /// Makes a report.
  public init(settings: Settings, settable: [String] = SettingsEntry.settableNames, knowledgeItems: Int) {
    self.settings = settings
    self.settable = settable
    self.knowledgeItems = knowledgeItems
  }

  /// Every setting by name with its value, in the order of ``Settings``'s fields.
  public var entries: [SettingsEntry] { SettingsEntry.entries(settings) }
}

extension KnowledgeEngine {
  /// The workspace's settings (the defaults when none were stored) and the knowledge items it
  /// holds. Reads only.
  /// - Throws: ``WorkspaceError`` from the store (`.damaged` for settings that are not JSON).
  public func settingsReport() throws -> SettingsReport {
    try store.read { tx in SettingsReport(settings: try tx.settings(), knowledgeItems: try tx.knowledgeCount()) }
  }

  /// Sets how many knowledge items the workspace may hold (``Settings/knowledgeItemLimit``),
  /// in one transaction that also counts the items held, so that no capture can slip in
  /// between the check and the write. The other settings are kept as they are. Nothing is
  /// written when the limit is already `limit`: that is found by reading first, so a store
  /// that creates its workspace at its first write (``SQLiteWorkspaceStore/Creation/atFirstWrite``)
  /// creates none for a value already in effect. Like every direct command-line write, it
  /// leaves no activity receipt (receipts record agent and MCP tool calls).
  /// - Parameter limit: 1…``Limits/knowledgeItemsMaximum`` (100,000), and no lower than the
  ///   number of knowledge items the workspace holds.
  /// - Returns: the settings as stored and the change made.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming `knowledgeItemLimit`, with the bound
  ///   broken as its `limit` and `limit` as its `actual`, when `limit` is outside
  ///   1…100,000 or below the items held; ``WorkspaceError/readOnly(file:reason:)`` for a
  ///   workspace opened read-only; other storage errors.
  public func setKnowledgeItemLimit(_ limit: Int) throws -> SettingsUpdate {
    try Self.requireKnowledgeItemLimitInRange(limit)
    let current = try store.read { tx in (settings: try tx.settings(), held: try tx.knowledgeCount()) }
    if current.settings.knowledgeItemLimit == limit, limit >= current.held {
      return SettingsUpdate(settings: current.settings, changes: [], knowledgeItems: current.held)
    }
    return try store.write { tx in
      let held = try tx.knowledgeCount()
      guard limit >= held else {
        throw WorkspaceError.validation(
          ValidationError(
            field: "knowledgeItemLimit", limit: held, actual: limit,
            message: "knowledgeItemLimit \(limit) is below the \(held) knowledge items the workspace holds; "
              + "set it to at least \(held) (at most \(Limits.knowledgeItemsMaximum)), or delete items first "
              + "(`\(command: "dolphin knowledge delete ID")`). Nothing was changed"))
      }
      let before = try tx.settings()
      var after = before
      after.knowledgeItemLimit = limit
      let changes = SettingChange.changes(from: before, to: after)
      if !changes.isEmpty { try tx.setSettings(after) }
      return SettingsUpdate(settings: after, changes: changes, knowledgeItems: held)
    }
  }

  /// Refuses a `knowledgeItemLimit` outside 1…``Limits/knowledgeItemsMaximum``.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming `knowledgeItemLimit`, the maximum and
  ///   the value given.
  static func requireKnowledgeItemLimitInRange(_ limit: Int) throws(WorkspaceError) {
    guard (1...Limits.knowledgeItemsMaximum).contains(limit) else {
      throw .validation(
        ValidationError(
          field: "knowledgeItemLimit", limit: Limits.knowledgeItemsMaximum, actual: limit,
          message: "knowledgeItemLimit is \(limit); it must be between 1 and \(Limits.knowledgeItemsMaximum). "
            + "Nothing was changed"))
    }
  }
}
