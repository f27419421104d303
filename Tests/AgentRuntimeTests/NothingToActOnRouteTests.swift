import AgentRuntime
import Testing

/// Review 29-b, 7: a message of only emoji (`👍`) was routed as "greeting or small talk" and
/// answered "No tool was run (greeting or small talk: no tool)", which says neither that there
/// was nothing to act on nor how to ask.
@Suite("A message without words")
struct NothingToActOnRouteTests {
  @Test(
    "only emoji, symbols or punctuation: no tool, and an answer saying there is nothing to act on and how to ask",
    arguments: ["👍", "👍🎉", "👋", "🤔 ?!", "❤️", "👨‍👩‍👧", "…", "?!", "→ ★"])
  func nothingToActOn(_ message: String) {
    let route = AgentRequestRouter().route(message)
    #expect(route.kind == .conversation && route.plan.isEmpty)
    #expect(!route.isMalformedCommand)
    #expect(route.reason == "no words to act on (only emoji, symbols or punctuation): no tool")
    #expect(route.answer == AgentRequestRouter.nothingToActOn)
    #expect(AgentRequestRouter.nothingToActOn.contains("Ask in words") && AgentRequestRouter.nothingToActOn.contains("/help"))
  }

  @Test("words beside emoji are still read: a greeting is small talk, anything else a search")
  func wordsBesideEmoji() {
    let hi = AgentRequestRouter().route("hi 👋")
    #expect(hi.reason == "greeting or small talk: no tool" && hi.answer == nil)
    let question = AgentRequestRouter().route("🤔 what did we decide about storage?")
    #expect(question.kind == .modelAssistedRead && question.plan.map(\.tool) == ["knowledge_search"])
    // A digit is a word: a keycap is searched for, not refused.
    #expect(AgentRequestRouter().route("1️⃣").kind == .modelAssistedRead)
  }
}
