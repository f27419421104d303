import ContinuityKit

/// A request: expects exactly one response carrying the same ``id``.
///
/// Shape: `{"jsonrpc": "2.0", "id": string | integer, "method": string, "params"?: object}`.
public struct JSONRPCRequest: Sendable, Equatable {
  /// The id, echoed in the response with its JSON type and text.
  public var id: JSONRPCRequestID
  /// The method name, such as `tools/call`.
  public var method: String
  /// The named parameters; `{}` when the sender omitted `params` or sent `null`.
  public var params: JSONObject

  /// A request.
  public init(id: JSONRPCRequestID, method: String, params: JSONObject = [:]) {
    self.id = id
    self.method = method
    self.params = params
  }
}

/// A notification: one-way, never answered.
///
/// Shape: `{"jsonrpc": "2.0", "method": string, "params"?: object}` (no `id` member).
public struct JSONRPCNotification: Sendable, Equatable {
  /// The method name, such as `notifications/cancelled`.
  public var method: String
  /// The named parameters; `{}` when omitted or `null`.
  public var params: JSONObject

  /// A notification.
  public init(method: String, params: JSONObject = [:]) {
    self.method = method
    self.params = params
  }
}

/// A response: the result or the error of one request.
///
/// Shape: `{"jsonrpc": "2.0", "id": string | integer | null, "result": any}` or
/// `{…, "error": {"code": integer, "message": string, "data"?: any}}`. The id is `null` only
/// for an error about a message whose id could not be read (JSON-RPC 2.0 §5).
public struct JSONRPCResponse: Sendable, Equatable {
  /// The id of the request answered; `nil` (written as `null`) when it could not be read.
  public var id: JSONRPCRequestID?
  /// The result, or the error.
  public var outcome: Result<JSONValue, JSONRPCError>

  /// A response.
  public init(id: JSONRPCRequestID?, outcome: Result<JSONValue, JSONRPCError>) {
    self.id = id
    self.outcome = outcome
  }

  /// A success response.
  public static func result(_ result: JSONValue, id: JSONRPCRequestID) -> JSONRPCResponse {
    JSONRPCResponse(id: id, outcome: .success(result))
  }

  /// An error response.
  public static func error(_ error: JSONRPCError, id: JSONRPCRequestID?) -> JSONRPCResponse {
    JSONRPCResponse(id: id, outcome: .failure(error))
  }
}

/// One JSON-RPC 2.0 message, in either direction.
///
/// Batches (JSON arrays of messages) are not messages here: MCP 2025-03-26 added them and
/// 2025-06-18 removed them again. The server accepts them only from a client that agreed to
/// 2025-03-26 (``JSONRPCInbound/batch(_:)``) and answers any other with one -32600 error (see
/// ``JSONRPCMessage/decode(_:limits:acceptsBatches:)``).
///
/// - Source: JSON-RPC 2.0 specification (jsonrpc.org); MCP 2025-11-25, Base Protocol › Messages.
public enum JSONRPCMessage: Sendable, Equatable {
  case request(JSONRPCRequest)
  case notification(JSONRPCNotification)
  case response(JSONRPCResponse)

  /// The message as a JSON object with `"jsonrpc": "2.0"`.
  public var jsonValue: JSONValue {
    var object: JSONObject = ["jsonrpc": "2.0"]
    switch self {
    case .request(let request):
      object["id"] = request.id.jsonValue
      object["method"] = .string(request.method)
      if !request.params.isEmpty { object["params"] = .object(request.params) }
    case .notification(let notification):
      object["method"] = .string(notification.method)
      if !notification.params.isEmpty { object["params"] = .object(notification.params) }
    case .response(let response):
      object["id"] = response.id?.jsonValue ?? .null
      switch response.outcome {
      case .success(let result): object["result"] = result
      case .failure(let error): object["error"] = error.jsonValue
      }
    }
    return .object(object)
  }

  /// The message as one line of compact JSON with sorted keys, without the trailing newline.
  ///
  /// It never contains a raw newline (strings escape them), as the stdio transport requires.
  public func serialized() -> [UInt8] {
    jsonValue.serialized(sortedKeys: true)
  }
}
