/// A natural sort order for titles: runs of ASCII digits compare by their numeric value, the
/// rest by UTF-8 code unit, so `item 2` comes before `item 10` (plain text order puts
/// `item 1, item 10, item 2`).
///
/// Locale-free and total: two strings equal as numbers and text (`item 02`, `item 2`) are
/// ordered by their plain UTF-8 code units, so only identical strings tie. A digit run is
/// compared as a whole number of any length (leading zeros ignored, then the longer run is the
/// larger, then digit by digit), so no run can overflow. Only `0`–`9` are digits: other
/// scripts' digits compare as text.
///
/// In terms of tokens, a string is a sequence of numbers (digit runs) and single code units;
/// tokens compare number to number by value, code unit to code unit by value, and a number to
/// a code unit as its first digit does (so digits still sort between `/` and `:`). A string
/// that is a prefix of another, token by token, comes first.
/// - Complexity: O(*n*) in the shorter string's length; no allocation for native strings.
package enum NaturalOrder {
  /// Whether `a` comes before `b` in natural order.
  package static func precedes(_ a: String, _ b: String) -> Bool {
    compare(a, b) < 0
  }

  /// -1, 0 or 1 as `a` comes before, is equal to, or comes after `b` in natural order; 0 only
  /// for identical strings.
  package static func compare(_ a: String, _ b: String) -> Int {
    var a = a
    var b = b
    return a.withUTF8 { x in b.withUTF8 { y in compare(x, y) } }
  }

  /// Natural order over UTF-8 code units, ties broken by the plain code-unit order.
  static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
    var i = 0
    var j = 0
    while i < a.count && j < b.count {
      if isDigit(a[i]) && isDigit(b[j]) {
        let aEnd = digitRunEnd(a, from: i)
        let bEnd = digitRunEnd(b, from: j)
        var aStart = i
        var bStart = j
        while aStart < aEnd - 1 && a[aStart] == 0x30 { aStart += 1 }
        while bStart < bEnd - 1 && b[bStart] == 0x30 { bStart += 1 }
        let aLength = aEnd - aStart
        let bLength = bEnd - bStart
        if aLength != bLength { return aLength < bLength ? -1 : 1 }
        for k in 0..<aLength where a[aStart + k] != b[bStart + k] {
          return a[aStart + k] < b[bStart + k] ? -1 : 1
        }
        i = aEnd
        j = bEnd
      } else {
        if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
        i += 1
        j += 1
      }
    }
    if i < a.count { return 1 }
    if j < b.count { return -1 }
    // Equal as numbers and text (`02` and `2`): the plain code-unit order decides.
    return a.lexicographicallyPrecedes(b) ? -1 : (b.lexicographicallyPrecedes(a) ? 1 : 0)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private static func digitRunEnd(_ s: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var end = start
    while end < s.count && isDigit(s[end]) { end += 1 }
    return end
  }
}
