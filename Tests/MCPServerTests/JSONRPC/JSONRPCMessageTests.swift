import ContinuityKit
import MCPServer
import Testing

@Suite("JSONRPCMessage decoding")
struct JSONRPCMessageTests {
  /// An inbound line and the error it must be answered with.
  struct Rejection: Sendable, CustomTestStringConvertible {
    let name: String
    let line: String
    let code: Int
    /// The id the error must carry, as JSON text.
    let id: String
    var testDescription: String { name }
  }

  static let rejections: [Rejection] = [
    Rejection(
      name: "malformed JSON", line: #"{"jsonrpc":"2.0","id":1,"method":"ping""#, code: -32700,
      id: "null"),
    Rejection(name: "not JSON at all", line: "hello", code: -32700, id: "null"),
    Rejection(
      name: "no jsonrpc member", line: #"{"id":99,"method":"tools/list"}"#, code: -32600, id: "99"),
    Rejection(
      name: "jsonrpc 1.0", line: #"{"jsonrpc":"1.0","id":"a","method":"ping"}"#, code: -32600,
      id: #""a""#),
    Rejection(
      name: "jsonrpc as a number", line: #"{"jsonrpc":2.0,"id":3,"method":"ping"}"#, code: -32600,
      id: "3"),
    Rejection(
      name: "request without method", line: #"{"jsonrpc":"2.0","id":5}"#, code: -32600, id: "5"),
    Rejection(
      name: "numeric method", line: #"{"jsonrpc":"2.0","id":6,"method":42}"#, code: -32600, id: "6"),
    Rejection(
      name: "method and result together",
      line: #"{"jsonrpc":"2.0","id":7,"method":"ping","result":{}}"#, code: -32600, id: "7"),
    Rejection(name: "empty array", line: "[]", code: -32600, id: "null"),
    Rejection(
      name: "batch", line: #"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, code: -32600, id: "null"),
    Rejection(name: "scalar", line: "42", code: -32600, id: "null"),
    Rejection(
      name: "null id", line: #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, code: -32600,
      id: "null"),
    Rejection(
      name: "fractional id", line: #"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, code: -32600,
      id: "null"),
    Rejection(
      name: "boolean id", line: #"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, code: -32600,
      id: "null"),
    Rejection(
      name: "string params", line: #"{"jsonrpc":"2.0","id":8,"method":"ping","params":"x"}"#,
      code: -32600, id: "8"),
    Rejection(
      name: "positional params", line: #"{"jsonrpc":"2.0","id":9,"method":"ping","params":[1]}"#,
      code: -32602, id: "9"),
    Rejection(
      name: "invalid notification", line: #"{"jsonrpc":"1.0","method":"notifications/x"}"#,
      code: -32600, id: "null"),
    // Review 22 (4): the id, read before the deep value, is answered (it was null).
    Rejection(
      name: "too deep",
      line: #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"#
        + String(repeating: "[", count: 70) + "]",
      code: -32700, id: "1"),
  ]

  @Test("Invalid lines become the specified error responses", arguments: rejections)
  func rejects(_ rejection: Rejection) throws {
    guard case .rejected(let response) = JSONRPCMessage.decode(Array(rejection.line.utf8)) else {
      Issue.record("expected a rejection, got \(JSONRPCMessage.decode(Array(rejection.line.utf8)))")
      return
    }
    let serialized = JSONRPCMessage.response(response).jsonValue
    #expect(serialized.errorCode == rejection.code)
    #expect(serialized["id"]?.jsonString() == rejection.id)
  }

  @Test("A value of the wrong kind is named with its article, and null as null")
  func wrongKindWording() {
    let cases: [(String, String)] = [
      ("null", "expected a JSON-RPC object, got null"),
      ("42", "expected a JSON-RPC object, got a number"),
      (#"{"jsonrpc":"2.0","id":1,"method":null}"#, #""method" must be a string, got null"#),
      (#"{"jsonrpc":"2.0","id":1,"method":[]}"#, #""method" must be a string, got an array"#),
      (#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, "the id must be a string or an integer, got null"),
      (#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, "the id must be a string or an integer, got the boolean true"),
      (#"{"jsonrpc":"2.0","id":8,"method":"ping","params":"x"}"#, #""params" must be an object, got a string"#),
    ]
    for (line, message) in cases {
      guard case .rejected(let response) = JSONRPCMessage.decode(Array(line.utf8)) else {
        Issue.record("\(line) was not rejected")
        continue
      }
      #expect(JSONRPCMessage.response(response).jsonValue["error"]?["message"]?.string == message, "\(line)")
    }
  }

  @Test("Parse errors carry the byte offset")
  func parseErrorOffset() {
    let outcome = JSONRPCMessage.decode(Array(#"{"a":tru}"#.utf8))
    guard case .rejected(let response) = outcome, case .failure(let error) = response.outcome else {
      Issue.record("expected a rejection")
      return
    }
    #expect(error.data == ["byteOffset": 8])
    #expect(error.message.hasPrefix("parse error: invalid JSON at byte 8"))
  }

  @Test("Requests and notifications; params absent or null become {}")
  func requestsAndNotifications() {
    #expect(
      JSONRPCMessage.decode(
        Array(#"{"jsonrpc":"2.0","id":"007","method":"tools/list","params":null}"#.utf8))
        == .message(.request(JSONRPCRequest(id: .string("007"), method: "tools/list", params: [:])))
    )
    #expect(
      JSONRPCMessage.decode(Array(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8))
        == .message(.notification(JSONRPCNotification(method: "notifications/initialized"))))
    #expect(
      JSONRPCMessage.decode(
        Array(#"{"method":"m","jsonrpc":"2.0","id":1,"params":{"a":[1]},"extra":true}"#.utf8))
        == .message(
          .request(JSONRPCRequest(id: JSONRPCRequestID(1), method: "m", params: ["a": [1]]))))
  }

  @Test("Ids keep their JSON type and digits")
  func ids() throws {
    guard
      case .message(.request(let request)) = JSONRPCMessage.decode(
        Array(#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#.utf8))
    else {
      Issue.record("expected a request")
      return
    }
    #expect(request.id.description == "9007199254740993")
    #expect(request.id != .string("9007199254740993"))
    let response = JSONRPCMessage.response(.result([:], id: request.id))
    #expect(
      String(decoding: response.serialized(), as: UTF8.self)
        == #"{"id":9007199254740993,"jsonrpc":"2.0","result":{}}"#)
  }

  @Test("Responses from the client are recognised; malformed ones are never answered")
  func responses() {
    #expect(
      JSONRPCMessage.decode(Array(#"{"jsonrpc":"2.0","id":3,"result":{"action":"accept"}}"#.utf8))
        == .message(.response(.result(["action": "accept"], id: JSONRPCRequestID(3)))))
    #expect(
      JSONRPCMessage.decode(
        Array(#"{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}"#.utf8))
        == .message(
          .response(.error(JSONRPCError(code: -1, message: "no"), id: JSONRPCRequestID(3)))))
    // A readable id is kept, so that a request waiting on it can fail instead of waiting on.
    let malformed: [(String, String)] = [
      (
        #"{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"x"}}"#,
        #"a response must carry exactly one of "result" and an "error" object"#
      ),
      (#"{"id":3,"result":{}}"#, #"a response without "jsonrpc": "2.0""#),
      (
        #"{"jsonrpc":"2.0","id":"a","error":"bad"}"#,
        #"a response must carry exactly one of "result" and an "error" object"#
      ),
      (
        #"{"jsonrpc":"2.0","id":3,"error":{"code":"1","message":"x"}}"#,
        "an error response without an integer code and a string message"
      ),
    ]
    for (line, reason) in malformed {
      let expectedID = line.contains(#""id":"a""#) ? JSONRPCRequestID.string("a") : JSONRPCRequestID(3)
      #expect(
        JSONRPCMessage.decode(Array(line.utf8))
          == .malformedResponse(id: expectedID, reason: reason), "\(line)")
    }
    for line in [
      #"{"jsonrpc":"2.0","id":null,"result":{}}"#,
      #"{"jsonrpc":"2.0","id":null,"error":"bad"}"#,
    ] {
      guard case .ignored = JSONRPCMessage.decode(Array(line.utf8)) else {
        Issue.record("\(line) should be ignored")
        continue
      }
    }
    guard case .ignored = JSONRPCMessage.decode(Array("  \r".utf8)) else {
      Issue.record("a blank line should be ignored")
      return
    }
  }

  @Test("Over the size limit: -32600 with id null, without parsing")
  func sizeLimit() {
    let limits = JSONRPCLimits(maximumMessageBytes: 16)
    guard
      case .rejected(let response) = JSONRPCMessage.decode(
        Array(String(repeating: " ", count: 17).utf8), limits: limits)
    else {
      Issue.record("expected a rejection")
      return
    }
    #expect(response == .error(.messageTooLarge(size: 17, limit: 16), id: nil))
  }

  /// Review 22 (4): a line of 4,200,123 bytes with `"id":"big"` was answered with id null.
  @Test("Over the size limit: the id is read from the line's first bytes, never past them")
  func sizeLimitKeepsTheID() {
    let limits = JSONRPCLimits(maximumMessageBytes: 64)
    let pad = String(repeating: "x", count: 100)
    let cases: [(String, JSONRPCRequestID?)] = [
      (#"{"jsonrpc":"2.0","id":"big","method":"m","params":{"q":"\#(pad)"}}"#, .string("big")),
      (#"{"jsonrpc":"2.0","method":"m","params":{"q":[["\#(pad)"]]},"id":7}"#, JSONRPCRequestID(7)),
      (#"{"jsonrpc":"2.0","id":{"a":1},"method":"m","params":{"q":"\#(pad)"}}"#, nil),
      // Past the bytes kept of an oversized line: not looked for.
      (
        #"{"jsonrpc":"2.0","method":"m","params":{"q":""# + String(repeating: "x", count: LineFramer.defaultHeadBytes)
          + #""},"id":7}"#, nil
      ),
    ]
    for (line, id) in cases {
      guard case .rejected(let response) = JSONRPCMessage.decode(Array(line.utf8), limits: limits) else {
        Issue.record("expected a rejection")
        continue
      }
      #expect(response == .error(.messageTooLarge(size: line.utf8.count, limit: 64), id: id), "\(line.prefix(80))")
    }
    #expect(JSONRPCMessage.requestID(inStartOf: Array(#"{"jsonrpc":"2.0","id":"bi"#.utf8)) == nil, "an id cut short")
    #expect(JSONRPCMessage.requestID(inStartOf: Array(#"{"jsonrpc":"2.0","id":12"#.utf8)) == nil, "a number cut short")
    #expect(JSONRPCMessage.requestID(inStartOf: Array(#" {"id":12 ,"#.utf8)) == JSONRPCRequestID(12))
  }

  @Test("A batch over maximumBatchMessages: -32600 with id null naming the count and the limit; at the limit, a batch")
  func batchLimit() {
    let limits = JSONRPCLimits(maximumBatchMessages: 3)
    func line(_ n: Int) -> [UInt8] {
      Array(("[" + (1...n).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"ping"}"# }.joined(separator: ",") + "]").utf8)
    }
    #expect(JSONRPCMessage.decode(line(4), limits: limits, acceptsBatches: true) == .rejected(.error(.batchTooLong(count: 4, limit: 3), id: nil)))
    #expect(
      JSONRPCError.batchTooLong(count: 4, limit: 3).message
        == "the JSON-RPC batch holds 4 messages, over the limit of 3 per batch; none of them was run. Send at most 3 per batch, "
        + "or one message per line")
    guard case .batch(let items) = JSONRPCMessage.decode(line(3), limits: limits, acceptsBatches: true) else {
      Issue.record("expected a batch")
      return
    }
    #expect(items.count == 3)
    // Where batches are not accepted, the refusal says so, whatever the count.
    guard case .rejected(let refused) = JSONRPCMessage.decode(line(4), limits: limits) else {
      Issue.record("expected a rejection")
      return
    }
    guard case .failure(let error) = refused.outcome else {
      Issue.record("expected an error")
      return
    }
    #expect(error.message.contains("batches are not supported here"), "\(error.message)")
  }
}

/// Regression (review, s14): a lone surrogate escape in a message (`"\ud800"`) was stored as
/// U+FFFD without a word, while `dolphin import` refused the same escape in a file. Both refuse it
/// now, naming where; the server still answers the request's id.
@Suite("JSONRPCMessage lone surrogates")
struct JSONRPCLoneSurrogateTests {
  @Test("a lone surrogate escape is a parse error at its byte, answered with the request's id")
  func loneSurrogateRefused() throws {
    let line = #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"Caf\ud800"}}}"#
    guard case .rejected(let response) = JSONRPCMessage.decode(Array(line.utf8)),
      case .failure(let error) = response.outcome
    else {
      Issue.record("expected a rejection, got \(JSONRPCMessage.decode(Array(line.utf8)))")
      return
    }
    // The line's only backslash starts the escape.
    let offset = try #require(Array(line.utf8).firstIndex(of: UInt8(ascii: "\\")))
    #expect(error.code == JSONRPCError.Code.parseError)
    #expect(error.data == ["byteOffset": .integer(offset)])
    #expect(
      error.message
        == #"parse error: invalid JSON at byte \#(offset): \ud800 is a UTF-16 surrogate escape without its partner; pair \uD8xx with \uDCxx"#)
    #expect(response.id == JSONRPCRequestID(7))
  }

  /// Review (s17, F10): a lone surrogate inside the id itself was answered with the id the
  /// lenient reading made of it (`"\u{FFFD}x"`), one the client never sent.
  @Test("a lone surrogate in the id is answered with id null; one elsewhere keeps a string id", arguments: [
    (#"{"jsonrpc":"2.0","id":"\ud800x","method":"ping"}"#, nil as String?),
    (#"{"jsonrpc":"2.0","id":"a-1","method":"m","params":{"t":"\udc00"}}"#, "a-1"),
  ])
  func surrogateInTheID(line: String, id: String?) {
    guard case .rejected(let response) = JSONRPCMessage.decode(Array(line.utf8)) else {
      Issue.record("expected a rejection")
      return
    }
    #expect(response.id == id.map { JSONRPCRequestID.string($0) }, "\(String(describing: response.id))")
  }

  @Test("a surrogate pair is one character, as before")
  func pairAccepted() {
    let line = #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"t":"\ud83d\udc2c"}}"#
    #expect(
      JSONRPCMessage.decode(Array(line.utf8))
        == .message(.request(JSONRPCRequest(id: JSONRPCRequestID(1), method: "m", params: ["t": "🐬"]))))
  }
}

/// Review 19-a (9): a request whose id was readable was answered with `id: null` when the line
/// also held bytes in a string that are not UTF-8, or bytes after the message, so the client's
/// request went unanswered under its own id. Such a parse error now carries the id too.
@Suite("JSONRPCMessage parse errors keep a readable id")
struct JSONRPCReadableIDTests {
  /// A line that is not valid JSON, and the id its -32700 must carry (nil: `null`).
  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var bytes: [UInt8]
    var id: JSONRPCRequestID?
  }

  static func line(_ text: String, _ insert: [UInt8] = [], at marker: String = "@") -> [UInt8] {
    let parts = text.components(separatedBy: marker)
    return Array(parts[0].utf8) + (parts.count > 1 ? insert + Array(parts[1].utf8) : [])
  }

  static let cases = [
    Case(
      testDescription: "invalid UTF-8 inside a string",
      bytes: line(#"{"jsonrpc":"2.0","id":"u","method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"q@"}}}"#, [0xC0, 0xAF]),
      id: .string("u")),
    Case(testDescription: "a byte after the message", bytes: line(#"{"jsonrpc":"2.0","id":"v","method":"ping"}@"#, [0xFF]), id: .string("v")),
    Case(testDescription: "text after the message", bytes: line(#"{"jsonrpc":"2.0","id":12,"method":"ping"} x"#), id: JSONRPCRequestID(12)),
    Case(
      testDescription: "both, with a lone surrogate",
      bytes: line(#"{"id":3,"jsonrpc":"2.0","method":"m","params":{"a":"\ud800","b":"@"}}]"#, [0xFE]), id: JSONRPCRequestID(3)),
    Case(testDescription: "invalid UTF-8 in the id itself", bytes: line(#"{"jsonrpc":"2.0","id":"w@","method":"ping"}"#, [0xFF]), id: nil),
    Case(testDescription: "an id after the flaw that cannot be read", bytes: line(#"{"jsonrpc":"2.0","method":"ping","x":1 2,"id":4}"#), id: nil),
    Case(testDescription: "truncated", bytes: line(#"{"jsonrpc":"2.0","id":5,"method":"#), id: nil),
    Case(testDescription: "no id", bytes: line(#"{"jsonrpc":"2.0","method":"ping"}@"#, [0xFF]), id: nil),
    // Review 22 (4): nested past the depth bound, the id is read without building the message.
    Case(testDescription: "nested 100 deep", bytes: line(#"{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":@}}"#, deep), id: .string("deep")),
    Case(testDescription: "an id after the deep value", bytes: line(#"{"jsonrpc":"2.0","method":"ping","params":@, "id" : 8 }"#, deep), id: JSONRPCRequestID(8)),
    Case(testDescription: "an id name written with an escape", bytes: line(#"{"i\u0064":"e","params":@}"#, deep), id: .string("e")),
    Case(testDescription: "a deep value holding strings with brackets and quotes", bytes: line(#"{"params":[["]\"[",{"}":"{"}],@],"id":9}"#, deep), id: JSONRPCRequestID(9)),
    Case(testDescription: "deep, with a lone surrogate in the id", bytes: line(#"{"id":"\ud800","params":@}"#, deep), id: nil),
    Case(testDescription: "deep, with a fractional id", bytes: line(#"{"id":1.5,"params":@}"#, deep), id: nil),
    Case(testDescription: "deep, an id only inside params", bytes: line(#"{"params":{"id":5,"a":@}}"#, deep), id: nil),
    Case(testDescription: "a deep array", bytes: deep, id: nil),
    // Review 29a (9): a key repeated in `arguments` was answered with `id: null`.
    Case(
      testDescription: "a key repeated in the arguments",
      bytes: line(#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"dup","title":"dup2"}}}"#),
      id: JSONRPCRequestID(10)),
    Case(
      testDescription: "a key repeated before an id that comes last",
      bytes: line(#"{"jsonrpc":"2.0","method":"ping","params":{"a":1,"a":2},"id":"late"}"#), id: .string("late")),
    Case(testDescription: "the id itself given twice", bytes: line(#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#), id: nil),
    Case(
      testDescription: "the id given twice, once written with an escape",
      bytes: line(#"{"jsonrpc":"2.0","id":1,"i\u0064":2,"method":"ping"}"#), id: nil),
    Case(
      testDescription: "a key named id repeated deeper down: null, as for a repeated top-level id",
      bytes: line(#"{"jsonrpc":"2.0","id":7,"method":"m","params":{"id":1,"id":2}}"#), id: nil),
  ]

  /// 100 nested arrays, past the default depth bound of 64.
  static let deep = Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)

  @Test("a -32700 answer carries the request's id when the rest of the line reads", arguments: cases)
  func readableID(_ c: Case) {
    guard case .rejected(let response) = JSONRPCMessage.decode(c.bytes), case .failure(let error) = response.outcome else {
      Issue.record("expected a rejection, got \(JSONRPCMessage.decode(c.bytes))")
      return
    }
    #expect(error.code == JSONRPCError.Code.parseError)
    #expect(response.id == c.id, "\(String(describing: response.id))")
  }
}
