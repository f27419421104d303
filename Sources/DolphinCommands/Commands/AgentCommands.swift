import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Synchronization

enum AgentCommands {
  static let all = [ask, tools, activity]

  /// Where the model URL of a run comes from.
  enum ModelURLSource {
    /// `--model-url URL`, given on the command line.
    case option(String)
    /// `DOLPHIN_MODEL_URL`, set in the environment.
    case environment(String)

    var url: String {
      switch self {
      case .option(let url), .environment(let url): url
      }
    }

    /// What a refusal calls it: the option or the variable the user set (review 28-c, 10).
    var name: String {
      switch self {
      case .option: "--model-url"
      case .environment: "DOLPHIN_MODEL_URL"
      }
    }
  }

  /// The model URL of a run: `--model-url`, else a non-empty `DOLPHIN_MODEL_URL`; nil for none.
  /// - Throws: ``CLIError/invalidValue(_:field:)`` for an empty `--model-url ''` (a forgotten
  ///   value, as `--output ''` is, not a way to ask for no model: omitting the option does that;
  ///   review 28-c, 10). An empty `DOLPHIN_MODEL_URL` is unset, as an empty variable usually is.
  static func modelURL(_ ctx: CommandContext) throws -> ModelURLSource? {
    if let url = ctx.arguments.value("model-url") {
      guard !url.isEmpty else {
        throw CLIError.invalidValue(
          "--model-url needs a loopback URL (it was given an empty string); omit it to answer without a model",
          field: "model-url")
      }
      return .option(url)
    }
    let env = ctx.console.environment.isEmpty ? ProcessInfo.processInfo.environment : ctx.console.environment
    guard let url = env["DOLPHIN_MODEL_URL"], !url.isEmpty else { return nil }
    return .environment(url)
  }

  /// The generator for `source`, validated as loopback-only.
  /// - Throws: ``CLIError/usage(_:)`` naming the option or the variable the URL came from, the
  ///   URL and what is not allowed.
  static func generator(_ ctx: CommandContext, _ source: ModelURLSource?) throws -> (any ResponseGenerator)? {
    guard let source else { return nil }
    let env = ctx.console.environment.isEmpty ? ProcessInfo.processInfo.environment : ctx.console.environment
    do {
      return try LoopbackChatGenerator(
        url: source.url, urlName: source.name, model: ctx.arguments.value("model") ?? env["DOLPHIN_MODEL"] ?? "local")
    } catch {
      throw CLIError.usage(error.description)
    }
  }

