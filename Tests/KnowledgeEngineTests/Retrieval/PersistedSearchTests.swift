import Foundation
import Synchronization
import TestSupport
import Testing

@testable import KnowledgeEngine

/// The must-hold retrieval behaviours of issue 3, run through ``KnowledgeEngine/search`` over a
/// real SQLite store (the persisted index written in each capture's transaction), plus index
/// maintenance: deletion, rebuild, and agreement with ``InMemoryLexicalIndex``.
struct PersistedSearchTests {
  /// One knowledge item to capture.
  struct Item: Sendable {
    var title: String
    var content = ""
    var tags: [String] = []
    var kind: KnowledgeKind = .fact
  }

  /// A workspace in an in-memory SQLite store holding `items`, captured one by one in order.
  struct Workspace {
    let engine: KnowledgeEngine
    /// The stored items, in capture order.
    let items: [KnowledgeItem]

    init(_ specs: [Item], environment: Environment = fixedEnvironment()) throws {
      let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: environment)
      self.engine = engine
      items = try specs.map { spec in
        try engine.capture(
          CaptureRequest(kind: spec.kind, title: spec.title, content: spec.content, tags: spec.tags)
        ).item
      }
    }

    /// The ids of `indices` of ``items``.
    func ids(_ indices: [Int]) -> [UUID] { indices.map { items[$0].id } }

