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

  @Test("either spelling finds both, nearly in full; the spelling typed wins the tie")
  func nearlyFullWeight() throws {
    let workspace = try Workspace(Self.corpus)
    for (query, typed, other) in [("tumour", 0, 1), ("tumor", 1, 0)] {
      let response = try workspace.search(query)
      #expect(response.results.map(\.id) == workspace.ids([typed, other]), "\(query)")
      #expect(response.terms.map(\.match) == [.exact])
      #expect(response.results.allSatisfy { $0.scoreParts.fuzzy == 0 && $0.scoreParts.title > 0 })
      // Same text shape, so the other spelling's BM25F part is 0.9 of the typed one's.
      let parts = response.results.map { $0.scoreParts.title + $0.scoreParts.content }
      #expect(parts.count == 2 && abs(parts[1] / parts[0] - 0.9) < 1e-9, "\(parts)")
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

  @Test("false pairs from a review are not spellings: timbre/timber, outre/outer, haem/hem")
  func reviewedFalsePairs() throws {
    for (a, b) in [
      ("timbre", "timber"), ("outre", "outer"), ("entre", "enter"), ("votre", "voter"),
      ("haem", "hem"), ("scour", "scor"), ("lettre", "letter"),
    ] {
      #expect(!EnglishSpelling.alternatives(of: a).contains(b), "\(a) → \(b)")
      #expect(!EnglishSpelling.alternatives(of: b).contains(a), "\(b) → \(a)")
    }
    // Still pairs: the regular -re class and haem inside a word.
    #expect(EnglishSpelling.alternatives(of: "litre").contains("liter"))
    #expect(EnglishSpelling.alternatives(of: "haemolysis").contains("hemolysis"))
    #expect(EnglishSpelling.alternatives(of: "skillful").contains("skilful"))
    #expect(EnglishSpelling.alternatives(of: "skilful").contains("skillful"))
    let workspace = try Workspace([
      Item(title: "Note timbre", content: "a"), Item(title: "Note timber", content: "b"),
      Item(title: "Note hem", content: "c"), Item(title: "Note haem", content: "d"),
    ])
    #expect(try workspace.search("timber").results.map(\.id) == workspace.ids([1]))
    #expect(try workspace.search("hem").results.map(\.id) == workspace.ids([2]))
  }

  @Test("both spellings typed are one query term: an item with either is fully covered")
  func bothSpellingsTyped() throws {
    let workspace = try Workspace([
      Item(title: "Color palette chosen", content: "navy and sand"),
      Item(title: "Colour contrast audit", content: "passes AA"),
    ])
    let both = try workspace.search("colour color")
    #expect(both.terms.count == 1)
    #expect(both.terms.first?.words == ["colour", "color"])
    #expect(both.terms.first?.spellings == ["color"])
    let alone = try workspace.search("color")
    // The item spelled `color` scores as it does for `color` alone, apart from the weight of
    // the spelling: its coverage is full either way.
    let palette = workspace.ids([0])[0]
    let inBoth = try #require(both.results.first { $0.id == palette })
    let inAlone = try #require(alone.results.first { $0.id == palette })
    #expect(inBoth.scoreParts.coverage > 0 && abs(inBoth.scoreParts.coverage / (inBoth.score - inBoth.scoreParts.coverage) - inAlone.scoreParts.coverage / (inAlone.score - inAlone.scoreParts.coverage)) < 1e-9)
    #expect(inBoth.matchedTerms == ["color"])
  }

  @Test("the response names the words typed behind each stem")
  func wordsTyped() throws {
    let workspace = try Workspace(Self.corpus)
    let response = try workspace.search("randomised tumours")
    #expect(response.terms.map(\.term) == ["randomis", "tumour"])
    #expect(response.terms.map(\.words) == [["randomised"], ["tumours"]])
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

  @Test("both spellings typed count in full, and their order does not change the ranking")
  func typedSpellingsInFull() throws {
    let workspace = try Workspace(Self.corpus)
    let one = try workspace.search("tumour tumor")
    let other = try workspace.search("tumor tumour")
    #expect(Set(one.results.map(\.score)).count == 1, "\(one.results.map(\.score))")
    #expect(Set(one.results.map(\.id)) == Set(workspace.ids([0, 1])))
    #expect(one.results.map(\.score) == other.results.map(\.score))
    #expect(one.results.map(\.id) == other.results.map(\.id))
  }

  @Test("inflected whole-word pairs: greys finds grays, greyed finds grayed")
  func inflectedWholeWords() throws {
    let workspace = try Workspace([
      Item(title: "Grays and colors", content: "the palette"),
      Item(title: "Screen grayed out", content: "after the update"),
    ])
    // Porter gives grays and grayed one stem (grai), greys and greyed another (grei).
    for query in ["greys", "greyed"] {
      let response = try workspace.search(query)
      #expect(Set(response.results.map(\.id)) == Set(workspace.ids([0, 1])), "\(query)")
      #expect(response.terms.first?.variants == ["grai"], "\(query)")
    }
    #expect(try workspace.search("grey").terms.first?.match == .spelling)
  }

  @Test("at most maximumSpellingVariants spellings are searched per word, in rule order")
  func spellingCap() throws {
    // anaesthetised has two other spellings with other stems: anesthetised (the ae rule,
    // first) and anaesthetized (the -ise rule).
    let workspace = try Workspace([
      Item(title: "Patient anesthetised at noon", content: "a"),
      Item(title: "Patient anaesthetized at noon", content: "b"),
    ])
    #expect(Set(try workspace.engine.rankedIDs("anaesthetised", depth: 10)) == Set(workspace.ids([0, 1])))
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.maximumSpellingVariants = 1
    #expect(
      try workspace.engine.rankedIDs("anaesthetised", depth: 10, parameters: parameters)
        == workspace.ids([0]))
  }

  @Test("a spelling that is itself a query word joins the first word's term")
  func bothInQuery() throws {
    let workspace = try Workspace(Self.corpus)
    let response = try workspace.search("tumour tumor")
    #expect(response.terms.map(\.spellings) == [["tumor"]])
    #expect(response.terms.map(\.variants) == [["tumour", "tumor"]])
    #expect(response.terms.map(\.words) == [["tumour", "tumor"]])
  }
}
