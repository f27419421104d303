import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine

enum AgentCommands {
  static let all = [ask, tools, activity]

  /// `--model-url`, else `DOLPHIN_MODEL_URL`, validated as loopback-only.
  static func generator(_ ctx: CommandContext) throws -> (any ResponseGenerator)? {
    let env = ctx.console.environment.isEmpty ? ProcessInfo.processInfo.environment : ctx.console.environment
    guard let url = ctx.arguments.value("model-url") ?? env["DOLPHIN_MODEL_URL"], !url.isEmpty else { return nil }
    do {
      return try LoopbackChatGenerator(url: url, model: ctx.arguments.value("model") ?? env["DOLPHIN_MODEL"] ?? "local")
    } catch {
      throw CLIError.usage(error.description)
    }
  }

  static let ask = Command(
    spec: CommandSpec(
      path: ["ask"], summary: "Ask the assistant: commands run deterministic plans; free text only reads.",
      positionals: [("text", "A message, or a command such as /search WORDS, /capture decision: TITLE | BODY, /context, /handoff FOCUS, /restore ID.")],
      options: [
        OptionSpec(name: "model-url", value: "URL", help: "OpenAI-compatible server on loopback (or DOLPHIN_MODEL_URL); only 127.0.0.0/8, ::1, localhost."),
        OptionSpec(name: "model", value: "NAME", help: "Model name sent to the server (default local)."),
        OptionSpec(name: "receipts", value: nil, help: "Print the receipts of this run."),
      ],
      confirms: true,
      discussion: """
        Each local write (capture, handoff, restore, task changes) shows the exact call and asks [y/N] on a terminal;
        --yes approves the writes of this one invocation (for scripts). Greetings and small talk run no tool.
        Without a model the answer is the deterministic renderers' output, labeled as such.
        """),
    run: { ctx in
      // Refused messages and model URLs are refused before anything is stored (opening the
      // session stores its conversation, which would create a new workspace).
      try AssistantSession.validateMessage(ctx.arguments.positionals[0])
      let generator = try generator(ctx)
      let engine = try ctx.engine(.create)
      let session = try AssistantSession(engine: engine, generator: generator)
      let console = ctx.console
      let yes = ctx.arguments.has("yes")
      let interactive = console.isInteractive
      let approver = ClosureApprovalProvider { request in
        if yes { return .approved(by: "user:--yes") }
        guard interactive else { return .denied(reason: "approval needed: run in a terminal or pass --yes") }
        console.printError("Approve this local write?\n  \(inert(request.summary))\n[y/N] ")
        let answer = console.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return answer == "y" || answer == "yes" ? .approved(by: "user") : .denied(reason: "declined by the user")
      }
      let route = session.router.route(ctx.arguments.positionals[0])
      if !ctx.json {
        console.printError("route: \(route.kind.rawValue) — \(route.reason)")
        // Bounded as receipts are: a 14 KB /analyze argument is not echoed whole.
        for c in route.plan {
          console.printError("plan: \(c.tool) \(inert(Truncation.truncate(c.arguments.jsonString(sortedKeys: true), to: 300)))")
        }
      }
      let reply = try await session.ask(ctx.arguments.positionals[0], approver: approver)
      if ctx.json {
        struct Out: Encodable {
          var route: String; var reason: String; var answerSource: String; var answer: String
          var evidenceIDs: [UUID]; var receipts: [ActivityReceipt]
        }
        try console.printJSON(Out(route: reply.run.route.kind.rawValue, reason: reply.run.route.reason, answerSource: reply.run.answerSource.rawValue,
                                  answer: reply.run.answer, evidenceIDs: reply.run.evidenceIDs, receipts: reply.run.receipts))
        try exitForOutcomes(reply.run)
        return
      }
      console.print(inert(reply.run.answer))
      if ctx.arguments.has("receipts") {
        console.print("")
        console.print("Receipts (\(reply.run.receipts.count)):")
        for r in reply.run.receipts { console.print("  " + Render.receiptLine(r)) }
      }
      try exitForOutcomes(reply.run)
    })

  /// A run whose calls were denied or failed is not a success for scripts: exit 1 for a denied
  /// or cancelled write, 3 when a record was not found, 4 for other tool failures; an unknown
  /// or incomplete `/command` is a usage error (2).
  static func exitForOutcomes(_ run: AgentRunResult) throws {
    // An unknown or incomplete /command ran nothing: a usage error, as for the CLI's own.
    if run.route.isMalformedCommand {
      throw ReportedFailure(code: ExitCode.usage, message: run.route.reason.replacingOccurrences(of: ": no tool", with: ""))
    }
    if let denied = run.calls.first(where: { $0.receipt.outcome == .denied || $0.receipt.outcome == .cancelled }) {
      throw ReportedFailure(code: ExitCode.aborted, message: "\(denied.receipt.tool) was \(denied.receipt.outcome.rawValue): \(denied.receipt.message)")
    }
    if let failed = run.calls.first(where: { $0.receipt.outcome == .failed }) {
      throw ReportedFailure(code: failed.failedOnMissingRecord ? ExitCode.notFound : ExitCode.validation, message: "\(failed.receipt.tool) failed: \(failed.receipt.message)")
    }
  }

  static let tools = Command(
    spec: CommandSpec(path: ["tools"], summary: "List the agent tools with their risk classes and JSON schemas."),
    run: { ctx in
      let registry = ToolRegistry.standard
      if ctx.json {
        ctx.console.print(String(decoding: JSONValue.object(["tools": registry.catalog]).serialized(sortedKeys: true), as: UTF8.self))
        return
      }
      ctx.console.print("\(registry.tools.count) tools (deletion is never an agent tool):")
      for t in registry.tools {
        ctx.console.print("  " + t.name.padding(toLength: 22, withPad: " ", startingAt: 0) + t.risk.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + t.title)
      }
    })

  static let activity = Command(
    spec: CommandSpec(
      path: ["activity"], summary: "Show the activity receipts (what agent and MCP tool calls executed).",
      options: [OptionSpec(name: "limit", value: "N", help: "The most recent N (1…\(Limits.receiptsKept), default 50).")]),
    run: { ctx in
      let limit = try ctx.integer("limit", default: 50, range: 1...Limits.receiptsKept)
      let receipts = Array(try ctx.engine(.read).store.read { tx in try tx.listReceipts() }.suffix(limit))
      if ctx.json {
        struct Out: Encodable { var receipts: [ActivityReceipt] }
        try ctx.console.printJSON(Out(receipts: receipts))
        return
      }
      ctx.console.print("\(receipts.count) receipt(s), oldest first")
      for r in receipts { ctx.console.print(Render.receiptLine(r)) }
    })
}
