/// Swift string literals as the program reads them, for withholding a credential however it is
/// spelled (review 30-b, 3: `"Zq8vLm3K\u{70}R7wXy2NbT5h"` was compared as written, so the
/// decoded `Zq8vLm3KpR7wXy2NbT5h` elsewhere was printed).
enum SwiftStringEscapes {
  /// The body of the literal at `literal` in `bytes` (the bytes between its delimiters) and
  /// its number of `#`s, when it is a whole one-line string literal: `#`s, `"`, the body, `"`
  /// and as many `#`s, the closing quote not escaped. Nil for a multi-line literal (`"""`), a
  /// piece of an interpolated one (`"abc\` of `"abc\(x)"`) or an unterminated one.
  /// - Complexity: O(b) in the literal's bytes.
  static func body(of literal: Range<Int>, in bytes: [UInt8]) -> (range: Range<Int>, pounds: Int)? {
    var open = literal.lowerBound
    while open < literal.upperBound, bytes[open] == ASCII.pound { open += 1 }
    let pounds = open - literal.lowerBound
    let close = literal.upperBound - pounds - 1
    guard literal.count >= 2 * pounds + 2, bytes[open] == ASCII.quote, bytes[close] == ASCII.quote,
      bytes[(close + 1)..<literal.upperBound].allSatisfy({ $0 == ASCII.pound })
    else { return nil }
    let body = (open + 1)..<close
    // `"""` opens a multi-line literal; a one-line body holds no line break.
    if !body.isEmpty, bytes[open + 1] == ASCII.quote { return nil }
    if bytes[body].contains(where: { $0 == ASCII.lf || $0 == ASCII.cr }) { return nil }
    // The closing quote escaped (`\"`, or `\#"` in `#"…"#`): the literal goes on.
    var j = close
    var marks = 0
    while marks < pounds, j > body.lowerBound, bytes[j - 1] == ASCII.pound {
      j -= 1
      marks += 1
    }
    if marks == pounds {
      var slashes = 0
      while j - slashes > body.lowerBound, bytes[j - slashes - 1] == ASCII.backslash { slashes += 1 }
      if slashes % 2 == 1 { return nil }
    }
    return (body, pounds)
  }

  /// `text` with each escape decoded to the bytes it stands for: `\` and `pounds` `#`s (any
  /// number when nil, for source whose literals are not known, such as a finding's snippet),
  /// then `0`, `\`, `t`, `n`, `r`, `"`, `'` or `u{…}` (1 to 8 hex digits naming a Unicode
  /// scalar, written as its UTF-8). Anything else is left as written.
  /// - Complexity: O(n) in the bytes.
  static func decoded(_ text: some Collection<UInt8>, pounds: Int? = nil) -> [UInt8] {
    let b = Array(text)
    var out: [UInt8] = []
    out.reserveCapacity(b.count)
    var i = 0
    while i < b.count {
      guard b[i] == ASCII.backslash else {
        out.append(b[i])
        i += 1
        continue
      }
      var j = i + 1
      while j < b.count, b[j] == ASCII.pound { j += 1 }
      guard pounds == nil || j - i - 1 == pounds, j < b.count, let (bytes, end) = escape(b, at: j) else {
        out.append(b[i])
        i += 1
        continue
      }
      out += bytes
      i = end
    }
    return out
  }

  /// The bytes the escape whose letter is at `j` stands for, and where it ends.
  private static func escape(_ b: [UInt8], at j: Int) -> ([UInt8], Int)? {
    switch b[j] {
    case UInt8(ascii: "0"): return ([0], j + 1)
    case ASCII.backslash, ASCII.quote, UInt8(ascii: "'"): return ([b[j]], j + 1)
    case UInt8(ascii: "t"): return ([ASCII.tab], j + 1)
    case UInt8(ascii: "n"): return ([ASCII.lf], j + 1)
    case UInt8(ascii: "r"): return ([ASCII.cr], j + 1)
    case UInt8(ascii: "u"):
      guard j + 1 < b.count, b[j + 1] == UInt8(ascii: "{") else { return nil }
      var k = j + 2
      var value: UInt32 = 0
      while k < b.count, k - (j + 2) < 8, let digit = hexValue(b[k]) {
        value = value << 4 | digit
        k += 1
      }
      guard k > j + 2, k < b.count, b[k] == UInt8(ascii: "}"), let scalar = Unicode.Scalar(value) else { return nil }
      return (Array(String(Character(scalar)).utf8), k + 1)
    default:
      return nil
    }
  }

  private static func hexValue(_ c: UInt8) -> UInt32? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c - UInt8(ascii: "A") + 10)
    default: nil
    }
  }
}
