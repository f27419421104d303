import ContinuityKit
import Foundation
import KnowledgeEngine

/// One tool call as requested by an agent or an MCP client.
public struct ToolCall: Sendable, Equatable {
  /// The caller's id for the call; the receipt is correlated to it.
  public var id: String
  public var name: String
  /// The raw arguments (validated before anything runs).
  public var arguments: JSONValue?

  public init(id: String, name: String, arguments: JSONValue?) {
    self.id = id
    self.name = name
    self.arguments = arguments
  }
}

/// The outcome of one call: the receipt that was written, and the output or the error.
public struct ToolCallResult: Sendable {
  public var receipt: ActivityReceipt
  public var output: ToolOutput?
  public var error: AgentError?
  /// For failures inside the tool (validation of records, not found…): the message.
  public var failureMessage: String?
  /// True when the tool failed because a record it was given by id does not exist
  /// (``WorkspaceError/notFound(recordType:id:)``, or a ``ValidationError`` marked with
  /// ``ValidationError/missingRecord``). Callers tell "not found" from "invalid" by this,
  /// never by the message.
  public var failedOnMissingRecord: Bool = false
  /// For a failure on a record given by id in the arguments (``failedOnMissingRecord``): the
  /// argument that holds the id, as the caller gave it (`arguments.relationships[0].targetID`,
  /// `arguments.knowledgeIDs[0]`), which ``failureMessage`` starts with; nil when the id came
  /// from no list argument, or for any other failure.
  public var failureField: String?
  /// Whether ``receipt`` was stored. False for a call that did not succeed on a workspace that
  /// does not exist yet (its receipt is not worth creating one), for a read-only one there when
  /// ``ToolExecutor/readsCreateWorkspace`` is false, and when the store refused the receipt (a
  /// read-only or damaged workspace).
  public var isReceiptStored: Bool = true

  public var succeeded: Bool { receipt.outcome == .succeeded }
}

/// Runs tool calls: validates arguments against the registry's schema, runs a `localWrite`
/// tool's ``ToolDefinition/preflight`` (the engine's checks that need no write), answers a call
/// that will certainly change nothing without asking (``ToolDefinition/unchangedAnswer``), and
/// otherwise asks approval for the call — its references (`latest`) resolved first, so that it
/// runs on the records the request named (``ToolDefinition/resolvingReferences``) — and, once
/// approved, reads the workspace again and refuses a call that would no longer do what the
/// request showed (``AgentError/changedWhilePending(tool:change:)``), runs read-only tools over a store that refuses writes, honours
/// cancellation right before a write commits, and writes one receipt per call — read-only,
/// denied, failed and cancelled ones too — from what executed, never from model text. On a
/// workspace that does not exist yet (``SQLiteWorkspaceStore/existsOnDisk`` is false) only a
/// call that succeeded stores its receipt, creating the workspace — and only a local write when
/// ``readsCreateWorkspace`` is false: one that did not leaves no file behind, so a mistyped
/// workspace path does not become a workspace. A
/// tool's text output leaves sanitized (``Sanitizer/sanitize(_:)``) and capped, its control
/// characters shown as pictures first (``TerminalText/inert(_:)``) rather than dropped. A
/// ``ValidationError`` the engine raises about one of the tool's arguments is reported as
/// ``AgentError/invalidArguments(_:)`` naming it (``ToolDefinition/argumentError(from:)``).
public struct ToolExecutor: Sendable {
  public let registry: ToolRegistry
  public let engine: KnowledgeEngine
  /// Whether a read-only call that succeeds on a workspace that does not exist yet stores its
  /// receipt, and so creates the workspace. True for the assistant, whose run is recorded once
  /// one of its calls succeeds (``AssistantSession``); false for the MCP server, where a search
  /// on a mistyped `--workspace` must not make it a workspace: there only a local write that
  /// succeeds creates it, and a read's receipt is not stored until it exists.
  public let readsCreateWorkspace: Bool
  /// Who calls the tools (an MCP client, `ask`), for the words an error uses to point an id
  /// given for the wrong type of record to the tool or command that takes it (``ToolCaller``).
  public let caller: ToolCaller
  /// Maximum characters of the canonical arguments stored in a receipt.
  public static let receiptArgumentLimit = Limits.receiptArgumentsRecorded

