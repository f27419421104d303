import Foundation

/// How long the assistant's answers should be (legacy app setting).
public enum ResponseStyle: String, Codable, Sendable, CaseIterable {
  /// Short answers.
  case concise
  /// The default.
  case balanced
  /// Long answers.
  case detailed
}

/// User settings (existing app data, extended by schema v5).
public struct Settings: Codable, Sendable, Equatable {
  /// Display name of the assistant. Default `Dolphin`.
  public var assistantName: String
  /// How long the app's answers should be. Default ``ResponseStyle/balanced``.
  public var responseStyle: ResponseStyle
  /// Whether the calendar read adapter may be used (Apple platforms only).
  public var calendarAccessEnabled: Bool
  /// Maximum number of knowledge items; default 10,000, at most 100,000 (``Limits``).
  public var knowledgeItemLimit: Int

  /// Makes settings; every argument defaults to its documented default. `dolphin settings set
  /// knowledgeItemLimit N` changes the limit of a stored workspace
  /// (`KnowledgeEngine.setKnowledgeItemLimit(_:)`).
  public init(
    assistantName: String = "Dolphin", responseStyle: ResponseStyle = .balanced,
    calendarAccessEnabled: Bool = false, knowledgeItemLimit: Int = Limits.knowledgeItemsDefault
  ) {
    self.assistantName = assistantName
    self.responseStyle = responseStyle
    self.calendarAccessEnabled = calendarAccessEnabled
    self.knowledgeItemLimit = knowledgeItemLimit
  }

  /// The defaults: `Dolphin`, ``ResponseStyle/balanced``, no calendar access, 10,000 knowledge items.
  public static let `default` = Settings()
}
