import Foundation

/// The value of one workspace setting, with its type: a whole number (`knowledgeItemLimit`), a
/// truth value (`calendarAccessEnabled`) or text (`assistantName`, `responseStyle`).
///
/// Encoded as the bare JSON value of its type (`10000`, `false`, `"balanced"`), as the settings
/// themselves are, so that a change reads like `dolphin settings show --json`.
public enum SettingValue: Sendable, Equatable, Codable, CustomStringConvertible {
  /// A whole number, e.g. `knowledgeItemLimit`.
  case integer(Int)
  /// A truth value, e.g. `calendarAccessEnabled`.
  case boolean(Bool)
  /// Text, e.g. `assistantName`, or an enumerated value such as `responseStyle`'s `balanced`.
  case text(String)

  /// The value as text: `10000`, `false`, `balanced`, the assistant's name as stored.
  public var description: String {
    switch self {
    case .integer(let n): String(n)
    case .boolean(let b): String(b)
    case .text(let s): s
    }
  }

  /// Decodes a JSON number as ``integer(_:)``, `true`/`false` as ``boolean(_:)`` and a string as
  /// ``text(_:)``.
  /// - Throws: `DecodingError.typeMismatch` for any other JSON value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let b = try? container.decode(Bool.self) {
      self = .boolean(b)
    } else if let n = try? container.decode(Int.self) {
      self = .integer(n)
    } else {
      self = .text(try container.decode(String.self))
    }
  }

  /// Encodes the bare value: a number, a boolean or a string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .integer(let n): try container.encode(n)
    case .boolean(let b): try container.encode(b)
    case .text(let s): try container.encode(s)
    }
  }
}
