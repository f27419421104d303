import Foundation

/// Makes stored and retrieved text inert data: nothing a user captured or a tool returned can
/// act as an instruction or a control token once it reaches a model's prompt.
///
/// Applied at capture and again at prompt assembly. ``sanitize(_:)`` does, in order:
///
/// 1. **Invisible characters and controls.** Dropped: C0 controls except `\n` and `\t`, DEL
///    and C1 controls (U+0000–U+001F, U+007F–U+009F); bidirectional marks, embeddings,
///    overrides and isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069);
///    zero-width and other invisible format characters (U+180E, U+200B, U+200C and U+200D but
///    as below, U+2060–U+2065,
///    the deprecated U+206A–U+206F, U+FEFF, the interlinear annotation marks U+FFF9–U+FFFB) and
///    tag characters (U+E0000–U+E007F), which can spell out whole hidden sentences.
///    A terminal escape sequence (`ESC[31m`, `ESC]0;title BEL`, ECMA-48) is dropped whole,
///    not just its ESC, so that no `[31m` is left glued to the word after it.
///    Line endings become `\n`: `\r\n` and a lone `\r` each turn into one `\n`, and so do VT,
///    FF and NEL (U+000B, U+000C, U+0085), so the lines a reader sees are the lines the model
///    sees and no two words are glued together.
///    The zero-width non-joiner and joiner (U+200C, U+200D) are kept between two letters or
///    marks of the scripts whose spelling uses them (Arabic, Persian, Urdu, the Indic scripts,
///    Myanmar, Khmer: `می‌خواهم`, `क्‍ष`; see `joinsLetters(after:before:)`).
///    Three invisible characters are kept where they are part of a visible emoji, so that
///    `👨‍👩‍👧‍👦` and `🏴󠁧󠁢󠁳󠁣󠁴󠁿` survive: the zero-width joiner U+200D between two emoji (after an
///    optional variation selector or skin-tone modifier), tag characters that spell a
///    subdivision flag (`🏴` U+1F3F4, two to seven lowercase letters or digits, cancel tag
///    U+E007F), and a variation selector (U+FE00–U+FE0F, U+E0100–U+E01EF) directly after a
///    visible character — a run of them, which can carry hidden bytes, keeps only the first.
/// 2. **NFC.** Canonical composition (`e` + U+0301 → `é`), after the drops, so that a dropped
///    character cannot leave an uncomposed pair behind.
/// 3. **Delimiters.** Every delimiter of ``delimiters`` — whatever its case, spacing,
///    attributes, closing or self-closing slash, closed or not — gets its brackets swapped for
///    visible look-alikes: `<system>` → `‹system›`, `<|im_end|>` → `‹|im_end|›`,
///    `[INST]` → `⟦INST⟧`; so does every other pipe token spelled exactly (`<|channel|>` →
///    `‹|channel|›`, `<｜name｜>`; see ``delimiters``). Nothing else is touched, and nothing
///    invisible is inserted.
///    Matching reads past the default-ignorable characters that step 1 keeps
///    (``isDefaultIgnorable(_:)``: `<\u{AD}system>` with a soft hyphen → `‹\u{AD}system›`,
///    `[\u{FE0F}INST]`, `<|im\u{3164}_start|>`) and the combining marks that stand between the
///    opening bracket and the name (`<\u{301}system>` → `‹\u{301}system›`, `<\u{20D2}/system>`,
///    `[\u{301}INST]`), and reads the fullwidth, small and vertical
///    compatibility forms of the brackets as brackets, and compatibility forms of letters as
///    letters, as NFKC folds them (`＜system＞` → `‹system›`, `＜ｓｙｓｔｅｍ＞` → `‹ｓｙｓｔｅｍ›`).
///    Code keeps its generics: `Array<User>` and `Result<Tool, Error>` are type arguments, not
///    `<user>` or `<tool>` tags — a `<` glued on both sides whose name starts with an uppercase
///    letter and is followed directly by `>`, `,` or a nested `<` (see
///    ``Delimiter/isVocabularyToken`` for the exact rule). Any other glued form, such as
///    `ab<system>x` or `x<System attr=1>`, is neutralized.
///
/// The result is a fixed point: `sanitize(sanitize(x)) == sanitize(x)`, scalar for scalar.
public enum Sanitizer {
  /// Returns `text` as inert data: normalized to NFC, without controls and invisible
  /// characters, and with every delimiter of ``delimiters`` neutralized by look-alikes.
  ///
  /// See ``Sanitizer`` for exactly what is dropped and rewritten. Sanitizing is idempotent,
  /// and never leaves a live delimiter: `containsLiveDelimiter(sanitize(x))` is `false`.
  ///
  /// - Parameter text: Any text, typically user input at capture or evidence at prompt
  ///   assembly.
  /// - Returns: The sanitized text; text that needs no change comes back equal scalar for
  ///   scalar.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func sanitize(_ text: String) -> String {
    // Printable ASCII, tabs and line feeds without a bracket: step 1 keeps every one, ASCII is
    // NFC already, and no delimiter starts without `<` or `[` (or a non-ASCII form of one,
    // which this text has not). Most stored text is this, and an
    // export's import check sanitizes all of it again.
    if text.utf8.allSatisfy(isPlainASCII) { return text }
    return sanitizedScalars(of: text)
  }

  /// ``sanitize(_:)`` without its shortcut for plain ASCII: every step, on every text (tests
  /// compare the two).
  static func sanitizedScalars(of text: String) -> String {
    var scalars = visibleNFCScalars(of: text)
    if mayHoldDelimiter(scalars) {
      for match in DelimiterScanner.matches(in: scalars) {
        for offset in match.brackets {
          scalars[offset] = DelimiterScanner.lookAlike(for: scalars[offset])
        }
      }
    }
    return string(scalars)
  }

  /// `scalars` as a string, encoded into one UTF-8 buffer: appending them one by one to a
  /// `String.UnicodeScalarView` was half the time of sanitizing text that is not plain ASCII.
  static func string(_ scalars: [Unicode.Scalar]) -> String {
    let count = scalars.reduce(0) { $0 + UTF8.width($1) }
    return String(unsafeUninitializedCapacity: count) { buffer in
      var written = 0
      for scalar in scalars {
        UTF8.encode(scalar) { byte in
          buffer[written] = byte
          written += 1
        }
      }
      return written
    }
  }

  /// Returns whether `text` holds a delimiter of ``delimiters`` that a model could read as a
  /// role or tool marker.
  ///
  /// The text is judged after the invisible-character drops and NFC of ``sanitize(_:)``, so a
  /// delimiter hidden behind a zero-width space (`<sys\u{200B}tem>`) counts as live, and so does
  /// one with a soft hyphen inside (`<\u{AD}system>`) or written in fullwidth forms
  /// (`＜system＞`), which sanitizing keeps but matching reads past or folds. The answer
  /// is `true` exactly when ``sanitize(_:)`` would neutralize something, and always `false`
  /// for sanitized text.
  ///
  /// - Parameter text: The text to check.
  /// - Returns: `true` when at least one live delimiter is present.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func containsLiveDelimiter(_ text: String) -> Bool {
    // Neither the drops nor NFC can create a bracket, so text without one is clean.
    guard text.unicodeScalars.contains(where: DelimiterScanner.isOpeningBracket) else { return false }
    return DelimiterScanner.containsMatch(in: visibleNFCScalars(of: text))
  }

  /// Whether ``sanitize(_:)`` keeps the byte `byte` of UTF-8 text as it is, whatever surrounds
  /// it: printable ASCII other than `<` and `[`, a tab or a line feed.
  private static func isPlainASCII(_ byte: UInt8) -> Bool {
    (byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "[")) || byte == 0x0A || byte == 0x09
  }

  private static func mayHoldDelimiter(_ scalars: [Unicode.Scalar]) -> Bool {
    scalars.contains(where: DelimiterScanner.isOpeningBracket)
  }
}

