/// A strict RFC 8259 parser from UTF-8 bytes to ``JSONValue``.
///
/// Strict means: exactly one value, surrounded only by JSON whitespace (space, tab, LF, CR);
/// no comments, trailing commas, single quotes, `NaN`, leading `+` or zeros, or byte-order
/// mark; strings must be well-formed UTF-8 with control characters escaped; a key may appear
/// only once per object. Limits bound the work: input size (bytes) and nesting depth. Every
/// error carries the byte offset of the problem (``JSONParseError``).
///
/// Numbers are kept as their literal text (``JSONNumber``). Object members keep document order.
///
/// - Complexity: O(n) in the input's length; recursion depth is bounded by
///   ``Options/maximumDepth``.
/// - Source: RFC 8259 (The JavaScript Object Notation Data Interchange Format), §2–§8;
///   RFC 3629 §4 for well-formed UTF-8.
public struct JSONParser: Sendable {
  /// What to do with a `\uD800`–`\uDFFF` escape that is not part of a surrogate pair.
  /// (RFC 8259 §8.2 leaves it unpredictable; a Swift `String` cannot hold one.)
  public enum LoneSurrogatePolicy: Sendable, Equatable {
    /// Replace it with U+FFFD REPLACEMENT CHARACTER, as `JSON.parse` consumers and WHATWG
    /// decoders effectively do. The parser's default, for text read to be shown or checked.
    case replace
    /// Refuse the text with ``JSONParseError/Reason/loneSurrogate`` (and its byte offset). What
    /// the MCP server and the export importer ask for: input that would be stored is refused
    /// where it is wrong rather than stored with a character the sender never wrote.
    case reject
  }

  /// Limits and choices for one parse.
  public struct Options: Sendable, Equatable {
    /// The deepest nesting of arrays and objects accepted.
    ///
    /// A top-level scalar is depth 0 and `[[1]]` is depth 2. Default 64; values are clamped
    /// to 1…1,000 (the parser recurses).
    public var maximumDepth: Int
    /// The largest input accepted, in bytes: default 4 MiB (4,194,304 bytes).
    public var maximumBytes: Int
    /// What to do with lone surrogate escapes: default ``LoneSurrogatePolicy/replace``.
    public var loneSurrogates: LoneSurrogatePolicy

    /// Options; every default is documented on its property.
    public init(
      maximumDepth: Int = 64, maximumBytes: Int = 4 * 1024 * 1024,
      loneSurrogates: LoneSurrogatePolicy = .replace
    ) {
      self.maximumDepth = maximumDepth
      self.maximumBytes = maximumBytes
      self.loneSurrogates = loneSurrogates
    }
  }

  /// The options this parser applies.
  public var options: Options

  /// A parser applying `options`.
  public init(options: Options = Options()) {
    self.options = options
  }

  /// Parses exactly one JSON value from `bytes`.
  ///
  /// - Parameter bytes: a UTF-8 JSON text.
  /// - Returns: the value.
  /// - Throws: ``JSONParseError`` with the reason and byte offset of the first problem;
  ///   ``JSONParseError/Reason/sizeLimitExceeded(limit:size:)`` before reading anything when
  ///   the input is over ``Options/maximumBytes``.
  public func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
    let count = bytes.count
    guard count <= options.maximumBytes else {
      throw JSONParseError(
        .sizeLimitExceeded(limit: options.maximumBytes, size: count), at: options.maximumBytes)
    }
    let depth = min(max(options.maximumDepth, 1), 1_000)
    let policy = options.loneSurrogates
    let result: Result<JSONValue, JSONParseError> =
      bytes.withContiguousStorageIfAvailable { buffer in
        Self.run(buffer, depth: depth, policy: policy)
      } ?? Array(bytes).withUnsafeBufferPointer { Self.run($0, depth: depth, policy: policy) }
    return try result.get()
  }

  /// Parses exactly one JSON value from the UTF-8 of `text` (see ``parse(_:)``).
  public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try parse(Array(text.utf8))
  }

  private static func run(
    _ buffer: UnsafeBufferPointer<UInt8>, depth: Int, policy: LoneSurrogatePolicy
  ) -> Result<JSONValue, JSONParseError> {
    var reader = Reader(bytes: buffer, maximumDepth: depth, policy: policy)
    do throws(JSONParseError) {
      reader.skipWhitespace()
      let value = try reader.parseValue(depth: 0)
      reader.skipWhitespace()
      guard reader.index == buffer.count else {
        throw JSONParseError(.trailingData, at: reader.index)
      }
      return .success(value)
    } catch {
      return .failure(error)
    }
  }
}

extension JSONValue {
  /// Parses exactly one JSON value from UTF-8 `bytes` with ``JSONParser``.
  ///
  /// - Throws: ``JSONParseError`` with the reason and byte offset.
  public init(parsing bytes: some Collection<UInt8>, options: JSONParser.Options = .init())
    throws(JSONParseError)
  {
    self = try JSONParser(options: options).parse(bytes)
  }

  /// Parses exactly one JSON value from the UTF-8 of `text` with ``JSONParser``.
  ///
  /// - Throws: ``JSONParseError`` with the reason and byte offset (in UTF-8 bytes).
  public init(parsing text: String, options: JSONParser.Options = .init()) throws(JSONParseError) {
    self = try JSONParser(options: options).parse(Array(text.utf8))
  }
}

