import ContinuityKit
import Foundation
import Testing

@testable import KnowledgeEngine

/// `search(…, tag:)`: the tag filter applies before ranking, like the kind filter, so a tagged
/// match is found however many untagged items rank above it.
struct TagFilterSearchTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  /// 55 short items about widgets tagged `bulk`, then one long one tagged `rare`.
  static func corpus() -> [Item] {
    var items = (1...55).map {
      Item(title: "Widget \($0) widget notes", content: "widget widget", tags: ["bulk"])
    }
    items.append(
      Item(
        title: "Quarterly planning for the widget line",
        content: String(repeating: "long background text about many other things ", count: 20),
        tags: ["rare"]))
    return items
  }

  @Test("a tagged match below the best 50 is still found, and total counts only tagged matches")
  func filterBeforeRanking() throws {
    let workspace = try Workspace(Self.corpus())
    let untagged = try workspace.search("widget", limit: 50)
    #expect(untagged.total == 56)
    #expect(!untagged.results.map(\.id).contains(workspace.items[55].id))
    let tagged = try workspace.engine.search("widget", tag: "rare")
    #expect(tagged.results.map(\.id) == [workspace.items[55].id])
    #expect(tagged.total == 1)
    #expect(!tagged.truncated)
    #expect(try workspace.engine.search("widget", tag: "  RARE ").results.count == 1)
    let bulk = try workspace.engine.search("widget", tag: "bulk", limit: 5)
    #expect(bulk.total == 55 && bulk.results.count == 5 && bulk.truncated)
  }

  @Test("words that match only items without the tag give noMatchWithTag; no match at all stays noTermMatched")
  func emptyReasons() throws {
    let workspace = try Workspace(Self.corpus())
    let none = try workspace.engine.search("notes", tag: "rare")
    #expect(none.results.isEmpty && none.total == 0)
    #expect(none.emptyReason == .noMatchWithTag)
    #expect(none.tag == "rare")
    #expect(try workspace.engine.search("zyxwvut", tag: "rare").emptyReason == .noTermMatched)
  }

  /// Review 23-a, 6: a misspelt tag was answered "the words match only items without this tag",
  /// as if some items had it.
  @Test("a tag no item carries gives noItemWithTag, naming the tag, whatever the words")
  func noItemCarriesTheTag() throws {
    let workspace = try Workspace(Self.corpus())
    let typo = try workspace.engine.search("widget", tag: " Rrae ")
    #expect(typo.results.isEmpty && typo.total == 0)
    #expect(typo.emptyReason == .noItemWithTag)
    #expect(typo.tag == "rrae")
    #expect(typo.emptyExplanation == "no knowledge item carries the tag 'rrae'")
    // Words that occur nowhere either are named after the tag.
    let both = try workspace.engine.search("zyxwvut", tag: "rrae")
    #expect(both.emptyReason == .noItemWithTag)
    #expect(both.emptyExplanation == "no knowledge item carries the tag 'rrae'; 'zyxwvut' (or a close spelling of it) occurs in no knowledge item")
    // A query with nothing to search says that first; a search without a tag has no tag.
    #expect(try workspace.engine.search("!!!", tag: "rrae").emptyReason == .noQueryTerms)
    #expect(try workspace.engine.search("widget").tag == nil)
    // The reason without a response to name the tag.
    #expect(EmptyReason.noItemWithTag.explanation == "no knowledge item carries this tag")
  }

  @Test("in a workspace without knowledge a tag search still says there is nothing to search")
  func emptyWorkspace() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    #expect(try engine.search("widget", tag: "rare").emptyReason == .noRecords)
  }

  @Test("an empty tag or one over 48 characters is refused, naming the field and the limit")
  func tagBounds() throws {
    let workspace = try Workspace(Self.corpus())
    #expect(throws: ValidationError.self) { try workspace.engine.search("widget", tag: "  ") }
    do {
      _ = try workspace.engine.search("widget", tag: String(repeating: "t", count: 49))
      Issue.record("a 49-character tag was accepted")
    } catch let error as ValidationError {
      #expect(error.field == "tag")
      #expect(error.message == "tag is 49 characters; the limit is 48 characters")
    }
    #expect(try workspace.engine.search("widget", tag: String(repeating: "t", count: 48)).total == 0)
  }

  @Test("a tag filter searches knowledge only; asking for memories with it is refused (review 18-d, M1)")
  func memoriesLeftOut() throws {
    let workspace = try Workspace([Item(title: "Widget plan", tags: ["ops"])])
    _ = try workspace.engine.saveMemory(text: "Widget memory", tags: ["ops"])
    let r = try workspace.engine.search("widget", tag: "ops")
    #expect(r.results.allSatisfy { $0.kind != .memory })
    #expect(r.results.contains { $0.id == workspace.items[0].id })
    #expect(throws: ValidationError.self) { try workspace.engine.search("widget", includeMemories: true, tag: "ops") }
  }
}

