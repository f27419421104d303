import AgentRuntime
import ContinuityKit
import Testing

struct RouteCase: CustomStringConvertible, Sendable {
  var input: String
  var kind: Route.Kind
  var tools: [String]
  var description: String { input.debugDescription }
  init(_ input: String, _ kind: Route.Kind, _ tools: [String] = []) {
    self.input = input
    self.kind = kind
    self.tools = tools
  }
}

let routeTable: [RouteCase] = [
  // Explicit commands: deterministic plans.
  RouteCase("/search sqlite wal", .deterministic, ["knowledge_search"]),
  RouteCase("/SEARCH Sqlite", .deterministic, ["knowledge_search"]),
  RouteCase("/capture decision: Use SQLite | WAL and single-row writes", .deterministic, ["knowledge_capture"]),
  RouteCase("/capture fact: Only a title", .deterministic, ["knowledge_capture"]),
  RouteCase("/remember I prefer tabs", .deterministic, ["memory_save"]),
  RouteCase("/context", .deterministic, ["project_context"]),
  RouteCase("/review", .deterministic, ["project_review"]),
  RouteCase("/insights", .deterministic, ["continuity_insights"]),
  RouteCase("/handoff Storage layer", .deterministic, ["handoff_create"]),
  RouteCase("/handoffs", .deterministic, ["handoff_list"]),
  RouteCase("/restore 3F2504E0-4F89-11D3-9A0C-0305E82C3301", .deterministic, ["handoff_restore"]),
  RouteCase("/analyze let x = y!", .deterministic, ["code_analyze"]),
  RouteCase("/tasks", .deterministic, ["task_list"]),
  RouteCase("/task Write the README", .deterministic, ["task_add"]),
  RouteCase("/done 3F2504E0-4F89-11D3-9A0C-0305E82C3301", .deterministic, ["task_complete"]),
  RouteCase("/reopen 3F2504E0-4F89-11D3-9A0C-0305E82C3301", .deterministic, ["task_reopen"]),
  RouteCase("/get 3F2504E0-4F89-11D3-9A0C-0305E82C3301", .deterministic, ["knowledge_get"]),
  // Collisions and malformed commands: no tool.
  RouteCase("/cap decision: x", .conversation),
  RouteCase("/captures decision: x", .conversation),
  RouteCase("/capturedecision: x", .conversation),
  RouteCase("/capture", .conversation),
  RouteCase("/capture decision", .conversation),
  RouteCase("/capture decision:   ", .conversation),
  RouteCase("/search", .conversation),
  RouteCase("/restore", .conversation),
  RouteCase("/delete 3F2504E0-4F89-11D3-9A0C-0305E82C3301", .conversation),
  RouteCase("/erase", .conversation),
  RouteCase("/", .conversation),
  // An argument that shows nothing is a missing one (review, s8/h5).
  RouteCase("/search \u{2800}", .conversation),
  RouteCase("/search \u{AD}", .conversation),
  RouteCase("/task \u{2800}", .conversation),
  RouteCase("/remember \u{AD}\u{AD}", .conversation),
  RouteCase("/handoff \u{3164}", .conversation),
  RouteCase("/capture fact: \u{2800} | body", .conversation),
  RouteCase("/search co\u{AD}op", .deterministic, ["knowledge_search"]),
  // Greetings, thanks and small talk in several languages: no tool.
  RouteCase("hi", .conversation), RouteCase("Hello!", .conversation), RouteCase("hey there", .conversation),
  RouteCase("Good morning", .conversation), RouteCase("thanks!", .conversation), RouteCase("Thank you very much.", .conversation),
  RouteCase("hallo", .conversation), RouteCase("Danke schön", .conversation), RouteCase("bonjour", .conversation),
  RouteCase("merci beaucoup", .conversation), RouteCase("¡hola", .conversation), RouteCase("gracias", .conversation),
  RouteCase("привет", .conversation), RouteCase("спасибо!", .conversation), RouteCase("こんにちは", .conversation),
  RouteCase("谢谢", .conversation), RouteCase("ok", .conversation), RouteCase("hi dolphin", .conversation),
  RouteCase("how are you?", .conversation), RouteCase("   ", .conversation), RouteCase("👋", .conversation),
  // Questions that look like commands: read-only at most.
  RouteCase("decided how to store the index?", .modelAssistedRead, ["knowledge_search"]),
  RouteCase("note that we use WAL?", .modelAssistedRead, ["knowledge_search"]),
  RouteCase("capture decision: use SQLite", .modelAssistedRead, ["knowledge_search"]),
  RouteCase("remember that I prefer tabs", .modelAssistedRead, ["knowledge_search"]),
  RouteCase("restore the last handoff", .modelAssistedRead, ["knowledge_search"]),
  RouteCase("delete everything about sqlite", .modelAssistedRead, ["knowledge_search"]),
  RouteCase("complete the README task", .modelAssistedRead, ["knowledge_search"]),
  RouteCase("analyze this code: let x = y!", .modelAssistedRead, ["knowledge_search"]),
  RouteCase("What did we decide about storage?", .modelAssistedRead, ["knowledge_search"]),
  RouteCase("hello, what did we decide about storage?", .modelAssistedRead, ["knowledge_search"]),
]