  /// - Parameters:
  ///   - registry: the tools.
  ///   - engine: the workspace they work on.
  ///   - readsCreateWorkspace: see ``readsCreateWorkspace`` (default true).
  ///   - caller: see ``caller`` (default ``ToolCaller/toolClient``).
  public init(
    registry: ToolRegistry = .standard, engine: KnowledgeEngine, readsCreateWorkspace: Bool = true,
    caller: ToolCaller = .toolClient
  ) {
    self.registry = registry
    self.engine = engine
    self.readsCreateWorkspace = readsCreateWorkspace
    self.caller = caller
  }

  /// Executes `call`.
  /// - Parameters:
  ///   - approver: asked for `localWrite` calls only.
  ///   - recentExcerpts: chat lines a handoff may copy.
  ///   - outputBound: the bytes a successful output may take as the host sends it (the MCP
  ///     server's response bound, less its framing); a listing over it keeps its first records,
  ///     each whole, and says so (``ToolOutput/fitted(to:finishingText:)``). Nil (the default)
  ///     bounds the output by the tool's text cap only.
  public func execute(
    _ call: ToolCall, approver: any ApprovalProvider, recentExcerpts: [String] = [], outputBound: ToolOutputBound? = nil
  ) async -> ToolCallResult {
    let started = engine.environment.now()
    /// - Parameter wroteNothing: the call succeeded without writing (its receipt then creates a
    ///   missing workspace only as a read-only call's does).
    func finish(
      _ outcome: ReceiptOutcome, risk: RiskClass?, args: String, approval: String?, output: ToolOutput?, error: AgentError?,
      message: String, wroteNothing: Bool = false
    ) -> ToolCallResult {
      let arguments = Self.withholdingCredentials(args)
      // The message may quote an argument (a refused enum value, an id): what the arguments
      // withhold, it withholds too, before it is cut (a cut quote no longer reads as a secret).
      let shownMessage = Self.withholdingCredentials(inMessage: message, withheld: arguments.withheld)
      // So does the error the caller is sent: a refusal's message may quote the value (a tag
      // with a comma, a handoff reference; review 24-b, 3).
      var error = error
      if case .invalidArguments(var refusal)? = error {
        refusal.message = Self.withholdingCredentials(inMessage: refusal.message, withheld: arguments.withheld)
        error = .invalidArguments(refusal)
      }
      let receipt = ActivityReceipt(
        id: engine.environment.makeID(), callID: String(call.id.prefix(200)), tool: String(call.name.prefix(100)),
        risk: risk?.rawValue ?? "unknown", arguments: Self.receiptArguments(arguments.text),
        // A wall clock set back during the call must not date its end before its start.
        outcome: outcome, changedIDs: output?.changedIDs ?? [], startedAt: started,
        finishedAt: max(started, engine.environment.now()),
        approval: approval, message: Truncation.truncate(shownMessage, to: 500))
      var stored = false
      let createsWorkspace = outcome == .succeeded && (readsCreateWorkspace || (risk == .localWrite && !wroteNothing))
      if createsWorkspace || (engine.store as? SQLiteWorkspaceStore)?.existsOnDisk ?? true {
        // A receipt that cannot be written (read-only or damaged store) must not hide the result.
        stored = (try? engine.store.write { tx in try tx.insertReceipt(receipt) }) != nil
      }
      return ToolCallResult(
        receipt: receipt, output: output, error: error,
        failureMessage: error == nil && outcome == .failed ? shownMessage : nil, isReceiptStored: stored)
    }
    let tool: ToolDefinition
    let args: JSONObject
    switch validated(call) {
    case .success(let valid): (tool, args) = valid
    case .failure(let error):
      let risk = try? registry.tool(named: call.name).risk
      // Arguments that are not an object are recorded wrapped in one, so every receipt's are.
      return finish(.failed, risk: risk, args: ActivityReceipt.argumentsText(call.arguments), approval: nil, output: nil, error: error, message: error.description)
    }
    let canonical = JSONValue.object(args).jsonString(sortedKeys: true)
    /// `output` as it is sent: its text made inert as a whole (stored text already is, but a
    /// workspace written before a sanitizer rule existed may not be; a control character left
    /// in it shows as its picture, as `dolphin` prints stored text, rather than being dropped
    /// unseen) and capped; a listing too large for the host's bound keeps its first records
    /// whole (review 19-a: task_list sent one 36 MB line where the server accepts 4 MiB).
    func sendable(_ output: ToolOutput) -> ToolOutput {
      let finishText = { (text: String) in
        Truncation.truncate(
          Sanitizer.sanitize(TerminalText.inert(TerminalText.escapingBidiControls(text))), to: tool.outputCap)
      }
      var output = output
      output.text = finishText(output.text)
      if let outputBound { output = output.fitted(to: outputBound, finishingText: finishText) }
      return output
    }
    /// The result of a call that `error`, thrown by the tool or by its preflight, stopped.
    func failed(_ error: any Error, approval: String?) -> ToolCallResult {
      if let e = error as? AgentError {
        return finish(e == .cancelled ? .cancelled : .failed, risk: tool.risk, args: canonical, approval: approval, output: nil, error: e, message: e.description)
      }
      // The engine refused an argument the schema could not judge (a combination, a tag's
      // characters): the caller hears which argument, as for a schema error.
      if let argumentError = tool.argumentError(from: error) {
        return finish(
          .failed, risk: tool.risk, args: canonical, approval: approval, output: nil,
          error: .invalidArguments(argumentError), message: argumentError.message)
      }
      // An id no record has is named by the argument that holds it, as a refusal names one.
      let missing = tool.missingRecordArgument(from: error, given: call.arguments)
      var message = missing?.message ?? String(describing: error)
      // An id another type of record has: whose it is, and what takes it (review 28-d, 4).
      if missing == nil, let note = idOwnerNote(for: error, tool: tool, arguments: args) { message += note }
      if Self.isCredentialRefusal(error) { message += Self.credentialAdvice }
      var result = finish(.failed, risk: tool.risk, args: canonical, approval: approval, output: nil, error: nil, message: message)
      result.failedOnMissingRecord = Self.isMissingRecord(error)
      result.failureField = missing?.field
      return result
    }
    var approval = "notRequired"
    // The arguments the tool runs with: a local write's references resolved before it is asked
    // for (``ToolDefinition/resolvingReferences``), so that it runs on what the approval named.
    var runArguments = args
    if tool.risk == .localWrite {
      if Task.isCancelled { return finish(.cancelled, risk: tool.risk, args: canonical, approval: nil, output: nil, error: .cancelled, message: "cancelled before approval") }
      let checking = ToolContext(
        engine: KnowledgeEngine(store: ReadOnlyStoreView(engine.store), environment: engine.environment),
        recentExcerpts: recentExcerpts)
      if let preflight = tool.preflight {
        // What the engine would refuse anyway (credential-looking text, an id no record has)
        // is refused before anyone is asked, as the schema's refusals are: an approval dialog
        // for a call that cannot succeed wastes the user's attention and would show the
        // credential-looking text (review, s17). Same failure and receipt as after approval,
        // without one.
        do { try preflight(args, checking) } catch {
          return failed(error, approval: nil)
        }
      }
      // A call that will certainly change nothing (a task completed already, no active handoff
      // to clear) is answered from what is stored, without asking: a dialog for it would train
      // the user to approve without reading (review 23-a, 9). Its receipt says it succeeded, with
      // no approval needed and nothing changed; it writes nothing, so it creates no workspace.
      if let unchanged = tool.unchangedAnswer {
        do {
          if let output = try unchanged(args, checking) {
            return finish(
              .succeeded, risk: tool.risk, args: canonical, approval: "notRequired", output: sendable(output), error: nil,
              message: "ok: nothing to change, so no approval was asked", wroteNothing: true)
          }
        } catch {
          return failed(error, approval: nil)
        }
      }
      // A reference that is not an exact id (`latest`, the start of an id) is resolved once,
      // here: the approval names what it resolves to, and the call runs on that.
      if let resolve = tool.resolvingReferences {
        do { runArguments = try resolve(args, checking) } catch {
          return failed(error, approval: nil)
        }
      }
      // The approval names the records the call changes beyond its arguments (review 19-c,
      // finding 3: a task_complete rewrote a handoff's summary and the prompt did not say so).
      let alsoChanges = (try? tool.alsoChanges?(args, checking)) ?? []
      let decision = await approver.decide(
        ApprovalRequest(callID: call.id, tool: tool.name, risk: tool.risk, canonicalArguments: canonical, alsoChanges: alsoChanges))
      switch decision {
      case .denied(let reason):
        return finish(.denied, risk: tool.risk, args: canonical, approval: nil, output: nil, error: .denied(tool: tool.name, reason: reason), message: reason)
      case .approved(let by):
        approval = by
      }
      // The approval covers the call as the request showed it (review 31-a, 1: `latest` named
      // handoff F in the dialog, another client created a handoff while it was open, and the
      // approved call restored that one). The workspace is read again: a call that would now
      // do something else is refused, and its receipt keeps the approval with no change.
      // (`checking` reads through to the store: it reads the workspace as it is now.)
      // What changed meanwhile may have left nothing to do (another client completed the task or
      // restored the handoff): answered as such a call is before approval, the approval kept.
      if let unchanged = tool.unchangedAnswer, let output = try? unchanged(runArguments, checking) {
        return finish(
          .succeeded, risk: tool.risk, args: canonical, approval: approval, output: sendable(output), error: nil,
          message: "ok: nothing was left to change once approved", wroteNothing: true)
      }
      switch Self.changeWhilePending(of: tool, arguments: args, resolved: runArguments, shown: alsoChanges, in: checking) {
      case .holds:
        break
      case .changed(let change):
        return finish(
          .failed, risk: tool.risk, args: canonical, approval: approval, output: nil,
          error: .changedWhilePending(tool: tool.name, change: change), message: change)
      case .unreadable(let error):
        return failed(error, approval: approval)
      }
    }
    // Between approval and commit: a cancelled run writes nothing.
    if Task.isCancelled { return finish(.cancelled, risk: tool.risk, args: canonical, approval: approval, output: nil, error: .cancelled, message: "cancelled before the call ran") }
    if tool.usesSearchIndex(runArguments) {
      // Rebuilding a stale index writes index rows only, never a record: it is done here, by
      // the executor's engine (whose observer reports it), not by the tool, whose store refuses
      // every write when the tool is read-only. When it cannot be done the tool's search
      // indexes in memory.
      _ = try? engine.prepareSearchIndex()
    }
    let store: any WorkspaceStore = tool.risk == .readOnly ? ReadOnlyStoreView(engine.store) : engine.store
    // A tool that may write prepares the index itself when it ranks (after its own checks, so a
    // refused call rebuilds nothing), reporting to the executor's observer.
    let toolEngine = KnowledgeEngine(
      store: store, environment: engine.environment,
      searchIndexObserver: tool.risk == .readOnly ? nil : engine.searchIndexObserver,
      searchIndexRebuildStarting: tool.risk == .readOnly ? nil : engine.searchIndexRebuildStarting)
    let context = ToolContext(
      engine: toolEngine, recentExcerpts: recentExcerpts, approval: tool.risk == .localWrite ? approval : nil)
    do {
      // The text reaches a model verbatim: it leaves inert, capped and within the bound.
      let output = sendable(try await tool.handler(runArguments, context))
      return finish(.succeeded, risk: tool.risk, args: canonical, approval: approval, output: output, error: nil, message: "ok")
    } catch {
      return failed(error, approval: approval)
    }
  }
}

