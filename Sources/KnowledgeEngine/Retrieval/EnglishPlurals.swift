/// The irregular singular and plural forms of one English noun, so that a query written in
/// one number finds notes written in the other (`mouse` and `mice`, `analysis` and
/// `analyses`, `nucleus` and `nuclei`, `bacterium` and `bacteria`, `criterion` and
/// `criteria`).
///
/// The Porter stemmer joins regular plurals (`cells` → `cell`) and the Latin `-a`/`-ae`
/// pair (`vertebrae` → `vertebra`), but leaves these apart: `mouse` stems to `mous` and
/// `mice` to `mice`, `analysis` to `analysi` and `analyses` to `analys`. As for
/// ``EnglishSpelling``, the ranker generates the other forms of each query word with the rules
/// below, stems them like any word, and searches those in the workspace's vocabulary beside
/// the word itself (``HybridLexicalRanker``); the index is not changed.
///
/// The rules are the irregular plural classes of English grammars (Quirk, Greenbaum, Leech
/// & Svartvik, *A Comprehensive Grammar of the English Language*, 1985, §§ 5.79–5.97: mutation
/// plurals, the `-en` plural, and the Greek and Latin classes) — the same words a dictionary
/// stemmer such as KStem (Krovetz, "Viewing morphology as an inference process", SIGIR 1993)
/// keeps in its exception lists:
///
/// - mutation and `-en` plurals, as whole words: `man`/`men`, `woman`/`women`,
///   `child`/`children`, `mouse`/`mice`, `louse`/`lice`, `tooth`/`teeth`, `foot`/`feet`,
///   `goose`/`geese`, `ox`/`oxen`;
/// - Greek `-sis` / `-ses` (`analysis`, `diagnoses`, `metastasis`, `hypotheses`), with at least
///   three letters before the ending (so `basis` is not `bases`, nor `oasis` `oases`);
/// - Latin `-us` / `-i` (`nucleus`, `stimuli`, `alveoli`, `fungi`), with at least three
///   letters before the ending, but not after `o` or `e` (the adjectives in `-ous`, such as
///   `various`; `nucleus`/`nuclei` is listed as a whole word), and not the Latin genitives of
///   species names (`Helicobacter pylori` is not the `pylorus`, `Salmonella typhi` not `typhus`);
/// - Latin `-um` / `-a` (`bacterium`, `media`, `spectra`, `sera`), with at least three letters
///   before the ending, except chemical elements and ions (`magnesium`, `ammonium`: `magnesia`
///   and `ammonia` are other substances);
/// - Greek `-on` / `-a`, as whole words only, since the ending is common in English words that
///   are no plurals (`colon`/`cola`, `intron`/`intra`): `criterion`, `phenomenon`,
///   `mitochondrion`, `ganglion`, `taxon`, `automaton`, `spermatozoon`, `protozoon`,
///   `polyhedron`, `tetrahedron`.
///
/// The `-ex`/`-ix` → `-ices` class (`index`, `matrix`, `cortex`) is left out on purpose: its
/// plurals stem to the stems of other words (`indices` and `indicated` both stem to `indic`,
/// `cortices` and `cortical` to `cortic`), so searching them would find those words too.
///
/// Each rule runs in both directions. It compares forms only, never meanings, and a generated
/// form that is not in the vocabulary is never searched.
public enum EnglishPlurals {
  /// The other number's forms of `word` that the rules above give, in a fixed order (whole
  /// words, then by rule), without `word` itself and without repeats. They are candidates:
  /// most are not words, and the ranker keeps only those in the vocabulary.
  ///
  /// - Parameter word: a folded, unstemmed word; only words of two or more ASCII letters
  ///   `a`–`z` have alternatives (anything else gives `[]`).
  /// - Returns: at most a few candidate words.
  /// - Complexity: O(*n*) for *n* letters.
  public static func alternatives(of word: String) -> [String] {
    let letters = Array(word.utf8)
    guard letters.count >= 2, letters.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else {
      return []
    }
    var found: [String] = []
    func add(_ candidate: String) {
      if candidate != word && !found.contains(candidate) { found.append(candidate) }
    }
    for (singular, plural) in wholeWords {
      if word == singular { add(plural) }
      if word == plural { add(singular) }
    }
    // Ending pairs, singular first, each with at least three letters before it.
    for (singular, plural) in endingPairs {
      for (from, to) in [(singular, plural), (plural, singular)] {
        let stemLength = letters.count - from.count
        guard stemLength >= 3, letters.ends(with: from) else { continue }
        let stem = letters[..<stemLength]
        let candidate = String(decoding: stem + to, as: UTF8.self)
        let (singularForm, pluralForm) = from == singular ? (word, candidate) : (candidate, word)
        switch singular {
        case usEnding:
          // Not the adjectives in `-ous`, not `-eus` / `-ei`, not a species genitive.
          guard stem.last != 0x6F, stem.last != 0x65, !speciesGenitives.contains(pluralForm)
          else { continue }
        case umEnding:
          guard !elementNames.contains(singularForm) else { continue }
        default: break
        }
        add(candidate)
      }
    }
    return found
  }

  /// Latin genitives in `-i` of bacterial species names, which are no plurals.
  private static let speciesGenitives: Set<String> = ["pylori", "typhi"]

  private static let usEnding = Array("us".utf8)
  private static let umEnding = Array("um".utf8)

  /// Singular and plural endings of the regular irregular classes.
  private static let endingPairs: [([UInt8], [UInt8])] = [
    ("sis", "ses"), ("us", "i"), ("um", "a"),
  ].map { (Array($0.0.utf8), Array($0.1.utf8)) }

  /// Whole words, singular first.
  private static let wholeWords: [(String, String)] = [
    ("man", "men"), ("woman", "women"), ("child", "children"), ("mouse", "mice"),
    ("louse", "lice"), ("tooth", "teeth"), ("foot", "feet"), ("goose", "geese"), ("ox", "oxen"),
    ("nucleus", "nuclei"), ("criterion", "criteria"), ("phenomenon", "phenomena"),
    ("mitochondrion", "mitochondria"), ("ganglion", "ganglia"), ("taxon", "taxa"),
    ("automaton", "automata"), ("spermatozoon", "spermatozoa"), ("protozoon", "protozoa"),
    ("polyhedron", "polyhedra"), ("tetrahedron", "tetrahedra"),
  ]

  /// Chemical elements (and the ammonium ion) named in `-um`, whose `-a` forms are other
  /// substances or no words (`magnesia`, `ammonia`, `lithia`, `platina`).
  private static let elementNames: Set<String> = [
    "sodium", "potassium", "calcium", "magnesium", "lithium", "titanium", "uranium",
    "chromium", "cadmium", "barium", "strontium", "radium", "helium", "selenium", "germanium",
    "aluminium", "aluminum", "platinum", "caesium", "cesium", "rubidium", "beryllium",
    "scandium", "vanadium", "gallium", "indium", "iridium", "osmium", "palladium", "rhodium",
    "ruthenium", "thallium", "thorium", "plutonium", "neptunium", "polonium", "francium",
    "technetium", "zirconium", "niobium", "hafnium", "yttrium", "tellurium", "europium",
    "gadolinium", "lanthanum", "molybdenum", "tantalum", "cerium", "ammonium",
  ]
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
  }
}
