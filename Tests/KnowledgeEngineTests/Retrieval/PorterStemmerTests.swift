import Foundation
import Testing

@testable import KnowledgeEngine

struct PorterStemmerTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var word: String
    var stem: String
    var testDescription: String { "\(word) → \(stem)" }
  }

  /// The example words of Porter (1980), run through the whole algorithm (not only the step
  /// each example illustrates).
  static let paperExamples: [Case] = [
    // Step 1a
    ("caresses", "caress"), ("ponies", "poni"), ("ties", "ti"), ("caress", "caress"),
    ("cats", "cat"),
    // Step 1b
    ("feed", "feed"), ("agreed", "agre"), ("plastered", "plaster"), ("bled", "bled"),
    ("motoring", "motor"), ("sing", "sing"), ("conflated", "conflat"), ("troubled", "troubl"),
    ("sized", "size"), ("hopping", "hop"), ("tanned", "tan"), ("falling", "fall"),
    ("hissing", "hiss"), ("fizzed", "fizz"), ("failing", "fail"), ("filing", "file"),
    // Step 1c
    ("happy", "happi"), ("sky", "sky"),
    // Step 2
    ("relational", "relat"), ("conditional", "condit"), ("rational", "ration"),
    ("valenci", "valenc"), ("hesitanci", "hesit"), ("digitizer", "digit"),
    ("conformabli", "conform"), ("radicalli", "radic"), ("differentli", "differ"),
    ("vileli", "vile"), ("analogousli", "analog"), ("vietnamization", "vietnam"),
    ("predication", "predic"), ("operator", "oper"), ("feudalism", "feudal"),
    ("decisiveness", "decis"), ("hopefulness", "hope"), ("callousness", "callous"),
    ("formaliti", "formal"), ("sensitiviti", "sensit"), ("sensibiliti", "sensibl"),
    // Step 3
    ("triplicate", "triplic"), ("formative", "form"), ("formalize", "formal"),
    ("electriciti", "electr"), ("electrical", "electr"), ("hopeful", "hope"),
    ("goodness", "good"),
    // Step 4
    ("revival", "reviv"), ("allowance", "allow"), ("inference", "infer"),
    ("airliner", "airlin"), ("gyroscopic", "gyroscop"), ("adjustable", "adjust"),
    ("defensible", "defens"), ("irritant", "irrit"), ("replacement", "replac"),
    ("adjustment", "adjust"), ("dependent", "depend"), ("adoption", "adopt"),
    ("homologou", "homolog"), ("communism", "commun"), ("activate", "activ"),
    ("angulariti", "angular"), ("homologous", "homolog"), ("effective", "effect"),
    ("bowdlerize", "bowdler"),
    // Step 5
    ("probate", "probat"), ("rate", "rate"), ("cease", "ceas"), ("controll", "control"),
    ("roll", "roll"),
  ].map { Case(word: $0.0, stem: $0.1) }

  @Test(arguments: paperExamples)
  func paperExample(_ example: Case) {
    #expect(PorterStemmer.stem(example.word) == example.stem)
  }

  static let domainWords: [Case] = [
    ("persistence", "persist"), ("persistance", "persist"), ("migration", "migrat"),
    ("migrations", "migrat"), ("handoff", "handoff"), ("meeting", "meet"),
    ("agents", "agent"),
  ].map { Case(word: $0.0, stem: $0.1) }

  @Test(arguments: domainWords)
  func domainWord(_ example: Case) {
    #expect(PorterStemmer.stem(example.word) == example.stem)
  }

  /// The two Step 2 rules of Porter's reference implementation that the 1980 paper lacks
  /// (`logi` → `log`, `bli` → `ble` in place of `abli` → `able`): the noun in `-logy` or `-bly`
  /// and the other forms of the word now share a stem, as in SQLite FTS5's `porter` tokenizer.
  static let referenceImplementation: [Case] = [
    ("physiology", "physiolog"),
    ("physiological", "physiolog"), ("pathology", "patholog"), ("pathologies", "patholog"),
    ("assembly", "assembl"), ("assembled", "assembl"), ("assemble", "assembl"),
    ("possibly", "possibl"), ("possible", "possibl"), ("irreversibly", "irrevers"),
    ("irreversible", "irrevers"), ("conformabli", "conform"), ("sensibiliti", "sensibl"),
  ].map { Case(word: $0.0, stem: $0.1) }

  @Test(arguments: referenceImplementation)
  func referenceImplementationRule(_ example: Case) {
    #expect(PorterStemmer.stem(example.word) == example.stem)
  }

  @Test("`assembly` finds a note about what was assembled, `possibly` one that is possible, as the word itself")
  func referenceImplementationSearch() throws {
    let workspace = try PersistedSearchTests.Workspace([
      PersistedSearchTests.Item(title: "Assembled the demo rig", content: "Soldered the sensor board."),
      PersistedSearchTests.Item(title: "Outage review", content: "Possible causes: a full disk."),
    ])
    let assembly = try workspace.search("assembly")
    #expect(assembly.results.map(\.id) == workspace.ids([0]))
    #expect(assembly.terms.first?.match == .exact)
    let possibly = try workspace.search("possibly")
    #expect(possibly.results.map(\.id) == workspace.ids([1]))
    #expect(possibly.terms.first?.match == .exact)
  }

  static let untouched: [Case] = [
    ("is", "is"), ("as", "as"), ("Running", "Running"), ("café", "café"), ("abc1", "abc1"),
    ("", ""),
  ].map { Case(word: $0.0, stem: $0.1) }

  @Test("Short words and anything but lowercase a–z are returned unchanged", arguments: untouched)
  func untouchedWord(_ example: Case) {
    #expect(PorterStemmer.stem(example.word) == example.stem)
  }
}
