/// A title as the similarity rules read it to tell a numbered series (`Migration step 2`,
/// `Migration step 10`; `Phase 1`, `Phase 2`; `API v1`, `API v2`) from two items that disagree.
///
/// Trigram similarity sees `step 2` and `step 10` as nearly the same title, but items that
/// differ only in their place in a sequence are meant to coexist: they are neither a possible
/// conflict nor near-duplicates. A *sequence number* is a number (digits, with dots between
/// digit groups for versions: `1.2.10`) right after one of ``sequenceLabels`` (`step 2`,
/// `phase 1`, `v2`, `version 1.2`, `#3`, `sprint 14`). Other numbers are values and still count:
/// `Use port 8080` and `Use port 8081` can conflict, and so can `Use Python 2` and `Use
/// Python 3`.
struct NumberedTitle: Equatable {
  /// The title's words in order, lowercased, each sequence number replaced by `#`; other
  /// numbers are kept as words.
  var pattern: [String]
  /// The sequence numbers in order, each dot-separated group without leading zeros (`02` is
  /// `2`).
  var sequenceNumbers: [String]

  /// Words after which a number counts a sequence: steps and stages of a plan, versions and
  /// revisions, and periods of a schedule. English, as the rules' messages are.
  static let sequenceLabels: Set<String> = [
    "#", "batch", "chapter", "day", "iteration", "lesson", "level", "milestone", "module", "no",
    "number", "part", "pass", "phase", "q", "quarter", "release", "rev", "revision", "round",
    "section", "sprint", "stage", "step", "tier", "v", "ver", "version", "wave", "week",
  ]

  /// Reads `title`.
  /// - Complexity: O(*n*) in the title's characters.
  init(_ title: String) {
    var words: [String] = []
    var current = ""
    var currentIsNumber = false
    func flush() {
      if !current.isEmpty { words.append(current) }
      current = ""
    }
    let characters = Array(title.lowercased())
    for (i, ch) in characters.enumerated() {
      let isDigit = ch.isASCII && ch.isWholeNumber
      if isDigit || ch.isLetter || ch.isNumber {
        // A letter after a digit, or a digit after a letter, starts a word: `v2` is `v`, `2`.
        if !current.isEmpty && currentIsNumber != isDigit { flush() }
        currentIsNumber = isDigit
        current.append(ch)
      } else if ch == ".", currentIsNumber, i + 1 < characters.count,
        characters[i + 1].isASCII && characters[i + 1].isWholeNumber
      {
        current.append(ch)  // a version's dot: `1.2`
      } else {
        flush()
        if ch == "#" { words.append("#") }
      }
    }
    flush()

    pattern = []
    sequenceNumbers = []
    for (i, word) in words.enumerated() {
      let isNumber = word.first.map { $0.isASCII && $0.isWholeNumber } ?? false
      if isNumber, i > 0, Self.sequenceLabels.contains(words[i - 1]) {
        pattern.append("#")
        sequenceNumbers.append(
          word.split(separator: ".", omittingEmptySubsequences: false).map { group in
            let digits = group.drop { $0 == "0" }
            return digits.isEmpty ? "0" : String(digits)
          }.joined(separator: "."))
      } else {
        pattern.append(word)
      }
    }
  }

  /// Whether the two titles are the same words around different sequence numbers (case and
  /// punctuation aside): members of one numbered series, not two takes on one thing.
  func differsOnlyInSequenceNumbers(from other: NumberedTitle) -> Bool {
    !sequenceNumbers.isEmpty && pattern == other.pattern && sequenceNumbers != other.sequenceNumbers
  }
}
