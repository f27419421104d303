/// A JSON number kept as its literal text, so that no value is ever rounded.
///
/// `9007199254740993` (2^53 + 1, which a `Double` cannot hold) stays that integer, `-0` stays
/// `-0`, and `1e400` (beyond `Double`'s range) stays `1e400`. The literal always matches the
/// RFC 8259 §6 grammar `[ minus ] int [ frac ] [ exp ]`; the initializers check it, so a
/// `JSONNumber` always serializes to valid JSON.
///
/// Equality and hashing compare the literal text: `1`, `1.0` and `1e0` are three different
/// literals. Compare ``int`` or ``double`` for numeric equality.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
  /// The literal text, exactly as parsed or produced (for example `-12.5e3`).
  public let literal: String

  /// A number from a literal, or `nil` when `literal` is not an RFC 8259 number
  /// (`+1`, `01`, `.5`, `1.`, `0x10`, `NaN`, `Infinity` and surrounding spaces are refused).
  public init?(literal: String) {
    let utf8 = Array(literal.utf8)
    let length = utf8.withUnsafeBufferPointer { JSONNumber.scanNumber($0, from: 0) }
    guard !utf8.isEmpty, length == utf8.count else { return nil }
    self.literal = literal
  }

  /// A number whose literal has already been checked against the grammar (by the parser).
  init(uncheckedLiteral literal: String) {
    self.literal = literal
  }

  /// The number with the decimal literal of `value` (for example `-42`).
  public init(_ value: some BinaryInteger) {
    literal = String(value)
  }

  /// The number with the shortest literal that reads back as `value` (Swift's `description`,
  /// for example `0.1`, `1.0`, `1e-07`), or `nil` when `value` is NaN or infinite (JSON has no
  /// literal for them).
  public init?(_ value: Double) {
    guard value.isFinite else { return nil }
    self.init(literal: value.description)
  }

  /// The literal.
  public var description: String { literal }

  /// The value as an `Int` when the literal denotes an integer that `Int` holds exactly.
  ///
  /// `42`, `-0` (→ 0), `4.0`, `1e3` and `1500e-2` qualify; `1.5`, `1e400` and
  /// `9223372036854775808` do not (nil). The test is exact decimal arithmetic, never `Double`.
  public var int: Int? {
    let parts = decimalParts()
    var digits = parts.digits
    var exponent = parts.exponent
    // Strip leading zeros, then trailing zeros into the exponent.
    while let first = digits.first, first == 0 { digits.removeFirst() }
    if digits.isEmpty { return 0 }
    while let last = digits.last, last == 0 {
      digits.removeLast()
      exponent += 1
    }
    guard exponent >= 0, digits.count + exponent <= 19 else { return nil }
    // Accumulate negatively so that Int.min is reachable.
    var value = 0
    for digit in digits + Array(repeating: 0, count: exponent) {
      let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
      let (next, o2) = shifted.subtractingReportingOverflow(Int(digit))
      guard !o1, !o2 else { return nil }
      value = next
    }
    if parts.negative { return value }
    let (positive, overflow) = (0).subtractingReportingOverflow(value)
    return overflow ? nil : positive
  }

  /// Whether the literal denotes a whole number, whatever its size: `42`, `-0`, `4.0`, `1e30`
  /// and `1500e-2` do, `1.5` and `1e-7` do not. Unlike ``int``, also true for integers no `Int`
  /// holds, so that a message can say that such a number is out of range rather than not an
  /// integer. Exact decimal arithmetic, never `Double`.
  public var isInteger: Bool {
    let parts = decimalParts()
    var fractionPlaces = -parts.exponent
    var digits = parts.digits[...]
    // Trailing zeros of the digits may be given up to the exponent.
    while fractionPlaces > 0, let last = digits.last, last == 0 {
      digits.removeLast()
      fractionPlaces -= 1
    }
    return fractionPlaces <= 0 || digits.allSatisfy { $0 == 0 }
  }

  /// The nearest `Double` (IEEE 754 round-to-nearest), or `nil` outside `Double`'s range.
  ///
  /// `1e400` gives nil. Precision may be lost: `9007199254740993` → 2^53.
  public var double: Double? {
    guard let value = Double(literal), value.isFinite else { return nil }
    return value
  }

  /// Sign, decimal digits (integer then fraction part) and the power of ten that scales them.
  ///
  /// The exponent saturates at ±1,000,000, far beyond any exact `Int`.
  private func decimalParts() -> (negative: Bool, digits: [UInt8], exponent: Int) {
    var negative = false
    var digits: [UInt8] = []
    var exponent = 0
    var fractionDigits = 0
    var explicitExponent = 0
    var exponentNegative = false
    enum Section { case integer, fraction, exponent }
    var section = Section.integer
    for byte in literal.utf8 {
      switch byte {
      case UInt8(ascii: "-"):
        if section == .exponent { exponentNegative = true } else { negative = true }
      case UInt8(ascii: "+"):
        break
      case UInt8(ascii: "."):
        section = .fraction
      case UInt8(ascii: "e"), UInt8(ascii: "E"):
        section = .exponent
      default:
        let digit = byte &- UInt8(ascii: "0")
        switch section {
        case .integer:
          digits.append(digit)
        case .fraction:
          digits.append(digit)
          fractionDigits += 1
        case .exponent:
          explicitExponent = min(explicitExponent * 10 + Int(digit), 1_000_000)
        }
      }
    }
    exponent = (exponentNegative ? -explicitExponent : explicitExponent) - fractionDigits
    return (negative, digits, exponent)
  }

  /// The length in bytes of the RFC 8259 number starting at `start`.
  ///
  /// Returns `-(offset + 1)` for the offset of the first byte that breaks the grammar.
  /// Shared by ``init(literal:)`` and the parser.
  static func scanNumber(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var i = start
    let n = bytes.count
    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    if i < n, bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard i < n else { return -(i + 1) }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
      // A leading zero may not be followed by more digits.
      if i < n, isDigit(bytes[i]) { return -(i + 1) }
    } else if isDigit(bytes[i]) {
      while i < n, isDigit(bytes[i]) { i += 1 }
    } else {
      return -(i + 1)
    }
    if i < n, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard i < n, isDigit(bytes[i]) else { return -(i + 1) }
      while i < n, isDigit(bytes[i]) { i += 1 }
    }
    if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard i < n, isDigit(bytes[i]) else { return -(i + 1) }
      while i < n, isDigit(bytes[i]) { i += 1 }
    }
    return i - start
  }
}
