/// A title as the similarity rules read it to tell a numbered series (`Migration step 2`,
/// `Migration step 10`; `Phase 1`, `Phase 2`; `Task #3`, `Task #4`) from two items that disagree.
///
/// Trigram similarity sees `step 2` and `step 10` as nearly the same title, but items that
/// differ only in their place in a plan or document are meant to coexist: they are neither a
/// possible conflict nor near-duplicates. A *sequence number* follows one of ``sequenceLabels``
/// (`step 2`, `phase 1`, `#3`, `sprint 14`): digits, with dots between digit groups for
/// sub-numbers (`section 3.2`; not a fraction such as `0.5`), ending the word or followed by one
/// letter that does (`step 2a`; `step 5ms` is a quantity), or, after a label word (not `#`), a
/// Roman numeral of `i`, `v` and `x` (`phase ii`, read as `2`). Other numbers are values and
/// still count: `Use port 8080` and `Use port 8081` can conflict, and so can `Use Python 2` /
/// `Use Python 3`, `API v1` / `API v2`, `TLS version 1.2` / `1.3` and `compression level 3` /
/// `19`.
struct NumberedTitle: Equatable {
  /// The title's words in order, lowercased, each sequence number replaced by `#`; other
  /// numbers are kept as words.
  var pattern: [String]
  /// The sequence numbers in order, each dot-separated group without leading zeros (`02` is
  /// `2`), a Roman numeral as digits (`ii` is `2`), a letter suffix kept (`2a`).
  var sequenceNumbers: [String]

  /// Words after which a number is a place in a plan or document rather than a chosen value.
  /// English, as the rules' messages are.
  ///
  /// Each names an ordinal place: the steps, phases, stages, parts, rounds, iterations and
  /// milestones of a plan, the sprints of a schedule of sprints, the chapters, sections and
  /// lessons of a document or course, and `#` an item's number (`Task #3`, `Bug #41`). Items
  /// about two such places are about two different things, meant to coexist.
  ///
  /// Words that as often name a value chosen for something are left out, because reading them
  /// as a series would hide a real conflict, which costs more than a false alarm: versions and
  /// releases (`v`, `ver`, `version`, `rev`, `revision`, `release`: `Pin Node v18` / `v20` and
  /// `Use TLS version 1.2` / `1.3` each pick a version), settings (`level`, `tier`, `number`,
  /// `no`: `compression level 3` / `19`), dates and periods (`day`, `week`, `quarter`, `q`:
  /// `Deploy on day 1` / `day 5`, `Launch in Q3` / `Q4`), and groupings that are as often
  /// chosen as counted (`pass`, `batch`, `wave`, `module`: `Ship to wave 2` / `wave 3`).
  static let sequenceLabels: Set<String> = [
    "#", "chapter", "iteration", "lesson", "milestone", "part", "phase", "round", "section", "sprint", "stage",
    "step",
  ]

  /// Single letters that, glued to a number, make it a quantity rather than a lettered place:
  /// seconds, minutes, hours, days, thousands, times, grams (`step 15s` is a step size).
  static let unitLetters: Set<String> = ["s", "m", "h", "d", "k", "x", "g"]

