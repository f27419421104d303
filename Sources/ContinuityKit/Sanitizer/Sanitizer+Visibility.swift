extension Sanitizer {
  /// Unicode's Default_Ignorable_Code_Point property, as ranges of scalar values: the code
  /// points that show nothing on their own and that a process which does not support them
  /// should skip (Unicode Standard §5.21, "Ignoring Characters in Processing"; UAX #44).
  ///
  /// Copied from `DerivedCoreProperties.txt` of the Unicode Character Database, which lists
  /// the same 4,174 code points from Unicode 14.0 (which added U+180F) through 16.0, reserved
  /// ones included (U+2065, U+FFF0–U+FFF8, U+E0000–U+E0FFF), so that a character assigned there
  /// later is already covered. Written out rather than read from
  /// `Unicode.Scalar.Properties.isDefaultIgnorableCodePoint` so that the answer does not depend
  /// on the Unicode version of the platform's standard library (the tests check that they agree
  /// on this build). Ascending and disjoint.
  ///
  /// The one definition of "default-ignorable" here: ``isInvisible(_:)`` (text that shows
  /// nothing) and the delimiter matching of ``sanitize(_:)`` and
  /// ``containsLiveDelimiter(_:)`` (which read past these inside a delimiter) both use it.
  /// Delimiter matching also reads past combining marks (General_Category Mn or Me) between the
  /// opening bracket and the name, not because they show nothing — a mark shows, drawn on the
  /// bracket before it, so ``isInvisible(_:)`` is `false` for it — but because the bracket it
  /// sits on still reads as a bracket.
  package static let defaultIgnorableRanges: [ClosedRange<UInt32>] = [
    0x00AD...0x00AD,  // soft hyphen
    0x034F...0x034F,  // combining grapheme joiner
    0x061C...0x061C,  // Arabic letter mark
    0x115F...0x1160,  // Hangul choseong and jungseong fillers
    0x17B4...0x17B5,  // Khmer inherent vowels AQ and AA
    0x180B...0x180F,  // Mongolian free variation selectors one to four and vowel separator
    0x200B...0x200F,  // zero-width space, non-joiner, joiner; left-to-right and right-to-left marks
    0x202A...0x202E,  // bidi embeddings and overrides
    0x2060...0x206F,  // word joiner, invisible operators, bidi isolates, deprecated format characters
    0x3164...0x3164,  // Hangul filler
    0xFE00...0xFE0F,  // variation selectors 1–16
    0xFEFF...0xFEFF,  // zero-width no-break space (byte order mark)
    0xFFA0...0xFFA0,  // halfwidth Hangul filler
    0xFFF0...0xFFF8,  // reserved
    0x1BCA0...0x1BCA3,  // shorthand format controls
    0x1D173...0x1D17A,  // musical symbol beam, tie, slur and phrase controls
    0xE0000...0xE0FFF,  // tag characters, variation selectors 17–256, reserved
  ]

  /// Whether `scalar` is a Default_Ignorable_Code_Point (``defaultIgnorableRanges``): the soft
  /// hyphen, the combining grapheme joiner, the Hangul fillers, the Khmer inherent vowels, the
  /// zero-width, joiner, bidi and variation-selector characters, the tag characters and the
  /// other invisible format characters.
  /// - Parameter scalar: any Unicode scalar.
  /// - Complexity: O(1): one comparison for every scalar below U+00AD, at most 17 range checks
  ///   otherwise.
  package static func isDefaultIgnorable(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    guard value >= 0xAD else { return false }
    return defaultIgnorableRanges.contains { $0.contains(value) }
  }

  /// Whether `scalar` shows nothing on its own: Unicode's Default_Ignorable_Code_Point property
  /// (``isDefaultIgnorable(_:)``), which covers the soft hyphen U+00AD, the combining grapheme
  /// joiner U+034F, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the Khmer inherent
  /// vowels U+17B4 and U+17B5, the zero-width, bidi and variation-selector characters and the
  /// tag characters; plus the Braille pattern blank U+2800, which is not default-ignorable (it
  /// is a real Braille cell) but renders as an empty space without being White_Space, so it is
  /// the usual way to pass blank text off as written.
  ///
  /// Used only to judge whether text has anything visible; ``sanitize(_:)`` keeps these
  /// characters inside text (a soft hyphen marks where a word may break, a Hangul filler is part
  /// of a syllable written with conjoining jamo) except the ones it documents dropping.
  /// - Parameter scalar: any Unicode scalar.
  /// - Returns: `true` for the characters above; `false` for White_Space and everything else,
  ///   combining marks (U+0301, U+20D2) included: a mark shows, on the character before it or
  ///   alone (a title of U+0301 alone is an accent on nothing, not blank).
  public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    isDefaultIgnorable(scalar) || scalar.value == 0x2800
  }

  /// Whether `text` shows nothing: every scalar is White_Space (`Unicode.Scalar.Properties.isWhitespace`)
  /// or invisible (``isInvisible(_:)``). Empty text shows nothing.
  /// - Parameter text: any text, typically already sanitized.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func showsNothing(_ text: some StringProtocol) -> Bool {
    text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || isInvisible($0) }
  }
}
