/// Where and why legacy JSON text failed to parse.
struct LegacyJSONSyntaxError: Error, Sendable, Equatable {
  /// 0-based UTF-8 byte offset of the problem (the input length when the input ended early).
  var byteOffset: Int
  /// What is wrong, e.g. `the input ends inside an object opened at line 3, column 5`.
  var message: String
}

/// A strict RFC 8259 JSON parser that reports the byte offset of the first error.
///
/// Written here because Foundation's `JSONSerialization` on Linux reports no position (and
/// calls a misspelled `tru` "unexpected end of file"), accepts trailing commas, and turns
/// numbers into `NSNumber`, which loses their source text. This parser rejects everything
/// RFC 8259 rejects (trailing commas, comments, leading zeros, unescaped control characters,
/// invalid UTF-8, unpaired surrogate escapes), accepts a leading UTF-8 byte order mark, and
/// limits nesting to ``maximumDepth`` so hostile input cannot overflow the stack.
///
/// - Complexity: O(n) in the input length.
struct LegacyJSONParser {
  /// The deepest nesting of arrays and objects accepted.
  static let maximumDepth = 256

  private let bytes: [UInt8]
  private var position = 0
  private var depth = 0
  /// Offsets of the arrays and objects being parsed, innermost last, for "cut off" messages.
  private var open: [(isObject: Bool, offset: Int)] = []

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Parses one JSON text (a single value surrounded by optional whitespace).
  /// - Throws: ``LegacyJSONSyntaxError`` for the first violation found.
  static func parse(_ bytes: [UInt8]) throws(LegacyJSONSyntaxError) -> LegacyJSONValue {
    var parser = LegacyJSONParser(bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
    parser.skipWhitespace()
    if parser.position == bytes.count {
      throw LegacyJSONSyntaxError(byteOffset: parser.position, message: "the input is empty")
    }
    let value = try parser.parseValue()
    parser.skipWhitespace()
    if parser.position < bytes.count {
      throw parser.error("unexpected \(parser.describeByte()) after the end of the JSON value")
    }
    return value
  }

  /// 1-based line and column of `byteOffset` in `bytes`. Lines end at `\n`; the column counts
  /// `Character`s (what an editor shows), so a multi-byte character counts once.
  static func location(of byteOffset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    let end = min(max(byteOffset, 0), bytes.count)
    var line = 1
    var lineStart = 0
    for i in 0..<end where bytes[i] == 0x0A {
      line += 1
      lineStart = i + 1
    }
    let prefix = String(decoding: bytes[lineStart..<end], as: UTF8.self)
    return (line, prefix.count + 1)
  }

  // MARK: - Grammar

  private mutating func parseValue() throws(LegacyJSONSyntaxError) -> LegacyJSONValue {
    guard position < bytes.count else { throw endOfInput(expecting: "a value") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error("unexpected \(describeByte()); expected a value")
    }
  }

  private mutating func parseObject() throws(LegacyJSONSyntaxError) -> LegacyJSONValue {
    try enter(isObject: true)
    position += 1
    var members: [LegacyJSONMember] = []
    skipWhitespace()
    if try peek(expecting: "a member name or '}'") == UInt8(ascii: "}") {
      position += 1
      leave()
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard try peek(expecting: "a member name") == UInt8(ascii: "\"") else {
        throw error("unexpected \(describeByte()); expected a member name in double quotes")
      }
      let name = try parseString()
      skipWhitespace()
      guard try peek(expecting: "':'") == UInt8(ascii: ":") else {
        throw error("unexpected \(describeByte()); expected ':' after member name \"\(name)\"")
      }
      position += 1
      skipWhitespace()
      members.append(LegacyJSONMember(name: name, value: try parseValue()))
      skipWhitespace()
      switch try peek(expecting: "',' or '}'") {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "}"):
        position += 1
        leave()
        return .object(members)
      default: throw error("unexpected \(describeByte()); expected ',' or '}' in an object")
      }
    }
  }

