/// The tokenizer of `synth.py` (`words(s)`): `re.findall(r"[a-z][a-z0-9]{3,}", s.lower())`,
/// minus stop words, de-duplicated in order of first occurrence.
enum Words {
  /// The stop list of `synth.py` (`STOP`).
  static let stopWords: Set<String> = Set(
    """
    a an and are as at be but by for from has have in into is it its of on or that the
    their this to was were which with we our not no these those than then there been can may also
    between during after before under over more most other such using use used via versus vs
    """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
  )

  /// Returns the distinct non-stop tokens of `text`, in order of first occurrence.
  ///
  /// A token is a match of `[a-z][a-z0-9]{3,}` in Python's `text.lower()`; see
  /// ``forEachToken(in:_:)``.
  ///
  /// - Parameter text: Any text.
  /// - Returns: Lowercase ASCII tokens of at least 4 characters, none in ``stopWords``.
  /// - Complexity: O(*n*) in the length of `text`.
  static func distinctTokens(in text: String) -> [String] {
    var tokens: [String] = []
    var seen: Set<String> = []
    forEachToken(in: text) { bytes in
      let token = String(decoding: bytes, as: UTF8.self)
      if !stopWords.contains(token), seen.insert(token).inserted {
        tokens.append(token)
      }
    }
    return tokens
  }

  /// Calls `body` with the UTF-8 bytes of each match of `[a-z][a-z0-9]{3,}` (ASCII only) in
  /// Python's `text.lower()`, in order, stop words and repeats included.
  ///
  /// Lowercasing and matching are fused: each scalar stands for the ASCII letters or digits
  /// its Python lowercase contains, and anything else separates tokens. Besides `A`–`Z`,
  /// exactly two scalars lowercase to something containing ASCII (Python 3.11, Unicode 14):
  /// U+212A KELVIN SIGN to `k`, and U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE to `i`
  /// followed by U+0307 COMBINING DOT ABOVE, which ends the token.
  ///
  /// Within a maximal run of lowered letters and digits the greedy regex matches from the
  /// first letter to the end of the run, or nowhere if that is under 4 long (every later start
  /// is shorter still), so one pass over the runs finds the same matches as `re.findall`.
  ///
  /// - Parameters:
  ///   - text: Any text.
  ///   - body: Called per token; the buffer is valid only during the call.
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  static func forEachToken(in text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    var text = text
    text.withUTF8 { bytes in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count + 1) { run in
        var runLength = 0
        var firstLetter = -1
        func extend(_ byte: UInt8) {
          if firstLetter < 0, byte >= UInt8(ascii: "a") {
            firstLetter = runLength
          }
          run[runLength] = byte
          runLength += 1
        }
        func endRun() {
          if firstLetter >= 0, runLength - firstLetter >= 4 {
            body(UnsafeBufferPointer(rebasing: run[firstLetter..<runLength]))
          }
          runLength = 0
          firstLetter = -1
        }
        var index = 0
        while index < bytes.count {
          let byte = bytes[index]
          switch byte {
          case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            extend(byte)
            index += 1
          case UInt8(ascii: "A")...UInt8(ascii: "Z"):
            extend(byte + 0x20)
            index += 1
          case 0xC4 where index + 1 < bytes.count && bytes[index + 1] == 0xB0:
            // U+0130 "İ" -> "i" + U+0307, which is not [a-z0-9].
            extend(UInt8(ascii: "i"))
            endRun()
            index += 2
          case 0xE2
          where index + 2 < bytes.count && bytes[index + 1] == 0x84 && bytes[index + 2] == 0xAA:
            // U+212A KELVIN SIGN -> "k".
            extend(UInt8(ascii: "k"))
            index += 3
          default:
            // Any other scalar, or a byte inside one, lowercases to non-ASCII.
            endRun()
            index += 1
          }
        }
        endRun()
      }
    }
  }
}
