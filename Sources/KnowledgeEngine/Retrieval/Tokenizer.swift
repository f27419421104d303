import ContinuityKit
import Foundation

/// Turns text into searchable terms; the same code analyses documents and queries.
///
/// Foundation on Linux has no word enumeration, so this is our own, built on the Unicode
/// Character Database properties that Swift exposes (`Unicode.Scalar.Properties`):
///
/// 1. **Segmentation.** A *run* is a maximal sequence of letters (`isAlphabetic`), numbers
///    (`numericType != nil`), combining marks (general category Mn, Mc, Me — they belong to the
///    letter before them) and format characters (Cf: soft hyphen, zero-width joiners, bidi
///    marks — skipped without breaking the run). Everything else separates runs: spaces,
///    punctuation, symbols, emoji. So `health.base` → `health`, `base`; `IDOLM@STER` → `idolm`,
///    `ster`; `don't` → `don` (rule 7); `p53` stays one term. One exception: a single letter
///    followed by `++` or `#` that ends the word is a programming language's name and keeps
///    them (`C++` → `c++`, `C#` → `c#`, `F#`, `g++`), so `C`, `C++` and `C#` are three terms;
///    a version number after it is a term of its own (`C++17` → `c++`, `17`); a longer word
///    keeps no suffix (`Notepad++` → `notepad`), nor does a letter whose suffix goes on with a
///    letter (`C#d` → `c`, `d`). The rule reads the text as NFKC does, so full-width and small
///    forms are names too (`Ｃ＋＋` → `c++`, `Ｃ＃` → `c#`), and a letter of a script written
///    without spaces may follow (`C#の` → `c#`, `の`) (``languageName(_:letter:)``).
/// 2. **Normalization** of each run: NFKC (`ﬁ` → `fi`, full-width `ＡＢＣ` → `abc`, half-width
///    katakana → katakana), then full case folding, computed per scalar as
///    lowercase(uppercase(lowercase(c))) — this equals Unicode full case folding
///    (CaseFolding.txt, statuses C and F: `ß` and `ẞ` → `ss`, final `ς` → `σ`) except that the
///    dotless `ı` folds to `i`; then **diacritic folding**: after canonical decomposition (NFD),
///    nonspacing and enclosing marks (Mn, Me) are removed when the letter they sit on is Latin,
///    Greek, Cyrillic, Hebrew or Arabic (`Müller` = `muller` = `MÜLLER`, `café` → `cafe`,
///    `й` → `и`, Hebrew points and Arabic harakat dropped, Arabic tatweel dropped); then
///    **Latin letter folding**: a Latin letter with no canonical decomposition, which the
///    step before cannot reach, becomes the ASCII letters that ICU's Latin-ASCII
///    transliteration gives it (``asciiLetters(ofLatinLetter:)`` lists them and cites the
///    sources): `Øresund` → `oresund`, `Łódź` → `lodz`, `Æsir` → `aesir`, `œuvre` → `oeuvre`,
///    `Đakovo` → `dakovo`, `Þór` → `thor`, `ð` → `d`, `ħ` → `h`, `ŧ` → `t`, `ŋ` → `n`, Catalan
///    `ŀ` → `l`; then NFC. Marks of other scripts are kept, because there they are letters
///    in their own right (Devanagari vowel signs, Thai vowels, the kana voicing mark in `が`);
///    no letter of another script is folded to Latin, with one exception, step 3.
/// 3. **Greek letters in scientific notation** are spelled out in English, as PubMed's search
///    does: Greek letters inside a word that also has other letters or digits, and a lone Greek
///    letter next to a Latin word or a number, or with no Greek word next to it (a query `α`),
///    become their names (`TNF-α` → `tnf`, `alpha`;
///    `IL-1β` → `il`, `1beta`; `NF-κB` → `nf`, `kappab`), so the symbol and the written-out
///    form find each other. `μ` inside a word is a unit prefix and stays (`μm`). Greek prose is
///    left Greek (``spellingOutGreekLetters(in:loneLetterIsNotation:)``).
/// 4. **Scripts written without spaces** — Han, Hiragana, Katakana (one group, as Japanese
///    mixes them), Thai, Lao, Khmer and Myanmar — are never dropped: a run of one of them
///    becomes overlapping character bigrams (`東京会議` → `東京`, `京会`, `会議`), and a
///    one-character run becomes that character. Hangul is written with spaces and is
///    tokenized as words.
/// 5. **Stemming.** A term made only of the ASCII letters `a`–`z` after all of the folding
///    above is reduced with ``PorterStemmer`` (Porter, 1980, with the two Step 2 rules of his
///    reference implementation), so `persistence` and
///    `persistance` both become `persist`. Folding comes first, so a word typed with or
///    without its marks gets the same stem: `café` and `cafe`, `Øresund` and `oresund`,
///    `straße` and `strasse` (→ `strass`). Numbers and other scripts are not stemmed.
///
/// 6. **Breaks.** Positions count terms from 0 (bigrams too), so adjacency means contiguity,
///    except that a *break* leaves one position free: the end of a sentence or clause — `.`,
///    `,`, `;`, `:`, `!`, `?` or `…` followed by white space (`dead. Line`, `cost, time`; not
///    `health.base`, `1.5`, `10:30`) — any other Unicode Terminal_Punctuation character, with
///    or without space (`。`, `、`, `，`, `؟`, `।`) — but not a full-width or small `．` or `，`
///    between two digits, which NFKC makes the decimal point or digit-group separator of one
///    number, as in `1.5` (`０．７`, `２５０，０００`; ``decimalSeparatorAsNFKC(_:)``) — a
///    blank line (two line breaks) and a
///    paragraph separator (U+2029), and a line that starts a list item, quote or table row
///    (`- `, `* `, `+ `, `# `, `> `, `|`, `•`). So a phrase or a compound's adjacent parts never
///    match across a sentence (`deadline` does not find *dead. Line*); a break counts as one
///    word that matches nothing. A single line break is no break (hard-wrapped text reads on),
///    nor is a full stop after one letter or a listed abbreviation (``abbreviations``: `E.
///    coli`, `U.S. data`, `e.g. mail`, `Dr. Smith`, `Acme Corp. said`, `viz. the`), or after a
///    listed one written with one capital (``capitalizedAbbreviations``: `Mt. Everest`, `Jan.
///    5`, `Gen. Smith`, but `next gen. Then`, `took 40 ms. Then`).
/// 7. **English endings.** A run `s`, `t`, `d`, `m`, `ll`, `re` or `ve` (any case) glued by one
///    apostrophe (`'`, `’`, or `‘`, `＇` or a backtick typed for one) to a run before that does
///    not end in a digit — `Müller's`, `don't`, `I'd`, `we'll`, `they're`, `C#’s` — is no term
///    and takes no position, so `Alzheimer's disease` holds the phrase *alzheimer disease* and a
///    query `s` or `T cells` does not match every possessive or *don't*. After a digit it stays
///    (`1990's`, `80's`, found by `1990s` as a compound). An apostrophe at the start of the
///    text or after a space leaves the run a term (`'s-Hertogenbosch`, `rock 'n' roll`).
///
/// A term longer than ``maximumTermLength`` Unicode scalars is cut to that length.
///
/// Changing any of these rules changes ``version``; a stored index built with another version
/// must be rebuilt (see ``version``).
public struct Tokenizer: Sendable, Equatable {
  /// The version of the rules above.
  ///
  /// - 1: the rules without Latin letter folding (`ø`, `ł`, `æ`, … kept as they are).
  /// - 2: Latin letter folding added; Greek letters in scientific notation spelled out.
  /// - 3: breaks (rule 6) leave a position free; `C++`, `C#` and the like are terms of their
  ///   own (rule 1).
  /// - 4: more abbreviations end no sentence (rule 6: `Corp.`, `viz.`, `incl.`, `est.`), some only
  ///   written with one capital (`Mt.`, `Jan.`, `Gen.`, `Ms.`; `ms.` now ends one); language
  ///   names are read as NFKC reads them (`Ｃ＋＋` → `c++`, `Ｃ＃` → `c#`) and may be followed
  ///   by non-ASCII punctuation or a letter of a script written without spaces (`C++。`,
  ///   `C#の`), which before kept the letter alone.
  /// - 5: the Porter stemmer (rule 5) takes the two Step 2 rules of Porter's reference
  ///   implementation (``PorterStemmer``: `logi` → `log`, `bli` → `ble`), so `pathology` and
  ///   `pathological`, `assembly` and `assembled`, `possibly` and `possible` share a stem.
  /// - 6: a full-width or small decimal point or digit-group separator between two digits
  ///   (`０．７`, `２５０，０００`) leaves no position free (rule 6), as `0.7` and `250,000` do:
  ///   they are Terminal_Punctuation, which before ended a sentence there, so a number typed
  ///   whole (`0.7`) could not find its parts next to each other.
  /// - 7: English contraction and possessive endings after an apostrophe are no terms (rule 7):
  ///   they were indexed as the words `s`, `t`, `d` …, which a query of one letter matched.
  /// - 8: the index also holds the parts of camelCase and PascalCase identifiers at the
  ///   identifier's position (``CamelCaseWords``: `getUserProfile` → `get`, `user`, `profil`
  ///   besides `getuserprofil`), not counted in the field's length; the terms of a text are as
  ///   before.
  /// - 9: the index also holds each number written with a decimal point or digit-group
  ///   separator whole (``WholeNumbers``: `v2.3.9` besides `v2`, `3`, `9`, at the position of
  ///   `v2`), not counted in the field's length, so that a number typed (`v2.3`) is matched
  ///   exactly only where it stands whole, and a longer number (`v2.3.9`) only as a prefix
  ///   match; the terms of a text are as before.
  ///
  /// The persisted index records the version its terms were made with
  /// (`meta.lexicalTokenizerVersion`, absent meaning 1) when it is rebuilt or first written.
  /// An index of an older version, or whose recorded version is unreadable, is rebuilt by
  /// ``KnowledgeEngine/prepareSearchIndex()``, which the operations that rank call when they
  /// find it; an index of a newer version is left alone. Where the index is not rebuilt
  /// (read-only workspace, newer index), searches index the records in memory instead, and
  /// `dolphin doctor` reports it.
  public static let version = 9

