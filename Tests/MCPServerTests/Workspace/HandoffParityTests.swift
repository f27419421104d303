import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Session 21: the MCP handoff tools caught up with the CLI of session 20 — `handoff_create`
/// takes `activate` (`dolphin handoff create --activate`), `handoff_get` and `handoff_restore`
/// take `latest` or an id prefix (`dolphin handoff get|restore latest`), and the restore brief
/// carries what happened since the handoff and the stale-handoff advice.
@Suite("MCP handoff tools at parity with the CLI")
struct HandoffParityTests {
  /// A provider that runs writes without asking (`--writes allow`).
  static func provider(_ fixture: WorkspaceFixture) -> RegistryToolProvider {
    RegistryToolProvider(workspace: fixture.workspace, writes: .allow)
  }

  static func call(_ fixture: WorkspaceFixture, _ tool: String, _ arguments: JSONObject) async -> MCPToolResult {
    await provider(fixture).callTool(
      name: tool, arguments: arguments, context: FakeElicitation { MCPElicitationResult(action: .decline) }.context(canElicit: false))
  }

  /// The details of a failed call (sent as its second text block).
  static func details(_ result: MCPToolResult) throws -> JSONValue {
    .object(try #require(result.structuredContent))
  }

  static func handoff(_ id: String, _ focus: String, daysAgo: Double, from now: Date) throws -> Handoff {
    Handoff(
      id: try #require(UUID(uuidString: id)), focus: focus, summary: "", nextSteps: [], knowledgeIDs: [], taskIDs: [],
      recentExcerpts: [], createdAt: now.addingTimeInterval(-daysAgo * 86_400))
  }

  // MARK: handoff_create activate

  @Test("handoff_create declares activate (default false) and activated/previouslyActiveID in its schemas")
  func createSchemas() throws {
    let tool = try ToolRegistry.standard.tool(named: "handoff_create")
    let activate = try #require(tool.inputSchema["properties"]?["activate"])
    #expect(activate["type"] == "boolean" && activate["default"] == false, "\(activate)")
    #expect(activate["description"]?.string?.contains("in the same write") == true)
    let output = try #require(tool.outputSchema["properties"])
    #expect(output["activated"]?["type"] == "boolean")
    #expect(output["previouslyActiveID"]?["format"] == "uuid")
    #expect(tool.outputSchema["required"] == ["handoff", "summaryGenerated"])
  }

  @Test("activate marks the new handoff active in the same write and reports the one before, as the CLI's --json does")
  func createActivates() async throws {
    let fixture = WorkspaceFixture()
    let plain = await Self.call(fixture, "handoff_create", ["focus": "Morning: brief layout"])
    #expect(!plain.isError, "\(plain.text)")
    #expect(plain.structuredContent?["activated"] == nil && plain.structuredContent?["previouslyActiveID"] == nil)
    #expect(!plain.text.contains("Marked it active"))
    #expect(try fixture.engine.activeHandoff() == nil, "without activate the active handoff stays as it was")

    let first = await Self.call(fixture, "handoff_create", ["focus": "Noon: since section", "activate": true])
    let firstID = try #require(first.structuredContent?["handoff"]?["id"]?.string)
    #expect(first.structuredContent?["activated"] == true)
    #expect(first.structuredContent?["previouslyActiveID"] == nil)
    #expect(first.text.hasSuffix("Marked it active (no handoff was active before)."), "\(first.text)")
    #expect(try fixture.engine.activeHandoff()?.id.uuidString == firstID)

    let second = await Self.call(fixture, "handoff_create", ["focus": "Evening: stale advice", "activate": true])
    let secondID = try #require(second.structuredContent?["handoff"]?["id"]?.string)
    #expect(second.structuredContent?["activated"] == true)
    #expect(second.structuredContent?["previouslyActiveID"] == .string(firstID))
    #expect(second.text.hasSuffix("Marked it active (handoff \(firstID) was active before)."), "\(second.text)")
    #expect(try fixture.engine.activeHandoff()?.id.uuidString == secondID)
    // The receipt records the call with activate, as executed.
    #expect(try fixture.receipts.last?.arguments.contains(#""activate":true"#) == true)
  }

  @Test("autoSelect with a focus that matches nothing falls back and says so; activating it over a useful handoff warns only when it carries nothing (review 23-a, 1)")
  func autoSelectFallback() async throws {
    let fixture = WorkspaceFixture()
    let decision = try fixture.engine.capture(
      CaptureRequest(kind: .decision, title: "Use SQLite WAL mode", content: "Readers never block the writer", tags: ["storage"])
    ).item
    let task = try fixture.engine.addTask(title: "Benchmark capture at 10k items", priority: .high)
    let useful = try fixture.engine.createHandoff(
      HandoffRequest(focus: "Storage layer", knowledgeIDs: [decision.id], taskIDs: [task.id], activate: true)
    ).handoff
    let r = await Self.call(fixture, "handoff_create", ["focus": "End of day", "autoSelect": true, "activate": true])
    #expect(!r.isError, "\(r.text)")
    let auto = try #require(r.structuredContent?["autoSelection"])
    #expect(auto["fallback"] == .string(KnowledgeEngine.autoSelectFallbackNote))
    #expect(auto["taskIDs"] == [.string(task.id.uuidString)])
    #expect(auto["knowledgeIDs"] == [.string(decision.id.uuidString)])
    #expect(r.text.contains(" Auto-selection: \(KnowledgeEngine.autoSelectFallbackNote)."), "\(r.text)")
    #expect(r.structuredContent?["activationWarning"] == nil)
    // Without autoSelect, an empty handoff put in place of one with records is warned about.
    _ = try fixture.engine.restoreHandoff(id: useful.id)
    let empty = await Self.call(fixture, "handoff_create", ["focus": "Nothing", "activate": true])
    let warning = try #require(empty.structuredContent?["activationWarning"]?.string)
    #expect(warning.contains("handoff \(useful.id.uuidString) \"Storage layer\", active before, carries 1 knowledge item and 1 task"))
    #expect(empty.text.hasSuffix(" Warning: \(warning); handoff_restore makes it active again."), "\(empty.text)")
  }

  @Test("the approval of handoff_create with activate names the handoff that stops being active")
  func createApprovalNamesTheActiveHandoff() async throws {
    let fixture = WorkspaceFixture()
    let active = try fixture.engine.createHandoff(HandoffRequest(focus: "Release prep", activate: true)).handoff
    let client = FakeElicitation { MCPElicitationResult(action: .accept, content: ["approve": true]) }
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: "handoff_create", arguments: ["focus": "Hotfix", "activate": true], context: client.context())
    #expect(!result.isError, "\(result.text)")
    let message = try #require(client.requests.first?.message)
    #expect(
      message.contains("It will also mark the new handoff active in place of handoff \(active.id.uuidString) \"Release prep\"."),
      "\(message)")
    // Without activate, nothing more is said.
    _ = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: "handoff_create", arguments: ["focus": "Notes"], context: client.context(id: JSONRPCRequestID(2)))
    #expect(client.requests.count == 2 && client.requests[1].message.contains("It will also") == false)
  }

  // MARK: latest and id prefixes

  @Test("the id of handoff_get and handoff_restore is published as a reference, not as format uuid")
  func referenceSchema() throws {
    for name in ["handoff_get", "handoff_restore"] {
      let id = try #require(try ToolRegistry.standard.tool(named: name).inputSchema["properties"]?["id"])
      #expect(id["format"] == nil, "\(name)")
      #expect(id["pattern"] == .string(ToolSchema.handoffReferencePattern), "\(name)")
      #expect(id["maxLength"] == 64 && id["minLength"] == 1, "\(name)")
      #expect(id["description"]?.string?.contains("`latest`") == true, "\(name)")
      #expect(id["description"]?.string?.contains("at least 8 hexadecimal digits") == true, "\(name)")
    }
    let pattern = try NSRegularExpression(pattern: ToolSchema.handoffReferencePattern)
    func matches(_ s: String) -> Bool {
      pattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }
    for accepted in [
      "latest", "LATEST", " latest\n", "3f2504e0", "3F2504E0-", "3F2504E0-4F8", "3F2504E0-4F89-11D3",
      "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "3f2504e0-4f89-11d3-9a0c-0305e82c",
      // Without hyphens (review 23-a, 8), up to all 32 digits.
      "3F2504E04F89", "3f2504e04f8", "3F2504E04F8911D39A0C0305E82C3301",
    ] {
      #expect(matches(accepted), "\(accepted)")
    }
    for refused in [
      "last", "3F2504E", "3F2504E0--", "3F2504E0-4F89-11D3-9A0C-0305E82C33011", "G3F2504E0", "latest latest", "",
      // Hyphens either where the UUID has them or nowhere; at most 32 digits.
      "3F2504E04F89-11D3", "3F2504E0-4F8911D3", "3F2504E04F8911D39A0C0305E82C33011",
    ] {
      #expect(!matches(refused), "\(refused)")
    }
  }

  struct ReferenceCase: CustomStringConvertible, Sendable {
    var tool: String
    var description: String { tool }
  }

  static let referenceTools = [ReferenceCase(tool: "handoff_get"), ReferenceCase(tool: "handoff_restore")]

  /// Four handoffs: two whose ids share the prefix ABCDEF01 (the oldest), one 3F2504E0…, and
  /// the newest 7C9E6679….
  static func referencedWorkspace() throws -> (WorkspaceFixture, newest: Handoff, older: Handoff, twins: [Handoff]) {
    let fixture = WorkspaceFixture()
    let now = fixture.engine.environment.now()
    let twins = [
      try handoff("ABCDEF01-0000-4000-8000-000000000001", "Twin one", daysAgo: 9, from: now),
      try handoff("ABCDEF01-0000-4000-8000-000000000002", "Twin two", daysAgo: 8, from: now),
    ]
    let older = try handoff("3F2504E0-4F89-11D3-9A0C-0305E82C3301", "Storage layer", daysAgo: 2, from: now)
    let newest = try handoff("7C9E6679-7425-40DE-944B-E07FC1F90AE7", "Search ranking", daysAgo: 1, from: now)
    for h in twins + [older, newest] { try fixture.insert(h) }
    return (fixture, newest, older, twins)
  }

  @Test("latest names the newest handoff, and a unique prefix of at least 8 hex digits its handoff", arguments: referenceTools)
  func latestAndPrefix(_ c: ReferenceCase) async throws {
    let (fixture, newest, older, _) = try Self.referencedWorkspace()
    for (given, expected) in [
      ("latest", newest), ("Latest", newest), ("3f2504e0", older), ("3F2504E0-4F89", older), (" 7c9e6679\n", newest),
      (older.id.uuidString.lowercased(), older),
      // More than 8 digits typed without the hyphen (review 23-a, 8), up to the whole id.
      ("7c9e6679742540de944be07fc1f90ae7", newest), ("3F2504E04F89", older),
    ] {
      let result = await Self.call(fixture, c.tool, ["id": .string(given)])
      #expect(!result.isError, "\(given): \(result.text)")
      #expect(result.structuredContent?["handoff"]?["id"] == .string(expected.id.uuidString), "\(given)")
    }
    if c.tool == "handoff_restore" {
      #expect(try fixture.engine.activeHandoff()?.id == older.id, "the last restore marked its handoff active")
    }
  }

  @Test("the approval of handoff_restore by latest or a prefix names the handoff it will mark active; by a UUID it adds nothing")
  func restoreApprovalNamesTheHandoff() async throws {
    let (fixture, newest, older, _) = try Self.referencedWorkspace()
    let client = FakeElicitation { MCPElicitationResult(action: .accept, content: ["approve": true]) }
    let provider = RegistryToolProvider(workspace: fixture.workspace)
    let latest = await provider.callTool(name: "handoff_restore", arguments: ["id": "latest"], context: client.context())
    #expect(!latest.isError, "\(latest.text)")
    #expect(
      client.requests.last?.message.contains(
        "It will also mark handoff \(newest.id.uuidString) \"Search ranking\" active, the one \"latest\" names now.") == true,
      "\(client.requests.last?.message ?? "")")
    _ = await provider.callTool(
      name: "handoff_restore", arguments: ["id": .string(older.id.uuidString)], context: client.context(id: JSONRPCRequestID(2)))
    #expect(client.requests.count == 2 && client.requests[1].message.contains("It will also") == false)
    #expect(try fixture.engine.activeHandoff()?.id == older.id)
  }

  @Test("a prefix several handoffs have is an invalid argument naming them all, never a guess", arguments: referenceTools)
  func ambiguousPrefix(_ c: ReferenceCase) async throws {
    let (fixture, _, _, twins) = try Self.referencedWorkspace()
    let result = await Self.call(fixture, c.tool, ["id": "abcdef01"])
    #expect(result.isError)
    let error = try #require(try Self.details(result)["error"])
    #expect(error["kind"] == "invalidArguments" && error["field"] == "arguments.id", "\(error)")
    #expect(
      result.text.contains(
        "arguments.id 'abcdef01' begins 2 handoff ids, so it names none of them: \(twins[1].id.uuidString) \"Twin two\"; "
          + "\(twins[0].id.uuidString) \"Twin one\". Give more of the id"),
      "\(result.text)")
    #expect(try fixture.engine.activeHandoff() == nil, "nothing was restored")
  }

  struct BadReference: CustomStringConvertible, Sendable {
    var tool: String
    var given: String
    var kind: String
    var message: String
    var description: String { "\(tool) \(given)" }
  }

  static let badReferences: [BadReference] = ["handoff_get", "handoff_restore"].flatMap { tool in
    [
      BadReference(
        tool: tool, given: "yesterday", kind: "invalidArguments",
        message: "arguments.id 'yesterday' is not a UUID, `latest`, or the start of a handoff id (at least 8 hexadecimal "
          + "digits, e.g. 3F2504E0; a full id reads 3F2504E0-4F89-11D3-9A0C-0305E82C3301)"),
      BadReference(
        tool: tool, given: "3f2504e", kind: "invalidArguments",
        message: "arguments.id '3f2504e' is not a UUID, `latest`, or the start of a handoff id"),
      BadReference(
        tool: tool, given: "0123abcd", kind: "failed",
        message: "id '0123abcd': no handoff id begins with 0123ABCD (handoff_list lists them)"),
      // Review 23-a, 8: a well-formed longer prefix no handoff has was called malformed.
      BadReference(
        tool: tool, given: "0000000000", kind: "failed",
        message: "id '0000000000': no handoff id begins with 0000000000 (handoff_list lists them)"),
      BadReference(
        tool: tool, given: "3F2504E04F89-11D3", kind: "invalidArguments",
        message: "arguments.id '3F2504E04F89-11D3' is not a UUID, `latest`, or the start of a handoff id"),
    ]
  }

  @Test("a malformed id names the field, what was given and what is accepted; an unknown prefix says none has it", arguments: badReferences)
  func badReference(_ c: BadReference) async throws {
    let (fixture, _, _, _) = try Self.referencedWorkspace()
    let result = await Self.call(fixture, c.tool, ["id": .string(c.given)])
    #expect(result.isError)
    #expect(result.text.contains(c.message), "\(result.text)")
    let error = try #require(try Self.details(result)["error"])
    #expect(error["kind"] == .string(c.kind), "\(error)")
    if c.kind == "invalidArguments" { #expect(error["field"] == "arguments.id") }
    #expect(try fixture.engine.activeHandoff() == nil)
  }

  @Test("latest where no handoff exists says so, pointing to handoff_create")
  func latestWithNone() async throws {
    let fixture = WorkspaceFixture()
    _ = try fixture.capture(.fact, "Something to hold the workspace")
    let result = await Self.call(fixture, "handoff_restore", ["id": "latest"])
    #expect(result.isError)
    #expect(
      result.text.contains("id 'latest' names the newest handoff, and the workspace holds none; create one with handoff_create"),
      "\(result.text)")
  }

  // MARK: restore_session takes the same references (open point, s22)

  /// The brief `restore_session` gives for `given`, or its error.
  static func prompt(_ fixture: WorkspaceFixture, _ given: String) throws -> MCPPromptResult {
    try WorkspacePromptProvider(workspace: fixture.workspace).getPrompt(
      name: WorkspacePromptProvider.restoreSessionName, arguments: [WorkspacePromptProvider.handoffArgument: given])
  }

  @Test("restore_session takes latest and a unique id prefix, as handoff_get does, and marks nothing active")
  func promptLatestAndPrefix() throws {
    let (fixture, newest, older, _) = try Self.referencedWorkspace()
    for (given, expected) in [
      ("latest", newest), ("LATEST", newest), ("3f2504e0", older), ("3F2504E0-4F89", older), (" 7c9e6679\n", newest),
      (older.id.uuidString.lowercased(), older), ("3F2504E04F89", older),
    ] {
      let result = try Self.prompt(fixture, given)
      #expect(result.description == "Context from handoff \(expected.id.uuidString): \(expected.focus)", "\(given)")
      #expect(result.messages.first?.text.contains("[handoff \(expected.id.uuidString)]") == true, "\(given)")
    }
    #expect(try fixture.engine.activeHandoff() == nil, "a prompt is context only")
  }

  struct PromptRefusal: CustomStringConvertible, Sendable {
    var name: String
    var given: String
    /// The prompt's message; the tools' says the same of their `id` (`handoff_id '…'` → `id '…'`).
    var message: String
    var description: String { name }
  }

  static let promptRefusals = [
    PromptRefusal(
      name: "ambiguous prefix", given: "abcdef01",
      message: "handoff_id 'abcdef01' begins 2 handoff ids, so it names none of them: ABCDEF01-0000-4000-8000-000000000002 "
        + "\"Twin two\"; ABCDEF01-0000-4000-8000-000000000001 \"Twin one\". Give more of the id"),
    PromptRefusal(
      name: "unknown prefix", given: "0123abcd",
      message: "handoff_id '0123abcd': no handoff id begins with 0123ABCD (handoff_list lists them)"),
    // Review 23-a, 8: it was refused as malformed (-32602 with the wrong reason).
    PromptRefusal(
      name: "unknown prefix of 10 digits", given: "0000000000",
      message: "handoff_id '0000000000': no handoff id begins with 0000000000 (handoff_list lists them)"),
    PromptRefusal(
      name: "neither a UUID, latest nor a prefix", given: "yesterday",
      message: "handoff_id 'yesterday' is not a UUID, `latest`, or the start of a handoff id (at least 8 hexadecimal "
        + "digits, e.g. 3F2504E0; a full id reads 3F2504E0-4F89-11D3-9A0C-0305E82C3301)"),
  ]

  @Test("restore_session refuses an ambiguous, unknown or malformed reference with handoff_get's message", arguments: promptRefusals)
  func promptRefusal(_ c: PromptRefusal) async throws {
    let (fixture, _, _, _) = try Self.referencedWorkspace()
    #expect(throws: MCPServerError.invalidParams(c.message)) { try Self.prompt(fixture, c.given) }
    let tool = await Self.call(fixture, "handoff_get", ["id": .string(c.given)])
    #expect(tool.isError)
    let toolMessage = c.message.replacingOccurrences(of: "handoff_id '", with: "id '")
    #expect(tool.text.contains(toolMessage), "\(tool.text)")
  }

  @Test("restore_session with latest where no handoff exists points to handoff_create")
  func promptLatestWithNone() throws {
    let fixture = WorkspaceFixture()
    _ = try fixture.capture(.fact, "Something to hold the workspace")
    #expect(
      throws: MCPServerError.invalidParams(
        "handoff_id 'latest' names the newest handoff, and the workspace holds none; create one with handoff_create")
    ) { try Self.prompt(fixture, "latest") }
  }

  // MARK: The restore brief: since the handoff, and stale advice

  @Test("handoff_restore carries the knowledge captured and the tasks added or completed since, in text and structuredContent")
  func restoreSince() async throws {
    let fixture = WorkspaceFixture()
    let engine = fixture.engine
    let old = try fixture.capture(.decision, "Use Postgres 16 for storage")
    let carriedTask = try engine.addTask(title: "Benchmark the store")
    let h = try engine.createHandoff(
      HandoffRequest(focus: "Storage layer", knowledgeIDs: [old.id], taskIDs: [carriedTask.id], activate: true)
    ).handoff
    let new = try engine.capture(
      CaptureRequest(
        kind: .decision, title: "Stay on SQLite for storage", relationships: [KnowledgeRelationship(kind: .supersedes, targetID: old.id)])
    ).item
    let added = try engine.addTask(title: "Write the migration note", priority: .high)
    _ = try engine.completeTaskReportingOutcome(id: carriedTask.id)

    let result = await Self.call(fixture, "handoff_restore", ["id": "latest"])
    #expect(!result.isError, "\(result.text)")
    let s = try #require(result.structuredContent)
    #expect(s["capturedSinceTotal"] == 1 && s["tasksSinceTotal"] == 2, "\(s)")
    #expect(s["capturedSince"]?.array?.first?["id"] == .string(new.id.uuidString))
    #expect(s["capturedSince"]?.array?.first?["supersedes"] == [.string(old.id.uuidString)])
    #expect(s["tasksSince"]?.array?.map { $0["id"] } == [.string(added.id.uuidString), .string(carriedTask.id.uuidString)])
    #expect(s["tasksSince"]?.array?.map { $0["change"] } == ["added", "completed"])

    let lines = result.text.split(separator: "\n").map(String.init)
    #expect(lines.contains("Since it was made (\(ISO8601.string(from: h.createdAt))): 1 knowledge item captured, 2 tasks added, completed or updated."), "\(result.text)")
    #expect(
      lines.contains(
        "Captured since: decision \"Stay on SQLite for storage\" (id \(new.id.uuidString); supersedes \(old.id.uuidString) (in this handoff))"),
      "\(result.text)")
    #expect(lines.contains("Task since: \"Write the migration note\" (id \(added.id.uuidString); added, now open)"), "\(result.text)")
    #expect(lines.contains("Task since: \"Benchmark the store\" (id \(carriedTask.id.uuidString); completed, now completed)"), "\(result.text)")
  }

  @Test("a restored handoff that is stale says why and what clears it, in the tools' terms, in text and structuredContent")
  func restoreStale() async throws {
    let (fixture, newest, older, _) = try Self.referencedWorkspace()
    _ = try fixture.capture(.context, "Clients read structuredContent first")

    // An older handoff whose newer one is stale too (the capture came after both): not sent to
    // that one, which would say the same (review 31-a, 6), but told to create one marked active.
    let bothStale = await Self.call(fixture, "handoff_restore", ["id": "3F2504E0"])
    let b = try #require(bothStale.structuredContent?["stale"])
    #expect(b["remedy"] == "createActive" && b["newerHandoffID"] == nil, "\(b)")
    #expect(
      bothStale.text.hasSuffix(
        "to clear it, create a new handoff marked active (handoff_create with activate: true) or deactivate this one (handoff_deactivate)."),
      "\(bothStale.text)")
    #expect(newest.createdAt >= older.createdAt)

    // A newer handoff made after the capture, not stale itself: restore it instead.
    let fresh = try fixture.engine.createHandoff(HandoffRequest(focus: "Search ranking, again")).handoff
    let stale = await Self.call(fixture, "handoff_restore", ["id": "3F2504E0"])
    let s = try #require(stale.structuredContent?["stale"])
    #expect(s["handoffID"] == .string(older.id.uuidString))
    #expect(s["remedy"] == "restoreNewer" && s["newerHandoffID"] == .string(fresh.id.uuidString), "\(s)")
    #expect(s["capturedAfter"] == 1 && s["isOld"] == false && s["priority"] == "normal" && s["staleAfterDays"] == 14, "\(s)")
    let advice = "restore the newer handoff \"Search ranking, again\" (handoff_restore with id \(fresh.id.uuidString)) or deactivate this one (handoff_deactivate)."
    #expect(s["advice"] == .string(advice))
    #expect(
      stale.text.hasSuffix(
        "May be stale (rule stale-handoff, priority normal): 1 knowledge item was captured after it; to clear it, " + advice),
      "\(stale.text)")

    // The newest one, older than 14 days and with a capture after it: create one marked active.
    let aged = WorkspaceFixture()
    let now = aged.engine.environment.now()
    let h = try Self.handoff("7C9E6679-7425-40DE-944B-E07FC1F90AE7", "Search ranking", daysAgo: 15, from: now)
    try aged.insert(h)
    _ = try aged.capture(.fact, "BM25 k1 is 1.2")
    let restored = await Self.call(aged, "handoff_restore", ["id": "latest"])
    let t = try #require(restored.structuredContent?["stale"])
    #expect(t["remedy"] == "createActive" && t["newerHandoffID"] == nil && t["isOld"] == true && t["priority"] == "high", "\(t)")
    #expect(
      restored.text.contains(
        "May be stale (rule stale-handoff, priority high): it is just over 15 days old (older than 14 days) "),
      "\(restored.text)")
    #expect(
      restored.text.hasSuffix(
        "and 1 knowledge item was captured after it; to clear it, create a new handoff marked active (handoff_create with "
          + "activate: true) or deactivate this one (handoff_deactivate)."),
      "\(restored.text)")
    // The same test as the insight the restored (now active) handoff raises.
    let insight = try #require(try aged.engine.insights().insights.first { $0.rule == .staleHandoff })
    #expect(insight.priority.rawValue == t["priority"]?.string)
    #expect(insight.message.contains(try #require(t["reason"]?.string)))
  }

  @Test("a handoff with nothing since says so, and is not stale")
  func restoreNothingSince() async throws {
    let fixture = WorkspaceFixture()
    let h = try fixture.engine.createHandoff(HandoffRequest(focus: "Quiet day")).handoff
    let result = await Self.call(fixture, "handoff_restore", ["id": .string(h.id.uuidString)])
    #expect(result.structuredContent?["stale"] == nil)
    #expect(result.structuredContent?["capturedSinceTotal"] == 0 && result.structuredContent?["tasksSince"] == [])
    #expect(
      result.text == """
        Restored handoff \(h.id.uuidString) as context only (nothing was re-run); it carries 0 knowledge items and 0 tasks.
        Focus: Quiet day
        Summary: \(h.summary)
        Since it was made (\(ISO8601.string(from: h.createdAt))): 0 knowledge items captured, 0 tasks added, completed or updated.
        """)
  }
}
