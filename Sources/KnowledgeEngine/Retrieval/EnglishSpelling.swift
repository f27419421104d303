/// British and American spellings of one English word, so that a query written one way finds
/// notes written the other (`tumour` and `tumor`, `haemoglobin` and `hemoglobin`, `randomised`
/// and `randomized`).
///
/// The Porter stemmer does not join these: `tumour` and `tumor` stem to themselves, and
/// `randomised` stems to `randomis` while `randomized` stems to `random`. The ranker therefore
/// generates the other spellings of each query word with the rules below, stems them like any
/// word, and searches those that occur in the workspace's vocabulary beside the word itself,
/// at full weight (``HybridLexicalRanker``). The index is not changed, and a generated word
/// that no note contains costs one vocabulary look-up and is never searched.
///
/// The rules cover the regular classes of difference that the Variant Conversion Info
/// (VarCon, Kevin Atkinson, part of SCOWL, wordlist.aspell.net) and the Oxford and
/// Merriam-Webster dictionaries record between British and American spelling:
///
/// - `-our` / `-or` at the end of a word or before an inflection or derivational ending
///   (`colour`, `tumours`, `behavioural`, `favourite`), after a consonant or `i`, in words of
///   five letters or more, except words where `our` is the whole syllable (`four`, `hour`,
///   `pour`, `tour`, `sour`, `your`, `dour`, `flour`, `scour`, `contour`, `detour`, `devour`,
///   `velour`, `amour`, `paramour`, `troubadour`);
/// - `-ise` / `-ize` and `-yse` / `-yze` with their inflections (`randomised`, `organisation`,
///   `analysing`), when at least three letters come before the ending;
/// - `-tre` / `-ter` and `-bre` / `-ber` (`centre`, `centred`, `fibres`), except in French
///   words and where the `-re` form is another word (`timbre`/`timber`, `outre`/`outer`,
///   `entre`/`enter`, `lettre`/`letter`);
/// - `-ogue` / `-og` (`catalogue`, `analogues`);
/// - the `ae` and `oe` of Greek and Latin medical words, in these combinations only:
///   `haem`/`hem`, `aemia`/`emia`, `aemic`/`emic`, `paed`/`ped`, `anaes`/`anes`,
///   `aetiol`/`etiol`, `faec`/`fec`, `caes`/`ces`, `gynaec`/`gynec`, `palae`/`pale`,
///   `archae`/`arche`, `aesth`/`esth`, `oedem`/`edem`, `oestr`/`estr`, `oesoph`/`esoph`,
///   `rrhoea`/`rrhea`, `foet`/`fet`, `coel`/`cel`, `amoeb`/`ameb`, `homoeo`/`homeo`, and
///   `sulph`/`sulf` — inside a longer word only (`haem` alone is `heme`, and `hem` a seam);
/// - a few whole words: `defence`, `offence`, `licence`, `pretence`, `grey`, `mould`,
///   `ageing`, `programme`, `aluminium`, `judgement`, `fulfil(ment)`, `enrol(ment)`,
///   `instalment`, `skilful`, `wilful`, `distil`, `instil`, `plough`, with their inflections
///   (`greys`, `greyed`, `moulded`), and their American forms.
///
/// Each rule runs in both directions. It compares spellings only, never meanings.
public enum EnglishSpelling {
  /// The other British or American spellings of `word` that the rules above give, in a fixed
  /// order (by rule, then by position), without `word` itself and without repeats. They are
  /// candidates: most are not words, and the ranker keeps only those in the vocabulary.
  ///
  /// - Parameter word: a folded, unstemmed word; only words of three or more ASCII letters
  ///   `a`–`z` have alternatives (anything else gives `[]`).
  /// - Returns: at most a few dozen candidate words.
  /// - Complexity: O(*r* · *n*) for *n* letters and *r* rules.
  public static func alternatives(of word: String) -> [String] {
    let letters = Array(word.utf8)
    guard letters.count >= 3, letters.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else {
      return []
    }
    var found: [[UInt8]] = []
    func add(_ candidate: [UInt8]) {
      if candidate != letters && !found.contains(candidate) { found.append(candidate) }
    }

    for (from, to) in infixRules where letters.count > from.count {
      // Only inside a longer word: `haem` alone is `heme` in American, and `hem` is a seam.
      for start in occurrences(of: from, in: letters) {
        add(Array(letters[..<start]) + to + letters[(start + from.count)...])
      }
    }
    if letters.count >= 5 && !ourExceptions.contains(word) {
      for (from, to) in ourRules {
        let stemLength = letters.count - from.count
        guard stemLength >= 2, letters.ends(with: from) else { continue }
        // A consonant or `i` before the ending: `tumour`, `behaviour`; not `pour`-like
        // `-eour`, `-aour`, `-oour`, `-uour` (and `-eor`, `-uor`: `meteor`, `liquor`).
        switch letters[stemLength - 1] {
        case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "o"), UInt8(ascii: "u"): continue
        default: add(Array(letters[..<stemLength]) + to)
        }
      }
    }
    for (from, to) in izeRules {
      let stemLength = letters.count - from.count
      guard stemLength >= 3, letters.ends(with: from) else { continue }
      add(Array(letters[..<stemLength]) + to)
    }
    if !reEndingExceptions.contains(word) {
      for (from, to) in endingRules {
        let stemLength = letters.count - from.count
        guard stemLength >= 2, letters.ends(with: from) else { continue }
        add(Array(letters[..<stemLength]) + to)
      }
    }
    for (british, american) in wholeWords {
      if word == british { add(Array(american.utf8)) }
      if word == american { add(Array(british.utf8)) }
    }
    return found.map { String(decoding: $0, as: UTF8.self) }
  }

  /// The start offsets of every occurrence of `pattern` in `letters`.
  private static func occurrences(of pattern: [UInt8], in letters: [UInt8]) -> [Int] {
    guard pattern.count <= letters.count else { return [] }
    return (0...(letters.count - pattern.count)).filter {
      letters[$0..<($0 + pattern.count)].elementsEqual(pattern)
    }
  }

  /// British and American forms of Greek and Latin medical roots (British first).
  private static let medicalInfixes: [([UInt8], [UInt8])] = [
    ("haem", "hem"), ("aemia", "emia"), ("aemic", "emic"), ("paed", "ped"), ("anaes", "anes"),
    ("aetiol", "etiol"), ("faec", "fec"), ("caes", "ces"), ("gynaec", "gynec"),
    ("palae", "pale"), ("archae", "arche"), ("aesth", "esth"), ("oedem", "edem"),
    ("oestr", "estr"), ("oesoph", "esoph"), ("rrhoea", "rrhea"), ("foet", "fet"),
    ("coel", "cel"), ("amoeb", "ameb"), ("homoeo", "homeo"), ("sulph", "sulf"),
  ].map { (Array($0.0.utf8), Array($0.1.utf8)) }

  /// The infix rules in both directions, in the order they are tried: each pair of
  /// ``medicalInfixes`` British to American, then back.
  private static let infixRules: [([UInt8], [UInt8])] = medicalInfixes.flatMap { british, american in
    [(british, american), (american, british)]
  }

  /// The `-our` / `-or` rules as whole suffixes, in the order they are tried: for each of
  /// ``ourEndings``, `our` + ending → `or` + ending, then back. Made once, not per word.
  private static let ourRules: [([UInt8], [UInt8])] = ourEndings.flatMap { ending in
    let our = Array("our".utf8) + ending
    let or = Array("or".utf8) + ending
    return [(our, or), (or, our)]
  }

  /// The `-ise` / `-ize` and `-yse` / `-yze` rules as whole suffixes, in the order they are
  /// tried: for each ending, `is` + ending → `iz` + ending, then back; then the same for `ys`.
  private static let izeRules: [([UInt8], [UInt8])] =
    [("is", "iz", iseEndings), ("ys", "yz", yseEndings)].flatMap { british, american, endings in
      endings.flatMap { ending in
        let from = Array(british.utf8) + ending
        let to = Array(american.utf8) + ending
        return [(from, to), (to, from)]
      }
    }

  /// The word-ending rules in both directions, in the order they are tried: each pair of
  /// ``endingPairs`` British to American, then back.
  private static let endingRules: [([UInt8], [UInt8])] = endingPairs.flatMap { british, american in
    [(british, american), (american, british)]
  }

  /// Endings that may follow `our` / `or` (the empty ending first).
  private static let ourEndings: [[UInt8]] = [
    "", "s", "ed", "ing", "al", "ally", "ite", "ites", "able", "ably", "er", "ers", "ful",
    "less", "ism", "ist", "ists", "ous", "ously",
  ].map { Array($0.utf8) }

  /// Words in which `our` is a whole syllable, not the `-our` ending.
  private static let ourExceptions: Set<String> = [
    "four", "hour", "pour", "tour", "sour", "your", "dour", "flour", "fours", "hours", "pours",
    "tours", "yours", "flours", "contour", "contours", "detour", "detours", "devour", "devours",
    "velour", "amour", "amours", "troubadour", "troubadours", "paramour", "paramours", "scour",
    "scours", "scoured", "scouring",
  ]

  /// Endings that may follow `is` / `iz`.
  private static let iseEndings: [[UInt8]] = [
    "e", "ed", "es", "ing", "ation", "ations", "er", "ers", "able",
  ].map { Array($0.utf8) }

  /// Endings that may follow `ys` / `yz`.
  private static let yseEndings: [[UInt8]] = ["e", "ed", "es", "ing", "er", "ers"].map {
    Array($0.utf8)
  }

  /// Word endings, British first.
  private static let endingPairs: [([UInt8], [UInt8])] = [
    ("tre", "ter"), ("tres", "ters"), ("tred", "tered"), ("tring", "tering"), ("bre", "ber"),
    ("bres", "bers"), ("ogue", "og"), ("ogues", "ogs"),
  ].map { (Array($0.0.utf8), Array($0.1.utf8)) }

  /// Words whose `-re` or `-er` is not the spelling difference: French words and words whose
  /// `-re` form is another word (`timbre` is not `timber`, `outre` not `outer`).
  private static let reEndingExceptions: Set<String> = [
    "timbre", "timbres", "timber", "timbers", "outre", "outer", "entre", "enter", "votre",
    "voter", "notre", "noter", "autre", "contre", "ombre", "omber", "lettre", "lettres",
    "letter", "letters", "maitre", "macabre",
  ]

  /// Whole words, British first.
  private static let wholeWords: [(String, String)] = [
    ("defence", "defense"), ("offence", "offense"), ("licence", "license"),
    ("pretence", "pretense"), ("defences", "defenses"), ("offences", "offenses"),
    ("licences", "licenses"), ("grey", "gray"), ("greys", "grays"), ("greyed", "grayed"),
    ("greying", "graying"), ("greyer", "grayer"), ("greyest", "grayest"),
    ("greyish", "grayish"), ("mould", "mold"), ("moulds", "molds"), ("mouldy", "moldy"),
    ("moulded", "molded"), ("moulding", "molding"), ("ageing", "aging"), ("programme", "program"),
    ("programmes", "programs"), ("aluminium", "aluminum"), ("judgement", "judgment"),
    ("judgements", "judgments"), ("fulfil", "fulfill"), ("fulfilment", "fulfillment"),
    ("enrol", "enroll"), ("enrolment", "enrollment"), ("instalment", "installment"),
    ("skilful", "skillful"), ("wilful", "willful"), ("distil", "distill"), ("instil", "instill"),
    ("plough", "plow"), ("ploughs", "plows"), ("ploughed", "plowed"), ("ploughing", "plowing"),
  ]
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
  }
}
