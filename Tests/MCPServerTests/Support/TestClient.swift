import ContinuityKit
import MCPServer
import Testing

/// How long a test waits for the server's next line before it fails: long, because Swift
/// Testing runs suites side by side and on a loaded 2-core machine a line that takes
/// milliseconds alone waited more than the transport's 10-second default (a full run failed on
/// it while every MCP suite passed alone). A server that answers costs no wait at all.
/// Ten minutes, not three: the command-line suites block their threads while `dolphin` runs,
/// and Swift's cooperative pool has one thread per core, so an async test here can wait behind
/// them for minutes without anything being wrong (a cancellation test took 192 s, and failed
/// at 180 s in three full runs of session 22 on a loaded 2-core machine).
let testOutboundWait: Duration = .seconds(600)

/// A raw-protocol client: a server running over an ``InMemoryTransport``, driven line by line.
struct TestClient {
  let transport: InMemoryTransport
  let serving: Task<Void, Never>
  let tools = FakeTools()
  let logs = Recorder()

  init(
    limits: JSONRPCLimits = JSONRPCLimits(), withProviders: Bool = true,
    clientRequestTimeout: Duration = .seconds(600)
  ) {
    let logs = self.logs
    let server = MCPServer(
      configuration: .init(
        title: "Dolphin Continuity", version: "9.9.9", instructions: "Local memory.",
        limits: limits,
        log: { logs.record($0) }, clientRequestTimeout: clientRequestTimeout),
      tools: withProviders ? tools : nil,
      resources: withProviders ? FakeResources() : nil,
      prompts: withProviders ? FakePrompts() : nil)
    let transport = InMemoryTransport(maximumMessageBytes: limits.maximumMessageBytes)
    self.transport = transport
    serving = Task { await server.run(transport: transport) }
  }

  /// Sends one line as the client.
  func send(_ line: String) {
    transport.writeInbound(line)
  }

  /// The next line the server writes (fails the test after 10 s of silence).
  func nextLine(sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
    try #require(
      await transport.nextOutbound(timeout: testOutboundWait), "the server sent nothing", sourceLocation: sourceLocation)
  }

  /// The next line the server writes, parsed.
  func next(sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
    try JSONValue(parsing: try await nextLine(sourceLocation: sourceLocation))
  }

  /// Sends a request and returns the next line, parsed.
  func request(_ id: Int, _ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
    var object: JSONObject = ["jsonrpc": "2.0", "id": .integer(id), "method": .string(method)]
    if let params { object["params"] = params }
    send(JSONValue.object(object).jsonString())
    return try await next()
  }

  /// `initialize` then `notifications/initialized`; returns the initialize result.
  @discardableResult
  func initialize(version: String = "2025-11-25", capabilities: JSONValue = [:]) async throws
    -> JSONValue
  {
    let response = try await request(
      0, "initialize",
      [
        "protocolVersion": .string(version), "capabilities": capabilities,
        "clientInfo": ["name": "tests", "version": "1"],
      ])
    send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
    return try #require(response["result"])
  }

  /// Sends a ping with `id` (JSON text) and expects exactly its empty result as the next line.
  func expectPing(_ id: String = "\"ping\"", sourceLocation: SourceLocation = #_sourceLocation)
    async throws
  {
    send(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#)
    #expect(
      try await nextLine() == #"{"id":\#(id),"jsonrpc":"2.0","result":{}}"#,
      sourceLocation: sourceLocation)
  }

  /// Closes the input, waits for the server to finish, and returns what it wrote meanwhile.
  func finish() async -> [String] {
    transport.finishInbound()
    await serving.value
    var rest: [String] = []
    while let line = transport.readOutbound() { rest.append(line) }
    return rest
  }
}

extension JSONValue {
  /// The error code of a response, if it is an error response.
  var errorCode: Int? { self["error"]?["code"]?.int }
}
