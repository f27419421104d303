extension SearchResponse {
  /// The query terms made from a word longer than ``Tokenizer/maximumTermLength`` (64) Unicode
  /// scalars, which the tokenizer cut to its first 64: such a word is indexed and compared by
  /// those only, and `search --explain` says so, however the term matched. A word of exactly
  /// 64 is not cut.
  ///
  /// The tokenizer itself tells which words it cut (so this never counts characters another
  /// way than it does): the length is counted after folding (`ß` is `ss`, two), with format
  /// characters skipped and Greek letters in notation spelled out (`β` is `beta`, four).
  /// - Complexity: O(*n*) in the UTF-8 length of ``query``.
  package var termsCutFromLongerWords: Set<String> { Tokenizer.standard.termsCut(in: query) }
}

extension Tokenizer {
  /// The terms of `text` made from a word longer than ``maximumTermLength`` Unicode scalars,
  /// which this tokenizer cut to its first ones (see
  /// ``SearchResponse/termsCutFromLongerWords``).
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  package func termsCut(in text: String) -> Set<String> {
    var cut = Set<String>()
    forEachTerm(in: text) { analyzed in
      if analyzed.isCut { cut.insert(analyzed.term) }
      return true
    }
    return cut
  }
}
