import Testing

@testable import ContinuityKit

/// Natural order: digit runs by numeric value, text by UTF-8 code unit, ties by plain
/// code-unit order.
@Suite("Natural order")
struct NaturalOrderTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [String]
    let sorted: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "numbers by value", input: ["item 10", "item 2", "item 1"], sorted: ["item 1", "item 2", "item 10"]),
    Case(name: "leading zeros tie, then code units", input: ["item 2", "item 02", "item 1"], sorted: ["item 1", "item 02", "item 2"]),
    Case(name: "several runs", input: ["v1.10", "v1.9", "v1.9.1", "v2"], sorted: ["v1.9", "v1.9.1", "v1.10", "v2"]),
    Case(name: "text still by code unit", input: ["b", "B", "a", "é"], sorted: ["B", "a", "b", "é"]),
    Case(name: "a prefix first", input: ["item", "item 1", ""], sorted: ["", "item", "item 1"]),
    Case(
      name: "runs longer than any integer", input: ["n 100000000000000000000000", "n 99999999999999999999999"],
      sorted: ["n 99999999999999999999999", "n 100000000000000000000000"]),
    Case(name: "digits between / and :", input: [":", "5", "/"], sorted: ["/", "5", ":"]),
    Case(name: "other scripts' digits are text", input: ["x ٢", "x 10", "x 2"], sorted: ["x 2", "x 10", "x ٢"]),
  ]

  @Test("sorts", arguments: cases)
  func sorts(_ c: Case) {
    #expect(c.input.sorted(by: NaturalOrder.precedes) == c.sorted)
    #expect(c.input.reversed().sorted(by: NaturalOrder.precedes) == c.sorted, "independent of input order")
  }

  @Test("a total order: antisymmetric, transitive, 0 only for identical strings")
  func totalOrder() {
    let all = Array(Set(Self.cases.flatMap(\.input) + ["0", "00", "000", "a0", "a00", "a01", "a1", "a1b", "a10", "1a", "01a"]))
    for a in all {
      #expect(NaturalOrder.compare(a, a) == 0)
      for b in all where a != b {
        let ab = NaturalOrder.compare(a, b)
        #expect(ab != 0 && ab == -NaturalOrder.compare(b, a), "\(a) \(b)")
        for c in all where NaturalOrder.precedes(a, b) && NaturalOrder.precedes(b, c) {
          #expect(NaturalOrder.precedes(a, c), "\(a) < \(b) < \(c)")
        }
      }
    }
  }
}
