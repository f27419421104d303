import Foundation

extension CredentialDetector {
  /// A text as the detector's rules read it: ASCII look-alikes written as the ASCII they look
  /// like and characters that show nothing left out, with each byte's place in the original
  /// text, so that `pass\u{00AD}word=…`, `ｐａｓｓｗｏｒｄ＝…`, `api\u{2011}key=…` and
  /// `p\u{0430}ssword=…` (a Cyrillic а) are read as the assignments they show (review 24-b, 4).
  ///
  /// Each Unicode scalar of the text becomes:
  /// - itself, when it is ASCII and not a control character; tab, line feed and carriage return
  ///   are kept;
  /// - nothing, when it shows nothing: a Default_Ignorable_Code_Point
  ///   (``Sanitizer/isDefaultIgnorable(_:)``: soft hyphen, zero-width and bidi characters,
  ///   variation selectors, tag characters, …) or another control character (General_Category
  ///   Cc: C0 but tab, line feed and carriage return, DEL, C1);
  /// - its NFKC form (Unicode Standard Annex #15, compatibility decomposition then canonical
  ///   composition) when that is ASCII and the scalar is in a block whose compatibility forms
  ///   stand for ASCII: Latin-1 Supplement (U+00A0 no-break space → space), Phonetic Extensions,
  ///   General Punctuation and Superscripts and Subscripts, Letterlike Symbols and Number Forms
  ///   (U+212A Kelvin sign → `K`), Enclosed Alphanumerics (`ⓐ` → `a`), the ideographic space,
  ///   Alphabetic Presentation Forms (`ﬁ` → `fi`), Small Form Variants (`﹦` → `=`),
  ///   Halfwidth and Fullwidth Forms (`ｐａｓｓ` → `pass`, `＝` → `=`; not the fullwidth colon
///   `：`, which CJK prose writes as its colon), Mathematical
  ///   Alphanumeric Symbols (`𝐩𝐚𝐬𝐬` → `pass`) and the Enclosed Alphanumeric Supplement;
  /// - the ASCII character it is drawn as, for the hyphens and dashes U+2010–U+2013, U+2043,
  ///   U+2212 and U+FE63 (`-`), the typographic quotes U+2018, U+2019, U+201A, U+201B (`'`) and
  ///   U+201C, U+201D, U+201E, U+201F (`"`; German `„…“` too), the colon look-alikes U+02F8, U+0589, U+2236 and U+A789 (`:`),
  ///   the modifier letter short equals sign U+A78A (`=`), and the Cyrillic and Greek letters,
  ///   the dotless i and the Latin small capitals that Unicode's confusables data (Unicode
  ///   Technical Standard #39, `confusables.txt`) gives as a Latin letter
  ///   (``confusableLetters``: `а` → `a`, `Р` → `P`, `ο` → `o`, `ᴘ` → `p`, …; capital iota is
  ///   read as `I`);
  /// - else itself, as its UTF-8 bytes, which no rule reads as part of a word.
  ///
  /// Only the detector reads this form; the text stored, shown or withheld is the original.
  struct FoldedText {
    /// The folded text's UTF-8 bytes.
    var bytes: [UInt8] = []
    /// For each folded byte, the UTF-8 offset in the original text of the scalar it came from.
    var sourceStart: [Int] = []
    /// For each folded byte, the UTF-8 offset in the original text just past that scalar.
    var sourceEnd: [Int] = []
    /// For each folded byte, whether it stands for a Cyrillic or Greek letter
    /// (``confusableLetters``): a letter of another script as written, which a value's
    /// "has a letter" test does not count.
    var otherScript: [Bool] = []

    /// The original text's UTF-8 range of the folded bytes `range` (non-empty).
    func sourceRange(of range: Range<Int>) -> Range<Int> {
      sourceStart[range.lowerBound]..<sourceEnd[range.upperBound - 1]
    }
  }

  /// What a scalar reads as in ``FoldedText``.
  enum Fold: Equatable {
    /// The scalar as it is.
    case same
    /// Nothing: it shows nothing.
    case dropped
    /// These ASCII bytes.
    case ascii([UInt8])
  }

