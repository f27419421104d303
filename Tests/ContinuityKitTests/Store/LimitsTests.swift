import ContinuityKit
import Foundation
import Testing
import TestSupport

/// One bound: a value at the limit is accepted, one past it is rejected with the field, the
/// limit and the given size, and nothing is written.
struct BoundCase: CustomStringConvertible, Sendable {
  var name: String
  var field: String
  var limit: Int
  var actual: Int
  /// Builds and inserts a record of size `n` into the store.
  var write: @Sendable (WorkspaceTransaction, Int) throws -> Void
  var count: @Sendable (WorkspaceTransaction) throws -> Int
  var description: String { name }
}

func chars(_ n: Int) -> String { String(repeating: "é", count: n) }  // 1 Character, 2 UTF-8 bytes each

let boundCases: [BoundCase] = [
  BoundCase(name: "knowledge title", field: "title", limit: 300, actual: 301,
            write: { tx, n in try tx.insertKnowledge(item(1, title: chars(n))) }, count: { try $0.knowledgeCount() }),
  BoundCase(name: "knowledge content", field: "content", limit: 16_000, actual: 16_001,
            write: { tx, n in try tx.insertKnowledge(item(1, content: chars(n))) }, count: { try $0.knowledgeCount() }),
  BoundCase(name: "tag count", field: "tags", limit: 16, actual: 17,
            write: { tx, n in try tx.insertKnowledge(item(1, tags: (0..<n).map { "t\($0)" })) }, count: { try $0.knowledgeCount() }),
  BoundCase(name: "tag length", field: "tags[0]", limit: 48, actual: 49,
            write: { tx, n in try tx.insertKnowledge(item(1, tags: [chars(n)])) }, count: { try $0.knowledgeCount() }),
  BoundCase(name: "relationships", field: "relationships", limit: 32, actual: 33,
            write: { tx, n in
              for i in 0..<n { try tx.insertKnowledge(item(100 + i)) }
              try tx.insertKnowledge(item(1, relationships: (0..<n).map { KnowledgeRelationship(kind: .relatesTo, targetID: sequentialID(100 + $0)) }))
            }, count: { try $0.knowledgeCount() }),
  BoundCase(name: "memory text", field: "text", limit: 16_000, actual: 16_001,
            write: { tx, n in try tx.insertMemory(MemoryItem(id: sequentialID(1), text: chars(n), createdAt: t0)) }, count: { try $0.memoryCount() }),
  BoundCase(name: "task title", field: "title", limit: 300, actual: 301,
            write: { tx, n in try tx.insertTask(TaskItem(id: sequentialID(1), title: chars(n), createdAt: t0)) }, count: { try $0.taskCount() }),
  BoundCase(name: "task notes", field: "notes", limit: 4_000, actual: 4_001,
            write: { tx, n in try tx.insertTask(TaskItem(id: sequentialID(1), title: "t", notes: chars(n), createdAt: t0)) }, count: { try $0.taskCount() }),
  BoundCase(name: "handoff focus", field: "focus", limit: 300, actual: 301,
            write: { tx, n in try tx.insertHandoff(Handoff(id: sequentialID(1), focus: chars(n), createdAt: t0)) }, count: { try $0.handoffCount() }),
  BoundCase(name: "handoff summary", field: "summary", limit: 4_000, actual: 4_001,
            write: { tx, n in try tx.insertHandoff(Handoff(id: sequentialID(1), focus: "f", summary: chars(n), createdAt: t0)) }, count: { try $0.handoffCount() }),
  BoundCase(name: "handoff next steps", field: "nextSteps", limit: 12, actual: 13,
            write: { tx, n in try tx.insertHandoff(Handoff(id: sequentialID(1), focus: "f", nextSteps: (0..<n).map { "s\($0)" }, createdAt: t0)) }, count: { try $0.handoffCount() }),
  BoundCase(name: "handoff next step length", field: "nextSteps[0]", limit: 300, actual: 301,
            write: { tx, n in try tx.insertHandoff(Handoff(id: sequentialID(1), focus: "f", nextSteps: [chars(n)], createdAt: t0)) }, count: { try $0.handoffCount() }),
  BoundCase(name: "handoff excerpts", field: "recentExcerpts", limit: 12, actual: 13,
            write: { tx, n in try tx.insertHandoff(Handoff(id: sequentialID(1), focus: "f", recentExcerpts: (0..<n).map { "e\($0)" }, createdAt: t0)) }, count: { try $0.handoffCount() }),
  BoundCase(name: "handoff excerpt length", field: "recentExcerpts[0]", limit: 500, actual: 501,
            write: { tx, n in try tx.insertHandoff(Handoff(id: sequentialID(1), focus: "f", recentExcerpts: [chars(n)], createdAt: t0)) }, count: { try $0.handoffCount() }),
  BoundCase(name: "handoff knowledge ids", field: "knowledgeIDs", limit: 64, actual: 65,
            write: { tx, n in
              for i in 0..<n { try tx.insertKnowledge(item(100 + i)) }
              try tx.insertHandoff(Handoff(id: sequentialID(1), focus: "f", knowledgeIDs: (0..<n).map { sequentialID(100 + $0) }, createdAt: t0))
            }, count: { try $0.handoffCount() }),
  BoundCase(name: "task knowledge ids", field: "knowledgeIDs", limit: 64, actual: 65,
            write: { tx, n in
              for i in 0..<n { try tx.insertKnowledge(item(100 + i)) }
              try tx.insertTask(TaskItem(id: sequentialID(1), title: "t", createdAt: t0, knowledgeIDs: (0..<n).map { sequentialID(100 + $0) }))
            }, count: { try $0.taskCount() }),
]

