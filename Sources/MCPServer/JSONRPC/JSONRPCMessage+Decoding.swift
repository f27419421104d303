import ContinuityKit

/// What one inbound line turned out to be.
public enum JSONRPCInbound: Sendable, Equatable {
  /// A well-formed message.
  case message(JSONRPCMessage)
  /// Not an acceptable message: send this error response back.
  case rejected(JSONRPCResponse)
  /// Not acceptable, and not answerable (a malformed response object, a notification with
  /// positional params, a blank line): JSON-RPC never answers these. `reason` is for the log.
  case ignored(reason: String)
  /// A malformed response object whose `id` can be read (a string or an integer): never
  /// answered either, but a request of ours waiting on that id must fail with `reason`
  /// instead of waiting for an answer that already came.
  case malformedResponse(id: JSONRPCRequestID, reason: String)
  /// A JSON-RPC batch, accepted only when asked for (MCP 2025-03-26): each element classified
  /// as a line of its own would be, in order; never empty and never nested.
  case batch([JSONRPCInbound])
}

extension JSONRPCMessage {
  /// Classifies one line of input (without its newline) by the JSON-RPC 2.0 and MCP rules.
  ///
  /// | input | outcome |
  /// |---|---|
  /// | over ``JSONRPCLimits/maximumMessageBytes`` | -32600 with the id read from its first ``LineFramer/defaultHeadBytes`` bytes (``requestID(inStartOf:)``), or `null` |
  /// | empty or only whitespace | ignored |
  /// | deeper than ``JSONRPCLimits/maximumDepth`` | -32700 with the id read past the deep value (``requestID(inStartOf:)``), or `null`; `data.byteOffset` |
  /// | not JSON | -32700, id `null`, `data.byteOffset` |
  /// | JSON with a lone surrogate escape (`"\ud800"`), bytes in a string that are not UTF-8, or bytes after the message | -32700 with the id (or `null`), `data.byteOffset` |
  /// | JSON with a key repeated in one object (other than `id`) | -32700 with the id read by walking the members (``requestID(inStartOf:)``), or `null`; `data.byteOffset` |
  /// | `[]` | -32600, id `null` |
  /// | a batch, `acceptsBatches` false | -32600, id `null` (batches were removed in MCP 2025-06-18) |
  /// | a batch, `acceptsBatches` true, of more than ``JSONRPCLimits/maximumBatchMessages`` elements | -32600, id `null`, `data.count` and `data.limit`; no element is read |
  /// | a batch, `acceptsBatches` true | ``JSONRPCInbound/batch(_:)``: each element as an object line; an element that is not an object (an array included) is -32600, id `null` |
  /// | a scalar (`42`, `"x"`, `null`) | -32600, id `null` |
  /// | an object whose `id` is not a string or integer (`null`, `1.5`, `true`) | -32600, id `null` |
  /// | `jsonrpc` missing or not exactly `"2.0"` | -32600 with the id (or `null`) |
  /// | `method` missing or not a string | -32600 with the id (or `null`) |
  /// | both `method` and `result`/`error` | -32600 with the id (or `null`) |
  /// | `params` a string, number or boolean | -32600 with the id (or `null`) |
  /// | `params` an array (positional; MCP uses named params) | -32602 with the id; a notification is ignored |
  /// | `params` absent or `null` | accepted as `{}` |
  /// | a response (`result` or `error`, no `method`) | a ``JSONRPCResponse``, or ignored when malformed |
  ///
  /// Members other than `jsonrpc`, `id`, `method`, `params`, `result` and `error` are ignored.
  ///
  /// - Parameters:
  ///   - line: the UTF-8 bytes of one message, without the newline.
  ///   - limits: the size and depth bounds.
  ///   - acceptsBatches: whether a JSON array of messages is a batch (MCP 2025-03-26, Base
  ///     Protocol › Messages: implementations "MUST support receiving JSON-RPC batches") rather
  ///     than refused (2025-06-18 and later).
  /// - Returns: the message, the error response to send, why the line is ignored, or a batch.
  /// - Source: JSON-RPC 2.0 §4–§6 (request, notification, response objects, error codes,
  ///   batch); MCP 2025-11-25 Base Protocol › Messages; MCP 2025-06-18 changelog (batching
  ///   removed).
  public static func decode(
    _ line: some Collection<UInt8>, limits: JSONRPCLimits = JSONRPCLimits(), acceptsBatches: Bool = false
  ) -> JSONRPCInbound {
    let size = line.count
    if size > limits.maximumMessageBytes {
      return .rejected(
        .error(
          .messageTooLarge(size: size, limit: limits.maximumMessageBytes),
          id: requestID(inStartOf: line.prefix(LineFramer.defaultHeadBytes))))
    }
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
      return .ignored(reason: "blank line")
    }
    let value: JSONValue
    do {
      // A lone surrogate escape (`"\ud800"`) is refused, not stored as U+FFFD: no Unicode text
      // holds one, and `dolphin import` and `migrate` refuse it in a file the same way.
      value = try JSONParser(
        options: .init(
          maximumDepth: limits.maximumDepth, maximumBytes: limits.maximumMessageBytes, loneSurrogates: .reject)
      ).parse(line)
    } catch {
      return .rejected(
        .error(
          JSONRPCError(
            code: JSONRPCError.Code.parseError,
            message: "parse error: invalid JSON at byte \(error.byteOffset): \(error.explanation(in: line))",
            data: ["byteOffset": .integer(error.byteOffset)]),
          id: idDespite(error, in: line, limits: limits)))
    }
    switch value {
    case .array(let elements) where acceptsBatches && elements.count > limits.maximumBatchMessages:
      return .rejected(.error(.batchTooLong(count: elements.count, limit: limits.maximumBatchMessages), id: nil))
    case .array(let elements) where acceptsBatches && !elements.isEmpty:
      return .batch(
        elements.map { element in
          guard case .object(let object) = element else {
            return .rejected(
              .error(
                .invalidRequest("a batch element must be a JSON-RPC object, got \(element.kindWithArticle)"),
                id: nil))
          }
          return decode(object)
        })
    case .array(let elements):
      let message =
        elements.isEmpty
        ? "an empty array is neither a JSON-RPC request nor a batch" + (acceptsBatches ? "" : "; send one JSON object per line")
        : "JSON-RPC batches are not supported here (MCP removed them in 2025-06-18; they are accepted only after "
          + "initialize agreed on 2025-03-26); send one JSON object per line"
      return .rejected(.error(.invalidRequest(message), id: nil))
    case .object(let object):
      return decode(object)
    default:
      return .rejected(
        .error(.invalidRequest("expected a JSON-RPC object, got \(value.kindWithArticle)"), id: nil))
    }
  }

  /// The id of a request refused for a flaw that leaves the rest of the line readable, so that
  /// the answer carries the id the client waits on: a lone surrogate escape, bytes inside a
  /// string that are not UTF-8 (read as U+FFFD), or bytes after a complete message (left
  /// unread) — any of them, together (review 19-a: the last two were answered with `id: null`,
  /// and the request went unanswered under its own id). Nil for any other parse error (JSON-RPC
  /// 2.0 §5: the id is `null` when it cannot be read), for a line without a string or integer
  /// id, and for a string id holding U+FFFD — what the lenient reading made of a flaw in the id
  /// itself, an id the client never sent (review, s17: `"id":"\ud800x"` was answered with
  /// `"id":"\u{FFFD}x"`). A line nested too deep has its id read without building it
  /// (``requestID(inStartOf:)``, review 22, 4).
  private static func idDespite(
    _ error: JSONParseError, in line: some Collection<UInt8>, limits: JSONRPCLimits
  ) -> JSONRPCRequestID? {
    if case .depthLimitExceeded = error.reason { return requestID(inStartOf: line) }
    // A key given twice in one object (in `arguments`, say) leaves the top-level `id` readable
    // by walking the members (review 29a, 9: it was answered with `id: null`). When the key
    // repeated is `id` itself, at whatever depth, the id the client meant cannot be told: null.
    if case .duplicateKey(let key) = error.reason {
      return key == "id" ? nil : requestID(inStartOf: line)
    }
    func isRecoverable(_ error: JSONParseError) -> Bool {
      switch error.reason {
      case .loneSurrogate, .invalidUTF8, .trailingData: true
      default: false
      }
    }
    guard isRecoverable(error) else { return nil }
    // Lenient: lone surrogates and invalid UTF-8 become U+FFFD, and what follows the first
    // complete value is dropped.
    var bytes = Array(String(decoding: line, as: UTF8.self).utf8)
    let parser = JSONParser(options: .init(maximumDepth: limits.maximumDepth, maximumBytes: .max))
    var parsed: JSONValue?
    do {
      parsed = try parser.parse(bytes)
    } catch {
      if error.reason == .trailingData, error.byteOffset < bytes.count {
        bytes.removeSubrange(error.byteOffset...)
        parsed = try? parser.parse(bytes)
      }
    }
    guard case .object(let object)? = parsed, let id = object["id"].flatMap(JSONRPCRequestID.init) else { return nil }
    if case .string(let text) = object["id"], text.unicodeScalars.contains("\u{FFFD}") { return nil }
    return id
  }

  private static func decode(_ object: JSONObject) -> JSONRPCInbound {
    let hasID = object.contains("id")
    let id = object["id"].flatMap(JSONRPCRequestID.init)
    let isResponse =
      !object.contains("method") && (object.contains("result") || object.contains("error"))
    if isResponse { return decodeResponse(object, id: id) }

    func reject(_ message: String, code: Int = JSONRPCError.Code.invalidRequest) -> JSONRPCInbound {
      .rejected(.error(JSONRPCError(code: code, message: message), id: id))
    }
    if hasID, id == nil {
      let given = object["id"] ?? .null
      let shown = given == .null ? "null" : "the \(given.kindName) \(given.jsonString())"
      return reject("the id must be a string or an integer, got \(shown)")
    }
    guard let version = object["jsonrpc"] else {
      return reject(#"missing "jsonrpc": "2.0""#)
    }
    guard version.string == "2.0" else {
      return reject(#""jsonrpc" must be "2.0", got \#(version.jsonString())"#)
    }
    guard let methodValue = object["method"] else {
      return reject("missing \"method\"")
    }
    guard let method = methodValue.string else {
      return reject("\"method\" must be a string, got \(methodValue.kindWithArticle)")
    }
    if object.contains("result") || object.contains("error") {
      return reject("a message cannot carry both \"method\" and \"result\" or \"error\"")
    }
    let params: JSONObject
    switch object["params"] {
    case nil, .null?:
      params = [:]
    case .object(let members)?:
      params = members
    case .array?:
      guard let id else {
        return .ignored(
          reason: "notification \(method) has positional params; MCP uses named params")
      }
      return .rejected(
        .error(
          .invalidParams("\"params\" must be an object (MCP uses named parameters), got an array"),
          id: id))
    case let other?:
      return reject("\"params\" must be an object, got \(other.kindWithArticle)")
    }
    if let id {
      return .message(.request(JSONRPCRequest(id: id, method: method, params: params)))
    }
    return .message(.notification(JSONRPCNotification(method: method, params: params)))
  }

  private static func decodeResponse(_ object: JSONObject, id: JSONRPCRequestID?) -> JSONRPCInbound
  {
    func malformed(_ reason: String) -> JSONRPCInbound {
      guard let id else { return .ignored(reason: reason) }
      return .malformedResponse(id: id, reason: reason)
    }
    guard object["jsonrpc"]?.string == "2.0" else {
      return malformed(#"a response without "jsonrpc": "2.0""#)
    }
    switch (object["result"], object["error"]) {
    case (let result?, nil):
      guard let id else { return .ignored(reason: "a result without a string or integer id") }
      return .message(.response(.result(result, id: id)))
    case (nil, .object(let error)?):
      guard let code = error["code"]?.int, let message = error["message"]?.string else {
        return malformed("an error response without an integer code and a string message")
      }
      guard id != nil || object["id"]?.isNull == true else {
        return .ignored(
          reason: "an error response whose id is neither a string, an integer nor null")
      }
      return .message(
        .response(.error(JSONRPCError(code: code, message: message, data: error["data"]), id: id)))
    default:
      return malformed("a response must carry exactly one of \"result\" and an \"error\" object")
    }
  }
}
