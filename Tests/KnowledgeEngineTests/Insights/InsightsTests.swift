import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

@Suite("Insight rules")
struct InsightsTests {
  static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

  static func item(
    _ n: Int, _ kind: KnowledgeKind, _ title: String, content: String = "", tags: [String] = ["t"],
    relationships: [KnowledgeRelationship] = [], minute: Int = 0
  ) -> KnowledgeItem {
    KnowledgeItem(
      id: sequentialID(n), kind: kind, title: title, content: content, tags: tags, relationships: relationships,
      createdAt: t0.addingTimeInterval(Double(minute) * 60))
  }

  /// An engine over a fresh store holding `items` and `tasks`, whose clock reads `now`.
  static func engine(
    _ items: [KnowledgeItem], tasks: [TaskItem] = [], handoff: Handoff? = nil, now: Date = t0.addingTimeInterval(3600)
  ) throws -> KnowledgeEngine {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      for k in items { try tx.insertKnowledge(k) }
      for t in tasks { try tx.insertTask(t) }
      if let handoff {
        try tx.insertHandoff(handoff)
        try tx.setActiveHandoffID(handoff.id)
      }
    }
    return KnowledgeEngine(store: store, environment: Environment(now: { now }, makeID: { UUID() }))
  }

  static func insights(_ engine: KnowledgeEngine, _ rule: InsightRule) throws -> [Insight] {
    try engine.insights().insights.filter { $0.rule == rule }
  }

  @Test("a contradicts relationship is one high-priority insight per pair, in either direction")
  func contradiction() throws {
    let a = Self.item(1, .decision, "Deploy on Fridays")
    let b = Self.item(2, .decision, "Never deploy on Fridays", relationships: [.init(kind: .contradicts, targetID: a.id)])
    let engine = try Self.engine([a, b])
    try engine.store.write { tx in
      var back = a
      back.relationships = [.init(kind: .contradicts, targetID: b.id)]
      try tx.updateKnowledge(back)
    }
    let found = try Self.insights(engine, .contradiction)
    #expect(found.count == 1)
    #expect(found.first?.priority == .high)
    #expect(found.first?.evidenceIDs == [sequentialID(1), sequentialID(2)])
    #expect(found.first?.message.contains("\"Deploy on Fridays\" and \"Never deploy on Fridays\" contradict each other") == true)
  }

  @Test("a quote in a title cannot end its quotation and pass for another title")
  func quotedTitles() throws {
    let a = Self.item(1, .decision, #"Deploy" and "Rollback"#)
    let b = Self.item(2, .decision, "Never deploy", relationships: [.init(kind: .contradicts, targetID: a.id)])
    let found = try Self.insights(try Self.engine([a, b]), .contradiction)
    #expect(
      found.first?.message.hasPrefix(#"Conflicting knowledge: "Never deploy" and "Deploy\" and \"Rollback" contradict"#) == true
        || found.first?.message.hasPrefix(#"Conflicting knowledge: "Deploy\" and \"Rollback" and "Never deploy" contradict"#) == true,
      "\(found)")
  }

  @Test("following the contradiction's advice settles it: superseding either item clears the insight, and the digest leaves the superseded item out")
  func supersedingSettlesContradiction() throws {
    let a = Self.item(1, .decision, "Use REST")
    let b = Self.item(2, .decision, "Use GraphQL", relationships: [.init(kind: .contradicts, targetID: a.id)])
    let engine = try Self.engine([a, b])
    #expect(try Self.insights(engine, .contradiction).count == 1)
    let final = try engine.capture(
      CaptureRequest(kind: .decision, title: "Use GraphQL (final)", relationships: [.init(kind: .supersedes, targetID: a.id)]))
    #expect(try Self.insights(engine, .contradiction).isEmpty)
    let decisions = try engine.projectContext().sections.decisions.map(\.text)
    #expect(!decisions.contains { $0.hasPrefix("Use REST") }, "\(decisions)")
    #expect(decisions.contains { $0.hasPrefix("Use GraphQL (final)") }, "\(decisions)")
    #expect(decisions.contains { $0.hasPrefix("Use GraphQL") }, "\(decisions)")
    _ = final
  }

  struct ConflictCase: CustomStringConvertible, Sendable {
    var name: String
    var first: KnowledgeItem
    var second: KnowledgeItem
    var expectConflict: Bool
    var description: String { name }
  }

  static let conflictCases: [ConflictCase] = [
    ConflictCase(
      name: "decisions sharing a tag, similar titles, different content",
      first: item(1, .decision, "Use SQLite for the workspace store", content: "WAL mode.", tags: ["storage"]),
      second: item(2, .decision, "Use JSON files for the workspace store", content: "Easy to diff.", tags: ["storage", "json"]),
      expectConflict: true),
    ConflictCase(
      name: "preferences sharing a tag",
      first: item(1, .preference, "Prefer tabs for indentation", content: "Editors differ.", tags: ["style"]),
      second: item(2, .preference, "Prefer spaces for indentation", content: "Two of them.", tags: ["style"]),
      expectConflict: true),
    ConflictCase(
      name: "no shared tag",
      first: item(1, .decision, "Use SQLite for the workspace store", content: "WAL mode.", tags: ["storage"]),
      second: item(2, .decision, "Use JSON files for the workspace store", content: "Easy to diff.", tags: ["json"]),
      expectConflict: false),
    ConflictCase(
      name: "already linked by supersedes",
      first: item(1, .decision, "Use SQLite for the workspace store", content: "WAL mode.", tags: ["storage"]),
      second: item(
        2, .decision, "Use JSON files for the workspace store", content: "Easy to diff.", tags: ["storage"],
        relationships: [.init(kind: .supersedes, targetID: sequentialID(1))]),
      expectConflict: false),
    ConflictCase(
      name: "different kinds",
      first: item(1, .decision, "Prefer tabs for indentation", content: "Editors differ.", tags: ["style"]),
      second: item(2, .preference, "Prefer spaces for indentation", content: "Two of them.", tags: ["style"]),
      expectConflict: false),
    ConflictCase(
      name: "dissimilar titles",
      first: item(1, .decision, "Use SQLite for the workspace store", content: "WAL mode.", tags: ["storage"]),
      second: item(2, .decision, "Back up nightly", content: "Cron.", tags: ["storage"]),
      expectConflict: false),
    ConflictCase(
      name: "a value that differs is still a conflict (ports)",
      first: item(1, .decision, "Use port 8081 for the API", content: "Second instance.", tags: ["api"]),
      second: item(2, .decision, "Use port 8080 for the API", content: "Default instance.", tags: ["api"]),
      expectConflict: true),
    ConflictCase(
      name: "a number that is not a step is still a conflict (Python 3 / 2)",
      first: item(1, .decision, "Use Python 3 for the build scripts", content: "Current.", tags: ["build"]),
      second: item(2, .decision, "Use Python 2 for the build scripts", content: "Legacy boxes.", tags: ["build"]),
      expectConflict: true),
    ConflictCase(
      name: "numbered steps of one series are not a conflict",
      first: item(1, .decision, "Migration step 10", content: "Switch reads over.", tags: ["rollout"]),
      second: item(2, .decision, "Migration step 2", content: "Copy the records.", tags: ["rollout"]),
      expectConflict: false),
    ConflictCase(
      name: "phases of one series are not a conflict",
      first: item(1, .decision, "Phase 2", content: "Ship it.", tags: ["plan"]),
      second: item(2, .decision, "Phase 1", content: "Build it.", tags: ["plan"]),
      expectConflict: false),
    ConflictCase(
      name: "sections of one document are not a conflict",
      first: item(1, .decision, "Section 3.10 of the storage spec", content: "Compaction.", tags: ["spec"]),
      second: item(2, .decision, "Section 3.2 of the storage spec", content: "Page layout.", tags: ["spec"]),
      expectConflict: false),
    ConflictCase(
      name: "lettered sub-steps of one series are not a conflict",
      first: item(1, .decision, "Migration step 2b", content: "Switch reads over.", tags: ["rollout"]),
      second: item(2, .decision, "Migration step 2a", content: "Copy the records.", tags: ["rollout"]),
      expectConflict: false),
    ConflictCase(
      name: "Roman-numbered phases of one series are not a conflict",
      first: item(1, .decision, "Phase III of the rollout", content: "Ship it.", tags: ["plan"]),
      second: item(2, .decision, "Phase II of the rollout", content: "Build it.", tags: ["plan"]),
      expectConflict: false),
    ConflictCase(
      name: "versions are values: a possible conflict (API v1 / v2)",
      first: item(1, .preference, "API v2 design", content: "Cursor paging.", tags: ["api"]),
      second: item(2, .preference, "API v1 design", content: "Offset paging.", tags: ["api"]),
      expectConflict: true),
    ConflictCase(
      name: "a compression level is a value: a possible conflict",
      first: item(1, .decision, "Use zstd compression level 19", content: "small", tags: ["build"]),
      second: item(2, .decision, "Use zstd compression level 3", content: "fast", tags: ["build"]),
      expectConflict: true),
    ConflictCase(
      name: "a Node version after v is a value: a possible conflict",
      first: item(1, .decision, "Pin Node v20 in CI", content: "newer", tags: ["build"]),
      second: item(2, .decision, "Pin Node v18 in CI", content: "LTS", tags: ["build"]),
      expectConflict: true),
    ConflictCase(
      name: "a day is a value: a possible conflict",
      first: item(1, .decision, "Deploy on day 5 of each sprint", content: "late", tags: ["build"]),
      second: item(2, .decision, "Deploy on day 1 of each sprint", content: "early", tags: ["build"]),
      expectConflict: true),
    ConflictCase(
      name: "a TLS version is a value: a possible conflict",
      first: item(1, .preference, "Use TLS version 1.3 minimum", content: "secure", tags: ["build"]),
      second: item(2, .preference, "Use TLS version 1.2 minimum", content: "compat", tags: ["build"]),
      expectConflict: true),
    ConflictCase(
      name: "a Python version is a value: a possible conflict",
      first: item(1, .decision, "Pin Python version 3.12", content: "b", tags: ["build"]),
      second: item(2, .decision, "Pin Python version 3.11", content: "a", tags: ["build"]),
      expectConflict: true),
    ConflictCase(
      name: "the same step with different content is still a conflict",
      first: item(1, .decision, "Migration step 2.", content: "Copy the records.", tags: ["rollout"]),
      second: item(2, .decision, "Migration step 2", content: "Drop the JSON files.", tags: ["rollout"]),
      expectConflict: true),
    ConflictCase(
      name: "steps whose other words differ are compared as before",
      first: item(1, .decision, "Phase 2 uses port 8081", content: "Ship it.", tags: ["plan"]),
      second: item(2, .decision, "Phase 1 uses port 8080", content: "Build it.", tags: ["plan"]),
      expectConflict: true),
    // Places spelled out (review s9): one series, not a conflict; the words around them that
    // say when or how many still make a possible conflict.
    ConflictCase(
      name: "spelled-out parts of one series are not a conflict",
      first: item(1, .decision, "Part two of the guide", content: "Advanced use.", tags: ["docs"]),
      second: item(2, .decision, "Part one of the guide", content: "Getting started.", tags: ["docs"]),
      expectConflict: false),
    ConflictCase(
      name: "spelled-out phases of one series are not a conflict",
      first: item(1, .decision, "Phase Two: setup", content: "Configure the replicas.", tags: ["plan"]),
      second: item(2, .decision, "Phase One: setup", content: "Install the servers.", tags: ["plan"]),
      expectConflict: false),
    ConflictCase(
      name: "ordinal phases of one series are not a conflict",
      first: item(1, .decision, "Second phase of the rollout", content: "Ship it.", tags: ["plan"]),
      second: item(2, .decision, "First phase of the rollout", content: "Build it.", tags: ["plan"]),
      expectConflict: false),
    ConflictCase(
      name: "an ordinal after a label says when: a possible conflict",
      first: item(1, .decision, "Run the lint step second in CI", content: "After the tests.", tags: ["build"]),
      second: item(2, .decision, "Run the lint step first in CI", content: "Before the tests.", tags: ["build"]),
      expectConflict: true),
    ConflictCase(
      name: "a cardinal before a label counts: a possible conflict",
      first: item(1, .decision, "Use two-phase commit for writes", content: "Simpler.", tags: ["storage"]),
      second: item(2, .decision, "Use three-phase commit for writes", content: "Non-blocking.", tags: ["storage"]),
      expectConflict: true),
    ConflictCase(
      name: "a spelled-out day is a value: a possible conflict",
      first: item(1, .decision, "Deploy on day two of each sprint", content: "late", tags: ["build"]),
      second: item(2, .decision, "Deploy on day one of each sprint", content: "early", tags: ["build"]),
      expectConflict: true),
    ConflictCase(
      name: "an ordinal day is a value: a possible conflict",
      first: item(1, .decision, "Deploy on the second day of each sprint", content: "late", tags: ["build"]),
      second: item(2, .decision, "Deploy on the first day of each sprint", content: "early", tags: ["build"]),
      expectConflict: true),
    ConflictCase(
      name: "near-duplicates are not conflicts",
      first: item(1, .decision, "Use SQLite for the workspace store", content: "WAL mode and one file.", tags: ["storage"]),
      second: item(2, .decision, "Use SQLite for the workspace store.", content: "WAL mode and one file", tags: ["storage"]),
      expectConflict: false),
  ]

  @Test("possible conflicts: same kind, a shared tag, similar titles, different content", arguments: conflictCases)
  func possibleConflict(_ c: ConflictCase) throws {
    let found = try Self.insights(Self.engine([c.first, c.second]), .possibleConflict)
    #expect(found.count == (c.expectConflict ? 1 : 0))
    if c.expectConflict {
      // Named, and cited, in the natural order of their titles ("Use JSON…" before "Use SQLite…").
      #expect(found.first?.evidenceIDs == [sequentialID(2), sequentialID(1)])
      #expect(found.first?.priority == .normal)
    }
  }

  /// The spelled-out series above would be possible conflicts but for the series rule: their
  /// titles are as similar as the rule asks.
  @Test("the spelled-out series cases have titles similar enough to conflict", arguments: conflictCases.filter { $0.name.contains("spelled-out") || $0.name.hasPrefix("ordinal phases") })
  func spelledSeriesAreCandidates(_ c: ConflictCase) {
    var sets = TrigramSets()
    sets.append(c.first.title)
    sets.append(c.second.title)
    #expect(sets.similarity(0, 1) >= InsightThresholds().conflictTitleSimilarity)
  }

  @Test("near-duplicate titles are grouped: three copies and a close variant give one insight")
  func nearDuplicates() throws {
    let items = [
      Self.item(3, .fact, "SQLite 3.40 is installed on the build machine"),
      Self.item(1, .fact, "SQLite 3.40 is installed on the build machine."),
      Self.item(2, .fact, "sqlite 3.40 is installed on the build machines"),
      Self.item(5, .fact, "SQLITE 3.40 IS INSTALLED ON THE BUILD MACHINE!"),
      Self.item(4, .fact, "The README explains the demo"),
    ]
    let found = try Self.insights(Self.engine(items), .nearDuplicates)
    #expect(found.count == 1)
    // Members in the natural order of their titles (code units: upper case first), then id.
    #expect(found.first?.evidenceIDs == [sequentialID(5), sequentialID(3), sequentialID(1), sequentialID(2)])
    #expect(found.first?.message.hasPrefix("4 items have near-identical titles (trigram similarity up to 1.00): ") == true)
  }

  struct AdviceCase: CustomStringConvertible, Sendable {
    var name: String
    var contents: [String]
    var advice: String
    var description: String { name }
  }

  static let adviceCases: [AdviceCase] = [
    AdviceCase(
      name: "same content (case and punctuation aside): merge", contents: ["Use tabs.", "use TABS"],
      advice: "; merge them, or link them (supersedes, contradicts) if they disagree, or make the titles distinct."),
    AdviceCase(
      name: "no content: merge", contents: ["", ""], advice: "; merge them, or link them (supersedes, contradicts) if they disagree, or make the titles distinct."),
    AdviceCase(
      name: "different content: review, not merge", contents: ["Use tabs", "Never tabs"],
      advice: "; review them: keep one or reconcile them, or make the titles distinct."),
  ]

  @Test("near-duplicates advise merging only when the contents open the same way", arguments: adviceCases)
  func nearDuplicateAdvice(_ c: AdviceCase) throws {
    // Untagged preferences: no shared tag, so not a possible conflict, only near-duplicates.
    let items = c.contents.enumerated().map { i, content in
      Self.item(i + 1, .preference, "Tabs", content: content, tags: [])
    }
    let engine = try Self.engine(items)
    #expect(try Self.insights(engine, .possibleConflict).isEmpty)
    let found = try Self.insights(engine, .nearDuplicates)
    #expect(found.count == 1)
    #expect(found.first?.evidenceIDs == [sequentialID(1), sequentialID(2)])
    let message = try #require(found.first?.message)
    #expect(message.hasSuffix(c.advice), "\(message)")
    #expect(message.contains("merge") == c.advice.contains("merge"), "\(message)")
    #expect(message.contains("but different content") == !c.advice.contains("merge"), "\(message)")
  }

  @Test("titles of the same letters in another order are not advised to be merged")
  func reorderedTitlesAreNotMerged() throws {
    // Insights v13: `Prefer tabs over spaces` / `Prefer spaces over tabs` say opposite things
    // (review 27-a, 12); words exchanged around `and` may say the same.
    let items = [
      Self.item(1, .preference, "Run tests and linters", tags: []),
      Self.item(2, .preference, "Run linters and tests", tags: []),
    ]
    let found = try Self.insights(Self.engine(items), .nearDuplicates)
    let message = try #require(found.first?.message)
    #expect(message.contains("in a different order"), "\(message)")
    #expect(message.hasSuffix("check whether they say the same thing before merging them."), "\(message)")
  }

  @Test("review 27-a, 12: titles exchanged around `over` say opposite things; asked which one holds, not whether to merge")
  func exchangedTitlesAreOpposite() throws {
    let items = [
      Self.item(1, .preference, "Prefer tabs over spaces", tags: []),
      Self.item(2, .preference, "Prefer spaces over tabs", tags: []),
    ]
    let found = try Self.insights(Self.engine(items), .nearDuplicates)
    let message = try #require(found.first?.message)
    #expect(
      message
        == #"2 items have near-identical titles (trigram similarity up to 1.00) that say opposite things (over tabs / over spaces): "Prefer spaces over tabs", "Prefer tabs over spaces"; decide which one holds: link them (supersedes, contradicts) or reword one."#)
  }

  @Test("an item and the one that supersedes it are not near-duplicates to merge")
  func supersededAreNotNearDuplicates() throws {
    let old = Self.item(1, .decision, "Use tabs for indentation", tags: [])
    let new = Self.item(2, .decision, "Use tabs for indentation!", tags: [], relationships: [.init(kind: .supersedes, targetID: old.id)])
    #expect(try Self.insights(Self.engine([old, new]), .nearDuplicates).isEmpty)
    // Without the relationship they are.
    let plain = Self.item(2, .decision, "Use tabs for indentation!", tags: [])
    #expect(try Self.insights(Self.engine([old, plain]), .nearDuplicates).count == 1)
  }

  @Test("a group larger than the evidence cap says how many it cites")
  func evidenceCapIsStated() throws {
    let items = (1...66).map { Self.item($0, .fact, "Weekly sync notes", tags: []) }
    let found = try Self.insights(Self.engine(items), .nearDuplicates)
    let insight = try #require(found.first)
    #expect(insight.message.hasPrefix("66 items"), "\(insight.message)")
    #expect(insight.evidenceIDs.count == 64)
    #expect(insight.evidenceTotal == 66)
    #expect(insight.evidenceTruncated)
    // Said once, by the renderings (`… and 2 more (66 in all)`), not also in the message (review 18-d).
    #expect(insight.message.hasSuffix("or make the titles distinct."), "\(insight.message)")
  }

  @Test("the two items of a possible conflict are not near-duplicates of each other, but of other items still")
  func conflictsAreNotDuplicates() throws {
    let pair = [
      Self.item(1, .decision, "Store the workspace in SQLite", content: "WAL mode.", tags: ["storage"]),
      Self.item(2, .decision, "Store the workspace in SQLite", content: "Rollback journal.", tags: ["storage"]),
    ]
    let alone = try Self.engine(pair)
    #expect(try Self.insights(alone, .possibleConflict).map(\.evidenceIDs) == [[sequentialID(1), sequentialID(2)]])
    #expect(try Self.insights(alone, .nearDuplicates).isEmpty)
    // Review 19-c: each is still linked to the other items near it; the group that then holds
    // both is advised to be reviewed, not merged.
    let items = pair + [Self.item(3, .fact, "Store the workspace in SQLite"), Self.item(4, .fact, "Store the workspace in SQLite!")]
    let engine = try Self.engine(items)
    #expect(try Self.insights(engine, .possibleConflict).map(\.evidenceIDs) == [[sequentialID(1), sequentialID(2)]])
    let group = try Self.insights(engine, .nearDuplicates)
    #expect(group.map(\.evidenceIDs) == [(1...4).map(sequentialID)])
    #expect(
      group.first?.message.hasSuffix(
        "some of them contradict each other or may conflict (see those insights), so review them before merging any: keep one or reconcile them, or make the titles distinct."
      ) == true, "\(group)")
  }

  @Test("a numbered series is not a near-duplicate group; copies of one step still are")
  func numberedSeriesAreNotDuplicates() throws {
    let step = { (n: Int) in "Migration step \(n) of the storage rollout" }
    let series = [
      Self.item(1, .fact, step(2), tags: []),
      Self.item(2, .fact, step(10), tags: []),
      Self.item(3, .fact, step(12), tags: []),
      Self.item(4, .fact, "Storage engine design notes, section 1.2", tags: []),
      Self.item(5, .fact, "Storage engine design notes, section 1.10", tags: []),
    ]
    #expect(try Self.insights(Self.engine(series), .nearDuplicates).isEmpty)
    // A second copy of step 10 is a duplicate of it, and only of it.
    let copies = series + [Self.item(6, .fact, step(10) + ".", tags: [])]
    #expect(try Self.insights(Self.engine(copies), .nearDuplicates).map(\.evidenceIDs) == [[sequentialID(2), sequentialID(6)]])
    // Versions are values, not a series: release notes that differ only in the version group.
    let releases = [
      Self.item(1, .fact, "Release notes for the storage engine v1.2", tags: []),
      Self.item(2, .fact, "Release notes for the storage engine v1.10", tags: []),
    ]
    #expect(try Self.insights(Self.engine(releases), .nearDuplicates).map(\.evidenceIDs) == [[sequentialID(1), sequentialID(2)]])
  }

  struct StaleCase: CustomStringConvertible, Sendable {
    var name: String
    var ageDays: Double
    var newerCaptures: Int
    var expected: Priority?
    var description: String { name }
  }

  static let staleCases: [StaleCase] = [
    StaleCase(name: "fresh, nothing newer", ageDays: 1, newerCaptures: 0, expected: nil),
    StaleCase(name: "fresh, two newer captures", ageDays: 1, newerCaptures: 2, expected: .normal),
    StaleCase(name: "15 days old, nothing newer", ageDays: 15, newerCaptures: 0, expected: .normal),
    StaleCase(name: "exactly 14 days old is not yet stale", ageDays: 14, newerCaptures: 0, expected: nil),
    // Review 18-b B8: 14 days and 23 hours is older than 14 days (whole days said no).
    StaleCase(name: "14 days and 23 hours 50 minutes is stale", ageDays: 14 + (23 * 60 + 50) / 1440, newerCaptures: 0, expected: .normal),
    StaleCase(name: "14 days and 1 second is stale", ageDays: 14 + 1.0 / 86_400, newerCaptures: 0, expected: .normal),
    StaleCase(name: "old and newer captures", ageDays: 20, newerCaptures: 1, expected: .high),
  ]

  @Test("the active handoff is stale after newer captures or 14 days", arguments: staleCases)
  func staleHandoff(_ c: StaleCase) throws {
    let handoff = Handoff(id: sequentialID(50), focus: "Wire the digest", createdAt: Self.t0.addingTimeInterval(600))
    var items = [Self.item(1, .fact, "Before the handoff", minute: 1)]
    for i in 0..<c.newerCaptures { items.append(Self.item(10 + i, .fact, "After the handoff \(i)", minute: 20 + i)) }
    let now = handoff.createdAt.addingTimeInterval(c.ageDays * 86_400)
    let found = try Self.insights(Self.engine(items, handoff: handoff, now: now), .staleHandoff)
    #expect(found.map(\.priority) == (c.expected.map { [$0] } ?? []))
    if c.expected != nil {
      #expect(found.first?.evidenceIDs == [handoff.id] + (0..<c.newerCaptures).map { sequentialID(10 + $0) })
    }
  }

  @Test("open tasks with no supporting knowledge are one aggregate insight")
  func unsupportedTasks() throws {
    let k = Self.item(1, .decision, "Use SQLite")
    let tasks = [
      TaskItem(id: sequentialID(101), title: "Write the README", priority: .high, createdAt: Self.t0),
      TaskItem(id: sequentialID(102), title: "Benchmark", createdAt: Self.t0, knowledgeIDs: [k.id]),
      TaskItem(id: sequentialID(103), title: "Old and done", status: .completed, createdAt: Self.t0, completedAt: Self.t0),
      TaskItem(id: sequentialID(104), title: "Tidy up", createdAt: Self.t0),
    ]
    let found = try Self.insights(Self.engine([k], tasks: tasks), .unsupportedTasks)
    #expect(found.count == 1)
    #expect(found.first?.evidenceIDs == [sequentialID(101), sequentialID(104)])
    #expect(found.first?.message == "2 open tasks cite no supporting knowledge: \"Write the README\", \"Tidy up\"; link the decisions or facts they depend on.")
  }

  @Test("decisions and goals without relationships; facts are not asked to have any")
  func missingRelationships() throws {
    let a = Self.item(1, .decision, "Use SQLite")
    let b = Self.item(2, .fact, "SQLite is installed", relationships: [.init(kind: .supports, targetID: a.id)])
    let c = Self.item(3, .goal, "Ship 1.0")
    let d = Self.item(4, .fact, "Lonely fact")
    let found = try Self.insights(Self.engine([a, b, c, d]), .missingRelationships)
    #expect(found.map(\.evidenceIDs) == [[sequentialID(3)]])
    #expect(found.first?.priority == .low)
  }

  @Test("missing tags aggregate into one insight carrying at most 64 ids")
  func missingTagsAggregate() throws {
    let items = (1...100).map { Self.item($0, .fact, "Untagged fact number \($0) about topic \($0 * 7919 % 101)", tags: []) }
    let found = try Self.insights(Self.engine(items), .missingTags)
    #expect(found.count == 1)
    #expect(found.first?.evidenceIDs.count == 64)
    #expect(found.first?.message.hasPrefix("100 items have no tags: ") == true)
    #expect(found.first?.message.contains(" and 97 more;") == true)
    #expect(found.first?.evidenceTotal == 100)
    #expect(found.first?.evidenceTruncated == true)
  }

  @Test("review 19-c: missing-tags leaves out memory mirrors, which knowledge edit does not tag")
  func missingTagsLeavesOutMirrors() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let saved = try engine.saveMemory(text: "Tom prefers reviews in the afternoon")
    #expect(try Self.insights(engine, .missingTags).isEmpty)
    // The advice could not be followed: the mirror is not edited.
    #expect(throws: WorkspaceError.self) {
      try engine.editKnowledge(id: saved.mirror.id, KnowledgeEdit(addTags: ["team"]))
    }
    // An ordinary untagged item is still reported, alone.
    let plain = try engine.capture(CaptureRequest(kind: .fact, title: "Reviews happen on Tuesdays")).item
    let found = try Self.insights(engine, .missingTags)
    #expect(found.map(\.evidenceIDs) == [[plain.id]])
    #expect(found.first?.message.hasPrefix("1 item has no tags: \"Reviews happen on Tuesdays\"") == true, "\(found)")
  }

  @Test("review 28-b, 3: missing-tags leaves out an item another supersedes; its untagged successor is still asked")
  func missingTagsLeavesOutSuperseded() throws {
    let old = Self.item(1, .fact, "Old untagged fact", tags: [])
    let successor = Self.item(2, .fact, "New fact", tags: ["x"], relationships: [.init(kind: .supersedes, targetID: old.id)])
    #expect(try Self.insights(Self.engine([old, successor]), .missingTags).isEmpty)
    let untaggedSuccessor = Self.item(3, .fact, "Newer fact", tags: [], relationships: [.init(kind: .supersedes, targetID: successor.id)])
    let found = try Self.insights(Self.engine([old, successor, untaggedSuccessor]), .missingTags)
    #expect(found.map(\.evidenceIDs) == [[untaggedSuccessor.id]], "\(found)")
  }

  @Test("review 18-b B4: 80 unsupported open tasks cite 64 ids and say that 80 is the total")
  func unsupportedTasksEvidenceTotal() throws {
    let tasks = (1...80).map { TaskItem(id: sequentialID(100 + $0), title: "task \($0)", createdAt: Self.t0) }
    let insight = try #require(try Self.insights(Self.engine([], tasks: tasks), .unsupportedTasks).first)
    #expect(insight.message.hasPrefix("80 open tasks cite no supporting knowledge"), "\(insight.message)")
    #expect(insight.evidenceIDs.count == 64)
    #expect(insight.evidenceTotal == 80)
    #expect(insight.evidenceTruncated)
    // In JSON as well, beside the ids.
    let json = try #require(try JSONSerialization.jsonObject(with: StableJSON.encoder().encode(insight)) as? [String: Any])
    #expect(json["evidenceTotal"] as? Int == 80)
    #expect(json["evidenceTruncated"] as? Bool == true)
  }

  @Test("an insight under the cap cites all of its evidence: the total is the count, nothing truncated")
  func evidenceTotalUnderTheCap() throws {
    let tasks = (1...3).map { TaskItem(id: sequentialID(100 + $0), title: "task \($0)", createdAt: Self.t0) }
    let insight = try #require(try Self.insights(Self.engine([], tasks: tasks), .unsupportedTasks).first)
    #expect(insight.evidenceTotal == 3)
    #expect(!insight.evidenceTruncated)
  }

  @Test("an insight written before evidenceTotal existed decodes with its cited ids as the total")
  func insightDecodesWithoutTotal() throws {
    let old = #"{"rule":"missing-tags","priority":"low","message":"1 item has no tags","evidenceIDs":["\#(sequentialID(1).uuidString)"]}"#
    let insight = try StableJSON.decoder().decode(Insight.self, from: Data(old.utf8))
    #expect(insight.evidenceTotal == 1)
    #expect(!insight.evidenceTruncated)
  }

  @Test("review 18-b B6: a pair marked contradicts is one contradiction insight, not also near-duplicates to merge")
  func contradictingPairIsNotNearDuplicates() throws {
    let a = Self.item(1, .fact, "The API rate limit is 100 requests per minute", content: "Per key.")
    let b = Self.item(
      2, .fact, "The API rate limit is 500 requests per minute", content: "Per account.",
      relationships: [.init(kind: .contradicts, targetID: a.id)])
    let engine = try Self.engine([a, b])
    #expect(try Self.insights(engine, .contradiction).map(\.evidenceIDs) == [[a.id, b.id]])
    #expect(try Self.insights(engine, .nearDuplicates).isEmpty)
    // Without the relationship the two titles are near-duplicates.
    var plain = b
    plain.relationships = []
    #expect(try Self.insights(Self.engine([a, plain]), .nearDuplicates).map(\.evidenceIDs) == [[a.id, b.id]])
    // Review 19-c: copies of one of them are its near-duplicates, and the contradicting pair
    // joins their group through them: reviewed, not merged.
    let c = Self.item(3, .fact, "The API rate limit is 100 requests per minute.", tags: [])
    let d = Self.item(4, .fact, "The API rate limit is 100 requests per minute!", tags: [])
    let joined = try Self.insights(Self.engine([a, b, c, d]), .nearDuplicates)
    #expect(joined.map { Set($0.evidenceIDs) } == [[a.id, b.id, c.id, d.id]])
    #expect(joined.first?.message.contains("some of them contradict each other or may conflict") == true, "\(joined)")
  }

  @Test("review 19-c: an item in a contradicts pair keeps its near-duplicates among the other items")
  func contradictionWithThirdItemKeepsNearDuplicates() throws {
    // The review's reproduction: two rate limits, then a third item contradicting one of them.
    let a = Self.item(1, .fact, "API rate limit is 100 requests per minute per user", tags: ["api"])
    let b = Self.item(2, .fact, "API rate limit is 500 requests per minute per user", tags: ["api"], minute: 1)
    let before = try Self.insights(Self.engine([a, b]), .nearDuplicates)
    #expect(before.map(\.evidenceIDs) == [[a.id, b.id]])
    let c = Self.item(
      3, .fact, "Rate limits are per API key, not per user", tags: ["api"],
      relationships: [.init(kind: .contradicts, targetID: a.id)], minute: 2)
    let engine = try Self.engine([a, b, c])
    #expect(try Self.insights(engine, .contradiction).map(\.evidenceIDs) == [[a.id, c.id]])
    let after = try Self.insights(engine, .nearDuplicates)
    #expect(after == before, "the 100 / 500 pair is still reported, as it was")
    #expect(after.first?.message.contains("similarity up to 0.88") == true, "\(after)")
  }

  @Test("review 19-c: two items of one title that contradict each other are no group; a third copy joins both")
  func contradictingCopies() throws {
    let a = Self.item(1, .decision, "Deploy on Fridays", tags: [])
    let b = Self.item(2, .decision, "Deploy on Fridays", content: "Never.", tags: [], relationships: [.init(kind: .contradicts, targetID: a.id)])
    #expect(try Self.insights(Self.engine([a, b]), .nearDuplicates).isEmpty)
    let c = Self.item(3, .decision, "Deploy on Fridays!", tags: [])
    let unrelated = Self.item(4, .fact, "Standup notes", tags: [])
    // In any storage order: the copy links to each of them, never they to each other.
    for order in [[a, b, c, unrelated], [c, unrelated, a, b], [unrelated, c, b, a]] {
      let stored = order.filter(\.relationships.isEmpty) + order.filter { !$0.relationships.isEmpty }
      let group = try Self.insights(Self.engine(stored), .nearDuplicates)
      #expect(group.map(\.evidenceIDs) == [[a.id, b.id, c.id]], "\(group)")
      #expect(group.first?.message.contains("some of them contradict each other or may conflict") == true, "\(group)")
    }
  }

  @Test("review 18-b B8: a stale handoff's age is stated in days and hours")
  func staleHandoffAgeText() throws {
    let handoff = Handoff(id: sequentialID(50), focus: "Wire the digest", createdAt: Self.t0)
    let now = handoff.createdAt.addingTimeInterval(14 * 86_400 + 23 * 3_600 + 50 * 60)
    let found = try Self.insights(Self.engine([], handoff: handoff, now: now), .staleHandoff)
    #expect(found.first?.message.contains("it is 14 days and 23 hours old (older than 14 days)") == true, "\(found)")
    #expect(InsightRules.ageText(15 * 86_400) == "15 days")
    #expect(InsightRules.ageText(86_400 + 3_600) == "1 day and 1 hour")
    // Review 18-d: 14 days and 1 minute read "14 days old (older than 14 days)".
    #expect(InsightRules.ageText(14 * 86_400 + 60) == "14 days and 1 minute")
    #expect(InsightRules.ageText(14 * 86_400 + 150) == "14 days and 2 minutes")
    #expect(InsightRules.ageText(14 * 86_400 + 1) == "just over 14 days")
    #expect(InsightRules.ageText(14 * 86_400) == "14 days")
  }

  /// The review's workspace: numbered rollout steps, two ports and three cache lifetimes, all
  /// decisions tagged `rollout` with different content, stored with ids that disagree with the
  /// titles' order. The steps are one series (no insight); ports and lifetimes conflict.
  static let rolloutFixture: [KnowledgeItem] = [
    item(7, .decision, "Use port 8081 for the API", content: "Second instance.", tags: ["rollout"]),
    item(3, .decision, "Migration step 12 of the storage rollout", content: "Drop the JSON files.", tags: ["rollout"]),
    item(9, .decision, "Migration step 2 of the storage rollout", content: "Copy the records.", tags: ["rollout"]),
    item(1, .decision, "Use port 8080 for the API", content: "Default instance.", tags: ["rollout"]),
    item(5, .decision, "Migration step 10 of the storage rollout", content: "Switch reads over.", tags: ["rollout"]),
    item(11, .decision, "Cache entries for 120 minutes", content: "Long.", tags: ["rollout"]),
    item(13, .decision, "Cache entries for 30 minutes", content: "Middle.", tags: ["rollout"]),
    item(15, .decision, "Cache entries for 5 minutes", content: "Short.", tags: ["rollout"]),
  ]

  @Test("possible conflicts are ordered by similarity, then titles in natural order; each pair names its items in that order")
  func pairOrder() throws {
    let found = try Self.insights(Self.engine(Self.rolloutFixture), .possibleConflict)
    let title = Dictionary(uniqueKeysWithValues: Self.rolloutFixture.map { ($0.id, $0.title) })
    let pairs = found.map { $0.evidenceIDs.map { title[$0] ?? "?" } }
    let cache = { (n: Int) in "Cache entries for \(n) minutes" }
    let port = { (n: Int) in "Use port \(n) for the API" }
    // Within a pair: 5 before 30 and 120, 8080 before 8081 (never by id, nor by code units).
    for pair in pairs {
      #expect(pair.count == 2 && NaturalOrder.precedes(pair[0], pair[1]), "\(pairs)")
    }
    // Similarities 0.79, 0.77, 0.77 (the titles break the tie: 5 before 30), 0.74. The steps of
    // the migration are one numbered series: not a conflict, and not near-duplicates either.
    #expect(pairs == [[port(8080), port(8081)], [cache(5), cache(30)], [cache(30), cache(120)], [cache(5), cache(120)]])
    #expect(try Self.insights(Self.engine(Self.rolloutFixture), .nearDuplicates).isEmpty)
    // Between pairs: the similarity shown, highest first, then the titles in natural order.
    let similarity = found.map { insight -> Double in
      let text = insight.message.components(separatedBy: "trigram similarity ").last ?? ""
      return Double(text.prefix(4)) ?? -1
    }
    for i in found.indices.dropFirst() {
      let (a, b) = (similarity[i - 1], similarity[i])
      #expect(a > b || (a == b && NaturalOrder.precedes(pairs[i - 1].joined(separator: "\n"), pairs[i].joined(separator: "\n"))),
        "\(zip(similarity, pairs).map { "\($0) \($1)" })")
    }
    // Each message names the pair in the evidence order.
    for (insight, pair) in zip(found, pairs) {
      #expect(insight.message.contains("\"\(pair[0])\" and \"\(pair[1])\""), "\(insight.message)")
    }
  }

  @Test("the same titles under other ids give the insights in the same order")
  func pairOrderIgnoresIDs() throws {
    let reversed = Self.rolloutFixture.enumerated().map { i, item in
      var item = item
      item.id = sequentialID(100 - i * 7)
      return item
    }
    let messages = { (items: [KnowledgeItem]) in try Self.insights(Self.engine(items), .possibleConflict).map(\.message) }
    #expect(try messages(reversed) == messages(Self.rolloutFixture))
  }

  @Test("near-duplicate groups: larger first, then closer titles, then the first title in natural order")
  func groupOrder() throws {
    // Ids disagree with the titles' order on purpose.
    let items = [
      Self.item(1, .fact, "Weekly sync notes", tags: []),
      Self.item(2, .fact, "Weekly sync notes", tags: []),
      Self.item(3, .fact, "Standup agenda items", tags: []),
      Self.item(4, .fact, "Standup agenda items", tags: []),
      Self.item(5, .fact, "Archive the old server logs", tags: []),
      Self.item(6, .fact, "Archive the old server log", tags: []),
      Self.item(8, .fact, "Release checklist for builds", tags: []),
      Self.item(9, .fact, "Release checklist for builds", tags: []),
      Self.item(10, .fact, "Release checklist for builds", tags: []),
    ]
    let found = try Self.insights(Self.engine(items), .nearDuplicates)
    #expect(
      found.map(\.evidenceIDs) == [
        [sequentialID(8), sequentialID(9), sequentialID(10)],  // three items
        [sequentialID(3), sequentialID(4)],  // 1.00, "Standup…" before "Weekly…"
        [sequentialID(1), sequentialID(2)],
        [sequentialID(6), sequentialID(5)],  // below 1.00; "…log" before "…logs"
      ], "\(found.map(\.message))")
  }

  @Test("at most 25 insights in a stable order, with the total")
  func capAndOrder() throws {
    var items: [KnowledgeItem] = []
    for i in 0..<30 {
      let a = Self.item(1000 + 2 * i, .fact, "Claim \(i) alpha\(i)")
      let b = Self.item(1001 + 2 * i, .fact, "Counter \(i) beta\(i)", relationships: [.init(kind: .contradicts, targetID: a.id)])
      items += [a, b]
    }
    items.append(Self.item(1, .goal, "Lonely goal", tags: []))
    let engine = try Self.engine(items)
    let report = try engine.insights()
    #expect(report.insights.count == Limits.insights)
    #expect(report.total == 32)
    #expect(report.truncated)
    #expect(report.method == "rule-based")
    #expect(report.insights.allSatisfy { $0.rule == .contradiction })
    let firsts = report.insights.map { $0.evidenceIDs[0].uuidString }
    #expect(firsts == firsts.sorted())
    #expect(try engine.insights() == report)
    let high = try engine.insights(minimumPriority: .high)
    #expect(high.total == 30)
    #expect(try engine.insights(minimumPriority: .critical).insights.isEmpty)
  }

  /// Every rule fires on this fixture: a contradiction, a possible conflict, a near-duplicate
  /// group, a stale handoff, an unsupported task, a decision without relationships, an item
  /// without tags (and, with the test's tasks, duplicate tasks and a task resting on a
  /// superseded item).
  static let orderFixture: [KnowledgeItem] = [
    item(1, .decision, "Store the workspace in SQLite", content: "WAL mode.", tags: ["storage"]),
    item(2, .decision, "Store the workspace in SQLite", content: "Rollback journal.", tags: ["storage"], minute: 1),
    item(3, .fact, "SQLite 3.40 is installed on the build machine", minute: 2),
    item(4, .fact, "sqlite 3.40 is installed on the build machines", minute: 3),
    item(5, .fact, "SQLITE 3.40 IS INSTALLED ON THE BUILD MACHINE!", minute: 4),
    item(6, .preference, "Tabs for indentation", content: "Width four.", tags: ["style"], minute: 5),
    item(7, .preference, "Spaces for indentation", content: "Two spaces.", tags: ["style"], minute: 6),
    item(8, .goal, "Ship 1.0 in March", tags: [], minute: 7),
    item(9, .insight, "Bounded digests stay cheap", relationships: [.init(kind: .contradicts, targetID: sequentialID(3))], minute: 8),
    item(10, .context, "Standup notes from Monday", tags: [], minute: 9),
    item(11, .code, "Écrire le résumé des décisions", minute: 10),
    item(12, .fact, "The build machine runs Debian 12", minute: 11),
    item(13, .fact, "The build machine runs Debian 13", relationships: [.init(kind: .supersedes, targetID: sequentialID(12))], minute: 12),
  ]

  @Test("the same items stored in another order give the same report", arguments: [
    [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0], [5, 0, 10, 3, 12, 8, 1, 6, 9, 11, 2, 7, 4],
    [1, 0, 4, 3, 2, 11, 6, 5, 8, 7, 12, 10, 9],
  ])
  func orderIndependent(_ order: [Int]) throws {
    let handoff = Handoff(id: sequentialID(200), focus: "Storage", createdAt: Self.t0.addingTimeInterval(150))
    let tasks = [
      TaskItem(id: sequentialID(300), title: "Benchmark the digest", createdAt: Self.t0),
      TaskItem(id: sequentialID(301), title: "Benchmark the digest", createdAt: Self.t0),
      TaskItem(id: sequentialID(302), title: "Upgrade the build machine", createdAt: Self.t0, knowledgeIDs: [sequentialID(12)]),
    ]
    let reference = try Self.engine(Self.orderFixture, tasks: tasks, handoff: handoff).insights()
    // An item's relationship targets must exist first: items with relationships go last.
    let items = order.map { Self.orderFixture[$0] }
    let storeOrder = items.filter(\.relationships.isEmpty) + items.filter { !$0.relationships.isEmpty }
    let permuted = try Self.engine(storeOrder, tasks: tasks.reversed(), handoff: handoff).insights()
    #expect(Set(reference.insights.map(\.rule)) == Set(InsightRule.allCases))
    #expect(permuted == reference)
    #expect(try StableJSON.string(permuted) == StableJSON.string(reference))
  }

  @Test("stored tag arrays split into their elements, escapes kept")
  func tagElements() throws {
    let json = try StableJSON.string(["storage", "say \"hi\"", "a,b", "ünï"])
    #expect(InsightRules.jsonArrayElements(json) == ["\"storage\"", "\"say \\\"hi\\\"\"", "\"a,b\"", "\"ünï\""])
    #expect(InsightRules.jsonArrayElements("[]").isEmpty)
  }

  @Test("insights write nothing")
  func readOnly() throws {
    let engine = try Self.engine([Self.item(1, .decision, "Use SQLite", tags: [])])
    let before = try engine.store.read { tx in try tx.snapshot() }
    _ = try engine.insights()
    #expect(try engine.store.read { tx in try tx.snapshot() } == before)
  }
}
