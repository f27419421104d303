import ContinuityKit

extension SearchResponse {
  /// Why there are no results, in words that name the query's words where the reason is about
  /// them, for a "No results:" line (lower case, no final period); nil when there are results.
  ///
  /// For ``EmptyReason/noOtherWordMatched`` it names the common words left out and the words
  /// searched: `the common word 'the' was not searched (common words are searched only when a
  /// query has no other word), and 'foo' (or a close spelling of it) occurs in no knowledge item
  /// or memory`. Other reasons read as ``EmptyReason/explanation``.
  ///
  /// When the query had more distinct terms than are searched, it ends by saying so
  /// (``wordsPastTermLimitNote(_:)``): "no query word occurs" is then only true of the words
  /// searched.
  public var emptyExplanation: String? { emptyExplanation(hint: "") }

  /// ``emptyExplanation`` with `hint` (a parenthesized pointer such as `(dolphin search finds
  /// them)`) placed after the reason it belongs to, before the note on words not searched; so
  /// the hint never reads as if it were about those words. Nil when there are results. For
  /// ``EmptyReason/noItemWithTag`` it names the tag (`no knowledge item carries the tag
  /// 'stagign'`) and then the words that occur nowhere either, if any.
  /// - Parameter hint: text to append to the reason, starting with a space; may be empty.
  public func emptyExplanation(hint: String) -> String? {
    guard results.isEmpty, let emptyReason else { return nil }
    var why: String
    if emptyReason == .noItemWithTag, let tag {
      // Named as `knowledge list --tag` names it (review 23-a, 6), then the words found nowhere
      // either, which a right tag would not find.
      let records = scope?.records ?? EmptyReason.knowledgeRecords
      let unmatched = terms.unmatchedWords
      why = "no knowledge item carries the tag '\(tag)'" + hint
        + (unmatched.isEmpty
          ? "" : "; " + EmptyReason.noTermMatched.explanation(
            searching: records, commonWords: [], otherWords: [], unmatchedWords: unmatched))
    } else {
      why = emptyReason.worded(unappliedOperators: unappliedOperators, unmatchedWords: terms.unmatchedWords).explanation(
        searching: scope?.records ?? EmptyReason.knowledgeRecords, commonWords: unsearchedCommonWords ?? [],
        otherWords: terms.typedWords, unmatchedWords: terms.unmatchedWords) + hint
    }
    if let note = Self.unsearchedSymbolsNote(unsearchedSymbols) { why += "; " + note }
    if let note = Self.unappliedOperatorsNote(unappliedOperators) { why += "; " + note }
    if let note = Self.wordsPastTermLimitNote(wordsPastTermLimit) { why += "; " + note }
    guard let note = Self.queryCutNote(query, cutAt: queryCutAt, of: queryCharacters) else { return why }
    return why + "; " + note
  }

  /// Records that the query was cut before it was searched: `givenCharacters`, the length of
  /// the query as given (sanitized and trimmed), is over ``Limits/query`` and ``query`` is the
  /// part searched. Nothing changes when the whole query was searched.
  package mutating func recordCut(givenCharacters: Int) {
    guard givenCharacters > query.count else { return }
    queryCutAt = query.count
    queryCharacters = givenCharacters
  }

  /// What a search says of a query it searched only the start of (``queryCutAt``), for a notice
  /// or the end of a "No results:" line (lower case, no final period): `only the first 497 of
  /// the query's 792 characters were searched (a query is searched by its first 500, cut
  /// between words), up to '…ViewController.swift:42'`. Nil when the whole query was searched.
  /// - Parameters:
  ///   - searched: the part of the query searched (``query``).
  ///   - cutAt: ``queryCutAt``.
  ///   - given: ``queryCharacters``.
  public static func queryCutNote(_ searched: String, cutAt: Int?, of given: Int?) -> String? {
    guard let cutAt, let given else { return nil }
    let tail = searched.count > queryCutTailShown ? "…" + searched.suffix(queryCutTailShown) : searched
    let line = tail.map { $0.isNewline ? " " : $0 }
    return "only the first \(cutAt) of the query's \(given) characters were searched (a query is searched by its "
      + "first \(Limits.query), cut between words), up to '\(String(line))'"
  }