@Suite("AgentRequestRouter")
struct RouterTests {
  @Test("routes each input as expected", arguments: routeTable)
  func routes(_ c: RouteCase) {
    let r = AgentRequestRouter().route(c.input)
    #expect(r.kind == c.kind, "\(r.reason)")
    #expect(r.plan.map(\.tool) == c.tools)
    // Only a `/command` that cannot run is malformed; small talk and free text are not.
    let slash = c.input.trimmingCharacters(in: .whitespaces).hasPrefix("/")
    #expect(r.isMalformedCommand == (slash && r.plan.isEmpty), "\(c.input): \(r.reason)")
  }

  @Test("the table has at least 40 inputs")
  func tableSize() { #expect(routeTable.count >= 40) }

  @Test("no non-command input plans a write, restore, deletion, analysis or task change")
  func nonCommandsOnlyRead() {
    let forbidden: Set<String> = ["knowledge_capture", "memory_save", "handoff_create", "handoff_restore", "handoff_deactivate", "code_analyze", "task_add", "task_complete", "task_reopen"]
    for c in routeTable where !c.input.hasPrefix("/") {
      let r = AgentRequestRouter().route(c.input)
      #expect(r.plan.allSatisfy { !forbidden.contains($0.tool) }, "\(c.input)")
      #expect(r.kind != .deterministic)
    }
  }

  @Test("unknown commands suggest the nearest one")
  func suggestion() {
    #expect(
      AgentRequestRouter().route("/serch x").reason
        == "unknown command /serch: no tool; did you mean /search? \(AgentRequestRouter.commandNames)")
  }

  /// A mistyped command and what its route and refusal say.
  struct Mistyped: CustomTestStringConvertible, Sendable {
    var message: String
    var reason: String
    var problem: String
    var testDescription: String { message }
  }

  @Test(
    "a suggestion ends the reason as a question, as the CLI's do: never '?:' (no '?' then more of the sentence)",
    arguments: [
      Mistyped(
        message: "/serch x", reason: "unknown command /serch: no tool; did you mean /search? \(AgentRequestRouter.commandNames)",
        problem: "unknown command /serch; did you mean /search? \(AgentRequestRouter.commandNames)"),
      Mistyped(
        message: "/Handof launch", reason: "unknown command /Handof: no tool; did you mean /handoff? \(AgentRequestRouter.commandNames)",
        problem: "unknown command /Handof; did you mean /handoff? \(AgentRequestRouter.commandNames)"),
      Mistyped(message: "/zzzzzz", reason: "unknown command /zzzzzz: no tool \(AgentRequestRouter.commandNames)", problem: "unknown command /zzzzzz \(AgentRequestRouter.commandNames)"),
    ])
  func suggestionReadsAsASentence(_ c: Mistyped) {
    let route = AgentRequestRouter().route(c.message)
    #expect(route.reason == c.reason)
    #expect(route.commandProblem == c.problem)
    #expect(!route.reason.contains("?:"))
    #expect(route.kind == .conversation && route.plan.isEmpty && route.isMalformedCommand)
  }

  // Review 18-b (B13): `/help` was an unknown command, and `/task add Buy milk` made a task
  // titled "add Buy milk".
  @Test("/help answers with every command's usage and runs nothing")
  func help() {
    let route = AgentRequestRouter().route("/help")
    #expect(route.kind == .conversation && route.plan.isEmpty && !route.isMalformedCommand)
    let answer = route.answer ?? ""
    for (_, usage) in AgentRequestRouter.commands { #expect(answer.contains("  \(usage)\n") || answer.contains("  \(usage)")) }
    #expect(answer.contains("/task [add] <title>"))
    #expect(AgentRequestRouter().route("hello").answer == nil)
  }

  @Test("/task add X is the task X, as `dolphin task add X` is; a title that starts with another word is kept whole")
  func taskAdd() {
    func title(_ message: String) -> JSONValue? {
      guard case .object(let args)? = AgentRequestRouter().route(message).plan.first?.arguments else { return nil }
      return args["title"]
    }
    #expect(title("/task add Buy milk") == "Buy milk")
    #expect(title("/task add  Buy milk") == "Buy milk")
    #expect(title("/task Buy milk") == "Buy milk")
    #expect(title("/task Add tests for the parser") == "Add tests for the parser")
    #expect(title("/task address the review") == "address the review")
    #expect(AgentRequestRouter().route("/task add").commandProblem == "/task needs a title (usage: /task [add] <title>)")
    #expect(AgentRequestRouter().route("/task add \u{2800}").isMalformedCommand)
  }

  @Test("a capture command carries kind, title and content exactly")
  func captureArguments() {
    let r = AgentRequestRouter().route("/capture decision: Use SQLite | WAL and single-row writes")
    #expect(r.plan.first?.arguments == .object(["kind": "decision", "title": "Use SQLite", "content": "WAL and single-row writes"]))
  }
}
