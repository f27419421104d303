import Foundation

/// Finds the delimiters of ``Sanitizer/delimiters`` in a run of Unicode scalars.
///
/// Detection and rewriting both go through ``matches(in:table:)``, so a text is reported live
/// exactly when sanitizing would change a bracket in it. Removing hidden-reasoning blocks
/// (``Sanitizer/removingTagBlocks(named:from:)``) reads its tags with the same rules, from a
/// table of its own.
///
/// Matching reads a delimiter as a model would, not only as its ASCII spelling:
/// - default-ignorable characters (``Sanitizer/isDefaultIgnorable(_:)``: a soft hyphen, a
///   variation selector, a Hangul filler, …), which show nothing, are read past wherever they
///   stand between the opening bracket and the end of the name, as whitespace is:
///   `<\u{AD}system>`, `<|im\u{AD}_start|>` and `[\u{AD}INST]` are delimiters;
/// - combining marks (General_Category Mn or Me, ``isCombiningMark(_:)``) are read past between
///   the opening bracket and the name, and between the two `>` of `>>`: a mark there sits on a
///   bracket, bar, slash or space, which still reads as what it is, so `<\u{301}system>`,
///   `<\u{20D2}/system>`, `<|\u{301}im_start|>` and `[\u{301}INST]` are delimiters. Inside the
///   name a mark is not read past: it makes its letter another letter (NFC has composed most such
///   pairs already, `s` + U+0301 into `ś`), so `<sy\u{301}stem>` names no delimiter, as `<systém>`
///   does not. A mark that NFC composes with the bracket itself leaves no bracket: `<` + U+0338
///   is `≮` U+226E, which is not read as `<`;
/// - a compatibility form that NFKC folds to one ASCII character is read as that character:
///   the brackets, bar and slash of ``punctuation(_:)`` (`＜system＞`, `﹤system﹥`,
///   `［INST］`), and name characters (`＜ｓｙｓｔｅｍ＞`, see ``compatibilityFolded(_:)``).
///
/// Why rewriting is idempotent: a match starts at a `<` or `[` (``isOpeningBracket(_:)``) and
/// is decided by what follows up to the end of the name, the scalar just before the `<` and,
/// for a type argument (`Array<User>`), the scalar just after the name and whether a `<` there
/// opens a match. Rewriting replaces only brackets, with look-alikes that are neither brackets
/// (nor fold to one) nor word characters nor default-ignorable nor combining marks, and that
/// NFC composes with no mark after them, so in the rewritten text every remaining `<` or `[`
/// sees the same name and neighbours it saw before (or a look-alike where a bracket was, which
/// ends the match just as early). The one neighbour a rewrite can change
/// is a nested `<` after a type argument's name (`Array<User<system>>`), and only when that `<`
/// opened a match, in which case the outer `<` was not a type argument either and was rewritten
/// too. The `>` after a type argument's name is never rewritten: a match's closing bracket is
/// looked for only up to the next `<`, and the type argument's own `<` comes first. A `<` that
/// was not a match then is not one now. A delimiter spelled exactly
/// (``Sanitizer/Delimiter/isExactSpelling``: `<s>`, any pipe token outside the table) is also
/// decided by the `|` and `>` right after its name; no `<` stands between them and its own
/// `<`, so no other match's closing bracket is among them, and a rewrite cannot change them.
struct DelimiterScanner {
  /// One delimiter found in the text.
  struct Match: Equatable {
    /// The table entry that matched.
    var delimiter: Sanitizer.Delimiter
    /// Offsets (in scalars) of the brackets that belong to the match (ASCII, or a
    /// compatibility form of ``punctuation(_:)``), ascending: the opening bracket or brackets,
    /// then the closing ones when the delimiter is closed.
    var brackets: [Int]
    /// Whether a `/` stands between the opening bracket and the name (`</system>`, `[/INST]`).
    var isClosing = false
  }

  /// The delimiters to look for, keyed for matching.
  struct Table: Sendable {
    fileprivate let index: [Key: Sanitizer.Delimiter]
    /// The longest name, in scalars; longer identifiers are not looked up.
    fileprivate let longestName: Int
    /// Whether a pipe token that is not in the table matches too, spelled exactly, with a name
    /// of at most ``Sanitizer/anyPipeTokenNameLimit`` scalars.
    fileprivate let matchesAnyPipeToken: Bool

