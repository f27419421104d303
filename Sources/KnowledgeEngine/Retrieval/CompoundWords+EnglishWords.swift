extension CompoundWords {
  /// The English words that end in a ``dottedNameEndings`` ending after at least
  /// ``minimumHeadLength`` letters (`ratio`, `magnet`, `happy`, `samurai`): words, not dotted
  /// names, which ``tailSplits(of:)`` never cuts, so that `ratio` does not find *the rat IO
  /// test* nor `magnet` *mag net revenue*.
  ///
  /// Neither the index nor the letters tell these apart from a name: the index keeps the
  /// positions of terms, not the full stop or space between them, so *Node.js* and *rat io* are
  /// both two adjacent terms, and `socketio` ends as `ratio` does. The English words that end
  /// so can be listed, and the list is short: no English word ends in `js`, and few end in the
  /// others. A name that is also such a word is left whole too.
  ///
  /// Source: every word of SCOWL size 50 (Debian's `wamerican` 2020.12.07; the common words
  /// and the common names, capitalized, of American English), folded to lower case, that
  /// `tailSplits(of:)` would otherwise cut: 194 words, none of them ending in `js`.
  public static let englishWordsEndingLikeNames: Set<String> = [
    // -io
    "adagio", "alberio", "antonio", "arpeggio", "audio", "aurelio", "baguio", "barrio", "boccaccio",
    "caravaggio", "cardio", "casio", "claudio", "correggio", "curio", "dario", "emilio", "eugenio",
    "fellatio", "folio", "gregorio", "hilario", "horacio", "horatio", "ignacio", "imbroglio",
    "impresario", "indio", "initio", "intaglio", "julio", "lothario", "lucio", "mario", "mauricio",
    "nuncio", "octavio", "ontario", "oratorio", "palladio", "patio", "pinocchio", "pistachio",
    "polio", "porfirio", "portfolio", "radio", "ratio", "refugio", "rogelio", "rosario", "scenario",
    "scipio", "scorpio", "seraglio", "sergio", "stdio", "studio",
    // -net
    "baronet", "bassinet", "bayonet", "bonnet", "botnet", "brunet", "cabernet", "cabinet",
    "castanet", "clarinet", "cornet", "coronet", "cygnet", "dragnet", "electromagnet", "ethernet",
    "exoplanet", "fishnet", "gannet", "garnet", "hairnet", "hornet", "internet", "intranet",
    "linnet", "magnet", "martinet", "massenet", "planet", "plantagenet", "rennet", "signet",
    "sonnet", "spinet", "sunbonnet", "telnet", "usenet",
    // -py
    "aromatherapy", "bumpy", "campy", "canopy", "chemotherapy", "choppy", "colonoscopy", "crappy",
    "creepy", "crispy", "croupy", "droopy", "dumpy", "entropy", "flippy", "floppy", "frumpy",
    "gimpy", "gossipy", "grumpy", "guppy", "happy", "harpy", "hippy", "hydrotherapy", "jalopy",
    "jumpy", "loopy", "lumpy", "microscopy", "misanthropy", "nappy", "nippy", "occupy", "peppy",
    "philanthropy", "photocopy", "physiotherapy", "poppy", "preoccupy", "preppy", "psychotherapy",
    "pulpy", "puppy", "radiotherapy", "raspy", "recopy", "reoccupy", "sappy", "scrappy", "skimpy",
    "skippy", "slaphappy", "sleepy", "sloppy", "snappy", "snippy", "snoopy", "soapy", "soppy",
    "soupy", "spectroscopy", "stumpy", "swampy", "syrupy", "therapy", "unhappy", "weepy", "wimpy",
    "wispy", "yuppy", "zippy",
    // -ai
    "altai", "bonsai", "chennai", "dalai", "drachmai", "dubai", "haggai", "hokusai", "hyundai",
    "kasai", "katmai", "kauai", "kublai", "lanai", "madurai", "masai", "molokai", "mumbai",
    "nikolai", "olduvai", "sakai", "samurai", "sendai", "shanghai", "sinai", "songhai", "unukalhai",
  ]
}
