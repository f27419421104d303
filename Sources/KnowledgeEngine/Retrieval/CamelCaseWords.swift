/// The parts of identifiers written in camelCase or PascalCase (`getUserProfile` → `get`,
/// `User`, `Profile`; `URLSession` → `URL`, `Session`), which the index holds besides the
/// whole word so that `profile` or `user profile` finds a note naming `getUserProfile`, and
/// which a query word so written also searches as adjacent words (`maxRetryCount` finds
/// `max_retry_count`).
///
/// A word is split only where an uppercase letter starts a capitalised word: it follows a
/// lowercase letter, or ends a run of two or more capitals (`URLSession`, `XMLHttpRequest`),
/// and a lowercase letter follows it. So scientific names, whose capitals stand alone or in
/// runs, stay whole: `mRNA`, `siRNA`, `hTERT`, `NFkB`, `IgG`, `BamHI`. Only words of ASCII
/// letters are split, and only when every part has at least two letters (`iPhone`, `eGFP`
/// stay whole).
enum CamelCaseWords {
  /// The parts of `word` as typed, in order, when it is a camelCase or PascalCase identifier by
  /// the rules of the type; nil otherwise (one part, a one-letter part, or a character other
  /// than an ASCII letter).
  /// - Parameter word: a run of the tokenizer, as typed (UTF-8).
  /// - Complexity: O(*n*) in the length of `word`.
  static func parts(of word: some Collection<UInt8>) -> [String]? {
    func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    // Most words have no capital past their first letter: they are passed over unread.
    guard word.count >= 4, word.dropFirst().contains(where: isUpper) else { return nil }
    let bytes = Array(word)
    func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    guard bytes.allSatisfy({ isUpper($0) || isLower($0) }) else { return nil }
    var starts = [0]
    for i in 1..<bytes.count where isUpper(bytes[i]) && i + 1 < bytes.count && isLower(bytes[i + 1]) {
      // After a lowercase letter, or ending a run of two or more capitals (`URL|Session`).
      if isLower(bytes[i - 1]) || (i >= 2 && isUpper(bytes[i - 1]) && isUpper(bytes[i - 2])) {
        starts.append(i)
      }
    }
    guard starts.count > 1 else { return nil }
    let bounds = zip(starts, starts.dropFirst() + [bytes.count])
    guard bounds.allSatisfy({ $1 - $0 >= 2 }) else { return nil }
    return bounds.map { String(decoding: bytes[$0..<$1], as: UTF8.self) }
  }

  /// The terms of `word`'s parts (``parts(of:)``) as `tokenizer` makes them (folded and
  /// stemmed: `getUserProfile` → `get`, `user`, `profil`); nil when it has no parts.
  /// - Complexity: O(*n*) in the length of `word`.
  static func partTerms(of word: some Collection<UInt8>, tokenizer: Tokenizer) -> [String]? {
    guard let parts = parts(of: word) else { return nil }
    var terms: [String] = []
    for part in parts {
      var term: String?
      tokenizer.forEachTerm(in: part) { analyzed in
        term = analyzed.term
        return false
      }
      guard let term else { return nil }
      terms.append(term)
    }
    return terms
  }
}