  /// How many characters of the searched part ``queryCutNote(_:cutAt:of:)`` shows, before where
  /// the query was cut.
  static let queryCutTailShown = 30

  /// The notes a search with results shows about words it did not search: those past the term
  /// limit (``wordsPastTermLimitNote(_:)``), then symbols no index holds
  /// (``unsearchedSymbolsNote(_:)``); lower case, no final period; empty when there are none.
  /// One list for `search`, `task search` and the tools, which print them alike.
  /// Then the search syntax read as text (``unappliedOperatorsNote(_:)``).
  /// Last, that only the start of a long query was searched (``queryCutNote(_:cutAt:of:)``).
  public static func notes(
    wordsPastTermLimit: [String]?, unsearchedSymbols: [String]?, unappliedOperators: [String]? = nil,
    queryCut: (searched: String, cutAt: Int?, given: Int?)? = nil
  ) -> [String] {
    [
      wordsPastTermLimitNote(wordsPastTermLimit), unsearchedSymbolsNote(unsearchedSymbols),
      unappliedOperatorsNote(unappliedOperators),
      queryCut.flatMap { queryCutNote($0.searched, cutAt: $0.cutAt, of: $0.given) },
    ].compactMap { $0 }
  }

  /// What a search says of the search syntax it read as text (``unappliedOperators``), for a
  /// notice or the end of a "No results:" line (lower case, no final period): `quotes are not a
  /// phrase operator here: words are searched one by one (they rank higher where they stand
  /// together)`, `'-cache' excludes nothing here: it is read as the word 'cache'`, `'tag:auth'
  /// filters nothing here: it is read as the words 'tag' and 'auth'`, `'AND' is not an operator
  /// here: it is read as the common word 'and'`, `'hand*' is not a prefix search here: '*' is no
  /// wildcard, so the word 'hand' was searched, not the words that begin with it`, or several
  /// of these joined by `; `. Nil for none.
  public static func unappliedOperatorsNote(_ operators: [String]?) -> String? {
    guard let operators, !operators.isEmpty else { return nil }
    var parts: [String] = []
    if operators.contains("\"") {
      parts.append(
        "quotes are not a phrase operator here: words are searched one by one (they rank higher where they stand "
          + "together)")
    }
    func quoted(_ list: [String]) -> String { list.map { "'\($0)'" }.joined(separator: ", ") }
    let minus = operators.filter { $0.first == "-" }
    if !minus.isEmpty {
      // Read as the word, which is searched unless it is a common word (`-the`), as any word is.
      parts.append(
        minus.count == 1
          ? "\(quoted(minus)) excludes nothing here: it is read as the word '\(minus[0].dropFirst())'"
          : "\(quoted(minus)) exclude nothing here: each is read as the word after its '-'")
    }
    let fields = operators.filter { $0.first != "-" && $0.contains(":") }
    if !fields.isEmpty {
      if fields.count == 1, let colon = fields[0].firstIndex(of: ":") {
        let value = fields[0][fields[0].index(after: colon)...]
        parts.append(
          "\(quoted(fields)) filters nothing here: it is read as the words '\(fields[0][..<colon])' and '\(value)'")
      } else {
        parts.append("\(quoted(fields)) filter nothing here: each is read as words, the field's name too")
      }
    }
    let booleans = operators.filter { HybridLexicalRanker.booleanOperators.contains($0) }
    if !booleans.isEmpty {
      parts.append(
        booleans.count == 1
          ? "\(quoted(booleans)) is not an operator here: it is read as the common word '\(booleans[0].lowercased())'"
          : "\(quoted(booleans)) are not operators here: each is read as the common word it spells")
    }
    let stars = operators.filter { $0.last == "*" }
    if !stars.isEmpty {
      parts.append(
        stars.count == 1
          ? "\(quoted(stars)) is not a prefix search here: '*' is no wildcard, so the word '\(stars[0].dropLast())' was "
            + "searched, not the words that begin with it"
          : "\(quoted(stars)) are not prefix searches here: '*' is no wildcard, so each word before a '*' was searched, "
            + "not the words that begin with it")
    }
    if fields.contains(where: { $0.lowercased().hasPrefix("tag:") || $0.lowercased().hasPrefix("tags:") }) {
      parts.append("to keep only items with a tag, filter by it (--tag, or the tool's tag argument)")
    }
    return parts.joined(separator: "; ")
  }

