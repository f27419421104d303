/// Generates short two-word queries from titles: `synth.py`'s `short_queries(src, n, seed)`.
///
/// Query *k* draws a document, takes its distinct title tokens (see the spec's `words`), and
/// joins two different ones, drawn in order, with a space; a title with one token gives that
/// token.
///
/// - Parameters:
///   - src: The documents to draw from.
///   - count: How many queries; not negative.
///   - seed: The SplitMix64 seed (`0x5EED` in the spec); independent of the item stream.
/// - Returns: `count` queries, each of lowercase ASCII words.
public func shortQueries(_ src: SynthSource, count: Int = 200, seed: UInt64 = 0x5EED) -> [String] {
  precondition(count >= 0, "shortQueries needs a count of at least 0, got \(count)")
  var random = SplitMix64(seed: seed)
  return (0..<count).map { _ in
    let title = src.docs[random.below(src.docs.count)].title
    let words = Words.distinctTokens(in: title)
    if words.count >= 2 {
      let first = random.below(words.count)
      var second = random.below(words.count - 1)
      if second >= first { second += 1 }
      return words[first] + " " + words[second]
    }
    return words.first ?? fallbackQuery(title: title)
  }
}

/// The spec's `title.split()[0].lower()` for a title without tokens (SciFact has one: "In").
///
/// Splits at Unicode whitespace and Python's extra separators U+001C…U+001F, and lowercases
/// with Swift's full Unicode mapping (which, unlike Python, ignores final-sigma context).
/// An empty title, where `synth.py` would fail, gives an empty query.
private func fallbackQuery(title: String) -> String {
  let first = title.unicodeScalars.split {
    $0.properties.isWhitespace || (0x1C...0x1F).contains($0.value)
  }.first
  return first.map { String($0).lowercased() } ?? ""
}