  static let ask = Command(
    spec: CommandSpec(
      path: ["ask"], summary: "Ask the assistant: commands run deterministic plans; free text only reads.",
      positionals: [
        ("text", "A message, or one of the commands listed below (/help lists them too); '-' reads it from stdin.")
      ],
      options: [
        OptionSpec(
          name: "model-url", value: "URL",
          help: "OpenAI-compatible server on loopback (or DOLPHIN_MODEL_URL); only 127.0.0.0/8, ::1, localhost."),
        OptionSpec(name: "model", value: "NAME", help: "Model name sent to the server (default local)."),
        OptionSpec(name: "receipts", value: nil, help: "Print the receipts of this run."),
      ],
      confirms: true,
      discussion: """
        Commands (each runs one tool; an unknown or incomplete one, or words after a command that takes
        none, is a usage error, exit 2; a /capture title is one line, more lines go after ` | `):
        \(AgentRequestRouter.commandList)
        \(AgentRequestRouter.analyzeCredentialNote)
        Each local write (capture, remember, handoff, restore, task changes) shows the exact call and asks [y/N]
        on a terminal; --yes approves the writes of this one invocation (for scripts). Greetings and small talk
        run no tool. `dolphin ask -` reads the message from standard input (UTF-8, at most \(Limits.content)
        characters, no NUL; one final line break dropped); a write then needs --yes, since no answer can be read.
        Without a model the answer is the deterministic renderers' output, labeled as such. A model's answer
        starts with what the run changed, by its receipts alone (--json: receiptSummary); a handoff copies
        that line with it. Each line of the model's own text is quoted with `> `. A reply that is only hidden
        reasoning gets the deterministic answer, and says so.
        Ctrl-C (or SIGTERM) at an approval prompt denies that call: its receipt and the run's answer are
        recorded, and the command exits 1.
        A run is recorded (chat messages, receipts) where the workspace exists; where it does not exist yet, only
        a run whose local write succeeds creates it: free text, small talk and reads record nothing there.
        A message that looks like it holds a credential is refused (exit 4) and nothing is stored: ask has no
        --allow-credentials, since a chat message stays in the chat log and is copied into handoffs. Store a
        secret deliberately with `dolphin capture … --allow-credentials` instead. An answer that quotes one (an
        item stored that way, a model's reply) is printed whole, and its copy in the chat log withholds it
        (a notice says so; --json: storedAnswerWithheld).
        A model URL is checked when a message would use it (free text): a bad --model-url is refused (exit 2)
        whatever the message, a bad DOLPHIN_MODEL_URL only when the message is free text, each named in the
        error. An empty --model-url is refused; an empty DOLPHIN_MODEL_URL means no model.
        """),
    run: { ctx in
      var message = ctx.arguments.positionals[0]
      // `-` reads the message from standard input, as `memory save -` and `--content -` do
      // (review 28-c, 5: it was sent as the message "-", called small talk).
      let fromStandardInput = message == "-"
      if fromStandardInput {
        ctx.standardInputHolds = "the message"
        message = try TextInput.read(
          .standardInput, field: "message", limit: Limits.content, console: ctx.console, dropsFinalLineBreak: true)
        if message.isEmpty {
          throw ValidationError(
            field: "message",
            message: "`dolphin ask -`: standard input was empty; pipe the message in, or give it in place of '-'; nothing was run")
        }
      }
      // A refused request stores nothing: the model URL, the message and the route are checked
      // before the workspace is opened (or created) and before a conversation is started, and
      // before any route or plan is shown.
      let modelURL = try AgentCommands.modelURL(ctx)
      // A URL typed on this command line is checked whatever the message.
      if case .option = modelURL { _ = try AgentCommands.generator(ctx, modelURL) }
      // An `/analyze` refusal carries no credential to offer --allow-credentials for (review 28-c, 4).
      try AssistantSession.validateMessage(message)
      let route = AgentRequestRouter().route(message)
      // An unknown or incomplete /command would run nothing: a usage error, as for the CLI's own.
      if let problem = route.commandProblem { throw CLIError.usage(problem) }
      // Only free text consults a model: a variable set for other runs does not stop a command
      // that uses none (review 28-c, 10), and is named when it is refused.
      let generator = route.kind == .modelAssistedRead ? try AgentCommands.generator(ctx, modelURL) : nil
      let engine = try ctx.engine(.create)
      let session = try AssistantSession(engine: engine, generator: generator)
      let console = ctx.console
      let yes = ctx.arguments.has("yes")
      let interactive = console.isInteractive
      let interruption = PromptInterruption()
      let approver = ClosureApprovalProvider { request in
        if yes { return .approved(by: "user:--yes") }
        // Standard input held the message: no answer can be read from it, at a terminal too.
        if fromStandardInput {
          return .denied(reason: "approval needed: standard input held the message, so no answer can be read from it; pass --yes")
        }
        guard interactive else { return .denied(reason: "approval needed: run in a terminal or pass --yes") }
        // What else the call rewrites (a handoff's rule-built summary) is said before the answer.
        let also = request.alsoChangesSentence.map { "\n  " + inert($0) } ?? ""
        // After an interrupted prompt no other is shown: the user asked to stop.
        if let signal = interruption.signal.withLock({ $0 }) {
          return .denied(reason: "not asked: an earlier approval prompt of this run was interrupted (\(signal))")
        }
        // Ctrl-C or SIGTERM at the prompt denies the call, so that it leaves a receipt and the
        // run its answer before the command exits (review 31-a, 4: the process died, leaving the
        // user's command in the chat log with neither, and a handoff copied it as if it ran).
        switch console.askConfirmation("Approve this local write?\n  \(inert(request.summary))\(also)\n[y/N] ") {
        case .interrupted(let signal):
          interruption.signal.withLock { $0 = signal }
          // The terminal echoed `^C` after the prompt: what follows starts on a line of its own.
          console.printError("")
          return .denied(reason: "interrupted (\(signal)) at the approval prompt")
        case .line(let line):
          let answer = line?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
          return answer == "y" || answer == "yes" ? .approved(by: "user") : .denied(reason: "declined by the user")
        }
      }
      if !ctx.json {
        // The route names what the request is; with no model configured nothing is assisted
        // (review, s16: the route read as if a model would answer).
        let noModel = route.kind == .modelAssistedRead && generator == nil ? " (no model configured: the answer is rendered deterministically from the search)" : ""
        console.printError("route: \(route.kind.rawValue) — \(route.reason)\(noModel)")
        // Bounded as receipts are: a 14 KB /analyze argument is not echoed whole.
        for c in route.plan {
          console.printError("plan: \(c.tool) \(inert(Truncation.truncate(c.arguments.jsonString(sortedKeys: true), to: 300)))")
        }
      }
      let reply = try await session.ask(message, approver: approver)
      let run = reply.run
      let notRecorded = reply.isRecorded ? nil : ctx.workspaceDirectory.path
      if ctx.json {
        // A failed run is reported as the error document other commands print, with this run's
        // document inside it (`error.run`), so that what executed before the failure shows.
        if reply.isRecorded, let finding = reply.storedAnswerWithheld {
          console.printDiagnostic(storedAnswerNotice(finding))
        }
        if let failure = failure(of: reply, notRecordedAt: notRecorded) { throw failure }
        try console.printJSON(AskDocument(reply))
        return
      }
      console.print(inert(run.answer))
      if ctx.arguments.has("receipts") {
        console.print("")
        console.print("Receipts (\(run.receipts.count)\(reply.isRecorded ? "" : ", not stored")):")
        for r in run.receipts { console.print("  " + Render.receiptLine(r)) }
      }
      if reply.isRecorded, let finding = reply.storedAnswerWithheld {
        console.printDiagnostic(storedAnswerNotice(finding))
      }
      if let failure = failure(of: reply, notRecordedAt: notRecorded) { throw failure }
      // Review 18-b (B7): say so, since a mistyped --workspace is the usual reason.
      if let notRecorded {
        console.printDiagnostic(
          "dolphin: notice: nothing was recorded: there is no workspace at \(notRecorded) yet, "
            + "and a run that only reads does not create one")
      }
    })

