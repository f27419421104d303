import Testing

@testable import KnowledgeEngine

@Suite("NumberedTitle: titles of one numbered series")
struct NumberedTitleTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var first: String
    var second: String
    var oneSeries: Bool
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "steps", first: "Migration step 2", second: "Migration step 10", oneSeries: true),
    Case(name: "phases", first: "Phase 1", second: "Phase 2", oneSeries: true),
    Case(name: "dotted section numbers", first: "Section 3.2 notes", second: "Section 3.10 notes", oneSeries: true),
    Case(name: "a number after #", first: "Task #3 owner", second: "Task #4 owner", oneSeries: true),
    Case(name: "case and punctuation aside", first: "Sprint 14: retro", second: "sprint 15 retro.", oneSeries: true),
    Case(name: "parts", first: "Part 1 of the guide", second: "Part 2 of the guide", oneSeries: true),
    Case(name: "stages", first: "Stage 1 rollout", second: "Stage 3 rollout", oneSeries: true),
    Case(name: "rounds", first: "Interview round 1", second: "Interview round 2", oneSeries: true),
    Case(name: "chapters", first: "Chapter 9 draft", second: "Chapter 10 draft", oneSeries: true),
    Case(name: "milestones", first: "Milestone 1 scope", second: "Milestone 2 scope", oneSeries: true),
    Case(name: "iterations", first: "Iteration 4 goals", second: "Iteration 5 goals", oneSeries: true),
    Case(name: "a letter after a step number", first: "Migration step 2a", second: "Migration step 2b", oneSeries: true),
    Case(name: "a step and its lettered sub-step", first: "Migration step 2", second: "Migration step 2a", oneSeries: true),
    Case(name: "Roman numerals after a label", first: "Phase II rollout", second: "Phase III rollout", oneSeries: true),
    Case(name: "a Roman numeral is the same place as its digits", first: "Phase II rollout", second: "Phase 2 rollout", oneSeries: false),
    Case(name: "a word that is no Roman numeral", first: "Phase mix", second: "Phase dim", oneSeries: false),
    Case(name: "a version glued to v is a value", first: "API v1 design", second: "API v2 design", oneSeries: false),
    Case(name: "a release number is a value", first: "Release 1.2 notes", second: "Release 1.10 notes", oneSeries: false),
    Case(name: "a compression level is a value", first: "Use zstd compression level 3", second: "Use zstd compression level 19", oneSeries: false),
    Case(name: "a Node version is a value", first: "Pin Node v18 in CI", second: "Pin Node v20 in CI", oneSeries: false),
    Case(name: "a day is a value", first: "Deploy on day 1 of each sprint", second: "Deploy on day 5 of each sprint", oneSeries: false),
    Case(name: "a TLS version is a value", first: "Use TLS version 1.2 minimum", second: "Use TLS version 1.3 minimum", oneSeries: false),
    Case(name: "a Python version is a value", first: "Pin Python version 3.11", second: "Pin Python version 3.12", oneSeries: false),
    Case(name: "a tier is a value", first: "Use storage tier 1", second: "Use storage tier 2", oneSeries: false),
    Case(name: "a quarter is a value", first: "Launch in Q3", second: "Launch in Q4", oneSeries: false),
    Case(name: "a fraction after a label is a value", first: "Use step 0.5 for the grid", second: "Use step 0.25 for the grid", oneSeries: false),
    Case(name: "a unit after a step number is no letter suffix", first: "Retry step 5ms", second: "Retry step 10ms", oneSeries: false),
    Case(name: "a one-letter unit is no letter suffix", first: "Prometheus query step 15s", second: "Prometheus query step 60s", oneSeries: false),
    Case(name: "the same step written with a leading zero", first: "Step 02", second: "Step 2", oneSeries: false),
    Case(name: "identical titles", first: "Migration step 2", second: "Migration step 2", oneSeries: false),
    Case(name: "a port is a value", first: "Use port 8080", second: "Use port 8081", oneSeries: false),
    Case(name: "a number after a name is a value", first: "Use Python 2", second: "Use Python 3", oneSeries: false),
    Case(name: "other words differ too", first: "Migration step 2: copy", second: "Migration step 10: switch", oneSeries: false),
    Case(name: "a value differs beside the step", first: "Phase 1 uses port 8080", second: "Phase 2 uses port 8081", oneSeries: false),
    Case(name: "no number at all", first: "Use tabs", second: "Use spaces", oneSeries: false),
    // Places spelled out (review s9): cardinals after a label, ordinals before one.
    Case(name: "spelled parts", first: "Part one", second: "Part two", oneSeries: true),
    Case(name: "spelled phases, capitalized, before a colon", first: "Phase One: setup", second: "Phase Two: setup", oneSeries: true),
    Case(name: "ordinal phases", first: "first phase", second: "second phase", oneSeries: true),
    Case(name: "ordinals after an article", first: "The first step: back up", second: "The second step: back up", oneSeries: true),
    Case(name: "ordinal lessons up to tenth", first: "Tenth lesson notes", second: "Ninth lesson notes", oneSeries: true),
    Case(name: "spelled chapters up to twenty", first: "Chapter nineteen", second: "Chapter twenty", oneSeries: true),
    Case(name: "spelled compound numbers", first: "Chapter twenty-one draft", second: "Chapter twenty two draft", oneSeries: true),
    Case(name: "compound ordinals", first: "Twenty-first chapter", second: "Twenty-second chapter", oneSeries: true),
    Case(name: "ordinals in digits", first: "1st sprint retro", second: "2nd sprint retro", oneSeries: true),
    Case(name: "ordinals in digits, 11th to 13th", first: "11th sprint retro", second: "12th sprint retro", oneSeries: true),
    Case(name: "an ordinal joined by a hyphen", first: "First-phase results", second: "Second-phase results", oneSeries: true),
    Case(name: "an ordinal before and a number after the label", first: "First phase: setup", second: "Phase 2: setup", oneSeries: true),
    Case(name: "spelled sections and milestones", first: "Milestone three scope", second: "Milestone four scope", oneSeries: true),
    Case(name: "a spelled place is the same place as its digits", first: "Part one", second: "Part 1", oneSeries: false),
    Case(name: "an ordinal before is the same place as the number after", first: "First phase", second: "Phase 1", oneSeries: false),
    Case(name: "an ordinal after a label says when, not which", first: "Run the lint step first", second: "Run the lint step second", oneSeries: false),
    Case(name: "a cardinal before a label counts", first: "Use two-phase commit", second: "Use three-phase commit", oneSeries: false),
    Case(name: "an ordinal kept from its label by punctuation", first: "First, phase out Redis", second: "Second, phase out Redis", oneSeries: false),
    Case(name: "a spelled day is a value", first: "Deploy on day one", second: "Deploy on day two", oneSeries: false),
    Case(name: "an ordinal day is a value", first: "Deploy on the first day", second: "Deploy on the second day", oneSeries: false),
    Case(name: "a spelled level is a value", first: "Use compression level one", second: "Use compression level three", oneSeries: false),
    Case(name: "a spelled version is a value", first: "Use version two of the API", second: "Use version three of the API", oneSeries: false),
    Case(name: "a spelled quantity is a value", first: "Retry three times", second: "Retry five times", oneSeries: false),
    Case(name: "a wrong ordinal suffix is no ordinal", first: "1th sprint", second: "2th sprint", oneSeries: false),
    Case(name: "no spelled number after #", first: "Task #one", second: "Task #two", oneSeries: false),
  ]

  @Test("two titles are one series only when they differ in sequence numbers alone", arguments: cases)
  func series(_ c: Case) {
    let (a, b) = (NumberedTitle(c.first), NumberedTitle(c.second))
    #expect(a.differsOnlyInSequenceNumbers(from: b) == c.oneSeries)
    #expect(b.differsOnlyInSequenceNumbers(from: a) == c.oneSeries)
  }

  @Test("sequence numbers are set apart; other numbers stay words")
  func reading() {
    let title = NumberedTitle("Step 03 of v1.20: use port 8080, #7")
    #expect(title.pattern == ["step", "#", "of", "v", "1.20", "use", "port", "8080", "#", "#"])
    #expect(title.sequenceNumbers == ["3", "7"])
    let suffixed = NumberedTitle("Step 2A, phase iv, section 0.5, chapter 3b2, part xiiii")
    #expect(suffixed.pattern == ["step", "#", "phase", "#", "section", "0.5", "chapter", "3", "b", "2", "part", "xiiii"])
    #expect(suffixed.sequenceNumbers == ["2a", "4"])
  }

  @Test("places spelled out read as their numbers, an ordinal before its label as the label and its number")
  func spelledReading() {
    let title = NumberedTitle("The first step of Phase Two, part twenty-one, 3rd sprint")
    #expect(title.pattern == ["the", "step", "#", "of", "phase", "#", "part", "#", "sprint", "#"])
    #expect(title.sequenceNumbers == ["1", "2", "21", "3"])
    // An ordinal after its label is a word; a ten before one is read alone.
    let adverb = NumberedTitle("Run step twenty first")
    #expect(adverb.pattern == ["run", "step", "#", "first"])
    #expect(adverb.sequenceNumbers == ["20"])
    // Words that only look like numbers stay words: `one` as a pronoun, `second` as time.
    let words = NumberedTitle("Pick one, wait a second")
    #expect(words.pattern == ["pick", "one", "wait", "a", "second"])
    #expect(words.sequenceNumbers.isEmpty)
  }

  @Test("ordinal suffixes in digits")
  func ordinalSuffixes() {
    #expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(NumberedTitle.ordinalSuffix)
      == ["st", "nd", "rd", "th", "th", "th", "th", "st", "nd", "rd", "st", "th", "th"])
  }
}
