import Foundation
import Testing

@testable import KnowledgeEngine

/// The insight rules read titles through quick byte-level paths (2026-12-02: insights at 10,000
/// items had grown to 82 ms, and a workspace of 10,000 short decisions sharing one tag took 3.3 s,
/// review 24-a #4). Each quick path must answer exactly as the reading it spares. These tests
/// compare them with the readings as they were written before (kept here as references) over
/// generated titles that mix the hard cases: negations, antonyms and contractions (`don't`,
/// `don’t`), label words and numbers, values (ports, URLs, hosts, e-mail addresses), punctuation,
/// accented and non-Latin letters, combining marks, the Kelvin sign (U+212A, which lowercases to
/// `k`) and the dotted capital I (U+0130).
@Suite("Insights: quick title readings agree with the full ones")
struct InsightTitleFastPathTests {
  // MARK: References (the readings before the quick paths)

  /// `TitleContrast`'s word split before the ASCII path: runs of letters and numbers.
  static func referenceWords(_ token: String) -> [String] {
    token.split { !$0.isLetter && !$0.isNumber }.map(String.init)
  }

  /// `TitleContrast`'s value test before the ASCII path.
  static func referenceIsValue(_ t: String) -> Bool {
    t.contains { $0.isNumber } || t.contains("://") || t.contains("/") || t.contains("@")
      || (t.contains(".") && t.split(separator: ".").count > 1 && t.split(separator: ".").allSatisfy { !$0.isEmpty })
  }

  /// `TitleContrast.neutralTitle` without the byte-level check.
  static func referenceNeutralTitle(_ title: String) -> String? {
    let words = TitleContrast.tokens(title)
    guard words.contains(where: { TitleContrast.negations.contains($0) || TitleContrast.neutralForm[$0] != nil }) else {
      return nil
    }
    let joined = TitleContrast.neutralWords(words).joined(separator: " ")
    return joined == words.joined(separator: " ") ? nil : joined
  }