extension ToolExecutor {
  /// Whether an approved call still does what its approval request showed.
  enum PendingChange {
    /// It does: the call may run.
    case holds
    /// It does not; the words say what changed, as the refusal and its receipt give them.
    case changed(String)
    /// The workspace could not be read to tell (a storage error): the call fails with it.
    case unreadable(any Error)
  }

  /// What changed in the workspace, while the approval of a call to `tool` was pending, that
  /// makes the call other than its approval request showed (review 31-a, 1), read once the
  /// call is approved, on a store that refuses writes:
  /// - the tool's ``ToolDefinition/preflight`` now refuses the call as it will run (a record
  ///   it names, the handoff `latest` named among them, was deleted; a limit was reached);
  /// - a reference that is not an exact id names another record now
  ///   (``ToolDefinition/resolvingReferences``: `latest` names a handoff created meanwhile);
  /// - what else the call changes (``ToolDefinition/alsoChanges``) is not what the request
  ///   listed (another handoff became active in place of the one `handoff_create`'s
  ///   `activate` named; a handoff carrying the task was created or deleted).
  ///
  /// - Parameters:
  ///   - tool: the tool called.
  ///   - arguments: its normalized arguments, as the request showed them.
  ///   - resolved: the arguments with references resolved before the request was made (the
  ///     arguments themselves for a tool that resolves none).
  ///   - shown: ``ApprovalRequest/alsoChanges`` of the request.
  ///   - context: a context whose store refuses writes.
  /// - Returns: ``PendingChange/holds`` when the call still does what was shown;
  ///   ``PendingChange/changed(_:)`` with `the workspace changed while the approval was
  ///   pending: …; nothing was written. Send the call again to be asked about what it would do
  ///   now`; ``PendingChange/unreadable(_:)`` for an
  ///   error that is not a refusal of the call (storage).
  static func changeWhilePending(
    of tool: ToolDefinition, arguments: JSONObject, resolved: JSONObject, shown: [String], in context: ToolContext
  ) -> PendingChange {
    func changed(_ what: String) -> PendingChange {
      .changed(
        "the workspace changed while the approval was pending: \(what); nothing was written. Send the call again to "
          + "be asked about what it would do now")
    }
    /// A refusal that what changed explains, or nil for an error that is no refusal of the call.
    func refusal(_ error: any Error) -> String? {
      if isMissingRecord(error) { return "a record it names was deleted meanwhile (\(error))" }
      switch error {
      case WorkspaceError.validation, is ValidationError: return "it would now be refused (\(error))"
      default: return nil
      }
    }
    do {
      try tool.preflight?(resolved, context)
      var resolvedNow = resolved
      if let resolve = tool.resolvingReferences { resolvedNow = try resolve(arguments, context) }
      let also = try tool.alsoChanges?(arguments, context) ?? []
      if also != shown {
        let before = shown.isEmpty ? "the approval request named nothing else it would change" : "the approval request said it will also " + shown.joined(separator: "; and ")
        let now = also.isEmpty ? "it would now change nothing else" : "it would now " + also.joined(separator: "; and ")
        return changed(before + "; " + now)
      }
      // Said for each argument (the request's words above say it better when they changed too).
      let moved = resolved.keys.sorted().filter { resolvedNow[$0] != resolved[$0] }
      if !moved.isEmpty {
        return changed(
          moved.map { key in
            "arguments.\(key) \(arguments[key]?.jsonString() ?? "null") named \(resolved[key]?.jsonString() ?? "null") "
              + "when the approval was asked, and names \(resolvedNow[key]?.jsonString() ?? "null") now"
          }.joined(separator: "; "))
      }
      return .holds
    } catch {
      return refusal(error).map(changed) ?? .unreadable(error)
    }
  }

