import ContinuityKit
import MCPServer
import Testing

/// Review 19-a: the server refused any incoming line over 4 MiB but sent one of 36 MB. No
/// response line passes ``JSONRPCLimits/maximumResponseBytes``: a tool result over it becomes an
/// `isError` result saying so, any other response a -32603 error.
@Suite("MCPServer response bound")
struct MCPServerResponseBoundTests {
  /// An `echo` call (its arguments come back twice: as text and as structured content).
  static func echo(id: String, text: String) -> String {
    JSONValue.object([
      "jsonrpc": "2.0", "id": .string(id), "method": "tools/call",
      "params": ["name": "echo", "arguments": ["text": .string(text)]],
    ]).jsonString()
  }

  @Test("a tool result over the bound is withheld: an isError result within the bound says how large it was")
  func toolResultOverTheBound() async throws {
    let bound = 2_000
    let client = TestClient(limits: JSONRPCLimits(maximumResponseBytes: bound))
    try await client.initialize()
    client.send(Self.echo(id: "small", text: String(repeating: "a", count: 400)))
    let small = try await client.nextLine()
    #expect(small.utf8.count <= bound)
    #expect(try JSONValue(parsing: small)["result"]?["isError"] == false)

    client.send(Self.echo(id: "large", text: String(repeating: "a", count: 1_200)))
    let line = try await client.nextLine()
    #expect(line.utf8.count <= bound)
    let large = try JSONValue(parsing: line)
    #expect(large["id"] == "large")
    #expect(large["result"]?["isError"] == true)
    let content = try #require(large["result"]?["content"]?.array)
    let text = try #require(content.first?["text"]?.string)
    #expect(text.hasPrefix("echo ran, but its result was not sent: the response would be "), "\(text)")
    #expect(text.contains(" bytes, over the 2000-byte bound on one response."), "\(text)")
    let details = try JSONValue(parsing: try #require(content.dropFirst().first?["text"]?.string))
    #expect(details["error"]?["kind"] == "responseTooLarge")
    #expect(details["error"]?["limit"] == .integer(bound))
    #expect((details["error"]?["size"]?.int ?? 0) > bound)
    #expect(client.logs.all.contains { $0.contains("the response to tools/call id \"large\" would be ") })
    _ = await client.finish()
  }

  @Test("the request's id counts: the same result under a longer id is over the bound")
  func theIDCounts() async throws {
    let bound = 2_000
    let client = TestClient(limits: JSONRPCLimits(maximumResponseBytes: bound))
    try await client.initialize()
    let text = String(repeating: "b", count: 800)
    client.send(Self.echo(id: "x", text: text))
    let short = try JSONValue(parsing: try await client.nextLine())
    #expect(short["result"]?["isError"] == false)
    let longID = String(repeating: "i", count: 400)
    client.send(Self.echo(id: longID, text: text))
    let line = try await client.nextLine()
    #expect(line.utf8.count <= bound)
    let long = try JSONValue(parsing: line)
    #expect(long["id"] == .string(longID))
    #expect(long["result"]?["isError"] == true)
    _ = await client.finish()
  }

  @Test("any other response over the bound is a -32603 error naming the size and the bound")
  func otherResponsesOverTheBound() async throws {
    let bound = 600
    let client = TestClient(limits: JSONRPCLimits(maximumResponseBytes: bound))
    try await client.initialize()
    client.send(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
    let line = try await client.nextLine()
    #expect(line.utf8.count <= bound)
    let response = try JSONValue(parsing: line)
    #expect(response.errorCode == -32603)
    let message = try #require(response["error"]?["message"]?.string)
    #expect(message.hasPrefix("tools/list was not answered: the response would be "), "\(message)")
    #expect(message.hasSuffix(" bytes, over the 600-byte bound on one response"), "\(message)")
    #expect(response["error"]?["data"]?["limit"] == .integer(bound))
    // A response within the bound is sent as it was.
    client.send(#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"dolphin://digest/current"}}"#)
    #expect(try await client.next()["result"]?["contents"]?.array?.first?["text"] == "# Digest")
    _ = await client.finish()
  }

  @Test("the bound defaults to 4 MiB, what the server accepts")
  func defaultBound() {
    #expect(JSONRPCLimits().maximumResponseBytes == 4 * 1024 * 1024)
    #expect(JSONRPCLimits().maximumResponseBytes == JSONRPCLimits().maximumMessageBytes)
  }
}
