import ContinuityKit
import Testing

@Suite("JSONParser")
struct JSONParserTests {
  /// An input the parser must refuse, with the reason and byte offset it must report.
  struct Invalid: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let reason: JSONParseError.Reason
    let offset: Int
    var testDescription: String { name }

    init(_ name: String, _ text: String, _ reason: JSONParseError.Reason, at offset: Int) {
      self.init(name, bytes: Array(text.utf8), reason, at: offset)
    }

    init(_ name: String, bytes: [UInt8], _ reason: JSONParseError.Reason, at offset: Int) {
      self.name = name
      self.bytes = bytes
      self.reason = reason
      self.offset = offset
    }
  }

  static let invalid: [Invalid] = [
    Invalid("empty input", "", .unexpectedEnd, at: 0),
    Invalid("only whitespace", " \n\t ", .unexpectedEnd, at: 4),
    Invalid("trailing garbage", #"{"a":1} x"#, .trailingData, at: 8),
    Invalid("two values", "1 2", .trailingData, at: 2),
    Invalid("trailing comma in array", "[1,]", .unexpectedByte(UInt8(ascii: "]")), at: 3),
    Invalid("trailing comma in object", #"{"a":1,}"#, .unexpectedByte(UInt8(ascii: "}")), at: 7),
    Invalid("missing colon", #"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1")), at: 5),
    Invalid("unquoted key", "{a:1}", .unexpectedByte(UInt8(ascii: "a")), at: 1),
    Invalid("single quotes", "['a']", .unexpectedByte(UInt8(ascii: "'")), at: 1),
    Invalid("unclosed array", "[1, 2", .unexpectedEnd, at: 5),
    Invalid("unclosed string", #""abc"#, .unexpectedEnd, at: 4),
    Invalid("truncated literal", "tru", .unexpectedEnd, at: 3),
    Invalid("misspelled literal", "nul1", .unexpectedByte(UInt8(ascii: "1")), at: 3),
    Invalid("capitalised literal", "True", .unexpectedByte(UInt8(ascii: "T")), at: 0),
    Invalid("NaN", "NaN", .unexpectedByte(UInt8(ascii: "N")), at: 0),
    Invalid("leading plus", "+1", .unexpectedByte(UInt8(ascii: "+")), at: 0),
    Invalid("leading zero", "01", .invalidNumber, at: 1),
    Invalid("leading zero in array", "[-012]", .invalidNumber, at: 3),
    Invalid("bare minus", "-", .unexpectedEnd, at: 1),
    Invalid("minus then letter", "-a", .invalidNumber, at: 1),
    Invalid("dot without digits", "1.", .unexpectedEnd, at: 2),
    Invalid("dot then letter", "[1.x]", .invalidNumber, at: 3),
    Invalid("leading dot", ".5", .unexpectedByte(UInt8(ascii: ".")), at: 0),
    Invalid("exponent without digits", "1e+", .unexpectedEnd, at: 3),
    Invalid("hex number", "0x10", .trailingData, at: 1),
    Invalid("bad escape", #""a\x""#, .invalidEscape, at: 2),
    Invalid("short unicode escape", #""\u12G4""#, .invalidUnicodeEscape, at: 5),
    Invalid("raw newline in string", "\"a\nb\"", .controlCharacterInString, at: 2),
    Invalid("raw tab in string", "\"\t\"", .controlCharacterInString, at: 1),
    Invalid("duplicate key", #"{"a":1,"b":2,"a":3}"#, .duplicateKey("a"), at: 13),
    Invalid("duplicate key nested", #"[{"k":{"x":1,"x":1}}]"#, .duplicateKey("x"), at: 13),
    Invalid(
      "byte-order mark", bytes: [0xEF, 0xBB, 0xBF] + Array("1".utf8), .unexpectedByte(0xEF), at: 0),
    Invalid("invalid UTF-8 lead byte", bytes: [0x22, 0xFF, 0x22], .invalidUTF8, at: 1),
    Invalid("lone continuation byte", bytes: [0x22, 0x61, 0x80, 0x22], .invalidUTF8, at: 2),
    Invalid("overlong slash", bytes: [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, at: 1),
    Invalid("overlong three-byte", bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8, at: 2),
    Invalid("UTF-8 encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, at: 2),
    Invalid("above U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, at: 2),
    Invalid("truncated sequence", bytes: [0x22, 0xE2, 0x82], .unexpectedEnd, at: 3),
    Invalid("sequence cut by quote", bytes: [0x22, 0xE2, 0x82, 0x22], .invalidUTF8, at: 3),
    Invalid("NUL byte outside strings", bytes: [0x31, 0x00], .trailingData, at: 1),
    Invalid("comment", "// x\n1", .unexpectedByte(UInt8(ascii: "/")), at: 0),
  ]

  @Test("Refuses invalid input with the reason and byte offset", arguments: invalid)
  func refuses(_ input: Invalid) {
    #expect(throws: JSONParseError(input.reason, at: input.offset)) {
      try JSONParser().parse(input.bytes)
    }
  }

  @Test("Error messages name the offset and how to fix the input")
  func errorMessages() {
    let error = JSONParseError(.duplicateKey("id"), at: 17)
    #expect(
      error.description
        == #"invalid JSON at byte 17: the key "id" appears twice in one object; keep one"#)
    #expect(JSONParseError(.unexpectedByte(0x01), at: 0).description.contains("byte 0x01"))
    #expect(JSONParseError(.unexpectedByte(UInt8(ascii: "x")), at: 0).description.contains("'x'"))
    // Characters that read badly between quotes are named.
    #expect(JSONParseError(.unexpectedByte(UInt8(ascii: "\\")), at: 0).description.contains("unexpected backslash;"))
    #expect(JSONParseError(.unexpectedByte(UInt8(ascii: "'")), at: 0).description.contains("unexpected apostrophe;"))
  }

  @Test("Parses every kind of value")
  func kinds() throws {
    let value = try JSONValue(
      parsing: #" {"n": null, "t": true, "f": false, "i": -12, "s": "x", "a": [1, [2]], "o": {}} "#)
    #expect(value["n"] == .null)
    #expect(value["t"]?.bool == true)
    #expect(value["f"]?.bool == false)
    #expect(value["i"]?.int == -12)
    #expect(value["s"]?.string == "x")
    #expect(value["a"] == [1, [2]])
    #expect(value["o"]?.object?.isEmpty == true)
    #expect(value.object?.keys == ["n", "t", "f", "i", "s", "a", "o"])
    #expect(try JSONValue(parsing: "42") == 42)
    #expect(try JSONValue(parsing: #""top-level string""#) == "top-level string")
  }

  @Test("Big integers keep every digit")
  func bigIntegers() throws {
    let value = try JSONValue(
      parsing: "[9007199254740993, -9223372036854775808, 123456789012345678901234567890]")
    let elements = try #require(value.array)
    let numbers = elements.compactMap { $0.number }
    #expect(
      numbers.map(\.literal) == [
        "9007199254740993", "-9223372036854775808", "123456789012345678901234567890",
      ])
    #expect(numbers[0].int == 9_007_199_254_740_993)
    #expect(numbers[1].int == Int.min)
    #expect(numbers[2].int == nil)
    #expect(
      value.jsonString() == "[9007199254740993,-9223372036854775808,123456789012345678901234567890]"
    )
  }

  @Test("-0, 1e400 and other literals stay as written")
  func literalsStay() throws {
    for literal in ["-0", "1e400", "-1E-400", "0.1", "1.0", "1.5e+10", "0", "2.50"] {
      let value = try JSONValue(parsing: literal)
      #expect(value.number?.literal == literal)
      #expect(value.jsonString() == literal)
    }
    #expect(try JSONValue(parsing: "1e400").double == nil)
    #expect(try JSONValue(parsing: "-0").int == 0)
  }

  @Test("Escapes decode to the right scalars")
  func escapes() throws {
    let value = try JSONValue(
      parsing: #""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC \ud83e\udd8a \u0000""#)
    #expect(value.string == "\" \\ / \u{8} \u{C} \n \r \t A é € 🦊 \u{0}")
  }

  @Test("Raw UTF-8 is accepted in keys and strings")
  func rawUnicode() throws {
    let value = try JSONValue(parsing: #"{"clé": "🦊 family 👨‍👩‍👧 e\#u{301} 中文"}"#)
    #expect(value["clé"]?.string == "🦊 family 👨‍👩‍👧 e\u{301} 中文")
  }

  @Test("Lone surrogates become U+FFFD by default, or are refused on request")
  func loneSurrogates() throws {
    #expect(try JSONValue(parsing: #""a\ud800b""#).string == "a\u{FFFD}b")
    #expect(try JSONValue(parsing: #""\udc00""#).string == "\u{FFFD}")
    #expect(try JSONValue(parsing: #""\ud800\u0041""#).string == "\u{FFFD}A")
    #expect(try JSONValue(parsing: #""\ud800\ud800\udc00""#).string == "\u{FFFD}\u{10000}")
    let strict = JSONParser.Options(loneSurrogates: .reject)
    #expect(throws: JSONParseError(.loneSurrogate, at: 2)) {
      try JSONValue(parsing: #""a\ud800b""#, options: strict)
    }
    #expect(throws: JSONParseError(.loneSurrogate, at: 1)) {
      try JSONValue(parsing: #""\udfff""#, options: strict)
    }
    #expect(try JSONValue(parsing: #""\ud83e\udd8a""#, options: strict).string == "🦊")
  }

  @Test("Depth limit: the limit itself is accepted, one more level is refused")
  func depthLimit() throws {
    func nested(_ depth: Int) -> String {
      String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }
    _ = try JSONValue(parsing: nested(64))
    #expect(throws: JSONParseError(.depthLimitExceeded(limit: 64), at: 64)) {
      try JSONValue(parsing: nested(65))
    }
    let shallow = JSONParser.Options(maximumDepth: 2)
    _ = try JSONValue(parsing: #"{"a":[1]}"#, options: shallow)
    #expect(throws: JSONParseError(.depthLimitExceeded(limit: 2), at: 6)) {
      try JSONValue(parsing: #"{"a":[{}]}"#, options: shallow)
    }
    // A deep document far beyond the limit fails fast instead of exhausting the stack.
    #expect(throws: JSONParseError(.depthLimitExceeded(limit: 64), at: 64)) {
      try JSONValue(parsing: String(repeating: "[", count: 100_000))
    }
  }

  @Test("Size limit is checked before parsing")
  func sizeLimit() throws {
    let options = JSONParser.Options(maximumBytes: 8)
    _ = try JSONValue(parsing: "[1,2,3] ", options: options)
    #expect(throws: JSONParseError(.sizeLimitExceeded(limit: 8, size: 9), at: 8)) {
      try JSONValue(parsing: "[1,2,3]  ", options: options)
    }
  }

  @Test("Parses from any collection of bytes, contiguous or not")
  func nonContiguousInput() throws {
    let bytes = Array(#"{"a":[true]}"#.utf8)
    let lazy = bytes.lazy.map { $0 }
    #expect(try JSONParser().parse(lazy) == ["a": [true]])
    #expect(try JSONParser().parse(bytes[...]) == ["a": [true]])
  }
}