  /// The longest term kept, in Unicode scalars; longer runs are cut to this length.
  public static let maximumTermLength = 64

  /// The tokenizer of `hybrid-lexical-v1`: every rule above, Porter stemming on.
  public static let standard = Tokenizer(stemming: true)

  /// Whether ASCII-letter terms are Porter-stemmed (on in ``standard``; off only for
  /// measuring what stemming is worth).
  package var stemming: Bool

  /// Whether the index holds the parts of camelCase and PascalCase identifiers besides the
  /// whole word (``CamelCaseWords``, version 8; on in ``standard``): read by
  /// ``LexicalIndexer``, not by the tokenizer, which gives the whole word as before.
  package var indexesCamelCaseParts: Bool

  package init(stemming: Bool, indexesCamelCaseParts: Bool = true) {
    self.stemming = stemming
    self.indexesCamelCaseParts = indexesCamelCaseParts
  }

  /// The terms of `text` with their positions, using ``standard``.
  ///
  /// - Parameter text: any text; empty text gives no tokens.
  /// - Returns: the tokens in text order, positions 0, 1, 2, … with one position left free at
  ///   each break (rule 6).
  /// - Complexity: O(*n*) in the UTF-8 length of `text`. Runs made only of ASCII letters and
  ///   digits take a fast path; other runs pay for Foundation's NFKC/NFD/NFC conversions.
  public static func terms(_ text: String) -> [Token] {
    standard.terms(text)
  }