    /// Keys `delimiters` by shape and lowercased name (the first of two equal keys wins).
    /// - Parameter matchesAnyPipeToken: whether any exactly spelled pipe token matches too.
    init(_ delimiters: [Sanitizer.Delimiter], matchesAnyPipeToken: Bool = false) {
      index = Dictionary(
        delimiters.map { (Key(shape: $0.shape, name: $0.name.lowercased()), $0) },
        uniquingKeysWith: { first, _ in first })
      longestName = delimiters.map(\.name.unicodeScalars.count).max() ?? 0
      self.matchesAnyPipeToken = matchesAnyPipeToken
    }

    /// The longest name looked for after brackets of `shape`.
    fileprivate func longestName(_ shape: Sanitizer.Delimiter.Shape) -> Int {
      shape == .pipeToken && matchesAnyPipeToken ? max(longestName, Sanitizer.anyPipeTokenNameLimit) : longestName
    }

    /// ``Sanitizer/delimiters``, and any other pipe token spelled exactly: what sanitizing
    /// neutralizes.
    static let sanitizer = Table(Sanitizer.delimiters, matchesAnyPipeToken: true)
  }

  /// How far past the name a closing bracket is looked for, in scalars. Attributes longer
  /// than this leave the delimiter unclosed: its opening bracket is still neutralized.
  static let closingSearchLimit = 256

  /// The visible look-alike for each bracket that a match rewrites, ASCII or a compatibility
  /// form of it (`＜` becomes `‹` as `<` does).
  static func lookAlike(for bracket: Unicode.Scalar) -> Unicode.Scalar {
    switch punctuation(bracket) {
    case "<": "\u{2039}"  // ‹ single left-pointing angle quotation mark
    case ">": "\u{203A}"  // › single right-pointing angle quotation mark
    case "[": "\u{27E6}"  // ⟦ mathematical left white square bracket
    case "]": "\u{27E7}"  // ⟧ mathematical right white square bracket
    default: bracket
    }
  }

  fileprivate struct Key: Hashable {
    var shape: Sanitizer.Delimiter.Shape
    var name: String
  }

  /// Every delimiter of `table` in `scalars`, in order of their opening bracket.
  ///
  /// - Parameters:
  ///   - scalars: NFC text, already stripped of the characters the sanitizer drops.
  ///   - table: The delimiters to look for; by default those sanitizing neutralizes.
  /// - Returns: The matches; empty when the text holds no live delimiter.
  /// - Complexity: O(*n*): whitespace and names are read at most twice (once more for the
  ///   first `<` of `<<`), and each match looks at most ``closingSearchLimit`` scalars past
  ///   its name.
  static func matches(in scalars: [Unicode.Scalar], table: Table = .sanitizer) -> [Match] {
    // Right to left, so that a nested `<` (`Array<User<system>>`) is decided before the type
    // argument that encloses it.
    var found: [Match] = []
    var opening = Set<Int>()
    for offset in scalars.indices.reversed() where isOpeningBracket(scalars[offset]) {
      if let match = match(at: offset, in: scalars, opening: opening, table: table) {
        found.append(match)
        opening.insert(offset)
      }
    }
    return found.reversed()
  }

  /// True when ``matches(in:)`` would find at least one delimiter.
  static func containsMatch(in scalars: [Unicode.Scalar]) -> Bool {
    !matches(in: scalars).isEmpty
  }

