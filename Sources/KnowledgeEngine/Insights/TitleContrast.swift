/// How two similar titles differ, read from their words: whether they say opposite things,
/// name different choices or values, or only reword one another.
///
/// Trigram similarity cannot tell `Enable feature flag X` from `Disable feature flag X` (0.80)
/// or `Use tabs for indentation` from `Use spaces for indentation`, yet those pairs disagree
/// even when neither item has any content (review 20-b, #1). The insight rules read a pair
/// through ``init(_:_:)`` before advising to merge it:
///
/// - ``Kind/opposite``: the titles differ in *polarity*. Each negation word (``negations``:
///   `not`, `no`, `never`, `don't`, `do not`, `without`, …) and each second member of an
///   antonym pair (``antonyms``: `disable` of enable/disable, `deny` of allow/deny, `never` of
///   always/never, `avoid` of use/avoid, `off` of on/off, …) flips a title's polarity; two
///   titles whose polarity differs say opposite things (`Do not use SQLite WAL mode` / `Use
///   SQLite WAL mode`; `Always squash merge PRs` / `Never squash merge PRs`). Two flips cancel
///   (`Do not disable X` agrees with `Enable X`).
/// - ``Kind/differentValues``: the words that differ (what is left once the words both titles
///   share at the start and at the end are set aside) hold a number or a URL, path, host or
///   address (`Staging URL is https://staging.example.com` / `…staging2…`, `port 8080` / `port
///   8081`): the titles may state two values of one thing.
/// - ``Kind/alternatives``: the words that differ are, on each side, one to three words that
///   are not all ``stopWords``, and no word is on both sides or starts like a word of the other
///   side (its first four letters, or the whole of a shorter word: `cache` / `caching` is one
///   word reworded): the titles name different choices (`tabs` / `spaces`, `MySQL` /
///   `PostgreSQL`).
/// - ``Kind/sameWords``: the same words in the same order (case and punctuation aside).
/// - ``Kind/reworded``: anything else.
///
/// Deterministic, English word lists, no model.
struct TitleContrast: Equatable {
  /// What the contrast is.
  enum Kind: Equatable {
    case opposite
    case differentValues
    case alternatives
    case sameWords
    case reworded
  }

  var kind: Kind
  /// The differing words as shown in a message (`enable / disable`, `tabs / spaces`), at most
  /// 40 characters a side; empty for ``Kind/sameWords`` and ``Kind/reworded``.
  var detail: String

  /// Negation words: each flips a title's polarity. `do not` counts once (`not`); contractions
  /// are read with or without the apostrophe.
  static let negations: Set<String> = [
    "not", "no", "never", "dont", "don't", "doesnt", "doesn't", "isnt", "isn't", "shouldnt", "shouldn't", "cannot",
    "cant", "can't", "wont", "won't", "without", "nor",
  ]

  /// Antonym pairs, each as (first, second) with the word forms that count. A word of a
  /// second member flips a title's polarity (so does `never`, already a negation).
  static let antonymPairs: [(first: [String], second: [String])] = [
    (["enable", "enables", "enabled", "enabling"], ["disable", "disables", "disabled", "disabling"]),
    (["allow", "allows", "allowed", "allowing"], ["deny", "denies", "denied", "denying", "disallow", "disallowed", "forbid", "forbids", "forbidden"]),
    (["always"], ["never"]),
    (["use", "uses", "used", "using", "prefer", "prefers", "preferred"], ["avoid", "avoids", "avoided", "avoiding"]),
    (["on"], ["off"]),
    (["add", "adds", "added", "adding"], ["remove", "removes", "removed", "removing", "drop", "drops", "dropped", "dropping"]),
    (["include", "includes", "included", "including"], ["exclude", "excludes", "excluded", "excluding"]),
    (["accept", "accepts", "accepted", "accepting"], ["reject", "rejects", "rejected", "rejecting"]),
    (["increase", "increases", "increased", "increasing"], ["decrease", "decreases", "decreased", "decreasing", "reduce", "reduces", "reduced", "reducing"]),
    (["show", "shows", "shown", "showing"], ["hide", "hides", "hidden", "hiding"]),
    (["start", "starts", "started", "starting"], ["stop", "stops", "stopped", "stopping"]),
    (["keep", "keeps", "kept", "keeping"], ["delete", "deletes", "deleted", "deleting"]),
    (["require", "requires", "required", "requiring"], ["skip", "skips", "skipped", "skipping"]),
    (["true", "yes"], ["false"]),
  ]

