extension HybridLexicalRanker {
  /// The stop words of `query` that were not searched because it has other words: those whose
  /// folded form is among none of `searched` (``QueryAnalysis/surfaces``), as first typed, once
  /// each, in query order. Endings after an apostrophe (`'s`), dropped too, are not words a
  /// user typed as such and are not listed.
  ///
  /// An empty-result reason names them (``EmptyReason/noOtherWordMatched``): saying that no
  /// query word occurs anywhere would be untrue when only `the` occurs, unsearched.
  ///
  /// - Complexity: O(*n*) in the UTF-8 length of `query`.
  func unsearchedCommonWords(in query: String, searched: [[String]]) -> [String] {
    let searched = Set(searched.joined())
    let bytes = Array(query.utf8)
    var seen = Set<String>()
    var words: [String] = []
    tokenizer.forEachTerm(in: query) { analyzed in
      let surface = analyzed.surface
      let isEnding =
        Self.englishClitics.contains(surface)
        && Self.followsApostrophe(analyzed.utf8Range.lowerBound, in: bytes)
      if parameters.stopWords.contains(surface), !isEnding, !searched.contains(surface),
        seen.insert(surface).inserted
      {
        // Runs start and end on scalar boundaries, so the slice decodes whole.
        words.append(String(decoding: bytes[analyzed.utf8Range], as: UTF8.self))
      }
      return true
    }
    return words
  }

  /// The query's symbols that are never searched (``SearchResponse/unsearchedSymbols``): each
  /// distinct grapheme cluster holding a non-ASCII scalar of general category So (Other_Symbol:
  /// emoji, pictographs, `★`, `©`), in query order, at most 10.
  /// - Complexity: O(*n*) in the length of `query`.
  static func unsearchedSymbols(in query: String) -> [String] {
    var seen = Set<String>()
    var symbols: [String] = []
    for character in query where symbols.count < 10 {
      guard character.unicodeScalars.contains(where: { $0.value >= 0x80 && $0.properties.generalCategory == .otherSymbol })
      else { continue }
      let symbol = String(character)
      if seen.insert(symbol).inserted { symbols.append(symbol) }
    }
    return symbols
  }
}