  /// The delimiter of `table` whose opening bracket is at `start`, if any.
  ///
  /// - Parameter opening: The offsets after `start` whose bracket opens a match.
  private static func match(at start: Int, in s: [Unicode.Scalar], opening: Set<Int>, table: Table) -> Match? {
    var brackets = [start]
    var cursor = start + 1
    let shape: Sanitizer.Delimiter.Shape
    if punctuation(s[start]) == "[" {
      shape = .square
    } else {
      let next = skipSpacing(in: s, from: cursor)
      let following = next < s.count ? punctuation(s[next]) : nil
      if following == "<" {
        shape = .doubleAngle
        brackets.append(next)
        cursor = next + 1
      } else if following == "|" {
        shape = .pipeToken
        cursor = next + 1
      } else {
        shape = .tag
      }
    }

    cursor = skipSpacing(in: s, from: cursor)
    let isClosing = cursor < s.count && punctuation(s[cursor]) == "/"
    if isClosing { cursor = skipSpacing(in: s, from: cursor + 1) }

    // The name, folded, read past default-ignorable characters; at most one scalar past the
    // longest name, which is enough to know it is no name of the table.
    let nameStart = cursor
    var nameEnd = cursor
    var name: [Unicode.Scalar] = []
    // Plain ASCII name characters only, nothing skipped or folded: only such a name can be a
    // type argument, as code spells one.
    var isPlainName = true
    let longestName = table.longestName(shape)
    while cursor < s.count, name.count <= longestName {
      let scalar = s[cursor]
      if Sanitizer.isDefaultIgnorable(scalar) {
        isPlainName = false
      } else {
        let folded = compatibilityFolded(scalar)
        guard isNameScalar(folded) else { break }
        if folded != scalar { isPlainName = false }
        name.append(folded)
        nameEnd = cursor + 1
      }
      cursor += 1
    }
    guard !name.isEmpty, name.count <= longestName, !continuesWord(s, at: cursor) else {
      return nil
    }
    let key = Key(shape: shape, name: foldedName(name))
    let delimiter: Sanitizer.Delimiter
    if let listed = table.index[key] {
      delimiter = listed
    } else if shape == .pipeToken, table.matchesAnyPipeToken {
      // Any other pipe token, spelled exactly (review 31-a, 3: harmony's `<|channel|>`).
      delimiter = Sanitizer.Delimiter(.pipeToken, key.name, isVocabularyToken: true, isExactSpelling: true)
    } else {
      return nil
    }
    // `Array<User>`: a type argument, not a tag. `notes</user>`, `x< user>`, `ab<system>`,
    // `x<User attr=1>`, `x＜User＞` and `x<Us\u{AD}er>` stay live.
    if !delimiter.isVocabularyToken, isPlainName, s[start] == "<", nameStart == start + 1, start > 0,
      isGenericTypePrefix(s[start - 1]),
      isTypeArgument(in: s, nameStart: nameStart, nameEnd: nameEnd, opening: opening)
    {
      return nil
    }

    if delimiter.isExactSpelling {
      guard let closer = exactClosingBracket(in: s, start: start, nameStart: nameStart, nameEnd: nameEnd, shape: shape)
      else { return nil }
      return Match(delimiter: delimiter, brackets: [start, closer], isClosing: isClosing)
    }

    // The closing bracket, if there is one before the next delimiter could begin.
    let (closer, reopener): (Unicode.Scalar, Unicode.Scalar) =
      shape == .square ? ("]", "[") : (">", "<")
    let searchEnd = min(s.count, cursor + closingSearchLimit)
    while cursor < searchEnd {
      let bracket = punctuation(s[cursor])
      if bracket == reopener { break }
      if bracket == closer {
        brackets.append(cursor)
        if shape == .doubleAngle {
          let second = skipIgnorableOrMark(in: s, from: cursor + 1)
          if second < s.count, punctuation(s[second]) == ">" { brackets.append(second) }
        }
        break
      }
      cursor += 1
    }
    return Match(delimiter: delimiter, brackets: brackets, isClosing: isClosing)
  }

  /// The offset of the closing bracket of a delimiter spelled exactly
  /// (``Sanitizer/Delimiter/isExactSpelling``) whose opening bracket is at `start` and whose
  /// name is at `nameStart..<nameEnd`: no whitespace from the bracket to the name, and right
  /// after the name its closing bracket, `>` for a tag, `|>` for a pipe token (read as
  /// ``punctuation(_:)`` reads them, past default-ignorable characters and combining marks).
  /// Nil when the text spells it otherwise (`< s >`, `<s id=1>`, `<|start |>`, `<|start`).
  /// - Complexity: O(*k*) in the scalars from `start` to the closing bracket.
  private static func exactClosingBracket(
    in s: [Unicode.Scalar], start: Int, nameStart: Int, nameEnd: Int, shape: Sanitizer.Delimiter.Shape
  ) -> Int? {
    guard !s[start..<nameStart].contains(where: \.properties.isWhitespace) else { return nil }
    var offset = skipIgnorableOrMark(in: s, from: nameEnd)
    if shape == .pipeToken {
      guard offset < s.count, punctuation(s[offset]) == "|" else { return nil }
      offset = skipIgnorableOrMark(in: s, from: offset + 1)
    }
    guard offset < s.count, punctuation(s[offset]) == ">" else { return nil }
    return offset
  }

