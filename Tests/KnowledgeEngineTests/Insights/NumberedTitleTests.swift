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
    Case(name: "a version glued to v", first: "API v1 design", second: "API v2 design", oneSeries: true),
    Case(name: "dotted versions", first: "Release 1.2 notes", second: "Release 1.10 notes", oneSeries: true),
    Case(name: "a number after #", first: "Task #3 owner", second: "Task #4 owner", oneSeries: true),
    Case(name: "case and punctuation aside", first: "Sprint 14: retro", second: "sprint 15 retro.", oneSeries: true),
    Case(name: "the same step written with a leading zero", first: "Step 02", second: "Step 2", oneSeries: false),
    Case(name: "identical titles", first: "Migration step 2", second: "Migration step 2", oneSeries: false),
    Case(name: "a port is a value", first: "Use port 8080", second: "Use port 8081", oneSeries: false),
    Case(name: "a number after a name is a value", first: "Use Python 2", second: "Use Python 3", oneSeries: false),
    Case(name: "other words differ too", first: "Migration step 2: copy", second: "Migration step 10: switch", oneSeries: false),
    Case(name: "a value differs beside the step", first: "Phase 1 uses port 8080", second: "Phase 2 uses port 8081", oneSeries: false),
    Case(name: "no number at all", first: "Use tabs", second: "Use spaces", oneSeries: false),
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
    #expect(title.pattern == ["step", "#", "of", "v", "#", "use", "port", "8080", "#", "#"])
    #expect(title.sequenceNumbers == ["3", "1.20", "7"])
  }
}