/// A memory saved with `saveMemory` has a knowledge mirror; searching knowledge with memories
/// included lists it once (as the memory, with its provenance), without memories as the mirror.
struct MemoryMirrorSearchTests {
  @Test("a saved memory is listed once with --include-memories, as the memory")
  func listedOnce() throws {
    let workspace = try PersistedSearchTests.Workspace([
      .init(title: "Diagnosis notes", content: "first visit")
    ])
    let saved = try workspace.engine.saveMemory(text: "Diagnostic tooling lives in scripts/diag")
    let r = try workspace.engine.search("diagnostic tooling", includeMemories: true)
    #expect(r.results.filter { $0.id == saved.memory.id }.count == 1)
    #expect(!r.results.contains { $0.id == saved.mirror.id })
    #expect(r.total == r.results.count)
    let knowledge = try workspace.engine.search("diagnostic tooling")
    #expect(knowledge.results.contains { $0.id == saved.mirror.id })
    let memories = try workspace.engine.search("diagnostic tooling", memoriesOnly: true)
    #expect(memories.results.map(\.id) == [saved.memory.id])
  }
}

/// Tag filters spell out Greek letters in scientific notation as the tokenizer does, so a tag
/// written with the symbol and one written out are the same tag, both ways; Greek prose stays
/// Greek. Stored tags are compared, never rewritten.
struct GreekLetterTagFilterTests {
  /// A stored tag, a filter, and whether the filter selects it.
  struct Case: CustomTestStringConvertible, Sendable {
    var stored: String
    var filter: String
    var selects: Bool
    var testDescription: String { "--tag \(filter) \(selects ? "selects" : "leaves") \(stored)" }
  }

  static let cases: [Case] = [
    Case(stored: "tnf-α", filter: "tnf-alpha", selects: true),
    Case(stored: "tnf-alpha", filter: "tnf-α", selects: true),
    Case(stored: "tnf-α", filter: "TNF-Α", selects: true),
    Case(stored: "il-1β", filter: "il-1beta", selects: true),
    Case(stored: "nf-kappab", filter: "NF-κB", selects: true),
    Case(stored: "β-catenin", filter: "beta-catenin", selects: true),
    Case(stored: "α", filter: "alpha", selects: true),
    Case(stored: "tnfα", filter: "tnfalpha", selects: true),
    // Punctuation still counts, and a Greek letter glued to a name is one word.
    Case(stored: "tnf-α", filter: "tnf alpha", selects: false),
    Case(stored: "tnfα", filter: "tnf-alpha", selects: false),
    // Greek prose stays Greek: the article is not `omicron`, a Greek word is not spelled out.
    Case(stored: "ο γιάννης", filter: "ο γιαννης", selects: true),
    Case(stored: "ο γιάννης", filter: "omicron γιαννης", selects: false),
    Case(stored: "αβγ", filter: "alphabetagamma", selects: false),
    // `μ` inside a word is a unit prefix.
    Case(stored: "10μg", filter: "10mug", selects: false),
    Case(stored: "10μg", filter: "10µg", selects: true),
    // Folding as before.
    Case(stored: "café", filter: "cafe", selects: true),
    Case(stored: "c++", filter: "c", selects: false),
  ]

  @Test("a Greek letter in notation and its name are one tag to a filter", arguments: cases)
  func greekLetters(_ c: Case) throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "Cytokine notes", tags: [c.stored])).item
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Cytokine other", tags: ["unrelated"]))
    let expected = c.selects ? [item.id] : []
    #expect(try engine.listKnowledge(tag: c.filter).map(\.id) == expected)
    #expect(try engine.search("cytokine", tag: c.filter).results.map(\.id) == expected)
    // Stored as given.
    #expect(try engine.knowledge(id: item.id).tags == [c.stored])
  }

  @Test("the comparison key tokenizes as the tag does: it only rewrites what the tokenizer already reads alike")
  func keyAgreesWithTokenizer() {
    let unstemmed = Tokenizer(stemming: false)
    for c in Self.cases {
      for tag in [c.stored, c.filter] {
        let key = Tokenizer.tagComparisonKey(tag)
        #expect(unstemmed.terms(key) == unstemmed.terms(tag), "\(tag) → \(key)")
      }
    }
    #expect(Tokenizer.tagComparisonKey("tnf-α") == "tnf-alpha")
    #expect(Tokenizer.tagComparisonKey("ο γιάννης") == "ο γιαννησ", "final ς folds to σ, as in words")
  }
}
