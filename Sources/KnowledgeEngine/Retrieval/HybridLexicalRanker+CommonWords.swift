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
      let common =
        parameters.stopWords.contains(surface)
        || (parameters.smartStopWordsMinimumLeft > 0 && EnglishStopWords.smart.contains(surface))
      if common, !isEnding, !searched.contains(surface),
        seen.insert(surface).inserted
      {
        // Runs start and end on scalar boundaries, so the slice decodes whole.
        words.append(String(decoding: bytes[analyzed.utf8Range], as: UTF8.self))
      }
      return true
    }
    return words
  }

  /// The query's symbols that no query term holds (``SearchResponse/unsearchedSymbols``): each
  /// distinct grapheme cluster with a non-ASCII scalar that is a symbol — general category Sm,
  /// Sc, Sk or So (`→`, `€`, `★`, `©`), an enclosing mark (a keycap's U+20E3) or an emoji —
  /// whose text no term of the query came from, in query order, at most 10. A symbol the
  /// tokenizer reads as a letter or digit (`🅰️`, `ℹ️` as `i`, `1️⃣` as `1`, `＋` in `Ｃ＋＋`) was
  /// searched and is not listed.
  /// - Complexity: O(*n* + *s* · *t*) for a query of *n* UTF-8 bytes, *s* symbols and *t* terms.
  func unsearchedSymbols(in query: String) -> [String] {
    // Symbols are beyond ASCII: most queries are not, and need no second tokenizer pass.
    guard query.utf8.contains(where: { $0 >= 0x80 }), query.contains(where: Self.isSymbol) else { return [] }
    var covered: [Range<Int>] = []
    tokenizer.forEachTerm(in: query) { term in
      covered.append(term.utf8Range)
      return true
    }
    var seen = Set<String>()
    var symbols: [String] = []
    var offset = 0
    for character in query {
      let range = offset..<(offset + character.utf8.count)
      offset = range.upperBound
      guard symbols.count < 10, Self.isSymbol(character), !covered.contains(where: { $0.overlaps(range) }) else {
        continue
      }
      // A modifier typed alone clusters with the space before it (` 🏻`): named without it.
      let symbol = String(String.UnicodeScalarView(character.unicodeScalars.filter { !$0.properties.isWhitespace }))
      if seen.insert(symbol).inserted { symbols.append(symbol) }
    }
    return symbols
  }

  /// The search syntax of other engines that the query holds and that this one reads as text
  /// (``SearchResponse/unappliedOperators``), at most 10, once each: first `"` for
  /// double quotes (`"`, `“`, `”`, `„`), whose words are searched one by one, then, in query
  /// order:
  /// - each word typed with a leading `-` at the query's start or after white space and
  ///   followed by a letter (`-cache`, as typed up to the end of its letters and digits), whose
  ///   word is searched like the others rather than excluded (a hyphen inside a word, `hand-off`,
  ///   or before a number, `-5`, is not one);
  /// - each field filter (`tag:auth`, `title:sqlite`: one of ``fieldFilterNames``, a colon, then
  ///   a letter, digit or quote, as typed up to the next white space), whose words are searched
  ///   as words, filtering nothing (`--tag` filters by tag); a colon after another word
  ///   (`Error: nil`, `https://…`, `10:30`) is not one;
  /// - each Boolean operator typed in capitals as a word of its own (`AND`, `OR`, `NOT`),
  ///   wherever it stands — first, last, alone or beside another one (`AND OR NOT` names all
  ///   three) — which is read as the common word it spells (not searched beside other words);
  /// - each word typed with a trailing `*` (`hand*`, as the word's letters and digits and one
  ///   `*`), whose word is searched as it is, not as a prefix: `*` is no wildcard here.
  /// - Complexity: O(*n*) in the length of `query`.
  public static func unappliedOperators(in query: String) -> [String] {
    // Quotes first, whatever else the query holds, so that the cap never leaves them out.
    var found: [String] = query.contains(where: { "\"“”„".contains($0) }) ? ["\""] : []
    let pieces = query.split(whereSeparator: { $0.isWhitespace })
    for piece in pieces where found.count < 10 {
      var named: String?
      if piece.first == "-", let second = piece.dropFirst().first, second.isLetter {
        named = "-" + piece.dropFirst().prefix { $0.isLetter || $0.isNumber }
      } else if let colon = piece.firstIndex(of: ":"),
        fieldFilterNames.contains(piece[..<colon].lowercased()),
        let next = piece[piece.index(after: colon)...].first,
        next.isLetter || next.isNumber || "\"“”„'".contains(next)
      {
        named = String(piece)
      } else if booleanOperators.contains(String(piece)) {
        named = String(piece)
      } else if piece.last == "*" {
        // A trailing `*`, the commonest prefix operator (review 28-a, 7): the word before it, as
        // typed (its letters and digits), and the `*`.
        let word = piece.reversed().drop { $0 == "*" }.prefix { $0.isLetter || $0.isNumber }
        if !word.isEmpty { named = String(word.reversed()) + "*" }
      }
      if let named, !found.contains(named) { found.append(named) }
    }
    return found
  }

  /// `operators` (``unappliedOperators(in:)``) without each `word*` whose word was matched as
  /// the start of longer words all the same (``QueryTermMatch/Match/prefix``: a word of one or
  /// two letters no note holds, `a*` → *agent*): saying `*` searched only the word would be
  /// untrue there.
  package static func withoutPrefixesSearched(_ operators: [String], terms: [QueryTermMatch]) -> [String] {
    operators.filter { named in
      guard named.last == "*" else { return true }
      let word = named.dropLast().lowercased()
      return !terms.contains { term in
        term.match == .prefix && (term.typedWords + term.words).contains { $0.lowercased() == word }
      }
    }
  }

  /// The field names other search engines filter by with `name:value` (GitHub, Jira, Gmail,
  /// Lucene, web search), which ``unappliedOperators(in:)`` names when a query uses one: here
  /// `tag:auth` is the words `tag` and `auth`.
  public static let fieldFilterNames: Set<String> = [
    "tag", "tags", "title", "kind", "type", "content", "body", "text", "status", "label", "labels", "is",
    "in", "author", "from", "before", "after", "site", "filetype", "ext", "path", "file", "lang",
    "language", "id", "source", "priority", "created", "updated",
  ]

  /// The Boolean operators of other search engines, as they are typed there (in capitals).
  static let booleanOperators: Set<String> = ["AND", "OR", "NOT"]

  /// Whether `character` holds a non-ASCII symbol: general category Sm, Sc, Sk or So, an
  /// enclosing mark, or an emoji.
  static func isSymbol(_ character: Character) -> Bool {
    character.unicodeScalars.contains { scalar in
      guard scalar.value >= 0x80 else { return false }
      switch scalar.properties.generalCategory {
      case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol, .enclosingMark: return true
      default: return scalar.properties.isEmoji
      }
    }
  }
}
