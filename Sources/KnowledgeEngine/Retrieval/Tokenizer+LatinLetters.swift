extension Tokenizer {
  /// The ASCII letters of a Latin letter that has no canonical decomposition, so that
  /// diacritic folding (NFD, then dropping marks) cannot reach its base letter: stroke, bar,
  /// hook, curl and middle-tilde letters, ligatures, and small capitals. Nil for every other
  /// scalar.
  ///
  /// The key is the letter as ``fold(_:)`` sees it at that point: already NFKC-normalized,
  /// case-folded and stripped of its marks, so `Ø`, `Ǿ` and `ǿ` all arrive as `ø`, and
  /// only lowercase forms are listed.
  ///
  /// Source: ICU's `Latin-ASCII` transliterator (CLDR `common/transforms/Latin-ASCII.xml`),
  /// lowercased — every Latin letter it turns into ASCII letters and that this tokenizer's earlier
  /// steps leave non-ASCII, and nothing else. Lucene's `ASCIIFoldingFilter` folds the letters
  /// people meet in ordinary text the same way (`ø` → `o`, `ł` → `l`, `æ` → `ae`, `œ` → `oe`, `đ`
  /// and `ð` → `d`, `þ` → `th`, `ħ` → `h`, `ŧ` → `t`, `ŋ` → `n`); it also folds letters that are
  /// vowels of their own in the languages that use them (`ə` → `a` in Azerbaijani, `ɔ` → `o` in
  /// Akan), which ICU, and this table, leave alone. One deliberate addition: ICU folds capital `Ɩ`
  /// but not its lowercase `ɩ`; case folding comes first here, so `ɩ` is listed. `ŀ` and `Ŀ`
  /// (Catalan) are not keys: NFKC would split them into `l·`, so ``fold(_:)`` turns them into `l`
  /// before NFKC. `ẚ` (NFKC `aʾ`) is left as NFKC makes it.
  ///
  /// - Parameter value: a Unicode scalar value.
  /// - Returns: one or two ASCII lowercase letters (`ø` → `o`, `æ` → `ae`, `þ` → `th`), or
  ///   nil when `value` is not a key.
  /// - Complexity: O(1).
  static func asciiLetters(ofLatinLetter value: UInt32) -> String? {
    switch value {
    // ᴀ ᶏ ⱥ
    case 0x1D00, 0x1D8F, 0x2C65: return "a"
    // ꜳ
    case 0xA733: return "aa"
    // æ ᴁ
    case 0x00E6, 0x1D01: return "ae"
    // ꜵ
    case 0xA735: return "ao"
    // ꜷ
    case 0xA737: return "au"
    // ꜹ ꜻ
    case 0xA739, 0xA73B: return "av"
    // ꜽ
    case 0xA73D: return "ay"
    // ƀ ƃ ɓ ʙ ᴃ ᵬ ᶀ
    case 0x0180, 0x0183, 0x0253, 0x0299, 0x1D03, 0x1D6C, 0x1D80: return "b"
    // ƈ ȼ ɕ ᴄ ꞓ
    case 0x0188, 0x023C, 0x0255, 0x1D04, 0xA793: return "c"
    // ð đ ƌ ȡ ɖ ɗ ᴅ ᴆ ᵭ ᶁ ᶑ ꝱ ꝺ
    case 0x00F0, 0x0111, 0x018C, 0x0221, 0x0256, 0x0257, 0x1D05, 0x1D06, 0x1D6D, 0x1D81, 0x1D91,
      0xA771, 0xA77A: return "d"
    // ȸ
    case 0x0238: return "db"
    // ʣ ʥ
    case 0x02A3, 0x02A5: return "dz"
    // ɇ ɛ ᴇ ᶒ ᶓ ⱸ
    case 0x0247, 0x025B, 0x1D07, 0x1D92, 0x1D93, 0x2C78: return "e"
    // ƒ ᵮ ᶂ ꜰ ꝼ
    case 0x0192, 0x1D6E, 0x1D82, 0xA730, 0xA77C: return "f"
    // ǥ ɠ ɡ ɢ ʛ ᶃ ꞡ
    case 0x01E5, 0x0260, 0x0261, 0x0262, 0x029B, 0x1D83, 0xA7A1: return "g"
    // ħ ɦ ɧ ʜ ⱨ
    case 0x0127, 0x0266, 0x0267, 0x029C, 0x2C68: return "h"
    // ƕ
    case 0x0195: return "hv"
    // ɨ ɩ ɪ ᵻ ᶖ
    case 0x0268, 0x0269, 0x026A, 0x1D7B, 0x1D96: return "i"
    // ȷ ɉ ɟ ʝ ᴊ
    case 0x0237, 0x0249, 0x025F, 0x029D, 0x1D0A: return "j"
    // ƙ ᴋ ᶄ ⱪ ꝁ ꝃ ꝅ ꞣ
    case 0x0199, 0x1D0B, 0x1D84, 0x2C6A, 0xA741, 0xA743, 0xA745, 0xA7A3: return "k"
    // ł ƚ ȴ ɫ ɬ ɭ ʟ ᴌ ᶅ ⱡ ꝇ ꝉ ꝲ
    case 0x0142, 0x019A, 0x0234, 0x026B, 0x026C, 0x026D, 0x029F, 0x1D0C, 0x1D85, 0x2C61, 0xA747,
      0xA749, 0xA772: return "l"
    // ỻ
    case 0x1EFB: return "ll"
    // ʪ
    case 0x02AA: return "ls"
    // ʫ
    case 0x02AB: return "lz"
    // ɱ ᴍ ᵯ ᶆ ꝳ
    case 0x0271, 0x1D0D, 0x1D6F, 0x1D86, 0xA773: return "m"
    // ŋ ƞ ȵ ɲ ɳ ɴ ᵰ ᶇ ꝴ ꞑ ꞥ
    case 0x014B, 0x019E, 0x0235, 0x0272, 0x0273, 0x0274, 0x1D70, 0x1D87, 0xA774, 0xA791, 0xA7A5:
      return "n"
    // ø ᴏ ⱺ ꝋ ꝍ
    case 0x00F8, 0x1D0F, 0x2C7A, 0xA74B, 0xA74D: return "o"
    // œ ɶ
    case 0x0153, 0x0276: return "oe"
    // ƣ
    case 0x01A3: return "oi"
    // ꝏ
    case 0xA74F: return "oo"
    // ƥ ᴘ ᵱ ᵽ ᶈ ꝑ ꝓ ꝕ
    case 0x01A5, 0x1D18, 0x1D71, 0x1D7D, 0x1D88, 0xA751, 0xA753, 0xA755: return "p"
    // ĸ ʠ ꝗ ꝙ
    case 0x0138, 0x02A0, 0xA757, 0xA759: return "q"
    // ȹ
    case 0x0239: return "qp"
    // ɍ ɼ ɽ ɾ ʀ ᵲ ᵳ ᶉ ꝵ ꝶ ꞧ
    case 0x024D, 0x027C, 0x027D, 0x027E, 0x0280, 0x1D72, 0x1D73, 0x1D89, 0xA775, 0xA776, 0xA7A7:
      return "r"
    // ȿ ʂ ᵴ ᶊ ẜ ẝ ꜱ ꞩ
    case 0x023F, 0x0282, 0x1D74, 0x1D8A, 0x1E9C, 0x1E9D, 0xA731, 0xA7A9: return "s"
    // ŧ ƫ ƭ ȶ ʈ ᴛ ᵵ ⱦ ꝷ ꞇ
    case 0x0167, 0x01AB, 0x01AD, 0x0236, 0x0288, 0x1D1B, 0x1D75, 0x2C66, 0xA777, 0xA787: return "t"
    // þ ᵺ ꝥ ꝧ
    case 0x00FE, 0x1D7A, 0xA765, 0xA767: return "th"
    // ʦ
    case 0x02A6: return "ts"
    // ʉ ᴜ ᵾ ᶙ
    case 0x0289, 0x1D1C, 0x1D7E, 0x1D99: return "u"
    // ᵫ
    case 0x1D6B: return "ue"
    // ʋ ᴠ ᶌ ỽ ⱱ ⱴ ꝟ
    case 0x028B, 0x1D20, 0x1D8C, 0x1EFD, 0x2C71, 0x2C74, 0xA75F: return "v"
    // ꝡ
    case 0xA761: return "vy"
    // ᴡ ⱳ
    case 0x1D21, 0x2C73: return "w"
    // ᶍ
    case 0x1D8D: return "x"
    // ƴ ɏ ʏ ỿ
    case 0x01B4, 0x024F, 0x028F, 0x1EFF: return "y"
    // ƶ ȥ ɀ ʐ ʑ ᴢ ᵶ ᶎ ⱬ
    case 0x01B6, 0x0225, 0x0240, 0x0290, 0x0291, 0x1D22, 0x1D76, 0x1D8E, 0x2C6C: return "z"
    default: return nil
    }
  }
}