// MARK: - Invisible characters and NFC

extension Sanitizer {
  /// Steps 1 and 2 of ``sanitize(_:)``: the scalars of `text` without controls and invisible
  /// characters, in NFC.
  static func visibleNFCScalars(of text: String) -> [Unicode.Scalar] {
    let visible = visibleScalars(of: Array(text.unicodeScalars))
    // Text of scalars that no normalization changes (ASCII, Latin, Greek, common symbols) is NFC.
    guard visible.contains(where: { !CanonicalComposition.isInert($0) }) else { return visible }
    let composed = CanonicalComposition.nfc(string(visible))
    return Array(composed.unicodeScalars)
  }

  /// Step 1 of ``sanitize(_:)``. Decisions look at the scalar already kept before and the
  /// input scalar after, so that running it on its own output keeps everything.
  private static func visibleScalars(of input: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var kept: [Unicode.Scalar] = []
    kept.reserveCapacity(input.count)
    var offset = 0
    while offset < input.count {
      let scalar = input[offset]
      switch scalar.value {
      case 0x09, 0x0A:
        kept.append(scalar)
      case 0x0D:
        kept.append("\n")
        if offset + 1 < input.count, input[offset + 1] == "\n" { offset += 1 }
      case 0x0B, 0x0C, 0x85:
        // VT, FF and NEL break lines too: they become `\n` rather than gluing two words.
        kept.append("\n")
      case 0x1B:
        // A whole terminal escape sequence goes, not just its ESC: `ESC[31mRED` keeps `RED`,
        // not `[31mRED`, which would also be indexed as the word `31mred`.
        offset += escapeSequenceLength(in: input, at: offset) - 1
      case 0x00...0x1F, 0x7F...0x9F:
        break
      case 0x200D:
        if let previous = kept.last, continuesEmojiSequence(previous),
          offset + 1 < input.count, isEmoji(input[offset + 1])
        {
          kept.append(scalar)
        } else if joinsLetters(after: kept.last, before: offset + 1 < input.count ? input[offset + 1] : nil)
          || followsIndicVirama(kept.last)
        {
          kept.append(scalar)
        }
      case 0x200C:
        if joinsLetters(after: kept.last, before: offset + 1 < input.count ? input[offset + 1] : nil) {
          kept.append(scalar)
        }
      case 0xFE00...0xFE0F, 0xE0100...0xE01EF:
        if let previous = kept.last, !isVariationSelector(previous),
          !previous.properties.isWhitespace
        {
          kept.append(scalar)
        }
      case 0x1F3F4:
        kept.append(scalar)
        let tags = flagTagSequenceLength(in: input, after: offset)
        kept.append(contentsOf: input[(offset + 1)..<(offset + 1 + tags)])
        offset += tags
      case 0x061C, 0x180E, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2060...0x206F,
        0xFEFF, 0xFFF9...0xFFFB, 0xE0000...0xE007F:
        break
      default:
        kept.append(scalar)
      }
      offset += 1
    }
    return kept
  }

