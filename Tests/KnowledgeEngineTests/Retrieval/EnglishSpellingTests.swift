import Foundation
import Testing

@_spi(Benchmarking) @testable import KnowledgeEngine

/// British and American spellings: the rules of ``EnglishSpelling`` and how the ranker uses
/// them (the other spelling is searched at full weight when the workspace holds it).
struct EnglishSpellingTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  @Test(
    "each rule class gives the other spelling, both ways",
    arguments: [
      ("tumour", "tumor"), ("tumours", "tumors"), ("behavioural", "behavioral"),
      ("favourite", "favorite"), ("colour", "color"), ("randomised", "randomized"),
      ("organisation", "organization"), ("analyse", "analyze"), ("analysing", "analyzing"),
      ("centre", "center"), ("centred", "centered"), ("fibres", "fibers"),
      ("catalogue", "catalog"), ("analogues", "analogs"), ("haemoglobin", "hemoglobin"),
      ("anaemia", "anemia"), ("ischaemic", "ischemic"), ("paediatric", "pediatric"),
      ("oedema", "edema"), ("oestrogen", "estrogen"), ("oesophagus", "esophagus"),
      ("diarrhoea", "diarrhea"), ("foetal", "fetal"), ("coeliac", "celiac"),
      ("aetiology", "etiology"), ("homoeostasis", "homeostasis"), ("sulphate", "sulfate"),
      ("defence", "defense"), ("grey", "gray"), ("ageing", "aging"), ("programme", "program"),
    ])
  func bothWays(british: String, american: String) {
    #expect(EnglishSpelling.alternatives(of: british).contains(american))
    #expect(EnglishSpelling.alternatives(of: american).contains(british))
  }

  @Test("words where the pattern is not the spelling difference give no such alternative")
  func exceptions() {
    // `our` as a whole syllable.
    for word in ["four", "hour", "your", "flour", "detour", "devour"] {
      #expect(!EnglishSpelling.alternatives(of: word).contains { $0.hasSuffix("or") })
    }
    // Vowels before `or`: meteor, liquor.
    #expect(!EnglishSpelling.alternatives(of: "meteor").contains("meteour"))
    #expect(!EnglishSpelling.alternatives(of: "liquor").contains("liquour"))
    // Too short a stem before -ise: rise, raise.
    #expect(!EnglishSpelling.alternatives(of: "raise").contains("raize"))
    #expect(EnglishSpelling.alternatives(of: "rise").isEmpty)
  }

  @Test("only words of three or more ASCII letters have alternatives; never the word itself")
  func domain() {
    for word in ["", "or", "café", "tumour9", "Tumour", "東京", "p53"] {
      #expect(EnglishSpelling.alternatives(of: word).isEmpty, "\(word)")
    }
    for word in ["tumour", "haemoglobin", "centre", "grey"] {
      let alternatives = EnglishSpelling.alternatives(of: word)
      #expect(!alternatives.contains(word))
      #expect(Set(alternatives).count == alternatives.count)
    }
  }

  static let corpus = [
    Item(title: "Tumour board minutes", content: "cases reviewed on Tuesday"),
    Item(title: "Tumor registry export", content: "monthly upload"),
    Item(title: "Hemoglobin thresholds", content: "transfusion below 7 g/dL"),
    Item(title: "Trial protocol", content: "patients were randomized in blocks of four"),
    Item(title: "Build loop", content: "for each target run the tests"),
  ]

  @Test("either spelling finds both, at full weight: the same score for the same text shape")
  func fullWeight() throws {
    let workspace = try Workspace(Self.corpus)
    for query in ["tumour", "tumor"] {
      let response = try workspace.search(query)
      #expect(Set(response.results.map(\.id)) == Set(workspace.ids([0, 1])), "\(query)")
      #expect(response.terms.map(\.match) == [.exact])
      #expect(response.results.allSatisfy { $0.scoreParts.fuzzy == 0 && $0.scoreParts.title > 0 })
      let scores = response.results.map(\.score)
      #expect(scores.count == 2 && abs(scores[0] - scores[1]) < 1e-9, "\(scores)")
    }
    #expect(try workspace.search("tumour").terms.first?.spellings == ["tumor"])
    #expect(try workspace.search("tumor").terms.first?.spellings == ["tumour"])
  }

  @Test("a word absent from the workspace is found through its other spelling, not by typo")
  func absentWord() throws {
    let workspace = try Workspace(Self.corpus)
    let response = try workspace.search("haemoglobin")
    #expect(response.results.map(\.id) == workspace.ids([2]))
    #expect(response.terms.first?.match == .spelling)
    #expect(response.terms.first?.variants == ["hemoglobin"])
    #expect(response.results.first?.scoreParts.fuzzy == 0)
    // Porter leaves randomised (randomis) and randomized (random) apart.
    let randomised = try workspace.search("randomised blocks")
    #expect(randomised.results.map(\.id) == workspace.ids([3]))
    #expect(randomised.terms.map(\.match) == [.spelling, .exact])
  }

  @Test("no false spelling: four does not find for, and an unheld spelling is not searched")
  func noFalseMatches() throws {
    let workspace = try Workspace(Self.corpus)
    let four = try workspace.search("four")
    #expect(four.results.map(\.id) == workspace.ids([3]))
    #expect(four.terms.first?.spellings == [])
    // color → colour is generated but no note holds it: nothing is searched.
    let color = try workspace.search("color")
    #expect(color.results.isEmpty)
    #expect(color.terms.first?.spellings == [])
  }

  @Test("turned off, only the spelling typed is searched")
  func switchedOff() throws {
    let workspace = try Workspace(Self.corpus)
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.maximumSpellingVariants = 0
    #expect(
      try workspace.engine.rankedIDs("tumour", depth: 10, parameters: parameters)
        == workspace.ids([0]))
    #expect(Set(try workspace.engine.rankedIDs("tumour", depth: 10)) == Set(workspace.ids([0, 1])))
  }

  @Test("a spelling that is itself a query word is searched once, in its own right")
  func bothInQuery() throws {
    let workspace = try Workspace(Self.corpus)
    let response = try workspace.search("tumour tumor")
    #expect(response.terms.map(\.spellings) == [[], []])
    #expect(response.terms.map(\.variants) == [["tumour"], ["tumor"]])
  }
}
