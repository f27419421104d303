import ContinuityKit
import Testing

@Suite("JSONNumber")
struct JSONNumberTests {
  /// A literal and the exact `Int` it denotes (or nil when none does).
  struct IntCase: Sendable, CustomTestStringConvertible {
    let literal: String
    let int: Int?
    var testDescription: String { literal }
  }

  static let intCases: [IntCase] = [
    IntCase(literal: "0", int: 0),
    IntCase(literal: "-0", int: 0),
    IntCase(literal: "42", int: 42),
    IntCase(literal: "4.0", int: 4),
    IntCase(literal: "1e3", int: 1000),
    IntCase(literal: "1500e-2", int: 15),
    IntCase(literal: "0.0e5", int: 0),
    IntCase(literal: "9007199254740993", int: 9_007_199_254_740_993),
    IntCase(literal: "9223372036854775807", int: Int.max),
    IntCase(literal: "-9223372036854775808", int: Int.min),
    IntCase(literal: "9223372036854775808", int: nil),
    IntCase(literal: "1.5", int: nil),
    IntCase(literal: "1e-1", int: nil),
    IntCase(literal: "1e400", int: nil),
    IntCase(literal: "1e99999999999999999999", int: nil),
  ]

  @Test("int is exact decimal arithmetic", arguments: intCases)
  func exactInt(_ testCase: IntCase) throws {
    let number = try #require(JSONNumber(literal: testCase.literal))
    #expect(number.int == testCase.int)
  }

  /// Review 19-a (8): `limit: 1e30` was called "not an integer"; it is one, too large.
  @Test("isInteger: whole numbers of any size, exactly")
  func isInteger() throws {
    let whole = ["0", "-0", "42", "4.0", "1e3", "1500e-2", "0.0e5", "0e-7", "9223372036854775808", "1e30", "-1e30", "1E+400", "1e99999999999999999999", "12.500e1"]
    let fractional = ["1.5", "1e-1", "0.1", "-2.25", "1500e-4", "1e-99999999999999999999", "12.501e1"]
    for literal in whole { #expect(try #require(JSONNumber(literal: literal)).isInteger, "\(literal)") }
    for literal in fractional { #expect(try !#require(JSONNumber(literal: literal)).isInteger, "\(literal)") }
    // Consistent with int: every number int reads is an integer.
    for c in Self.intCases where c.int != nil { #expect(try #require(JSONNumber(literal: c.literal)).isInteger) }
  }

  @Test("Literals are checked against the RFC 8259 grammar")
  func grammar() {
    for valid in ["0", "-0", "12", "0.5", "-1.25e+3", "1E5", "1e-07"] {
      #expect(JSONNumber(literal: valid)?.literal == valid)
    }
    for invalid in [
      "", "+1", "01", ".5", "1.", "1e", "0x1", "NaN", "Infinity", " 1", "1 ", "--1", "1e+-2",
    ] {
      #expect(JSONNumber(literal: invalid) == nil, "\(invalid) should be refused")
    }
  }

  @Test("double is the nearest finite Double")
  func double() {
    #expect(JSONNumber(literal: "0.1")?.double == 0.1)
    #expect(JSONNumber(literal: "9007199254740993")?.double == 9_007_199_254_740_992)
    #expect(JSONNumber(literal: "1e400")?.double == nil)
    #expect(JSONNumber(literal: "-1e400")?.double == nil)
  }

  @Test("Built from Swift numbers")
  func fromSwift() {
    #expect(JSONNumber(Int64.min).literal == "-9223372036854775808")
    #expect(JSONNumber(UInt64.max).literal == "18446744073709551615")
    #expect(JSONNumber(0.1)?.literal == "0.1")
    #expect(JSONNumber(1.0)?.literal == "1.0")
    #expect(JSONNumber(1e-7)?.literal == "1e-07")
    #expect(JSONNumber(Double.nan) == nil)
    #expect(JSONNumber(-Double.infinity) == nil)
    let literal: JSONValue = 2.5
    #expect(literal.number?.literal == "2.5")
  }

  @Test("Equality compares literals")
  func equality() {
    #expect(JSONNumber(literal: "1") != JSONNumber(literal: "1.0"))
    #expect(JSONNumber(literal: "1")?.int == JSONNumber(literal: "1.0")?.int)
  }
}
