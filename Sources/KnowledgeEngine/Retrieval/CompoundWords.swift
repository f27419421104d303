/// The written forms of one compound word, so that a query written one way finds notes written
/// another: `email`, `e-mail` and `e mail`; `PD-1` and `PD1`; `covid19` and `COVID-19`;
/// `nonsmoker` and `non-smoker`.
///
/// The tokenizer splits words at a hyphen or slash, so `e-mail` is indexed as the two adjacent
/// terms `e` and `mail`, while `email` is one term. The ranker bridges the two at query time,
/// in both directions, and the index is not changed:
///
/// - **Joined to closed.** Query words joined by a hyphen, slash or dash (``joiners``) are also
///   searched as their catenation (`e-mail` → `email`, `PD-1` → `pd1`), when some note holds
///   it (``catenation(of:)``).
/// - **Closed to joined.** A query word is also searched as two or more adjacent terms
///   (`email` → `e` then `mail`), when some note holds them next to each other, split where
///   (``splits(of:)``):
///   - letters meet digits, in every grouping (`pd1` → `pd 1`, `covid19` → `covid 19`, `h1n1`
///     → `h1 n1`, …, `h 1 n 1`),
///   - a Greek letter's name begins (`tnfalpha` → `tnf alpha`: `TNFα` and `TNF-α`), or
///   - a word starts with one of the English prefixes style guides write either closed or with
///     a hyphen (``prefixes``: `non`, `pre`, `co`, `anti`, `e`, …) and at least three letters
///     follow (`nonsmoker` → `non smoker`, `email` → `e mail`).
/// - **Open and closed.** Two query words written apart (`health care`, `birth weight`) are
///   also searched as their catenation (`healthcare`, `birthweight`) when the vocabulary holds
///   it, and a word of letters is also searched as two adjacent words of at least
///   ``minimumOpenPartLength`` letters each (`healthcare` → `health care`, `wildtype` → `wild
///   type`), when some note holds them next to each other (``openSplits(of:)``,
///   ``isOpenCompound(_:_:)``).
/// - **Dotted names.** A word of letters that no note holds and that ends in one of the last
///   parts software names write after a full stop (``dottedNameEndings``: `js`, `io`, `net`,
///   `py`, `ai`) is also searched as the name and that part (`nodejs` → `node js`, `aspnet` →
///   `asp net`, `socketio` → `socket io`), as the tokenizer writes *Node.js*, *ASP.NET* and
///   *socket.io* (a full stop before a letter is no break), when some note holds the two next to
///   each other (``tailSplits(of:)``). An English word that ends so
///   (``englishWordsEndingLikeNames``: `ratio`, `magnet`, `happy`) is not cut: the index
///   cannot tell *rat io* from *rat.io*.
///
/// Adjacent means adjacent positions: the tokenizer leaves a position free at a sentence or
/// clause end and a blank line (``Tokenizer`` rule 6), so *was dead. Line two* holds no `dead
/// line` and *i.e. mail* no `e mail`. A match counts at the compound weight, never above the
/// word typed.
///
/// Shorter parts are split off only at a listed prefix, a digit or a Greek letter's name, or
/// before a listed dotted-name ending of a word no note holds: only positions in a note tell
/// that two terms were adjacent, not whether a hyphen, a full stop or a space joined them, and
/// splitting every word wherever both halves are words would let `atypical` find *a typical*,
/// `within` find *with in*, `manage` find *a man aged 45* and `carpet` find *car pet*. Stop
/// words are never parts (the ranker leaves them out), but for the adverb particles of phrasal
/// compounds (``particles``: `handoff`, `hand-off` and `hand off`; `set-up`, `follow-up`).
///
/// It compares spellings only, never meanings.
public enum CompoundWords {
  /// The characters that join the parts of a compound in a query: hyphen-minus, slash, the
  /// Unicode hyphen (U+2010) and non-breaking hyphen (U+2011), and the dashes text copied from
  /// typeset documents puts in their place — the en dash (U+2013, `PD–1`), the minus sign
  /// (U+2212), the small and fullwidth hyphen-minus (U+FE63, U+FF0D). Exactly one of them must
  /// stand between two words, with nothing else, for the words to count as joined. The em
  /// dash (U+2014) is not one: it sets clauses apart.
  public static let joiners: Set<Character> = [
    "-", "/", "\u{2010}", "\u{2011}", "\u{2013}", "\u{2212}", "\u{FE63}", "\u{FF0D}",
  ]

