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
/// The forms are the irregular plural classes of English grammars (Quirk, Greenbaum, Leech
/// & Svartvik, *A Comprehensive Grammar of the English Language*, 1985, §§ 5.79–5.97: mutation
/// plurals, the `-en` plural, and the Greek and Latin classes), kept as a dictionary stemmer such
/// as KStem (Krovetz, "Viewing morphology as an inference process", SIGIR 1993) keeps them:
///
/// - one rule, for the Greek `-sis` / `-ses` (`analysis`, `diagnoses`, `metastasis`,
///   `hypotheses`), which almost no other English word ends in, with at least three letters
///   before the ending (so `basis` is not `bases`, nor `oasis` `oases`);
/// - lists of whole words for every other class: the mutation and `-en` plurals (`man`/`men`,
///   `child`/`children`, `mouse`/`mice`, `tooth`/`teeth`), the Latin `-us` / `-i` (`nucleus`,
///   `stimuli`, `alveoli`, `fungi`, `staphylococci`), `-um` / `-a` (`bacterium`, `spectra`,
///   `sera`, `atria`, `cilia`), `-us` / `-era`, `-ora` (`genus`/`genera`, `corpus`/`corpora`) and
///   the Greek `-on` / `-a` (`criterion`, `phenomenon`, `mitochondrion`). These endings are not
///   rules because ordinary words and names end the same way: a rule would pair `minus` with
///   `mini`, `Venus` with `veni`, `album` with `Alba`, `quorum` with `Quora` and `colon` with
///   `cola`. `medium` / `media` is left out: in notes, *media* is mostly social or news media.
///
/// The `-ex`/`-ix` → `-ices` class (`index`, `matrix`, `cortex`) is left out on purpose: its
/// plurals stem to the stems of other words (`indices` and `indicated` both stem to `indic`,
/// `cortices` and `cortical` to `cortic`), so searching them would find those words too. The
/// ranker also never searches a form that stems to a stop word (`theses` stems to `these`).
///
/// Each pair runs in both directions. It compares forms only, never meanings, and a generated
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
    // Greek `-sis` / `-ses`, with at least three letters before the ending.
    for (from, to) in [(sisEnding, sesEnding), (sesEnding, sisEnding)] {
      let stemLength = letters.count - from.count
      guard stemLength >= 3, letters.ends(with: from) else { continue }
      add(String(decoding: letters[..<stemLength] + to, as: UTF8.self))
    }
    return found
  }

  /// The other number of a name made of letters and digits, written as such names are in
  /// English: an `s` after the name (`E2Fs`, `CD4s`, `H100s`, `MP3s`), which the Porter stemmer
  /// never sees, since it reduces words of letters only.
  ///
  /// - The plural as typed gives the name: the last character is a lowercase `s`, and the name
  ///   before it has an uppercase letter and ends in an uppercase letter or a digit
  ///   (`E2Fs` → `e2f`). The case is what tells a plural from a name ending in S: `H2S`
  ///   (hydrogen sulfide) gives nothing, nor does `h2s` typed in lowercase, nor `1990s`.
  /// - The name gives its plural: a name of three or more characters, not ending in `s`
  ///   (`E2F` → `e2fs`, `cd4` → `cd4s`). Two-character names are left alone, so `H2` does not
  ///   find `H2S`.
  ///
  /// - Parameter typed: one query word as typed, before case folding; only words of ASCII
  ///   letters and digits with at least one of each have alternatives (anything else gives
  ///   `[]`).
  /// - Returns: at most one candidate, case-folded. The ranker searches it only when the
  ///   vocabulary holds it.
  /// - Complexity: O(*n*) for *n* characters.
  public static func identifierAlternatives(of typed: String) -> [String] {
    let bytes = Array(typed.utf8)
    func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    guard bytes.count >= 3, bytes.allSatisfy({ isUpper($0) || isLower($0) || isDigit($0) }),
      bytes.contains(where: isDigit), bytes.contains(where: { isUpper($0) || isLower($0) })
    else { return [] }
    let folded = String(decoding: bytes.map { isUpper($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    let name = bytes.dropLast()
    if bytes.last == UInt8(ascii: "s") {
      guard let before = name.last, isUpper(before) || isDigit(before), name.contains(where: isUpper),
        name.contains(where: { isUpper($0) || isLower($0) })
      else { return [] }
      return [String(folded.dropLast())]
    }
    return bytes.last == UInt8(ascii: "S") ? [] : [folded + "s"]
  }

  private static let sisEnding = Array("sis".utf8)
  private static let sesEnding = Array("ses".utf8)

  /// Whole words, singular first, by class.
  private static let wholeWords: [(String, String)] = [
    // Mutation and `-en` plurals.
    ("man", "men"), ("woman", "women"), ("child", "children"), ("mouse", "mice"),
    ("louse", "lice"), ("tooth", "teeth"), ("foot", "feet"), ("goose", "geese"), ("ox", "oxen"),
    // Latin `-us` / `-i`.
    ("nucleus", "nuclei"), ("nucleolus", "nucleoli"), ("stimulus", "stimuli"),
    ("fungus", "fungi"), ("bacillus", "bacilli"), ("alveolus", "alveoli"),
    ("bronchus", "bronchi"), ("locus", "loci"), ("focus", "foci"), ("radius", "radii"),
    ("thrombus", "thrombi"), ("embolus", "emboli"), ("calculus", "calculi"),
    ("glomerulus", "glomeruli"), ("hippocampus", "hippocampi"), ("thalamus", "thalami"),
    ("coccus", "cocci"), ("streptococcus", "streptococci"), ("staphylococcus", "staphylococci"),
    ("enterococcus", "enterococci"), ("pneumococcus", "pneumococci"),
    ("meningococcus", "meningococci"), ("gonococcus", "gonococci"), ("villus", "villi"),
    ("sulcus", "sulci"), ("gyrus", "gyri"), ("uterus", "uteri"), ("meniscus", "menisci"),
    ("nevus", "nevi"), ("naevus", "naevi"), ("nidus", "nidi"), ("cactus", "cacti"),
    ("syllabus", "syllabi"), ("alumnus", "alumni"), ("modulus", "moduli"),
    ("annulus", "annuli"), ("torus", "tori"), ("homunculus", "homunculi"),
    // Latin `-us` / `-era`, `-ora`.
    ("genus", "genera"), ("corpus", "corpora"),
    // Latin `-um` / `-a`.
    ("bacterium", "bacteria"), ("mycobacterium", "mycobacteria"), ("datum", "data"),
    ("spectrum", "spectra"), ("serum", "sera"), ("atrium", "atria"),
    ("epithelium", "epithelia"), ("endothelium", "endothelia"), ("cilium", "cilia"),
    ("flagellum", "flagella"), ("septum", "septa"), ("stratum", "strata"),
    ("curriculum", "curricula"), ("memorandum", "memoranda"), ("maximum", "maxima"),
    ("minimum", "minima"), ("optimum", "optima"), ("quantum", "quanta"),
    ("millennium", "millennia"), ("symposium", "symposia"), ("consortium", "consortia"),
    ("cranium", "crania"), ("ovum", "ova"), ("diverticulum", "diverticula"),
    ("inoculum", "inocula"), ("ostium", "ostia"), ("addendum", "addenda"),
    ("erratum", "errata"), ("phylum", "phyla"), ("referendum", "referenda"),
    // Greek `-on` / `-a`.
    ("criterion", "criteria"), ("phenomenon", "phenomena"), ("mitochondrion", "mitochondria"),
    ("ganglion", "ganglia"), ("taxon", "taxa"), ("automaton", "automata"),
    ("spermatozoon", "spermatozoa"), ("protozoon", "protozoa"), ("polyhedron", "polyhedra"),
    ("tetrahedron", "tetrahedra"),
  ]
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
  }
}