@Suite("Bounds")
struct LimitsTests {
  @Test("rejected one past the limit, naming field, limit and size; nothing written", arguments: boundCases)
  func rejectedPastLimit(_ c: BoundCase) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    do {
      try store.write { tx in try c.write(tx, c.actual) }
      Issue.record("\(c.name): \(c.actual) should be rejected")
    } catch let WorkspaceError.validation(e) {
      #expect(e.field == c.field)
      #expect(e.limit == c.limit)
      #expect(e.actual == c.actual)
      #expect(e.message.contains("\(c.actual)") && e.message.contains("\(c.limit)"))
    }
    #expect(try store.read { try c.count($0) } == 0)
    #expect(try store.read { try $0.knowledgeCount() } == 0)
  }

  @Test("accepted at the limit", arguments: boundCases)
  func acceptedAtLimit(_ c: BoundCase) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in try c.write(tx, c.limit) }
    #expect(try store.read { try c.count($0) } >= 1)
  }

  @Test("lengths count Characters, not bytes or UTF-16 units")
  func charactersNotBytes() throws {
    // 1 Character, 25 UTF-8 bytes, 11 UTF-16 units, 7 Unicode scalars (within the 10 per
    // character that the scalar bound allows).
    let family = "👨‍👩‍👧‍👦"
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in try tx.insertKnowledge(item(1, title: String(repeating: family, count: 300))) }
    #expect(try store.read { try $0.knowledgeCount() } == 1)
  }

  /// Text as people write it, at a field's character limit: within its Unicode scalar bound.
  struct OrdinaryCase: CustomTestStringConvertible, Sendable {
    var name: String
    var character: String
    var testDescription: String { name }
  }

  @Test("ordinary text at the character limit is within the Unicode scalar bound", arguments: [
    OrdinaryCase(name: "emoji with a skin tone (2 scalars)", character: "👍🏽"),
    OrdinaryCase(name: "flag (2 scalars)", character: "🇫🇷"),
    OrdinaryCase(name: "England's flag (7 scalars)", character: "🏴󠁧󠁢󠁥󠁮󠁧󠁿"),
    OrdinaryCase(name: "family of four (7 scalars)", character: "👨‍👩‍👧‍👦"),
    OrdinaryCase(name: "woman running facing right with a skin tone (8 scalars)", character: "\u{1F3C3}\u{1F3FD}\u{200D}\u{2640}\u{FE0F}\u{200D}\u{27A1}\u{FE0F}"),
    OrdinaryCase(name: "kiss of two people with skin tones (10 scalars, the longest RGI emoji)", character: LimitsTests.kiss),
    OrdinaryCase(name: "Devanagari conjunct (4 scalars)", character: "क्षि"),
    OrdinaryCase(name: "decomposed accented letter (2 scalars)", character: "e\u{301}"),
    OrdinaryCase(name: "Hangul syllable in jamo (3 scalars)", character: "\u{1112}\u{1161}\u{11AB}"),
  ])
  func ordinaryTextWithinScalarBound(_ c: OrdinaryCase) throws {
    #expect(c.character.count == 1)
    let title = String(repeating: c.character, count: Limits.title)
    try Limits.check("title", title, limit: Limits.title)
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in try tx.insertKnowledge(item(1, title: title)) }
    #expect(try store.read { try $0.knowledgeCount() } == 1)
  }

  @Test("a title of one character carrying 60,000 combining marks is refused, naming title, the limit and the size")
  func combiningMarksCannotEvadeTheTitleBound() throws {
    let title = "e" + String(repeating: "\u{301}", count: 60_000)  // 1 Character, 120,001 bytes
    #expect(title.count == 1)
    let expected = ValidationError(
      field: "title", limit: 3_000, actual: 60_001,
      message: "title is 1 character but 60001 Unicode scalars (each combining mark, joiner or modifier counts "
        + "as one); the limit is 300 characters and at most 3000 Unicode scalars in all (10 per character)")
    #expect(throws: expected) { try Limits.check("title", title, limit: Limits.title) }
    #expect(throws: expected) { _ = try Limits.sanitizedInput("title", title, limit: Limits.title, trimming: true) }
    let store = SQLiteWorkspaceStore.inMemory()
    #expect(throws: WorkspaceError.validation(expected)) {
      try store.write { tx in try tx.insertKnowledge(item(1, title: title)) }
    }
    #expect(try store.read { try $0.knowledgeCount() } == 0)
  }

  @Test("the Unicode scalar bound is 10 per allowed character: at it accepted, one past refused")
  func unicodeScalarBoundEdge() throws {
    #expect(Limits.unicodeScalarsPerCharacter == 10)
    #expect(Limits.unicodeScalarLimit(forCharacters: Limits.title) == 3_000)
    #expect(Limits.inputBytesPerCharacter == 40)
    let marks = { (n: Int) in "e" + String(repeating: "\u{301}", count: n - 1) }
    try Limits.check("title", marks(3_000), limit: Limits.title)
    #expect(throws: ValidationError.self) { try Limits.check("title", marks(3_001), limit: Limits.title) }
    // Within the scalar bound, but over the character limit: the character limit is named.
    #expect(throws: ValidationError.tooLong("title", limit: 300, actual: 301)) {
      try Limits.check("title", String(repeating: "a", count: 301), limit: Limits.title)
    }
  }

  /// The RGI emoji with the most Unicode scalars (Unicode's emoji-zwj-sequences.txt): a kiss or
  /// a couple with heart of two people with skin tones, here `kiss: woman, man, light skin tone,
  /// dark skin tone` (U+1F469 U+1F3FB U+200D U+2764 U+FE0F U+200D U+1F48B U+200D U+1F468
  /// U+1F3FF).
  static let kiss = "\u{1F469}\u{1F3FB}\u{200D}\u{2764}\u{FE0F}\u{200D}\u{1F48B}\u{200D}\u{1F468}\u{1F3FF}"

  @Test("every text field filled to its character limit with the longest RGI emoji (10 Unicode scalars) is accepted")
  func longestEmojiAtEveryCharacterLimit() throws {
    #expect(Self.kiss.count == 1 && Self.kiss.unicodeScalars.count == 10)
    #expect(Sanitizer.sanitize(Self.kiss) == Self.kiss, "the sanitizer keeps the sequence whole")
    let fields = Limits.table.filter { $0.unit == "characters" }
    #expect(fields.count >= 10, "\(fields.map(\.name))")
    for field in fields {
      let text = String(repeating: Self.kiss, count: field.value)
      #expect(throws: Never.self, "\(field.name)") { try Limits.check(field.name, text, limit: field.value) }
      #expect(Limits.fits(text, limit: field.value), "\(field.name)")
    }
    let title = String(repeating: Self.kiss, count: Limits.title)
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in try tx.insertKnowledge(item(1, title: title, tags: [String(repeating: Self.kiss, count: Limits.tagLength)])) }
    #expect(try store.read { try $0.knowledge(id: sequentialID(1))?.title } == title)
  }

  @Test("a title at the character limit one Unicode scalar over its bound is refused, naming field, limit and size")
  func oneScalarOverTheBoundAtTheCharacterLimit() throws {
    // 299 ten-scalar emoji and one letter with ten combining marks: 300 characters, 3,001 scalars.
    let title = String(repeating: Self.kiss, count: 299) + "x" + String(repeating: "\u{301}", count: 10)
    #expect(title.count == 300 && title.unicodeScalars.count == 3_001)
    let expected = ValidationError(
      field: "title", limit: 3_000, actual: 3_001,
      message: "title is 300 characters but 3001 Unicode scalars (each combining mark, joiner or modifier counts "
        + "as one); the limit is 300 characters and at most 3000 Unicode scalars in all (10 per character)")
    #expect(throws: expected) { try Limits.check("title", title, limit: Limits.title) }
    let store = SQLiteWorkspaceStore.inMemory()
    #expect(throws: WorkspaceError.validation(expected)) {
      try store.write { tx in try tx.insertKnowledge(item(1, title: title)) }
    }
    #expect(try store.read { try $0.knowledgeCount() } == 0)
  }

  @Test("a tag over its Unicode scalar bound is named by position and quoted, as one over its character limit is")
  func tagBoundErrorsNameTheTag() throws {
    // 5 characters, 605 Unicode scalars (the marks all sit on the `o`).
    let zalgo = "zalgo" + String(repeating: "\u{301}", count: 600)
    do {
      try Limits.validateTags(["ok", zalgo, "fine"])
      Issue.record("accepted")
    } catch {
      #expect(error.field == "tags[1]")
      #expect(error.limit == Limits.unicodeScalarLimit(forCharacters: Limits.tagLength) && error.actual == 605)
      #expect(
        error.message.hasPrefix("tags[1] ('zalg…') is 5 characters but 605 Unicode scalars (each combining mark"),
        "\(error.message)")
      #expect(error.message.contains("the limit is 48 characters and at most \(error.limit ?? 0) Unicode scalars"))
    }
    // The character-count error reads the same way, and quotes at most 20 characters.
    do {
      try Limits.validateTags(["ok", String(repeating: "t", count: 49)])
      Issue.record("accepted")
    } catch {
      #expect(error == ValidationError(
        field: "tags[1]", limit: 48, actual: 49,
        message: "tags[1] ('" + String(repeating: "t", count: 20) + "…') is 49 characters; the limit is 48 characters"))
    }
    // 49 characters, each carrying 1,000 marks: the quote stays short all the same.
    do {
      try Limits.validateTags([String(repeating: "y" + String(repeating: "\u{301}", count: 1_000), count: 49)])
      Issue.record("accepted")
    } catch {
      #expect(error.message.unicodeScalars.count < 500, "\(error.message.unicodeScalars.count) scalars")
      #expect(error.message.hasPrefix("tags[0] ('y…') is 49 characters"), "\(error.message.prefix(40))")
    }
  }

  /// Review 19-d: text keeps a Persian word's zero-width non-joiner, but two tags differing
  /// only by it looked identical and a filter already took them as one.
  @Test("tags drop the joiners between letters, keep those of emoji, and so a spelling with one is one tag")
  func tagJoiners() throws {
    let tags = try Limits.normalizedTags(["می\u{200C}خواهم", "میخواهم", "👨\u{200D}👩\u{200D}👧", "क्\u{200D}ष"])
    #expect(tags == ["میخواهم", "👨\u{200D}👩\u{200D}👧", "क्ष"])
  }

  @Test("a path longer than any in use is shown cut, with an ellipsis and its full length")
  func shownPathShowsTheCut() {
    let fits = "/tmp/" + String(repeating: "p", count: Limits.shownPathLength - 5)
    #expect(Limits.shownPath(fits) == fits)
    let long = "/tmp/" + String(repeating: "p", count: 100_000)
    #expect(Limits.shownPath(long) == String(long.prefix(Limits.shownPathLength)) + "… (100005 characters)")
    // Two characters carrying 100,000 combining marks: cut for the scalars, and both lengths said.
    let marks = "/x" + String(repeating: "\u{301}", count: 100_000)
    let shown = Limits.shownPath(marks)
    #expect(shown.hasSuffix("… (2 characters of 100002 Unicode scalars)"), "\(shown.suffix(60))")
    #expect(shown.unicodeScalars.count < Limits.unicodeScalarLimit(forCharacters: Limits.shownPathLength) + 60)
  }

  @Test("a long value quoted in an error is cut with an ellipsis and its full length")
  func quotedValueShowsTheCut() throws {
    #expect(Limits.quoted("short", cutAt: 60) == "'short'")
    #expect(Limits.quoted(String(repeating: "a", count: 60), cutAt: 60) == "'" + String(repeating: "a", count: 60) + "'")
    #expect(
      Limits.quoted(String(repeating: "a", count: 61), cutAt: 60)
        == "'" + String(repeating: "a", count: 60) + "…' (61 characters)")
    // Cut for its Unicode scalars alone: both lengths are said, and the first scalar shown.
    #expect(Limits.quoted("x" + String(repeating: "\u{301}", count: 600), cutAt: 60) == "'x…' (1 character of 601 Unicode scalars)")
    #expect(Limits.quoted("ab" + String(repeating: "\u{301}", count: 600), cutAt: 60, sayingLength: false) == "'a…'")
    let tag = String(repeating: "t", count: 100) + "\nx"
    #expect(throws: ValidationError(
      field: "tags[0]",
      message: "tags[0] '" + String(repeating: "t", count: 60)
        + "…' (102 characters) contains a line break; a tag is one line without tabs or control characters")) {
      try Limits.checkTagCharacters("tags[0]", tag)
    }
  }

  @Test("tags and tag filters hold the Unicode scalar bound too")
  func tagScalarBound() throws {
    // 1 Character, 501 scalars > 480 (`x` has no precomposed form with the mark, so NFC keeps
    // them all).
    let tag = "x" + String(repeating: "\u{301}", count: 500)
    #expect(throws: ValidationError.self) { try Limits.validateTags([tag]) }
    do {
      _ = try Limits.tagFilter(tag, label: "--tag")
      Issue.record("accepted")
    } catch {
      #expect(error.field == "tag")
      #expect(error.limit == 480 && error.actual == 501)
      #expect(error.message.hasPrefix("--tag is 1 character but 501 Unicode scalars"), "\(error.message)")
    }
  }

  @Test("knowledge item capacity follows the setting, up to 100,000")
  func knowledgeCapacity() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in try tx.setSettings(Settings(knowledgeItemLimit: 3)) }
    try store.write { tx in for i in 1...3 { try tx.insertKnowledge(item(i)) } }
    #expect(throws: WorkspaceError.capacity(what: .knowledge, limit: 3, held: 3, adding: 1)) {
      try store.write { tx in try tx.insertKnowledge(item(4)) }
    }
    #expect(throws: WorkspaceError.self) {
      try store.write { tx in try tx.setSettings(Settings(knowledgeItemLimit: 100_001)) }
    }
    try store.write { tx in try tx.setSettings(Settings(knowledgeItemLimit: 100_000)) }
    #expect(try store.read { try $0.settings().knowledgeItemLimit } == 100_000)
  }

  struct FullCase: CustomStringConvertible, Sendable {
    var what: CappedCollection
    var limit: Int
    var held: Int
    var adding = 1
    var message: String
    var description: String { "\(what.rawValue): \(held) + \(adding) past \(limit)" }
  }

  static let fullCases: [FullCase] = [
    FullCase(
      what: .knowledge, limit: 10_000, held: 10_000,
      message: "the workspace holds 10000 knowledge items, the most its knowledgeItemLimit setting allows (10000); "
        + "adding 1 would make 10001. Delete some (`dolphin knowledge delete ID`) or raise the limit with "
        + "`dolphin settings set knowledgeItemLimit N` (at least 10001, at most 100000)"),
    FullCase(
      what: .knowledge, limit: 10_000, held: 9_998, adding: 5,
      message: "the workspace holds 9998 knowledge items and its knowledgeItemLimit setting allows 10000; "
        + "adding 5 would make 10003. Delete some (`dolphin knowledge delete ID`) or raise the limit with "
        + "`dolphin settings set knowledgeItemLimit N` (at least 10003, at most 100000)"),
    FullCase(
      what: .knowledge, limit: 3, held: 5,
      message: "the workspace holds 5 knowledge items, more than its knowledgeItemLimit setting allows (3); "
        + "adding 1 would make 6. Delete some (`dolphin knowledge delete ID`) or raise the limit with "
        + "`dolphin settings set knowledgeItemLimit N` (at least 6, at most 100000)"),
    FullCase(
      what: .knowledge, limit: 1, held: 1,
      message: "the workspace holds 1 knowledge item, the most its knowledgeItemLimit setting allows (1); "
        + "adding 1 would make 2. Delete some (`dolphin knowledge delete ID`) or raise the limit with "
        + "`dolphin settings set knowledgeItemLimit N` (at least 2, at most 100000)"),
    FullCase(
      what: .knowledge, limit: 100_000, held: 100_000,
      message: "the workspace holds 100000 knowledge items, the most its knowledgeItemLimit setting allows (100000); "
        + "adding 1 would make 100001. Delete some (`dolphin knowledge delete ID`); raising knowledgeItemLimit cannot "
        + "make room, as it is at most 100000"),
    FullCase(
      what: .knowledge, limit: 10_000, held: 9_000, adding: 95_000,
      message: "the workspace holds 9000 knowledge items and its knowledgeItemLimit setting allows 10000; "
        + "adding 95000 would make 104000. Delete some (`dolphin knowledge delete ID`); raising knowledgeItemLimit "
        + "cannot make room, as it is at most 100000"),
    FullCase(
      what: .memories, limit: 10_000, held: 10_000,
      message: "the workspace holds 10000 memories, the most it may hold (10000, a fixed limit, not a setting); "
        + "adding 1 would make 10001. Delete some (`dolphin memory delete ID`)"),
    FullCase(
      what: .tasks, limit: 5_000, held: 5_000,
      message: "the workspace holds 5000 tasks, the most it may hold (5000, a fixed limit, not a setting); "
        + "adding 1 would make 5001. Delete some (`dolphin task delete ID`)"),
    FullCase(
      what: .handoffs, limit: 200, held: 200,
      message: "the workspace holds 200 handoffs, the most it may hold (200, a fixed limit, not a setting); "
        + "adding 1 would make 201. Delete some (`dolphin handoff delete ID`)"),
    FullCase(
      what: .handoffs, limit: 200, held: 1, adding: 200,
      message: "the workspace holds 1 handoff and may hold 200 (a fixed limit, not a setting); "
        + "adding 200 would make 201. Delete some (`dolphin handoff delete ID`)"),
    FullCase(
      what: .tasks, limit: 5_000, held: 5_002,
      message: "the workspace holds 5002 tasks, more than it may hold (5000, a fixed limit, not a setting); "
        + "adding 1 would make 5003. Delete some (`dolphin task delete ID`)"),
    FullCase(
      what: .memories, limit: 10_000, held: 0, adding: 10_001,
      message: "the workspace holds 0 memories and may hold 10000 (a fixed limit, not a setting); "
        + "adding 10001 would make 10001. Import fewer: 10001 are more than any workspace may hold"),
  ]

  @Test(
    "a full collection's error gives the count held, the total it would reach and the limit; only knowledge has a setting to raise",
    arguments: fullCases)
  func fullCollectionAdvice(_ c: FullCase) {
    #expect(WorkspaceError.capacity(what: c.what, limit: c.limit, held: c.held, adding: c.adding).description == c.message)
  }

  @Test("the 201st handoff is refused as a full collection that names no setting; nothing written")
  func handoffCapacity() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    try store.write { tx in
      for i in 1...Limits.handoffs { try tx.insertHandoff(Handoff(id: sequentialID(i), focus: "f\(i)", createdAt: t0)) }
    }
    #expect(throws: WorkspaceError.capacity(what: .handoffs, limit: 200, held: 200, adding: 1)) {
      try store.write { tx in try tx.insertHandoff(Handoff(id: sequentialID(201), focus: "one more", createdAt: t0)) }
    }
    #expect(try store.read { try $0.handoffCount() } == 200)
  }

  @Test("an empty title is rejected")
  func emptyTitle() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    #expect(throws: WorkspaceError.validation(ValidationError(field: "title", message: "title must not be empty"))) {
      try store.write { tx in try tx.insertKnowledge(item(1, title: "  \n")) }
    }
  }

  @Test("revision must lie in 1…1,000,000")
  func revisionBound() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    var it = item(1)
    it.revision = 1_000_001
    #expect(throws: WorkspaceError.self) { try store.write { tx in try tx.insertKnowledge(it) } }
    it.revision = 1_000_000
    try store.write { tx in try tx.insertKnowledge(it) }
  }

  @Test("tags are trimmed, lowercased and deduplicated")
  func tagNormalization() {
    #expect(Limits.normalizeTags([" Swift ", "swift", "SQLite", "", "  "]) == ["swift", "sqlite"])
  }

  // Regression case from a review (s8/h5): tags of characters that show nothing were stored
  // and displayed blank, while whitespace-only tags were dropped.
  @Test("tags that show nothing are dropped like whitespace-only ones")
  func invisibleTagsDropped() throws {
    #expect(Limits.normalizeTags(["\u{2800}", "\u{AD}\u{AD}", " \u{3164} ", "Kept", "\u{115F}\u{1160}"]) == ["kept"])
    #expect(try Limits.normalizedTags(["\u{2800}"]) == [])
    #expect(try Limits.normalizedTags(["\u{AD}\u{AD}", "\u{AD}"]) == [])
    #expect(try Limits.normalizedTags(["\u{200B}", "  "]) == [])
    // Invisible characters inside a visible tag stay, as the sanitizer keeps them in words.
    #expect(Limits.normalizeTags(["co\u{AD}op"]) == ["co\u{AD}op"])
    #expect(throws: ValidationError.self) { _ = try Limits.tagFilter("\u{2800}") }
  }

  @Test("ISO-8601 formatting is UTC with milliseconds and round-trips")
  func iso8601() throws {
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: 1_790_000_000.123)) == "2026-09-21T14:13:20.123Z")
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58.500Z")
    #expect(ISO8601.date(from: "2026-09-21T16:13:20.123+02:00") == Date(timeIntervalSince1970: 1_790_000_000.123))
    #expect(ISO8601.date(from: "2026-09-21T14:13:20Z") == Date(timeIntervalSince1970: 1_790_000_000))
    #expect(ISO8601.date(from: "2026-13-01T00:00:00Z") == nil)
    #expect(ISO8601.date(from: "yesterday") == nil)
  }

  @Test("a day the month does not have, and a leap second, are refused, not moved to a later day (review 18-c, C5)")
  func iso8601CalendarDays() throws {
    for bad in [
      "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2100-02-29T00:00:00Z",
      "2026-06-31T12:00:00.000Z", "2026-12-31T23:59:60Z",
    ] {
      #expect(ISO8601.date(from: bad) == nil, "\(bad)")
      #expect(ISO8601.calendarProblem(in: bad) != nil, "\(bad)")
    }
    #expect(ISO8601.calendarProblem(in: "2026-02-30T00:00:00Z") == "2026-02 has 28 days, so day 30 does not exist")
    #expect(ISO8601.calendarProblem(in: "2026-12-31T23:59:60Z") == "second 60 (a leap second) is not accepted")
    for good in ["2024-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2026-04-30T23:59:59.999Z", "2026-01-31T00:00:00Z"] {
      #expect(ISO8601.date(from: good) != nil, "\(good)")
      #expect(ISO8601.calendarProblem(in: good) == nil, "\(good)")
    }
    #expect(ISO8601.string(from: try #require(ISO8601.date(from: "2024-02-29T10:00:00Z"))) == "2024-02-29T10:00:00.000Z")
  }

  @Test("offsets past ±23:59 are refused and named, not read as a day more (review 28-b, 9)")
  func iso8601OffsetRange() throws {
    for bad in ["2026-12-03T06:00:00.000-24:00", "2026-12-03T06:00:00+24:00", "2026-12-03T06:00:00+05:60", "2026-12-03T06:00:00.5-99:99"] {
      #expect(ISO8601.date(from: bad) == nil, "\(bad)")
      #expect(ISO8601.calendarProblem(in: bad) != nil, "\(bad)")
    }
    #expect(
      ISO8601.calendarProblem(in: "2026-12-03T06:00:00.000-24:00")
        == "the offset -24:00 is out of range: offsets run from -23:59 to +23:59")
    #expect(ISO8601.calendarProblem(in: "2026-12-03T06:00:00+05:60") == "the offset +05:60 has minute 60; minutes run from 00 to 59")
    // The extremes that exist.
    #expect(ISO8601.date(from: "2026-12-03T06:00:00+23:59") == Date(timeIntervalSince1970: 1_796_277_600 - 86_340))
    #expect(ISO8601.date(from: "2026-12-03T06:00:00-23:59") == Date(timeIntervalSince1970: 1_796_277_600 + 86_340))
    #expect(ISO8601.calendarProblem(in: "2026-12-03T06:00:00-23:59") == nil)
  }
}
