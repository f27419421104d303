extension Sanitizer {
  /// Removes every block `<name>…</name>` of the tags `names` from `text`, reading each tag as
  /// ``sanitize(_:)`` reads a delimiter, so that no spelling the sanitizer would neutralize as
  /// the tag is left behind here as text.
  ///
  /// The text is first put through steps 1 and 2 of ``sanitize(_:)`` (the drops of controls
  /// and invisible characters, then NFC); a tag is then found as ``DelimiterScanner`` finds a
  /// delimiter: ASCII case-insensitive; with whitespace, attributes and a closing slash
  /// (`< think id="1" >`, `</think >`); reading past default-ignorable characters from the
  /// bracket to the end of the name (`<\u{AD}think>`, `<th\u{AD}ink>`) and combining marks
  /// between the bracket and the name (`<\u{301}think>`); fullwidth, small and vertical
  /// brackets and slashes (`＜think＞…＜/think＞`) and compatibility forms of the name's letters
  /// (`<ｔｈｉｎｋ>`); and, for a name not in ``delimiters`` as a vocabulary token, leaving a
  /// generic type argument alone (`List<Thinking>`). Only a tag with its closing bracket counts
  /// (`<think` without one is left, for ``sanitize(_:)`` to neutralize).
  ///
  /// Removed, left to right: from an opening tag through the next closing tag of the same name;
  /// from an opening tag with no closing tag after it through the end of the text; a
  /// self-closing tag (`<think/>`); and, for a closing tag with no opening tag before it,
  /// everything before it and the tag itself (the model's reasoning began before the text).
  ///
  /// - Parameters:
  ///   - names: Tag names, ASCII letters, digits, `_` and `-`; matched ASCII case-insensitively.
  ///   - text: Any text, typically a model's raw output.
  /// - Returns: The text after steps 1 and 2 of ``sanitize(_:)``, without the blocks; its
  ///   delimiters are not yet neutralized, so sanitize it before use.
  /// - Complexity: O(*n*) in the length of `text`.
  package static func removingTagBlocks(named names: [String], from text: String) -> String {
    let scalars = visibleNFCScalars(of: text)
    guard scalars.contains(where: DelimiterScanner.isOpeningBracket) else { return string(scalars) }
    let tags = names.map { name in
      let listed = delimiters.first { $0.shape == .tag && $0.name.lowercased() == name.lowercased() }
      return Delimiter(.tag, name, isVocabularyToken: listed?.isVocabularyToken ?? false)
    }
    // Only tags with their closing bracket; each match is then one tag, `start...end`.
    let found = DelimiterScanner.matches(in: scalars, table: DelimiterScanner.Table(tags))
      .filter { $0.brackets.count == 2 }
    func start(_ match: DelimiterScanner.Match) -> Int { match.brackets[0] }
    func end(_ match: DelimiterScanner.Match) -> Int { match.brackets[1] + 1 }
    func key(_ match: DelimiterScanner.Match) -> String { match.delimiter.name.lowercased() }

    var removed: [Range<Int>] = []
    var decided = 0  // offsets before this one are kept or removed already
    var index = 0
    while index < found.count {
      let tag = found[index]
      index += 1
      guard start(tag) >= decided else { continue }
      if DelimiterScanner.isSelfClosing(tag, in: scalars) {
        removed.append(start(tag)..<end(tag))
      } else if tag.isClosing {
        // Everything before it was reasoning, the blocks removed already included.
        removed = [0..<end(tag)]
      } else if let close = found[index...].firstIndex(where: {
        $0.isClosing && key($0) == key(tag) && start($0) >= end(tag) && !DelimiterScanner.isSelfClosing($0, in: scalars)
      }) {
        removed.append(start(tag)..<end(found[close]))
        index = close + 1
      } else {
        removed.append(start(tag)..<scalars.count)
      }
      decided = removed.last?.upperBound ?? decided
    }
    var kept: [Unicode.Scalar] = []
    kept.reserveCapacity(scalars.count)
    var from = 0
    for range in removed {
      kept.append(contentsOf: scalars[from..<range.lowerBound])
      from = range.upperBound
    }
    kept.append(contentsOf: scalars[from...])
    return string(kept)
  }
}
