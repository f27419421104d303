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
///   (`Do not disable X` agrees with `Enable X`). Titles that exchange two phrases around a
///   rejection also say opposite things, though their polarity is the same
///   (``exchangedRejection(_:_:middles:_:)``: `Use spaces, not tabs` / `Use tabs, not spaces`;
///   `Prefer tabs over spaces` / `Prefer spaces over tabs`; `Do not use tabs, use spaces` / `Do
///   not use spaces, use tabs`; review 27-a, 12).
/// - ``Kind/differentValues``: the words that differ (what is left once the words both titles
///   share at the start and at the end are set aside) hold a number or a URL, path, host or
///   address (`Staging URL is https://staging.example.com` / `…staging2…`, `port 8080` / `port
///   8081`): the titles may state two values of one thing.
/// - ``Kind/alternatives``: the words that differ are, on each side, one to three words that
///   are not all ``stopWords``, and no word is on both sides or starts like a word of the other
///   side (its first four letters, or the whole of a shorter word: `cache` / `caching` is one
///   word reworded), and they stand where a choice is named (``namesChoice(_:_:)``: after a
///   choosing verb such as `use` or `prefer`, or a choosing preposition such as `with`, `in`,
///   `on`): the titles name different choices (`Use tabs…` / `Use spaces…`, `Deploy with
///   Kubernetes` / `Deploy with Nomad`). Elsewhere the words name two things that may hold
///   together (`Run tests on CI` / `Run linters on CI`, `Encrypt backups at rest` / `Compress
///   backups at rest`; review 27-a, 13), and the contrast is ``Kind/reworded`` — unless both
///   sides are numbers spelled out (`day two` / `day one`), which name two values wherever they
///   stand.
/// - ``Kind/sameWords``: the same words in the same order (case and punctuation aside).
/// - ``Kind/reworded``: anything else — including differing words that name no choice, which
///   conflict only when the items' content differs too, as any similar titles.
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

    /// Whether titles of this contrast disagree on their own: ``opposite``,
    /// ``differentValues`` or ``alternatives``.
    var disagrees: Bool { self == .opposite || self == .differentValues || self == .alternatives }
  }

  var kind: Kind
  /// The differing words as shown in a message (`enable / disable`, `tabs / spaces`), at most
  /// 40 characters a side; empty for ``Kind/sameWords`` and ``Kind/reworded``.
  var detail: String

  /// Negation words: each flips a title's polarity. `do not` counts once (`not`); contractions
  /// are read with or without the apostrophe. `needn't`, `shan't`, `mightn't`, `oughtn't`,
  /// `hadn't` are among them (review 27-a, 14: `Needn't sign commits` / `Need to sign commits`
  /// were not read as opposite).
  static let negations: Set<String> = [
    "not", "no", "never", "dont", "don't", "doesnt", "doesn't", "didnt", "didn't", "isnt", "isn't", "arent", "aren't",
    "wasnt", "wasn't", "werent", "weren't", "hasnt", "hasn't", "havent", "haven't", "hadnt", "hadn't", "shouldnt",
    "shouldn't", "mustnt", "mustn't", "cannot", "cant", "can't", "couldnt", "couldn't", "wont", "won't", "wouldnt",
    "wouldn't", "neednt", "needn't", "shant", "shan't", "mightnt", "mightn't", "oughtnt", "oughtn't", "without", "nor",
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

  /// Auxiliaries and modals left out of a neutral title with the negation that follows them,
  /// and named with it (`must not validate`).
  static let auxiliaries: Set<String> = [
    "do", "does", "did", "should", "must", "will", "can", "may", "might", "could", "would", "shall",
  ]

  /// Verbs whose object is a choice (review 27-a, 13): words that differ right after one of them
  /// (determiners aside: `Use the Postgres driver`) name different choices (`Use tabs` / `Use
  /// spaces`, `Prefer Vim` / `Prefer Emacs`). `run`, `write`, `deploy`, `store` are not among
  /// them: what they act on is a task, not a choice (`Run tests on CI` / `Run linters on CI`);
  /// where such work is done or kept is, after a choosing preposition (`Deploy with Nomad`,
  /// `Store dates in UTC`).
  static let choosingVerbs: Set<String> = [
    "use", "uses", "used", "using", "prefer", "prefers", "preferred", "preferring", "choose", "chooses", "chose",
    "chosen", "choosing", "pick", "picks", "picked", "picking", "adopt", "adopts", "adopted", "adopting", "select",
    "selects", "selected", "selecting",
  ]

  /// Prepositions after which words name a choice of means, place or form (`Deploy with Nomad`,
  /// `Host on AWS`, `Store dates in UTC`, `Ship notes as HTML`, `Sync via rsync`, `Tunnel over
  /// SSH`); with them the verb phrases `standardize on`, `settle on`, `go with`, `stick with`.
  static let choosingPrepositions: Set<String> = ["with", "via", "in", "on", "as", "over"]

  /// Particles after which words name a choice when one of these verbs stands right before them:
  /// `switch to`, `migrate to`, `move to`, `default to`, `log to` (where logs go: `Log to stdout` /
  /// `Log to stderr`, review 27-a, 14), `opt for` (a bare `to` or `for` names a target or a
  /// purpose: `Use Postgres for analytics` / `Use Postgres for reporting` hold together).
  static let choosingParticles: [String: Set<String>] = [
    "to": [
      "switch", "switches", "switched", "switching", "migrate", "migrates", "migrated", "migrating", "move", "moves",
      "moved", "moving", "default", "defaults", "defaulted", "log", "logs", "logged", "logging",
    ],
    "for": ["opt", "opts", "opted", "opting"],
  ]

  /// Words skipped between a choosing word and the words that differ (`Use the Postgres driver`).
  static let determiners: Set<String> = [
    "a", "an", "the", "our", "your", "their", "its", "my", "this", "that", "these", "those",
  ]

  /// Modifiers that may stand between a choosing verb and the words that differ (`Use managed
  /// Postgres` / `Use managed MySQL`, `Use local SQLite` / `Use local Postgres`): words that say
  /// how or where the chosen thing runs, so that what follows them is the choice. A closed list:
  /// any word there would make `Use Swift concurrency` / `Use Swift packages` (two things that
  /// hold together) a choice, and every `Use X Y` / `Use X Z` in a workspace a possible conflict.
  static let choiceModifiers: Set<String> = [
    "managed", "hosted", "self-hosted", "selfhosted", "local", "remote", "embedded", "native", "cloud", "serverless",
    "in-memory", "on-prem", "external", "internal", "dedicated", "standalone", "official", "third-party", "plain",
    "vanilla",
  ]

  /// Words after which words that open a title name a choice: `Vim as the editor` / `Emacs as the
  /// editor`, `Tabs over spaces`. A title opens with its verb or its subject; other openings
  /// (`Encrypt backups…` / `Compress backups…`, `Tests for the API` / `Docs for the API`) are two
  /// actions or two things, not a choice.
  static let choosingFollowers: Set<String> = ["as", "over"]

  /// Words that reject what follows them without flipping a title's polarity (`Prefer tabs over
  /// spaces`, `Use tabs instead of spaces`, `… rather than …`): read by ``exchangedRejection(_:_:middles:_:)``.
  static let rejecting: Set<String> = ["over", "instead", "rather"]

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
  static func flips(_ words: some Sequence<String>) -> Int {
    var n = 0
    for w in words where negations.contains(w) || antonyms.contains(w) { n += 1 }
    return n
  }

  /// The title with negations (and an auxiliary right before one) left out and antonyms in
  /// their neutral form (`Do not disable X` → `enable x`), or `nil` when it has neither: what the possible-conflict join also
  /// compares, so a negation that lowers trigram similarity does not hide the pair.
  static func neutralTitle(_ title: String) -> String? {
    // Most titles hold no such word: said from their bytes, without building their words.
    guard mayHavePolarityWord(title) else { return nil }
    let words = tokens(title)
    guard words.contains(where: { negations.contains($0) || neutralForm[$0] != nil }) else { return nil }
    let joined = neutralWords(words).joined(separator: " ")
    return joined == words.joined(separator: " ") ? nil : joined
  }

  /// Keys (``PackedASCIIWords``) of the words that make ``neutralTitle(_:)`` differ from the
  /// title: the ``negations`` and the word forms whose ``neutralForm`` is another word
  /// (`disabled`, `never`, `used`; not `use` or `enable`), a contraction by its letters before
  /// the apostrophe (`don` of `don't`).
  static let polarityKeys: PackedASCIIWords.KeySet = {
    let words = negations.union(neutralForm.filter { $0.key != $0.value }.keys)
    return PackedASCIIWords.KeySet(words.map { word in
      guard let key = PackedASCIIWords.key(word.prefix { $0 != "'" }) else {
        preconditionFailure("polarity word '\(word)' is not ASCII letters before its apostrophe")
      }
      return key
    })
  }()

  /// Whether `title` may hold a word that ``neutralTitle(_:)`` leaves out or rewrites: `false`
  /// only when none of its runs of ASCII letters is such a word (or a contraction's letters
  /// before the apostrophe), in which case ``neutralTitle(_:)`` is `nil`. Every such word is
  /// ASCII and its token stands between white space or punctuation, so it is one run
  /// (``PackedASCIIWords``); a run may also be part of a longer token (`no` in `no-op`), which
  /// only sends the title to be read whole.
  /// - Complexity: O(*n*) in the title's UTF-8 bytes, nothing allocated.
  static func mayHavePolarityWord(_ title: String) -> Bool {
    PackedASCIIWords.forEachKey(in: title) { key in key.map(polarityKeys.contains) ?? true }
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
    self.init(tokens: Self.tokens(a), Self.tokens(b))
  }

  /// Reads how two titles differ from their ``tokens(_:)`` `x` and `y` (a caller that has them
  /// already does not read the titles again).
  ///
  /// The tests read only the differing middles, `dx` and `dy`, where they can: the words both
  /// titles share around them flip both titles' polarity alike and give both the same words,
  /// so the parity of the flips differs exactly when that of the middles' flips does, and the
  /// titles have the same words exactly when the middles have.
  init(tokens x: [String], _ y: [String]) {
    let (dx, dy) = Self.middles(x, y)
    let kind = Self.kind(x, y, middles: dx, dy)
    func shown(_ side: [String]) -> String {
      let s = side.isEmpty ? "—" : side.joined(separator: " ")
      return s.count > 40 ? String(s.prefix(39)) + "…" : s
    }
    let detail = { "\(shown(Array(dx))) / \(shown(Array(dy)))" }
    switch kind {
    case .opposite where Self.flips(dx) % 2 == Self.flips(dy) % 2:
      // The same polarity: two phrases exchanged around a rejection, named with what each
      // rejects (`not tabs / not spaces`, review 27-a, 12). Only such an exchange is opposite
      // at one polarity; the middles would do if that changed.
      let (rx, ry) = Self.exchangedRejection(x, y, middles: dx, dy) ?? (Array(dx), Array(dy))
      self.init(kind: .opposite, detail: "\(shown(rx)) / \(shown(ry))")
    case .opposite:
      // Name the polarity words only, when the titles differ in more than them.
      let px = x.filter(Self.isPolarityWord), py = y.filter(Self.isPolarityWord)
      let onlyX = px.filter { !py.contains($0) }, onlyY = py.filter { !px.contains($0) }
      let long = dx.count + dy.count > 4
      // One title only adds a negation (`Allow X` / `Do not allow X`): name what it negates,
      // on both sides, rather than one side with nothing (`— / do not`, review 24-b, 6).
      if long ? onlyX.isEmpty || onlyY.isEmpty : dx.isEmpty || dy.isEmpty,
        let (nx, ny) = Self.negatedPhrases(x, y) ?? Self.negatedPhrases(y, x).map({ ($0.1, $0.0) })
      {
        self.init(kind: .opposite, detail: "\(shown(nx)) / \(shown(ny))")
      } else if !long,
        [dx, dy].contains(where: { ($0.count >= 2 && Self.negations.contains($0.last!)) || $0.last == "no" }),
        dx.endIndex < x.count
      {
        // A side ends with a negation after a modal (`should validate` / `must not validate`):
        // name the word it negates on both sides, `should validate / must not validate`, not
        // `should / must not` (review 26-b, 11). A one-word side (`always / never`, `are /
        // aren't`) says it already — but for `no`, which negates the noun after it: `an orm /
        // no orm`, not `an / no` (review 27-a, 16).
        self.init(
          kind: .opposite, detail: "\(shown(Array(dx) + [x[dx.endIndex]])) / \(shown(Array(dy) + [y[dy.endIndex]]))")
      } else {
        self.init(kind: .opposite, detail: long ? "\(shown(onlyX)) / \(shown(onlyY))" : detail())
      }
    case .differentValues, .alternatives: self.init(kind: kind, detail: detail())
    case .sameWords, .reworded: self.init(kind: kind, detail: "")
    }
  }

  /// When `words` holds a negation that `other` does not, followed by a word that is no
  /// negation and that `other` has too: the negation with the auxiliary before it and the
  /// word it negates (`do not allow`), and that word as `other` says it — with the same
  /// auxiliary when `other` has it right before the word (`must not validate` / `must
  /// validate`), alone otherwise (`do not allow` / `allow`); `nil` otherwise.
  static func negatedPhrases(_ words: [String], _ other: [String]) -> ([String], [String])? {
    guard let k = words.indices.first(where: { negations.contains(words[$0]) && !other.contains(words[$0]) }),
      k + 1 < words.count, !negations.contains(words[k + 1]), other.contains(words[k + 1])
    else { return nil }
    guard k > 0, auxiliaries.contains(words[k - 1]) else { return (Array(words[k...(k + 1)]), [words[k + 1]]) }
    let pair = [words[k - 1], words[k + 1]]
    let otherHasPair = other.indices.dropLast().contains { other[$0] == pair[0] && other[$0 + 1] == pair[1] }
    return (Array(words[(k - 1)...(k + 1)]), otherHasPair ? pair : [words[k + 1]])
  }

  /// The kind of ``init(tokens:_:)``'s contrast, without its detail: what a caller that only
  /// asks whether titles disagree, or name different choices, needs.
  static func kind(tokens x: [String], _ y: [String]) -> Kind {
    let (dx, dy) = middles(x, y)
    return kind(x, y, middles: dx, dy)
  }

  /// When `x` and `y` (their differing middles `dx`, `dy`) say opposite things by exchanging two
  /// phrases around a rejection (review 27-a, 12): the rejection with what it rejects, as each
  /// title says it (`not tabs`, `not spaces`); `nil` otherwise.
  ///
  /// The middles must read *A M B* and *B M A*, *A* and *B* one to three words each, not only
  /// small words, neither holding a negation, antonym or rejecting word, with either
  ///
  /// 1. *M* rejecting what follows it — an odd number of polarity flips (``flips(_:)``: `not`,
  ///    `never`, `disable`…) or a ``rejecting`` word (`over`, `instead`, `rather`) — and no
  ///    negation in the words both titles open with: `Use spaces, not tabs` / `Use tabs, not
  ///    spaces` (`not tabs / not spaces`), `Prefer tabs over spaces` / `Prefer spaces over tabs`
  ///    (`over spaces / over tabs`). Under a shared negation both phrases are rejected alike
  ///    (`Do not use tabs, do not use spaces`), so the exchange changes nothing; or
  /// 2. a negation (not `nor`) in the words both titles open with, negating *A* alone: *M* ends
  ///    with the words between the negation and *A*, said again without it, and holds no flip,
  ///    rejecting word, `or` or `nor`: `Do not use tabs, use spaces` / `Do not use spaces, use
  ///    tabs` (`do not use tabs / do not use spaces`). With `or` (`Do not use tabs or use
  ///    spaces`) both are negated, and the exchange changes nothing.
  ///
  /// Words in the same order with `and`, `or`, `,` between them (`Run tests and linters` /
  /// `Run linters and tests`) exchange nothing that is rejected, and are not opposite.
  /// - Complexity: at most nine splits of the middles, each compared in O(*m*) for middles of *m*
  ///   words; nothing is read unless the middles have the same length, three words or more.
  static func exchangedRejection(
    _ x: [String], _ y: [String], middles dx: ArraySlice<String>, _ dy: ArraySlice<String>
  ) -> ([String], [String])? {
    let n = dx.count
    guard n >= 3, dy.count == n else { return nil }
    let start = dx.startIndex
    func rejects(_ w: String) -> Bool { negations.contains(w) || antonyms.contains(w) || rejecting.contains(w) }
    func isPhrase(_ p: ArraySlice<String>) -> Bool { !p.contains(where: rejects) && !p.allSatisfy(stopWords.contains) }
    let negatedOpening = x[..<start].lastIndex { negations.contains($0) && $0 != "nor" }
    for a in 1...min(3, n - 2) {
      for b in 1...min(3, n - 1 - a) {
        let phraseA = dx.prefix(a), phraseB = dx.suffix(b), m = dx.dropFirst(a).dropLast(b)
        guard dy.prefix(b).elementsEqual(phraseB), dy.suffix(a).elementsEqual(phraseA),
          dy.dropFirst(b).dropLast(a).elementsEqual(m), isPhrase(phraseA), isPhrase(phraseB)
        else { continue }
        if flips(m) % 2 == 1 || m.contains(where: rejecting.contains) {
          guard negatedOpening == nil, let r = m.firstIndex(where: rejects) else { continue }
          // The auxiliary of a negation is named with it (`do not use tabs`).
          let from = r > m.startIndex && auxiliaries.contains(m[r - 1]) && negations.contains(m[r]) ? r - 1 : r
          return (Array(m[from...] + phraseB), Array(m[from...] + phraseA))
        }
        if let k = negatedOpening, k + 1 < start, !m.contains(where: rejects), !m.contains("or"), !m.contains("nor") {
          let negated = x[(k + 1)..<start]
          guard m.count >= negated.count, m.suffix(negated.count).elementsEqual(negated) else { continue }
          let from = k > 0 && auxiliaries.contains(x[k - 1]) ? k - 1 : k
          return (Array(x[from..<start] + phraseA), Array(x[from..<start] + phraseB))
        }
      }
    }
    return nil
  }

  /// Whether the differing words `middle` of title `t` (its ``tokens(_:)``; `middle` indexes
  /// into it) stand where a choice is named (review 27-a, 13):
  ///
  /// 1. they open with a ``choosingVerbs`` word and go on (`use postgres` / `prefer duckdb`);
  /// 2. the word before them, ``determiners`` skipped, is a ``choosingVerbs`` or
  ///    ``choosingPrepositions`` word, or a ``choosingParticles`` particle right after one of its
  ///    verbs (`Use tabs`, `We will use tabs`, `Deploy with Nomad`, `Host on AWS`, `Store dates in
  ///    UTC`, `Switch to Bun`, `Log to stdout`); any other word there (`Run tests`, `Write docs`,
  ///    `Run tests before merging`) and they are not;
  /// 3. one ``choiceModifiers`` word stands between a ``choosingVerbs`` word and them,
  ///    determiners skipped on both sides of it (`Use managed Postgres`, `Use the managed
  ///    Postgres service`; review 27-a, 14). Any other word there names what is chosen, and the
  ///    words after it a part or a purpose of it (`Use Swift concurrency` / `Use Swift packages`,
  ///    `Use Postgres for analytics` / `Use Postgres for reporting`); a verb that is not a
  ///    choosing verb names a task (`Run tests on CI` / `Run linters on CI`). Only one: past it,
  ///    the words describe rather than choose;
  /// 4. they open the title (determiners aside) and a ``choosingFollowers`` word comes next
  ///    (`Vim as the editor`). Words that open a title and are followed by anything else are its
  ///    verb or its subject (`Encrypt backups at rest` / `Compress backups at rest`: two
  ///    actions, not a choice).
  ///
  /// Deterministic: English word lists, no model; a word the lists miss (`Send alerts to Slack`
  /// / `Send alerts to PagerDuty`) only makes the pair need different content to be a possible
  /// conflict.
  static func namesChoice(_ t: [String], _ middle: ArraySlice<String>) -> Bool {
    if middle.count >= 2, let first = middle.first, choosingVerbs.contains(first) { return true }
    var k = middle.startIndex - 1
    while k >= 0, determiners.contains(t[k]) { k -= 1 }
    guard k >= 0 else { return middle.endIndex < t.count && choosingFollowers.contains(t[middle.endIndex]) }
    if choosingVerbs.contains(t[k]) || choosingPrepositions.contains(t[k]) { return true }
    if let verbs = choosingParticles[t[k]], k > 0, verbs.contains(t[k - 1]) { return true }
    if choiceModifiers.contains(t[k]) {
      var v = k - 1
      while v >= 0, determiners.contains(t[v]) { v -= 1 }
      if v >= 0, choosingVerbs.contains(t[v]) { return true }
    }
    return false
  }

  /// The differing middles of two token sequences: what is left once the tokens both share at
  /// the start and then at the end are set aside.
  private static func middles(_ x: [String], _ y: [String]) -> (ArraySlice<String>, ArraySlice<String>) {
    var start = 0
    while start < min(x.count, y.count), x[start] == y[start] { start += 1 }
    var end = 0
    while end < min(x.count, y.count) - start, x[x.count - 1 - end] == y[y.count - 1 - end] { end += 1 }
    return (x[start..<(x.count - end)], y[start..<(y.count - end)])
  }

  /// The tests of the type's summary, in order, on the titles `x` and `y` and their differing
  /// middles `dx` and `dy`. The words both titles share around the middles flip both titles'
  /// polarity alike and give both the same words, so the parity of the titles' flips differs
  /// exactly when that of the middles' flips does, and the titles have the same words exactly
  /// when the middles have; the words around are read only for an exchange around a rejection
  /// (``exchangedRejection(_:_:middles:_:)``) and for where a choice is named.
  ///
  /// Words that would be ``Kind/alternatives`` under a negation both titles open with are two
  /// prohibitions that hold together, not a choice: `Never log passwords` / `Never log tokens`
  /// are ``Kind/reworded`` (review 26-b, 11). `without` is left out: it negates only its object
  /// (`Use Postgres without an ORM`). So are words that stand where no choice is named, on
  /// either side (``namesChoice(_:_:)``, review 27-a, 13), unless both sides are numbers spelled
  /// out.
  private static func kind(_ x: [String], _ y: [String], middles dx: ArraySlice<String>, _ dy: ArraySlice<String>)
    -> Kind
  {
    if flips(dx) % 2 != flips(dy) % 2 { return .opposite }
    if exchangedRejection(x, y, middles: dx, dy) != nil { return .opposite }
    let kind = kindOfOnePolarity(middles: dx, dy)
    guard kind == .alternatives else { return kind }
    if x[..<dx.startIndex].contains(where: { negations.contains($0) && $0 != "without" }) { return .reworded }
    if namesChoice(x, dx) && namesChoice(y, dy) { return .alternatives }
    // Numbers spelled out name two values wherever they stand (`Deploy on day two` / `Deploy on
    // day one`, `Run the lint step second` / `… first`), as in version 12; a numbered series was
    // left out before the contrast is read.
    return dx.flatMap(words).allSatisfy(isSpelledNumber) && dy.flatMap(words).allSatisfy(isSpelledNumber)
      ? .alternatives : .reworded
  }

  /// Whether `word` is an English number spelled out, cardinal or ordinal (``NumberedTitle``'s
  /// words: `two`, `twenty`, `second`, `twentieth`).
  private static func isSpelledNumber(_ word: String) -> Bool {
    NumberedTitle.cardinalWords[word] != nil || NumberedTitle.cardinalTens[word] != nil
      || NumberedTitle.ordinalWords[word] != nil || NumberedTitle.ordinalTens[word] != nil
  }

  /// The tests after polarity, on the middles alone: the same words, values, or one to three
  /// distinct words a side (``Kind/alternatives`` before where they stand is read).
  private static func kindOfOnePolarity(middles dx: ArraySlice<String>, _ dy: ArraySlice<String>) -> Kind {
    if dx.flatMap(words) == dy.flatMap(words) { return .sameWords }
    if dx.contains(where: isValue) || dy.contains(where: isValue) { return .differentValues }
    // Read without polarity: `do not disable` and `enable` are one choice, not two.
    let sx = neutralWords(Array(dx)).flatMap(words), sy = neutralWords(Array(dy)).flatMap(words)
    func related(_ p: String, _ q: String) -> Bool {
      let n = min(4, p.count, q.count)
      return p.prefix(n) == q.prefix(n)
    }
    let distinct =
      !sx.isEmpty && !sy.isEmpty && sx.count <= 3 && sy.count <= 3
      && !sx.allSatisfy(stopWords.contains) && !sy.allSatisfy(stopWords.contains)
      && !sx.contains { p in sy.contains { q in related(p, q) } }
    return distinct ? .alternatives : .reworded
  }

  /// Whether `word` is a negation or a member of an antonym pair.
  private static func isPolarityWord(_ word: String) -> Bool {
    negations.contains(word) || antonyms.contains(word) || neutralForm[word] != nil
  }

  /// Whether `byte` is an ASCII letter or digit (``InsightRules/asciiWordByte(_:)``).
  private static func isASCIIWordByte(_ byte: UInt8) -> Bool { InsightRules.asciiWordByte(byte) != nil }

  /// The words of a token: its runs of letters and numbers (`don't` → `don`, `t`;
  /// `https://x.example.com` → `https`, `x`, `example`, `com`). An ASCII token is read from its
  /// bytes (the same runs: for ASCII, letters are `A`–`Z` and `a`–`z`, numbers `0`–`9`), and one
  /// that is a single run is returned as it is.
  static func words(_ token: String) -> [String] {
    var separated = false
    for byte in token.utf8 {
      guard byte < 0x80 else { return token.split { !$0.isLetter && !$0.isNumber }.map(String.init) }
      if !isASCIIWordByte(byte) { separated = true }
    }
    guard separated else { return token.isEmpty ? [] : [token] }
    return token.utf8.split { !isASCIIWordByte($0) }.map { String(Substring($0)) }
  }

  /// Whether a token states a value: it holds a number, a `/` (a path or a URL's `://`) or an
  /// `@`, or is dotted (two or more non-empty parts around `.`: a host, a file name, a version).
  /// An ASCII token is read from its bytes.
  static func isValue(_ t: String) -> Bool {
    var number = false, slash = false, at = false, dot = false
    var parts = 0
    var inPart = false
    for byte in t.utf8 {
      guard byte < 0x80 else {
        return t.contains { $0.isNumber } || t.contains("://") || t.contains("/") || t.contains("@")
          || (t.contains(".") && t.split(separator: ".").count > 1 && t.split(separator: ".").allSatisfy { !$0.isEmpty })
      }
      switch byte {
      case 0x30...0x39: number = true
      case UInt8(ascii: "/"): slash = true
      case UInt8(ascii: "@"): at = true
      default: break
      }
      if byte == UInt8(ascii: ".") {
        dot = true
        inPart = false
      } else if !inPart {
        parts += 1
        inPart = true
      }
    }
    return number || slash || at || (dot && parts > 1)
  }

  init(kind: Kind, detail: String) {
    self.kind = kind
    self.detail = detail
  }

  /// Whether the titles disagree on their own, content aside: ``Kind/opposite``,
  /// ``Kind/differentValues`` or ``Kind/alternatives``.
  var disagrees: Bool { kind.disagrees }
}
