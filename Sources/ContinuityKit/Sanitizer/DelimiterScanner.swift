/// Finds the delimiters of ``Sanitizer/delimiters`` in a run of Unicode scalars.
///
/// Detection and rewriting both go through ``matches(in:)``, so a text is reported live
/// exactly when sanitizing would change a bracket in it.
///
/// Why rewriting is idempotent: a match starts at an ASCII `<` or `[` and is decided by what
/// follows up to the end of the name, plus the scalar just before the `<`. Rewriting replaces
/// only ASCII brackets, with look-alikes that are neither brackets nor word characters, so in
/// the rewritten text every remaining ASCII `<` or `[` sees the same name and neighbours it
/// saw before (or a look-alike where a bracket was, which ends the match just as early). It was
/// not a match then, so it is not one now.
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
    var found: [Match] = []
    for offset in scalars.indices where scalars[offset] == "<" || scalars[offset] == "[" {
      if let match = match(at: offset, in: scalars) { found.append(match) }
    }
    return found
  }

  /// True when ``matches(in:)`` would find at least one delimiter.
  static func containsMatch(in scalars: [Unicode.Scalar]) -> Bool {
    scalars.indices.contains { offset in
      (scalars[offset] == "<" || scalars[offset] == "[") && match(at: offset, in: scalars) != nil
    }
  }

  /// The delimiter whose opening bracket is at `start`, if any.
  private static func match(at start: Int, in s: [Unicode.Scalar]) -> Match? {
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
    // `Array<User>`: a type argument, not a tag. `notes</user>` and `x< user>` stay live.
    if !delimiter.isVocabularyToken, nameStart == start + 1, start > 0,
      isGenericTypePrefix(s[start - 1])
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

  /// A scalar that, glued to a `<`, makes it a generic type argument (`Array<User>`).
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