  /// Whether `match`, closed, ends with `/>` (`<system/>`, `<think />`): a tag that opens and
  /// closes at once. Read as the name is: White_Space, default-ignorable characters and
  /// combining marks between the `/` and the `>` are read past.
  static func isSelfClosing(_ match: Match, in s: [Unicode.Scalar]) -> Bool {
    guard match.brackets.count > 1, let closer = match.brackets.last else { return false }
    var offset = closer - 1
    while offset > match.brackets[0], s[offset].properties.isWhitespace || isIgnorableOrMark(s[offset]) {
      offset -= 1
    }
    return offset > match.brackets[0] && punctuation(s[offset]) == "/"
  }

  /// The first offset from `offset` on whose scalar is neither White_Space nor
  /// default-ignorable nor a combining mark: what is read past between an opening bracket and
  /// the name.
  private static func skipSpacing(in s: [Unicode.Scalar], from offset: Int) -> Int {
    var offset = offset
    while offset < s.count, s[offset].properties.isWhitespace || isIgnorableOrMark(s[offset]) {
      offset += 1
    }
    return offset
  }

  /// The first offset from `offset` on whose scalar is neither default-ignorable nor a
  /// combining mark.
  private static func skipIgnorableOrMark(in s: [Unicode.Scalar], from offset: Int) -> Int {
    var offset = offset
    while offset < s.count, isIgnorableOrMark(s[offset]) { offset += 1 }
    return offset
  }

  private static func isIgnorableOrMark(_ scalar: Unicode.Scalar) -> Bool {
    Sanitizer.isDefaultIgnorable(scalar) || isCombiningMark(scalar)
  }

