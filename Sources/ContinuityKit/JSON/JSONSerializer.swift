/// Writes a ``JSONValue`` as compact UTF-8 JSON text (RFC 8259).
///
/// The output has no insignificant whitespace and no newline, so one value is one line (the
/// framing MCP's stdio transport needs). Strings escape `"`, `\` and every control character
/// U+0000–U+001F (`\b \f \n \r \t` in short form, the rest as `\u00XX`), and DEL, the C1
/// controls and U+2028/U+2029 as `\uXXXX`; `/` is never escaped and everything else is written
/// as raw UTF-8. Numbers are written as their literal.
///
/// - Complexity: O(n) in the output's length, plus O(k log k) per object of k keys when
///   sorting.
public struct JSONSerializer: Sendable {
  /// Whether object keys are written sorted by UTF-8 bytes (Unicode code point order).
  ///
  /// `false` (the default) writes them in insertion order.
  public var sortedKeys: Bool

  /// A serializer; see ``sortedKeys``.
  public init(sortedKeys: Bool = false) {
    self.sortedKeys = sortedKeys
  }

  /// The JSON text of `value` as UTF-8 bytes.
  public func serialize(_ value: JSONValue) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(64)
    write(value, to: &output)
    return output
  }

  /// Appends the JSON text of `value` to `output`.
  public func write(_ value: JSONValue, to output: inout [UInt8]) {
    switch value {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
    case .number(let number): output.append(contentsOf: number.literal.utf8)
    case .string(let text): Self.writeString(text, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (position, element) in elements.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        write(element, to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let object):
      output.append(UInt8(ascii: "{"))
      let keys = sortedKeys ? object.sortedKeys : object.keys
      var first = true
      for key in keys {
        guard let member = object[key] else { continue }
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        Self.writeString(key, to: &output)
        output.append(UInt8(ascii: ":"))
        write(member, to: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Appends `text` as a quoted, escaped JSON string.
  public static func writeString(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    // DEL, the C1 controls (NEL among them) and the line and paragraph separators are escaped
    // too: JSON allows them raw, but a reader splitting lines on Unicode line breaks (Python's
    // `str.splitlines`) cut a message in two at U+0085 or U+2028 (review, s13).
    if text.unicodeScalars.contains(where: escapedBeyondC0) {
      for scalar in text.unicodeScalars {
        if escapedBeyondC0(scalar) {
          output.append(contentsOf: [0x5C, UInt8(ascii: "u")])
          for shift in stride(from: 12, through: 0, by: -4) {
            output.append(hexDigits[Int((scalar.value >> UInt32(shift)) & 0xF)])
          }
        } else {
          writeEscapedUTF8(String(scalar), to: &output)
        }
      }
    } else {
      writeEscapedUTF8(text, to: &output)
    }
    output.append(UInt8(ascii: "\""))
  }

  /// DEL, a C1 control, LINE SEPARATOR or PARAGRAPH SEPARATOR: written as `\uXXXX`.
  private static func escapedBeyondC0(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
  }

  /// Appends `text`'s UTF-8 with `"`, `\\` and U+0000–U+001F escaped (no quotes around it).
  private static func writeEscapedUTF8(_ text: String, to output: inout [UInt8]) {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
      case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
      case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
      case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x00..<0x20:
        output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
      default: output.append(byte)
      }
    }
  }
}

extension JSONValue {
  /// The compact JSON text as UTF-8 bytes (see ``JSONSerializer``).
  /// - Parameter sortedKeys: write object keys in code point order instead of insertion order.
  public func serialized(sortedKeys: Bool = false) -> [UInt8] {
    JSONSerializer(sortedKeys: sortedKeys).serialize(self)
  }

  /// The compact JSON text (see ``JSONSerializer``).
  /// - Parameter sortedKeys: write object keys in code point order instead of insertion order.
  public func jsonString(sortedKeys: Bool = false) -> String {
    String(decoding: serialized(sortedKeys: sortedKeys), as: UTF8.self)
  }
}
