extension Tokenizer {
  /// Whether `scalar` is a decimal digit that NFKC makes an ASCII digit: `0`–`9`, their
  /// full-width forms (`０`–`９`, U+FF10–U+FF19), the mathematical digits (U+1D7CE–U+1D7FF) and
  /// the segmented digits (U+1FBF0–U+1FBF9) — every scalar of general category Nd whose NFKC
  /// form is one ASCII digit. Not superscripts or circled digits (category No), nor the digits
  /// of other scripts, which the tokenizer keeps as they are.
  ///
  /// - Complexity: O(1).
  static func isDigitAsNFKC(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x30...0x39, 0xFF10...0xFF19, 0x1D7CE...0x1D7FF, 0x1FBF0...0x1FBF9: return true
    default: return false
    }
  }

  /// The ASCII `.` or `,` that NFKC makes `scalar`, when it is one of them or another width
  /// of one: `.`, `,`, full-width `．` and `，` (U+FF0E, U+FF0C), small `﹒` and `﹐` (U+FE52,
  /// U+FE50), the one dot leader `․` (U+2024) and the vertical comma `︐` (U+FE10) — every
  /// scalar whose NFKC form is `.` or `,`. Nil for any other scalar.
  ///
  /// Between two digits (``isDigitAsNFKC(_:)``) such a character makes one number of them, as
  /// Unicode word segmentation reads it (UAX #29, rules WB11 and WB12, where the full-width and
  /// small forms are MidNum and MidNumLet like the ASCII ones): `0.7`, `０．７`, `250,000`,
  /// `２５０，０００`.
  ///
  /// - Complexity: O(1).
  static func decimalSeparatorAsNFKC(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
    switch scalar.value {
    case 0x2E, 0xFF0E, 0xFE52, 0x2024: return "."
    case 0x2C, 0xFF0C, 0xFE50, 0xFE10: return ","
    default: return nil
    }
  }

  /// The ASCII `.` or `,` that stands for the separator at UTF-8 offset `index` of `bytes`
  /// when it is a decimal point or digit-group separator: a ``decimalSeparatorAsNFKC(_:)``
  /// scalar with a digit (``isDigitAsNFKC(_:)``) right before it (ending at `index`) and right
  /// after it. Nil otherwise.
  ///
  /// - Parameters:
  ///   - bytes: valid UTF-8.
  ///   - index: the offset of a scalar's first byte.
  /// - Returns: the separator as NFKC writes it and the length of its UTF-8 in bytes (1 or 3).
  /// - Complexity: O(1): three scalars are decoded.
  static func decimalSeparator(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int)
    -> (separator: Unicode.Scalar, length: Int)?
  {
    guard index > 0, index < bytes.count else { return nil }
    let (scalar, length) = decode(bytes, at: index)
    guard let separator = decimalSeparatorAsNFKC(scalar), index + length < bytes.count else {
      return nil
    }
    // The scalar before: step back over UTF-8 continuation bytes (10xxxxxx) to its first byte.
    var start = index - 1
    while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
    guard isDigitAsNFKC(decode(bytes, at: start).0),
      isDigitAsNFKC(decode(bytes, at: index + length).0)
    else { return nil }
    return (separator, length)
  }
}

extension Tokenizer {
  /// The decimal point or digit-group separator, as NFKC writes it (`.` or `,`), that stands
  /// between two terms of a text when they are parts of one number: exactly one
  /// ``decimalSeparatorAsNFKC(_:)`` scalar fills the gap between their runs, with a digit
  /// (``isDigitAsNFKC(_:)``) on either side (`0.7`, `250,000`, `Kir7.1`, `v2.3.9`, `０．７`; not
  /// `Fig.1`, `1, 2` or `v1.x`). Nil otherwise.
  ///
  /// The index reads whole numbers by it (``WholeNumbers``) and the ranker reads a number typed
  /// whole by it, so the two always agree on what one number is.
  ///
  /// - Parameters:
  ///   - first: the UTF-8 offsets of the first term's run.
  ///   - second: those of the next term's run.
  ///   - bytes: the text's UTF-8.
  /// - Complexity: O(1): three scalars are decoded.
  static func numberSeparator(
    between first: Range<Int>, and second: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Unicode.Scalar? {
    guard first.upperBound > first.lowerBound, second.upperBound > second.lowerBound,
      first.upperBound < second.lowerBound, second.lowerBound - first.upperBound <= 3,
      second.lowerBound <= bytes.count,
      let found = decimalSeparator(bytes, at: first.upperBound),
      first.upperBound + found.length == second.lowerBound
    else { return nil }
    return found.separator
  }
}
