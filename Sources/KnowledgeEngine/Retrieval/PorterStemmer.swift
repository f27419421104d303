/// The Porter stemmer for English, as published in 1980 with the two rule changes of Porter's
/// own reference implementation.
///
/// Source: M. F. Porter, "An algorithm for suffix stripping", *Program* 14(3), 130–137, 1980,
/// Steps 1a–5b, with the departures Porter lists for his ANSI C and later implementations
/// (<https://tartarus.org/martin/PorterStemmer/>, and the Snowball site's account of how
/// Porter2 differs from the Porter stemmer): in Step 2, `(m>0) BLI → BLE` replaces
/// `(m>0) ABLI → ABLE`, and `(m>0) LOGI → LOG` is added. Without them the stemmer leaves the
/// nouns in `-logy` and `-bly` apart from their other forms — `pathology` (`pathologi`) from
/// `pathological` (`patholog`), `assembly` from `assembled`, `possibly` from `possible`,
/// `irreversibly` from `irreversible` — which Porter's own C and Java versions conflate, and so
/// does SQLite FTS5's `porter` tokenizer (with these two rules our stems equal FTS5's on every
/// word of BEIR SciFact but `eed`). It is not Porter2/Snowball, whose other changes were
/// measured and not adopted.
///
/// The input must be lowercase ASCII letters (`a`–`z`); anything else is returned unchanged,
/// as are words of one or two letters. The stemmer is a pure function: the same word always
/// gives the same stem, and a stem is not necessarily a word (`happy` → `happi`).
///
/// - Complexity: O(*n*) in the length of the word, with a small constant (each step tests a
///   fixed list of suffixes).
public enum PorterStemmer {
  /// The stem of `word`.
  ///
  /// - Parameter word: a lowercase ASCII word; other input is returned unchanged.
  /// - Returns: the stem, e.g. `relational` → `relat`, `caresses` → `caress`, `ponies` → `poni`.
  public static func stem(_ word: String) -> String {
    let bytes = Array(word.utf8)
    guard bytes.count > 2, bytes.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return word }
    let stemmed = stem(bytes)
    return stemmed == bytes ? word : String(decoding: stemmed, as: UTF8.self)
  }

  /// The stem of a word given as lowercase ASCII letters (`a`–`z`, length ≥ 3).
  static func stem(_ letters: [UInt8]) -> [UInt8] {
    var word = Word(letters)
    word.step1a()
    word.step1b()
    word.step1c()
    word.applyLongest(step2Rules, ifMeasureAbove: 0)
    word.applyLongest(step3Rules, ifMeasureAbove: 0)
    word.step4()
    word.step5()
    return word.letters
  }

  /// A suffix rule `S1 -> S2` as bytes.
  struct Rule: Sendable {
    var suffix: [UInt8]
    var replacement: [UInt8]

    init(_ suffix: String, _ replacement: String) {
      self.suffix = Array(suffix.utf8)
      self.replacement = Array(replacement.utf8)
    }
  }

  /// Sorted longest suffix first, so the first match is the longest (the paper's rule).
  static let step2Rules: [Rule] = [
    Rule("ational", "ate"), Rule("tional", "tion"), Rule("enci", "ence"), Rule("anci", "ance"),
    Rule("izer", "ize"), Rule("bli", "ble"), Rule("alli", "al"), Rule("entli", "ent"),
    Rule("eli", "e"), Rule("ousli", "ous"), Rule("ization", "ize"), Rule("ation", "ate"),
    Rule("ator", "ate"), Rule("alism", "al"), Rule("iveness", "ive"), Rule("fulness", "ful"),
    Rule("ousness", "ous"), Rule("aliti", "al"), Rule("iviti", "ive"), Rule("biliti", "ble"),
    Rule("logi", "log"),
  ].sorted { $0.suffix.count > $1.suffix.count }

  static let step3Rules: [Rule] = [
    Rule("icate", "ic"), Rule("ative", ""), Rule("alize", "al"), Rule("iciti", "ic"),
    Rule("ical", "ic"), Rule("ful", ""), Rule("ness", ""),
  ].sorted { $0.suffix.count > $1.suffix.count }

  static let step4Suffixes: [[UInt8]] = [
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion",
    "ou", "ism", "ate", "iti", "ous", "ive", "ize",
  ].map { Array($0.utf8) }.sorted { $0.count > $1.count }
}

/// A word being stemmed; names follow the paper (*m*, \*v\*, \*d, \*o).
private struct Word {
  var letters: [UInt8]

  init(_ letters: [UInt8]) { self.letters = letters }

  private static let a = UInt8(ascii: "a"), e = UInt8(ascii: "e"), i = UInt8(ascii: "i")
  private static let o = UInt8(ascii: "o"), u = UInt8(ascii: "u"), y = UInt8(ascii: "y")
  private static let l = UInt8(ascii: "l"), s = UInt8(ascii: "s"), z = UInt8(ascii: "z")
  private static let t = UInt8(ascii: "t"), w = UInt8(ascii: "w"), x = UInt8(ascii: "x")

  /// A consonant is a letter other than a, e, i, o, u, and other than a `y` after a consonant.
  func isConsonant(_ index: Int) -> Bool {
    switch letters[index] {
    case Self.a, Self.e, Self.i, Self.o, Self.u: return false
    case Self.y: return index == 0 ? true : !isConsonant(index - 1)
    default: return true
    }
  }