    func search(
      _ query: String, kinds: [KnowledgeKind] = [], includeMemories: Bool = false,
      memoriesOnly: Bool = false, limit: Int = 10
    ) throws -> SearchResponse {
      try engine.search(
        query, kinds: kinds, includeMemories: includeMemories, memoriesOnly: memoriesOnly,
        limit: limit)
    }
  }

  /// An environment whose clock never moves (so `updatedAt` ties) and whose ids count *down*
  /// from `first`, so capture order is the reverse of UUID order.
  static func steadyEnvironment(first: Int) -> Environment {
    let next = Mutex(first)
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    return Environment(
      now: { now },
      makeID: {
        next.withLock { n in
          defer { n -= 1 }
          return sequentialID(n)
        }
      })
  }

  // MARK: Weighting

  struct RankingCase: CustomTestStringConvertible, Sendable {
    var name: String
    var items: [Item]
    var query: String
    /// Indices into `items`, best first.
    var expected: [Int]
    var testDescription: String { name }
  }

  @Test(arguments: [
    RankingCase(
      name: "title outranks tags, tags outrank content",
      items: [
        Item(title: "Quarterly review", content: "we discussed the deployment window"),
        Item(title: "Deployment checklist", content: "we discussed the quarterly window"),
        Item(
          title: "Quarterly checklist", content: "we discussed the release window",
          tags: ["deployment"]),
      ],
      query: "deployment", expected: [1, 2, 0]),
    RankingCase(
      name: "a phrase beats the same words scattered",
      items: [
        Item(title: "Notes A", content: "plan the deploy and release today"),
        Item(title: "Notes B", content: "deploy the release plan and today"),
      ],
      query: "release plan", expected: [1, 0]),
    RankingCase(
      name: "covering more query terms beats repeating fewer",
      items: [
        Item(title: "Notes A", content: "database migration database migration database migration"),
        Item(title: "Notes B", content: "rollback after the database migration failed twice"),
      ],
      query: "database migration rollback", expected: [1, 0]),
    RankingCase(
      name: "a fuzzy hit ranks below an exact one",
      items: [
        Item(title: "Release handoff", content: "owner and date"),
        Item(title: "Release checklist", content: "owner and date"),
      ],
      query: "handof checklist", expected: [1, 0]),
  ])
  func weighting(_ example: RankingCase) throws {
    let workspace = try Workspace(example.items)
    let response = try workspace.search(example.query)
    #expect(response.results.map(\.id) == workspace.ids(example.expected))
    for result in response.results {
      #expect(abs(result.scoreParts.total - result.score) < 1e-9)
    }
  }

  @Test("Score parts name the field, phrase, coverage and fuzzy contributions")
  func scoreParts() throws {
    let workspace = try Workspace([
      Item(title: "Deployment checklist"),
      Item(title: "Quarterly checklist", tags: ["deployment"]),
      Item(title: "Quarterly review", content: "the deployment window"),
      Item(title: "Release handoff"),
    ])
    let parts = try workspace.search("deployment").results.map(\.scoreParts)
    #expect(parts.count == 3)
    #expect(parts[0].title > 0 && parts[0].tags == 0 && parts[0].content == 0)
    #expect(parts[1].tags > 0 && parts[1].title == 0 && parts[1].content == 0)
    #expect(parts[2].content > 0 && parts[2].title == 0 && parts[2].tags == 0)
    let fuzzy = try workspace.search("handof")
    #expect(fuzzy.terms == [QueryTermMatch(term: "handof", match: .fuzzy, variants: ["handoff"], words: ["handof"], typedWords: ["handof"])])
    #expect(fuzzy.results.map(\.id) == workspace.ids([3]))
    #expect(fuzzy.results.first.map { $0.scoreParts.fuzzy > 0 && $0.scoreParts.title == 0 } == true)
  }

  // MARK: Typos

  static let typoCorpus = [
    Item(title: "Session handoff notes", content: "what to pick up next"),
    Item(title: "Persistence layer", content: "SQLite with WAL"),
    Item(title: "Database migration plan", content: "schema v5"),
    Item(title: "Dobromat plugin", content: "third-party tool"),
    Item(title: "Gallery layout", content: "grid of thumbnails"),
  ]

  struct TypoCase: CustomTestStringConvertible, Sendable {
    var query: String
    var expected: [Int]
    var testDescription: String { "\(query) → \(expected)" }
  }

  @Test(arguments: [
    TypoCase(query: "handof", expected: [0]),
    TypoCase(query: "persistance", expected: [1]),
    TypoCase(query: "migraton", expected: [2]),
    TypoCase(query: "Adobe", expected: []),
    TypoCase(query: "Ballet", expected: []),
  ])
  func typo(_ example: TypoCase) throws {
    let workspace = try Workspace(Self.typoCorpus)
    let response = try workspace.search(example.query)
    #expect(response.results.map(\.id) == workspace.ids(example.expected))
    if example.expected.isEmpty {
      #expect(response.total == 0)
      #expect(response.emptyReason == .noTermMatched)
    }
  }

  // MARK: Folding

  static let foldingCorpus = [
    Item(title: "Meeting with Müller in München"),
    Item(title: "Сергей prefers green tea"),
    Item(title: "東京カンファレンスの議事録"),
  ]

  struct FoldingCase: CustomTestStringConvertible, Sendable {
    var query: String
    var expected: Int
    var testDescription: String { "\(query) → \(expected)" }
  }

  @Test(arguments: [
    FoldingCase(query: "Müller", expected: 0), FoldingCase(query: "muller", expected: 0),
    FoldingCase(query: "MÜLLER", expected: 0), FoldingCase(query: "munchen", expected: 0),
    FoldingCase(query: "сергей", expected: 1), FoldingCase(query: "СЕРГЕЙ", expected: 1),
    FoldingCase(query: "東京", expected: 2), FoldingCase(query: "議事録", expected: 2),
  ])
  func folding(_ example: FoldingCase) throws {
    let workspace = try Workspace(Self.foldingCorpus)
    let response = try workspace.search(example.query)
    #expect(response.results.map(\.id) == workspace.ids([example.expected]))
  }

  /// Letters without a decomposition (tokenizer version 2).
  static let letterFoldingCorpus = [
    Item(title: "Øresund bridge notes"),
    Item(title: "Łódź meetup"),
    Item(title: "Æsir saga"),
    Item(title: "Straße renaming plan"),
    Item(title: "Strasse sign inventory"),
    Item(title: "Sound check"),
  ]

  struct LetterFoldingCase: CustomTestStringConvertible, Sendable {
    var query: String
    var expected: Set<Int>
    /// How the (only) query term matched.
    var match: QueryTermMatch.Match = .exact
    var testDescription: String { "\(query) → \(expected.sorted())" }
  }

  @Test(arguments: [
    LetterFoldingCase(query: "oresund", expected: [0]),
    LetterFoldingCase(query: "ØRESUND", expected: [0]),
    LetterFoldingCase(query: "Öresund", expected: [0]),
    LetterFoldingCase(query: "lodz", expected: [1]),
    LetterFoldingCase(query: "ŁÓDŹ", expected: [1]),
    LetterFoldingCase(query: "aesir", expected: [2]),
    LetterFoldingCase(query: "ÆSIR", expected: [2]),
    LetterFoldingCase(query: "strasse", expected: [3, 4]),
    LetterFoldingCase(query: "straße", expected: [3, 4]),
    LetterFoldingCase(query: "Øresunt", expected: [0], match: .fuzzy),
    LetterFoldingCase(query: "oresunt", expected: [0], match: .fuzzy),
  ])
  func letterFolding(_ example: LetterFoldingCase) throws {
    let workspace = try Workspace(Self.letterFoldingCorpus)
    let response = try workspace.search(example.query)
    #expect(Set(response.results.map(\.id)) == Set(workspace.ids(Array(example.expected))))
    #expect(response.terms.map(\.match) == [example.match])
    if example.match == .fuzzy {
      #expect(response.terms.first?.variants == ["oresund"])
    }
  }

  @Test("Greek letters and their written-out names find each other; Greek words are not spelled out")
  func greekLetters() throws {
    let workspace = try Workspace([
      Item(title: "TNF-α signalling in macrophages"),
      Item(title: "IL-1beta release after injury"),
      Item(title: "NF-κB activation notes"),
      Item(title: "Trip to Αθήνα"),
      Item(title: "Alpha release checklist"),
      Item(title: "Ο Γιάννης και η Μαρία"),
      Item(title: "Call mum on Sunday", content: "buy a mug"),
      Item(title: "Omicron variant wave"),
    ])
    #expect(try Set(workspace.search("TNF-alpha").results.map(\.id)) == Set(workspace.ids([0, 4])))
    #expect(try workspace.search("TNF-alpha").results.first?.id == workspace.ids([0]).first)
    #expect(try workspace.search("IL-1β").results.map(\.id) == workspace.ids([1]))
    #expect(try workspace.search("NF-kappaB").results.map(\.id) == workspace.ids([2]))
    // Every term matched exactly: the symbol and the name are one term, not a fuzzy guess.
    for query in ["TNF-alpha", "TNF-α", "IL-1β", "NF-kappaB", "nf-κb"] {
      let terms = try workspace.search(query).terms
      #expect(terms.count == 2 && terms.allSatisfy { $0.match == .exact }, "\(query): \(terms)")
    }
    #expect(try workspace.search("Αθηνα").results.map(\.id) == workspace.ids([3]))
    #expect(try workspace.search("athina").results.isEmpty)
    // Greek articles are not letters of notation, and μ in a unit is not the word `mu`.
    #expect(try workspace.search("omicron").results.map(\.id) == workspace.ids([7]))
    #expect(try workspace.search("eta").results.isEmpty)
    #expect(try workspace.search("10 μm").results.isEmpty)
    #expect(try workspace.search("5 μg").results.isEmpty)
    #expect(try workspace.search("η Μαρία").results.map(\.id) == workspace.ids([5]))
    // A query of the letter alone is notation too: it finds what its name finds.
    #expect(try workspace.search("α").results.map(\.id) == workspace.search("alpha").results.map(\.id))
    #expect(try !workspace.search("α").results.isEmpty)
  }

  @Test("Zürich finds nothing on the folding corpus, and says why")
  func zurich() throws {
    let response = try Workspace(Self.foldingCorpus).search("Zürich")
    #expect(response.results.isEmpty)
    #expect(response.total == 0)
    #expect(response.truncated == false)
    #expect(response.emptyReason == .noTermMatched)
    #expect(response.terms == [QueryTermMatch(term: "zurich", match: .none, variants: [], words: ["zurich"], typedWords: ["Zürich"])])
  }

  // MARK: Query text is data

  static let punctuationCorpus = [
    Item(title: "health.base config"),
    Item(title: "don't use agents"),
    Item(title: "IDOLM@STER"),
    Item(title: "C++ (draft) notes"),
  ]

  struct LiteralCase: CustomTestStringConvertible, Sendable {
    var query: String
    var expected: Int
    var testDescription: String { query }
  }

  @Test(arguments: [
    LiteralCase(query: "health.base config", expected: 0),
    LiteralCase(query: "don't use agents", expected: 1),
    LiteralCase(query: "IDOLM@STER", expected: 2),
    LiteralCase(query: "C++ (draft) notes", expected: 3),
  ])
  func literalTitleRanksFirst(_ example: LiteralCase) throws {
    let workspace = try Workspace(Self.punctuationCorpus)
    #expect(try workspace.search(example.query).results.first?.id == workspace.items[example.expected].id)
  }

  @Test("C, C++ and C# are three words; Notepad++ is notepad")
  func languageNames() throws {
    let workspace = try Workspace([
      Item(title: "C++ templates", content: "variadic packs"),
      Item(title: "C# async patterns", content: "ConfigureAwait"),
      Item(title: "C compiler flags", content: "-O2 -Wall"),
      Item(title: "Notepad++ plugins", content: "editor setup"),
      Item(title: "F# pipelines", content: "the |> operator"),
    ])
    for (query, expected) in [("C++", [0]), ("c#", [1]), ("C", [2]), ("notepad", [3]), ("F#", [4])] {
      #expect(try workspace.search(query).results.map(\.id) == workspace.ids(expected), "\(query)")
    }
  }

  struct OddQuery: CustomTestStringConvertible, Sendable {
    var query: String
    /// Why the list is empty; nil when something matches.
    var reason: EmptyReason?
    var testDescription: String { query.debugDescription }
  }

  @Test(arguments: [
    OddQuery(query: "sum= /", reason: .noTermMatched),
    OddQuery(query: "\"unbalanced", reason: .noTermMatched),
    OddQuery(query: "(draft", reason: nil),
    OddQuery(query: "a*", reason: nil),
    // `not`, a stop word searched as itself, is no typo of *notes* (review 30a, 5).
    OddQuery(query: "NOT", reason: .noCommonWordMatched),
    // `or` is a stop word, searched since the query has nothing else.
    OddQuery(query: "OR OR", reason: .noCommonWordMatched),
    OddQuery(query: "—", reason: .noQueryTerms),
    OddQuery(query: "?", reason: .noQueryTerms),
    OddQuery(query: "-", reason: .noQueryTerms),
    OddQuery(query: "\\", reason: .noQueryTerms),
    OddQuery(query: "🚀🔥", reason: .noQueryTerms),
    OddQuery(query: "שלום עולם", reason: .noTermMatched),
    OddQuery(query: "\u{202E}draft\u{202C}", reason: nil),
    OddQuery(query: String(repeating: "(", count: 500), reason: .noQueryTerms),
    // `C++` is the term `c++`, and a lone letter beside other words is no prefix.
    // `a`, `AND`, `OR` are common words, left out beside the others: said so.
    OddQuery(query: "NEAR(a b) AND title:x OR \"c\"*", reason: .noOtherWordMatched),
    OddQuery(query: "NEAR(a b) AND title:x OR \"c++\"*", reason: nil),
    OddQuery(query: "'; DROP TABLE lexical_posting; --", reason: .noTermMatched),
  ])
  func oddQueryReturnsAList(_ example: OddQuery) throws {
    let workspace = try Workspace(Self.punctuationCorpus)
    let response = try workspace.search(example.query)
    #expect(response.mode == .hybridLexical)
    #expect(response.algorithmVersion == "hybrid-lexical-v1")
    #expect(response.emptyReason == example.reason)
    #expect(response.results.isEmpty == (example.reason != nil))
    // Nothing was executed as SQL: every item is still found.
    #expect(try workspace.search("notes").results.map(\.id) == workspace.ids([3]))
  }

  // MARK: Kinds, limits, ties, repeatability

  static let kindCorpus = [
    Item(title: "SQLite is embedded", kind: .fact),
    Item(title: "Use SQLite", kind: .decision),
    Item(title: "Postgres for the server", kind: .decision),
  ]

  struct KindCase: CustomTestStringConvertible, Sendable {
    var kinds: [KnowledgeKind]
    var query: String
    var expected: [Int]
    var reason: EmptyReason?
    var testDescription: String { "\(kinds.map(\.rawValue)) \(query)" }
  }

  @Test(arguments: [
    KindCase(kinds: [.fact], query: "sqlite", expected: [0]),
    KindCase(kinds: [.decision], query: "sqlite", expected: [1]),
    KindCase(kinds: [.fact, .decision], query: "sqlite", expected: [1, 0]),
    KindCase(kinds: [], query: "sqlite", expected: [1, 0]),
    KindCase(kinds: [.goal], query: "sqlite", expected: [], reason: .noMatchInKinds),
    KindCase(kinds: [.fact], query: "postgres", expected: [], reason: .noMatchInKinds),
  ])
  func kindFilter(_ example: KindCase) throws {
    let workspace = try Workspace(Self.kindCorpus)
    let response = try workspace.search(example.query, kinds: example.kinds)
    #expect(Set(response.results.map(\.id)) == Set(workspace.ids(example.expected)))
    #expect(response.total == example.expected.count)
    #expect(response.emptyReason == example.reason)
    let allowed = Set((example.kinds.isEmpty ? KnowledgeKind.allCases : example.kinds).map { DocumentKind.knowledge($0) })
    #expect(response.results.allSatisfy { allowed.contains($0.kind) })
  }

  @Test(arguments: [0, 51, -1])
  func limitOutOfBoundsIsRejected(limit: Int) throws {
    let workspace = try Workspace(Self.kindCorpus)
    let error = #expect(throws: ValidationError.self) {
      try workspace.search("sqlite", limit: limit)
    }
    #expect(error?.field == "limit")
    #expect(error?.description == "limit is \(limit); it must be between 1 and 50")
  }

  @Test(arguments: [1, 50])
  func limitInBoundsIsAccepted(limit: Int) throws {
    let workspace = try Workspace((1...60).map { Item(title: "note \($0)") })
    let response = try workspace.search("note", limit: limit)
    #expect(response.results.count == limit)
    #expect(response.total == 60)
    #expect(response.truncated)
  }

  @Test("Two items equal but for their UUID rank in UUID order, whatever the capture order")
  func stableTies() throws {
    // Ids count down, so the second capture has the smaller UUID.
    let workspace = try Workspace(
      [Item(title: "Shared words", content: "same body"), Item(title: "Shared words", content: "same body")],
      environment: Self.steadyEnvironment(first: 0x200))
    #expect(workspace.items[0].updatedAt == workspace.items[1].updatedAt)
    #expect(workspace.items[1].id.uuidString < workspace.items[0].id.uuidString)
    let response = try workspace.search("shared words")
    #expect(response.results.map(\.id) == workspace.ids([1, 0]))
    #expect(response.results[0].score == response.results[1].score)
  }

  @Test("The same query gives the same response, again and in an identically built workspace")
  func repeatedSearchIsIdentical() throws {
    let specs = Self.typoCorpus + Self.kindCorpus + Self.foldingCorpus
    let first = try Workspace(specs)
    let second = try Workspace(specs)
    for query in ["sqlite plan", "handof migration", "layout", "東京", "persistance layer notes"] {
      let response = try first.search(query)
      #expect(try first.search(query) == response)
      #expect(try second.search(query) == response)
    }
  }

  @Test("A reopened file workspace answers exactly as before")
  func identicalAfterReopening() throws {
    let directory = TemporaryDirectory("persisted-search")
    defer { directory.remove() }
    let queries = ["sqlite plan", "handof", "notes layout grid"]
    var before: [SearchResponse] = []
    do {
      let engine = KnowledgeEngine(
        store: try SQLiteWorkspaceStore.open(directory: directory.url), environment: fixedEnvironment())
      _ = try engine.captureBulk(
        (Self.typoCorpus + Self.kindCorpus).map {
          CaptureRequest(kind: $0.kind, title: $0.title, content: $0.content, tags: $0.tags)
        })
      before = try queries.map { try engine.search($0) }
    }
    let reopened = KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: directory.url))
    #expect(try queries.map { try reopened.search($0) } == before)
    #expect(try reopened.verifySearchIndex() == [])
  }

  // MARK: Memories

  @Test("Legacy memories are searched only when asked, and labeled memory")
  func memoriesAreLabeled() throws {
    let workspace = try Workspace([Item(title: "Tabs or spaces", kind: .decision)])
    let saved = try workspace.engine.saveMemory(text: "Prefers tabs over spaces", tags: ["style"])

    let knowledgeOnly = try workspace.search("tabs")
    #expect(knowledgeOnly.results.allSatisfy { $0.kind != .memory })
    #expect(Set(knowledgeOnly.results.map(\.id)) == [workspace.items[0].id, saved.mirror.id])

    let both = try workspace.search("tabs", includeMemories: true)
    let memory = try #require(both.results.first { $0.id == saved.memory.id })
    #expect(memory.kind == .memory)
    #expect(memory.kind.name == "memory")
    #expect(memory.title == "Prefers tabs over spaces")
    #expect(memory.title == saved.mirror.title)
    #expect(memory.snippet == "Prefers tabs over spaces")
    // Listed once: the memory, not also its knowledge mirror.
    #expect(Set(both.results.map(\.id)) == [workspace.items[0].id, saved.memory.id])

    // Ranked as its mirror (title and content), so including memories does not demote it.
    let mirror = try #require(knowledgeOnly.results.first { $0.id == saved.mirror.id })
    #expect(memory.score == mirror.score)
    #expect(memory.scoreParts == mirror.scoreParts)
    #expect(memory.source == nil)
    #expect(both.total == knowledgeOnly.total)

    let memoriesOnly = try workspace.search("tabs", memoriesOnly: true)
    #expect(memoriesOnly.results.map(\.id) == [saved.memory.id])
    #expect(memoriesOnly.results.map(\.kind) == [.memory])
  }

  @Test("A memory result is titled by the memory's first line, on one line and bounded, as its mirror is")
  func memoryResultTitle() throws {
    let workspace = try Workspace([])
    let lines = try workspace.engine.saveMemory(text: "Prefers\ttabs\u{2028}over spaces\nin Swift files")
    let long = try workspace.engine.saveMemory(text: "Keystone " + String(repeating: "x", count: 200) + "\nsecond line")
    let results = try workspace.search("prefers keystone", memoriesOnly: true).results
    #expect(results.first { $0.id == lines.memory.id }?.title == "Prefers tabs")
    #expect(lines.mirror.title == "Prefers tabs")
    let longTitle = try #require(results.first { $0.id == long.memory.id }?.title)
    #expect(longTitle == "Keystone " + String(repeating: "x", count: 70) + "…")
    #expect(longTitle == long.mirror.title)
  }

  // MARK: Index maintenance

  @Test("A deleted item is no longer found, and the index stays consistent")
  func deletionRemovesFromTheIndex() throws {
    let workspace = try Workspace(Self.typoCorpus)
    let target = workspace.items[3]  // "Dobromat plugin"
    #expect(try workspace.search("dobromat").results.map(\.id) == [target.id])
    _ = try workspace.engine.apply(try workspace.engine.planDeletion(of: .knowledge(target.id)))

    let after = try workspace.search("dobromat")
    #expect(after.results.isEmpty)
    #expect(after.total == 0)
    #expect(after.emptyReason == .noTermMatched)
    // Its words left the vocabulary too: no typo or prefix variant reaches them.
    #expect(try workspace.search("dobromatt").results.isEmpty)
    #expect(try workspace.search("plugin tool").results.isEmpty)
    #expect(try workspace.search("handoff").results.map(\.id) == [workspace.items[0].id])
    #expect(try workspace.engine.verifySearchIndex() == [])
  }

  @Test("A deleted memory is no longer found")
  func memoryDeletionRemovesFromTheIndex() throws {
    let workspace = try Workspace(Self.typoCorpus)
    let saved = try workspace.engine.saveMemory(text: "Keystone reminder for Friday")
    #expect(try workspace.search("keystone", memoriesOnly: true).results.map(\.id) == [saved.memory.id])
    _ = try workspace.engine.apply(try workspace.engine.planDeletion(of: .memory(saved.memory.id)))
    let after = try workspace.search("keystone", includeMemories: true)
    #expect(after.results.isEmpty)
    #expect(after.emptyReason == .noTermMatched)
    #expect(try workspace.engine.verifySearchIndex() == [])
  }

  static let maintenanceQueries = [
    "sqlite plan", "handof", "persistance layer", "notes", "de", "thumb", "東京", "muller tea",
    "release plan", "database migration rollback", "Zürich",
  ]

  @Test("Rebuilding the index gives identical responses")
  func rebuildIsIdentical() throws {
    let workspace = try Workspace(Self.typoCorpus + Self.kindCorpus + Self.foldingCorpus)
    _ = try workspace.engine.saveMemory(text: "Database notes from the sqlite meeting")
    _ = try workspace.engine.apply(try workspace.engine.planDeletion(of: .knowledge(workspace.items[5].id)))
    let before = try Self.maintenanceQueries.map { try workspace.search($0, includeMemories: true) }
    let indexed = try workspace.engine.rebuildSearchIndex()
    #expect(indexed == workspace.items.count - 1 + 2)  // one deleted; a memory and its mirror added
    #expect(try workspace.engine.verifySearchIndex() == [])
    let after = try Self.maintenanceQueries.map { try workspace.search($0, includeMemories: true) }
    #expect(after == before)
  }

  @Test("The SQLite index and the in-memory index give the same order and the same scores")
  func sqliteMatchesInMemory() throws {
    let specs =
      Self.typoCorpus + Self.kindCorpus + Self.foldingCorpus + Self.punctuationCorpus + [
        Item(title: "Deploy plan", content: "design the deployment, then deploy", tags: ["devops", "deploy"]),
        Item(title: "Design review", content: "decisions about the design system", kind: .decision),
        Item(title: "Release plan", content: "the release plan for the handoff", tags: ["release"]),
        Item(title: "Thumbnail cache", content: "thumbnails are cached per grid cell"),
      ]
    let workspace = try Workspace(specs)
    let memoryIndex = InMemoryLexicalIndex(workspace.items.map(IndexedDocument.init))
    let ranker = HybridLexicalRanker()
    for query in Self.maintenanceQueries + ["design deploy", "d", "th", "grid cell thumbnails", "C++"] {
      var persisted = try workspace.search(query, limit: 50)
      // The engine says what it searched; the ranker alone does not know.
      #expect(persisted.scope == .knowledge)
      persisted.scope = nil
      let inMemory = try ranker.search(query, in: memoryIndex, kinds: Set(KnowledgeKind.allCases.map { .knowledge($0) }), limit: 50)
      #expect(persisted == inMemory, "query \(query.debugDescription)")
    }
  }
}
