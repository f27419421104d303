import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// A conversation's `updatedAt` says when it last changed: each message the session stores
/// moves it to that message's time.
@Suite("Assistant session conversation")
struct AssistantSessionConversationTests {
  @Test("each stored message bumps the conversation's updatedAt; createdAt stays")
  func messageBumpsUpdatedAt() async throws {
    let engine = makeEngine()
    let session = try AssistantSession(engine: engine)
    let opened = try #require(try engine.store.read { try $0.listConversations() }.first)
    #expect(opened.updatedAt == opened.createdAt)

    let first = try await session.ask("hello", approver: StaticApprovalPolicy.allow)
    let afterFirst = try #require(try engine.store.read { try $0.listConversations() }.first)
    #expect(afterFirst.createdAt == opened.createdAt)
    #expect(afterFirst.updatedAt == first.assistantMessage.createdAt)
    #expect(afterFirst.updatedAt > opened.updatedAt)

    let second = try await AssistantSession(engine: engine).ask("/context", approver: StaticApprovalPolicy.allow)
    let conversations = try engine.store.read { try $0.listConversations() }
    #expect(conversations.count == 1, "the session continues the conversation")
    #expect(conversations.first?.updatedAt == second.assistantMessage.createdAt)
  }
}
