extension SearchResponse {
  /// The query terms made from a word longer than ``Tokenizer/maximumTermLength`` (64) Unicode
  /// scalars, which the tokenizer cut to its first 64: such a word is indexed and compared by
  /// those only, and `search --explain` says so. A word of exactly 64 is not cut.
  ///
  /// A term is cut only when its unstemmed form is exactly 64 scalars long; whether the word
  /// went on is told by the word's length, counted as the tokenizer counts it: the bytes of a
  /// run of ASCII letters and digits, or the letters, digits and marks of the folded run
  /// (``Tokenizer/fold(_:)``, format characters skipped). Greek letters that the tokenizer
  /// spells out (`β` → `beta`) count as one each.
  /// - Complexity: O(*n*) in the UTF-8 length of ``query``.
  package var termsCutFromLongerWords: Set<String> {
    let limit = Tokenizer.maximumTermLength
    let bytes = Array(query.utf8)
    var cut = Set<String>()
    Tokenizer.standard.forEachTerm(in: query) { analyzed in
      guard analyzed.surface.unicodeScalars.count == limit else { return true }
      let run = bytes[analyzed.utf8Range]
      let longest =
        run.allSatisfy { $0 < 0x80 }
        ? run.count : Self.longestWordLength(Tokenizer.fold(String(decoding: run, as: UTF8.self)))
      if longest > limit { cut.insert(analyzed.term) }
      return true
    }
    return cut
  }

  /// The length in scalars of the longest word in folded text: letters, digits and marks,
  /// format characters skipped, anything else ending a word.
  private static func longestWordLength(_ folded: String) -> Int {
    var longest = 0
    var current = 0
    for scalar in folded.unicodeScalars {
      let p = scalar.properties
      switch p.generalCategory {
      case .format:
        continue
      case .nonspacingMark, .spacingMark, .enclosingMark:
        current += 1
      default:
        if p.isAlphabetic || p.numericType != nil {
          current += 1
        } else {
          current = 0
        }
      }
      longest = max(longest, current)
    }
    return longest
  }
}
