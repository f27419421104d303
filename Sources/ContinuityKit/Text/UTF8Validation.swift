import Foundation

/// Where bytes stop being well-formed UTF-8, so that a refusal can point at the byte instead of
/// saying only that the text "is not valid".
package enum UTF8Validation {
  /// Whether `bytes` start with a UTF-16 byte order mark (`FF FE` little-endian or `FE FF`
  /// big-endian), as some editors and PowerShell's `>` save text: such input is named as UTF-16
  /// rather than refused for its first NUL byte (review 21-a, 12). A UTF-32 LE mark
  /// (`FF FE 00 00`) starts the same way and is UTF-16's sibling, so it is named as well.
  package static func startsWithUTF16ByteOrderMark(_ bytes: some Collection<UInt8>) -> Bool {
    var i = bytes.makeIterator()
    guard let a = i.next(), let b = i.next() else { return false }
    return (a == 0xFF && b == 0xFE) || (a == 0xFE && b == 0xFF)
  }

  /// The offset of the first byte of `bytes` that does not begin a well-formed UTF-8 sequence,
  /// or that begins one cut short or broken by a byte that cannot continue it: a stray
  /// continuation byte, `0xC0`, `0xC1` or `0xF5`…`0xFF`, an overlong form, an encoded UTF-16
  /// surrogate, a code point above U+10FFFF, or a sequence the input ends inside.
  /// - Parameter bytes: the text's bytes (a byte order mark is well-formed UTF-8 and passes).
  /// - Returns: the 0-based byte offset, or nil when every byte is part of well-formed UTF-8.
  /// - Complexity: O(n) in the number of bytes, one pass. Follows RFC 3629 §4 (the table of
  ///   well-formed byte sequences).
  package static func firstInvalidByteOffset(in bytes: some ContiguousBytes) -> Int? {
    bytes.withUnsafeBytes { buffer in
      let count = buffer.count
      var i = 0
      while i < count {
        let lead = buffer[i]
        if lead < 0x80 {
          i += 1
          continue
        }
        // The sequence length, and the range the second byte must fall in (RFC 3629 §4).
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return i
        }
        guard i + length <= count, (low...high).contains(buffer[i + 1]) else { return i }
        for k in 2..<length where buffer[i + k] & 0xC0 != 0x80 { return i }
        i += length
      }
      return nil
    }
  }
}
