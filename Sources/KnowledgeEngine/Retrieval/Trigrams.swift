/// Character trigrams of a term and the typo-tolerance rule built on them.
///
/// **Scheme** (as PostgreSQL's `pg_trgm`): the term's `Character`s are padded with two spaces
/// in front and one behind, and every window of three consecutive characters is a trigram;
/// duplicates are dropped. A term of *n* characters has at most *n* + 1 trigrams:
/// `cat` → `"  c"`, `" ca"`, `"cat"`, `"at "`. Terms never contain spaces (spaces separate
/// terms), so padding is unambiguous, and the first one or two trigrams of a term name its
/// first one or two characters — which is how a trigram table also answers prefix look-ups.
///
/// **Similarity** is the Jaccard coefficient of the two trigram sets,
/// |A ∩ B| / |A ∪ B| (Jaccard, 1901; as `pg_trgm`'s `similarity()`).
///
/// **Fuzzy match rule**, in integer arithmetic so no rounding can let a pair through: a query
/// term with *q* trigrams matches a vocabulary term with *c* trigrams sharing *s* of them when
/// - *s* ≥ ⌈*q* / 2⌉, i.e. `2 * s >= q` — at least half of the query's trigrams are shared,
///   so a short term can never match on one shared trigram (`adobe` has 5 trigrams and needs 3;
///   it shares only `dob` with `dobromat`); and
/// - Jaccard ≥ 1/2, i.e. `3 * s >= q + c` (which implies the first condition; the first is
///   kept separate because it is what an index can filter on before knowing *c*).
///
/// **One edit**: trigram overlap misses many single typos, since one edit changes up to three
/// trigrams of a short word (`hnadoff` shares 4 of its 8 trigrams with `handoff`, Jaccard 1/3).
/// A query term of at least ``minimumOneEditLength`` characters therefore also matches a
/// candidate of that length or more (one the index found sharing ⌈*q* / 2⌉ trigrams) that is one edit away —
/// one character inserted, deleted or substituted, or two adjacent characters swapped
/// (Damerau, "A technique for computer detection and correction of spelling errors",
/// *Communications of the ACM* 7(3), 1964, which found about 80 % of misspellings to be one
/// such edit) — with similarity ½, the rule's threshold (``oneEditSimilarity(of:to:)``). Terms
/// are stems, and the stemmer can move a typo further than one edit from its word (`stgaing`
/// stems to `stga`, *staging* to `stage`), so the ranker also stems every word one edit from the
/// word as typed (``oneEditWords(of:)``) and looks those stems up, at the same similarity.
///
/// Query terms shorter than ``minimumTermLength`` characters, and terms with a digit, are
/// never fuzzy-matched (too few trigrams to tell a typo from another word; numbers must match
/// exactly).
public enum Trigrams {
  /// The shortest query term, in `Character`s, that may be fuzzy-matched.
  public static let minimumTermLength = 3

  /// The distinct padded trigrams of `term`, sorted ascending.
  ///
  /// - Parameter term: a normalized term (no spaces); may be empty.
  /// - Returns: the trigrams, e.g. `handof` → `"  h"`, `" ha"`, `"and"`, `"dof"`, `"han"`,
  ///   `"ndo"`, `"of "`; an empty term has none.
  /// - Complexity: O(*n* log *n*) in the number of characters of `term`.
  public static func trigrams(of term: String) -> [String] {
    guard !term.isEmpty else { return [] }
    if let packed = asciiTrigrams(of: term) { return packed.map(string(ofPacked:)) }
    let padded: [Character] = [" ", " "] + Array(term) + [" "]
    var result = Set<String>()
    for start in 0..<(padded.count - 2) {
      result.insert(String(padded[start..<(start + 3)]))
    }
    return result.sorted()
  }

