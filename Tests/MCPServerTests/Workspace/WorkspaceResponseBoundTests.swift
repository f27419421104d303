import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Review 19-a: `task_list {"limit":5000}` on 5,000 maximal tasks returned one 36 MB JSON-RPC
/// line (the text was bounded, `structuredContent` complete) while the server refuses any
/// incoming line over 4 MiB. Here the fewest maximal records whose listing passes the bound are
/// listed through the whole server: tasks at the default bound, handoffs at a server's bound of
/// 1 MiB (two maximal handoffs pass it).
@Suite("Workspace listings within the MCP response bound")
struct WorkspaceResponseBoundTests {
  /// One character of 40 UTF-8 bytes, the most a character may average (10 Unicode scalars of
  /// 4 bytes): a musical G clef with nine combining tremolos.
  static let heavy = "\u{1D11E}" + String(repeating: "\u{1D167}", count: 9)

  /// `characters` heavy characters: a field at its bound in characters and in bytes.
  static func text(_ characters: Int) -> String { String(repeating: heavy, count: characters) }

  static let bound = JSONRPCLimits().maximumResponseBytes

  /// 64 knowledge items and 64 tasks for the records to carry (the most a list holds).
  static func carried(_ engine: KnowledgeEngine) throws -> (knowledge: [UUID], tasks: [UUID]) {
    let knowledge = try (1...Limits.idsPerList).map { try engine.capture(CaptureRequest(kind: .fact, title: "K\($0)")).item.id }
    let tasks = try (1...Limits.idsPerList).map { try engine.addTask(title: "T\($0)").id }
    return (knowledge, tasks)
  }

  /// A `tools/call` line.
  static func call(_ id: String, _ tool: String, _ arguments: JSONObject) -> String {
    JSONValue.object([
      "jsonrpc": "2.0", "id": .string(id), "method": "tools/call",
      "params": ["name": .string(tool), "arguments": .object(arguments)],
    ]).jsonString()
  }

  /// Sends `line` and returns the raw answer, checked to be within the bound, and parsed.
  static func answer(_ session: WorkspaceServerTests.Session, _ line: String) async throws -> JSONValue {
    session.send(line)
    let raw = try #require(await session.transport.nextOutbound(timeout: testOutboundWait), "the server sent nothing")
    #expect(raw.utf8.count <= bound, "a response line of \(raw.utf8.count) bytes")
    return try JSONValue(parsing: raw)
  }