  /// Each word form that flips polarity: the second members of ``antonymPairs``.
  static let antonyms: Set<String> = Set(antonymPairs.flatMap(\.second))

  /// Each antonym word form mapped to the first form of its pair's first member (`disable`,
  /// `disabled`, `enabled` → `enable`): titles read this way match across a pair.
  static let neutralForm: [String: String] = {
    var out: [String: String] = [:]
    for (first, second) in antonymPairs {
      for w in first + second where out[w] == nil { out[w] = first[0] }
    }
    return out
  }()

  /// Auxiliaries left out of a neutral title with the negation that follows them.
  static let auxiliaries: Set<String> = ["do", "does", "did", "should", "must", "will", "can"]

  /// Small words that do not make two titles name different choices on their own.
  static let stopWords: Set<String> = [
    "a", "an", "the", "for", "in", "of", "to", "with", "by", "at", "as", "and", "or", "is", "are", "be", "from",
    "into", "our", "we", "all", "it", "its", "this", "that", "via", "per",
  ]

  /// The words of a title as the contrast reads them: whitespace-separated tokens, lowercased,
  /// trimmed of punctuation at both ends (so `https://x.example.com` and `don't` stay whole),
  /// with the right single quote `’` read as `'`.
  /// - Complexity: O(*n*) in the title's characters (``choicePairs(_:)`` reads every decision's
  ///   and preference's title with it).
  static func tokens(_ title: String) -> [String] {
    if let ascii = asciiTokens(title) { return ascii }
    var out: [String] = []
    for raw in title.lowercased().split(whereSeparator: \.isWhitespace) {
      let isWordCharacter = { (c: Character) in c.isLetter || c.isNumber }
      guard let first = raw.firstIndex(where: isWordCharacter), let last = raw.lastIndex(where: isWordCharacter) else {
        continue
      }
      let token = raw[first...last]
      if token.unicodeScalars.contains("\u{2019}") {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: token.unicodeScalars.lazy.map { $0 == "\u{2019}" ? "'" : $0 })
        out.append(String(scalars))
      } else {
        out.append(String(token))
      }
    }
    return out
  }

  /// ``tokens(_:)`` of an ASCII title, read byte by byte (the same words: for ASCII, letters are
  /// `A`–`Z` and `a`–`z`, numbers `0`–`9`, white space tab to carriage return and space); nil
  /// when the title holds a byte beyond ASCII.
  private static func asciiTokens(_ title: String) -> [String]? {
    var out: [String] = []
    var word: [UInt8] = []
    func flush() {
      // Trimmed of what is not a letter or digit at both ends.
      let isWordByte = { (b: UInt8) in (0x30...0x39).contains(b) || (0x61...0x7A).contains(b) }
      if let first = word.firstIndex(where: isWordByte), let last = word.lastIndex(where: isWordByte) {
        out.append(String(decoding: word[first...last], as: UTF8.self))
      }
      word.removeAll(keepingCapacity: true)
    }
    for byte in title.utf8 {
      guard byte < 0x80 else { return nil }
      if (0x09...0x0D).contains(byte) || byte == 0x20 {
        flush()
      } else {
        word.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
      }
    }
    flush()
    return out
  }

  /// How many times the words flip polarity (negations and second antonym members).
  static func flips(_ words: [String]) -> Int {
    var n = 0
    for w in words where negations.contains(w) || antonyms.contains(w) { n += 1 }
    return n
  }

  /// The title with negations (and an auxiliary right before one) left out and antonyms in
  /// their neutral form (`Do not disable X` → `enable x`), or `nil` when it has neither: what the possible-conflict join also
  /// compares, so a negation that lowers trigram similarity does not hide the pair.
  static func neutralTitle(_ title: String) -> String? {
    let words = tokens(title)
    guard words.contains(where: { negations.contains($0) || neutralForm[$0] != nil }) else { return nil }
    let joined = neutralWords(words).joined(separator: " ")
    return joined == words.joined(separator: " ") ? nil : joined
  }

  /// `words` with negations (and an auxiliary right before one: `do not use` reads `use`) left
  /// out and antonyms in their neutral form (`never` → `always`, `disabled` → `enable`).
  static func neutralWords(_ words: [String]) -> [String] {
    var out: [String] = []
    for (k, w) in words.enumerated() {
      if let neutral = neutralForm[w] {
        out.append(neutral)
      } else if negations.contains(w) {
        continue
      } else if auxiliaries.contains(w), k + 1 < words.count, negations.contains(words[k + 1]) {
        continue
      } else {
        out.append(w)
      }
    }
    return out
  }

  /// Reads how `a` and `b` differ (see the type's summary for the order of the tests).
  init(_ a: String, _ b: String) {
    let x = Self.tokens(a), y = Self.tokens(b)
    let words = { (s: String) in s.split { !$0.isLetter && !$0.isNumber }.map(String.init) }
    let wx = x.flatMap(words), wy = y.flatMap(words)
    // The differing middle of the token sequences.
    var start = 0
    while start < min(x.count, y.count), x[start] == y[start] { start += 1 }
    var end = 0
    while end < min(x.count, y.count) - start, x[x.count - 1 - end] == y[y.count - 1 - end] { end += 1 }
    let dx = Array(x[start..<(x.count - end)]), dy = Array(y[start..<(y.count - end)])
    func shown(_ side: [String]) -> String {
      let s = side.isEmpty ? "—" : side.joined(separator: " ")
      return s.count > 40 ? String(s.prefix(39)) + "…" : s
    }
    let detail = "\(shown(dx)) / \(shown(dy))"
    if Self.flips(x) % 2 != Self.flips(y) % 2 {
      // Name the polarity words only, when the titles differ in more than them.
      let px = x.filter { Self.negations.contains($0) || Self.antonyms.contains($0) || Self.neutralForm[$0] != nil }
      let py = y.filter { Self.negations.contains($0) || Self.antonyms.contains($0) || Self.neutralForm[$0] != nil }
      let polar = "\(shown(px.filter { !py.contains($0) })) / \(shown(py.filter { !px.contains($0) }))"
      self.init(kind: .opposite, detail: dx.count + dy.count > 4 ? polar : detail)
      return
    }
    if wx == wy {
      self.init(kind: .sameWords, detail: "")
      return
    }
    func isValue(_ t: String) -> Bool {
      t.contains { $0.isNumber } || t.contains("://") || t.contains("/") || t.contains("@")
        || (t.contains(".") && t.split(separator: ".").count > 1 && t.split(separator: ".").allSatisfy { !$0.isEmpty })
    }
    if (dx + dy).contains(where: isValue) {
      self.init(kind: .differentValues, detail: detail)
      return
    }
    // Read without polarity: `do not disable` and `enable` are one choice, not two.
    let sx = Self.neutralWords(dx).flatMap(words), sy = Self.neutralWords(dy).flatMap(words)
    func related(_ p: String, _ q: String) -> Bool {
      let n = min(4, p.count, q.count)
      return p.prefix(n) == q.prefix(n)
    }
    let distinct =
      !sx.isEmpty && !sy.isEmpty && sx.count <= 3 && sy.count <= 3
      && !sx.allSatisfy(Self.stopWords.contains) && !sy.allSatisfy(Self.stopWords.contains)
      && !sx.contains { p in sy.contains { q in related(p, q) } }
    self.init(kind: distinct ? .alternatives : .reworded, detail: distinct ? detail : "")
  }

  init(kind: Kind, detail: String) {
    self.kind = kind
    self.detail = detail
  }

  /// Whether the titles disagree on their own, content aside: ``Kind/opposite``,
  /// ``Kind/differentValues`` or ``Kind/alternatives``.
  var disagrees: Bool { kind == .opposite || kind == .differentValues || kind == .alternatives }
}
