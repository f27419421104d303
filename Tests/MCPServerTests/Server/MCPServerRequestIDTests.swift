import ContinuityKit
import MCPServer
import Testing

/// Review 28-a, 3 and 4. MCP Base Protocol › Requests: "The request ID MUST NOT have been
/// previously used by the requestor within the same session." A `ping` reusing the id of a call
/// still in flight was answered at once, then the call with the same id, so the client got two
/// responses with one id; two requests of one 2025-03-26 batch with one id were both answered.
/// And a `tools/call` without an id (a notification, never answered) vanished without a log line.
@Suite("MCPServer request ids still in flight, and requests sent without an id")
struct MCPServerRequestIDTests {
  @Test("a ping reusing the id of a call in flight is refused with -32600 naming the id; the call keeps its id")
  func pingReusingAnIDInFlight() async throws {
    let client = TestClient()
    try await client.initialize()
    client.send(#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}}"#)
    #expect(await client.tools.recorder.waitFor("slow started"))
    client.send(#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#)
    let refused = try await client.next()
    #expect(refused["id"] == 7)
    #expect(refused.errorCode == -32600, "\(refused)")
    #expect(
      refused["error"]?["message"]?.string
        == "the id 7 belongs to a request still in progress; use a new id for each request", "\(refused)")
    #expect(refused["result"] == nil)
    // Any other request method too, and an unknown one: the id is checked first.
    client.send(#"{"jsonrpc":"2.0","id":7,"method":"no/such/method"}"#)
    #expect(try await client.next().errorCode == -32600)
    try await client.expectPing("8")
    // Cancelled, the call gets no response: the client saw one response with id 7, the refusal.
    client.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#)
    #expect(await client.tools.recorder.waitFor("slow cancelled"))
    try await client.expectPing("9")
    #expect(await client.finish() == [])
  }

  @Test("two requests of one 2025-03-26 batch with one id: the second is refused inside the batch's array")
  func duplicateIDInABatch() async throws {
    let client = TestClient()
    try await client.initialize(version: "2025-03-26")
    client.send(
      #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"},"#
        + #"{"jsonrpc":"2.0","id":2,"method":"ping"}]"#)
    let line = try await client.next()
    guard case .array(let responses) = line else {
      Issue.record("expected an array, got \(line)")
      return
    }
    #expect(responses.count == 3)
    #expect(responses[0] == ["id": 1, "jsonrpc": "2.0", "result": [:]])
    #expect(responses[1].errorCode == -32600 && responses[1]["id"] == 1, "\(responses[1])")
    #expect(responses[1]["error"]?["message"]?.string?.contains("the id 1 belongs to a request still in progress") == true)
    #expect(responses[2] == ["id": 2, "jsonrpc": "2.0", "result": [:]])
    // Once the batch is answered, its ids are free again.
    try await client.expectPing("1")
  }

  @Test("a request on its own line reusing the id of a batch's call in flight is refused")
  func lineReusingABatchID() async throws {
    let client = TestClient()
    try await client.initialize(version: "2025-03-26")
    client.send(
      #"[{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"slow"}},{"jsonrpc":"2.0","id":"p","method":"ping"}]"#)
    #expect(await client.tools.recorder.waitFor("slow started"))
    // The batch's ping is answered only with the batch's line: its id is still in progress too.
    client.send(#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#)
    let refused = try await client.next()
    #expect(refused.errorCode == -32600 && refused["id"] == "p", "\(refused)")
    client.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s"}}"#)
    let batch = try await client.next()
    #expect(batch == [["id": "p", "jsonrpc": "2.0", "result": [:]]], "\(batch)")
    try await client.expectPing("\"p\"")
  }

  @Test("a tools/call without an id is not run, and one line on standard error says so")
  func requestMethodWithoutAnID() async throws {
    let client = TestClient()
    try await client.initialize()
    client.send(#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"write_note","arguments":{"text":"lost"}}}"#)
    client.send(#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#)
    try await client.expectPing()
    #expect(client.tools.notes.all.isEmpty)
    let logs = client.logs.all
    #expect(
      logs.filter { $0.contains("without an id") }
        == [
          "dolphin mcp: ignored a tools/call message without an id: without an id it is a notification, which gets no "
            + "response, so it was not run; send it as a request, with an id"
        ], "\(logs)")
    // A notification the server does not act on is still not logged.
    #expect(!logs.contains { $0.contains("notifications/progress") }, "\(logs)")
    #expect(await client.finish() == [])
  }

  @Test("messages without an id are logged as the other ignored messages are: the first 100, then one line")
  func requestsWithoutAnIDCapped() async throws {
    let client = TestClient()
    try await client.initialize()
    for _ in 1...120 { client.send(#"{"jsonrpc":"2.0","method":"ping"}"#) }
    try await client.expectPing()
    let logs = client.logs.all
    #expect(logs.filter { $0.contains("ignored a ping message without an id") }.count == 100)
    #expect(logs.filter { $0.contains("further ignored messages of this session are not logged") }.count == 1)
  }
}