  /// Checks a cut listing: `listed` records asked for, the first of `expected` sent (compared
  /// whole, or by id only unless `wholeRecords`), the rest counted; returns how many were sent.
  static func expectCut(
    _ response: JSONValue, field: String, expected: [JSONValue], listed: Int, stated: Int = bound, offsetHint: String,
    wholeRecords: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Int {
    let result = try #require(response["result"], "\(response)", sourceLocation: sourceLocation)
    #expect(result["isError"] == false, sourceLocation: sourceLocation)
    let structured = try #require(result["structuredContent"], sourceLocation: sourceLocation)
    let sent = try #require(structured[field]?.array, sourceLocation: sourceLocation)
    #expect(sent.count > 0 && sent.count < listed, "sent \(sent.count) of \(listed)", sourceLocation: sourceLocation)
    // Whole records, the first in the listing's order, as the engine has them.
    #expect(sent.map { $0["id"] } == expected.prefix(sent.count).map { $0["id"] }, sourceLocation: sourceLocation)
    if wholeRecords {
      #expect(
        sent.map { $0.jsonString(sortedKeys: true) } == expected.prefix(sent.count).map { $0.jsonString(sortedKeys: true) },
        sourceLocation: sourceLocation)
    }
    #expect(structured["count"] == .integer(sent.count), sourceLocation: sourceLocation)
    #expect(structured["total"] == .integer(listed), sourceLocation: sourceLocation)
    #expect(structured["truncated"] == true, sourceLocation: sourceLocation)
    #expect(structured["omittedForSize"] == .integer(listed - sent.count), sourceLocation: sourceLocation)
    // The next page starts after the records sent (review 23-a, 3).
    #expect(
      structured["nextOffset"] == .integer((structured["offset"]?.int ?? 0) + sent.count), "\(structured["nextOffset"] ?? nil)",
      sourceLocation: sourceLocation)
    let text = try #require(result["content"]?.array?.first?["text"]?.string, sourceLocation: sourceLocation)
    #expect(
      text.hasSuffix(
        "\(listed - sent.count) more of the \(listed) \(field == "tasks" ? "task(s)" : "handoff(s)") listed were left out of this "
          + "response, whole, to keep it within \(stated) bytes (structuredContent.omittedForSize counts them); "
          + offsetHint.replacingOccurrences(of: "KEPT", with: "\(sent.count)") + "."),
      "\(text.suffix(400))", sourceLocation: sourceLocation)
    return sent.count
  }

  @Test("task_list over the fewest maximal tasks that pass 4 MiB: one line within it, the first tasks whole, the rest counted and paged")
  func taskList() async throws {
    let session = WorkspaceServerTests.Session()
    let engine = session.fixture.engine
    let (knowledge, _) = try Self.carried(engine)
    func addTask() throws -> TaskItem {
      try engine.addTask(title: Self.text(Limits.taskTitle), notes: Self.text(Limits.taskNotes), knowledgeIDs: knowledge)
    }
    let first = try addTask()
    let size = try JSONValue(encoding: first).serialized().count
    #expect(size > Limits.taskNotes * 40, "a maximal task is \(size) bytes")
    // The fewest tasks whose records alone are over the bound (and the 64 small ones above).
    let maximal = Self.bound / size + 1
    for _ in 1..<maximal { _ = try addTask() }
    let listed = maximal + Limits.idsPerList
    let expected = try engine.taskListing(limit: listed).tasks.map { try JSONValue(encoding: $0) }
    _ = try await session.initialize("{}")

    let response = try await Self.answer(session, Self.call("all", "task_list", ["limit": .integer(listed)]))
    let sent = try Self.expectCut(
      response, field: "tasks", expected: expected, listed: listed, offsetHint: "call task_list again with offset KEPT for the next ones")

    // The next page starts where this one stopped.
    let next = try await Self.answer(
      session, Self.call("next", "task_list", ["limit": .integer(listed), "offset": .integer(sent)]))
    let page = try #require(next["result"]?["structuredContent"]?["tasks"]?.array)
    #expect(page.first?["id"] == expected[sent]["id"])

    // A long id leaves less room: the line stays within the bound, with fewer tasks.
    let longID = String(repeating: "i", count: 1 << 20)
    let withLongID = try await Self.answer(session, Self.call(longID, "task_list", ["limit": .integer(listed)]))
    #expect(withLongID["id"] == .string(longID))
    let fewer = try Self.expectCut(
      withLongID, field: "tasks", expected: expected, listed: listed,
      offsetHint: "call task_list again with offset KEPT for the next ones", wholeRecords: false)
    #expect(fewer < sent)
    session.transport.finishInbound()
    await session.serving.value
  }

  /// A Dolphin server over `fixture` whose responses are bounded to `bound` bytes.
  static func server(_ fixture: WorkspaceFixture, bound: Int) -> MCPServer {
    MCPServer(
      configuration: .init(version: "9.9.9", limits: JSONRPCLimits(maximumResponseBytes: bound), log: { _ in }),
      tools: RegistryToolProvider(workspace: fixture.workspace))
  }

  @Test("handoff_list over the fewest maximal handoffs that pass a server's bound (1 MiB): the first handoffs whole, the rest counted")
  func handoffList() async throws {
    let fixture = WorkspaceFixture()
    let engine = fixture.engine
    let (knowledge, tasks) = try Self.carried(engine)
    func addHandoff() throws -> Handoff {
      try engine.createHandoff(
        HandoffRequest(
          focus: Self.text(Limits.handoffFocus), summary: Self.text(Limits.handoffSummary),
          nextSteps: Array(repeating: Self.text(Limits.handoffNextStepLength), count: Limits.handoffNextSteps),
          knowledgeIDs: knowledge, taskIDs: tasks,
          recentExcerpts: Array(repeating: Self.text(Limits.handoffExcerptLength), count: Limits.handoffExcerpts))
      ).handoff
    }
    let bound = 1 << 20
    let first = try addHandoff()
    let size = try JSONValue(encoding: first).serialized().count
    #expect(size > 13_900 * 40, "a maximal handoff is \(size) bytes")
    let count = bound / size + 1
    for _ in 1..<count { _ = try addHandoff() }
    let expected = try engine.listHandoffs(limit: count).handoffs.map { try JSONValue(encoding: $0) }

    let transport = InMemoryTransport()
    let serving = Task { await Self.server(fixture, bound: bound).run(transport: transport) }
    transport.writeInbound(
      #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
    )
    _ = try #require(await transport.nextOutbound(timeout: testOutboundWait))
    transport.writeInbound(Self.call("all", "handoff_list", ["limit": .integer(count)]))
    let raw = try #require(await transport.nextOutbound(timeout: testOutboundWait), "the server sent nothing")
    #expect(raw.utf8.count <= bound, "a response line of \(raw.utf8.count) bytes")
    let sent = try Self.expectCut(
      try JSONValue(parsing: raw), field: "handoffs", expected: expected, listed: count, stated: bound,
      offsetHint: "call handoff_list again with offset KEPT for the next ones")
    #expect(sent == count - 1)
    transport.finishInbound()
    await serving.value
  }
}
