import ContinuityKit
import MCPServer
import Testing
import TestSupport

@Suite("MCPServer tools, elicitation and cancellation")
struct MCPServerToolsTests {
  @Test("tools/call returns structuredContent and its text rendering")
  func callEcho() async throws {
    let client = TestClient()
    try await client.initialize()
    client.send(
      #"{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"echo","arguments":{"big":9007199254740993,"s":"é"}}}"#
    )
    #expect(
      try await client.nextLine()
        == #"{"id":"c1","jsonrpc":"2.0","result":{"content":[{"text":"{\"big\":9007199254740993,\"s\":\"é\"}","type":"text"}],"isError":false,"structuredContent":{"echo":{"big":9007199254740993,"s":"é"}}}}"#
    )
    // arguments absent → {}
    let empty = try await client.request(2, "tools/call", ["name": "echo"])
    #expect(empty["result"]?["structuredContent"] == ["echo": [:]])
  }

  @Test("A failing tool is an isError result with a clear message, not a protocol error")
  func toolFailure() async throws {
    let client = TestClient()
    try await client.initialize()
    let response = try await client.request(1, "tools/call", ["name": "fail", "arguments": [:]])
    #expect(response["error"] == nil)
    #expect(response["result"]?["isError"] == true)
    #expect(
      response["result"]?["content"] == [
        ["type": "text", "text": "fail failed: the disk is full (fake)"]
      ])
    try await client.expectPing()
  }

  // Review (s18): error results carried `structuredContent` `{error, receipt}` that matched no
  // tool's `outputSchema`; clients that validate error results too (the TypeScript SDK before
  // typescript-sdk#1945) replaced the error with a schema mismatch.
  @Test("A failed call's details are a second text block of JSON, never structuredContent", arguments: ["2025-11-25", "2025-06-18"])
  func errorDetailsAreText(_ version: String) async throws {
    let client = TestClient()
    try await client.initialize(version: version, capabilities: ["elicitation": ["form": [:]]])
    client.send(
      #"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"write_note","arguments":{"text":"no"}}}"#
    )
    let ask = try await client.next()
    client.send(JSONValue.object(["jsonrpc": "2.0", "id": ask["id"] ?? .null, "result": ["action": "decline"]]).jsonString())
    let result = try #require(try await client.next()["result"])
    #expect(result["isError"] == true)
    #expect(result["structuredContent"] == nil, "\(result)")
    #expect(
      result["content"] == [
        ["type": "text", "text": "denied: the user chose decline; nothing was written"],
        ["type": "text", "text": #"{"status":"denied"}"#],
      ], "\(result)")
    #expect(result.toolErrorDetails == ["status": "denied"])
  }

  @Test("A provider's protocol error stays a JSON-RPC error")
  func providerProtocolError() async throws {
    let client = TestClient()
    try await client.initialize()
    let response = try await client.request(
      1, "tools/call", ["name": "write_note", "arguments": ["text": 5]])
    #expect(response.errorCode == -32602)
    #expect(response["error"]?["message"] == "write_note needs arguments.text, a string")
  }

  static let elicitingClient: JSONValue = ["elicitation": [:]]

  @Test("Elicitation accepted: the client is asked with the exact call, then the write runs")
  func elicitationAccept() async throws {
    let client = TestClient()
    try await client.initialize(capabilities: Self.elicitingClient)
    client.send(
      #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"write_note","arguments":{"text":"ship it"}}}"#
    )
    let ask = try await client.next()
    #expect(ask["method"] == "elicitation/create")
    #expect(ask["params"]?["mode"] == "form")
    #expect(
      ask["params"]?["message"]
        == #"Allow this call? {"arguments":{"text":"ship it"},"name":"write_note"}"#)
    #expect(ask["params"]?["requestedSchema"] == ["type": "object", "properties": [:]])
    let askID = try #require(ask["id"])
    #expect(askID.int != nil)
    client.send(
      JSONValue.object([
        "jsonrpc": "2.0", "id": askID, "result": ["action": "accept", "content": [:]],
      ]).jsonString())
    let response = try await client.next()
    #expect(response["id"] == 7)
    #expect(response["result"]?["isError"] == false)
    #expect(response["result"]?["structuredContent"] == ["status": "written"])
    #expect(client.tools.notes.all == ["ship it"])
    try await client.expectPing()
  }

  /// A client's answer that must leave nothing written.
  struct Refusal: Sendable, CustomTestStringConvertible {
    let name: String
    let answer: JSONValue
    let expectedText: String
    var testDescription: String { name }
  }

  static let refusals: [Refusal] = [
    Refusal(
      name: "decline", answer: ["result": ["action": "decline"]],
      expectedText: "denied: the user chose decline; nothing was written"),
    Refusal(
      name: "cancel", answer: ["result": ["action": "cancel"]],
      expectedText: "denied: the user chose cancel; nothing was written"),
    Refusal(
      name: "client error", answer: ["error": ["code": -32603, "message": "no UI"]],
      expectedText: "write_note failed: the client answered with an error: -32603 no UI"),
    Refusal(
      name: "malformed answer", answer: ["result": ["action": "maybe"]],
      expectedText:
        #"write_note failed: the client's answer is malformed: elicitation/create needs a result with action accept, decline or cancel; got {"action":"maybe"}"#
    ),
    // Malformed response objects: the call fails at once instead of waiting forever.
    Refusal(
      name: "error that is not an object", answer: ["error": "no UI"],
      expectedText:
        #"write_note failed: the client's answer is malformed: a response must carry exactly one of "result" and an "error" object"#
    ),
    Refusal(
      name: "both result and error",
      answer: ["result": ["action": "accept"], "error": ["code": 1, "message": "x"]],
      expectedText:
        #"write_note failed: the client's answer is malformed: a response must carry exactly one of "result" and an "error" object"#
    ),
    Refusal(
      name: "error without a code", answer: ["error": ["message": "x"]],
      expectedText:
        "write_note failed: the client's answer is malformed: an error response without an integer code and a string message"
    ),
  ]

  @Test(
    "Elicitation declined, cancelled or failed: an isError result and nothing written",
    arguments: refusals)
  func elicitationRefused(_ refusal: Refusal) async throws {
    let client = TestClient()
    try await client.initialize(capabilities: ["elicitation": ["form": [:], "url": [:]]])
    client.send(
      #"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"write_note","arguments":{"text":"no"}}}"#
    )
    let ask = try await client.next()
    var reply = try #require(refusal.answer.object)
    reply["jsonrpc"] = "2.0"
    reply["id"] = ask["id"]
    client.send(JSONValue.object(reply).jsonString())
    let response = try await client.next()
    #expect(response["id"] == 8)
    #expect(response["result"]?["isError"] == true)
    #expect(response["result"]?["content"]?.array?.first?["text"]?.string == refusal.expectedText)
    #expect(client.tools.notes.all.isEmpty)
    try await client.expectPing()
  }

  @Test("An elicitation left unanswered fails the call after the timeout and is cancelled toward the client")
  func elicitationTimeout() async throws {
    let client = TestClient(clientRequestTimeout: .milliseconds(300))
    try await client.initialize(capabilities: Self.elicitingClient)
    client.send(
      #"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"write_note","arguments":{"text":"late"}}}"#
    )
    let ask = try await client.next()
    #expect(ask["method"] == "elicitation/create")
    // No answer: the server gives up, tells the client, and answers the call.
    let cancelled = try await client.next()
    #expect(cancelled["method"] == "notifications/cancelled")
    #expect(cancelled["params"]?["requestId"] == ask["id"])
    let response = try await client.next()
    #expect(response["id"] == 9)
    #expect(response["result"]?["isError"] == true)
    #expect(
      response["result"]?["content"]?.array?.first?["text"]?.string?.contains("did not answer within 300 ms") == true,
      "\(response)")
    #expect(client.tools.notes.all.isEmpty)
    // An answer that comes after is ignored.
    client.send(JSONValue.object(["jsonrpc": "2.0", "id": ask["id"] ?? nil, "result": ["action": "accept"]]).jsonString())
    try await client.expectPing()
    #expect(client.tools.notes.all.isEmpty)
  }

  @Test("Revision 2025-06-18: elicitation requests carry no mode")
  func elicitationWithoutMode() async throws {
    let client = TestClient()
    try await client.initialize(version: "2025-06-18", capabilities: Self.elicitingClient)
    client.send(
      #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_note","arguments":{"text":"x"}}}"#
    )
    let ask = try await client.next()
    #expect(ask["method"] == "elicitation/create")
    #expect(ask["params"]?["mode"] == nil)
    client.send(
      JSONValue.object(["jsonrpc": "2.0", "id": ask["id"] ?? nil, "result": ["action": "accept"]])
        .jsonString())
    #expect(try await client.next()["result"]?["isError"] == false)
  }

  /// A client that cannot be asked.
  struct NoElicitation: Sendable, CustomTestStringConvertible {
    let name: String
    let version: String
    let capabilities: JSONValue
    let sendsInitialized: Bool
    var testDescription: String { name }
  }

  static let nonEliciting: [NoElicitation] = [
    NoElicitation(
      name: "no elicitation capability", version: "2025-11-25", capabilities: ["roots": [:]],
      sendsInitialized: true),
    NoElicitation(
      name: "url mode only", version: "2025-11-25", capabilities: ["elicitation": ["url": [:]]],
      sendsInitialized: true),
    NoElicitation(
      name: "revision 2025-03-26", version: "2025-03-26", capabilities: ["elicitation": [:]],
      sendsInitialized: true),
    NoElicitation(
      name: "before notifications/initialized", version: "2025-11-25",
      capabilities: ["elicitation": [:]], sendsInitialized: false),
  ]

  @Test(
    "Without the capability nothing is sent to the client and the provider's policy answers",
    arguments: nonEliciting)
  func noElicitation(_ setup: NoElicitation) async throws {
    let client = TestClient()
    let initialize = try await client.request(
      0, "initialize",
      ["protocolVersion": .string(setup.version), "capabilities": setup.capabilities])
    #expect(initialize["result"] != nil)
    if setup.sendsInitialized {
      client.send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
    }
    let response = try await client.request(
      1, "tools/call", ["name": "write_note", "arguments": ["text": "x"]])
    #expect(response["id"] == 1)
    #expect(response["result"]?["isError"] == true)
    #expect(
      response["result"]?["content"]?.array?.first?["text"]?.string?.contains("--writes allow")
        == true)
    #expect(client.tools.notes.all.isEmpty)
    try await client.expectPing()
  }

  @Test("notifications/cancelled stops an in-flight call, which gets no response")
  func cancellation() async throws {
    let client = TestClient()
    try await client.initialize()
    client.send(#"{"jsonrpc":"2.0","id":"slow-1","method":"tools/call","params":{"name":"slow"}}"#)
    #expect(await client.tools.recorder.waitFor("slow started"))
    try await client.expectPing("1")  // a slow call does not block other requests
    client.send(
      #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow-1","reason":"user pressed stop"}}"#
    )
    #expect(await client.tools.recorder.waitFor("slow cancelled"))
    try await client.expectPing("2")
    // Cancelling again, or cancelling an unknown id, is ignored.
    client.send(
      #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow-1"}}"#)
    try await client.expectPing("3")
    #expect(await client.finish() == [])
  }

  @Test("Cancelling a call that waits on elicitation cancels the elicitation toward the client")
  func cancellationDuringElicitation() async throws {
    let client = TestClient()
    try await client.initialize(capabilities: Self.elicitingClient)
    client.send(
      #"{"jsonrpc":"2.0","id":40,"method":"tools/call","params":{"name":"write_note","arguments":{"text":"x"}}}"#
    )
    let ask = try await client.next()
    let askID = try #require(ask["id"])
    client.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":40}}"#)
    let notice = try await client.next()
    #expect(notice["method"] == "notifications/cancelled")
    #expect(notice["params"]?["requestId"] == askID)
    #expect(notice["id"] == nil)
    // A late answer to the abandoned elicitation is only logged.
    client.send(
      JSONValue.object(["jsonrpc": "2.0", "id": askID, "result": ["action": "accept"]]).jsonString()
    )
    try await client.expectPing()
    #expect(await client.finish() == [])
    #expect(client.tools.notes.all.isEmpty)
    #expect(client.tools.recorder.all.contains("write_note elicitation threw CancellationError()"))
  }

  @Test("Closing the input answers calls in flight and fails pending elicitations")
  func endOfInput() async throws {
    let client = TestClient()
    try await client.initialize(capabilities: Self.elicitingClient)
    client.send(
      #"{"jsonrpc":"2.0","id":50,"method":"tools/call","params":{"name":"write_note","arguments":{"text":"x"}}}"#
    )
    _ = try await client.next()  // the elicitation request
    client.send(
      #"{"jsonrpc":"2.0","id":51,"method":"tools/call","params":{"name":"echo","arguments":{"k":1}}}"#
    )
    let rest = try await client.finish().map { try JSONValue(parsing: $0) }
    let byID = Dictionary(
      uniqueKeysWithValues: rest.compactMap { response in response["id"]?.int.map { ($0, response) }
      })
    #expect(byID[51]?["result"]?["isError"] == false)
    #expect(byID[50]?["result"]?["isError"] == true)
    #expect(
      byID[50]?["result"]?["content"]?.array?.first?["text"]
        == "write_note failed: the client closed the connection before answering")
  }

  @Test("Many concurrent calls are each answered once with their own id")
  func concurrentCalls() async throws {
    let client = TestClient()
    try await client.initialize()
    for id in 1...50 {
      client.send(
        #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"echo","arguments":{"n":\#(id)}}}"#
      )
    }
    var seen: [Int: Int] = [:]
    for _ in 1...50 {
      let response = try await client.next()
      let id = try #require(response["id"]?.int)
      #expect(response["result"]?["structuredContent"]?["echo"]?["n"]?.int == id)
      seen[id, default: 0] += 1
    }
    #expect(seen.count == 50 && seen.values.allSatisfy { $0 == 1 })
    try await client.expectPing()
  }
}