  /// `TitleContrast.init(_:_:)` before it read only the differing middles and took tokens.
  static func referenceContrast(_ a: String, _ b: String) -> TitleContrast {
    let x = TitleContrast.tokens(a), y = TitleContrast.tokens(b)
    let wx = x.flatMap(referenceWords), wy = y.flatMap(referenceWords)
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
    // Insights v13: two phrases exchanged around a rejection say opposite things at one polarity.
    if TitleContrast.flips(x) % 2 == TitleContrast.flips(y) % 2, dx.count == dy.count, dx.count >= 3 {
      func marker(_ w: String) -> Bool {
        TitleContrast.negations.contains(w) || TitleContrast.antonyms.contains(w) || ["over", "instead", "rather"].contains(w)
      }
      let openingNegation = x[..<start].lastIndex { TitleContrast.negations.contains($0) && $0 != "nor" }
      for a in 1...3 {
        for b in 1...3 where a + b < dx.count {
          let phraseA = Array(dx[..<a]), phraseB = Array(dx[(dx.count - b)...]), m = Array(dx[a..<(dx.count - b)])
          guard dy == phraseB + m + phraseA, !(phraseA + phraseB).contains(where: marker),
            !phraseA.allSatisfy(TitleContrast.stopWords.contains), !phraseB.allSatisfy(TitleContrast.stopWords.contains)
          else { continue }
          if TitleContrast.flips(m) % 2 == 1 || m.contains(where: { ["over", "instead", "rather"].contains($0) }) {
            guard openingNegation == nil, let r = m.firstIndex(where: marker) else { continue }
            let from = r > 0 && TitleContrast.auxiliaries.contains(m[r - 1]) && TitleContrast.negations.contains(m[r]) ? r - 1 : r
            let rejection = Array(m[from...])
            return TitleContrast(kind: .opposite, detail: "\(shown(rejection + phraseB)) / \(shown(rejection + phraseA))")
          }
          if let k = openingNegation, k + 1 < start, !m.contains(where: marker), !m.contains("or"), !m.contains("nor") {
            let negated = Array(x[(k + 1)..<start])
            guard m.count >= negated.count, Array(m.suffix(negated.count)) == negated else { continue }
            let opening = Array(x[(k > 0 && TitleContrast.auxiliaries.contains(x[k - 1]) ? k - 1 : k)..<start])
            return TitleContrast(kind: .opposite, detail: "\(shown(opening + phraseA)) / \(shown(opening + phraseB))")
          }
        }
      }
    }
    if TitleContrast.flips(x) % 2 != TitleContrast.flips(y) % 2 {
      func polar(_ w: String) -> Bool {
        TitleContrast.negations.contains(w) || TitleContrast.antonyms.contains(w) || TitleContrast.neutralForm[w] != nil
      }
      let px = x.filter(polar), py = y.filter(polar)
      let onlyX = px.filter { !py.contains($0) }, onlyY = py.filter { !px.contains($0) }
      let long = dx.count + dy.count > 4
      // Insights v10: a title that only adds a negation names what it negates on both sides.
      if long ? onlyX.isEmpty || onlyY.isEmpty : dx.isEmpty || dy.isEmpty,
        let (nx, ny) = TitleContrast.negatedPhrases(x, y) ?? TitleContrast.negatedPhrases(y, x).map({ ($0.1, $0.0) })
      {
        return TitleContrast(kind: .opposite, detail: "\(shown(nx)) / \(shown(ny))")
      }
      // Insights v12: a side of two words or more that ends with a negation names the word it
      // negates on both sides; v13: so does a side ending with `no`, of one word too.
      if !long, end > 0,
        [dx, dy].contains(where: { ($0.count >= 2 && TitleContrast.negations.contains($0.last!)) || $0.last == "no" })
      {
        let negated = x[x.count - end]
        return TitleContrast(kind: .opposite, detail: "\(shown(dx + [negated])) / \(shown(dy + [negated]))")
      }
      return TitleContrast(kind: .opposite, detail: long ? "\(shown(onlyX)) / \(shown(onlyY))" : detail)
    }
    if wx == wy { return TitleContrast(kind: .sameWords, detail: "") }
    if (dx + dy).contains(where: referenceIsValue) { return TitleContrast(kind: .differentValues, detail: detail) }
    let sx = TitleContrast.neutralWords(dx).flatMap(referenceWords), sy = TitleContrast.neutralWords(dy).flatMap(referenceWords)
    func related(_ p: String, _ q: String) -> Bool {
      let n = min(4, p.count, q.count)
      return p.prefix(n) == q.prefix(n)
    }
    let distinct =
      !sx.isEmpty && !sy.isEmpty && sx.count <= 3 && sy.count <= 3
      && !sx.allSatisfy(TitleContrast.stopWords.contains) && !sy.allSatisfy(TitleContrast.stopWords.contains)
      && !sx.contains { p in sy.contains { q in related(p, q) } }
    // Insights v12: under a negation both titles open with, two prohibitions, not a choice.
    let prohibitions = x[..<start].contains { TitleContrast.negations.contains($0) && $0 != "without" }
    // Insights v13: the differing words stand where a choice is named, on both sides, or are
    // numbers spelled out.
    func choiceAt(_ t: [String], _ s: Int, _ e: Int) -> Bool {
      if e - s >= 2, TitleContrast.choosingVerbs.contains(t[s]) { return true }
      var k = s - 1
      while k >= 0, TitleContrast.determiners.contains(t[k]) { k -= 1 }
      if k < 0 { return e < t.count && ["as", "over"].contains(t[e]) }
      if TitleContrast.choosingVerbs.contains(t[k]) || TitleContrast.choosingPrepositions.contains(t[k])
        || (k > 0 && TitleContrast.choosingParticles[t[k]]?.contains(t[k - 1]) == true)
      {
        return true
      }
      // Insights v14: one modifier of a closed list between a choosing verb and the words (`Use
      // managed Postgres`).
      guard ["managed", "hosted", "local", "remote", "embedded", "native", "cloud"].contains(t[k])
        || TitleContrast.choiceModifiers.contains(t[k])
      else { return false }
      var v = k - 1
      while v >= 0, TitleContrast.determiners.contains(t[v]) { v -= 1 }
      return v >= 0 && TitleContrast.choosingVerbs.contains(t[v])
    }
    func spelled(_ w: String) -> Bool {
      NumberedTitle.cardinalWords[w] != nil || NumberedTitle.cardinalTens[w] != nil || NumberedTitle.ordinalWords[w] != nil
        || NumberedTitle.ordinalTens[w] != nil
    }
    let named =
      (choiceAt(x, start, x.count - end) && choiceAt(y, start, y.count - end))
      || (dx.flatMap(referenceWords).allSatisfy(spelled) && dy.flatMap(referenceWords).allSatisfy(spelled))
    return distinct && !prohibitions && named
      ? TitleContrast(kind: .alternatives, detail: detail) : TitleContrast(kind: .reworded, detail: "")
  }