  /// What a search says of the query's symbols that no index holds
  /// (``unsearchedSymbols``), for a notice or the end of a "No results:" line (lower case, no
  /// final period): `symbols and emoji are not indexed, so '🚀' was not searched`. Nil for none.
  public static func unsearchedSymbolsNote(_ symbols: [String]?) -> String? {
    guard let symbols, !symbols.isEmpty else { return nil }
    let shown = symbols.map { "'\($0)'" }.joined(separator: ", ")
    return "symbols and emoji are not indexed, so \(shown) \(symbols.count == 1 ? "was" : "were") not searched"
  }

  /// How many words are named by ``wordsPastTermLimitNote(_:)``, and of the words that matched
  /// nothing by ``emptyExplanation``, before "and N more".
  static let wordsPastTermLimitShown = 8

  /// What a search says of the words it did not search because the query has more than 64
  /// distinct terms (``wordsPastTermLimit``), for a notice line or the end of a "No results:"
  /// line (lower case, no final period): `only the first 64 distinct words were searched, not
  /// 'postgres'`; at most 8 words are named, then how many more. Nil for none.
  /// - Parameter words: the words not searched, as typed.
  public static func wordsPastTermLimitNote(_ words: [String]?) -> String? {
    guard let words, !words.isEmpty else { return nil }
    let cap = HybridLexicalRanker.Parameters.v1.maximumQueryTerms
    let shown = words.prefix(wordsPastTermLimitShown).map { "'\($0)'" }.joined(separator: ", ")
    let more = words.count > wordsPastTermLimitShown ? " and \(words.count - wordsPastTermLimitShown) more" : ""
    return "only the first \(cap) distinct words were searched, not \(shown)\(more)"
  }
}

extension EmptyReason {
  /// The reason whose words an empty answer shows: ``noTermMatched`` for ``allBelowThreshold``
  /// when a word that matched nothing was typed with a trailing `*` (review 28-a, 7: `hand*`
  /// was said to have words "close enough to count as a typo" nearby, when the `*` was meant as
  /// a prefix operator, which the note on `*` explains); else the reason itself. The code in
  /// JSON (``SearchResponse/emptyReason``) is not changed.
  /// - Parameters:
  ///   - unappliedOperators: ``SearchResponse/unappliedOperators``.
  ///   - unmatchedWords: the words that matched nothing, as typed.
  package func worded(unappliedOperators: [String]?, unmatchedWords: [String]) -> EmptyReason {
    guard self == .allBelowThreshold, let stars = unappliedOperators?.filter({ $0.last == "*" }), !stars.isEmpty,
      unmatchedWords.contains(where: { stars.contains($0 + "*") })
    else { return self }
    return .noTermMatched
  }

