import Foundation
import Testing

@_spi(Benchmarking) @testable import KnowledgeEngine

/// Irregular singular and plural nouns: the rules of ``EnglishPlurals`` and how the ranker
/// uses them (the other number is searched like another spelling when the workspace holds it).
struct EnglishPluralsTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  @Test(
    "each class gives the other number, both ways",
    arguments: [
      ("mouse", "mice"), ("man", "men"), ("woman", "women"), ("child", "children"),
      ("tooth", "teeth"), ("foot", "feet"), ("goose", "geese"), ("ox", "oxen"),
      ("analysis", "analyses"), ("diagnosis", "diagnoses"), ("metastasis", "metastases"),
      ("hypothesis", "hypotheses"), ("crisis", "crises"), ("thesis", "theses"),
      ("nucleus", "nuclei"), ("stimulus", "stimuli"), ("alveolus", "alveoli"),
      ("fungus", "fungi"), ("radius", "radii"), ("locus", "loci"),
      ("staphylococcus", "staphylococci"), ("bacterium", "bacteria"), ("datum", "data"),
      ("spectrum", "spectra"), ("serum", "sera"), ("atrium", "atria"), ("genus", "genera"),
      ("corpus", "corpora"),
      ("criterion", "criteria"), ("phenomenon", "phenomena"),
      ("mitochondrion", "mitochondria"), ("ganglion", "ganglia"), ("taxon", "taxa"),
    ])
  func bothWays(singular: String, plural: String) {
    #expect(EnglishPlurals.alternatives(of: singular).contains(plural))
    #expect(EnglishPlurals.alternatives(of: plural).contains(singular))
  }

  @Test(
    "endings that are no irregular plural give no such alternative",
    arguments: [
      // Too short a stem before the ending: basis is not bases (of base), oasis stays.
      ("basis", "bases"), ("bases", "basis"), ("oasis", "oases"), ("drum", "dra"),
      // -us / -i, -um / -a and -on / -a are lists, not rules: ordinary words and names end
      // the same way (pairs a review found with a rule).
      ("various", "varioi"), ("minus", "mini"), ("mini", "minus"), ("venus", "veni"),
      ("album", "alba"), ("quorum", "quora"), ("tantrum", "tantra"), ("durum", "dura"),
      ("aura", "aurum"), ("visa", "visum"), ("lexus", "lexi"), ("citrus", "citri"),
      ("taxi", "taxus"), ("status", "stati"), ("virus", "viri"), ("bonus", "boni"),
      ("pylori", "pylorus"), ("typhi", "typhus"), ("magnesium", "magnesia"),
      ("ammonium", "ammonia"), ("ammonia", "ammonium"), ("colon", "cola"), ("cola", "colon"),
      ("intron", "intra"), ("intra", "intron"),
      // In notes, media are mostly social or news media, not the plural of a medium.
      ("medium", "media"), ("media", "medium"),
      // -ex / -ix are left out: indices would stem like indicated.
      ("index", "indices"), ("matrix", "matrices"), ("cortex", "cortices"),
    ])
  func notPlurals(word: String, wrong: String) {
    #expect(!EnglishPlurals.alternatives(of: word).contains(wrong), "\(word) → \(wrong)")
  }

  @Test("only ASCII-letter words have alternatives; never the word itself, never repeats")
  func domain() {
    for word in ["", "a", "Mice", "mice2", "mäuse", "東京"] {
      #expect(EnglishPlurals.alternatives(of: word).isEmpty, "\(word)")
    }
    for word in ["mouse", "nucleus", "nuclei", "analysis", "bacteria", "criteria"] {
      let alternatives = EnglishPlurals.alternatives(of: word)
      #expect(!alternatives.isEmpty && !alternatives.contains(word), "\(word)")
      #expect(Set(alternatives).count == alternatives.count, "\(word)")
    }
  }

  static let corpus = [
    Item(title: "Knockout mice cohort", content: "twelve animals per cage"),
    Item(title: "Mouse husbandry checklist", content: "bedding changed weekly"),
    Item(title: "Sensitivity analyses", content: "excluding the pilot site"),
    Item(title: "Helicobacter pylori eradication", content: "triple therapy for two weeks"),
    Item(title: "Pylorus anatomy", content: "the pyloric sphincter"),
    Item(title: "Index rebuild", content: "the release indicated no errors"),
    Item(title: "Review summary", content: "These results hold for both cohorts"),
  ]

  @Test("either number finds both, nearly in full; the number typed wins the tie")
  func eitherNumber() throws {
    let workspace = try Workspace(Self.corpus)
    for (query, typed, other) in [("mice", 0, 1), ("mouse", 1, 0)] {
      let response = try workspace.search(query)
      #expect(response.results.map(\.id) == workspace.ids([typed, other]), "\(query)")
      #expect(response.terms.map(\.match) == [.exact])
      #expect(response.results.allSatisfy { $0.scoreParts.fuzzy == 0 })
      let parts = response.results.map { $0.scoreParts.title + $0.scoreParts.content }
      #expect(parts.count == 2 && parts[1] < parts[0], "\(parts)")
    }
    let mouse = try workspace.search("mouse")
    #expect(mouse.terms.first?.spellings == ["mice"])
    #expect(mouse.terms.first?.numberForms == ["mice"])
  }

  @Test("a noun absent in the number typed is found through the other, named as such")
  func absentNumber() throws {
    let workspace = try Workspace(Self.corpus)
    let analysis = try workspace.search("analysis")
    #expect(analysis.results.map(\.id) == workspace.ids([2]))
    #expect(analysis.terms.first?.match == .spelling)
    #expect(analysis.terms.first?.numberForms == ["analys"])
    #expect(analysis.results.first?.scoreParts.fuzzy == 0)
  }

  @Test("no false pairs: pylori does not find the pylorus, index does not find indicated")
  func noFalsePairs() throws {
    let workspace = try Workspace(Self.corpus)
    // `pylori` and the stem `pyloru` share most trigrams, so the anatomy note may still come
    // as a close word form, at reduced weight — but not as the other number.
    let pylori = try workspace.search("pylori")
    #expect(pylori.results.first?.id == workspace.ids([3])[0])
    #expect(pylori.terms.first?.spellings == [] && pylori.terms.first?.numberForms == [])
    #expect(try workspace.search("index").results.map(\.id) == workspace.ids([5]))
    #expect(try workspace.search("index").results.first?.matchedTerms == ["index"])
    // `theses` stems to the stop word `these`: thesis never searches it, as the other number
    // or as a close spelling.
    let thesis = try workspace.search("thesis")
    #expect(thesis.results.isEmpty, "\(thesis.results.map(\.title))")
    #expect(thesis.terms.first?.numberForms == [])
  }

  @Test("both numbers typed are one query term, each counted in full")
  func bothTyped() throws {
    let workspace = try Workspace(Self.corpus)
    let both = try workspace.search("mouse mice")
    #expect(both.terms.count == 1)
    #expect(both.terms.first?.words == ["mouse", "mice"])
    #expect(Set(both.results.map(\.score)).count == 1, "\(both.results.map(\.score))")
  }

  @Test("turned off, only the number typed is searched")
  func switchedOff() throws {
    let workspace = try Workspace(Self.corpus)
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.searchesIrregularPlurals = false
    #expect(
      try workspace.engine.rankedIDs("mice", depth: 10, parameters: parameters)
        == workspace.ids([0]))
    #expect(try workspace.engine.rankedIDs("mice", depth: 10) == workspace.ids([0, 1]))
  }

  @Test(
    "a name of letters and digits and its plural with a lowercase s find each other",
    arguments: [
      ("E2Fs", ["e2f"]), ("CD4s", ["cd4"]), ("H100s", ["h100"]), ("MP3s", ["mp3"]),
      ("E2F", ["e2fs"]), ("e2f", ["e2fs"]), ("cd4", ["cd4s"]), ("CO2", ["co2s"]),
      // The case tells a plural from a name ending in S: hydrogen sulfide is no plural of H2.
      ("H2S", []), ("h2s", []), ("e2fs", []), ("Ag2S", []),
      // Two characters are too few to tell: H2 does not search H2S's lowercase form.
      ("H2", []), ("A1", []),
      // Not names of letters and digits.
      ("1990s", []), ("GPUs", []), ("cells", []), ("2024", []), ("IL-6s", []), ("", []),
    ])
  func identifierPlurals(typed: String, expected: [String]) {
    #expect(EnglishPlurals.identifierAlternatives(of: typed) == expected)
  }

  static let genes = [
    Item(title: "E2F1-3 switch from activators to repressors", content: "E2f activators bind Rb"),
    Item(title: "H2S signalling in the vasculature", content: "hydrogen sulfide relaxes vessels"),
    Item(title: "H100s arrived", content: "eight GPUs per node"),
    Item(title: "Fuel cells", content: "H2 storage at high pressure"),
  ]

  @Test("E2Fs finds the note on E2F, H100 the note on H100s, and H2 never finds H2S")
  func identifierPluralsInSearch() throws {
    let workspace = try Workspace(Self.genes)
    let plural = try workspace.search("activator E2Fs")
    #expect(plural.results.first?.id == workspace.ids([0])[0], "\(plural.results.map(\.title))")
    #expect(plural.terms.last?.numberForms == ["e2f"])
    #expect(try workspace.search("H100").results.map(\.id) == workspace.ids([2]))
    #expect(try workspace.search("H2").results.map(\.id) == workspace.ids([3]))
    #expect(try workspace.search("h2s").results.map(\.id) == workspace.ids([1]))
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.searchesIdentifierPlurals = false
    #expect(try workspace.engine.rankedIDs("H100", depth: 10, parameters: parameters).isEmpty)
  }

  static let hyphenatedNames = [
    Item(title: "IL-6 in sepsis", content: "serum levels rose within hours"),
    Item(title: "Exhausted T cells", content: "PD-1s on the surface of chronically stimulated cells"),
    Item(title: "Release plan", content: "ship the installer by Friday"),
  ]

  @Test("the plural of a closed name finds the name written with a hyphen, both ways")
  func identifierPluralsOfCompounds() throws {
    let workspace = try Workspace(Self.hyphenatedNames)
    // `IL6s` is the plural of `IL6`, which a note writes `IL-6`.
    #expect(try workspace.search("IL6s").results.map(\.id) == workspace.ids([0]))
    // `PD1` is the singular of `PD1s`, which a note writes `PD-1s`.
    #expect(try workspace.search("PD1").results.map(\.id) == workspace.ids([1]))
    // The case still decides: a lowercase `il6s` is a name, not a plural.
    #expect(try workspace.search("il6s").results.isEmpty)
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.searchesIdentifierPlurals = false
    #expect(try workspace.engine.rankedIDs("IL6s", depth: 10, parameters: parameters).isEmpty)
  }
}