  /// *m* of `letters[0..<end]`: the *m* in `[C](VC)^m[V]`.
  func measure(_ end: Int) -> Int {
    var m = 0
    var index = 0
    while index < end && isConsonant(index) { index += 1 }
    while index < end {
      while index < end && !isConsonant(index) { index += 1 }
      guard index < end else { break }
      while index < end && isConsonant(index) { index += 1 }
      m += 1
    }
    return m
  }

  /// \*v\*: `letters[0..<end]` contains a vowel.
  func containsVowel(_ end: Int) -> Bool {
    (0..<end).contains { !isConsonant($0) }
  }

  /// \*d: `letters[0..<end]` ends with a double consonant.
  func endsWithDoubleConsonant(_ end: Int) -> Bool {
    end >= 2 && letters[end - 1] == letters[end - 2] && isConsonant(end - 1)
  }

  /// \*o: `letters[0..<end]` ends consonant–vowel–consonant, the last not w, x or y.
  func endsWithCVC(_ end: Int) -> Bool {
    guard end >= 3, isConsonant(end - 1), !isConsonant(end - 2), isConsonant(end - 3) else {
      return false
    }
    let last = letters[end - 1]
    return last != Self.w && last != Self.x && last != Self.y
  }

  func ends(with suffix: [UInt8]) -> Bool {
    suffix.count <= letters.count && letters.suffix(suffix.count).elementsEqual(suffix)
  }

  func ends(with suffix: StaticString) -> Bool {
    let n = suffix.utf8CodeUnitCount
    guard n <= letters.count else { return false }
    let offset = letters.count - n
    return suffix.withUTF8Buffer { bytes in
      for i in 0..<n where letters[offset + i] != bytes[i] { return false }
      return true
    }
  }

  /// The length of the stem left when `suffixLength` letters are removed.
  func stemLength(removing suffixLength: Int) -> Int { letters.count - suffixLength }

  mutating func replaceSuffix(of length: Int, with replacement: [UInt8]) {
    letters.removeLast(length)
    letters.append(contentsOf: replacement)
  }

  mutating func replaceSuffix(of length: Int, with replacement: StaticString) {
    letters.removeLast(length)
    replacement.withUTF8Buffer { letters.append(contentsOf: $0) }
  }

  mutating func step1a() {
    if ends(with: "sses") {
      replaceSuffix(of: 4, with: "ss")
    } else if ends(with: "ies") {
      replaceSuffix(of: 3, with: "i")
    } else if ends(with: "ss") {
      return
    } else if ends(with: "s") {
      letters.removeLast()
    }
  }

  mutating func step1b() {
    if ends(with: "eed") {
      if measure(stemLength(removing: 3)) > 0 { letters.removeLast() }
      return
    }
    let suffixLength: Int
    if ends(with: "ed") {
      suffixLength = 2
    } else if ends(with: "ing") {
      suffixLength = 3
    } else {
      return
    }
    guard containsVowel(stemLength(removing: suffixLength)) else { return }
    letters.removeLast(suffixLength)
    if ends(with: "at") || ends(with: "bl") || ends(with: "iz") {
      letters.append(Self.e)
    } else if endsWithDoubleConsonant(letters.count) {
      let last = letters[letters.count - 1]
      if last != Self.l && last != Self.s && last != Self.z { letters.removeLast() }
    } else if measure(letters.count) == 1 && endsWithCVC(letters.count) {
      letters.append(Self.e)
    }
  }

  mutating func step1c() {
    if ends(with: "y") && containsVowel(stemLength(removing: 1)) {
      letters[letters.count - 1] = Self.i
    }
  }

  /// Steps 2 and 3: only the longest matching suffix is considered; when its condition fails,
  /// no shorter suffix is tried.
  mutating func applyLongest(_ rules: [PorterStemmer.Rule], ifMeasureAbove minimum: Int) {
    guard let rule = rules.first(where: { ends(with: $0.suffix) }) else { return }
    if measure(stemLength(removing: rule.suffix.count)) > minimum {
      replaceSuffix(of: rule.suffix.count, with: rule.replacement)
    }
  }

  mutating func step4() {
    guard let suffix = PorterStemmer.step4Suffixes.first(where: { ends(with: $0) }) else {
      return
    }
    let stem = stemLength(removing: suffix.count)
    if suffix.count == 3 && ends(with: "ion") {
      // (m>1 and (*S or *T)) ION ->
      guard stem > 0, letters[stem - 1] == Self.s || letters[stem - 1] == Self.t else { return }
    }
    if measure(stem) > 1 { letters.removeLast(suffix.count) }
  }

  mutating func step5() {
    // Step 5a: (m>1) E -> ; (m=1 and not *o) E ->
    if letters.last == Self.e {
      let stem = stemLength(removing: 1)
      let m = measure(stem)
      if m > 1 || (m == 1 && !endsWithCVC(stem)) { letters.removeLast() }
    }
    // Step 5b: (m>1 and *d and *L) -> single letter
    if letters.last == Self.l && endsWithDoubleConsonant(letters.count)
      && measure(letters.count) > 1
    {
      letters.removeLast()
    }
  }
}
