import Testing

@testable import SynthCorpus

struct WordsTests {
  /// A text and `synth.words(text)` as Python 3.11 computes it.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var words: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "Kelvin sign, dotted capital I, digits, stop words, non-ASCII ends a token",
      text:
        "\u{212A}elvin \u{130}stanbul 1abcd ab1 the cells Cells cell2 Stra\u{DF}e \u{3A3}\u{391}\u{3A3}",
      words: ["kelvin", "stanbul", "abcd", "cells", "cell2", "stra"]),
    Case(
      name: "case folding, hyphens, underscores",
      text: "The THE Protein proteins PROTEIN-binding 2abc a1b2c3 x_ray",
      words: ["protein", "proteins", "binding", "a1b2c3"]),
    Case(
      name: "runs of special capitals",
      text: "\u{130}\u{130}\u{130}\u{130}abcd \u{130}STANBUL \u{212A}\u{212A}\u{212A}\u{212A}",
      words: ["abcd", "stanbul", "kkkk"]),
    Case(
      name: "accented letters split words",
      text: "na\u{EF}ve caf\u{E9} r\u{E9}sum\u{E9} Z\u{FC}rich co\u{F6}peration \u{FC}ber",
      words: ["rich", "peration"]),
    Case(
      name: "biomedical notation",
      text: "IL-6 p53 TNF\u{3B1} 5-HT1A mRNA microRNA-21 CD4+",
      words: ["ht1a", "mrna", "microrna"]),
    Case(name: "empty", text: "", words: []),
  ]

  @Test(arguments: cases)
  func matchesPython(_ testCase: Case) {
    #expect(Words.distinctTokens(in: testCase.text) == testCase.words)
  }

  @Test func stopListHasEverySpecWord() {
    #expect(Words.stopWords.count == 59)  // len(synth.STOP)
    #expect(Words.stopWords.isSuperset(of: ["a", "vs", "versus", "between", "using"]))
  }
}
