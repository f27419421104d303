extension Sanitizer {
  /// Whether `scalar` shows nothing on its own: Unicode's Default_Ignorable_Code_Point property
  /// (Unicode Standard §5.21 and UAX #44, `DerivedCoreProperties.txt`), which covers the soft
  /// hyphen U+00AD, the combining grapheme joiner U+034F, the Hangul fillers U+115F, U+1160,
  /// U+3164 and U+FFA0, the Khmer inherent vowels U+17B4 and U+17B5, the zero-width, bidi and
  /// variation-selector characters and the tag characters; plus the Braille pattern blank
  /// U+2800, which is not default-ignorable (it is a real Braille cell) but renders as an empty
  /// space without being White_Space, so it is the usual way to pass blank text off as written.
  ///
  /// Used only to judge whether text has anything visible; ``sanitize(_:)`` keeps these
  /// characters inside text (a soft hyphen marks where a word may break, a Hangul filler is part
  /// of a syllable written with conjoining jamo) except the ones it documents dropping.
  /// - Parameter scalar: any Unicode scalar.
  /// - Returns: `true` for the characters above; `false` for White_Space and everything else.
  public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isDefaultIgnorableCodePoint || scalar.value == 0x2800
  }

  /// Whether `text` shows nothing: every scalar is White_Space (`Unicode.Scalar.Properties.isWhitespace`)
  /// or invisible (``isInvisible(_:)``). Empty text shows nothing.
  /// - Parameter text: any text, typically already sanitized.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func showsNothing(_ text: some StringProtocol) -> Bool {
    text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || isInvisible($0) }
  }
}
