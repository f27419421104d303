import ContinuityKit
import MCPServer
import Testing

/// JSON-RPC batches: MCP 2025-03-26 requires a server to receive them ("MCP implementations MAY
/// support sending JSON-RPC batches, but MUST support receiving JSON-RPC batches"), 2025-06-18
/// removed them. Review (s16): the server agreed to 2025-03-26 and still refused every batch.
@Suite("MCPServer JSON-RPC batches")
struct MCPServerBatchTests {
  @Test("after agreeing to 2025-03-26, a batch gets one line: the array of its responses, in batch order")
  func batchOfRequests() async throws {
    let client = TestClient()
    let result = try await client.initialize(version: "2025-03-26")
    #expect(result["protocolVersion"] == "2025-03-26")
    client.send(
      #"[{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"echo","arguments":{"echo":{"n":1}}}},"#
        + #"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}},"#
        + #"{"jsonrpc":"2.0","id":1,"method":"ping"},"#
        + #"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}]"#)
    let line = try await client.next()
    guard case .array(let responses) = line else {
      Issue.record("expected an array, got \(line)")
      return
    }
    #expect(responses.map { $0["id"] } == ["b", 1, 2])
    #expect(responses[0]["result"]?["content"] != nil, "\(responses[0])")
    #expect(responses[1] == ["id": 1, "jsonrpc": "2.0", "result": [:]])
    #expect(responses[2].errorCode == -32601)
    try await client.expectPing()
  }

  @Test("a batch of notifications only gets no line; a bad element gets its own error inside the array")
  func notificationsAndBadElements() async throws {
    let client = TestClient()
    try await client.initialize(version: "2025-03-26")
    client.send(
      #"[{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}},"#
        + #"{"jsonrpc":"2.0","method":"notifications/unknown"}]"#)
    try await client.expectPing("1")  // the next line is the ping's: nothing was written for the batch

    client.send(#"[42,{"jsonrpc":"2.0","id":3,"method":"ping"},[],{"id":4,"method":"ping"}]"#)
    let line = try await client.next()
    guard case .array(let responses) = line else {
      Issue.record("expected an array, got \(line)")
      return
    }
    #expect(responses.count == 4)
    #expect(responses[0].errorCode == -32600 && responses[0]["id"] == .null)
    #expect(responses[0]["error"]?["message"]?.string?.contains("a number") == true, "\(responses[0])")
    #expect(responses[1] == ["id": 3, "jsonrpc": "2.0", "result": [:]])
    #expect(responses[2].errorCode == -32600 && responses[2]["id"] == .null)
    #expect(responses[3].errorCode == -32600 && responses[3]["id"] == 4, "missing jsonrpc")
  }

  @Test("initialize inside a batch is refused there; an empty array is one error, as in every revision")
  func initializeAndEmpty() async throws {
    let client = TestClient()
    try await client.initialize(version: "2025-03-26")
    client.send(
      #"[{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{}}}]"#)
    let line = try await client.next()
    #expect(line.array?.count == 1)
    #expect(line.array?.first?.errorCode == -32600)
    #expect(line.array?.first?["error"]?["message"]?.string?.contains("initialize must not be part of a JSON-RPC batch") == true)
    client.send("[]")
    let empty = try await client.next()
    #expect(empty.errorCode == -32600 && empty["id"] == .null)
    try await client.expectPing()
  }

  @Test("batches are refused before initialize and under 2025-06-18 and 2025-11-25", arguments: ["2025-06-18", "2025-11-25"])
  func refusedElsewhere(_ version: String) async throws {
    let batch = #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#
    let client = TestClient()
    client.send(batch)
    let before = try await client.next()
    #expect(before.errorCode == -32600 && before["id"] == .null)
    #expect(before["error"]?["message"]?.string?.contains("batches are not supported") == true)
    try await client.initialize(version: version)
    client.send(batch)
    let after = try await client.next()
    #expect(after.errorCode == -32600 && after["id"] == .null)
    try await client.expectPing()
  }

  /// `count` pings with ids 1…count, as one batch line.
  static func pings(_ count: Int) -> String {
    "[" + (1...count).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"ping"}"# }.joined(separator: ",") + "]"
  }

  @Test("a batch of more than maximumBatchMessages is refused whole: -32600 naming the limit and the count, nothing run")
  func tooLong() async throws {
    #expect(JSONRPCLimits().maximumBatchMessages == 100)
    let client = TestClient()
    try await client.initialize(version: "2025-03-26")
    client.send(Self.pings(100))
    let full = try await client.next()
    #expect(full.array?.count == 100, "a batch of exactly 100 is served")
    #expect(full.array?.last == ["id": 100, "jsonrpc": "2.0", "result": [:]])

    // A tool call among them would have run at once: none of it runs.
    client.send(
      "[" + #"{"jsonrpc":"2.0","id":"e","method":"tools/call","params":{"name":"echo","arguments":{}}},"#
        + String(Self.pings(100).dropFirst()))
    let refused = try await client.next()
    #expect(refused.errorCode == -32600 && refused["id"] == .null, "\(refused)")
    #expect(
      refused["error"]?["message"]?.string
        == "the JSON-RPC batch holds 101 messages, over the limit of 100 per batch; none of them was run. "
        + "Send at most 100 per batch, or one message per line")
    #expect(refused["error"]?["data"] == ["count": 101, "limit": 100])
    try await client.expectPing()
    #expect(!client.tools.recorder.all.contains("echo started"), "no element of the refused batch ran")

    // The bound is the configuration's, and notifications count as messages too.
    let small = TestClient(limits: JSONRPCLimits(maximumBatchMessages: 2))
    try await small.initialize(version: "2025-03-26")
    small.send(
      #"[{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}},"#
        + #"{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#)
    let three = try await small.next()
    #expect(three["error"]?["data"] == ["count": 3, "limit": 2], "\(three)")
    _ = await client.finish()
    _ = await small.finish()
  }

  /// A batch of `echo` calls carrying `text`, `tools/list` and a ping, in the order `kinds`
  /// gives (`e`, `l`, `p`), with ids `first`, `first + 1`, ….
  static func mixedBatch(_ kinds: String, text: String, first: Int) -> String {
    let elements = kinds.enumerated().map { offset, kind -> String in
      let id = JSONValue.integer(first + offset)
      switch kind {
      case "e":
        return JSONValue.object([
          "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": ["name": "echo", "arguments": ["text": .string(text)]],
        ]).jsonString()
      case "l": return JSONValue.object(["jsonrpc": "2.0", "id": id, "method": "tools/list"]).jsonString()
      default: return JSONValue.object(["jsonrpc": "2.0", "id": id, "method": "ping"]).jsonString()
      }
    }
    return "[" + elements.joined(separator: ",") + "]"
  }

  @Test("the one line answering a batch stays within the response bound: later responses that do not fit become errors saying so")
  func responseLineBounded() async throws {
    let text = String(repeating: "w", count: 3_000)
    // The line answering the whole batch, each response whole, measured where nothing bounds it.
    let unbounded = TestClient(limits: JSONRPCLimits(maximumResponseBytes: 1 << 30))
    try await unbounded.initialize(version: "2025-03-26")
    unbounded.send(Self.mixedBatch("eelp", text: text, first: 1))
    let whole = try await unbounded.nextLine().utf8.count
    _ = await unbounded.finish()

    // One byte less: the responses are kept whole in batch order while the rest still fits as
    // stand-ins, so only the last large one is replaced.
    let bound = whole - 1
    let client = TestClient(limits: JSONRPCLimits(maximumResponseBytes: bound))
    try await client.initialize(version: "2025-03-26")
    client.send(Self.mixedBatch("eelp", text: text, first: 1))
    let first = try await client.nextLine()
    #expect(first.utf8.count <= bound, "\(first.utf8.count) bytes over \(bound)")
    let a = try #require(try JSONValue(parsing: first).array)
    #expect(a.map { $0["id"] } == [1, 2, 3, 4], "every request answered, in batch order")
    #expect(a[0]["result"]?["isError"] == false && a[1]["result"]?["isError"] == false, "the echoes fit whole")
    #expect(a[1]["result"]?["content"]?.array?.first?["text"]?.string?.contains(text) == true)
    // Not a tool call: a -32603 error with the size and the bound.
    #expect(a[2].errorCode == -32603, "\(a[2])")
    let listMessage = try #require(a[2]["error"]?["message"]?.string)
    #expect(listMessage.hasPrefix("tools/list was not answered: the response would be "), "\(listMessage)")
    #expect(
      listMessage.hasSuffix(
        "more than was left of the \(bound)-byte bound on the one line that answers its JSON-RPC batch after the batch's "
          + "earlier responses; send the request alone or in a smaller batch"), "\(listMessage)")
    #expect(a[2]["error"]?["data"]?["limit"] == .integer(bound))
    #expect(a[3] == ["id": 4, "jsonrpc": "2.0", "result": [:]], "a small response still fits")

    // The same responses in another order: now the last echo is the one replaced.
    client.send(Self.mixedBatch("leep", text: text, first: 5))
    let second = try await client.nextLine()
    #expect(second.utf8.count <= bound, "\(second.utf8.count) bytes over \(bound)")
    let b = try #require(try JSONValue(parsing: second).array)
    #expect(b.map { $0["id"] } == [5, 6, 7, 8])
    #expect(b[0]["result"]?["tools"]?.array?.count == 4 && b[1]["result"]?["isError"] == false)
    #expect(b[2]["result"]?["isError"] == true, "\(b[2])")
    let said = try #require(b[2]["result"]?["content"]?.array?.first?["text"]?.string)
    #expect(said.hasPrefix("echo ran, but its result was not sent: the response would be "), "\(said)")
    #expect(said.contains("earlier responses; send the request alone or in a smaller batch."), "\(said)")
    #expect(said.hasSuffix("The call itself took effect (a tool that writes made its change); only its result was withheld."))
    #expect(b[3] == ["id": 8, "jsonrpc": "2.0", "result": [:]])
    #expect(
      client.logs.all.contains { $0.contains("the line answering a batch of 4 response(s) would be \(whole) bytes, over the \(bound)-byte bound; 1 of them") },
      "\(client.logs.all)")

    // Sent alone, the same call is answered whole.
    client.send(JSONValue.object(["jsonrpc": "2.0", "id": 9, "method": "tools/list"]).jsonString())
    let alone = try await client.next()
    #expect(alone["result"]?["tools"]?.array?.count == 4)
    _ = await client.finish()
  }

  @Test("a cancelled request is left out of its batch's array; the others are still answered")
  func cancelledInBatch() async throws {
    let client = TestClient()
    try await client.initialize(version: "2025-03-26")
    client.send(
      #"[{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"slow","arguments":{}}},"#
        + #"{"jsonrpc":"2.0","id":7,"method":"ping"}]"#)
    try await Task.sleep(for: .milliseconds(100))
    client.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s"}}"#)
    let line = try await client.next()
    #expect(line == [["id": 7, "jsonrpc": "2.0", "result": [:]]])
    try await client.expectPing()
  }
}