  /// The terms of `text` with their positions.
  ///
  /// - Parameter text: any text; empty text gives no tokens.
  /// - Returns: the tokens in text order, positions 0, 1, 2, … with one position left free at
  ///   each break (rule 6).
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  public func terms(_ text: String) -> [Token] {
    var tokens: [Token] = []
    forEachTerm(in: text) { term in
      tokens.append(Token(term: term.term, position: term.position))
      return true
    }
    return tokens
  }

  /// One analysed term, with what phrase matching, stop-word removal and snippets need.
  package struct AnalyzedTerm {
    /// The indexed form (stemmed when stemming applies).
    package var term: String
    /// The folded form before stemming, when stemming changed it.
    package var unstemmed: String?
    /// The UTF-8 offsets, in the analysed text, of the run the term came from. Several terms
    /// can share one run (bigrams; a run that normalization split, such as `½` → `1`, `2`).
    package var utf8Range: Range<Int>
    /// Whether the word went on past ``Tokenizer/maximumTermLength`` scalars and the term holds
    /// only its first ones: counted after folding (`ß` is two, `ss`), with format characters
    /// skipped and Greek letters spelled out (`β` is four, `beta`). A word of exactly that
    /// length is whole.
    package var isCut = false
    /// The term's position in the text: 0 for the first, one more for each term after it, and
    /// one more again after a break (rule 6).
    package var position = 0

    /// The folded term before stemming.
    package var surface: String { unstemmed ?? term }
  }

  /// Calls `body` for each term of `text` in order; stops early when `body` returns false.
  package func forEachTerm(in text: String, _ body: (AnalyzedTerm) -> Bool) {
    var text = text
    text.withUTF8 { buffer in
      scan(buffer, locatingOnly: false, body)
    }
  }

  /// The UTF-8 offset in `text` of the run that holds the term at `position` (or, when a break
  /// left that position free, the term after it), or nil when `text` has no term there or
  /// after.
  ///
  /// - Complexity: O(*n*) in the bytes before that term; runs of ASCII letters and digits are
  ///   counted without building their terms.
  package func utf8Offset(ofTermAt position: Int, in text: String) -> Int? {
    var offset: Int?
    var text = text
    text.withUTF8 { buffer in
      scan(buffer, locatingOnly: true) { term in
        guard term.position >= position else { return true }
        offset = term.utf8Range.lowerBound
        return false
      }
    }
    return offset
  }

  // MARK: - Segmentation

