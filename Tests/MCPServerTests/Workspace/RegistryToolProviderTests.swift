import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Synchronization
import Testing
import TestSupport

@Suite("RegistryToolProvider: the registry over MCP, approvals and receipts")
struct RegistryToolProviderTests {
  static let capture: JSONObject = [
    "kind": "decision", "title": "Use SQLite WAL", "tags": ["Storage"],
  ]

  @Test("tools/list is the registry: names, order, schemas and annotations from each definition")
  func listing() throws {
    let fixture = WorkspaceFixture()
    let registry = ToolRegistry.standard
    let tools = RegistryToolProvider(registry: registry, workspace: fixture.workspace).listTools()
    #expect(tools.map(\.name) == registry.names)
    for (descriptor, tool) in zip(tools, registry.tools) {
      #expect(descriptor.title == tool.title)
      #expect(descriptor.description == tool.description)
      #expect(JSONValue.object(descriptor.inputSchema) == tool.inputSchema)
      #expect(descriptor.outputSchema.map(JSONValue.object) == tool.outputSchema)
      #expect(
        descriptor.annotations
          == MCPToolAnnotations(
            readOnlyHint: tool.risk == .readOnly, destructiveHint: false,
            idempotentHint: tool.isIdempotent, openWorldHint: false), "\(tool.name)")
    }
    #expect(tools.contains { $0.annotations?.readOnlyHint == false }, "some tool writes")
  }

  @Test("Accepted elicitation: the exact call is shown, the write runs, the receipt says mcp:elicitation")
  func elicitationAccepted() async throws {
    let fixture = WorkspaceFixture()
    let client = FakeElicitation { MCPElicitationResult(action: .accept, content: ["approve": true]) }
    let provider = RegistryToolProvider(workspace: fixture.workspace)
    let result = await provider.callTool(
      name: "knowledge_capture", arguments: Self.capture, context: client.context())
    #expect(!result.isError, "\(result.text)")
    let item = try #require(result.structuredContent?["item"])
    #expect(item["title"] == "Use SQLite WAL")
    #expect(item["tags"] == ["storage"])
    #expect(result.text.hasPrefix("Captured decision \"Use SQLite WAL\""))

    let asked = try #require(client.requests.first)
    #expect(client.requests.count == 1)
    #expect(
      asked.message.contains(
        #"knowledge_capture {"kind":"decision","priority":"normal","tags":["storage"],"title":"Use SQLite WAL"}"#
      ), "\(asked.message)")
    #expect(asked.message.contains("call id \"007\""))
    #expect(asked.schema == RegistryToolProvider.approvalSchema)

    let receipt = try #require(try fixture.receipts.last)
    #expect(receipt.callID == #""007""#)
    #expect(receipt.outcome == .succeeded)
    #expect(receipt.approval == "mcp:elicitation")
    #expect(receipt.changedIDs.first?.uuidString == item["id"]?.string)
  }

  struct Refusal: CustomStringConvertible, Sendable {
    var name: String
    var answer: @Sendable () throws -> MCPElicitationResult
    var reason: String
    var description: String { name }
  }

  struct ClientFailure: Error, CustomStringConvertible {
    var description: String { "the client crashed (fake)" }
  }

  static let refusals: [Refusal] = [
    Refusal(name: "decline", answer: { MCPElicitationResult(action: .decline) }, reason: "declined"),
    Refusal(name: "cancel", answer: { MCPElicitationResult(action: .cancel) }, reason: "dismissed"),
    Refusal(
      name: "accept unticked", answer: { MCPElicitationResult(action: .accept, content: ["approve": false]) },
      reason: "did not tick"),
    Refusal(
      name: "accept without approve", answer: { MCPElicitationResult(action: .accept, content: [:]) },
      reason: "accepted without the required \"approve\" field"),
    Refusal(
      name: "accept without content", answer: { MCPElicitationResult(action: .accept) },
      reason: "accepted without the required \"approve\" field"),
    Refusal(
      name: "accept with a string approve", answer: { MCPElicitationResult(action: .accept, content: ["approve": "yes"]) },
      reason: "\"approve\" set to a string, not a boolean"),
    Refusal(name: "client error", answer: { throw ClientFailure() }, reason: "could not be asked"),
    Refusal(name: "cancelled call", answer: { throw CancellationError() }, reason: "cancelled while waiting"),
  ]

  @Test("Refused approval: a denied receipt and nothing written", arguments: refusals)
  func refused(_ refusal: Refusal) async throws {
    let fixture = WorkspaceFixture()
    let client = FakeElicitation(refusal.answer)
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: "knowledge_capture", arguments: Self.capture, context: client.context(id: .init(9)))
    #expect(result.isError)
    #expect(result.text.hasPrefix("knowledge_capture was not run: "))
    #expect(result.text.contains(refusal.reason), "\(result.text)")
    #expect(result.structuredContent?["error"]?["kind"] == "denied")
    #expect(result.structuredContent?["receipt"]?["outcome"] == "denied")
    #expect(result.structuredContent?["receipt"]?["callID"] == "9")
    #expect(try fixture.knowledgeTitles.isEmpty)
    let receipt = try #require(try fixture.receipts.last)
    #expect(receipt.outcome == .denied && receipt.approval == nil && receipt.changedIDs.isEmpty)
  }

  struct PolicyCase: CustomStringConvertible, Sendable {
    var policy: MCPWritePolicy
    var canElicit: Bool
    var runs: Bool
    var asks: Bool
    var approval: String?
    var message: String?
    var description: String { "--writes \(policy.rawValue), canElicit \(canElicit)" }
  }

  static let policies: [PolicyCase] = [
    PolicyCase(
      policy: .ask, canElicit: false, runs: false, asks: false, approval: nil,
      message: "restart the server as `dolphin mcp --writes allow`"),
    PolicyCase(policy: .allow, canElicit: false, runs: true, asks: false, approval: "policy:allow"),
    PolicyCase(policy: .deny, canElicit: false, runs: false, asks: false, approval: nil, message: "--writes deny"),
    PolicyCase(policy: .ask, canElicit: true, runs: true, asks: true, approval: "mcp:elicitation"),
    PolicyCase(policy: .allow, canElicit: true, runs: true, asks: true, approval: "mcp:elicitation"),
    PolicyCase(policy: .deny, canElicit: true, runs: false, asks: false, approval: nil, message: "--writes deny"),
  ]

  @Test("The write policy decides only when the client cannot ask (deny always refuses)", arguments: policies)
  func policy(_ c: PolicyCase) async throws {
    let fixture = WorkspaceFixture()
    let client = FakeElicitation { MCPElicitationResult(action: .accept, content: ["approve": true]) }
    let provider = RegistryToolProvider(workspace: fixture.workspace, writes: c.policy)
    let result = await provider.callTool(
      name: "knowledge_capture", arguments: Self.capture, context: client.context(canElicit: c.canElicit))
    #expect(result.isError == !c.runs, "\(result.text)")
    #expect(client.requests.count == (c.asks ? 1 : 0))
    if let message = c.message { #expect(result.text.contains(message), "\(result.text)") }
    #expect(try fixture.knowledgeTitles == (c.runs ? ["Use SQLite WAL"] : []))
    #expect(try fixture.receipts.last?.approval == c.approval)
    // Provenance says whether a person approved this call (review 20-b, #7): a write that ran
    // under --writes allow without asking is agentAllowed, never agentApproved.
    if c.runs {
      let source = result.structuredContent?["item"]?["source"]
      #expect(source == (c.approval == "policy:allow" ? "agentAllowed" : "agentApproved"), "\(result.structuredContent as Any)")
    }
  }

  @Test("The approval form's box starts unticked: accepting the form as shown approves nothing")
  func approvalBoxStartsUnticked() {
    let approve = RegistryToolProvider.approvalSchema["properties"]?["approve"]
    #expect(approve?["default"] == false)
    #expect(approve?["type"] == "boolean")
  }

  @Test("A read-only call asks nobody and still leaves a receipt")
  func readOnly() async throws {
    let fixture = WorkspaceFixture()
    let item = try fixture.capture(.fact, "SQLite 3.40 is installed")
    let client = FakeElicitation { MCPElicitationResult(action: .decline) }
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: "knowledge_search", arguments: ["query": "sqlite"], context: client.context())
    #expect(!result.isError)
    #expect(result.structuredContent?["results"]?.array?.first?["id"] == .string(item.id.uuidString))
    #expect(result.structuredContent?["mode"] == "hybrid-lexical")
    #expect(client.requests.isEmpty)
    #expect(try fixture.receipts.map(\.approval) == ["notRequired"])
  }

  @Test("Invalid arguments: an isError result naming the field, a failed receipt, nobody asked")
  func invalidArguments() async throws {
    let fixture = WorkspaceFixture()
    let client = FakeElicitation { MCPElicitationResult(action: .accept) }
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: "knowledge_capture", arguments: ["kind": "decison", "title": "x", "extra": 1],
      context: client.context())
    #expect(result.isError)
    #expect(result.structuredContent?["error"]?["kind"] == "invalidArguments")
    #expect(result.text.contains("unknown field 'extra'"), "\(result.text)")
    #expect(client.requests.isEmpty)
    #expect(try fixture.receipts.map(\.outcome) == [.failed])
  }

  /// Arguments each valid alone that the engine refuses, and the argument it names.
  struct EngineArgumentCase: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: JSONObject
    var field: String
    var testDescription: String { name }
  }

  static let engineArgumentCases = [
    EngineArgumentCase(
      name: "kinds with includeMemories", arguments: ["query": "colour", "kinds": ["fact"], "includeMemories": true],
      field: "arguments.includeMemories"),
    EngineArgumentCase(name: "a tag with a line break", arguments: ["query": "colour", "tag": "a\nb"], field: "arguments.tag"),
    // Review 18-d, M1: accepted, it left memories out while its scope said they were searched.
    EngineArgumentCase(
      name: "a tag with includeMemories", arguments: ["query": "colour", "tag": "x", "includeMemories": true],
      field: "arguments.includeMemories"),
  ]

  @Test("An argument the engine refuses is invalidArguments naming the field, with a failed receipt", arguments: engineArgumentCases)
  func engineArgumentError(_ c: EngineArgumentCase) async throws {
    let fixture = WorkspaceFixture()
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: "knowledge_search", arguments: c.arguments, context: FakeElicitation { MCPElicitationResult(action: .accept) }.context())
    #expect(result.isError)
    #expect(result.structuredContent?["error"]?["kind"] == "invalidArguments", "\(result.text)")
    #expect(result.structuredContent?["error"]?["field"] == .string(c.field), "\(result.text)")
    #expect(result.text.hasPrefix("knowledge_search was not run: invalid arguments: "), "\(result.text)")
    // The message names the argument as the schema's refusals do (review, s17: `tag 'a\nb' …`).
    #expect(result.text.hasPrefix("knowledge_search was not run: invalid arguments: \(c.field) "), "\(result.text)")
    #expect(result.structuredContent?["receipt"]?["outcome"] == "failed")
    #expect(try fixture.receipts.map(\.outcome) == [.failed])
  }

  @Test("A failure inside the tool is an isError result with the engine's message")
  func toolFailure() async throws {
    let fixture = WorkspaceFixture()
    let missing = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: "knowledge_get", arguments: ["id": .string(missing)],
      context: FakeElicitation { MCPElicitationResult(action: .accept) }.context())
    #expect(result.isError)
    #expect(result.text == "knowledge_get failed: no knowledge item has the id \(missing)")
    #expect(result.structuredContent?["error"]?["kind"] == "failed")
  }

  /// A write tool given credential-looking text, and the field its refusal names.
  struct CredentialCase: Sendable, CustomTestStringConvertible {
    var tool: String
    var arguments: JSONObject
    var field: String
    var testDescription: String { tool }
  }

  static let credentialCases = [
    CredentialCase(tool: "knowledge_capture", arguments: ["kind": "fact", "title": "Deploy", "content": "password=hunter22222"], field: "content"),
    CredentialCase(tool: "memory_save", arguments: ["text": "password=hunter22222"], field: "text"),
    CredentialCase(tool: "task_add", arguments: ["title": "password=hunter22222"], field: "title"),
    CredentialCase(tool: "handoff_create", arguments: ["focus": "password=hunter22222"], field: "focus"),
  ]

  @Test(
    "A credential refusal says the client cannot store it and names the commands with which the user can",
    arguments: credentialCases)
  func credentialRefusal(_ c: CredentialCase) async throws {
    let fixture = WorkspaceFixture()
    let result = await RegistryToolProvider(workspace: fixture.workspace, writes: .allow).callTool(
      name: c.tool, arguments: c.arguments, context: FakeElicitation { MCPElicitationResult(action: .accept) }.context(canElicit: false))
    #expect(result.isError)
    #expect(
      result.text
        == "\(c.tool) failed: \(c.field) looks like it holds a credential (password or secret assignment at line 1, column 1); "
        + "it was not stored. Remove the secret; an agent or MCP client cannot store such text. The user can, deliberately: "
        + "`dolphin capture`, `memory save`, `task add` and `handoff create` take --allow-credentials")
    #expect(try fixture.receipts.last?.message == String(result.text.dropFirst("\(c.tool) failed: ".count)))
    #expect(try fixture.engine.store.read { try $0.counts() }.filter { $0.key != "receipt" }.values.allSatisfy { $0 == 0 })
  }

  /// Review 24-a, 1 (`/tmp/r24/repro1.py`): the tools refused these, yet the receipts kept the
  /// quoted secrets, the key, and the refused values their messages quoted.
  @Test("A refused call's receipt keeps no quoted secret, key or echoed value; the result names the field and the reason")
  func quotedCredentialsWithheldFromReceipts() async throws {
    let fixture = WorkspaceFixture()
    try fixture.capture(.fact, "seed")
    let provider = RegistryToolProvider(workspace: fixture.workspace, writes: .allow)
    let calls: [(String, JSONObject, String)] = [
      ("knowledge_capture", ["kind": "fact", "title": "db creds", "content": #"PASSWORD="Tr0ub4dor&3""#], "Tr0ub4dor"),
      ("task_add", ["title": "rotate", "notes": #"{"api_key": "sk9f8e7d6c5b4a3"}"#], "sk9f8e7d6c5b4a3"),
      ("knowledge_search", ["query": "x", "kinds": [.string(FakeSecrets.gitHub)]], FakeSecrets.gitHub),
      ("knowledge_search", ["query": "x", FakeSecrets.gitHub: 1], FakeSecrets.gitHub),
      ("knowledge_get", ["id": "password=hunter2xyz99"], "hunter2xyz99"),
    ]
    var texts: [String] = []
    for (tool, arguments, secret) in calls {
      let result = await provider.callTool(
        name: tool, arguments: arguments, context: FakeElicitation { MCPElicitationResult(action: .accept) }.context(canElicit: false))
      #expect(result.isError, "\(tool): \(result.text)")
      #expect(!result.text.contains(secret), "\(result.text)")
      texts.append(result.text)
    }
    #expect(texts[0].hasPrefix("knowledge_capture failed: content looks like it holds a credential (password or secret assignment"))
    #expect(texts[2].contains("arguments.kinds[0] '[withheld: looks like a credential (GitHub token)]' is not one of: "), "\(texts[2])")
    #expect(texts[4].contains("arguments.id '[withheld: looks like a credential (password or secret assignment)]' is not a UUID"), "\(texts[4])")
    let receipts = try fixture.receipts
    #expect(receipts.count == calls.count)
    for receipt in receipts {
      for call in calls {
        #expect(!receipt.arguments.contains(call.2) && !receipt.message.contains(call.2), "\(receipt.arguments) \(receipt.message)")
      }
      #expect(receipt.arguments.contains("[withheld: looks like a credential ("), "\(receipt.arguments)")
    }
    let snapshot = try fixture.engine.store.read { try $0.snapshot() }
    let export = String(decoding: try StableJSON.encoder().encode(snapshot), as: UTF8.self)
    for call in calls { #expect(!export.contains(call.2), "\(call.2) in the export") }
  }

  /// Review 21-a F1: an agent stored `.env`-style keys with text around the credential word.
  static let affixedKeys = [
    "REDIS_PASSWORD_PROD=Tr0ub4dor3", "SECRET_KEY_BASE=0123456789abcdef0123456789abcdef",
    "GITHUB_TOKEN_CI=abcdef1234567890abcd", "client_secret_prod = \"abcdef123456\"", "password2 = \"Tr0ub4dor&3\"",
    "db_password_2=Tr0ub4dor3", "token1: abcdef123456", "REDIS_PASSWORD=Tr0ub4dor3",
  ]

  @Test("knowledge_capture refuses a key with a prefix, suffix or digit around the credential word", arguments: affixedKeys)
  func affixedKeyRefused(_ content: String) async throws {
    let fixture = WorkspaceFixture()
    let result = await RegistryToolProvider(workspace: fixture.workspace, writes: .allow).callTool(
      name: "knowledge_capture", arguments: ["kind": "fact", "title": "env", "content": .string(content)],
      context: FakeElicitation { MCPElicitationResult(action: .accept) }.context(canElicit: false))
    #expect(result.isError)
    #expect(
      result.text.hasPrefix(
        "knowledge_capture failed: content looks like it holds a credential (password or secret assignment at line 1, column 1); "
          + "it was not stored. Remove the secret; an agent or MCP client cannot store such text."),
      "\(result.text)")
    #expect(try fixture.engine.store.read { try $0.counts() }.filter { $0.key != "receipt" }.values.allSatisfy { $0 == 0 })
  }

  /// A write the engine refuses whatever the user answers, and the start of its refusal.
  struct DoomedWrite: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var tool: String
    var arguments: JSONObject
    var refusal: String
    /// The argument the refusal names in `error.field`, when it names one (review 22, 5).
    var field: String? = nil
  }

  static let unknownID = "00000000-0000-0000-0000-000000000000"

  static let doomedWrites = [
    DoomedWrite(
      testDescription: "task_add with a GitHub token", tool: "task_add",
      arguments: ["title": .string("tok \(FakeSecrets.gitHub)")],
      refusal: "title looks like it holds a credential (GitHub token at line 1, column 5); it was not stored."),
    DoomedWrite(
      testDescription: "knowledge_capture with a password", tool: "knowledge_capture",
      arguments: ["kind": "fact", "title": "Deploy", "content": "password=hunter22222"],
      refusal: "content looks like it holds a credential (password or secret assignment at line 1, column 1);"),
    DoomedWrite(
      testDescription: "memory_save with an AWS secret key", tool: "memory_save",
      arguments: ["text": .string("aws_secret_access_key=\(FakeSecrets.awsSecretExample)")],
      refusal: "text looks like it holds a credential (AWS secret access key at line 1, column 1);"),
    DoomedWrite(
      testDescription: "handoff_create with a bearer token", tool: "handoff_create",
      arguments: ["focus": "Deploy", "summary": "Authorization: Bearer abcdef0123456789abcdef0123456789"],
      refusal: "summary looks like it holds a credential (bearer token at line 1, column 16);"),
    DoomedWrite(
      testDescription: "task_complete of an unknown id", tool: "task_complete", arguments: ["id": .string(unknownID)],
      refusal: "no task has the id \(unknownID)"),
    DoomedWrite(
      testDescription: "task_reopen of an unknown id", tool: "task_reopen", arguments: ["id": .string(unknownID)],
      refusal: "no task has the id \(unknownID)"),
    DoomedWrite(
      testDescription: "handoff_restore of an unknown id", tool: "handoff_restore", arguments: ["id": .string(unknownID)],
      refusal: "no handoff has the id \(unknownID)"),
    DoomedWrite(
      testDescription: "knowledge_capture related to an unknown item", tool: "knowledge_capture",
      arguments: ["kind": "fact", "title": "t", "relationships": [["kind": "supports", "targetID": .string(unknownID)]]],
      refusal: "arguments.relationships[0].targetID: no knowledge item has the id \(unknownID)",
      field: "arguments.relationships[0].targetID"),
    DoomedWrite(
      testDescription: "task_add citing an unknown item", tool: "task_add",
      arguments: ["title": "t", "knowledgeIDs": [.string(unknownID)]],
      refusal: "arguments.knowledgeIDs[0]: no knowledge item has the id \(unknownID)", field: "arguments.knowledgeIDs[0]"),
    DoomedWrite(
      testDescription: "handoff_create carrying an unknown task", tool: "handoff_create",
      arguments: ["focus": "f", "taskIDs": [.string(unknownID)]],
      refusal: "arguments.taskIDs[0]: no task has the id \(unknownID)", field: "arguments.taskIDs[0]"),
  ]

  /// Review (s17, F8): an elicitation-capable client showed the approval form — with the
  /// credential-looking text in it — for writes the engine then refused.
  @Test(
    "A write the engine would refuse is refused before anyone is asked, with the result and receipt of the engine's refusal",
    arguments: doomedWrites)
  func refusedBeforeAsking(_ c: DoomedWrite) async throws {
    // The same call without the tool's checks: asked, approved, then refused by the engine.
    let unchecked = ToolRegistry(
      ToolRegistry.standard.tools.map { tool in
        var tool = tool
        tool.preflight = nil
        tool.unchangedAnswer = nil
        return tool
      })
    let approving: @Sendable () -> MCPElicitationResult = { MCPElicitationResult(action: .accept, content: ["approve": true]) }
    let afterApproval = WorkspaceFixture()
    let asked = FakeElicitation(approving)
    let engineRefusal = await RegistryToolProvider(registry: unchecked, workspace: afterApproval.workspace).callTool(
      name: c.tool, arguments: c.arguments, context: asked.context())
    #expect(asked.requests.count == 1)

    let fixture = WorkspaceFixture()
    let client = FakeElicitation(approving)
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: c.tool, arguments: c.arguments, context: client.context())
    #expect(client.requests.isEmpty, "asked: \(client.requests.map { $0.message })")
    #expect(result.isError)
    #expect(result.text.hasPrefix("\(c.tool) failed: \(c.refusal)"), "\(result.text)")
    #expect(result.text == engineRefusal.text)
    #expect(result.structuredContent?["error"] == engineRefusal.structuredContent?["error"])
    #expect(result.structuredContent?["error"]?["kind"] == "failed")
    #expect(result.structuredContent?["error"]?["field"] == c.field.map(JSONValue.string), "\(result.structuredContent ?? [:])")
    #expect(result.structuredContent?["receipt"]?["outcome"] == "failed")
    let receipt = try #require(try fixture.receipts.last)
    let receiptAfterApproval = try #require(try afterApproval.receipts.last)
    #expect(try fixture.receipts.count == 1)
    #expect(receipt.outcome == .failed && receipt.approval == nil && receipt.changedIDs.isEmpty)
    #expect(receiptAfterApproval.approval == "mcp:elicitation")
    #expect(receipt.message == receiptAfterApproval.message)
    #expect(receipt.arguments == receiptAfterApproval.arguments)
    #expect(!receipt.arguments.contains("FAKEfake") && !receipt.arguments.contains("hunter22222"), "\(receipt.arguments)")
    #expect(try fixture.engine.store.read { try $0.counts() }.filter { $0.key != "receipt" }.values.allSatisfy { $0 == 0 })
  }

  /// Review 22 (5): the index named is the caller's own, counted in the arguments as sent —
  /// before the schema dropped a repeated id (the same id in another case) — and the id is
  /// matched in any case.
  @Test("an unknown id after a repeated one is named at its index in the arguments as sent")
  func unknownIDNamedAtItsGivenIndex() async throws {
    let fixture = WorkspaceFixture()
    let item = try fixture.capture(.fact, "SQLite 3.40 is installed")
    let unknown = Self.unknownID.replacingOccurrences(of: "0000-0000-0000-000000000000", with: "0000-0000-0000-00000000abcd")
    let result = await RegistryToolProvider(workspace: fixture.workspace, writes: .allow).callTool(
      name: "task_add",
      arguments: [
        "title": "Upgrade SQLite",
        "knowledgeIDs": [.string(item.id.uuidString), .string(item.id.uuidString.lowercased()), .string(unknown)],
      ],
      context: FakeElicitation { MCPElicitationResult(action: .decline) }.context(canElicit: false))
    #expect(result.isError)
    #expect(
      result.text == "task_add failed: arguments.knowledgeIDs[2]: no knowledge item has the id \(unknown.uppercased())",
      "\(result.text)")
    #expect(result.structuredContent?["error"]?["field"] == "arguments.knowledgeIDs[2]")
    #expect(result.structuredContent?["error"]?["kind"] == "failed")
  }

  @Test("A write that can succeed is still asked for, and runs once approved")
  func passingChecksStillAsk() async throws {
    let fixture = WorkspaceFixture()
    let item = try fixture.capture(.fact, "SQLite 3.40 is installed")
    let client = FakeElicitation { MCPElicitationResult(action: .accept, content: ["approve": true]) }
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: "task_add", arguments: ["title": "Upgrade SQLite", "knowledgeIDs": [.string(item.id.uuidString)]],
      context: client.context())
    #expect(!result.isError, "\(result.text)")
    #expect(client.requests.count == 1)
    #expect(try fixture.receipts.last?.approval == "mcp:elicitation")
  }

  @Test("An unusable workspace is an isError result, and the next call opens it again")
  func workspaceUnavailable() async throws {
    let attempts = Mutex(0)
    let engine = WorkspaceFixture().engine
    let workspace = MCPWorkspace(path: "/nowhere/ws") {
      let attempt = attempts.withLock { n in
        n += 1
        return n
      }
      if attempt == 1 { throw WorkspaceError.damaged(file: "/nowhere/ws/workspace.sqlite", message: "not a database") }
      return engine
    }
    let provider = RegistryToolProvider(workspace: workspace)
    let context = FakeElicitation { MCPElicitationResult(action: .accept) }.context()
    let failed = await provider.callTool(name: "knowledge_search", arguments: ["query": "x"], context: context)
    #expect(failed.isError)
    #expect(failed.structuredContent?["error"]?["kind"] == "workspaceUnavailable")
    #expect(failed.text.contains("the Dolphin workspace at /nowhere/ws cannot be used"), "\(failed.text)")
    #expect(failed.text.contains("dolphin doctor"))
    let recovered = await provider.callTool(name: "knowledge_search", arguments: ["query": "x"], context: context)
    #expect(!recovered.isError)
    #expect(attempts.withLock { $0 } == 2)
  }

  // Review 18-d: "knowledge_capture was not run: invalid arguments: … ; the call was not run".
  @Test("an argument refused by the schema says once that the call was not run")
  func notRunSaidOnce() async throws {
    let fixture = WorkspaceFixture()
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: "knowledge_capture", arguments: ["kind": "fact", "title": "ok", "content": "   "],
      context: FakeElicitation { MCPElicitationResult(action: .accept) }.context())
    #expect(result.isError)
    #expect(result.text.hasPrefix("knowledge_capture was not run: invalid arguments: arguments.content "), "\(result.text)")
    #expect(result.text.components(separatedBy: "not run").count == 2, "\(result.text)")
  }

  /// Review 19-c, finding 3: an MCP `knowledge_capture` that supersedes a goal rewrote the
  /// summary of the handoff carrying it; the approval did not say so and the receipt listed
  /// only the new item.
  @Test("the approval of a capture that supersedes a carried item names the handoff it rewrites; the receipt lists it")
  func approvalNamesRewrittenHandoff() async throws {
    let fixture = WorkspaceFixture()
    let goal = try fixture.capture(.goal, "Ship beta by January 15")
    let handoff = try fixture.engine.createHandoff(HandoffRequest(focus: "Beta release prep", knowledgeIDs: [goal.id])).handoff
    let client = FakeElicitation { MCPElicitationResult(action: .accept, content: ["approve": true]) }
    let result = await RegistryToolProvider(workspace: fixture.workspace).callTool(
      name: "knowledge_capture",
      arguments: [
        "kind": "goal", "title": "Ship beta by February 1",
        "relationships": [["kind": "supersedes", "targetID": .string(goal.id.uuidString)]],
      ],
      context: client.context())
    #expect(!result.isError, "\(result.text)")
    let message = try #require(client.requests.first?.message)
    #expect(
      message.contains(
        "\n\nIt will also rewrite the rule-built summary of handoff \(handoff.id.uuidString) \"Beta release prep\".\n\n"),
      "\(message)")
    let item = try #require(result.structuredContent?["item"]?["id"]?.string.flatMap(UUID.init(uuidString:)))
    #expect(try fixture.receipts.last?.changedIDs == [item, handoff.id])
    #expect(result.structuredContent?["rebuiltHandoffIDs"] == [.string(handoff.id.uuidString)])
  }
}
