import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// A fixed workspace: knowledge, tasks and a handoff with fixed ids and dates.
enum DigestFixture {
  static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

  static func item(
    _ n: Int, _ kind: KnowledgeKind, _ title: String, content: String = "", tags: [String] = [],
    priority: Priority = .normal, minute: Int = 0
  ) -> KnowledgeItem {
    KnowledgeItem(
      id: sequentialID(n), kind: kind, title: title, content: content, tags: tags, priority: priority,
      createdAt: t0.addingTimeInterval(Double(minute) * 60))
  }

  static let knowledge: [KnowledgeItem] = [
    item(1, .decision, "Use SQLite for the workspace", content: "WAL mode and single-row writes. Proven atomic commit.", tags: ["storage"], priority: .high),
    item(2, .decision, "Keep the CLI thin", content: "Parse, call, render."),
    item(3, .preference, "Prefer Swift Testing over XCTest", content: "Parameterized cases read well.", tags: ["testing"]),
    item(4, .goal, "Ship 1.0 before March?", priority: .critical, minute: 3),
    item(5, .fact, "SQLite 3.40 is installed", minute: 5),
    item(6, .context, "Standup notes", content: "Discussed the digest.\nNext: handoffs.", minute: 7),
    item(7, .insight, "Digests are cheap when bounded in SQL", minute: 7),
    item(8, .code, "Écrire le résumé", content: "Unicode titles sort by their UTF-8 bytes.", minute: 9),
    item(9, .fact, "Which tokenizer folds diacritics", tags: ["question"], minute: 2),
  ]

  static let tasks: [TaskItem] = [
    TaskItem(id: sequentialID(101), title: "Write the README", priority: .high, createdAt: t0, knowledgeIDs: [sequentialID(1)]),
    TaskItem(id: sequentialID(102), title: "Benchmark the digest", createdAt: t0.addingTimeInterval(60)),
    TaskItem(id: sequentialID(103), title: "Done already", status: .completed, createdAt: t0, completedAt: t0),
  ]

  static let handoff = Handoff(
    id: sequentialID(201), focus: "Digest determinism", knowledgeIDs: [sequentialID(1)], createdAt: t0.addingTimeInterval(600))

  /// A store holding the fixture, inserted in `order` (a permutation of the knowledge indices).
  static func store(order: [Int], taskOrder: [Int] = [0, 1, 2]) throws -> SQLiteWorkspaceStore {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      for i in order { try tx.insertKnowledge(knowledge[i]) }
      for i in taskOrder { try tx.insertTask(tasks[i]) }
      try tx.insertHandoff(handoff)
      try tx.setActiveHandoffID(handoff.id)
    }
    return store
  }
}

@Suite("Digest builder")
struct DigestBuilderTests {
  struct OrderCase: CustomStringConvertible, Sendable {
    var name: String
    var knowledge: [Int]
    var tasks: [Int]
    var description: String { name }
  }

  static let orders: [OrderCase] = [
    OrderCase(name: "reverse", knowledge: Array((0..<9).reversed()), tasks: [2, 1, 0]),
    OrderCase(name: "interleaved", knowledge: [4, 0, 8, 2, 6, 1, 7, 3, 5], tasks: [1, 2, 0]),
    OrderCase(name: "kinds last to first", knowledge: [7, 6, 4, 8, 3, 2, 1, 0, 5], tasks: [0, 2, 1]),
  ]

  @Test("the same content captured in a different order gives the same digest", arguments: orders)
  func orderIndependent(_ c: OrderCase) throws {
    let reference = try DigestFixture.store(order: Array(0..<9))
    let permuted = try DigestFixture.store(order: c.knowledge, taskOrder: c.tasks)
    let a = try KnowledgeEngine(store: reference).projectContext()
    let b = try KnowledgeEngine(store: permuted).projectContext()
    #expect(a == b)
    #expect(try StableJSON.string(a) == StableJSON.string(b))
  }

