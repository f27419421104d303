import ContinuityKit
import Foundation

/// One workspace setting whose value a write changed, as `knowledgeItemLimit 10000 → 20000`.
///
/// Made by ``KnowledgeEngine/setKnowledgeItemLimit(_:)`` and carried by
/// ``ImportReport/settingsChanged`` for an import that adopted the file's settings.
public struct SettingChange: Sendable, Equatable, Codable, CustomStringConvertible {
  /// The setting's name, as the field of ``Settings`` (`knowledgeItemLimit`).
  public var name: String
  /// Its value before the write, typed: `10000`, `true`, `balanced`, or the assistant's name
  /// (in JSON a number, a boolean or a string).
  public var from: SettingValue
  /// Its value after the write (see ``from``).
  public var to: SettingValue

  /// Makes a change of `name` from `from` to `to`.
  public init(name: String, from: SettingValue, to: SettingValue) {
    self.name = name
    self.from = from
    self.to = to
  }

  /// `knowledgeItemLimit 10000 → 20000`; the assistant's name is quoted, on one line and cut
  /// at 60 characters, since it is free text.
  public var description: String {
    func shown(_ value: SettingValue) -> String {
      name == "assistantName" ? Limits.quoted(value.description, cutAt: 60) : value.description
    }
    return "\(name) \(shown(from)) → \(shown(to))"
  }

  /// The settings that differ between `old` and `new`, in the order of ``Settings``'s fields
  /// (`assistantName`, `responseStyle`, `calendarAccessEnabled`, `knowledgeItemLimit`); empty
  /// when they are equal.
  public static func changes(from old: Settings, to new: Settings) -> [SettingChange] {
    zip(SettingsEntry.entries(old), SettingsEntry.entries(new)).compactMap { before, after in
      before.value == after.value ? nil : SettingChange(name: before.name, from: before.value, to: after.value)
    }
  }
}

/// One setting of a workspace, by name, with its value.
public struct SettingsEntry: Sendable, Equatable, Codable {
  /// The setting's name, as the field of ``Settings`` (`knowledgeItemLimit`).
  public var name: String
  /// Its value, typed: `10000`, `true`, `balanced`, or the assistant's name.
  public var value: SettingValue
  /// Whether `dolphin settings set` (``KnowledgeEngine/setKnowledgeItemLimit(_:)``) changes it;
  /// the others are the Dolphin app's settings, which the command line shows and an import
  /// carries, but does not change.
  public var isSettable: Bool
  /// What the setting does and its bounds, for a listing: one clause, without a final period.
  public var summary: String

  /// The names of the settings `dolphin settings set` changes.
  public static let settableNames = ["knowledgeItemLimit"]

  /// Every setting of `settings`, in the order of ``Settings``'s fields.
  public static func entries(_ settings: Settings) -> [SettingsEntry] {
    [
      SettingsEntry(
        name: "assistantName", value: .text(settings.assistantName), isSettable: false,
        summary: "the assistant's display name in the Dolphin app, at most \(Limits.title) characters"),
      SettingsEntry(
        name: "responseStyle", value: .text(settings.responseStyle.rawValue), isSettable: false,
        summary: "how long the app's answers are: "
          + ResponseStyle.allCases.map(\.rawValue).joined(separator: ", ")),
      SettingsEntry(
        name: "calendarAccessEnabled", value: .boolean(settings.calendarAccessEnabled), isSettable: false,
        summary: "whether the app may read the calendar, on Apple platforms only"),
      SettingsEntry(
        name: "knowledgeItemLimit", value: .integer(settings.knowledgeItemLimit), isSettable: true,
        summary: "the most knowledge items the workspace holds: default \(Limits.knowledgeItemsDefault), "
          + "1…\(Limits.knowledgeItemsMaximum)"),
    ]
  }
}
