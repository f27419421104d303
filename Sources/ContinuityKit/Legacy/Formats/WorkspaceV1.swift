import Foundation

/// The app's first JSON workspace format (schema v1). **Frozen:** never edit a shipped format;
/// a change is a new version with its own type and migration step.
///
/// ```json
/// {
///   "conversations": [
///     { "id": "<UUID>", "title": "SwiftUI navigation",
///       "createdAt": "2025-01-06T09:14:03Z", "updatedAt": "2025-01-06T09:31:40Z",
///       "messages": [
///         { "id": "<UUID>", "role": "user", "text": "…", "createdAt": "2025-01-06T09:14:03Z" }
///       ] }
///   ],
///   "memories": [ { "id": "<UUID>", "text": "Prefers SwiftUI over UIKit",
///                   "createdAt": "2025-01-06T09:20:00Z" } ],
///   "settings": { "assistantName": "Dolphin", "responseStyle": "balanced",
///                 "calendarAccessEnabled": false }
/// }
/// ```
///
/// - `schemaVersion`: absent (version 1 files never wrote it); `1` or `"1"` is accepted.
/// - `conversations`, `memories`: required arrays. Messages are embedded in their
///   conversation, in display order; `role` is `user`, `assistant`, `system` or `tool`.
/// - `settings`: optional object; each of its fields is optional with the default
///   `assistantName` `"Dolphin"`, `responseStyle` `"balanced"` (or `concise`, `detailed`),
///   `calendarAccessEnabled` `false`.
/// - Dates are ISO-8601 strings (`Z` or `±hh:mm`, fractional seconds allowed); ids are UUIDs.
/// - Every other record field is required; a `null` optional field reads as missing.
struct WorkspaceV1: Sendable, Equatable {
  /// The top-level keys of a v1 file.
  static let topLevelKeys = ["schemaVersion", "conversations", "memories", "settings"]

  var conversations: [Conversation]
  var memories: [Memory]
  var settings: Settings

  /// A chat message's author.
  enum Role: String, Sendable, CaseIterable {
    case user, assistant, system, tool
  }

  /// One chat message, embedded in its conversation.
  struct Message: Sendable, Equatable {
    static let fields = ["id", "role", "text", "createdAt"]
    var id: UUID
    var role: Role
    var text: String
    var createdAt: Date
  }

  /// A conversation with its messages in display order.
  struct Conversation: Sendable, Equatable {
    static let fields = ["id", "title", "createdAt", "updatedAt", "messages"]
    var id: UUID
    var title: String
    var createdAt: Date
    var updatedAt: Date
    var messages: [Message]
  }

  /// A free-text memory (no tags before v4).
  struct Memory: Sendable, Equatable {
    static let fields = ["id", "text", "createdAt"]
    var id: UUID
    var text: String
    var createdAt: Date
  }

  /// How long the assistant's answers should be.
  enum ResponseStyle: String, Sendable, CaseIterable {
    case concise, balanced, detailed
  }

  /// User settings, with the documented defaults for missing fields.
  struct Settings: Sendable, Equatable {
    static let fields = ["assistantName", "responseStyle", "calendarAccessEnabled"]
    static let `default` = Settings(
      assistantName: "Dolphin", responseStyle: .balanced, calendarAccessEnabled: false)
    var assistantName: String
    var responseStyle: ResponseStyle
    var calendarAccessEnabled: Bool
  }
}