  /// The length in scalars of the terminal escape sequence that starts with the ESC at
  /// `offset`, by ECMA-48 (5th edition, 1991), in its 7-bit form:
  /// - CSI `ESC [`: parameter bytes U+0030–U+003F, intermediate bytes U+0020–U+002F, then one
  ///   final byte U+0040–U+007E, as in `ESC[1;31m`;
  /// - control strings, OSC `ESC ]`, DCS `ESC P`, SOS `ESC X`, PM `ESC ^` and APC `ESC _`: up
  ///   to and including the string terminator (`ESC \\` or U+009C) or, for OSC as terminals
  ///   accept it, BEL, as in `ESC]0;title BEL`;
  /// - an ESC followed by intermediate bytes U+0020–U+002F and one final byte U+0030–U+007E
  ///   (`ESC(B`), or directly by U+0030–U+005F (`ESC7`, `ESC M`) or `c` (reset); an ESC before
  ///   any other character (`ESC z`) is more likely a stray ESC before text, and goes alone.
  /// A sequence that is not complete (no final byte; a control string without a terminator
  /// within 2,048 scalars) is the ESC alone, so that the text after a stray ESC is kept. The
  /// 8-bit introducers (U+009B …) are dropped alone, like every C1 control: in text they are
  /// more often a mis-decoded Windows-1252 character than a terminal command.
  static func escapeSequenceLength(in input: [Unicode.Scalar], at offset: Int) -> Int {
    func value(_ index: Int) -> UInt32? { index < input.count ? input[index].value : nil }
    guard let introducer = value(offset + 1) else { return 1 }
    var index = offset + 2
    switch introducer {
    case 0x5B:  // CSI
      while let byte = value(index), (0x30...0x3F).contains(byte) { index += 1 }
      while let byte = value(index), (0x20...0x2F).contains(byte) { index += 1 }
      guard let final = value(index), (0x40...0x7E).contains(final) else { return 1 }
      return index + 1 - offset
    case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // OSC, DCS, SOS, PM, APC
      let end = min(input.count, index + 2_048)
      while index < end {
        switch input[index].value {
        case 0x9C: return index + 1 - offset
        case 0x07 where introducer == 0x5D: return index + 1 - offset
        case 0x1B where value(index + 1) == 0x5C: return index + 2 - offset
        default: index += 1
        }
      }
      return 1
    case 0x20...0x2F:  // nF: intermediates, then a final byte, as in ESC ( B
      while let byte = value(index), (0x20...0x2F).contains(byte) { index += 1 }
      guard let final = value(index), (0x30...0x7E).contains(final) else { return 1 }
      return index + 1 - offset
    case 0x30...0x5F, 0x63:  // Fp (ESC 7), Fe (ESC M) and RIS (ESC c)
      return 2
    default:
      // Other letters after a stray ESC are more likely text than the rare functions
      // ECMA-48 gives them: they are kept.
      return 1
    }
  }