  /// Checks `call` as ``execute(_:approver:recentExcerpts:)`` does before anything runs — the
  /// tool exists, its arguments validate against its input schema, and they may be given
  /// together (``ToolDefinition/argumentConflict``) — without running it,
  /// asking for approval or writing a receipt. A host uses it to refuse a bad call before it
  /// does anything else for it (`execute` itself stores no receipt for it on a workspace that
  /// does not exist yet).
  /// - Parameter call: the call as requested.
  /// - Returns: nil when the call may run; otherwise the error `execute` refuses it with:
  ///   ``AgentError/unknownTool(name:suggestion:)`` or ``AgentError/invalidArguments(_:)``
  ///   (naming the field).
  public func refusal(of call: ToolCall) -> AgentError? {
    if case .failure(let error) = validated(call) { return error }
    return nil
  }

  /// The tool `call` names and its normalized arguments, or why the call is refused.
  private func validated(_ call: ToolCall) -> Result<(ToolDefinition, JSONObject), AgentError> {
    let tool: ToolDefinition
    do { tool = try registry.tool(named: call.name) } catch { return .failure(error) }
    do { return .success((tool, try tool.normalize(call.arguments))) } catch {
      return .failure(.invalidArguments(error))
    }
  }

  /// What a tool's credential refusal adds to the library's message (which offers no
  /// override): the caller cannot store such text, whatever its arguments say, and the user
  /// can, on purpose, outside the assistant.
  static let credentialAdvice =
    "; an agent or MCP client cannot store such text. The user can, deliberately: "
    + "`dolphin capture`, `memory save`, `task add` and `handoff create` take --allow-credentials"