  /// ``explanation(searching:)``, naming the words of a query when the reason is about which
  /// of them were searched or found, each in single quotes: for ``noOtherWordMatched`` the
  /// common words left out and the others; for ``noTermMatched`` and ``allBelowThreshold`` the
  /// words that matched nothing (`'stgaing' (or a close spelling of it) occurs in no knowledge
  /// item`).
  ///
  /// - Parameters:
  ///   - records: one of the records searched, singular (`task`, `open task`).
  ///   - commonWords: the query's common words that were not searched, as typed.
  ///   - otherWords: the query's words that were searched, as typed.
  ///   - unmatchedWords: those of them that matched nothing (``SearchResponse/unmatchedWords``),
  ///     of which the first 8 are named, then how many more; when empty, the reason reads as
  ///     ``explanation(searching:)``.
  func explanation(
    searching records: String, commonWords: [String], otherWords: [String], unmatchedWords: [String] = []
  ) -> String {
    func quoted(_ words: [String]) -> String { words.map { "'\($0)'" }.joined(separator: ", ") }
    // A long query's words are named up to a bound, then counted.
    func missing(_ words: [String], closeSpellings: Bool) -> String {
      let shown = SearchResponse.wordsPastTermLimitShown
      let named = quoted(Array(words.prefix(shown))) + (words.count > shown ? " and \(words.count - shown) more" : "")
      return words.count == 1
        ? "\(named)\(closeSpellings ? " (or a close spelling of it)" : "") occurs in no \(records)"
        : "none of \(named)\(closeSpellings ? " (or a close spelling of one)" : "") occurs in any \(records)"
    }
    switch self {
    case .noOtherWordMatched where !commonWords.isEmpty && !otherWords.isEmpty:
      let left =
        commonWords.count == 1
        ? "the common word \(quoted(commonWords)) was not searched"
        : "the common words \(quoted(commonWords)) were not searched"
      // Words of the longer SMART list only (``EnglishStopWords/smart``) are left out of long
      // queries only: saying "no other word" of them would be untrue.
      let longer = commonWords.first { !EnglishStopWords.snowball.contains($0.lowercased()) }
      let rule =
        longer.map {
          "common words are searched only when a query has no other word, and general words such as '\($0)' "
            + "only when it has fewer than \(HybridLexicalRanker.Parameters.v1.smartStopWordsMinimumLeft) others"
        } ?? "common words are searched only when a query has no other word"
      return left + " (\(rule)), and " + missing(otherWords, closeSpellings: true)
    case .noTermMatched where !unmatchedWords.isEmpty:
      return missing(unmatchedWords, closeSpellings: true)
    case .allBelowThreshold where !unmatchedWords.isEmpty:
      return missing(unmatchedWords, closeSpellings: false) + ": " + explanation(searching: records)
    default:
      return explanation(searching: records)
    }
  }
}

extension [QueryTermMatch] {
  /// The typed words (as ``typedWords`` gives them) of the terms that matched nothing
  /// (``QueryTermMatch/Match/none``), once each, in term order.
  package var unmatchedWords: [String] { filter { $0.match == .none }.typedWords }

  /// The query words behind these terms as typed (their folded forms where the typed ones were
  /// not recorded, else the term), once each, in term order, each as shown: at most
  /// ``shownWordCharacters`` characters, a character at most ``shownScalarsPerCharacter``
  /// Unicode scalars, a cut marked `…` (review 30-a, 8: a 500-character word and one letter with
  /// 4,999 combining marks were echoed whole, though a term compares at most 64 characters).
  var typedWords: [String] {
    var words: [String] = []
    for term in self {
      let typed = !term.typedWords.isEmpty ? term.typedWords : !term.words.isEmpty ? term.words : [term.term]
      for word in typed.map(Self.shown) where !words.contains(word) { words.append(word) }
    }
    return words
  }

  /// The most characters of a typed word ``typedWords`` shows (as many as a term compares).
  static var shownWordCharacters: Int { 64 }
  /// The most Unicode scalars of one character ``typedWords`` shows (as capture allows).
  static var shownScalarsPerCharacter: Int { 10 }

  /// `word` as ``typedWords`` shows it.
  static func shown(_ word: String) -> String {
    var out = ""
    var cut = false
    for (n, character) in word.enumerated() {
      if n == shownWordCharacters {
        cut = true
        break
      }
      let scalars = character.unicodeScalars
      if scalars.count > shownScalarsPerCharacter {
        out.unicodeScalars.append(contentsOf: scalars.prefix(shownScalarsPerCharacter))
        cut = true
      } else {
        out.append(character)
      }
    }
    return cut ? out + "…" : out
  }
}