  @Test("the sections of the fixture, line by line")
  func exactSections() throws {
    let c = try KnowledgeEngine(store: DigestFixture.store(order: Array(0..<9))).projectContext()
    let s = c.sections
    #expect(c.method == "rule-based")
    #expect(c.algorithm == "rule-based-digest")
    #expect(c.algorithmVersion == "12")
    // Priority first, then the newest first (both decisions are of one age here).
    #expect(s.decisions.map(\.text) == [
      "Use SQLite for the workspace [high] — WAL mode and single-row writes.",
      "Keep the CLI thin — Parse, call, render.",
    ])
    #expect(s.decisions.map(\.evidenceIDs) == [[sequentialID(1)], [sequentialID(2)]])
    #expect(s.goals.map(\.text) == ["Ship 1.0 before March? [critical]"])
    #expect(s.openTasks.map(\.text) == ["Write the README [high]", "Benchmark the digest"])
    #expect(s.openTasks[0].evidenceIDs == [sequentialID(101), sequentialID(1)])
    // The active handoff first, then the newest context/fact/insight/code items.
    #expect(s.recentContext.map(\.text) == [
      "Active handoff: Digest determinism",
      "code: Écrire le résumé — Unicode titles sort by their UTF-8 bytes.",
      "insight: Digests are cheap when bounded in SQL",
      "context: Standup notes — Discussed the digest.",
      "fact: SQLite 3.40 is installed",
      "fact: Which tokenizer folds diacritics",
    ])
    #expect(s.priorities.map(\.text) == [
      "Critical goal: Ship 1.0 before March?", "High decision: Use SQLite for the workspace", "High task: Write the README",
    ])
    #expect(s.questions.map(\.text) == [
      "Open question: Ship 1.0 before March?", "Open question: Which tokenizer folds diacritics",
    ])
  }

  @Test("every evidence id resolves to a knowledge item, task or handoff")
  func evidenceResolves() throws {
    let store = try DigestFixture.store(order: Array(0..<9))
    let digest = try KnowledgeEngine(store: store, environment: fixedEnvironment()).saveDigest()
    #expect(!digest.evidenceIDs.isEmpty)
    try store.read { tx in
      for id in digest.evidenceIDs {
        let found = try tx.knowledge(id: id) != nil || tx.task(id: id) != nil || tx.handoff(id: id) != nil
        #expect(found, "\(id) does not resolve")
      }
      #expect(try tx.digests(citing: sequentialID(1)) == [digest.id])
    }
    #expect(digest.trigger == .manual)
  }

  @Test("the transaction builder and the pure builder agree")
  func sqlMatchesPure() throws {
    let store = try DigestFixture.store(order: Array(0..<9))
    let fromStore = try store.read { tx in try DigestBuilder.sections(tx) }
    let pure = DigestBuilder.build(
      knowledge: DigestFixture.knowledge, openTasks: DigestFixture.tasks, activeHandoff: DigestFixture.handoff,
      id: sequentialID(999), now: DigestFixture.t0, trigger: .manual)
    #expect(fromStore == pure.sections)
  }

  struct BoundCase: CustomStringConvertible, Sendable {
    var name: String
    var kind: KnowledgeKind?
    var count: Int
    var section: String
    var shown: Int
    var marker: String
    var description: String { name }
  }

  static let bounds: [BoundCase] = [
    BoundCase(name: "20 decisions", kind: .decision, count: 20, section: "decisions", shown: 8, marker: "… and 12 more decisions (not shown)"),
    BoundCase(name: "9 goals", kind: .goal, count: 9, section: "goals", shown: 8, marker: "… and 1 more goal (not shown)"),
    BoundCase(name: "8 preferences (no marker)", kind: .preference, count: 8, section: "preferences", shown: 8, marker: ""),
    BoundCase(name: "15 open tasks", kind: nil, count: 15, section: "openTasks", shown: 10, marker: "… and 5 more open tasks (not shown)"),
    BoundCase(name: "10 facts", kind: .fact, count: 10, section: "recentContext", shown: 6, marker: "… and 4 more older items (not shown)"),
    BoundCase(name: "7 facts", kind: .fact, count: 7, section: "recentContext", shown: 6, marker: "… and 1 more older item (not shown)"),
    BoundCase(name: "11 open tasks", kind: nil, count: 11, section: "openTasks", shown: 10, marker: "… and 1 more open task (not shown)"),
    BoundCase(name: "9 questions", kind: .context, count: 9, section: "questions", shown: 6, marker: "… and 3 more open questions (not shown)"),
  ]

  @Test("sections stay within their caps and count what they leave out, in omitted, not as a line", arguments: bounds)
  func sectionBounds(_ c: BoundCase) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      for i in 0..<c.count {
        if let kind = c.kind {
          let title = c.section == "questions" ? "Question \(i)?" : "Item \(i)"
          try tx.insertKnowledge(DigestFixture.item(i + 1, kind, title, minute: i))
        } else {
          try tx.insertTask(TaskItem(id: sequentialID(i + 1), title: "Task \(i)", createdAt: DigestFixture.t0))
        }
      }
    }
    let s = try KnowledgeEngine(store: store).projectContext().sections
    let lines = try #require(s.named.first { $0.name == c.section }?.lines)
    // Review 18-b B10: every line quotes a record; the count of the rest is a field.
    #expect(lines.count == c.shown)
    #expect(lines.allSatisfy { $0.evidenceIDs.count >= 1 })
    #expect(s.omitted.marker(for: c.section) == (c.marker.isEmpty ? nil : c.marker))
    #expect(s.omitted[section: c.section] == c.count - c.shown)
    let json = try #require(try JSONSerialization.jsonObject(with: StableJSON.encoder().encode(s)) as? [String: Any])
    let omitted = try #require(json["omitted"] as? [String: Int])
    #expect(omitted[c.section] == (c.marker.isEmpty ? nil : c.count - c.shown), "\(omitted)")
  }

  @Test("review 18-b B10: a digest stored with a marker line loads with the line as the section's count")
  func legacyMarkerLinesLoad() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      for i in 0..<15 { try tx.insertTask(TaskItem(id: sequentialID(i + 1), title: "Task \(i)", createdAt: DigestFixture.t0)) }
    }
    // As version 6 stored it: ten task lines, then the marker line with no evidence.
    let old = (0..<10).map { DigestLine(text: "Task \($0)", evidenceIDs: [sequentialID($0 + 1)]) }
      + [DigestLine(text: "… and 5 more open tasks (not shown)", evidenceIDs: [])]
    let oldQuestions = [DigestLine(text: "… and 1 more open question (not shown)", evidenceIDs: [])]
    let stored = Digest(
      id: sequentialID(900), createdAt: DigestFixture.t0, trigger: .manual,
      sections: DigestSections(openTasks: old, questions: oldQuestions), algorithm: "rule-based-digest", algorithmVersion: "6")
    try store.write { tx in try tx.insertDigest(stored) }
    let loaded = try #require(try store.read { tx in try tx.digest(id: stored.id) })
    #expect(loaded.sections.openTasks == Array(old.prefix(10)))
    #expect(loaded.sections.omitted.openTasks == 5)
    #expect(loaded.sections.questions.isEmpty)
    #expect(loaded.sections.omitted.questions == 1)
    // A line that only looks like a marker but cites a record stays a line.
    let cited = DigestLine(text: "… and 5 more open tasks (not shown)", evidenceIDs: [sequentialID(1)])
    let json = try StableJSON.encoder().encode(DigestSections(openTasks: [cited]))
    let decoded = try StableJSON.decoder().decode(DigestSections.self, from: json)
    #expect(decoded.openTasks == [cited])
    #expect(decoded.omitted.isEmpty)
    // What a fresh digest of the same workspace says; it also records what each line is about
    // (version 11), which a version-6 line did not.
    let fresh = try KnowledgeEngine(store: store).projectContext().sections
    #expect(fresh.openTasks.map { DigestLine(text: $0.text, evidenceIDs: $0.evidenceIDs) } == loaded.sections.openTasks)
    #expect(fresh.openTasks.allSatisfy { $0.evidenceTotal == 1 })
    #expect(loaded.sections.openTasks.allSatisfy { $0.evidenceTotal == nil })
    #expect(fresh.omitted.openTasks == loaded.sections.omitted.openTasks)
  }

  @Test("review 18-b B11: a question titled \"Open question: …\" is not prefixed twice")
  func questionPrefixOnce() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(DigestFixture.item(1, .fact, "Open question: which license", tags: ["question"]))
      try tx.insertKnowledge(DigestFixture.item(2, .fact, "open question: who reviews", tags: ["question"], minute: 1))
      try tx.insertKnowledge(DigestFixture.item(3, .fact, "Which license", tags: ["question"], minute: 2))
    }
    let questions = try KnowledgeEngine(store: store).projectContext().sections.questions.map(\.text)
    // The newest first (digest version 8).
    #expect(questions == ["Open question: Which license", "open question: who reviews", "Open question: which license"])
    // Review 18-d: other punctuation after the words, and the plural, are the prefix too.
    #expect(DigestBuilder.questionText("Open Question - dash?") == "Open Question - dash?")
    #expect(DigestBuilder.questionText("Open questions: X") == "Open questions: X")
    #expect(DigestBuilder.questionText("open question") == "open question")
    #expect(DigestBuilder.questionText("Open questionnaire review") == "Open question: Open questionnaire review")
  }

  struct QuestionCase: CustomStringConvertible, Sendable {
    var title: String
    var isQuestion: Bool
    var description: String { title }
  }

  /// Review 23-a, 7: titles ending in the question mark of another script landed in recent
  /// context only.
  static let questionCases = [
    QuestionCase(title: "Which database?", isQuestion: true),
    QuestionCase(title: "¿Usamos Postgres?", isQuestion: true),
    QuestionCase(title: "我们应该使用什么数据库？", isQuestion: true),
    QuestionCase(title: "データベースはどれを使う？", isQuestion: true),
    QuestionCase(title: "هل نستخدم Postgres؟", isQuestion: true),
    QuestionCase(title: "Is this sarcasm⸮", isQuestion: true),
    QuestionCase(title: "Small form﹖", isQuestion: true),
    QuestionCase(title: "Ποια βάση δεδομένων\u{037E}", isQuestion: true),
    QuestionCase(title: "Ποια βάση δεδομένων;", isQuestion: true),
    QuestionCase(title: "Which one?\u{3000}", isQuestion: true),
    QuestionCase(title: "Use tabs; not spaces;", isQuestion: false),
    QuestionCase(title: "TNF-α dose 10 mg;", isQuestion: false),
    QuestionCase(title: "Use SQLite WAL mode", isQuestion: false),
    QuestionCase(title: "Why not ¿", isQuestion: false),
    // Review 31-a, 10: closing quotes and brackets after the question mark.
    QuestionCase(title: "What about \"quotes?\"", isQuestion: true),
    QuestionCase(title: "Is it fast?)", isQuestion: true),
    QuestionCase(title: "Ask legal: «Can we ship?»", isQuestion: true),
    QuestionCase(title: "どれを使う？」", isQuestion: true),
    QuestionCase(title: "Rename the \"Why\" section", isQuestion: false),
    QuestionCase(title: "Keep (for now)", isQuestion: false),
  ]

  @Test("a title ending in a question mark of any script is an open question", arguments: questionCases)
  func questionMarks(_ c: QuestionCase) throws {
    #expect(DigestBuilder.isQuestionTitle(c.title) == c.isQuestion)
    // Through capture (which applies NFC: U+037E is stored as `;`) and the digest.
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    let item = try engine.capture(CaptureRequest(kind: .fact, title: c.title)).item
    let questions = try engine.projectContext().sections.questions
    #expect(questions.map(\.evidenceIDs) == (c.isQuestion ? [[item.id]] : []), "\(item.title)")
  }

  @Test("long text is cut to the line limit with the truncation marker")
  func lineLimit() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      try tx.insertKnowledge(
        DigestFixture.item(1, .decision, String(repeating: "t", count: 300), content: String(repeating: "c", count: 1000)))
    }
    let line = try #require(try KnowledgeEngine(store: store).projectContext().sections.decisions.first)
    #expect(line.text.count == DigestBuilder.lineLimit)
    #expect(line.text.hasSuffix(Truncation.marker))
  }

  @Test("the fifth capture stores a digest inside its transaction; the fourth does not")
  func fifthCapture() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    for i in 1...4 {
      let r = try engine.capture(CaptureRequest(kind: .fact, title: "Fact \(i)"))
      #expect(r.digest == nil)
      #expect(try store.read { tx in try tx.digestCount() } == 0)
    }
    let fifth = try engine.capture(CaptureRequest(kind: .fact, title: "Fact 5"))
    let digest = try #require(fifth.digest)
    #expect(digest.trigger == .captureThreshold(count: 5))
    #expect(try engine.listDigests() == [digest])
    #expect(digest.sections.recentContext.count == 5)
    // A mirrored memory save counts too: the tenth item is a mirror.
    for i in 6...9 { _ = try engine.capture(CaptureRequest(kind: .fact, title: "Fact \(i)")) }
    let saved = try engine.saveMemory(text: "Remember the tenth")
    #expect(saved.digest?.trigger == .captureThreshold(count: 10))
  }

  @Test("computing the context writes nothing; saving stores one manual digest")
  func contextIsReadOnly() throws {
    let store = try DigestFixture.store(order: Array(0..<9))
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let before = try store.read { tx in try tx.snapshot() }
    _ = try engine.projectContext()
    #expect(try store.read { tx in try tx.snapshot() } == before)
    let saved = try engine.saveDigest()
    #expect(saved.sections == (try engine.projectContext().sections))
    #expect(try engine.listDigests().map(\.trigger) == [.manual])
  }
}