  /// When `locatingOnly`, a run of ASCII letters and digits (always exactly one term) is
  /// reported with an empty term, which only position counting may use.
  private func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, locatingOnly: Bool, _ body: (AnalyzedTerm) -> Bool
  ) {
    let count = bytes.count
    var index = 0
    // What the run before was (the context that makes a lone Greek letter scientific notation,
    // see `spellingOutGreekLetters`).
    var previousRun = Neighbor.none
    // Positions and breaks (rule 6).
    var position = 0
    var separators = BreakDetector()
    // The bytes of the run before, when it was ASCII (for abbreviations before a full stop).
    var previousASCIIRun: Range<Int>?
    // Where the run before ended (for English endings after an apostrophe, rule 7).
    var previousRunEnd: Int?
    func emit(_ analyzed: AnalyzedTerm) -> Bool {
      var analyzed = analyzed
      if separators.isBreak && position > 0 { position += 1 }
      separators = BreakDetector()
      analyzed.position = position
      position += 1
      return body(analyzed)
    }
    while index < count {
      // Find the start of a run: a letter, digit or no-space-script character.
      let (first, firstLength) = Self.decode(bytes, at: index)
      switch Self.classify(first) {
      case .word, .noSpace: break
      case .separator, .mark, .ignorable:
        // Whether a full stop ends a sentence depends on the run before it; asked only then.
        if first == "." && !separators.knowsAbbreviation {
          separators.followsAbbreviation =
            previousASCIIRun.map { Self.isAbbreviation(UnsafeBufferPointer(rebasing: bytes[$0])) }
            ?? false
        }
        // A full-width or small decimal point or separator between digits is read as NFKC
        // reads it, as `.` or `,`: `０．７` is `0.7`, which ends no sentence.
        let separator =
          first.value >= 0x80
          ? Self.decimalSeparator(bytes, at: index)?.separator ?? first : first
        separators.note(
          separator, next: index + firstLength < count ? bytes[index + firstLength] : nil)
        index += firstLength
        continue
      }
      let start = index
      var isASCII = true
      var endsLatin = false
      var letters = 0
      var onlyGreek = true
      while index < count {
        let byte = bytes[index]
        if byte < 0x80 {
          guard Self.isASCIIAlphanumeric(byte) else { break }
          index += 1
          endsLatin = true
          letters += 1
          onlyGreek = false
          continue
        }
        let (scalar, length) = Self.decode(bytes, at: index)
        let kind = Self.classify(scalar)
        if case .separator = kind { break }
        switch kind {
        case .word:
          endsLatin = Self.isLatinLetterOrDigit(scalar)
          letters += 1
          if !Self.isGreek(scalar) { onlyGreek = false }
        case .noSpace:
          endsLatin = false
          letters += 1
          onlyGreek = false
        case .separator, .mark, .ignorable: break
        }
        isASCII = false
        index += length
      }
      // A language's name (rule 1) written with a full-width or small `＋` or `＃`, or a
      // full-width letter, is a term of its own; written in ASCII, the run takes its suffix.
      var languageName: String?
      if letters == 1 && index < count,
        let name = Self.languageName(bytes, letter: start..<index)
      {
        if !isASCII || name.end - index != (name.isPlus ? 2 : 1) {
          let suffix: [UInt8] = name.isPlus ? [0x2B, 0x2B] : [0x23]
          languageName = String(decoding: [name.letter] + suffix, as: UTF8.self)
        }
        index = name.end
      }
      let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
      // Rule 7: `'s`, `n't`, `'ll` … glued to the word before are no terms, and leave no
      // position: the runs around them stay as they were.
      if isASCII, languageName == nil, let end = previousRunEnd, Self.isEnglishEnding(run),
        !Self.isASCIIDigit(bytes[end - 1]), Self.apostrophe(bytes, from: end, to: start)
      {
        previousRunEnd = index
        continue
      }
      let keepGoing: Bool
      if let languageName {
        keepGoing = emit(
          AnalyzedTerm(term: languageName, unstemmed: nil, utf8Range: start..<index, isCut: false))
      } else if isASCII {
        keepGoing =
          locatingOnly
          ? emit(AnalyzedTerm(term: "", unstemmed: nil, utf8Range: start..<index, isCut: false))
          : emitASCIIRun(run, range: start..<index, emit)
      } else {
        // Only a short run can be one Greek letter (with its marks); only then is the
        // context looked at.
        var latinContext = false
        if run.count <= 16 {
          let next = Self.nextRun(bytes, from: index)
          latinContext =
            previousRun == .latin || next == .latin || (previousRun != .other && next != .other)
        }
        keepGoing = emitUnicodeRun(run, range: start..<index, latinContext: latinContext, emit)
      }
      previousRun = endsLatin ? .latin : (letters == 1 && onlyGreek ? .loneGreek : .other)
      previousASCIIRun = isASCII && languageName == nil ? start..<index : nil
      previousRunEnd = index
      if !keepGoing { return }
    }
  }

  /// Whether `run` is an English contraction or possessive ending (`s`, `t`, `d`, `m`, `ll`,
  /// `re`, `ve`, any case) — the part of `Müller's`, `don't`, `we'll`, `they're` after the
  /// apostrophe.
  static func isEnglishEnding(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
    switch run.count {
    case 1: return [0x73, 0x74, 0x64, 0x6D].contains(run[0] | 0x20)
    case 2:
      let pair = (run[0] | 0x20, run[1] | 0x20)
      return pair == (0x6C, 0x6C) || pair == (0x72, 0x65) || pair == (0x76, 0x65)
    default: return false
    }
  }

  /// Whether `bytes[from..<to]` is exactly one apostrophe or a character typed for one: `'`
  /// (U+0027), `’` (U+2019), `‘` (U+2018), the full-width `＇` (U+FF07) or a backtick.
  static func apostrophe(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
    switch to - from {
    case 1: return bytes[from] == 0x27 || bytes[from] == 0x60
    case 3:
      return (bytes[from] == 0xE2 && bytes[from + 1] == 0x80 && (bytes[from + 2] == 0x99 || bytes[from + 2] == 0x98))
        || (bytes[from] == 0xEF && bytes[from + 1] == 0xBC && bytes[from + 2] == 0x87)
    default: return false
    }
  }

  static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private func emitASCIIRun(
    _ run: UnsafeBufferPointer<UInt8>, range: Range<Int>, _ body: (AnalyzedTerm) -> Bool
  ) -> Bool {
    var letters = [UInt8]()
    letters.reserveCapacity(min(run.count, Self.maximumTermLength))
    var onlyLetters = true
    for byte in run.prefix(Self.maximumTermLength) {
      if byte >= 0x41 && byte <= 0x5A {
        letters.append(byte | 0x20)
      } else {
        if byte < 0x61 { onlyLetters = false }
        letters.append(byte)
      }
    }
    let folded = String(decoding: letters, as: UTF8.self)
    let isCut = run.count > Self.maximumTermLength
    if stemming && onlyLetters && letters.count > 2 {
      let stem = PorterStemmer.stem(letters)
      if stem != letters {
        return body(
          AnalyzedTerm(
            term: String(decoding: stem, as: UTF8.self), unstemmed: folded, utf8Range: range,
            isCut: isCut))
      }
    }
    return body(AnalyzedTerm(term: folded, unstemmed: nil, utf8Range: range, isCut: isCut))
  }

  /// Reads the separators between two runs and tells whether they make a break (rule 6).
  struct BreakDetector {
    /// Whether the separators read so far make a break.
    private(set) var isBreak = false
    /// Whether the run before was one letter or an abbreviation (``Tokenizer/isAbbreviation(_:)``),
    /// so that a full stop after it ends no sentence (`E. coli`, `U.S. data`, `Dr. Smith`); set
    /// by the scanner at the first full stop, when it is needed.
    var followsAbbreviation = false {
      didSet { knowsAbbreviation = true }
    }
    /// Whether ``followsAbbreviation`` was decided for these separators.
    private(set) var knowsAbbreviation = false
    private var afterPunctuation = false
    private var lineBreaks = 0

    /// Takes the next separator (or skipped mark or format character) `scalar`; `next` is the
    /// byte after it, if any, so that CR LF counts as one line break.
    mutating func note(_ scalar: Unicode.Scalar, next: UInt8?) {
      guard !isBreak else { return }
      switch scalar.value {
      case 0x2E:  // .
        if !followsAbbreviation { afterPunctuation = true }
      case 0x2C, 0x3B, 0x3A, 0x21, 0x3F, 0x2026:  // , ; : ! ? …
        afterPunctuation = true
      case 0x2D, 0x2A, 0x2B, 0x23, 0x3E, 0x7C, 0x2022:
        // A list item, quote or table row starting a line (`- `, `* `, `+ `, `# `, `> `, `|`, `•`).
        if lineBreaks > 0 { isBreak = true }
      case 0x0A, 0x0B, 0x0C, 0x85, 0x2028:
        lineBreaks += 1
      case 0x0D:
        if next != 0x0A { lineBreaks += 1 }
      case 0x2029:
        isBreak = true
      case 0x20, 0x09:
        if afterPunctuation { isBreak = true }
      default:
        if scalar.value >= 0x80 {
          if scalar.properties.isTerminalPunctuation {
            isBreak = true
          } else if afterPunctuation && scalar.properties.isWhitespace {
            isBreak = true
          }
        }
      }
      if lineBreaks >= 2 || (lineBreaks == 1 && afterPunctuation) { isBreak = true }
    }
  }

  /// Abbreviations a full stop does not end a sentence after, in any case (`Dr.`, `dr.`,
  /// `DR.`), besides single letters (initials, `U.S.`, `e.g.`, `i.e.`, `E. coli`): words of
  /// English notes that are almost always followed by what they abbreviate a part of.
  ///
  /// - titles and names: `dr`, `jr`, `messrs`, `mr`, `mrs`, `prof`, `sr`, `st`;
  /// - companies and departments: `corp`, `dept`, `inc`, `ltd` (`Acme Corp. said`, `Dept. of
  ///   Health`; `Co.` is capitalized, below);
  /// - references: `al` (`et al.`), `eq`, `eqs`, `fig`, `figs`, `pp`, `ref`, `refs`, `vol`;
  /// - Latin and English words that introduce what follows: `approx`, `ca`, `cf`, `esp`, `est`,
  ///   `excl`, `incl`, `resp`, `viz`, `vs`.
  ///
  /// Left out on purpose, because notes often end a sentence with them: `etc` and `misc`
  /// (which close lists), `no` (also the word), units (`min`, `max`, `sec`, `hr`, `in`, `lb`,
  /// `oz`), `ed` and `eds`, `ibid` (a citation of its own), `bros`, `llc` and `plc` (a
  /// company's name often ends the sentence), street words (`ave`, `rd`, `blvd`) and days of the
  /// week (`on Fri.`; `Sat.`, `Sun.` and `Wed.` are words too).
  static let abbreviations: Set<String> = [
    "al", "approx", "ca", "cf", "corp", "dept", "dr", "eq", "eqs", "esp", "est", "excl",
    "fig", "figs", "inc", "incl", "jr", "ltd", "messrs", "mr", "mrs", "pp", "prof", "ref", "refs",
    "resp", "sr", "st", "viz", "vol", "vs",
  ]

  /// Abbreviations a full stop does not end a sentence after only when they are written with
  /// one capital and then small letters (`Jan.`, not `jan.` or `JAN.`), because written another
  /// way they are often a word or a unit that ends a sentence: the months (`Jan` … `Dec`,
  /// `Sept`; `mar.` and `dec.` are words of other languages and abbreviations of their own);
  /// military, civil and religious titles (`Adm`, `Capt`, `Col`, `Cpl`, `Gen`, `Gov`, `Hon`,
  /// `Lt`, `Maj`, `Pres`, `Rep`, `Rev`, `Sen`, `Sgt`: `next gen.`, `rev.` of a document, `col.`
  /// of a table); `Mt` and `Ft` (mount and fort, where `ft.` is feet); `Co` (company, where
  /// `CO.` is carbon monoxide or Colorado); and `Ms`, where `ms.` is milliseconds (`took 40 ms.
  /// Then`) and `MS.` an acronym.
  static let capitalizedAbbreviations: Set<String> = [
    "adm", "apr", "aug", "capt", "co", "col", "cpl", "dec", "feb", "ft", "gen", "gov", "hon",
    "jan", "jul", "jun", "lt", "maj", "mar", "ms", "mt", "nov", "oct", "pres", "rep", "rev",
    "sen", "sep", "sept", "sgt",
  ]

  /// ``abbreviations`` and ``capitalizedAbbreviations``, each packed into an integer of its
  /// small letters, one byte each (`"dr"` is `0x6472`), with whether it must be capitalized.
  private static let packedAbbreviations: [UInt64: Bool] = {
    var packed: [UInt64: Bool] = [:]
    for (words, capitalized) in [(abbreviations, false), (capitalizedAbbreviations, true)] {
      for word in words {
        packed[word.utf8.reduce(0) { $0 << 8 | UInt64($1) }] = capitalized
      }
    }
    return packed
  }()

  /// Whether the ASCII `run` is one letter, one of ``abbreviations`` (any case) or one of
  /// ``capitalizedAbbreviations`` written with one capital and then small letters.
  ///
  /// - Complexity: O(1): at most eight bytes are read and one dictionary look-up made; no
  ///   string is built.
  static func isAbbreviation(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = run.first, first | 0x20 >= 0x61 && first | 0x20 <= 0x7A else { return false }
    if run.count == 1 { return true }
    guard run.count <= 8 else { return false }
    // The bytes as written, one each; setting bit 5 of every byte makes an ASCII letter small.
    var written: UInt64 = 0
    for byte in run {
      guard byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A else { return false }
      written = written << 8 | UInt64(byte)
    }
    let lastByte = UInt64(8 * (run.count - 1))
    let small = written | (0x2020_2020_2020_2020 >> (56 - lastByte))
    guard let capitalized = packedAbbreviations[small] else { return false }
    // One capital, then small letters: only the first byte's bit 5 is clear.
    return !capitalized || written == small ^ (0x20 << lastByte)
  }

  /// What a run next to a short non-ASCII run is, for telling Greek notation from Greek prose.
  enum Neighbor: Equatable {
    /// No run: the start or the end of the text.
    case none
    /// A run that ends (before) or starts (after) with a Latin letter or a digit.
    case latin
    /// A run of one Greek letter (with its marks).
    case loneGreek
    /// Anything else: a Greek word, another script.
    case other
  }

  /// What the run after `index` (past separators, marks and format characters) is.
  ///
  /// - Complexity: O(*k*) in the bytes up to the end of that run's first letter's word; called
  ///   only after a short non-ASCII run, so each byte is read at most twice over a whole scan.
  private static func nextRun(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Neighbor {
    var index = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x80 {
        if isASCIIAlphanumeric(byte) { return .latin }
        index += 1
        continue
      }
      let (scalar, length) = decode(bytes, at: index)
      switch classify(scalar) {
      case .word:
        if isLatinLetterOrDigit(scalar) { return .latin }
        guard isGreek(scalar) else { return .other }
        // One Greek letter, unless another letter follows in the same run.
        index += length
        while index < bytes.count {
          let byte = bytes[index]
          if byte < 0x80 { return isASCIIAlphanumeric(byte) ? .other : .loneGreek }
          let (next, nextLength) = decode(bytes, at: index)
          switch classify(next) {
          case .word, .noSpace: return .other
          case .separator: return .loneGreek
          case .mark, .ignorable: index += nextLength
          }
        }
        return .loneGreek
      case .noSpace: return .other
      case .separator, .mark, .ignorable: index += length
      }
    }
    return .none
  }

  /// A letter of the Greek and Coptic or Greek Extended blocks.
  static func isGreek(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0370..<0x0400, 0x1F00..<0x2000: return true
    default: return false
    }
  }

  /// A digit of any script, or a letter of the Latin blocks (Latin-1 Supplement and Extended-A/B,
  /// IPA, Latin Extended Additional/C/D/E, full-width Latin).
  static func isLatinLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x00C0..<0x02B0, 0x1E00..<0x1F00,
      0x2C60..<0x2C80, 0xA720..<0xA800, 0xAB30..<0xAB70, 0xFF10...0xFF19, 0xFF21...0xFF3A,
      0xFF41...0xFF5A:
      return true
    default:
      return scalar.properties.numericType != nil
    }
  }

  /// - Parameter latinContext: whether a run next to this one ends or starts in a Latin letter
  ///   or a digit (`TNF-α`, `α-helix`), or no run next to it is a Greek word (a query `α`,
  ///   `α β`): what makes a lone Greek letter notation.
  private func emitUnicodeRun(
    _ run: UnsafeBufferPointer<UInt8>, range: Range<Int>, latinContext: Bool,
    _ body: (AnalyzedTerm) -> Bool
  ) -> Bool {
    var raw = String.UnicodeScalarView()
    var index = 0
    while index < run.count {
      let (scalar, length) = Self.decode(run, at: index)
      if case .ignorable = Self.classify(scalar) {} else { raw.append(scalar) }
      index += length
    }
    let folded = Self.fold(String(raw))
    // Normalization can split a run (`½` → `1⁄2`) or change scripts (half-width kana), so
    // the folded text is segmented again, without normalizing it a second time.
    var word = String.UnicodeScalarView()
    // Whether `word` dropped letters or marks at the length limit.
    var wordIsCut = false
    var units: [String.UnicodeScalarView] = []
    var currentGroup: UInt8 = 0

    func flushWord() -> Bool {
      guard !word.isEmpty else { return true }
      defer {
        word = String.UnicodeScalarView()
        wordIsCut = false
      }
      return emitWord(word, isCut: wordIsCut, range: range, latinContext: latinContext, body)
    }
    func flushUnits() -> Bool {
      guard !units.isEmpty else { return true }
      defer { units.removeAll(keepingCapacity: true) }
      if units.count == 1 {
        return body(
          AnalyzedTerm(term: String(units[0]), unstemmed: nil, utf8Range: range, isCut: false))
      }
      for i in 0..<(units.count - 1) {
        var bigram = units[i]
        bigram.append(contentsOf: units[i + 1])
        if !body(AnalyzedTerm(term: String(bigram), unstemmed: nil, utf8Range: range, isCut: false))
        {
          return false
        }
      }
      return true
    }

    for scalar in folded.unicodeScalars {
      switch Self.classify(scalar) {
      case .word:
        guard flushUnits() else { return false }
        if word.count < Self.maximumTermLength { word.append(scalar) } else { wordIsCut = true }
      case .noSpace(let group):
        guard flushWord() else { return false }
        if group != currentGroup {
          guard flushUnits() else { return false }
          currentGroup = group
        }
        units.append(String.UnicodeScalarView([scalar]))
      case .mark:
        if !units.isEmpty {
          units[units.count - 1].append(scalar)
        } else if !word.isEmpty {
          if word.count < Self.maximumTermLength { word.append(scalar) } else { wordIsCut = true }
        }
      case .ignorable:
        continue
      case .separator:
        guard flushWord(), flushUnits() else { return false }
      }
    }
    return flushWord() && flushUnits()
  }

  /// - Parameter isCut: whether the word already lost letters at the length limit.
  private func emitWord(
    _ scalars: String.UnicodeScalarView, isCut: Bool, range: Range<Int>, latinContext: Bool,
    _ body: (AnalyzedTerm) -> Bool
  ) -> Bool {
    var scalars = scalars
    var isCut = isCut
    if let spelled = Self.spellingOutGreekLetters(in: scalars, loneLetterIsNotation: latinContext)
    {
      isCut = isCut || spelled.count > Self.maximumTermLength
      scalars = String.UnicodeScalarView(spelled.prefix(Self.maximumTermLength))
    }
    let folded = String(scalars)
    if stemming && scalars.count > 2
      && scalars.allSatisfy({ $0.value >= 0x61 && $0.value <= 0x7A })
    {
      let letters = Array(folded.utf8)
      let stem = PorterStemmer.stem(letters)
      if stem != letters {
        return body(
          AnalyzedTerm(
            term: String(decoding: stem, as: UTF8.self), unstemmed: folded, utf8Range: range,
            isCut: isCut))
      }
    }
    return body(AnalyzedTerm(term: folded, unstemmed: nil, utf8Range: range, isCut: isCut))
  }

  /// The English names of the 24 Greek lowercase letters, `α` (U+03B1) to `ω` (U+03C9), in
  /// code point order; final `ς` (U+03C2) never reaches the tokenizer's words (case folding
  /// makes it `σ`) and is listed as `sigma` so the table stays indexed by code point.
  package static let greekLetterNames: [String] = [
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "sigma", "tau", "upsilon",
    "phi", "chi", "psi", "omega",
  ]

  /// `word` with its Greek letters spelled out by their English names when the word is
  /// scientific notation rather than Greek prose:
  /// - Greek letters inside a word that also has other letters or digits (`IL-1β` → `1beta`,
  ///   `NF-κB` → `kappab`, `PPARγ` → `ppargamma`, `Aβ42` → `abeta42`) — except `μ`, which there is
  ///   almost always the micro prefix of a unit (`μm`, `μg`, `5μM`) and stays as it is;
  /// - a lone Greek letter when `loneLetterIsNotation`: a word next to it ends or starts in a Latin
  ///   letter or digit (`TNF-α`, `α-helix`, `α and β cells`, `μ-opioid`), or no word next to it is
  ///   a Greek word (the queries `α`, `α β`).
  ///
  /// Words of Greek letters only stay Greek, and so does a lone letter among Greek words (the
  /// articles `ο` and `η` in `Ο Γιάννης και η Μαρία`). Written-out and symbol forms then meet
  /// (`TNF-alpha`, `IL-1beta`, `NF-kappaB`), as in PubMed's search, which turns `β` into `beta`.
  ///
  /// - Parameters:
  ///   - word: a folded word (lowercase, marks of Greek letters already removed; NFKC has already
  ///     made `µ` (micro sign) `μ` and `ϐ`, `ϑ`, `ϕ`, `ϰ`, `ϱ`, `ϖ` plain letters).
  ///   - loneLetterIsNotation: whether a one-letter word is spelled out.
  /// - Returns: the spelled-out word, whole (it can be longer than ``maximumTermLength``: the
  ///   caller cuts it and notes the cut), or nil when nothing changes.
  /// - Complexity: O(*n*) in the word's scalars.
  static func spellingOutGreekLetters(
    in word: String.UnicodeScalarView, loneLetterIsNotation: Bool
  ) -> String.UnicodeScalarView? {
    var spellable = false
    var hasOther = false
    for scalar in word {
      switch scalar.value {
      case 0x03BC: continue  // μ: see above
      case 0x03B1...0x03C9: spellable = true
      default: if !isGreek(scalar) { hasOther = true }
      }
    }
    let lone = word.count == 1 && loneLetterIsNotation
    if lone, let only = word.first, only.value == 0x03BC { spellable = true }
    guard spellable, hasOther || lone else { return nil }
    var spelled = String.UnicodeScalarView()
    for scalar in word {
      if case 0x03B1...0x03C9 = scalar.value, lone || scalar.value != 0x03BC {
        spelled.append(contentsOf: greekLetterNames[Int(scalar.value - 0x03B1)].unicodeScalars)
      } else {
        spelled.append(scalar)
      }
    }
    return spelled
  }

  // MARK: - Normalization

  /// NFKC, full case folding, diacritic folding for Latin/Greek/Cyrillic/Hebrew/Arabic, Latin
  /// letter folding (``asciiLetters(ofLatinLetter:)``), NFC.
  package static func fold(_ text: String) -> String {
    let compatible = foldingLWithMiddleDot(text).precomposedStringWithCompatibilityMapping
    var folded = String.UnicodeScalarView()
    var needsMarkFolding = false
    for scalar in compatible.unicodeScalars {
      let value = scalar.value
      if value < 0x80 {
        folded.append(
          value >= 0x41 && value <= 0x5A ? Unicode.Scalar(UInt8(value) | 0x20) : scalar)
        continue
      }
      if scalar.properties.changesWhenCaseMapped {
        folded.append(
          contentsOf: String(scalar).lowercased().uppercased().lowercased().unicodeScalars)
      } else {
        folded.append(scalar)
      }
      if isDiacriticFoldingBase(value) || isCombiningMark(scalar)
        || asciiLetters(ofLatinLetter: value) != nil
      {
        needsMarkFolding = true
      }
    }
    guard needsMarkFolding else { return String(folded) }

    let decomposed = String(folded).decomposedStringWithCanonicalMapping
    var stripped = String.UnicodeScalarView()
    var baseIsFoldable = false
    for scalar in decomposed.unicodeScalars {
      let category = scalar.properties.generalCategory
      if category == .nonspacingMark || category == .enclosingMark {
        if baseIsFoldable { continue }
      } else if let letters = asciiLetters(ofLatinLetter: scalar.value) {
        // After the marks are gone, so `ǿ` (`ø` + acute) folds like `ø`.
        baseIsFoldable = true
        stripped.append(contentsOf: letters.unicodeScalars)
        continue
      } else {
        baseIsFoldable = isDiacriticFoldingBase(scalar.value)
      }
      if scalar.value == 0x0640 { continue }  // Arabic tatweel (kashida) only stretches a word.
      stripped.append(scalar)
    }
    return CanonicalComposition.nfc(String(stripped))
  }

  /// `text` with `ŀ` and `Ŀ` (Catalan l with middle dot) as `l` and `L`, as ICU's Latin-ASCII
  /// writes them; NFKC would make them `l·`, and the middle dot separates words.
  private static func foldingLWithMiddleDot(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value == 0x013F || $0.value == 0x0140 })
    else { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x013F: scalars.append("L")
      case 0x0140: scalars.append("l")
      default: scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  /// Latin, IPA, Greek, Cyrillic, Armenian, Hebrew and Arabic letters, whose marks are
  /// diacritics that searchers expect to ignore.
  private static func isDiacriticFoldingBase(_ value: UInt32) -> Bool {
    switch value {
    case 0x0000..<0x0700, 0x0750..<0x0780, 0x08A0..<0x0900, 0x1E00..<0x2000, 0x2C60..<0x2C80,
      0xA720..<0xA800, 0xAB30..<0xAB70:
      return true
    default:
      return false
    }
  }

  private static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  // MARK: - Character classes

  enum ScalarClass: Equatable {
    /// Ends a run.
    case separator
    /// Skipped inside a run (general category Cf).
    case ignorable
    /// A combining mark: belongs to the character before it.
    case mark
    /// A letter or number of a script written with spaces.
    case word
    /// A letter or number of a script written without spaces, with its group (1 CJK, 2 Thai,
    /// 3 Lao, 4 Myanmar, 5 Khmer); bigrams never cross groups.
    case noSpace(UInt8)
  }

  /// The programming language's name that the one-letter run `letter` begins (`C++`, `C#`,
  /// `F#`, `g++`, `C++17`; rule 1), as NFKC writes it: a letter that NFKC makes one ASCII
  /// letter (`C`, full-width `Ｃ`), then `++` or `#`, each sign ASCII, full-width or small (`＋`
  /// U+FF0B, `﹢` U+FE62, `＃` U+FF03, `﹟` U+FE5F: `Ｃ＋＋` is `c++`), then no letter, `+`
  /// or `#` (`C+++`, `C#d` and `C##` keep the letter alone). A number may follow (`C++17`,
  /// `C#10`), as may a letter of a script written without spaces (`C#の`). The superscript and
  /// subscript plus signs (`⁺`, `₊`), which NFKC also makes `+`, write charges (`H⁺`), not
  /// names.
  ///
  /// - Parameters:
  ///   - bytes: the text, in UTF-8.
  ///   - letter: the run, of one letter (with no marks) and not at the end of `bytes`.
  /// - Returns: the offset after the name, its letter (ASCII, small) and whether its suffix is
  ///   `++` (else `#`); nil when the run is no language's name.
  /// - Complexity: O(1). A Unicode normalization runs only for a non-ASCII letter that a sign
  ///   follows.
  static func languageName(_ bytes: UnsafeBufferPointer<UInt8>, letter: Range<Int>)
    -> (end: Int, letter: UInt8, isPlus: Bool)?
  {
    guard let first = languageSign(bytes, at: letter.upperBound) else { return nil }
    var end = letter.upperBound + first.length
    let isPlus = first.sign == 0x2B
    if isPlus {
      guard end < bytes.count, let second = languageSign(bytes, at: end), second.sign == 0x2B
      else { return nil }
      end += second.length
    }
    guard endsLanguageName(bytes, at: end) else { return nil }
    var ascii = bytes[letter.lowerBound]
    if letter.count > 1 {
      let (scalar, length) = decode(bytes, at: letter.lowerBound)
      let compatible = String(scalar).precomposedStringWithCompatibilityMapping.utf8
      guard length == letter.count, compatible.count == 1, let only = compatible.first else {
        return nil
      }
      ascii = only
    }
    let small = ascii | 0x20
    guard small >= 0x61 && small <= 0x7A else { return nil }
    return (end, small, isPlus)
  }

  /// The `+` or `#` at `index`, ASCII, full-width or small, and its length in bytes; nil for
  /// any other character.
  @inline(__always)
  private static func languageSign(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int)
    -> (sign: UInt8, length: Int)?
  {
    let byte = bytes[index]
    if byte == 0x2B || byte == 0x23 { return (byte, 1) }
    // U+FE5F, U+FE62, U+FF03 and U+FF0B are EF B9 9F, EF B9 A2, EF BC 83 and EF BC 8B.
    guard byte == 0xEF, index + 2 < bytes.count else { return nil }
    switch (bytes[index + 1], bytes[index + 2]) {
    case (0xBC, 0x8B), (0xB9, 0xA2): return (0x2B, 3)
    case (0xBC, 0x83), (0xB9, 0x9F): return (0x23, 3)
    default: return nil
    }
  }

  /// Whether a language's name may end before `index`: at the end of the text, or before a
  /// character that is no letter (a digit may follow), no `+` or `#` of any width, and no mark
  /// or format character.
  private static func endsLanguageName(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool
  {
    guard index < bytes.count else { return true }
    let byte = bytes[index]
    if byte < 0x80 {
      let small = byte | 0x20
      return !(small >= 0x61 && small <= 0x7A) && byte != 0x2B && byte != 0x23
    }
    if languageSign(bytes, at: index) != nil { return false }
    let (scalar, _) = decode(bytes, at: index)
    switch classify(scalar) {
    case .separator, .noSpace: return true
    case .word: return scalar.properties.numericType != nil
    case .mark, .ignorable: return false
    }
  }

  static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
  }

  static func classify(_ scalar: Unicode.Scalar) -> ScalarClass {
    let value = scalar.value
    if value < 0x80 {
      return isASCIIAlphanumeric(UInt8(value)) ? .word : .separator
    }
    let properties = scalar.properties
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark:
      return .mark
    case .format:
      return .ignorable
    default:
      break
    }
    guard properties.isAlphabetic || properties.numericType != nil else { return .separator }
    if let group = noSpaceGroup(value) { return .noSpace(group) }
    return .word
  }

  /// The no-space script group of a letter or number, by Unicode block.
  private static func noSpaceGroup(_ value: UInt32) -> UInt8? {
    switch value {
    case 0x2E80..<0x2FE0, 0x3005...0x3007, 0x3021...0x3029, 0x3031...0x3035, 0x303B...0x303C,
      0x3040..<0x3100, 0x3100..<0x3130, 0x31A0..<0x3200, 0x3400..<0x4DC0, 0x4E00..<0xA000,
      0xF900..<0xFB00, 0xFF66..<0xFFA0, 0x1B000..<0x1B170, 0x20000..<0x323B0:
      return 1
    case 0x0E00..<0x0E80: return 2
    case 0x0E80..<0x0F00: return 3
    case 0x1000..<0x10A0, 0xA9E0..<0xAA00, 0xAA60..<0xAA80: return 4
    case 0x1780..<0x1800, 0x19E0..<0x1A00: return 5
    default: return nil
    }
  }

  /// Decodes the scalar at `index` of valid UTF-8 (Swift strings always are).
  @inline(__always)
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
    let b0 = UInt32(bytes[index])
    let value: UInt32
    let length: Int
    if b0 < 0x80 {
      return (Unicode.Scalar(UInt8(b0)), 1)
    } else if b0 < 0xE0 {
      value = (b0 & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
      length = 2
    } else if b0 < 0xF0 {
      value =
        (b0 & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6
        | UInt32(bytes[index + 2] & 0x3F)
      length = 3
    } else {
      value =
        (b0 & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
        | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
      length = 4
    }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
  }
}
