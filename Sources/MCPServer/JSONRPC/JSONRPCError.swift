import ContinuityKit

/// The `error` member of a JSON-RPC error response: an integer code, a message and optional
/// data.
///
/// - Source: JSON-RPC 2.0 §5.1 (error object, reserved codes -32768…-32000); MCP 2025-11-25,
///   Base Protocol › Error Responses and Server Features › Resources › Error Handling (-32002).
public struct JSONRPCError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The codes this server sends.
  public enum Code {
    /// Invalid JSON was received (JSON-RPC 2.0).
    public static let parseError = -32700
    /// The JSON is not a valid request object (JSON-RPC 2.0).
    public static let invalidRequest = -32600
    /// The method does not exist or is not offered (JSON-RPC 2.0).
    public static let methodNotFound = -32601
    /// Invalid method parameters (JSON-RPC 2.0); MCP also uses it for unknown tools and
    /// prompts and invalid cursors.
    public static let invalidParams = -32602
    /// An internal error while handling a valid request (JSON-RPC 2.0).
    public static let internalError = -32603
    /// MCP: the resource URI names nothing (Resources › Error Handling).
    public static let resourceNotFound = -32002
  }

  /// The error code (see ``Code``).
  public var code: Int
  /// One sentence: what went wrong, with which value, and how to fix it.
  public var message: String
  /// Structured detail, such as `{"byteOffset": 17}` or `{"uri": "dolphin://…"}`.
  public var data: JSONValue?

  /// An error object.
  public init(code: Int, message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  /// `JSON-RPC error <code>: <message>`.
  public var description: String { "JSON-RPC error \(code): \(message)" }

  /// The error object as JSON (`code`, `message`, and `data` when present).
  public var jsonValue: JSONValue {
    var object: JSONObject = ["code": .integer(code), "message": .string(message)]
    if let data { object["data"] = data }
    return .object(object)
  }

  /// -32600 for a message over `limit` bytes (its `size` in bytes).
  public static func messageTooLarge(size: Int, limit: Int) -> JSONRPCError {
    JSONRPCError(
      code: Code.invalidRequest,
      message: "the message is \(size) bytes, over the \(limit)-byte limit; send a smaller message",
      data: ["size": .integer(size), "limit": .integer(limit)])
  }

  /// -32600 for a JSON-RPC batch of `count` messages, over `limit`
  /// (``JSONRPCLimits/maximumBatchMessages``): none of it was run.
  public static func batchTooLong(count: Int, limit: Int) -> JSONRPCError {
    JSONRPCError(
      code: Code.invalidRequest,
      message: "the JSON-RPC batch holds \(count) messages, over the limit of \(limit) per batch; none of them was run. "
        + "Send at most \(limit) per batch, or one message per line",
      data: ["count": .integer(count), "limit": .integer(limit)])
  }

  /// -32601 for a method this server does not offer.
  public static func methodNotFound(_ method: String) -> JSONRPCError {
    // The name is the client's text: quoted inert, on one line and short in the message, and
    // echoed in `data` up to 1,024 characters (an 80,000-character name is not sent back twice).
    JSONRPCError(
      code: Code.methodNotFound, message: "method not found: \(MCPServerError.quoted(method))",
      data: ["method": .string(Truncation.truncate(method, to: 1_024))])
  }

  /// -32602 with `message`.
  public static func invalidParams(_ message: String) -> JSONRPCError {
    JSONRPCError(code: Code.invalidParams, message: message)
  }

  /// -32600 with `message`.
  public static func invalidRequest(_ message: String) -> JSONRPCError {
    JSONRPCError(code: Code.invalidRequest, message: message)
  }

  /// -32603 with `message`.
  public static func internalError(_ message: String) -> JSONRPCError {
    JSONRPCError(code: Code.internalError, message: message)
  }
}