  // MARK: Generated titles

  /// Words and pieces the generated titles are made of.
  static let pieces: [String] = [
    "Use", "use", "Do", "not", "don't", "Don’t", "DON'T", "never", "Never", "always", "disable", "Disabled", "enable",
    "enabled", "allow", "deny", "Avoid", "used", "no", "No", "no-op", "without", "isn't", "can't", "cannot", "off", "on",
    "keep", "Kept", "\u{212A}eep", "skip", "yes", "true", "false", "step", "Step", "phase", "Phase", "#", "#3", "part",
    "Sprint", "chapter", "section", "iteration", "milestone", "round", "stage", "lesson", "steps", "stepé", "2", "10",
    "2a", "3.2", "0.5", "ii", "iv", "one", "twenty-one", "first", "second", "3rd", "15s", "port", "8080", "8081",
    "https://staging.example.com", "api.example.com", "a..b", ".hidden", "user@example.com", "/etc/hosts", "v1.2",
    "Postgres", "DuckDB", "MySQL", "tabs", "spaces", "for", "the", "of", "a", "in", "cache", "caching", "Redis",
    "Müller", "café", "naïve", "Straße", "東京", "Сергей", "ΑΒΓ", "e\u{301}", "not\u{301}", "\u{130}teration", "İ",
    "flag_x", "C++", "(draft)", "—", "…", "\"quoted\"", "x-disable", "re-enable", "don", "won't", "shouldn’t",
    "\u{00A0}", "\t", "A/B", "foo.", "ok!",
  ]

  /// Deterministic titles of 1 to 9 pieces (SplitMix64 choices), joined mostly by spaces.
  static let titles: [String] = {
    var state: UInt64 = 0x5EED_2024
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    var out: [String] = []
    for _ in 0..<1_500 {
      let n = Int(next() % 9) + 1
      var title = ""
      for k in 0..<n {
        if k > 0 { title += next() % 11 == 0 ? "," + " " : " " }
        title += pieces[Int(next() % UInt64(pieces.count))]
      }
      out.append(title)
    }
    return out
  }()

  /// Pairs of generated titles that share words, as the rules' pairs do: each title with a copy
  /// of itself with one, two or three pieces changed, with its neighbour, and (one in five) with
  /// itself upper-cased and ending in a full stop.
  static let pairs: [(String, String)] = {
    var out: [(String, String)] = []
    for (i, title) in titles.enumerated() {
      var words = title.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      for change in 0..<min(3, words.count) {
        let position = (i * 7 + change * 3) % words.count
        words[position] = pieces[(i * 13 + change * 29) % pieces.count]
        out.append((title, words.joined(separator: " ")))
      }
      out.append((title, titles[(i + 1) % titles.count]))
      // The same words in another case, with punctuation.
      if i % 5 == 0 { out.append((title, title.uppercased() + ".")) }
    }
    // The generated titles seldom exchange phrases or name a choice: review 27-a's pairs (12, 13,
    // 16), each both ways.
    let reviewed = [
      ("Use spaces, not tabs", "Use tabs, not spaces"), ("Prefer tabs over spaces", "Prefer spaces over tabs"),
      ("Do not use tabs, use spaces", "Do not use spaces, use tabs"), ("Use spaces, do not use tabs", "Use tabs, do not use spaces"),
      ("Do not use tabs or use spaces", "Do not use spaces or use tabs"), ("Run tests and linters", "Run linters and tests"),
      ("Use an ORM", "Use no ORM"), ("Run tests on CI", "Run linters on CI"), ("Encrypt backups at rest", "Compress backups at rest"),
      ("Use Postgres for analytics", "Use DuckDB for analytics"), ("Deploy with Kubernetes", "Deploy with Nomad"),
      ("Switch to Bun", "Switch to Deno"), ("Vim as the editor", "Emacs as the editor"), ("Deploy on day two", "Deploy on day one"),
      // Review 27-a, 14 (insights v14): sides of different lengths, a phrase antonym, a negated
      // contraction, `log to`, one modifier after a choosing verb.
      ("Store dates in UTC", "Store dates in local time"), ("Deploy with Kubernetes", "Deploy with Docker Compose"),
      ("Enable telemetry", "Turn off telemetry"), ("Needn't sign commits", "Need to sign commits"), ("Log to stdout", "Log to stderr"),
      ("Use managed Postgres", "Use managed MySQL"), ("Use the managed Postgres service", "Use the managed MySQL service"),
      ("Use fully managed Postgres", "Use fully managed MySQL"), ("Use Postgres for analytics", "Use Postgres for reporting"),
      ("Use Redis to cache sessions", "Use Redis to cache tokens"),
    ]
    return out + reviewed + reviewed.map { ($0.1, $0.0) }
  }()

