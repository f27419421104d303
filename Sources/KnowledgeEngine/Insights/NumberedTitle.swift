/// A title as the similarity rules read it to tell a numbered series (`Migration step 2`,
/// `Migration step 10`; `Phase 1`, `Phase 2`; `Task #3`, `Task #4`) from two items that disagree.
///
/// Trigram similarity sees `step 2` and `step 10` as nearly the same title, but items that
/// differ only in their place in a plan or document are meant to coexist: they are neither a
/// possible conflict nor near-duplicates. A *sequence number* follows one of ``sequenceLabels``
/// (`step 2`, `phase 1`, `#3`, `sprint 14`): digits, with dots between digit groups for
/// sub-numbers (`section 3.2`; not a fraction such as `0.5`), ending the word or followed by one
/// letter that does (`step 2a`; `step 5ms` is a quantity), or, after a label word (not `#`), a
/// Roman numeral of `i`, `v` and `x` (`phase ii`, read as `2`) or a number spelled out in
/// English, `zero` to `ninety-nine` (`part one`, `chapter twenty-one`, read as `1`, `21`). An
/// ordinal right before a label word is a place too, spelled out or in digits (`first phase`,
/// `the second step`, `twenty-first chapter`, `3rd sprint`), and reads as the label followed by
/// its number (`first phase` is `phase 1`), so the two orders name the same places.
///
/// An ordinal *after* a label is not a place: in English it says when something happens (`Run
/// the lint step first` / `Run the lint step second` disagree on an order, a possible conflict).
/// A cardinal *before* a label is not one either: it counts (`two-phase commit` / `three-phase
/// commit` are different protocols). Other numbers are values and still count: `Use port 8080`
/// and `Use port 8081` can conflict, and so can `Use Python 2` / `Use Python 3`, `API v1` /
/// `API v2`, `TLS version 1.2` / `1.3`, `compression level 3` / `19` and `day one` / `day two`.
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

  /// English cardinal numbers below twenty, by value.
  static let cardinalWords: [String: Int] = [
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
  ]
  /// English cardinal tens, by value; a unit may follow (`twenty-one`, `twenty one`).
  static let cardinalTens: [String: Int] = [
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
  ]
  /// English ordinal numbers below twenty, by value.
  static let ordinalWords: [String: Int] = [
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
    "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
  ]
  /// English ordinal tens, by value (`twentieth`; `twenty-first` is a cardinal ten and an
  /// ordinal unit).
  static let ordinalTens: [String: Int] = [
    "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70,
    "eightieth": 80, "ninetieth": 90,
  ]

  /// A word of the title, lowercased.
  private struct Word {
    var text: String
    /// Whether it follows the word before with nothing between (`2a` is `2`, then `a` glued).
    var glued: Bool
    /// The characters between it and the word before (spaces, punctuation); empty when glued.
    var gap: String
  }

  /// Whether `ch` is one of the ASCII digits `0`–`9` (what `isASCII && isWholeNumber` says,
  /// without a Unicode property look-up).
  private static func isASCIIDigit(_ ch: Character) -> Bool {
    guard let ascii = ch.asciiValue else { return false }
    return ascii >= 0x30 && ascii <= 0x39 && ch.unicodeScalars.count == 1
  }

  /// Reads `title`.
  /// - Complexity: O(*n*) in the title's characters.
  init(_ title: String) {
    var words: [Word] = []
    var current = ""
    var currentIsNumber = false
    var currentGlued = false
    var currentGap = ""
    var gap = ""
    func flush(gluing: Bool) {
      if !current.isEmpty { words.append(Word(text: current, glued: currentGlued, gap: currentGap)) }
      current = ""
      currentGlued = gluing
    }
    let characters = Array(title.lowercased())
    for (i, ch) in characters.enumerated() {
      let isDigit = Self.isASCIIDigit(ch)
      // ASCII answered from the byte: `isLetter` and `isNumber` look up Unicode properties, and
      // the insights read every decision's and preference's title.
      let isWordCharacter =
        if let ascii = ch.asciiValue {
          isDigit || (ascii >= 0x61 && ascii <= 0x7A) || (ascii >= 0x41 && ascii <= 0x5A)
        } else {
          ch.isLetter || ch.isNumber
        }
      if isWordCharacter {
        // A letter after a digit, or a digit after a letter, starts a word: `2a` is `2`, `a`.
        if !current.isEmpty && currentIsNumber != isDigit { flush(gluing: true) }
        if current.isEmpty {
          currentGap = gap
          gap = ""
        }
        currentIsNumber = isDigit
        current.append(ch)
      } else if ch == ".", currentIsNumber, i + 1 < characters.count, Self.isASCIIDigit(characters[i + 1]) {
        current.append(ch)  // a sub-number's dot: `3.2`
      } else {
        flush(gluing: false)
        if ch == "#" {
          words.append(Word(text: "#", glued: false, gap: gap))
          gap = ""
        } else {
          gap.append(ch)
        }
      }
    }
    flush(gluing: false)

    pattern = []
    sequenceNumbers = []
    // Whether the word at `i` ends where the next word is not glued to it.
    func endsWord(_ i: Int) -> Bool { i + 1 >= words.count || !words[i + 1].glued }
    // Whether the word at `i` follows the one before across spaces and at most one hyphen only
    // (`twenty-one`, `first phase`; not `first, phase`).
    func joined(_ i: Int) -> Bool {
      let gap = words[i].gap
      return !gap.isEmpty && gap.allSatisfy { $0.isWhitespace || Self.hyphens.contains($0) }
        && gap.filter { Self.hyphens.contains($0) }.count <= 1
    }
    // A number spelled out at `i`, cardinal (`one`, `twenty`, `twenty-one`) or ordinal (`first`,
    // `twentieth`, `twenty-first`) as asked, with how many words it takes.
    func spelled(at i: Int, ordinal: Bool) -> (value: Int, words: Int)? {
      guard endsWord(i) else { return nil }
      let word = words[i].text
      if let tens = Self.cardinalTens[word] {
        if i + 1 < words.count, joined(i + 1), endsWord(i + 1),
          let unit = (ordinal ? Self.ordinalWords : Self.cardinalWords)[words[i + 1].text], (1...9).contains(unit)
        {
          return (tens + unit, 2)
        }
        return ordinal ? nil : (tens, 1)
      }
      if ordinal { return (Self.ordinalWords[word] ?? Self.ordinalTens[word]).map { ($0, 1) } }
      return Self.cardinalWords[word].map { ($0, 1) }
    }
    // An ordinal at `i` right before a label word (not `#`): `first phase`, `twenty-first
    // chapter`, `2nd sprint`. Its number, and how many words it takes before the label.
    func ordinalBeforeLabel(at i: Int) -> (number: String, words: Int)? {
      var reading = spelled(at: i, ordinal: true).map { (number: String($0.value), words: $0.words) }
      if reading == nil, i + 1 < words.count, words[i + 1].glued, endsWord(i + 1), !words[i].text.contains("."),
        let number = Self.ordinal(words[i].text), let value = Int(number),
        words[i + 1].text == Self.ordinalSuffix(value)
      {
        reading = (number, 2)
      }
      guard let reading, i + reading.words < words.count else { return nil }
      let label = i + reading.words
      guard words[label].text != "#", Self.sequenceLabels.contains(words[label].text), joined(label) else { return nil }
      return reading
    }
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
      } else if let label, label != "#", let number = spelled(at: i, ordinal: false) {
        pattern.append("#")
        sequenceNumbers.append(String(number.value))
        i += number.words - 1
      } else if let number = ordinalBeforeLabel(at: i) {
        // Read as the label and its number, so `first phase` is the place `phase 1` names.
        pattern += [words[i + number.words].text, "#"]
        sequenceNumbers.append(number.number)
        i += number.words
      } else {
        pattern.append(word)
      }
      i += 1
    }
  }

  /// The characters that may join two words of one number (`twenty-one`) or an ordinal to its
  /// label (`first-phase`): the hyphen-minus, the hyphen U+2010 and the non-breaking hyphen
  /// U+2011.
  static let hyphens: Set<Character> = ["-", "\u{2010}", "\u{2011}"]

  /// The English suffix of ordinal `n` in digits: `st` for 1, 21, 101; `nd`, `rd`; `th` for the
  /// rest and for 11, 12 and 13.
  static func ordinalSuffix(_ n: Int) -> String {
    if (11...13).contains(n % 100) { return "th" }
    switch n % 10 {
    case 1: return "st"
    case 2: return "nd"
    case 3: return "rd"
    default: return "th"
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

  /// Keys (``PackedASCIIWords``) of the ``sequenceLabels`` that are words (all but `#`).
  static let labelKeys = PackedASCIIWords.KeySet(sequenceLabels.compactMap { PackedASCIIWords.key($0) })

  /// Whether `title` may have a sequence number: `false` only when it holds no `#` and none of
  /// its runs of ASCII letters is a label word (``sequenceLabels``), in which case its
  /// ``sequenceNumbers`` are empty and its ``pattern`` holds no `#` — so it is in no numbered
  /// series with any title (``differsOnlyInSequenceNumbers(from:)``, either way round). Every
  /// sequence number needs a label word or `#` next to it, and a label word, ASCII, stands
  /// between characters that end an ASCII run (``PackedASCIIWords``).
  /// - Complexity: O(*n*) in the title's UTF-8 bytes, nothing allocated.
  static func mayHaveSequenceLabel(_ title: String) -> Bool {
    if title.utf8.contains(UInt8(ascii: "#")) { return true }
    // No label has a `k`, so a Kelvin sign (`nil`) changes nothing.
    return PackedASCIIWords.forEachKey(in: title) { key in key.map(labelKeys.contains) ?? false }
  }

  /// Whether the two titles are the same words around different sequence numbers (case and
  /// punctuation aside): members of one numbered series, not two takes on one thing.
  func differsOnlyInSequenceNumbers(from other: NumberedTitle) -> Bool {
    !sequenceNumbers.isEmpty && pattern == other.pattern && sequenceNumbers != other.sequenceNumbers
  }
}