  /// The distinct padded trigrams of a term of printable ASCII (U+0021…U+007E, where every
  /// byte is one `Character`), each packed into one integer — first character in bits 16–23,
  /// second in 8–15, third in 0–7, the padding space as 0x20 — sorted ascending, which is the
  /// order of ``trigrams(of:)``'s strings; nil when the term has another byte. The form the
  /// ranker compares most query terms and vocabulary terms in: no string is made.
  ///
  /// - Complexity: O(*n* log *n*) in the bytes of `term`.
  static func asciiTrigrams(of term: String) -> [UInt32]? {
    var result: [UInt32] = []
    result.reserveCapacity(term.utf8.count + 1)
    var first: UInt32 = 0x20
    var second: UInt32 = 0x20
    for byte in term.utf8 {
      guard byte > 0x20, byte < 0x7F else { return nil }
      let third = UInt32(byte)
      result.append(first << 16 | second << 8 | third)
      first = second
      second = third
    }
    guard !result.isEmpty else { return [] }
    result.append(first << 16 | second << 8 | 0x20)
    result.sort()
    var kept = 1
    for index in 1..<result.count where result[index] != result[kept - 1] {
      result[kept] = result[index]
      kept += 1
    }
    result.removeLast(result.count - kept)
    return result
  }

  /// The three characters of a trigram packed by ``asciiTrigrams(of:)``.
  static func string(ofPacked trigram: UInt32) -> String {
    let bytes = [UInt8(truncatingIfNeeded: trigram >> 16), UInt8(truncatingIfNeeded: trigram >> 8),
                 UInt8(truncatingIfNeeded: trigram)]
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A term's distinct trigrams in the cheapest form to compare: packed integers when the term
  /// is printable ASCII (``asciiTrigrams(of:)``), else the strings of ``trigrams(of:)``. Two
  /// lists share as many trigrams as their strings do.
  enum ComparisonList {
    case ascii([UInt32])
    case strings([String])

    /// The number of distinct trigrams.
    var count: Int {
      switch self {
      case .ascii(let packed): packed.count
      case .strings(let strings): strings.count
      }
    }

    /// The trigrams as ``trigrams(of:)`` gives them.
    var strings: [String] {
      switch self {
      case .ascii(let packed): packed.map(Trigrams.string(ofPacked:))
      case .strings(let strings): strings
      }
    }
  }

  /// `term`'s trigrams for comparison (see ``ComparisonList``).
  static func comparisonList(of term: String) -> ComparisonList {
    if let packed = asciiTrigrams(of: term) { return .ascii(packed) }
    return .strings(trigrams(of: term))
  }

  /// The number of trigrams two comparison lists share; equal to ``sharedCount(_:_:)`` of
  /// their strings.
  static func sharedCount(_ a: ComparisonList, _ b: ComparisonList) -> Int {
    switch (a, b) {
    case (.ascii(let x), .ascii(let y)): sortedSharedCount(x, y)
    case (.strings(let x), .strings(let y)): sortedSharedCount(x, y)
    default: sortedSharedCount(a.strings, b.strings)
    }
  }

  /// The number of trigrams two sorted, duplicate-free trigram lists share.
  ///
  /// - Complexity: O(*a* + *b*).
  public static func sharedCount(_ a: [String], _ b: [String]) -> Int {
    sortedSharedCount(a, b)
  }

  /// The number of elements two sorted, duplicate-free arrays share.
  ///
  /// - Complexity: O(*a* + *b*).
  private static func sortedSharedCount<Element: Comparable>(_ a: [Element], _ b: [Element]) -> Int {
    var i = 0
    var j = 0
    var shared = 0
    while i < a.count && j < b.count {
      if a[i] == b[j] {
        shared += 1
        i += 1
        j += 1
      } else if a[i] < b[j] {
        i += 1
      } else {
        j += 1
      }
    }
    return shared
  }

  /// ⌈`queryTrigramCount` / 2⌉: the fewest trigrams a vocabulary term must share with a query
  /// term to be considered.
  public static func minimumShared(queryTrigramCount: Int) -> Int {
    (queryTrigramCount + 1) / 2
  }

  /// The fuzzy match rule above, in integers.
  ///
  /// - Parameters:
  ///   - shared: trigrams the two terms share.
  ///   - queryCount: trigrams of the query term.
  ///   - candidateCount: trigrams of the vocabulary term.
  public static func isMatch(shared: Int, queryCount: Int, candidateCount: Int) -> Bool {
    shared > 0 && 2 * shared >= queryCount && 3 * shared >= queryCount + candidateCount
  }

  /// The Jaccard similarity |A ∩ B| / |A ∪ B| of two trigram sets given by their sizes, in 0…1.
  public static func jaccard(shared: Int, queryCount: Int, candidateCount: Int) -> Double {
    let union = queryCount + candidateCount - shared
    return union > 0 ? Double(shared) / Double(union) : 0
  }

  /// The similarity of `query` to `candidate` when it passes the fuzzy match rule, else nil.
  ///
  /// - Returns: the Jaccard similarity (≥ 0.5), e.g. `handof`/`handoff` → 0.667; nil for
  ///   `adobe`/`dobromat` or when `query` is too short or has a digit.
  public static func fuzzySimilarity(of query: String, to candidate: String) -> Double? {
    guard isFuzzyEligible(query) else { return nil }
    let q = comparisonList(of: query)
    let c = comparisonList(of: candidate)
    let shared = sharedCount(q, c)
    guard isMatch(shared: shared, queryCount: q.count, candidateCount: c.count) else {
      return nil
    }
    return jaccard(shared: shared, queryCount: q.count, candidateCount: c.count)
  }

  /// The shortest query term, in `Character`s, that may match a term one edit away when their
  /// trigrams do not pass the rule: shorter words have too many neighbours one edit away
  /// (`cat`: `car`, `cut`, `coat`, …).
  public static let minimumOneEditLength = 5

  /// The similarity of `query` to `candidate` under the one-edit rule: ½ when both have at
  /// least ``minimumOneEditLength`` characters, `query` is fuzzy-eligible, and the two are one
  /// insertion, deletion, substitution or adjacent transposition apart; else nil.
  ///
  /// - Returns: 0.5, e.g. `hnadoff`/`handoff`, `laptp`/`laptop`, `culster`/`cluster`; nil for
  ///   `ballet`/`galleri` (three edits), a four-letter `adob`, or `email`/`mail`.
  public static func oneEditSimilarity(of query: String, to candidate: String) -> Double? {
    guard query.count >= minimumOneEditLength, candidate.count >= minimumOneEditLength,
      isFuzzyEligible(query), areOneEditApart(Array(query), Array(candidate))
    else { return nil }
    return oneEditMatchSimilarity
  }

  /// The similarity a match one edit away counts with: ½, the trigram rule's threshold, so it
  /// ranks below every candidate that passes the rule itself.
  public static let oneEditMatchSimilarity = 0.5

  /// The distinct words one adjacent swap or one deletion away from `term`, in order of
  /// position, without `term` itself: the one-edit candidates a trigram look-up can miss
  /// (`abckup` → `bacup`… `backup`…).
  /// - Complexity: O(*n*²) for *n* characters; at most 2*n* − 1 words.
  static func swapsAndDeletions(of term: String) -> [String] {
    let characters = Array(term)
    var out: [String] = []
    var seen: Set<String> = [term]
    func add(_ word: [Character]) {
      let s = String(word)
      if seen.insert(s).inserted { out.append(s) }
    }
    for i in characters.indices.dropLast() where characters[i] != characters[i + 1] {
      var swapped = characters
      swapped.swapAt(i, i + 1)
      add(swapped)
    }
    for i in characters.indices {
      var dropped = characters
      dropped.remove(at: i)
      add(dropped)
    }
    return out
  }

  /// The words one edit away from `word` over the letters `a`–`z`: one letter deleted, two
  /// adjacent letters swapped, one letter replaced by another, or one letter inserted — every
  /// word at Damerau–Levenshtein distance 1 (Damerau 1964) — each once, without `word`, in that
  /// order (positions ascending, then letters alphabetically).
  ///
  /// This is the candidate set of Norvig's spelling corrector (P. Norvig, "How to Write a
  /// Spelling Corrector", 2007, `edits1`): a word of *n* letters has at most
  /// *n* + (*n* − 1) + 25*n* + 26(*n* + 1) = 54*n* + 25 of them, however large the vocabulary,
  /// so looking each up costs a bounded number of index probes, where comparing the word with
  /// every vocabulary term would grow with the workspace.
  ///
  /// - Parameter word: lowercase ASCII letters (`a`–`z`).
  /// - Returns: the words, e.g. `stgaing` → … `staging` (a swap) …; `word` itself never.
  /// - Complexity: O(*n*²) for *n* letters.
  static func oneEditWords(of word: [UInt8]) -> [[UInt8]] {
    var out: [[UInt8]] = []
    out.reserveCapacity(54 * word.count + 25)
    forEachOneEditWord(of: word) { out.append($0) }
    return out
  }

  /// Calls `body` with each word of ``oneEditWords(of:)``, in the same order, in one reused
  /// buffer (valid only during the call), so that no word is allocated unless `body` keeps it.
  ///
  /// Each word comes once by construction, with no set to look it up in: a deletion from a run
  /// of equal letters is taken at the run's first letter, an insertion of a letter next to the
  /// same letter only before it, and two equal letters are never swapped; a substitution never
  /// gives a deletion's or insertion's length, nor a swap's word (which differs from `word` in
  /// two places).
  /// - Complexity: O(*n*²) for *n* letters.
  static func forEachOneEditWord(of word: [UInt8], _ body: ([UInt8]) -> Void) {
    let n = word.count
    guard n > 0 else {
      for letter in UInt8(ascii: "a")...UInt8(ascii: "z") { body([letter]) }
      return
    }
    let letters = UInt8(ascii: "a")...UInt8(ascii: "z")
    var edit: [UInt8] = []
    edit.reserveCapacity(n + 1)
    for i in 0..<n where i == 0 || word[i] != word[i - 1] {
      edit.removeAll(keepingCapacity: true)
      edit.append(contentsOf: word[..<i])
      edit.append(contentsOf: word[(i + 1)...])
      body(edit)
    }
    edit.removeAll(keepingCapacity: true)
    edit.append(contentsOf: word)
    for i in 0..<(n - 1) where word[i] != word[i + 1] {
      edit.swapAt(i, i + 1)
      body(edit)
      edit.swapAt(i, i + 1)
    }
    for i in 0..<n {
      for letter in letters where letter != word[i] {
        edit[i] = letter
        body(edit)
      }
      edit[i] = word[i]
    }
    for i in 0...n {
      edit.removeAll(keepingCapacity: true)
      edit.append(contentsOf: word[..<i])
      edit.append(0)
      edit.append(contentsOf: word[i...])
      for letter in letters where i == 0 || word[i - 1] != letter {
        edit[i] = letter
        body(edit)
      }
    }
  }

  /// Whether `a` and `b` differ by exactly one insertion, deletion, substitution or swap of
  /// two adjacent characters (optimal string alignment distance 1).
  /// - Complexity: O(*n*).
  static func areOneEditApart(_ a: [Character], _ b: [Character]) -> Bool {
    if a.count == b.count {
      guard let first = a.indices.first(where: { a[$0] != b[$0] }) else { return false }
      let rest = first + 1
      if a[rest...] == b[rest...] { return true }  // one substitution
      // Two adjacent characters swapped.
      return rest < a.count && a[first] == b[rest] && a[rest] == b[first]
        && a[(rest + 1)...] == b[(rest + 1)...]
    }
    let (short, long) = a.count < b.count ? (a, b) : (b, a)
    guard long.count == short.count + 1 else { return false }
    let first = short.indices.first(where: { short[$0] != long[$0] }) ?? short.count
    return short[first...] == long[(first + 1)...]  // one insertion
  }

  /// Whether two terms are close enough in length to be spelling or word-form variants of
  /// each other: the longer has at most twice the `Character`s of the shorter. Trigram sets
  /// ignore repetition (`aaaa…a` has the trigrams of `aa` plus one), so the similarity rule
  /// alone would let a 500-letter run match a two-letter word.
  public static func haveComparableLengths(_ a: String, _ b: String) -> Bool {
    let (x, y) = (a.count, b.count)
    return max(x, y) <= 2 * min(x, y)
  }

  /// True when `term` may be fuzzy-matched: at least ``minimumTermLength`` characters and no
  /// digit.
  public static func isFuzzyEligible(_ term: String) -> Bool {
    term.count >= minimumTermLength
      && !term.unicodeScalars.contains { $0.properties.numericType != nil }
  }
}