  /// Whether a zero-width non-joiner (U+200C) or joiner (U+200D) between `previous` (the
  /// scalar kept before it) and `next` (the input scalar after it) is part of the spelling: both
  /// are letters or marks of the Arabic, Syriac, Thaana, N'Ko or Indic scripts (U+0600–U+0DFF,
  /// Devanagari to Sinhala), Myanmar (U+1000–U+109F), Khmer (U+1780–U+17FF) or the Arabic
  /// presentation forms (U+FB50–U+FDFF, U+FE70–U+FEFE), where the Unicode Standard (§23.2,
  /// "Layout Controls") gives them a meaning: Persian `می‌خواهم` is not `میخواهم`, and `क्‍ष`
  /// shows a half form. Anywhere else (between Latin letters, where they can only hide text)
  /// they are dropped. Search ignores them either way (the tokenizer skips format characters).
  private static func joinsLetters(after previous: Unicode.Scalar?, before next: Unicode.Scalar?) -> Bool {
    guard let previous, let next else { return false }
    func isJoiningScriptLetter(_ scalar: Unicode.Scalar) -> Bool {
      switch scalar.value {
      case 0x0600...0x0DFF, 0x1000...0x109F, 0x1780...0x17FF, 0xFB50...0xFDFF, 0xFE70...0xFEFE: break
      default: return false
      }
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .nonspacingMark, .spacingMark, .enclosingMark:
        return true
      default: return false
      }
    }
    return isJoiningScriptLetter(previous) && isJoiningScriptLetter(next)
  }

  /// Whether `previous` is a virama (canonical combining class 9) of a script that spells with
  /// the joiner: there a zero-width joiner asks for the half or chillu form even at the end of a
  /// word (Malayalam `അവന്‍` in the encoding before Unicode 5.1, Kannada), so it is kept whatever
  /// follows.
  private static func followsIndicVirama(_ previous: Unicode.Scalar?) -> Bool {
    guard let previous, (0x0900...0x0DFF).contains(previous.value) || (0x1000...0x109F).contains(previous.value)
      || (0x1780...0x17FF).contains(previous.value)
    else { return false }
    return previous.properties.canonicalCombiningClass == .virama
  }

  /// A visible emoji scalar (the ASCII digits, `#` and `*` also carry the Emoji property).
  private static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
    !scalar.isASCII && scalar.properties.isEmoji
  }

  /// What may stand before the joiner of an emoji ZWJ sequence: an emoji, possibly followed
  /// by an emoji variation selector (U+FE0F) or a skin-tone modifier (which is an emoji).
  private static func continuesEmojiSequence(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "\u{FE0F}" || isEmoji(scalar)
  }

  private static func isVariationSelector(_ scalar: Unicode.Scalar) -> Bool {
    (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value)
  }

  /// The number of tag scalars after `input[offset]` (a `🏴`) that form a subdivision flag:
  /// 2–7 tag letters or digits and the cancel tag U+E007F; 0 when they do not.
  private static func flagTagSequenceLength(in input: [Unicode.Scalar], after offset: Int) -> Int {
    var end = offset + 1
    while end < input.count, end - offset <= 7,
      (0xE0030...0xE0039).contains(input[end].value)
        || (0xE0061...0xE007A).contains(input[end].value)
    {
      end += 1
    }
    let letters = end - offset - 1
    guard (2...7).contains(letters), end < input.count, input[end].value == 0xE007F else {
      return 0
    }
    return letters + 1
  }
}
