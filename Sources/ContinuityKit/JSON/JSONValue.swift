/// A JSON value (RFC 8259), exactly as it appeared on the wire.
///
/// Numbers keep their literal text (``JSONNumber``): an integer such as `9007199254740993` is
/// never routed through a `Double`, and `1e400` stays `1e400`. Objects keep their keys in
/// document order (``JSONObject``). Parse bytes with ``init(parsing:options:)`` (a strict
/// parser with depth and size limits and byte-offset errors) and write them with
/// ``serialized(sortedKeys:)``. To move between a value and `Codable` types use
/// ``init(encoding:)`` and ``decode(_:)``, which go through ``StableJSON``.
///
/// ```swift
/// let value = try JSONValue(parsing: #"{"id": 9007199254740993}"#)
/// value["id"]?.int        // 9007199254740993
/// value.jsonString()      // {"id":9007199254740993}
/// ```
public enum JSONValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, kept as its literal.
  case number(JSONNumber)
  /// A string of Unicode scalars (escapes already decoded).
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object.
  case object(JSONObject)
}

extension JSONValue {
  /// Whether the value is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The Boolean, or `nil` for any other kind of value.
  public var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The number as an exact `Int` (see ``JSONNumber/int``), or `nil` for a number `Int` cannot
  /// hold exactly and for any other kind of value.
  public var int: Int? {
    if case .number(let number) = self { return number.int }
    return nil
  }

  /// The number as the nearest finite `Double` (see ``JSONNumber/double``), or `nil`.
  public var double: Double? {
    if case .number(let number) = self { return number.double }
    return nil
  }

  /// The number, or `nil` for any other kind of value.
  public var number: JSONNumber? {
    if case .number(let number) = self { return number }
    return nil
  }

  /// The string, or `nil` for any other kind of value.
  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The elements, or `nil` for any other kind of value.
  public var array: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members, or `nil` for any other kind of value.
  public var object: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The member `key` of an object; `nil` when absent or when the value is not an object.
  public subscript(key: String) -> JSONValue? {
    object?[key]
  }

  /// A short name of the value's kind for messages: `null`, `boolean`, `number`, `string`,
  /// `array` or `object`.
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  /// The kind as a message names a value of it: `null`, `a boolean`, `a number`, `a string`,
  /// `an array`, `an object` (so `got null`, never `got a null`).
  public var kindWithArticle: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The number with the decimal literal of `value`.
  public static func integer(_ value: some BinaryInteger) -> JSONValue {
    .number(JSONNumber(value))
  }
}

extension JSONValue: CustomStringConvertible {
  /// The compact JSON text, keys in document order.
  public var description: String { jsonString() }
}

extension JSONValue: ExpressibleByNilLiteral {
  /// `null`.
  public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  /// `true` or `false`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// The number with the literal's decimal digits.
  public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// The number with the shortest literal for `value`.
  ///
  /// Float literals are always finite, so the `null` fallback cannot be reached from source.
  public init(floatLiteral value: Double) {
    self = JSONNumber(value).map(JSONValue.number) ?? .null
  }
}

extension JSONValue: ExpressibleByStringLiteral {
  /// The string.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// An array of the elements.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// An object with the literal's members in source order.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements))
  }
}
