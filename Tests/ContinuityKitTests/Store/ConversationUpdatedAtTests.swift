import ContinuityKit
import Foundation
import Testing
import TestSupport

/// A conversation's `updatedAt` follows its newest message when the message is added by
/// `appendMessage`, in the same transaction; `insertMessage` (imports, migrations) keeps the
/// conversation as given.
@Suite("Conversation updatedAt")
struct ConversationUpdatedAtTests {
  static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
  static let conversationID = sequentialID(1)

  static func store() throws -> SQLiteWorkspaceStore {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in try tx.insertConversation(Conversation(id: conversationID, title: "chat", createdAt: t0)) }
    return store
  }

  static func message(_ n: Int, at seconds: TimeInterval, in conversation: UUID = conversationID) -> ChatMessage {
    ChatMessage(id: sequentialID(100 + n), conversationID: conversation, role: .user, text: "m\(n)", createdAt: t0.addingTimeInterval(seconds))
  }

  static func conversation(_ store: SQLiteWorkspaceStore) throws -> Conversation {
    try #require(try store.read { try $0.listConversations() }.first)
  }

  @Test("appendMessage moves updatedAt to the message's time, never back; createdAt stays")
  func appendBumps() throws {
    let store = try Self.store()
    try store.write { tx in try tx.appendMessage(Self.message(1, at: 60)) }
    #expect(try Self.conversation(store).updatedAt == Self.t0.addingTimeInterval(60))
    #expect(try Self.conversation(store).createdAt == Self.t0)
    // A message stamped earlier (a clock set back) does not move it back.
    try store.write { tx in try tx.appendMessage(Self.message(2, at: 30)) }
    #expect(try Self.conversation(store).updatedAt == Self.t0.addingTimeInterval(60))
    #expect(try store.read { try $0.listMessages() }.count == 2)
  }

  @Test("insertMessage keeps the conversation as given")
  func insertKeeps() throws {
    let store = try Self.store()
    try store.write { tx in try tx.insertMessage(Self.message(1, at: 60)) }
    #expect(try Self.conversation(store).updatedAt == Self.t0)
  }

  @Test("appendMessage to an unknown conversation is refused and writes nothing")
  func unknownConversation() throws {
    let store = try Self.store()
    #expect(throws: WorkspaceError.notFound(recordType: "conversation", id: sequentialID(9).uuidString)) {
      try store.write { tx in try tx.appendMessage(Self.message(1, at: 60, in: sequentialID(9))) }
    }
    #expect(try store.read { try $0.listMessages() }.isEmpty)
  }
}
