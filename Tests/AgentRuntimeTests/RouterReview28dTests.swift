import AgentRuntime
import ContinuityKit
import Testing

/// Review 28-d, 9 and review 28-c, 11: how the router reads a long free-text message and a
/// `/task` title of more than one line.
@Suite("Router: long free text cut between words, /task titles on one line")
struct RouterReview28dTests {
  /// Review 28-d, 9: `hello ` 2000 times was cut to 500 characters mid-word, and the search then
  /// reported the fragment `he` as a common word it did not search.
  @Test("a message past the query bound is searched by its start, cut between words, and the route says so")
  func longMessageCutBetweenWords() throws {
    let message = String(repeating: "hello ", count: 2_000)
    let route = AgentRequestRouter().route(message)
    #expect(route.kind == .modelAssistedRead)
    let query = try #require(route.plan.first?.arguments["query"]?.string)
    #expect(query.count <= Limits.query)
    #expect(query.split(separator: " ").allSatisfy { $0 == "hello" }, "\(query.suffix(20))")
    #expect(!query.contains("…") && !query.hasSuffix(" "))
    #expect(
      route.reason
        == "free text: read-only knowledge search for grounding, no writes; the message is 11999 characters, and only its first "
        + "\(query.count) are searched (a query is searched by its first 500, cut between words)")
    // A message within the bound is searched whole, and the route adds nothing.
    let short = AgentRequestRouter().route("Which storage engine did we pick for the workspace?")
    #expect(short.plan.first?.arguments["query"]?.string == "Which storage engine did we pick for the workspace?")
    #expect(short.reason == "free text: read-only knowledge search for grounding, no writes")
  }

  /// Review 28-c, 11 for `/task`: a second line was stored in the task's title.
  @Test("/task with a title of two lines is refused as /capture's is, with no tool", arguments: [
    "/task Buy milk\n/remember B", "/task add Ship it\nand tell the team", "/task Line one\u{2028}Line two",
  ])
  func multiLineTaskTitle(_ message: String) {
    let route = AgentRequestRouter().route(message)
    #expect(route.kind == .conversation && route.plan.isEmpty && route.isMalformedCommand)
    #expect(route.reason == "/task needs a title on one line (usage: /task [add] <title>): no tool", "\(route.reason)")
  }
}