  /// Reads `title`.
  /// - Complexity: O(*n*) in the title's characters.
  init(_ title: String) {
    // Words in order; `glued` when the word follows the one before with nothing between
    // (`2a` is `2`, then `a` glued).
    var words: [(text: String, glued: Bool)] = []
    var current = ""
    var currentIsNumber = false
    var currentGlued = false
    func flush(gluing: Bool) {
      if !current.isEmpty { words.append((current, currentGlued)) }
      current = ""
      currentGlued = gluing
    }
    let characters = Array(title.lowercased())
    for (i, ch) in characters.enumerated() {
      let isDigit = ch.isASCII && ch.isWholeNumber
      if isDigit || ch.isLetter || ch.isNumber {
        // A letter after a digit, or a digit after a letter, starts a word: `2a` is `2`, `a`.
        if !current.isEmpty && currentIsNumber != isDigit { flush(gluing: true) }
        currentIsNumber = isDigit
        current.append(ch)
      } else if ch == ".", currentIsNumber, i + 1 < characters.count,
        characters[i + 1].isASCII && characters[i + 1].isWholeNumber
      {
        current.append(ch)  // a sub-number's dot: `3.2`
      } else {
        flush(gluing: false)
        if ch == "#" { words.append(("#", false)) }
      }
    }
    flush(gluing: false)

    pattern = []
    sequenceNumbers = []
    // Whether the word at `i` ends where the next word is not glued to it.
    func endsWord(_ i: Int) -> Bool { i + 1 >= words.count || !words[i + 1].glued }
    var i = 0
    while i < words.count {
      let word = words[i].text
      let label = i > 0 && Self.sequenceLabels.contains(words[i - 1].text) ? words[i - 1].text : nil
      // One letter written right after the number, ending the word: `2a`, `2b`. Anything else
      // glued to it makes the number a quantity (`5ms`), a value, and so does a letter that is
      // a unit (`15s`, `5m`, `2h`, `1d`, `4k`, `2x`, `5g`).
      let hasSuffix =
        !endsWord(i) && words[i + 1].text.count == 1 && words[i + 1].text.first?.isLetter == true
        && !Self.unitLetters.contains(words[i + 1].text) && endsWord(i + 1)
      if label != nil, endsWord(i) || hasSuffix, let number = Self.ordinal(word) {
        pattern.append("#")
        sequenceNumbers.append(hasSuffix ? number + words[i + 1].text : number)
        if hasSuffix { i += 1 }
      } else if let label, label != "#", endsWord(i), let number = Self.romanNumeral(word) {
        pattern.append("#")
        sequenceNumbers.append(String(number))
      } else {
        pattern.append(word)
      }
      i += 1
    }
  }

  /// `word` as a place number, each dot-separated group without leading zeros, or `nil` when
  /// it is not digits, or is a fraction (`0.5`: a value, never a place).
  static func ordinal(_ word: String) -> String? {
    guard word.first.map({ $0.isASCII && $0.isWholeNumber }) == true else { return nil }
    let groups = word.split(separator: ".", omittingEmptySubsequences: false).map { group in
      let digits = group.drop { $0 == "0" }
      return digits.isEmpty ? "0" : String(digits)
    }
    if groups.count > 1, groups[0] == "0" { return nil }
    return groups.joined(separator: ".")
  }

  /// The value of `word` as a lowercase Roman numeral of `i`, `v` and `x` (1 to 39, in the
  /// standard subtractive form: `iv`, not `iiii`), or `nil`.
  static func romanNumeral(_ word: String) -> Int? {
    var rest = Substring(word)
    var value = 0
    while rest.hasPrefix("x"), value < 30 {
      value += 10
      rest = rest.dropFirst()
    }
    if rest.hasPrefix("ix") {
      value += 9
      rest = rest.dropFirst(2)
    } else if rest.hasPrefix("iv") {
      value += 4
      rest = rest.dropFirst(2)
    } else {
      if rest.hasPrefix("v") {
        value += 5
        rest = rest.dropFirst()
      }
      var ones = 0
      while rest.hasPrefix("i"), ones < 3 {
        ones += 1
        rest = rest.dropFirst()
      }
      value += ones
    }
    return rest.isEmpty && value > 0 ? value : nil
  }

  /// Whether the two titles are the same words around different sequence numbers (case and
  /// punctuation aside): members of one numbered series, not two takes on one thing.
  func differsOnlyInSequenceNumbers(from other: NumberedTitle) -> Bool {
    !sequenceNumbers.isEmpty && pattern == other.pattern && sequenceNumbers != other.sequenceNumbers
  }
}
