import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

@Suite("Assistant session refusals")
struct AssistantSessionTests {
  /// A message `ask` refuses, and what the refusal says.
  struct Refusal: CustomStringConvertible, Sendable {
    var name: String
    var message: String
    var error: String
    var description: String { name }
  }

  static let refusals: [Refusal] = [
    Refusal(name: "an unknown command", message: "/captur decision: X", error: "unknown command /captur; did you mean /capture? \(AgentRequestRouter.commandNames)"),
    Refusal(
      name: "an incomplete command", message: "/capture decision:",
      error: "/capture needs a title (usage: /capture <kind>: <title> [| <content>])"),
    Refusal(
      name: "only control and invisible characters", message: "\u{1B}\u{7}\u{200B}",
      error: "message has nothing printable: all 3 character(s) given are control or invisible characters"),
    Refusal(
      name: "whitespace", message: " \n\t",
      error: "message has nothing printable: all 3 character(s) given are white space, and a value is required; nothing was run"),
    Refusal(name: "empty", message: "", error: "message must not be empty"),
    Refusal(
      name: "a credential", message: "note password=hunter22222",
      error:
        "message looks like it holds a credential (password or secret assignment at line 1, column 6); nothing was "
        + "stored or run: a chat message stays in the chat log and is copied into handoffs. Remove the secret"),
  ]

  @Test("a refused message is neither stored nor run: no message, receipt or checkpoint", arguments: refusals)
  func refusedMessageStoresNothing(_ c: Refusal) async throws {
    let engine = makeEngine()
    let session = try AssistantSession(engine: engine)
    let error = await #expect(throws: ValidationError.self) {
      _ = try await session.ask(c.message, approver: StaticApprovalPolicy.allow)
    }
    #expect(error?.field == "message")
    #expect(error?.message.hasPrefix(c.error) == true, "\(error?.message ?? "")")
    let counts = try engine.store.read { try $0.counts() }
    #expect(counts["message"] == 0, "\(counts)")
    #expect(counts["receipt"] == 0, "\(counts)")
    #expect(counts["checkpoint"] == 0, "\(counts)")
    #expect(counts["knowledge"] == 0, "\(counts)")
  }

  @Test("a well-formed command is still stored and run")
  func wellFormedCommandIsStored() async throws {
    let engine = makeEngine()
    let reply = try await AssistantSession(engine: engine).ask("/search storage", approver: StaticApprovalPolicy.allow)
    #expect(reply.run.route.commandProblem == nil)
    #expect(reply.run.receipts.map(\.tool) == ["knowledge_search"])
    #expect(try engine.store.read { try $0.counts() }["message"] == 2)
  }

  @Test("commandProblem is the malformed route's reason without its ': no tool'")
  func commandProblem() {
    let router = AgentRequestRouter()
    #expect(router.route("/unknown foo").commandProblem == "unknown command /unknown \(AgentRequestRouter.commandNames)")
    #expect(router.route("/get").commandProblem == "/get needs an id (usage: /get <uuid>)")
    #expect(router.route("hello").commandProblem == nil)
    #expect(router.route("/context").commandProblem == nil)
  }
}
