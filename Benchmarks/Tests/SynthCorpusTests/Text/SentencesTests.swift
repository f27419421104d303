import Testing

@testable import SynthCorpus

struct SentencesTests {
  /// A text and `synth.sentences(text)` as Python computes it.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var sentences: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "one space is dropped", text: "A. B", sentences: ["A.", "B"]),
    Case(name: "a second space stays", text: "A.  B", sentences: ["A.", " B"]),
    Case(name: "abbreviations and a final space", text: "e.g.x end. ", sentences: ["e.g.x end."]),
    Case(name: "all three terminators", text: "Why? Yes! ok", sentences: ["Why?", "Yes!", "ok"]),
    Case(name: "final terminator", text: "No split.", sentences: ["No split."]),
    Case(name: "terminators alone", text: ".  .", sentences: [".", " ."]),
    Case(name: "no space, no split", text: "Dr. Who?Yes. ", sentences: ["Dr.", "Who?Yes."]),
    Case(name: "empty", text: "", sentences: []),
    Case(name: "only spaces", text: "   ", sentences: ["   "]),
    Case(
      name: "no-break space is not a space", text: "a.\u{A0}b. c", sentences: ["a.\u{A0}b.", "c"]),
  ]

  @Test(arguments: cases)
  func matchesPython(_ testCase: Case) {
    let pieces = Sentences.split(testCase.text)
    // Compare scalars: Swift's String equality would hide a normalization difference.
    #expect(
      pieces.map { Array($0.unicodeScalars) } == testCase.sentences.map { Array($0.unicodeScalars) }
    )
  }
}