  // MARK: Tests

  @Test("a token's words and whether it states a value are read as the character-based reading reads them")
  func wordsAndValues() {
    var tokens = Set(Self.pieces.flatMap { TitleContrast.tokens($0) })
    for title in Self.titles { tokens.formUnion(TitleContrast.tokens(title)) }
    #expect(tokens.count > 100)
    for token in tokens {
      #expect(TitleContrast.words(token) == Self.referenceWords(token), "words of \(token.debugDescription)")
      #expect(TitleContrast.isValue(token) == Self.referenceIsValue(token), "value \(token.debugDescription)")
    }
  }

  @Test("the polarity check never rules out a title whose neutral reading differs")
  func polarityCheck() {
    var ruledOut = 0, rewritten = 0
    for title in Self.titles + Self.pieces {
      let reference = Self.referenceNeutralTitle(title)
      #expect(TitleContrast.neutralTitle(title) == reference, "\(title.debugDescription)")
      if !TitleContrast.mayHavePolarityWord(title) {
        ruledOut += 1
        #expect(reference == nil, "ruled out \(title.debugDescription)")
      }
      if reference != nil { rewritten += 1 }
    }
    // Both sides are exercised: titles ruled out quickly, and titles read differently.
    #expect(ruledOut > 50)
    #expect(rewritten > 300)
    // The Kelvin sign lowercases to `k`: `\u{212A}ept` is `kept`, read as `keep`.
    #expect(TitleContrast.mayHavePolarityWord("\u{212A}ept the cache"))
    #expect(TitleContrast.neutralTitle("\u{212A}ept the cache") == "keep the cache")
    #expect(!TitleContrast.mayHavePolarityWord("Cache API responses in Redis"))
  }

  @Test("the label check never rules out a title with a sequence number or a # in its pattern")
  func labelCheck() {
    var ruledOut = 0, numbered = 0
    for title in Self.titles + Self.pieces {
      let read = NumberedTitle(title)
      if !read.sequenceNumbers.isEmpty { numbered += 1 }
      if !NumberedTitle.mayHaveSequenceLabel(title) {
        ruledOut += 1
        #expect(read.sequenceNumbers.isEmpty, "\(title.debugDescription)")
        #expect(!read.pattern.contains("#"), "\(title.debugDescription)")
      }
    }
    #expect(ruledOut > 200)
    #expect(numbered > 100)
    #expect(NumberedTitle.mayHaveSequenceLabel("Migration STEP 2"))
    #expect(NumberedTitle.mayHaveSequenceLabel("Fix bug #41"))
    #expect(!NumberedTitle.mayHaveSequenceLabel("Use port 8080 for the API"))
  }

  @Test("the contrast of two titles is what the reading of whole titles gave, kind and detail")
  func contrasts() {
    var kinds: [TitleContrast.Kind: Int] = [:]
    for (a, b) in Self.pairs {
      let reference = Self.referenceContrast(a, b)
      #expect(TitleContrast(a, b) == reference, "\(a.debugDescription) / \(b.debugDescription)")
      #expect(
        TitleContrast(tokens: TitleContrast.tokens(a), TitleContrast.tokens(b)) == reference,
        "\(a.debugDescription) / \(b.debugDescription)")
      kinds[reference.kind, default: 0] += 1
    }
    // Every kind is exercised.
    for kind in [TitleContrast.Kind.opposite, .differentValues, .alternatives, .sameWords, .reworded] {
      #expect((kinds[kind] ?? 0) > 20, "\(kind): \(kinds[kind] ?? 0)")
    }
  }
}