  /// The signal that interrupted an approval prompt of a run, once one has (nil before).
  final class PromptInterruption: Sendable {
    let signal = Mutex<String?>(nil)
  }

  /// What `ask --json` prints for a run: on success the whole document, on failure inside the
  /// error document as `error.run`.
  struct AskDocument: Encodable, Sendable {
    var route: String
    var reason: String
    var answerSource: String
    var answer: String
    /// What the run changed, by its receipts alone (a model's answer starts with it too).
    var receiptSummary: String
    var evidenceIDs: [UUID]
    /// Every call of the run, in call order, with its outcome (`succeeded` for one that executed).
    var receipts: [ActivityReceipt]
    /// Whether the run (its messages, checkpoints and receipts) was stored: false for a run on
    /// a workspace that did not exist yet none of whose calls succeeded, which creates nothing.
    var recorded: Bool
    /// Whether the answer's copy in the chat log withholds text that looks like a credential
    /// (`answer` is shown whole); false when it was stored as shown or not stored.
    var storedAnswerWithheld: Bool

    init(_ reply: AssistantReply) {
      let run = reply.run
      route = run.route.kind.rawValue
      reason = run.route.reason
      answerSource = run.answerSource.rawValue
      answer = run.answer
      receiptSummary = run.receiptSummary
      evidenceIDs = run.evidenceIDs
      receipts = run.receipts
      recorded = reply.isRecorded
      storedAnswerWithheld = reply.isRecorded && reply.storedAnswerWithheld != nil
    }
  }

  /// What `ask` says on stderr when the answer's stored copy withholds text that looks like a
  /// credential (review 28-c, 1).
  static func storedAnswerNotice(_ finding: CredentialFinding) -> String {
    "dolphin: notice: the answer quotes text that looks like a credential (\(finding)); it is shown above, and the "
      + "copy kept in the chat log withholds it. Rotate any real secret"
  }