  /// Prefixes that English writes closed or hyphenated (`non-smoker` / `nonsmoker`,
  /// `pre-operative` / `preoperative`, `co-worker` / `coworker`, `e-mail` / `email`): the
  /// prefixes of the hyphenation guide in The Chicago Manual of Style, which are closed by
  /// rule but often hyphenated in practice, with `ex`, `hypo`, `tri`, `e` and `x` (`e-mail`,
  /// `x-ray`) added. Left out: `over` and `under`, stop words (`over all` is ordinary prose);
  /// `re`, since *Re:* opens e-mail subjects and `research` would find *Re: Search*; and `un` and
  /// `de`, words of French, Spanish and Portuguese notes and names (*un certain*, *de part*,
  /// *Maria de Souza*). Typing the hyphen still finds the closed word (`re-use` finds `reuse`);
  /// only the closed word typed does not find the hyphenated one.
  public static let prefixes: [String] = [
    "ante", "anti", "bi", "bio", "co", "counter", "cyber", "e", "ex", "extra", "hyper", "hypo",
    "infra", "inter", "intra", "macro", "mega", "meta", "micro", "mid", "mini", "multi", "neo",
    "non", "post", "pre", "pro", "proto", "pseudo", "semi", "socio", "sub", "super", "supra",
    "trans", "tri", "ultra", "x",
  ]

  /// ``prefixes``, longest first (then in list order), as ``splits(of:)`` tries them.
  static let prefixesLongestFirst: [String] = prefixes.enumerated()
    .sorted { ($1.element.count, $0.offset) < ($0.element.count, $1.offset) }.map(\.element)

  /// The fewest letters that must follow a prefix for a word to be split after it
  /// (`non` + `smoker`; `exam` is not split, `ex` + `am` being too short to tell apart from
  /// chance).
  public static let minimumRemainderLength = 3

  /// The most parts one split may have (`h1n1` has four).
  public static let maximumParts = 4

  /// The ways to write `word` as adjacent words, in a fixed order: first its groupings where
  /// letters meet digits (fewest parts first: `h1n1` → `h1 n1`, `h 1n1`, `h1n 1`, …, `h 1 n 1`),
  /// then its splits before a spelled-out Greek letter (`tnfalpha` → `tnf alpha`, `nfkappab` →
  /// `nf kappab`: how the tokenizer writes `TNFα` and `NF-κB`), then its splits after each
  /// prefix of ``prefixes`` it starts with, longest prefix first.
  ///
  /// - Parameter word: a folded, unstemmed word (as the tokenizer gives it: lowercase, without
  ///   diacritics).
  /// - Returns: splits of two to ``maximumParts`` non-empty parts each, whose concatenation is
  ///   `word`; empty for words of ASCII letters without a listed prefix or a Greek letter's
  ///   name, for words with characters other than ASCII letters and digits, for all-digit
  ///   words and for words of more than ``maximumRuns`` letter and digit runs.
  /// - Complexity: O(*n* · *p*) for *n* characters and the *p* prefixes and Greek names, plus
  ///   the groupings: at most 2^(``maximumRuns`` − 1).
  public static func splits(of word: String) -> [[String]] {
    let bytes = Array(word.utf8)
    guard !bytes.isEmpty, bytes.allSatisfy({ isLetter($0) || isDigit($0) }) else { return [] }
    var found: [[String]] = []
    if bytes.contains(where: isDigit) && bytes.contains(where: isLetter) {
      var runs: [[UInt8]] = []
      for byte in bytes {
        if let last = runs.last?.last, isDigit(last) == isDigit(byte) {
          runs[runs.count - 1].append(byte)
        } else {
          runs.append([byte])
        }
      }
      guard runs.count <= maximumRuns else { return [] }
      // Each subset of the run boundaries is a grouping; keep those of 2…maximumParts parts.
      var groupings: [[String]] = []
      for mask in 1..<(1 << (runs.count - 1)) where mask.nonzeroBitCount < maximumParts {
        var parts: [[UInt8]] = [runs[0]]
        for r in 1..<runs.count {
          if mask & (1 << (r - 1)) != 0 { parts.append(runs[r]) } else { parts[parts.count - 1] += runs[r] }
        }
        groupings.append(parts.map { String(decoding: $0, as: UTF8.self) })
      }
      // Stable, so groupings of equal size keep the order of their cuts.
      found = groupings.enumerated().sorted {
        ($0.element.count, $0.offset) < ($1.element.count, $1.offset)
      }.map(\.element)
      return found
    }
    for start in 2..<max(2, bytes.count) {
      for name in greekNames where bytes[start...].starts(with: name.utf8) {
        found.append([
          String(decoding: bytes[..<start], as: UTF8.self),
          String(decoding: bytes[start...], as: UTF8.self),
        ])
      }
    }
    for prefix in prefixesLongestFirst
    where bytes.count >= prefix.utf8.count + minimumRemainderLength
      && bytes.starts(with: prefix.utf8)
    {
      let parts = [prefix, String(decoding: bytes[prefix.utf8.count...], as: UTF8.self)]
      if !found.contains(parts) { found.append(parts) }
    }
    return found
  }

