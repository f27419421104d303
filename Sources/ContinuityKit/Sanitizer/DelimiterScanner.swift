/// Finds the delimiters of ``Sanitizer/delimiters`` in a run of Unicode scalars.
///
/// Detection and rewriting both go through ``matches(in:)``, so a text is reported live
/// exactly when sanitizing would change a bracket in it.
///
/// Why rewriting is idempotent: a match starts at an ASCII `<` or `[` and is decided by what
/// follows up to the end of the name, the scalar just before the `<` and, for a type argument
/// (`Array<User>`), the scalar just after the name and whether a `<` there opens a match.
/// Rewriting replaces only ASCII brackets, with look-alikes that are neither brackets nor word
/// characters, so in the rewritten text every remaining ASCII `<` or `[` sees the same name and
/// neighbours it saw before (or a look-alike where a bracket was, which ends the match just as
/// early). The one neighbour a rewrite can change is a nested `<` after a type argument's name
/// (`Array<User<system>>`), and only when that `<` opened a match, in which case the outer `<`
/// was not a type argument either and was rewritten too. The `>` after a type argument's name is
/// never rewritten: a match's closing bracket is looked for only up to the next `<`, and the
/// type argument's own `<` comes first. A `<` that was not a match then is not one now.
struct DelimiterScanner {
  /// One delimiter found in the text.
  struct Match: Equatable {
    /// The table entry that matched.
    var delimiter: Sanitizer.Delimiter
    /// Offsets (in scalars) of the ASCII brackets that belong to the match, ascending: the
    /// opening bracket or brackets, then the closing ones when the delimiter is closed.
    var brackets: [Int]
  }

  /// How far past the name a closing bracket is looked for, in scalars. Attributes longer
  /// than this leave the delimiter unclosed: its opening bracket is still neutralized.
  static let closingSearchLimit = 256

  /// The visible look-alike for each ASCII bracket that a match rewrites.
  static func lookAlike(for bracket: Unicode.Scalar) -> Unicode.Scalar {
    switch bracket {
    case "<": "\u{2039}"  // ‹ single left-pointing angle quotation mark
    case ">": "\u{203A}"  // › single right-pointing angle quotation mark
    case "[": "\u{27E6}"  // ⟦ mathematical left white square bracket
    case "]": "\u{27E7}"  // ⟧ mathematical right white square bracket
    default: bracket
    }
  }

  private struct Key: Hashable {
    var shape: Sanitizer.Delimiter.Shape
    var name: String
  }

  /// ``Sanitizer/delimiters`` keyed by shape and lowercased name.
  private static let index: [Key: Sanitizer.Delimiter] = Dictionary(
    Sanitizer.delimiters.map { (Key(shape: $0.shape, name: $0.name.lowercased()), $0) },
    uniquingKeysWith: { first, _ in first }
  )

  /// The longest name in the table, in scalars; longer identifiers are not looked up.
  private static let longestName = Sanitizer.delimiters.map(\.name.unicodeScalars.count).max() ?? 0

  /// Every delimiter in `scalars`, in order of their opening bracket.
  ///
  /// - Parameter scalars: NFC text, already stripped of the characters the sanitizer drops.
  /// - Returns: The matches; empty when the text holds no live delimiter.
  /// - Complexity: O(*n*): whitespace and names are read at most twice (once more for the
  ///   first `<` of `<<`), and each match looks at most ``closingSearchLimit`` scalars past
  ///   its name.
  static func matches(in scalars: [Unicode.Scalar]) -> [Match] {
    // Right to left, so that a nested `<` (`Array<User<system>>`) is decided before the type
    // argument that encloses it.
    var found: [Match] = []
    var opening = Set<Int>()
    for offset in scalars.indices.reversed() where scalars[offset] == "<" || scalars[offset] == "[" {
      if let match = match(at: offset, in: scalars, opening: opening) {
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

  /// The delimiter whose opening bracket is at `start`, if any.
  ///
  /// - Parameter opening: The offsets after `start` whose bracket opens a match.
  private static func match(at start: Int, in s: [Unicode.Scalar], opening: Set<Int>) -> Match? {
    var brackets = [start]
    var cursor = start + 1
    let shape: Sanitizer.Delimiter.Shape
    if s[start] == "[" {
      shape = .square
    } else {
      let next = skipWhitespace(in: s, from: cursor)
      if next < s.count, s[next] == "<" {
        shape = .doubleAngle
        brackets.append(next)
        cursor = next + 1
      } else if next < s.count, s[next] == "|" || s[next] == "\u{FF5C}" {
        shape = .pipeToken
        cursor = next + 1
      } else {
        shape = .tag
      }
    }

    cursor = skipWhitespace(in: s, from: cursor)
    if cursor < s.count, s[cursor] == "/" { cursor = skipWhitespace(in: s, from: cursor + 1) }

    let nameStart = cursor
    while cursor < s.count, isNameScalar(s[cursor]) { cursor += 1 }
    let nameLength = cursor - nameStart
    guard nameLength > 0, nameLength <= longestName, !continuesWord(s, at: cursor) else {
      return nil
    }
    guard let delimiter = index[Key(shape: shape, name: foldedName(s[nameStart..<cursor]))]
    else { return nil }
    // `Array<User>`: a type argument, not a tag. `notes</user>`, `x< user>`, `ab<system>` and
    // `x<User attr=1>` stay live.
    if !delimiter.isVocabularyToken, nameStart == start + 1, start > 0,
      isGenericTypePrefix(s[start - 1]),
      isTypeArgument(in: s, nameStart: nameStart, nameEnd: cursor, opening: opening)
    {
      return nil
    }

    // The closing bracket, if there is one before the next delimiter could begin.
    let (closer, reopener): (Unicode.Scalar, Unicode.Scalar) =
      shape == .square ? ("]", "[") : (">", "<")
    let searchEnd = min(s.count, cursor + closingSearchLimit)
    while cursor < searchEnd, s[cursor] != reopener {
      if s[cursor] == closer {
        brackets.append(cursor)
        if shape == .doubleAngle, cursor + 1 < s.count, s[cursor + 1] == ">" {
          brackets.append(cursor + 1)
        }
        break
      }
      cursor += 1
    }
    return Match(delimiter: delimiter, brackets: brackets)
  }

  private static func skipWhitespace(in s: [Unicode.Scalar], from offset: Int) -> Int {
    var offset = offset
    while offset < s.count, s[offset].properties.isWhitespace { offset += 1 }
    return offset
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
    switch s[offset] {
    case "@": return true
    case ".":
      guard offset + 1 < s.count else { return false }
      let next = s[offset + 1]
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

  /// The table key for a name: ASCII-lowercased, with `▁` read as `_`.
  private static func foldedName(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
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