  /// A run whose calls were denied or failed is not a success for scripts: exit 1 for a denied
  /// or cancelled write and for an approved one that was not run because the workspace changed
  /// while the approval was pending, 3 when a record was not found, 4 for other tool failures.
  /// - Parameter notRecordedAt: the workspace directory when the run was not recorded (it did
  ///   not exist, and a run none of whose calls succeeded does not create it); the message
  ///   says so.
  /// - Returns: the failure, carrying the run's ``AskDocument``; nil for a run that succeeded.
  static func failure(of reply: AssistantReply, notRecordedAt workspace: String? = nil) -> FailedRun? {
    let run = reply.run
    let document = AskDocument(reply)
    let note =
      workspace.map {
        "; nothing was recorded and no workspace was created: there is none at \($0) yet, and a run whose "
          + "call does not succeed does not create one"
      } ?? ""
    // An approved call that the workspace's change while it was pending stopped: not run, as a
    // declined one (review 31-a, 1).
    if let stopped = run.calls.first(where: {
      if case .changedWhilePending? = $0.error { return true } else { return false }
    }) {
      return FailedRun(
        code: ExitCode.aborted, kind: "aborted", message: "\(stopped.receipt.tool) was not run: \(stopped.receipt.message)\(note)",
        run: document)
    }
    if let denied = run.calls.first(where: { $0.receipt.outcome == .denied || $0.receipt.outcome == .cancelled }) {
      return FailedRun(
        code: ExitCode.aborted, kind: "aborted",
        message: "\(denied.receipt.tool) was \(denied.receipt.outcome.rawValue): \(denied.receipt.message)\(note)",
        run: document)
    }
    if let failed = run.calls.first(where: { $0.receipt.outcome == .failed }) {
      let notFound = failed.failedOnMissingRecord
      // The argument the call was refused for, as every other validation error names its field
      // (review 19-b, F8: the message named `arguments.title`, the JSON no field).
      var field: String?
      if case .invalidArguments(let e) = failed.error { field = e.field }
      // An id no record has, named by the argument that holds it (review 22, 5).
      field = field ?? failed.failureField
      return FailedRun(
        code: notFound ? ExitCode.notFound : ExitCode.validation, kind: notFound ? "notFound" : "validation",
        message: "\(failed.receipt.tool) failed: \(failed.receipt.message)\(note)", run: document, field: field)
    }
    return nil
  }

  static let tools = Command(
    spec: CommandSpec(
      path: ["tools"], summary: "List the agent tools with their risk classes (--json: with their input and output JSON schemas).", usesWorkspace: false),
    run: { ctx in
      let registry = ToolRegistry.standard
      if ctx.json {
        // Every tool, as a list: `{tools, count, total, truncated}`.
        let count = JSONValue.integer(registry.tools.count)
        let document = JSONValue.object(["tools": registry.catalog, "count": count, "total": count, "truncated": .bool(false)])
        ctx.console.print(String(decoding: document.serialized(sortedKeys: true), as: UTF8.self))
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
      options: [OptionSpec(name: "limit", value: "N", help: "The most recent N (1…\(Limits.receiptsKept), default \(Limits.listedRecordsDefault)).")]),
    run: { ctx in
      let limit = try ctx.integer("limit", default: Limits.listedRecordsDefault, range: 1...Limits.receiptsKept)
      let all = try ctx.engine(.read).store.read { tx in try tx.listReceipts() }
      let receipts = Array(all.suffix(limit))
      // Review, s17: 50 of 60 receipts were shown as if they were all the calls made.
      let truncated = receipts.count < all.count
      if ctx.json {
        // `count` (listed) beside `total` (kept), as the other lists give them.
        struct Out: Encodable { var receipts: [ActivityReceipt]; var count: Int; var total: Int; var truncated: Bool }
        try ctx.console.printJSON(Out(receipts: receipts, count: receipts.count, total: all.count, truncated: truncated))
        return
      }
      ctx.console.print(
        truncated
          ? "\(receipts.count) of \(all.count) receipt(s) shown (the newest; --limit N for more), oldest first"
          : "\(receipts.count) receipt(s), oldest first")
      for r in receipts { ctx.console.print(Render.receiptLine(r)) }
    })
}