  /// The most letter and digit runs a word may have to be split where they meet (`h1n1` has
  /// four; `a1b2c3d4` is left whole).
  public static let maximumRuns = 6

  /// The names of the Greek letters of four or more letters (``Tokenizer`` spells a Greek
  /// letter out in scientific notation: `TNFα` is the word `tnfalpha`), before which a word may
  /// split; shorter names (`mu`, `pi`, `eta`, `rho`, …) sit inside too many English words.
  static let greekNames: [String] = {
    var names: [String] = []
    for name in Tokenizer.greekLetterNames where name.count >= 4 && !names.contains(name) {
      names.append(name)
    }
    return names
  }()

  /// The shortest part, in letters, of an open compound split anywhere but at a prefix or a
  /// digit (`health` + `care`; not `car` + `pet`).
  public static let minimumOpenPartLength = 4

  /// The ways to write a word of ASCII letters as two words of at least
  /// ``minimumOpenPartLength`` letters each, shortest first part first (`healthcare` →
  /// `health care`, `healt hcare`, …: candidates, kept by the ranker only when a note holds
  /// both parts next to each other).
  ///
  /// - Parameter word: a folded, unstemmed word.
  /// - Returns: up to *n* − 7 splits for *n* letters; empty for shorter words and words with
  ///   other characters.
  public static func openSplits(of word: String) -> [[String]] {
    let bytes = Array(word.utf8)
    let shortest = minimumOpenPartLength
    guard bytes.count >= 2 * shortest, bytes.allSatisfy(isLetter) else { return [] }
    return (shortest...(bytes.count - shortest)).map { cut in
      [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
    }
  }

  /// The adverb particles of English phrasal verbs, which also make compound nouns written
  /// closed, hyphenated or open (`handoff`, `hand-off`, `hand off`; `setup`, `set-up`, `set up`;
  /// `log-in`, `add-on`, `follow-up`, `up-regulation`). They are stop words, so a query drops them
  /// — except one joined by a hyphen or slash to another word, which is part of that word
  /// (`hand-off` searches `hand`, `off` and `handoff`).
  public static let particles: Set<String> = ["up", "down", "in", "out", "on", "off", "over"]

  /// The particles searched as a compound's part where nothing but a space or nothing at all
  /// marks it (``particleSplits(of:)``, and `set up` typed apart → `setup`): ``particles`` but
  /// `in` and `on`, which end too many other words (`lesson` is no *less on*, `season` no
  /// *seas on*, `button` no *butt on*). Joined by a hyphen, `log-in` still finds `login`; the
  /// closed words of ``closedInOnCompounds`` are split too.
  public static let openParticles: [String] = ["up", "down", "out", "off", "over"]

  /// Words that software and everyday English write closed with `in` or `on` (`login`, `plugin`,
  /// `addon`, `checkin`), the particles ``openParticles`` leaves out: ``particleSplits(of:)``
  /// splits these, and only these, before their last two letters (`login` → *log in*, and `log
  /// in` typed apart → `login`). A list, not a rule: `lesson`, `season`, `button`, `cousin` and
  /// `margin` end the same way and are no compounds.
  public static let closedInOnCompounds: Set<String> = [
    "login", "logon", "signin", "signon", "checkin", "plugin", "addin", "addon", "builtin", "walkin",
    "dropin", "optin", "carryon", "payin",
  ]

  /// The fewest letters before a particle that ends a word split by ``particleSplits(of:)``
  /// (`set` + `up`; `cup` is not split).
  public static let minimumParticleHeadLength = 3

  /// The fewest letters after a particle that starts a word split by ``particleSplits(of:)``
  /// (`up` + `regulation`, `out` + `patient`; `update` is `up` + `date`, `output` is not split).
  public static let minimumParticleTailLength = 4

  /// The ways to write a word of ASCII letters as a word and a particle of ``openParticles``, or
  /// one of ``closedInOnCompounds`` as its word and `in` or `on` (`handoff` → `hand off`,
  /// `setup` → `set up`, `rollout` → `roll out`, `upregulation` → `up regulation`, `login` → `log
  /// in`): candidates, kept by the ranker only when a note holds the two next to each
  /// other (as *hand-off* or *hand off*), and never when the other part is a stop word
  /// (`without` is no *with out*).
  ///
  /// - Parameter word: a folded, unstemmed word.
  /// - Returns: at most one split per particle at each end, the particle last first; empty for
  ///   words with other characters than ASCII letters.
  public static func particleSplits(of word: String) -> [[String]] {
    let bytes = Array(word.utf8)
    guard bytes.allSatisfy(isLetter) else { return [] }
    var found: [[String]] = []
    for particle in openParticles where bytes.count >= minimumParticleHeadLength + particle.utf8.count {
      if word.hasSuffix(particle) { found.append([String(word.dropLast(particle.count)), particle]) }
    }
    if closedInOnCompounds.contains(word) { found.append([String(word.dropLast(2)), String(word.suffix(2))]) }
    for particle in openParticles where bytes.count >= particle.utf8.count + minimumParticleTailLength {
      if word.hasPrefix(particle) { found.append([particle, String(word.dropFirst(particle.count))]) }
    }
    return found
  }

  /// The last parts that software names write after a full stop (`Node.js`, `socket.io`,
  /// `ASP.NET`, `setup.py`, `Character.ai`): the only places ``tailSplits(of:)`` cuts a word.
  /// Any two or three letters would not do: a short last part is often a word of its own, and
  /// `manage`, `append`, `carpet` and `target` would find *man aged*, *app end*, *car pet* and
  /// *tar get*.
  public static let dottedNameEndings = ["js", "io", "net", "py", "ai"]

  /// The fewest letters before the last part of a dotted name (``tailSplits(of:)``): `vue` +
  /// `js`; `vb` + `net` is not split.
  public static let minimumHeadLength = 3

  /// The ways to write a word of ASCII letters as a name and a last part, as names with a full
  /// stop are written (`Node.js`, `Vue.js`, `ASP.NET`, `socket.io`): the word cut before a
  /// ``dottedNameEndings`` ending it ends with, when at least ``minimumHeadLength`` letters come
  /// before (`nodejs` → `node js`, `aspnet` → `asp net`), unless it is an English word
  /// (``englishWordsEndingLikeNames``: `ratio` is no `rat.io`, `magnet` no `mag.net`). These are
  /// candidates: the ranker searches them only for a word no note holds, and keeps one only when
  /// some note holds both parts next to each other.
  ///
  /// - Parameter word: a folded, unstemmed word.
  /// - Returns: at most one split of two parts; empty for words with other characters, words
  ///   that end in no listed ending, words too short to leave ``minimumHeadLength`` letters, and
  ///   English words.
  public static func tailSplits(of word: String) -> [[String]] {
    let bytes = Array(word.utf8)
    // Positions cannot tell `rat io` from `rat.io`: an English word is never taken for a name.
    guard bytes.allSatisfy(isLetter), !englishWordsEndingLikeNames.contains(word) else { return [] }
    return dottedNameEndings.compactMap { ending in
      let tail = Array(ending.utf8)
      let cut = bytes.count - tail.count
      guard cut >= minimumHeadLength, bytes[cut...].elementsEqual(tail) else { return nil }
      return [String(decoding: bytes[..<cut], as: UTF8.self), ending]
    }
  }

  /// The lengths, in letters, of a word that may be an initialism written without its full
  /// stops (`eg` for *e.g.*, `usa` for *U.S.A.*). An initialism with a part of two letters
  /// (*Ph.D.*) is not found this way.
  public static let initialismLengths = 2...4

  /// `word`'s letters one by one, as an initialism written with full stops is indexed
  /// (*e.g.* holds the adjacent terms `e` and `g`): a candidate the ranker searches only for a
  /// word no note holds, and keeps only when some note holds the letters next to each other.
  ///
  /// - Parameter word: a folded, unstemmed word.
  /// - Returns: the letters, or nil for words of other characters or of a length outside
  ///   ``initialismLengths``.
  public static func initialismSplit(of word: String) -> [String]? {
    let bytes = Array(word.utf8)
    guard initialismLengths.contains(bytes.count), bytes.allSatisfy(isLetter) else { return nil }
    return bytes.map { String(decoding: [$0], as: UTF8.self) }
  }

  /// Whether two words typed apart (`health care`, `covid 19`, `non smoker`) may be one
  /// compound written open: exactly when the closed word would be split into them, at a digit,
  /// after a prefix (``splits(of:)``) or into two long words (``openSplits(of:)``).
  public static func isOpenCompound(_ first: String, _ second: String) -> Bool {
    let closed = first + second
    let parts = [first, second]
    return splits(of: closed).contains(parts) || openSplits(of: closed).contains(parts)
  }

  /// The single word that compound `parts` make when written closed (`["e", "mail"]` →
  /// `email`), or nil when there are fewer than two or more than ``maximumParts`` parts.
  public static func catenation(of parts: [String]) -> String? {
    guard (2...maximumParts).contains(parts.count) else { return nil }
    return parts.joined()
  }

  private static func isLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
