import Foundation

/// A chat conversation (existing app data; survives every migration untouched).
public struct Conversation: Codable, Sendable, Equatable, Identifiable {
  public var id: UUID
  public var title: String
  public var createdAt: Date
  public var updatedAt: Date

  public init(id: UUID, title: String, createdAt: Date, updatedAt: Date? = nil) {
    self.id = id
    self.title = title
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }
}

/// Who wrote a chat message.
public enum ChatRole: String, Codable, Sendable, CaseIterable {
  case user
  case assistant
  case system
  case tool
}

/// One message of a conversation. At most 10,000 are kept; the oldest are pruned first.
public struct ChatMessage: Codable, Sendable, Equatable, Identifiable {
  public var id: UUID
  public var conversationID: UUID
  public var role: ChatRole
  public var text: String
  public var createdAt: Date

  public init(id: UUID, conversationID: UUID, role: ChatRole, text: String, createdAt: Date) {
    self.id = id
    self.conversationID = conversationID
    self.role = role
    self.text = text
    self.createdAt = createdAt
  }
}
