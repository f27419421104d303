/// Numbers written with a decimal point or digit-group separator, which the index holds whole
/// besides their parts (tokenizer version 9): *Release v2.3.9* holds `v2.3.9` at the position of
/// `v2`, as well as `v2`, `3` and `9`.
///
/// Unicode word segmentation keeps such a number one word (UAX #29, *Unicode Text Segmentation*,
/// rules WB11 and WB12: a digit, `.` or `,`, a digit), as Lucene's standard tokenizer does. The
/// tokenizer splits it into its parts, so that a part is found alone (`v2`, `3`), and until
/// version 8 a number typed whole was found where its parts stood next to each other. Parts next
/// to each other cannot tell `v2.3` from the start of `v2.3.9`, nor from the end of `1.2.3`: a
/// query `v2.3` called *Release v2.3.9* an exact match of it. Held whole, `v2.3` is matched
/// exactly only where a note says `v2.3`, and a longer number that starts with it and a
/// separator (`v2.3.9`, `v2.3,1`) is found by a prefix look-up of the vocabulary, at reduced
/// weight (``HybridLexicalRanker``).
///
/// A *whole number* is a run of two or more terms at consecutive positions, each two separated
/// by one decimal point or digit-group separator between digits
/// (``Tokenizer/numberSeparator(between:and:in:)``, the rule the query side reads a number typed
/// whole by); its term is the parts' terms joined by the separator as NFKC writes it (`.` or
/// `,`): `0.7`, `０．７` → `0.7`; `Kir7.1` → `kir7.1`; `250,000`; `10.0.0.1`. Its posting is held
/// at the first part's position and adds nothing to the field's length, as the parts of a
/// camelCase identifier do (version 8), so BM25 of every other term is as before. A run whose
/// term would be longer than ``Tokenizer/maximumTermLength`` Unicode scalars is not held whole,
/// and such a query number is still searched by its parts next to each other.
struct WholeNumbers {
  /// The run being read: its term so far, its first position, how many parts it has, and where
  /// its last part stands (UTF-8 offsets and position).
  private var term = ""
  private var start = 0
  private var parts = 0
  private var last: (range: Range<Int>, position: Int)?

  /// Reads the next term of a text, in order; returns the whole number that ended before it,
  /// if any.
  ///
  /// - Parameters:
  ///   - analyzed: the next term, as ``Tokenizer/forEachTerm(in:_:)`` gives it.
  ///   - bytes: the UTF-8 of the text the terms come from.
  /// - Complexity: O(1) for a term that does not follow a number, else O(*n*) in the term's
  ///   length.
  mutating func add(_ analyzed: Tokenizer.AnalyzedTerm, in bytes: UnsafeBufferPointer<UInt8>)
    -> (term: String, position: Int)?
  {
    if let last, analyzed.position == last.position + 1,
      let separator = Tokenizer.numberSeparator(between: last.range, and: analyzed.utf8Range, in: bytes)
    {
      term.unicodeScalars.append(separator)
      term += analyzed.term
      parts += 1
      self.last = (analyzed.utf8Range, analyzed.position)
      return nil
    }
    let finished = finish()
    term = analyzed.term
    start = analyzed.position
    parts = 1
    last = (analyzed.utf8Range, analyzed.position)
    return finished
  }

  /// Ends the text: the whole number its last terms make, if any.
  mutating func finish() -> (term: String, position: Int)? {
    defer {
      parts = 0
      last = nil
    }
    guard parts > 1, Self.isHeldWhole(term) else { return nil }
    return (term, start)
  }

  /// Whether a whole number's term is held as one term: at most
  /// ``Tokenizer/maximumTermLength`` Unicode scalars.
  static func isHeldWhole(_ term: String) -> Bool {
    term.unicodeScalars.count <= Tokenizer.maximumTermLength
  }
}
