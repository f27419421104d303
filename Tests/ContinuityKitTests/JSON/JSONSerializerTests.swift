import ContinuityKit
import Testing

@Suite("JSONSerializer")
struct JSONSerializerTests {
  @Test("Escapes quotes, backslashes and every control character; never slashes")
  func escaping() throws {
    let text = "q\" b\\ s/ \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F} \u{7F} é 🦊 \u{2028}"
    // DEL, C1 and the Unicode line separators too (review, s13: a line-splitting MCP client cut
    // a message at a raw U+2028 or U+0085).
    let expected = #""q\" b\\ s/ \u0000\u0001\b\t\n\f\r\u001f \u007f é 🦊 \u2028""#
    #expect(JSONValue.string(text).jsonString() == expected)
    let separators = "a\u{85}b\u{9B}c\u{2029}d"
    let written = JSONValue.string(separators).jsonString()
    #expect(written == #""a\u0085b\u009bc\u2029d""#)
    #expect(written.split(whereSeparator: \.isNewline).count == 1)
    #expect(try JSONValue(parsing: written) == .string(separators))
  }

  @Test("Output is one line with no insignificant whitespace")
  func compact() throws {
    let value: JSONValue = ["a": [1, "x\ny", ["b": nil]], "c": true]
    let text = value.jsonString()
    #expect(text == #"{"a":[1,"x\ny",{"b":null}],"c":true}"#)
    #expect(!text.contains("\n"))
  }

  @Test("Keys in insertion order by default, code point order on request")
  func keyOrder() throws {
    let value = try JSONValue(parsing: #"{"b":1,"a":{"z":1,"é":2,"Z":3},"A":2}"#)
    #expect(value.jsonString() == #"{"b":1,"a":{"z":1,"é":2,"Z":3},"A":2}"#)
    #expect(value.jsonString(sortedKeys: true) == #"{"A":2,"a":{"Z":3,"z":1,"é":2},"b":1}"#)
  }

  /// A document that must survive parse → serialize → parse unchanged.
  struct RoundTrip: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    var testDescription: String { name }
  }

  static let roundTrips: [RoundTrip] = [
    RoundTrip(name: "scalars", text: #"[null,true,false,0,-0,1.5e+300,1e400,"",9007199254740993]"#),
    RoundTrip(name: "escapes", text: #"["\"\\\/\b\f\n\r\t\u0000\u001f","é🦊"]"#),
    RoundTrip(name: "nested", text: #"{"a":{"b":{"c":[[[]]],"d":{}}},"e":[{"f":"g"}]}"#),
    RoundTrip(name: "unicode keys", text: #"{"clé":1,"🦊":2,"\u0000":3}"#),
  ]

  @Test("Round trips keep values (and literals) intact", arguments: roundTrips)
  func roundTrip(_ testCase: RoundTrip) throws {
    let first = try JSONValue(parsing: testCase.text)
    let bytes = first.serialized()
    let second = try JSONValue(parsing: bytes)
    #expect(second == first)
    #expect(second.serialized() == bytes)
  }

  @Test("Canonical compact text serializes byte for byte as it was read")
  func byteExact() throws {
    let text = #"{"id":"007","n":9007199254740993,"list":[-0,1E400,0.10],"s":"a/b"}"#
    #expect(try JSONValue(parsing: text).jsonString() == text)
  }
}