  /// Whether `error` refused text that looks like a credential (``ValidationError/credential``).
  static func isCredentialRefusal(_ error: any Error) -> Bool {
    switch error {
    case WorkspaceError.validation(let v): v.credential != nil
    case let v as ValidationError: v.credential != nil
    default: false
    }
  }

  /// Whether `error` says that a record named by id does not exist.
  static func isMissingRecord(_ error: any Error) -> Bool {
    switch error {
    case WorkspaceError.notFound: true
    case WorkspaceError.validation(let v): v.missingRecord != nil
    case let v as ValidationError: v.missingRecord != nil
    default: false
    }
  }
}

extension ToolExecutor {
  /// `arguments` (a call's JSON arguments as text) as a receipt stores them: every string value
  /// and member key that looks like a credential (``CredentialDetector/withholding(inJSON:)``,
  /// which reads them decoded, each value with its key) replaced by
  /// `[withheld: looks like a credential (KIND)]`, so that a receipt never stores a secret: not
  /// one a write refused for it (review, s16: an MCP `knowledge_capture` refused as `it was not
  /// stored` left the password in its receipt, in the activity log and in every export), nor
  /// one a search was asked for. Review 24-a, 1: the check ran on the escaped JSON text first,
  /// where `PASSWORD=\"Tr0ub4dor&3\"` holds no value, and kept quoted secrets and keys. Text
  /// that is not JSON, or whose JSON text still reads as holding one, is withheld whole.
  /// - Returns: the text to store, and the texts withheld (for ``withholdingCredentials(inMessage:withheld:)``).
  /// - Complexity: O(*n*) in the length of `arguments`.
  package static func withholdingCredentials(_ arguments: String) -> (text: String, withheld: [String]) {
    let whole = JSONValue.object(["withheld": "the arguments look like they hold a credential"]).jsonString(sortedKeys: true)
    guard let value = try? JSONParser(options: .init(maximumDepth: 1_000, maximumBytes: .max)).parse(arguments) else {
      return CredentialDetector.firstFinding(in: arguments) == nil ? (arguments, []) : (whole, [arguments])
    }
    let (shown, withheld) = CredentialDetector.withholding(inJSON: value)
    let texts = withheld.map(\.text)
    guard !withheld.isEmpty else {
      return CredentialDetector.firstFinding(in: arguments) == nil ? (arguments, []) : (whole, [arguments])
    }
    let text = shown.jsonString(sortedKeys: true)
    return CredentialDetector.firstFinding(in: text) == nil ? (text, texts) : (whole, texts)
  }

