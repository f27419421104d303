extension Tokenizer {
  /// The form in which a tag filter compares two tags: the tag with each of its runs (letters,
  /// digits and their marks) written as the tokenizer's unstemmed term for it, and the
  /// characters between runs (`-`, `+`, `.`, spaces) folded but kept.
  ///
  /// So tags compare as their words do in a search — case, width and diacritics folded
  /// (``fold(_:)``), and Greek letters in scientific notation spelled out by the same rule
  /// (``spellingOutGreekLetters(in:loneLetterIsNotation:)``): `tnf-α` and `tnf-alpha` both give
  /// `tnf-alpha`, `il-1β` gives `il-1beta`, `nf-κb` gives `nf-kappab`, a tag `α` gives `alpha`;
  /// Greek prose stays Greek (`ο γιάννης` gives `ο γιαννης`, not `omicron …`), and `μm` stays.
  /// Unlike a search, nothing is stemmed and punctuation still counts: `c++` is not `c`, and
  /// `tnf-alpha` is not `tnf alpha`.
  ///
  /// A run that is not exactly one term — one the tokenizer splits (bigrams of a script
  /// written without spaces, `½`), or whose spelled-out term reaches ``maximumTermLength`` —
  /// is kept folded as it is.
  ///
  /// The key is for comparing only; stored tags keep the spelling they were given.
  /// - Parameter tag: a tag as stored or as a filter gives it (normalized by
  ///   `Limits.normalizeTags`: trimmed and lowercased), at most 48 characters.
  /// - Returns: the comparison key; two tags are the same tag to a filter when their keys are
  ///   equal.
  /// - Complexity: O(*n*) in the tag's UTF-8 length.
  static func tagComparisonKey(_ tag: String) -> String {
    var runs: [(range: Range<Int>, terms: [String])] = []
    Tokenizer(stemming: false).forEachTerm(in: tag) { analysed in
      if let last = runs.last, last.range == analysed.utf8Range {
        runs[runs.count - 1].terms.append(analysed.term)
      } else {
        runs.append((analysed.utf8Range, [analysed.term]))
      }
      return true
    }
    let bytes = Array(tag.utf8)
    // Runs start and end on scalar boundaries, so every slice decodes whole.
    func folded(_ range: Range<Int>) -> String {
      range.isEmpty ? "" : fold(String(decoding: bytes[range], as: UTF8.self))
    }
    var key = ""
    var offset = 0
    for run in runs {
      key += folded(offset..<run.range.lowerBound)
      if run.terms.count == 1, run.terms[0].unicodeScalars.count < maximumTermLength {
        key += run.terms[0]
      } else {
        key += folded(run.range)
      }
      offset = run.range.upperBound
    }
    return key + folded(offset..<bytes.count)
  }
}