/// The cursor over one input; never outlives the buffer it reads.
private struct Reader {
  let bytes: UnsafeBufferPointer<UInt8>
  let maximumDepth: Int
  let policy: JSONParser.LoneSurrogatePolicy
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, policy: JSONParser.LoneSurrogatePolicy)
  {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
    self.policy = policy
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private func fail(_ reason: JSONParseError.Reason, at offset: Int) -> JSONParseError {
    JSONParseError(reason, at: offset)
  }

  /// The byte at the cursor, or an `unexpectedEnd` error.
  private func peek() throws(JSONParseError) -> UInt8 {
    guard index < bytes.count else { throw fail(.unexpectedEnd, at: index) }
    return bytes[index]
  }

  mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
    let byte = try peek()
    switch byte {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw fail(.unexpectedByte(byte), at: index)
    }
  }

  private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue)
    throws(JSONParseError) -> JSONValue
  {
    let start = index
    for (offset, expected) in UnsafeBufferPointer(
      start: word.utf8Start, count: word.utf8CodeUnitCount
    )
    .enumerated() {
      let at = start + offset
      guard at < bytes.count else { throw fail(.unexpectedEnd, at: at) }
      guard bytes[at] == expected else { throw fail(.unexpectedByte(bytes[at]), at: at) }
    }
    index = start + word.utf8CodeUnitCount
    return value
  }

  private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = index
    let length = JSONNumber.scanNumber(bytes, from: start)
    guard length > 0 else {
      let offset = -length - 1
      throw fail(offset >= bytes.count ? .unexpectedEnd : .invalidNumber, at: offset)
    }
    index = start + length
    let literal = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    return .number(JSONNumber(uncheckedLiteral: literal))
  }

  private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
    guard depth <= maximumDepth else {
      throw fail(.depthLimitExceeded(limit: maximumDepth), at: index)
    }
    index += 1  // [
    var elements: [JSONValue] = []
    skipWhitespace()
    if try peek() == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth))
      skipWhitespace()
      let byte = try peek()
      index += 1
      switch byte {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "]"): return .array(elements)
      default: throw fail(.unexpectedByte(byte), at: index - 1)
      }
    }
  }

  private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
    guard depth <= maximumDepth else {
      throw fail(.depthLimitExceeded(limit: maximumDepth), at: index)
    }
    index += 1  // {
    var object = JSONObject()
    skipWhitespace()
    if try peek() == UInt8(ascii: "}") {
      index += 1
      return .object(object)
    }
    while true {
      skipWhitespace()
      let keyStart = index
      let byte = try peek()
      guard byte == UInt8(ascii: "\"") else { throw fail(.unexpectedByte(byte), at: index) }
      let key = try parseString()
      skipWhitespace()
      let colon = try peek()
      guard colon == UInt8(ascii: ":") else { throw fail(.unexpectedByte(colon), at: index) }
      index += 1
      skipWhitespace()
      let value = try parseValue(depth: depth)
      guard object.insertNew(key, value) else { throw fail(.duplicateKey(key), at: keyStart) }
      skipWhitespace()
      let separator = try peek()
      index += 1
      switch separator {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "}"): return .object(object)
      default: throw fail(.unexpectedByte(separator), at: index - 1)
      }
    }
  }

  /// Parses a string starting at its opening quote; leaves the cursor after the closing quote.
  private mutating func parseString() throws(JSONParseError) -> String {
    index += 1  // opening quote
    let start = index
    // Fast path: printable ASCII without escapes.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let text = String(
          decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return text
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
      index += 1
    }
    var scratch = Array(bytes[start..<index])
    while true {
      let byte = try peek()
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return String(decoding: scratch, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try parseEscape(into: &scratch)
      case 0x00..<0x20:
        throw fail(.controlCharacterInString, at: index)
      case 0x20..<0x80:
        scratch.append(byte)
        index += 1
      default:
        let length = try validateUTF8Sequence()
        scratch.append(contentsOf: bytes[index..<(index + length)])
        index += length
      }
    }
  }

  /// Validates the multi-byte UTF-8 sequence at the cursor (RFC 3629 §4) and returns its length.
  private func validateUTF8Sequence() throws(JSONParseError) -> Int {
    let lead = bytes[index]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F  // no encoded surrogates
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F  // nothing above U+10FFFF
    default: throw fail(.invalidUTF8, at: index)
    }
    for offset in 1..<length {
      let at = index + offset
      guard at < bytes.count else { throw fail(.unexpectedEnd, at: at) }
      let range = offset == 1 ? secondRange : 0x80...0xBF
      guard range.contains(bytes[at]) else { throw fail(.invalidUTF8, at: at) }
    }
    return length
  }

  private mutating func parseEscape(into scratch: inout [UInt8]) throws(JSONParseError) {
    let escapeStart = index
    index += 1  // backslash
    let byte = try peek()
    index += 1
    switch byte {
    case UInt8(ascii: "\""): scratch.append(0x22)
    case UInt8(ascii: "\\"): scratch.append(0x5C)
    case UInt8(ascii: "/"): scratch.append(0x2F)
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try readHex4()
      var scalar: Unicode.Scalar?
      switch unit {
      case 0xD800...0xDBFF:
        // A high surrogate must be followed by an escaped low surrogate.
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        {
          let save = index
          index += 2
          let low = try readHex4()
          if (0xDC00...0xDFFF).contains(low) {
            scalar = Unicode.Scalar(
              0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
          } else {
            index = save  // the next escape stands on its own
          }
        }
      case 0xDC00...0xDFFF:
        scalar = nil
      default:
        scalar = Unicode.Scalar(unit)
      }
      if scalar == nil, policy == .reject { throw fail(.loneSurrogate, at: escapeStart) }
      let resolved = scalar ?? "\u{FFFD}"
      scratch.append(contentsOf: resolved.utf8)
    default:
      throw fail(.invalidEscape, at: escapeStart)
    }
  }

  private mutating func readHex4() throws(JSONParseError) -> UInt16 {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard index < bytes.count else { throw fail(.unexpectedEnd, at: index) }
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw fail(.invalidUnicodeEscape, at: index)
      }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }
}