  /// A receipt's `message` with nothing in it that looks like a credential: each part of a
  /// withheld argument that looks like one (``withholdingCredentials(_:)``), where the message
  /// quotes it whole or its start cut (`'PASSWORD="Tr0ub…'`), and any other span the detector
  /// reads as one, replaced by `[withheld: looks like a credential (KIND)]` — the field named
  /// and the reason kept (review 24-a, 1: `arguments.kinds[0] 'ghp_…' is not one of …` kept the
  /// token that the arguments withheld).
  /// - Complexity: O(*m* × *w*) for a message of *m* characters and *w* withheld parts, with a
  ///   probe of at most 12 characters each.
  package static func withholdingCredentials(inMessage message: String, withheld: [String]) -> String {
    var text = message
    // Each part as messages quote it, too: line breaks and controls written as escapes (`\n`,
    // Limits.escaped) or folded into spaces (TerminalText.singleLine) — review 25-b, 1: a value
    // over two lines, quoted as `'password:\n  …'`, matched neither the part nor the scan.
    var parts: [String] = []
    for part in withheld.flatMap(CredentialDetector.secretParts(of:)) where !part.isEmpty {
      for form in [part, Limits.escaped(part), TerminalText.singleLine(part)] where !parts.contains(form) {
        parts.append(form)
      }
    }
    for part in parts.sorted(by: { $0.count > $1.count }) {
      let marker = CredentialDetector.withheldText(CredentialDetector.firstFinding(in: part)?.kind ?? .secretAssignment)
      let probe = String(part.prefix(12))
      var from = text.startIndex
      while let found = text.range(of: probe, range: from..<text.endIndex) {
        // The quote runs as long as it matches the part: whole, or its start before a cut.
        var end = found.upperBound
        var next = part.index(part.startIndex, offsetBy: probe.count)
        while end < text.endIndex, next < part.endIndex, text[end] == part[next] {
          end = text.index(after: end)
          next = part.index(after: next)
        }
        let resume = text.distance(from: text.startIndex, to: found.lowerBound) + marker.count
        text.replaceSubrange(found.lowerBound..<end, with: marker)
        from = text.index(text.startIndex, offsetBy: resume)
      }
    }
    return CredentialDetector.withholding(in: text)
  }

  /// Canonical arguments as a receipt stores them: the JSON text itself when it fits in
  /// ``receiptArgumentLimit`` characters, else still valid JSON that says it was cut:
  /// `{"truncated":true,"characters":N,"prefix":"…"}` with as much of the text as fits, so
  /// that every stored `arguments` parses (Docs/ExportFormat.md calls it JSON text).
  static func receiptArguments(_ canonical: String) -> String {
    guard canonical.count > receiptArgumentLimit else { return canonical }
    func wrapped(_ prefixLength: Int) -> String {
      JSONValue.object([
        "truncated": true, "characters": .integer(canonical.count),
        "prefix": .string(String(canonical.prefix(prefixLength))),
      ]).jsonString(sortedKeys: true)
    }
    // Escapes can lengthen the prefix; shrink it until the whole object fits.
    var length = receiptArgumentLimit - 64
    var text = wrapped(length)
    while text.count > receiptArgumentLimit && length > 0 {
      length -= max(1, text.count - receiptArgumentLimit)
      text = wrapped(max(0, length))
    }
    return text
  }
}
