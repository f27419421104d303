import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Regression (review, s14): text another program wrote into a workspace with sqlite3 — control
/// characters in titles, content, notes, a memory, a handoff's focus, and in tags — comes out of
/// `export` as stored. Importing that export back compared the file's records, sanitized as an
/// import stores them, with the stored records as they are, so every such record was a conflict
/// (exit 4), and a tag holding a control character refused the whole file. The stored records are
/// now compared in the form an import stores them too, so they are the same records and nothing is
/// written: the stored text stays exactly as it was. A tag capture refuses is still refused on a
/// record the import would write.
@Suite("Import of an export holding text written outside dolphin")
struct ImportStoredControlCharactersTests {
  struct Workspace {
    var store: SQLiteWorkspaceStore
    var engine: KnowledgeEngine
    var item: KnowledgeItem
    var task: TaskItem
    var memory: MemoryItem
    var handoff: Handoff
  }

  /// A workspace whose records another program edited: BEL, ESC, SOH and a line break inside
  /// a tag, all valid JSON (as `json_array` writes it).
  static func editedOutside() throws -> Workspace {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store)
    let item = try engine.capture(
      CaptureRequest(kind: .fact, title: "Build server", content: "Runs on ci-3.", tags: ["ops"])).item
    let task = try engine.addTask(title: "Rotate the deploy keys", notes: "Ask the ops team.")
    let memory = try engine.saveMemory(text: "The billing database lives on db-2").memory
    let handoff = try engine.createHandoff(HandoffRequest(focus: "Billing migration", nextSteps: ["Copy invoices"])).handoff
    try store.write { tx in
      try tx.db.execute(
        """
        UPDATE knowledge SET title = 'Build' || char(27) || '[1m server', content = 'Runs on ci-3' || char(7) || ' nightly.',
          tags = json_array('ops' || char(7) || 'team', 'on' || char(10) || 'call') WHERE id = '\(item.id.uuidString)';
        UPDATE task SET notes = 'Ask the ops team' || char(1) || '.' WHERE id = '\(task.id.uuidString)';
        UPDATE memory SET text = 'The billing database' || char(7) || ' lives on db-2',
          tags = json_array('db' || char(27) || 'a') WHERE id = '\(memory.id.uuidString)';
        UPDATE handoff SET focus = 'Billing' || char(8) || ' migration' WHERE id = '\(handoff.id.uuidString)';
        """)
    }
    return Workspace(store: store, engine: engine, item: item, task: task, memory: memory, handoff: handoff)
  }

  static func export(_ engine: KnowledgeEngine) throws -> WorkspaceExport {
    try WorkspaceExport.decode(try engine.exportWorkspace(generator: "dolphin test").jsonData(), fileName: "export.json")
  }

  @Test("importing the export back: every record is the same, nothing is written, the stored text is unchanged")
  func roundTrip() throws {
    let w = try Self.editedOutside()
    let before = try w.store.read { try $0.snapshot() }
    let document = try Self.export(w.engine)
    #expect(document.workspace.knowledge.first { $0.id == w.item.id }?.tags == ["ops\u{7}team", "on\ncall"])

    let plan = try w.engine.planImport(document, source: "export.json")
    #expect(plan.conflicts.isEmpty, "\(plan.conflicts)")
    for name in ["knowledge", "memories", "tasks", "handoffs"] {
      let c = try #require(plan.collections.first { $0.name == name })
      #expect(c.new == 0 && c.conflicting == 0 && c.same > 0, "\(c)")
    }
    let report = try w.engine.applyImport(document, source: "export.json")
    #expect(report.written.values.reduce(0, +) == 0, "\(report.written)")
    #expect(report.digestID == nil)
    let after = try w.store.read { try $0.snapshot() }
    #expect(after == before)
    #expect(after.knowledge.first { $0.id == w.item.id }?.content == "Runs on ci-3\u{7} nightly.")
  }

  @Test("a record changed meanwhile is still a conflict, named by the field that differs once sanitized")
  func realConflictStays() throws {
    let w = try Self.editedOutside()
    var document = try Self.export(w.engine)
    let i = try #require(document.workspace.tasks.firstIndex { $0.id == w.task.id })
    document.workspace.tasks[i].title = "Rotate the deploy keys today"
    let plan = try w.engine.planImport(document, source: "export.json")
    #expect(plan.conflicts.map(\.id) == [w.task.id])
    #expect(plan.conflicts.first?.differingFields == ["title"])
  }

  @Test("a control-character tag is refused on a record the import writes: new, or replaced; a skipped one is not")
  func tagRefusedWhereWritten() throws {
    let w = try Self.editedOutside()
    var document = try Self.export(w.engine)
    let k = try #require(document.workspace.knowledge.firstIndex { $0.id == w.item.id })
    document.workspace.knowledge[k].content = "Runs on ci-4 now."

    // Into an empty workspace: a new record, refused as capture refuses the tag.
    let empty = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    #expect {
      try empty.planImport(document, source: "export.json")
    } throws: { error in
      "\(error)".contains("workspace.knowledge[\(k)] (id \(w.item.id.uuidString)): tags[0] 'ops\\u{7}team' contains a control character")
    }
    // Conflicting under replace: written, so refused; under skip: left as stored, so imported.
    #expect(throws: WorkspaceError.self) { try w.engine.planImport(document, policy: .replace, source: "export.json") }
    let skipped = try w.engine.applyImport(document, policy: .skip, source: "export.json")
    #expect(skipped.skipped == 1)
    #expect(try w.engine.knowledge(id: w.item.id).content == "Runs on ci-3\u{7} nightly.")
  }

  /// Regression (review, s14): a NUL written with sqlite3 made the workspace's own export
  /// unimportable, back into the same workspace too (the decoder refused the whole file).
  @Test("a NUL stored by another program: its export imports back as the same records; an import that writes them names each")
  func nulFollowsTheSameRule() throws {
    let w = try Self.editedOutside()
    try w.store.write { tx in
      try tx.db.execute(
        """
        UPDATE knowledge SET content = 'Runs on' || char(0) || ' ci-3.' WHERE id = '\(w.item.id.uuidString)';
        UPDATE task SET title = 'Rotate the' || char(0) || ' deploy keys' WHERE id = '\(w.task.id.uuidString)';
        UPDATE handoff SET summary = 'Invoices' || char(0) || ' first.' WHERE id = '\(w.handoff.id.uuidString)';
        """)
    }
    let before = try w.store.read { try $0.snapshot() }
    let document = try Self.export(w.engine)
    #expect(document.workspace.knowledge.first { $0.id == w.item.id }?.content == "Runs on\u{0} ci-3.")
    #expect(document.refusedTextFields.map(\.field).sorted() == ["content", "summary", "tags[0]", "tags[0]", "title"])

    let report = try w.engine.applyImport(document, source: "export.json")
    #expect(report.written.values.reduce(0, +) == 0, "\(report.written)")
    #expect(try w.store.read { try $0.snapshot() } == before, "the stored text stays exactly as it was")

    let empty = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    let error = #expect(throws: WorkspaceError.self) { try empty.planImport(document, source: "export.json") }
    let message = "\(error.map { "\($0)" } ?? "")"
    #expect(message.contains("export.json: 5 values of records this import would write hold characters no dolphin command stores"), "\(message)")
    let k = try #require(document.workspace.knowledge.firstIndex { $0.id == w.item.id })
    #expect(message.contains("workspace.knowledge[\(k)] (id \(w.item.id.uuidString)): content contains a NUL character (U+0000) at character 8"), "\(message)")
    #expect(message.contains("(id \(w.task.id.uuidString)): title contains a NUL character"), "\(message)")
    #expect(message.contains("(id \(w.handoff.id.uuidString)): summary contains a NUL character"), "\(message)")
    #expect(message.contains("Nothing was imported"), "\(message)")
    #expect(try empty.store.read { try $0.holdsNoRecords() })
  }

  /// Regression (s16): text was bound to SQLite as a C string, so a command that rewrote a row
  /// holding a NUL another program had stored (completing a task, revising an item's content,
  /// re-pinning a record) kept only what came before the NUL.
  @Test("a NUL stored by another program survives commands that rewrite the row: nothing after it is lost")
  func nulSurvivesRewrites() throws {
    let w = try Self.editedOutside()
    try w.store.write { tx in
      try tx.db.execute(
        """
        UPDATE task SET title = 'Rotate the' || char(0) || ' deploy keys', notes = 'Ask' || char(0) || ' ops.' WHERE id = '\(w.task.id.uuidString)';
        UPDATE knowledge SET title = 'Build' || char(0) || ' server', tags = json_array('ops') WHERE id = '\(w.item.id.uuidString)';
        """)
    }
    let done = try w.engine.completeTask(id: w.task.id)
    #expect(done.title == "Rotate the\u{0} deploy keys")
    let stored = try #require(try w.engine.listTasks().first { $0.id == w.task.id })
    #expect(stored.title == "Rotate the\u{0} deploy keys")
    #expect(stored.notes == "Ask\u{0} ops.")
    #expect(stored.status == .completed)

    let revised = try w.engine.reviseContent(of: w.item.id, to: "Runs on ci-4.")
    #expect(revised.title == "Build\u{0} server")
    #expect(try w.engine.knowledge(id: w.item.id).title == "Build\u{0} server")
    #expect(try w.engine.knowledge(id: w.item.id).content == "Runs on ci-4.")
  }
}