  private mutating func parseArray() throws(LegacyJSONSyntaxError) -> LegacyJSONValue {
    try enter(isObject: false)
    position += 1
    var elements: [LegacyJSONValue] = []
    skipWhitespace()
    if try peek(expecting: "a value or ']'") == UInt8(ascii: "]") {
      position += 1
      leave()
      return .array(elements)
    }
    while true {
      skipWhitespace()
      if try peek(expecting: "a value") == UInt8(ascii: "]") {
        throw error("unexpected ']' after ','; trailing commas are not JSON")
      }
      elements.append(try parseValue())
      skipWhitespace()
      switch try peek(expecting: "',' or ']'") {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "]"):
        position += 1
        leave()
        return .array(elements)
      default: throw error("unexpected \(describeByte()); expected ',' or ']' in an array")
      }
    }
  }

  private mutating func parseString() throws(LegacyJSONSyntaxError) -> String {
    let start = position
    position += 1
    var buffer: [UInt8] = []
    while true {
      guard position < bytes.count else {
        let (line, column) = Self.location(of: start, in: bytes)
        throw LegacyJSONSyntaxError(
          byteOffset: position,
          message: "the input ends inside a string that starts at line \(line), column \(column)"
            + "; the file looks cut off")
      }
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        position += 1
        guard let text = String(validating: buffer, as: UTF8.self) else {
          throw LegacyJSONSyntaxError(
            byteOffset: start, message: "the string starting here is not valid UTF-8")
        }
        return text
      case UInt8(ascii: "\\"):
        try parseEscape(into: &buffer)
      case 0x00..<0x20:
        throw error(
          "control character U+\(hex4(UInt32(byte))) inside a string; JSON requires it escaped")
      default:
        buffer.append(byte)
        position += 1
      }
    }
  }

  private mutating func parseEscape(into buffer: inout [UInt8]) throws(LegacyJSONSyntaxError) {
    let escapeStart = position
    position += 1
    guard position < bytes.count else { throw endOfInput(expecting: "an escape sequence") }
    let simple: UInt8? =
      switch bytes[position] {
      case UInt8(ascii: "\""): 0x22
      case UInt8(ascii: "\\"): 0x5C
      case UInt8(ascii: "/"): 0x2F
      case UInt8(ascii: "b"): 0x08
      case UInt8(ascii: "f"): 0x0C
      case UInt8(ascii: "n"): 0x0A
      case UInt8(ascii: "r"): 0x0D
      case UInt8(ascii: "t"): 0x09
      default: nil
      }
    if let simple {
      buffer.append(simple)
      position += 1
      return
    }
    guard bytes[position] == UInt8(ascii: "u") else {
      position = escapeStart
      throw error("invalid escape sequence \\\(describeByte(at: escapeStart + 1, quoted: false))")
    }
    position += 1
    var scalarValue = try parseHex4(escapeStart: escapeStart)
    if (0xD800...0xDBFF).contains(scalarValue) {
      // A high surrogate must be followed by an escaped low surrogate.
      guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
        bytes[position + 1] == UInt8(ascii: "u")
      else {
        position = escapeStart
        throw error("unpaired surrogate escape \\u\(hex4(scalarValue))")
      }
      position += 2
      let low = try parseHex4(escapeStart: escapeStart)
      guard (0xDC00...0xDFFF).contains(low) else {
        position = escapeStart
        throw error("unpaired surrogate escape \\u\(hex4(scalarValue))")
      }
      scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
    } else if (0xDC00...0xDFFF).contains(scalarValue) {
      position = escapeStart
      throw error("unpaired surrogate escape \\u\(hex4(scalarValue))")
    }
    guard let scalar = Unicode.Scalar(scalarValue) else {
      position = escapeStart
      throw error("invalid escape \\u\(hex4(scalarValue))")
    }
    buffer.append(contentsOf: String(Character(scalar)).utf8)
  }

  private mutating func parseHex4(escapeStart: Int) throws(LegacyJSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard position < bytes.count else { throw endOfInput(expecting: "four hex digits") }
      let byte = bytes[position]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default:
        position = escapeStart
        throw error("invalid \\u escape; expected four hex digits")
      }
      value = value * 16 + digit
      position += 1
    }
    return value
  }

  private mutating func parseNumber() throws(LegacyJSONSyntaxError) -> LegacyJSONValue {
    let start = position
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    guard position < bytes.count, isDigit(bytes[position]) else {
      if position == bytes.count { throw endOfInput(expecting: "a digit") }
      throw error("unexpected \(describeByte()); expected a digit")
    }
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if position < bytes.count, isDigit(bytes[position]) {
        position = start
        throw error("numbers may not have leading zeros")
      }
    } else {
      skipDigits()
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      try requireDigit(after: "'.'")
    }
    if position < bytes.count,
      bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")
    {
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      try requireDigit(after: "the exponent")
    }
    return .number(String(decoding: bytes[start..<position], as: UTF8.self))
  }

  private mutating func parseLiteral(_ word: String, _ value: LegacyJSONValue)
    throws(LegacyJSONSyntaxError) -> LegacyJSONValue
  {
    let expected = Array(word.utf8)
    for (i, byte) in expected.enumerated() {
      guard position + i < bytes.count else {
        position += i
        throw endOfInput(expecting: "'\(word)'")
      }
      guard bytes[position + i] == byte else {
        throw error("invalid literal; expected '\(word)'")
      }
    }
    position += expected.count
    return value
  }

  // MARK: - Helpers

  private mutating func enter(isObject: Bool) throws(LegacyJSONSyntaxError) {
    guard depth < Self.maximumDepth else {
      throw error("arrays and objects are nested deeper than \(Self.maximumDepth) levels")
    }
    depth += 1
    open.append((isObject, position))
  }

  private mutating func leave() {
    depth -= 1
    open.removeLast()
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  private mutating func skipDigits() {
    while position < bytes.count, isDigit(bytes[position]) { position += 1 }
  }

  private mutating func requireDigit(after what: String) throws(LegacyJSONSyntaxError) {
    guard position < bytes.count else { throw endOfInput(expecting: "a digit") }
    guard isDigit(bytes[position]) else {
      throw error("unexpected \(describeByte()); expected a digit after \(what)")
    }
    skipDigits()
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// The current byte, or an end-of-input error that says what was expected.
  private func peek(expecting what: String) throws(LegacyJSONSyntaxError) -> UInt8 {
    guard position < bytes.count else { throw endOfInput(expecting: what) }
    return bytes[position]
  }

  private func error(_ message: String) -> LegacyJSONSyntaxError {
    LegacyJSONSyntaxError(byteOffset: position, message: message)
  }

  /// "The input ends inside an object opened at line 3, column 5 (expected ...)".
  private func endOfInput(expecting what: String) -> LegacyJSONSyntaxError {
    var message = "the input ends where \(what) was expected"
    if let innermost = open.last {
      let (line, column) = Self.location(of: innermost.offset, in: bytes)
      message =
        "the input ends inside \(innermost.isObject ? "an object" : "an array") opened at "
        + "line \(line), column \(column), where \(what) was expected; the file looks cut off"
    }
    return LegacyJSONSyntaxError(byteOffset: bytes.count, message: message)
  }

  private func describeByte(at offset: Int? = nil, quoted: Bool = true) -> String {
    let i = offset ?? position
    guard i < bytes.count else { return "end of input" }
    let byte = bytes[i]
    if byte >= 0x21, byte < 0x7F {
      let c = String(UnicodeScalar(byte))
      return quoted ? JSONParseError.quoteLikeName(byte) ?? "character '\(c)'" : c
    }
    return "byte 0x\(String(byte, radix: 16, uppercase: true))"
  }

  private func hex4(_ value: UInt32) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }
}