  /// Whether `scalar` is a nonspacing or enclosing combining mark (General_Category Mn or Me:
  /// U+0301 combining acute accent, U+20D2 combining long vertical line overlay, U+20DD
  /// combining enclosing circle), which draws on the character before it and takes no place of
  /// its own. Spacing marks (Mc) take a place, as a letter does, and are not included.
  /// - Complexity: O(1); no scalar below U+0300 is one.
  static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
    guard scalar.value >= 0x300 else { return false }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark: return true
    default: return false
    }
  }

  /// The first offset from `offset` on whose scalar is not default-ignorable.
  private static func skipIgnorable(in s: [Unicode.Scalar], from offset: Int) -> Int {
    var offset = offset
    while offset < s.count, Sanitizer.isDefaultIgnorable(s[offset]) { offset += 1 }
    return offset
  }

  /// The delimiter punctuation `scalar` is read as: `<`, `>`, `[`, `]`, `|` or `/` for the
  /// ASCII character itself and for each compatibility form that NFKC folds to it — fullwidth
  /// `＜` U+FF1C, `＞` U+FF1E, `［` U+FF3B, `］` U+FF3D, `｜` U+FF5C and `／` U+FF0F
  /// (decomposition type `<wide>` in the Unicode Character Database's `UnicodeData.txt`), small
  /// `﹤` U+FE64 and `﹥` U+FE65 (`<small>`), and the vertical presentation forms `﹇` U+FE47 and
  /// `﹈` U+FE48 (`<vertical>`); `scalar` itself for everything else.
  ///
  /// NFKC folds no other scalar to one of these six (the tests check every scalar). The angle
  /// brackets `〈` U+2329, `〉` U+232A, `〈` U+3008 and `〉` U+3009 are not among them: NFKC
  /// keeps them angle brackets (U+2329 and U+232A become U+3008 and U+3009), so they are not
  /// read as `<` and `>`.
  /// - Complexity: O(1), without normalizing: the brackets are looked for at every scalar.
  static func punctuation(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    switch scalar.value {
    case 0xFF1C, 0xFE64: "<"
    case 0xFF1E, 0xFE65: ">"
    case 0xFF3B, 0xFE47: "["
    case 0xFF3D, 0xFE48: "]"
    case 0xFF5C: "|"
    case 0xFF0F: "/"
    default: scalar
    }
  }

  /// Whether `scalar` may open a delimiter: it is read as `<` or `[` (``punctuation(_:)``).
  static func isOpeningBracket(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "<" || scalar == "[" { return true }
    guard !scalar.isASCII else { return false }
    let bracket = punctuation(scalar)
    return bracket == "<" || bracket == "["
  }

  /// `scalar` as a name, `@` or `.` is read: itself when it is ASCII or `▁`; otherwise the one
  /// ASCII character NFKC folds it to, when it folds to exactly one (fullwidth `ｓ` U+FF53 →
  /// `s`, `＿` U+FF3F → `_`, mathematical bold `𝐬` U+1D42C → `s`, `＠` U+FF20 → `@`), and itself
  /// when it does not (`é`, `ﬁ` U+FB01, which folds to two letters).
  /// - Complexity: one NFKC normalization of one scalar for a non-ASCII scalar outside the
  ///   fullwidth forms; called only on the few scalars after a bracket.
  static func compatibilityFolded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    let value = scalar.value
    if value < 0x80 || value == 0x2581 { return scalar }
    // Fullwidth ASCII, U+FF01–U+FF5E: the `<wide>` forms of U+0021–U+007E, at a fixed offset.
    if (0xFF01...0xFF5E).contains(value) { return Unicode.Scalar(UInt8(value - 0xFEE0)) }
    let folded = String(Character(scalar)).precomposedStringWithCompatibilityMapping.unicodeScalars
    guard let first = folded.first, first.isASCII, folded.index(after: folded.startIndex) == folded.endIndex
    else { return scalar }
    return first
  }

  /// ASCII letters, digits, `_`, `-`, and DeepSeek's `▁` (U+2581).
  private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "_", "-", "\u{2581}": true
    default: false
    }
  }

  /// True when the name read so far is the start of a longer word rather than a tag name:
  /// an e-mail address (`<user@example.com>`) or a dotted name (`<system.md>`).
  private static func continuesWord(_ s: [Unicode.Scalar], at offset: Int) -> Bool {
    guard offset < s.count else { return false }
    switch compatibilityFolded(s[offset]) {
    case "@": return true
    case ".":
      let after = skipIgnorable(in: s, from: offset + 1)
      guard after < s.count else { return false }
      let next = compatibilityFolded(s[after])
      return (next.isASCII && next.properties.isAlphabetic) || ("0"..."9").contains(next)
    default: return false
    }
  }

  /// True when the name at `nameStart..<nameEnd`, glued to the `<` before it, reads as a type
  /// argument: it starts with an uppercase ASCII letter, as type names do, and is followed
  /// directly by `>` (`Array<User>`), `,` (`Result<Tool, Error>`) or a nested `<` that opens no
  /// delimiter (`Array<User<Int>>`). A space, an attribute or a `/` after the name
  /// (`x<System >`, `x<System a=1>`, `x<System/>`) makes it a tag.
  private static func isTypeArgument(
    in s: [Unicode.Scalar], nameStart: Int, nameEnd: Int, opening: Set<Int>
  ) -> Bool {
    guard ("A"..."Z").contains(s[nameStart]), nameEnd < s.count else { return false }
    switch s[nameEnd] {
    case ">", ",": return true
    case "<": return !opening.contains(nameEnd)
    default: return false
    }
  }

  /// A scalar that, glued to a `<`, may make it a generic type argument (`Array<User>`).
  private static func isGenericTypePrefix(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "_": true
    default: false
    }
  }

  /// The table key for a name read by ``compatibilityFolded(_:)``: ASCII-lowercased, with `▁`
  /// read as `_`.
  private static func foldedName(_ scalars: [Unicode.Scalar]) -> String {
    var name = String.UnicodeScalarView()
    for scalar in scalars {
      switch scalar {
      case "A"..."Z": name.append(Unicode.Scalar(scalar.value + 0x20) ?? scalar)
      case "\u{2581}": name.append("_")
      default: name.append(scalar)
      }
    }
    return String(name)
  }
}
