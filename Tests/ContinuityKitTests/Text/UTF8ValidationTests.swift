@testable import ContinuityKit
import Foundation
import Testing

@Suite("UTF-8 validation")
struct UTF8ValidationTests {
  /// Bytes, and the offset of the first one that is not well-formed UTF-8 (nil for none).
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var offset: Int?
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(name: "empty", bytes: [], offset: nil),
    Case(name: "ASCII", bytes: Array(#"{"a": 1}"#.utf8), offset: nil),
    Case(name: "two, three and four byte characters", bytes: Array("é€😀".utf8), offset: nil),
    Case(name: "a byte order mark", bytes: [0xEF, 0xBB, 0xBF, 0x7B], offset: nil),
    Case(name: "0xFF after ASCII", bytes: [0x7B, 0x22, 0xFF, 0x22], offset: 2),
    Case(name: "a stray continuation byte", bytes: [0x61, 0x80], offset: 1),
    Case(name: "a lead byte followed by ASCII", bytes: [0x61, 0xC3, 0x41], offset: 1),
    Case(name: "a sequence cut by the end", bytes: [0x61, 0xE2, 0x82], offset: 1),
    Case(name: "an overlong slash", bytes: [0xC0, 0xAF], offset: 0),
    Case(name: "an overlong three-byte form", bytes: [0xE0, 0x80, 0xAF], offset: 0),
    Case(name: "an encoded surrogate", bytes: [0x61, 0x62, 0xED, 0xA0, 0x80], offset: 2),
    Case(name: "above U+10FFFF", bytes: [0xF4, 0x90, 0x80, 0x80], offset: 0),
    Case(name: "a broken fourth byte", bytes: Array("é".utf8) + [0xF0, 0x9F, 0x98, 0x41], offset: 2),
    Case(name: "Latin-1 text", bytes: [0x63, 0x61, 0x66, 0xE9], offset: 3),
  ]

  @Test("the first byte that is not well-formed UTF-8 is found (RFC 3629 §4)", arguments: cases)
  func firstInvalidByte(_ c: Case) {
    #expect(UTF8Validation.firstInvalidByteOffset(in: c.bytes) == c.offset)
    #expect(UTF8Validation.firstInvalidByteOffset(in: Data(c.bytes)) == c.offset)
    // Agrees with the standard library on whether the bytes are UTF-8.
    #expect((String(validating: c.bytes, as: UTF8.self) == nil) == (c.offset != nil))
  }
}
