import Foundation

extension JSONValue: Codable {
  /// Decodes whatever value the decoder holds, so a `JSONValue` can sit inside a `Codable` type.
  ///
  /// Numbers come through the decoder's own number types: an integer that fits `Int64` or
  /// `UInt64` keeps its digits, anything else becomes the decoder's `Double` (so bridging
  /// from Foundation's `JSONDecoder` can round large non-integers). Parse with
  /// ``init(parsing:options:)`` when exact literals matter. Object keys come out sorted by
  /// code point, since decoders do not report document order.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the value is none of the six JSON kinds.
  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
      var object = JSONObject()
      let keys = container.allKeys.sorted {
        $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8)
      }
      for key in keys {
        object[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
      }
      self = .object(object)
      return
    }
    if var container = try? decoder.unkeyedContainer() {
      var elements: [JSONValue] = []
      if let count = container.count { elements.reserveCapacity(count) }
      while !container.isAtEnd {
        elements.append(try container.decode(JSONValue.self))
      }
      self = .array(elements)
      return
    }
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let integer = try? container.decode(Int64.self) {
      self = .integer(integer)
    } else if let integer = try? container.decode(UInt64.self) {
      self = .integer(integer)
    } else if let real = try? container.decode(Double.self), let number = JSONNumber(real) {
      self = .number(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "expected a JSON value (null, boolean, number, string, array or object)")
    }
  }

  /// Encodes the value through the encoder's containers.
  ///
  /// Numbers go through the encoder's number types: an integer literal that fits `Int64` or
  /// `UInt64` keeps its digits; any other number is encoded as the nearest `Double`. Use
  /// ``serialized(sortedKeys:)`` when exact literals matter.
  ///
  /// - Throws: `EncodingError.invalidValue` for a number beyond `Double`'s range (`1e400`),
  ///   which an encoder cannot represent.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let flag):
      var container = encoder.singleValueContainer()
      try container.encode(flag)
    case .number(let number):
      var container = encoder.singleValueContainer()
      if let integer = Int64(number.literal) {
        try container.encode(integer)
      } else if let integer = UInt64(number.literal) {
        try container.encode(integer)
      } else if let real = number.double {
        try container.encode(real)
      } else {
        throw EncodingError.invalidValue(
          number.literal,
          EncodingError.Context(
            codingPath: encoder.codingPath,
            debugDescription:
              "the number \(number.literal) is outside Double's range; serialize the JSONValue directly to keep it"
          ))
      }
    case .string(let text):
      var container = encoder.singleValueContainer()
      try container.encode(text)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(element) }
    case .object(let object):
      var container = encoder.container(keyedBy: AnyCodingKey.self)
      for (key, value) in object {
        try container.encode(value, forKey: AnyCodingKey(stringValue: key))
      }
    }
  }

  /// The JSON value of an `Encodable`, encoded by ``StableJSON/encoder(pretty:)`` (ISO-8601
  /// dates, no escaped slashes) and read back with ``JSONParser`` (depth ≤ 1,000, no size
  /// limit), so the numbers are the encoder's exact literals.
  ///
  /// - Throws: the encoder's `EncodingError`; ``JSONParseError`` when the value nests deeper
  ///   than 1,000 levels.
  public init(encoding value: some Encodable) throws {
    let data = try StableJSON.encoder().encode(value)
    self = try JSONParser(options: .init(maximumDepth: 1_000, maximumBytes: .max)).parse(data)
  }

  /// Decodes a `Decodable` from this value by serializing it exactly (literals untouched) and
  /// decoding with ``StableJSON/decoder()`` (ISO-8601 dates).
  ///
  /// - Throws: the decoder's `DecodingError` when the value does not have `type`'s shape.
  public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
    try StableJSON.decoder().decode(T.self, from: Data(serialized()))
  }
}

/// A coding key for arbitrary member names.
struct AnyCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  init(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }
}