  /// How ``FoldedText`` reads `scalar`.
  /// - Complexity: O(1); a Foundation NFKC conversion for a scalar in one of the listed blocks.
  static func fold(_ scalar: Unicode.Scalar) -> Fold {
    let v = scalar.value
    if v < 0x80 {
      return v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D || v == 0x7F ? .dropped : .same
    }
    if v < 0xA0 || Sanitizer.isDefaultIgnorable(scalar) { return .dropped }
    switch v {
    case 0x2010...0x2013, 0x2043, 0x2212, 0xFE63: return .ascii([UInt8(ascii: "-")])
    case 0x2018, 0x2019, 0x201A, 0x201B: return .ascii([UInt8(ascii: "'")])
    case 0x201C, 0x201D, 0x201E, 0x201F: return .ascii([UInt8(ascii: "\"")])
    case 0x02F8, 0x0589, 0x2236, 0xA789: return .ascii([UInt8(ascii: ":")])
    case 0xA78A: return .ascii([UInt8(ascii: "=")])
    // The fullwidth colon is CJK prose's own colon (`GitHubのtoken：Settingsで作成`), so it stays.
    case 0xFF1A: return .same
    case 0xFF01...0xFF5E: return .ascii([UInt8(v - 0xFEE0)])
    default: break
    }
    if let letter = confusableLetters[v] { return .ascii([letter]) }
    guard compatibilityBlocks.contains(where: { $0.contains(v) }) else { return .same }
    let nfkc = Array(String(scalar).precomposedStringWithCompatibilityMapping.utf8)
    guard !nfkc.isEmpty, nfkc.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return .same }
    return .ascii(nfkc)
  }

  /// The blocks whose compatibility forms ``fold(_:)`` reads as NFKC when that is ASCII.
  static let compatibilityBlocks: [ClosedRange<UInt32>] = [
    0x00A0...0x00FF,  // Latin-1 Supplement: no-break space, ª º ¹ ² ³ ¼
    0x1D00...0x1DBF,  // Phonetic Extensions and their supplement: modifier letters ᵃ ᵇ
    0x2000...0x209F,  // General Punctuation (spaces, ‥), Superscripts and Subscripts
    0x2100...0x218F,  // Letterlike Symbols (K Kelvin, ℓ), Number Forms (Ⅻ)
    0x2460...0x24FF,  // Enclosed Alphanumerics: ① ⓐ ⒜
    0x3000...0x3000,  // ideographic space
    0xFB00...0xFB06,  // Latin ligatures ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ
    0xFE50...0xFE6F,  // Small Form Variants: ﹦ ﹕
    0xFF00...0xFFEF,  // Halfwidth and Fullwidth Forms
    0x1D400...0x1D7FF,  // Mathematical Alphanumeric Symbols
    0x1F100...0x1F1FF,  // Enclosed Alphanumeric Supplement: 🄐 🅐
  ]

  /// Cyrillic and Greek letters, the dotless i and the Latin small capitals that Unicode's
  /// confusables data (UTS #39, `confusables.txt`) gives as one Latin letter, as that letter's
  /// ASCII byte. Capital iota (U+0399) and the
  /// Cyrillic І (U+0406), which the data gives as `l`, are read as `I`, the letter they stand
  /// for among capitals (`ΑΡΙ_KEY`).
  static let confusableLetters: [UInt32: UInt8] = {
    let pairs: [(UInt32, Character)] = [
      // Cyrillic small letters
      (0x0430, "a"), (0x0435, "e"), (0x043E, "o"), (0x0440, "p"), (0x0441, "c"), (0x0443, "y"),
      (0x0445, "x"), (0x0455, "s"), (0x0456, "i"), (0x0458, "j"), (0x04BB, "h"), (0x04CF, "l"),
      (0x0501, "d"), (0x051B, "q"), (0x051D, "w"),
      // Cyrillic capital letters
      (0x0405, "S"), (0x0406, "I"), (0x0408, "J"), (0x0410, "A"), (0x0412, "B"), (0x0415, "E"),
      (0x041A, "K"), (0x041C, "M"), (0x041D, "H"), (0x041E, "O"), (0x0420, "P"), (0x0421, "C"),
      (0x0422, "T"), (0x0425, "X"), (0x04AE, "Y"), (0x04C0, "I"), (0x051A, "Q"), (0x051C, "W"),
      // Greek capital letters
      (0x0391, "A"), (0x0392, "B"), (0x0395, "E"), (0x0396, "Z"), (0x0397, "H"), (0x0399, "I"),
      (0x039A, "K"), (0x039C, "M"), (0x039D, "N"), (0x039F, "O"), (0x03A1, "P"), (0x03A4, "T"),
      (0x03A5, "Y"), (0x03A7, "X"),
      // Greek small letters
      (0x03B1, "a"), (0x03B3, "y"), (0x03B9, "i"), (0x03BD, "v"), (0x03BF, "o"), (0x03C1, "p"),
      // The dotless i and the Latin small capitals (read as lowercase: keys compare without case)
      (0x0131, "i"), (0x1D00, "a"), (0x0299, "b"), (0x1D04, "c"), (0x1D05, "d"), (0x1D07, "e"),
      (0x0262, "g"), (0x029C, "h"), (0x026A, "i"), (0x1D0A, "j"), (0x1D0B, "k"), (0x029F, "l"),
      (0x1D0D, "m"), (0x0274, "n"), (0x1D0F, "o"), (0x1D18, "p"), (0x0280, "r"), (0xA731, "s"),
      (0x1D1B, "t"), (0x1D1C, "u"), (0x1D20, "v"), (0x1D21, "w"), (0x028F, "y"), (0x1D22, "z"),
    ]
    var table: [UInt32: UInt8] = [:]
    for (scalar, letter) in pairs { table[scalar] = letter.asciiValue! }
    return table
  }()

  /// `text` as the rules read it (``FoldedText``), or nil when that is the text itself (all
  /// ASCII without control characters, or nothing to fold).
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  static func folded(_ text: String) -> FoldedText? {
    let utf8 = text.utf8
    let needsFolding = utf8.contains { $0 >= 0x80 || $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }
    guard needsFolding else { return nil }
    var out = FoldedText()
    out.bytes.reserveCapacity(utf8.count)
    out.sourceStart.reserveCapacity(utf8.count)
    out.sourceEnd.reserveCapacity(utf8.count)
    var changed = false
    var offset = 0
    for scalar in text.unicodeScalars {
      let width = UTF8.width(scalar)
      let end = offset + width
      switch fold(scalar) {
      case .same:
        for byte in UTF8.encode(scalar)! {
          out.bytes.append(byte)
          out.sourceStart.append(offset)
          out.sourceEnd.append(end)
          out.otherScript.append(false)
        }
      case .dropped:
        changed = true
      case .ascii(let bytes):
        changed = true
        // Cyrillic (U+0400–U+052F) or Greek (U+0370–U+03FF) letters, not Latin small capitals.
        let lookalike = confusableLetters[scalar.value] != nil && (0x0370...0x052F).contains(scalar.value)
        for byte in bytes {
          out.bytes.append(byte)
          out.sourceStart.append(offset)
          out.sourceEnd.append(end)
          out.otherScript.append(lookalike)
        }
      }
      offset = end
    }
    return changed ? out : nil
  }
}
