import ContinuityKit

/// A JSON-RPC request id as MCP allows it: a string or an integer, never `null`.
///
/// The id is kept exactly as sent and echoed with the same JSON type and text: `"007"` stays a
/// string, `7` a number, and `9007199254740993` keeps every digit (it is held as its literal,
/// never as a `Double`). Two ids are equal only when type and text are equal.
///
/// - Source: MCP 2025-11-25, Base Protocol › Messages › Requests ("Requests MUST include a
///   string or integer ID"; "the ID MUST NOT be null").
public enum JSONRPCRequestID: Sendable, Hashable, CustomStringConvertible {
  /// A string id.
  case string(String)
  /// An integer id, kept as its literal (`-?digits`, no fraction or exponent).
  case number(JSONNumber)

  /// The id a JSON value denotes, or `nil` for anything but a string or an integer literal
  /// (`null`, booleans, `1.5`, `1e3`, arrays and objects are not ids).
  public init?(_ value: JSONValue) {
    switch value {
    case .string(let text):
      self = .string(text)
    case .number(let number)
    where number.literal.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) }):
      self = .number(number)
    default:
      return nil
    }
  }

  /// The integer id `value`.
  public init(_ value: Int) {
    self = .number(JSONNumber(value))
  }

  /// The id as a JSON value, for writing back.
  public var jsonValue: JSONValue {
    switch self {
    case .string(let text): .string(text)
    case .number(let number): .number(number)
    }
  }

  /// The id as JSON text (`"007"` with quotes, `42` without).
  public var description: String { jsonValue.jsonString() }
}
