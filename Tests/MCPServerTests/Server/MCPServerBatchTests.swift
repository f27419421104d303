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
