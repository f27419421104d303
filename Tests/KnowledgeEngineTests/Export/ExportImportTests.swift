import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// A populated source workspace and its export, decoded back from JSON.
private func exported() throws -> (source: SQLiteWorkspaceStore, sample: SampleWorkspace, document: WorkspaceExport, json: Data) {
  let store = SQLiteWorkspaceStore.inMemory()
  let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
  let sample = try SampleWorkspace.populate(engine)
  let json = try engine.exportWorkspace(generator: "dolphin test").jsonData()
  return (store, sample, try WorkspaceExport.decode(json, fileName: "export.json"), json)
}

private func snapshot(_ store: any WorkspaceStore) throws -> AssistantWorkspace { try store.read { try $0.snapshot() } }

@Suite("Export and import")
struct ExportImportTests {
  @Test("a conflict names its differing fields with the verb agreeing in number")
  func conflictWording() {
    func phrase(_ fields: [String]) -> String {
      ImportPlan.Conflict(collection: "knowledge", id: nil, differingFields: fields).differenceDescription
    }
    #expect(phrase([]) == "")
    #expect(phrase(["title"]) == "title differs")
    #expect(phrase(["title", "content"]) == "title and content differ")
    #expect(phrase(["title", "content", "tags"]) == "title, content and tags differ")
  }

  @Test("export carries every record type, the settings, the active handoff and the quarantine")
  func exportCarriesEverything() throws {
    let (source, sample, document, _) = try exported()
    let ws = document.workspace
    #expect(ws == (try snapshot(source)))
    #expect(ws.knowledge.count == 5)
    #expect(ws.memories == [sample.memory])
    #expect(ws.tasks.count == 2)
    #expect(ws.handoffs == [sample.handoff])
    #expect(ws.digests.count == 1)
    #expect(ws.conversations.count == 1)
    #expect(ws.messages.count == 2)
    #expect(ws.receipts.count == 1)
    #expect(ws.checkpoints.count == 1)
    #expect(ws.settings.assistantName == "Flipper")
    #expect(ws.activeHandoffID == sample.handoff.id)
    #expect(document.quarantine.count == 1)
    #expect(document.format == "dolphin-export")
    #expect(document.formatVersion == 1)
    #expect(document.schemaVersion == 5)
  }

  @Test("export → import into an empty workspace → export again is lossless")
  func losslessRoundTrip() throws {
    let (source, _, document, json) = try exported()
    let dir = TemporaryDirectory("rt")
    defer { dir.remove() }
    let target = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let engine = KnowledgeEngine(store: target, environment: fixedEnvironment(start: Date(timeIntervalSince1970: 1_800_000_000)))
    let plan = try engine.planImport(document, source: "export.json")
    #expect(plan.intoEmptyWorkspace)
    #expect(!plan.hasConflicts)
    #expect(!plan.storesDigest)
    #expect(plan.collections.map { "\($0.name):\($0.new)" } == [
      "knowledge:5", "memories:1", "tasks:2", "handoffs:1", "digests:1", "conversations:1", "messages:2", "receipts:1",
      "checkpoints:1",
    ])
    let report = try engine.applyImport(document, source: "export.json", expecting: plan)
    #expect(report.digestID == nil)
    #expect(try snapshot(target) == (try snapshot(source)))
    #expect(try target.read { try $0.listQuarantine() } == document.quarantine)
    // Newest-first digest order and the active marker come back too.
    #expect(try target.read { try $0.listDigests() } == (try source.read { try $0.listDigests() }))
    var again = try engine.exportWorkspace(generator: "dolphin test")
    #expect(again.workspace == document.workspace)
    again.exportedAt = document.exportedAt
    #expect(try again.jsonData() == json)
  }

  @Test("importing the same export again is a no-op: everything is `same`, nothing is written")
  func sameContentIsNoOp() throws {
    let (source, _, document, _) = try exported()
    let engine = KnowledgeEngine(store: source, environment: fixedEnvironment())
    let before = try snapshot(source)
    let plan = try engine.planImport(document, source: "export.json")
    #expect(!plan.intoEmptyWorkspace)
    #expect(plan.collections.allSatisfy { $0.new == 0 && $0.conflicting == 0 })
    #expect(plan.settings == "same")
    #expect(plan.activeHandoff == "same")
    #expect(plan.quarantineSame == 1)
    #expect(plan.recordsToWrite == 0)
    let report = try engine.applyImport(document, source: "export.json")
    #expect(report.written.isEmpty)
    #expect(report.digestID == nil)
    #expect(try snapshot(source) == before)
  }

  @Test("imported tags are normalized as capture normalizes them, so a tag filter finds them and a re-import is `same`")
  func importedTagsAreNormalized() throws {
    let (source, sample, original, _) = try exported()
    var document = original
    let k = try #require(document.workspace.knowledge.firstIndex { $0.id == sample.decision.id })
    document.workspace.knowledge[k].tags = [" Storage ", "SQLITE", "sqlite", "a\u{200B}b", "  "]
    document.workspace.memories[0].tags = [" Style", "STYLE"]
    let mirror = try #require(document.workspace.knowledge.firstIndex { $0.id == sample.memory.knowledgeID })
    document.workspace.knowledge[mirror].tags = ["STYLE "]

    // Into an empty workspace: stored trimmed, lowercased, deduplicated, invisible characters dropped.
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    _ = try engine.applyImport(document, source: "export.json")
    #expect(try engine.knowledge(id: sample.decision.id).tags == ["storage", "sqlite", "ab"])
    #expect(try engine.memory(id: sample.memory.id).tags == ["style"])
    #expect(try engine.knowledgeListing(tag: "SQLITE").items.map(\.id) == [sample.decision.id])
    #expect(try engine.knowledgeListing(tag: "a\u{200B}b").items.map(\.id) == [sample.decision.id])

    // Into the workspace it came from: the normalized tags equal the stored ones.
    document.workspace.knowledge[k].tags = [" Storage ", "SQLITE", "sqlite"]
    let plan = try KnowledgeEngine(store: source, environment: fixedEnvironment()).planImport(document, source: "export.json")
    #expect(!plan.hasConflicts, "\(plan.conflicts)")
    #expect(plan.recordsToWrite == 0)
  }

  struct ConflictCase: CustomStringConvertible, Sendable {
    var policy: ImportConflictPolicy
    var description: String { policy.rawValue }
  }

  @Test(
    "same id with different content: refuse lists the ids; skip keeps ours; replace takes theirs",
    arguments: [ConflictCase(policy: .refuse), ConflictCase(policy: .skip), ConflictCase(policy: .replace)])
  func conflicts(_ c: ConflictCase) throws {
    let (source, sample, original, _) = try exported()
    let engine = KnowledgeEngine(store: source, environment: fixedEnvironment(start: Date(timeIntervalSince1970: 1_800_000_000)))
    var document = original
    let index = try #require(document.workspace.knowledge.firstIndex { $0.id == sample.decision.id })
    document.workspace.knowledge[index].content = "Changed elsewhere."
    let newItem = KnowledgeItem(id: sequentialID(950), kind: .insight, title: "Exports are versioned", createdAt: SampleWorkspace.t0)
    document.workspace.knowledge.append(newItem)
    let before = try snapshot(source)

    let plan = try engine.planImport(document, policy: c.policy, source: "theirs.json")
    #expect(plan.conflicts == [.init(collection: "knowledge", id: sample.decision.id, differingFields: ["content"])])
    #expect(plan.collections[0].new == 1)
    #expect(plan.collections[0].conflicting == 1)
    #expect(try snapshot(source) == before, "planning writes nothing")

    switch c.policy {
    case .refuse:
      let error = #expect(throws: WorkspaceError.self) {
        try engine.applyImport(document, policy: .refuse, source: "theirs.json")
      }
      guard case .validation(let v)? = error else { Issue.record("expected a validation error"); return }
      #expect(v.field == "conflicts")
      #expect(v.message.contains("theirs.json: 1 record(s) have the same id as a record in this workspace, with different content: knowledge \(sample.decision.id.uuidString) (content differs)"))
      #expect(v.message.contains("--on-conflict skip"))
      #expect(try snapshot(source) == before)
    case .skip:
      let report = try engine.applyImport(document, policy: .skip, source: "theirs.json")
      #expect(report.skipped == 1)
      #expect(try engine.knowledge(id: sample.decision.id).content == "WAL and single-row writes.")
      #expect(try engine.knowledge(id: newItem.id) == newItem)
      #expect(report.digestID != nil, "a merge that adds records stores one digest")
    case .replace:
      let report = try engine.applyImport(document, policy: .replace, source: "theirs.json")
      #expect(report.written["knowledge"] == 2)
      #expect(try engine.knowledge(id: sample.decision.id).content == "Changed elsewhere.")
      #expect(try engine.knowledge(id: newItem.id) == newItem)
    }
  }

  @Test("titles, a memory's text and a handoff's focus, summary and steps are trimmed as capture trims them; content keeps its spaces")
  func importTrimsAsCapture() throws {
    var (_, _, document, _) = try exported()
    document.workspace.knowledge[0].title += " "
    document.workspace.knowledge[0].content += " "
    document.workspace.memories[0].text = "\n" + document.workspace.memories[0].text + "  "
    document.workspace.tasks[0].title = " " + document.workspace.tasks[0].title
    document.workspace.tasks[0].notes += " "
    document.workspace.handoffs[0].focus += "\t"
    document.workspace.handoffs[0].summary += " "
    document.workspace.handoffs[0].nextSteps[0] += " "
    let (_, _, original, _) = try exported()
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    _ = try engine.applyImport(document, source: "export.json")
    let ws = try snapshot(store)
    let k = try #require(ws.knowledge.first { $0.id == original.workspace.knowledge[0].id })
    #expect(k.title == original.workspace.knowledge[0].title)
    #expect(k.content == original.workspace.knowledge[0].content + " ")
    #expect(ws.memories.first { $0.id == original.workspace.memories[0].id }?.text == original.workspace.memories[0].text)
    let t = try #require(ws.tasks.first { $0.id == original.workspace.tasks[0].id })
    #expect(t.title == original.workspace.tasks[0].title)
    #expect(t.notes == original.workspace.tasks[0].notes + " ")
    #expect(ws.handoffs[0].focus == original.workspace.handoffs[0].focus)
    #expect(ws.handoffs[0].summary == original.workspace.handoffs[0].summary)
    #expect(ws.handoffs[0].nextSteps == original.workspace.handoffs[0].nextSteps)
  }

  @Test("a file whose knowledgeItemLimit is below the items it brings is refused naming the file, the setting, the limit and the count")
  func fileKnowledgeLimitTooLow() throws {
    var (_, _, document, _) = try exported()
    document.workspace.settings.knowledgeItemLimit = 2
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let error = #expect(throws: WorkspaceError.self) { try engine.applyImport(document, source: "export.json") }
    guard case .validation(let v)? = error else { Issue.record("expected a validation error, got \(String(describing: error))"); return }
    #expect(v.field == "workspace.settings.knowledgeItemLimit")
    #expect(v.limit == 2 && v.actual == 5)
    #expect(
      v.message == "export.json: workspace.settings.knowledgeItemLimit is 2, which this import would adopt, but the workspace "
        + "would then hold 5 knowledge items (0 already here and 5 new from the file); raise knowledgeItemLimit in the file "
        + "to at least 5 (at most 100000) or import fewer knowledge items. Nothing was imported")
    #expect(!v.message.contains("dolphin knowledge delete"))
    #expect(try store.read { try $0.holdsNoRecords() })
  }

  @Test("a file's knowledgeItemLimit too low under replace, over stored settings: every way out is named, skip with the limit it keeps")
  func fileKnowledgeLimitTooLowOverStoredSettings() throws {
    var (_, _, document, _) = try exported()
    document.workspace.settings.knowledgeItemLimit = 2
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    try store.write { tx in try tx.setSettings(Settings(knowledgeItemLimit: 20_000)) }
    // The same sequential ids as the exported workspace's: this item conflicts with the file's first.
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Already here"))
    let error = #expect(throws: WorkspaceError.self) {
      try engine.applyImport(document, policy: .replace, source: "export.json")
    }
    guard case .validation(let v)? = error else { Issue.record("expected a validation error, got \(String(describing: error))"); return }
    #expect(
      v.message == "export.json: workspace.settings.knowledgeItemLimit is 2, which this import would adopt, but the workspace "
        + "would then hold 5 knowledge items (1 already here and 4 new from the file); raise knowledgeItemLimit in the file "
        + "to at least 5 (at most 100000), import fewer knowledge items, or pass --on-conflict skip to keep this workspace's "
        + "settings (knowledgeItemLimit 20000) and its versions of the 1 other conflicting record(s). Nothing was imported")
    // As it says: skip keeps them, and the file's records come in.
    let report = try engine.applyImport(document, policy: .skip, source: "export.json")
    #expect(report.settingsChanged.isEmpty)
    #expect(try engine.settingsReport().settings.knowledgeItemLimit == 20_000)
    #expect(try engine.settingsReport().knowledgeItems == 5)
  }

  @Test("a plan shown before the workspace changed is refused at apply time")
  func stalePlan() throws {
    let (_, _, document, _) = try exported()
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let plan = try engine.planImport(document, source: "export.json")
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Added meanwhile"))
    #expect(throws: WorkspaceError.concurrentChange(operation: "import")) {
      try engine.applyImport(document, source: "export.json", expecting: plan)
    }
  }

  struct InvalidCase: CustomStringConvertible, Sendable {
    var name: String
    var edit: @Sendable (inout AssistantWorkspace) -> Void
    var field: String
    var message: String
    var description: String { name }
  }

  static let invalid: [InvalidCase] = [
    InvalidCase(
      name: "blank title", edit: { $0.knowledge[1].title = "  " }, field: "workspace.knowledge[1].title",
      message: "workspace.knowledge[1] (id "),
    InvalidCase(
      name: "task notes over the bound", edit: { $0.tasks[0].notes = String(repeating: "n", count: 4_001) },
      field: "workspace.tasks[0].notes", message: "notes is 4001 characters; the limit is 4000 characters"),
    InvalidCase(
      name: "duplicate id", edit: { $0.memories.append($0.memories[0]) }, field: "workspace.memories[1].id",
      message: "workspace.memories[1]: duplicate id"),
    InvalidCase(
      name: "dangling relationship",
      edit: { $0.knowledge[0].relationships = [.init(kind: .supports, targetID: sequentialID(999))] },
      field: "workspace.knowledge[0].relationships[0]",
      message: "no knowledge item has the id 00000000-0000-0000-0000-0000000003E7"),
    // Found by the export-import fuzz target (Fuzz/Regressions/export-import/): a mirror whose
    // memory is not there used to import and leave a dangling reference behind.
    InvalidCase(
      name: "legacy-memory mirror whose memory is not there",
      edit: { ws in
        ws.knowledge.sort { $0.source == .legacyMemory && $1.source != .legacyMemory }
        ws.knowledge[0].memoryID = sequentialID(997)
      },
      field: "workspace.knowledge[0].memoryID", message: "no memory has the id 00000000-0000-0000-0000-0000000003E5"),
    InvalidCase(
      name: "memory whose mirror is not there", edit: { $0.memories[0].knowledgeID = sequentialID(996) },
      field: "workspace.memories[0].knowledgeID", message: "no knowledge item has the id 00000000-0000-0000-0000-0000000003E4"),
    InvalidCase(
      name: "active handoff that is not there", edit: { $0.activeHandoffID = sequentialID(998) },
      field: "workspace.activeHandoffID", message: "no handoff has the id"),
    InvalidCase(
      name: "updatedAt earlier than createdAt",
      edit: { $0.knowledge[0].updatedAt = $0.knowledge[0].createdAt.addingTimeInterval(-86_400) },
      field: "workspace.knowledge[0].updatedAt",
      message: "updatedAt is 2026-09-20T14:13:21.000Z, earlier than createdAt 2026-09-21T14:13:21.000Z; an item cannot change before it was created"),
    InvalidCase(
      name: "message of a conversation that is not there", edit: { $0.messages[1].conversationID = sequentialID(995) },
      field: "workspace.messages[1].conversationID",
      message: "no conversation has the id 00000000-0000-0000-0000-0000000003E3 (neither in the file nor in this workspace)"),
    InvalidCase(
      name: "receipt arguments that are not JSON", edit: { $0.receipts[0].arguments = "not json {" },
      field: "workspace.receipts[0].arguments",
      message: "workspace.receipts[0] (id 00000000-0000-0000-0000-000000000389): arguments 'not json {' is not JSON text"),
    InvalidCase(
      name: "more digests than are kept",
      edit: { ws in
        ws.digests = (0..<51).map { i in
          Digest(id: sequentialID(2000 + i), createdAt: SampleWorkspace.t0, trigger: .manual, sections: DigestSections(),
                 algorithm: "rule-based-digest", algorithmVersion: "1")
        }
      },
      field: "workspace.digests", message: "workspace.digests has 51 digests; the limit is 50"),
    // Review (s16): every digest dolphin stores is built by rules; a file may not label one otherwise.
    InvalidCase(
      name: "a digest labelled as a model's",
      edit: { ws in
        ws.digests = [Digest(id: sequentialID(3000), createdAt: SampleWorkspace.t0, trigger: .manual, sections: DigestSections(),
                             algorithm: "gpt-4-summary", algorithmVersion: "1")]
      },
      field: "workspace.digests[0].algorithm",
      message: "algorithm 'gpt-4-summary' is not how dolphin builds digests: every digest is `rule-based-digest`"),
    InvalidCase(
      name: "a digest version that is no whole number",
      edit: { ws in
        ws.digests = [Digest(id: sequentialID(3001), createdAt: SampleWorkspace.t0, trigger: .manual, sections: DigestSections(),
                             algorithm: "rule-based-digest", algorithmVersion: "06")]
      },
      field: "workspace.digests[0].algorithmVersion",
      message: "algorithmVersion '06' is not a version of `rule-based-digest`"),
  ]

  @Test("an invalid record is refused, named by its path and field, and nothing is written", arguments: invalid)
  func invalidRecords(_ c: InvalidCase) throws {
    var (_, _, document, _) = try exported()
    c.edit(&document.workspace)
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let error = #expect(throws: WorkspaceError.self) {
      try engine.applyImport(document, source: "export.json")
    }
    guard case .validation(let v)? = error else { Issue.record("expected a validation error, got \(String(describing: error))"); return }
    #expect(v.field == c.field)
    #expect(v.message.contains(c.message), "\(v.message)")
    // Worded as the document's decoding refusals: the file first, what happened last.
    #expect(v.message.hasPrefix("export.json: "), "\(v.message)")
    #expect(v.message.hasSuffix(". Nothing was imported"), "\(v.message)")
    #expect(try store.read { try $0.holdsNoRecords() })
  }

  @Test("credential-looking imported text is kept and flagged, never dropped")
  func credentialsAreKeptAndFlagged() throws {
    var (_, _, document, _) = try exported()
    let memory = MemoryItem(id: sequentialID(960), text: "old deploy token \(FakeSecrets.gitHub)", createdAt: SampleWorkspace.t0)
    document.workspace.memories.append(memory)
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let plan = try engine.planImport(document, source: "export.json")
    #expect(plan.credentials.count == 1)
    #expect(plan.credentials.flags.first?.id == memory.id)
    #expect(plan.credentials.flags.first?.finding == CredentialFinding(kind: .gitHubToken, line: 1, column: 18))
    _ = try engine.applyImport(document, source: "export.json")
    #expect(try engine.memory(id: memory.id) == memory)
    let status = try engine.status()
    #expect(status.credentials.count == 1)
    #expect(status.credentials.flags.map(\.id) == [memory.id])
  }

  @Test("a merge over the kept bound keeps the newest by date, and the plan says what it leaves out")
  func pruningIsPreviewed() throws {
    let (_, _, original, _) = try exported()
    var document = original
    // A day older than anything the workspace holds.
    document.workspace.digests = (0..<50).map { i in
      Digest(id: sequentialID(3000 + i), createdAt: SampleWorkspace.t0.addingTimeInterval(Double(i) - 86_400),
             trigger: .manual, sections: DigestSections(), algorithm: "rule-based-digest", algorithmVersion: "1")
    }
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    _ = try engine.applyImport(original, source: "a.json")
    let own = try engine.store.read { tx in try tx.listDigests() }.map(\.id)
    #expect(own.count == 1)
    let plan = try engine.planImport(document, source: "b.json")
    let digests = try #require(plan.collections.first { $0.name == "digests" })
    // The workspace's own digest is the newest: the file's oldest is left out, nothing pruned
    // (review 19-b, F1: the workspace's own was pruned to make room for an older one).
    #expect(digests.new == 50 && digests.pruned == 0 && digests.olderThanKept == 1, "\(digests)")
    #expect(!plan.storesDigest)
    // With a new record the import stores a digest at the end, which takes a place too
    // (review, s17: the plan counted one fewer than were pruned).
    document.workspace.knowledge.append(
      KnowledgeItem(
        id: sequentialID(4000), kind: .fact, title: "Imported later", content: "", source: .import, tags: [],
        relationships: [], priority: .normal, createdAt: SampleWorkspace.t0, updatedAt: SampleWorkspace.t0))
    let withDigest = try engine.planImport(document, source: "c.json")
    #expect(withDigest.storesDigest)
    let counted = try #require(withDigest.collections.first { $0.name == "digests" })
    #expect(counted.pruned == 0 && counted.olderThanKept == 2, "\(counted)")
    #expect(withDigest.recordsToWrite == 48 + 1, "48 digests and the knowledge item")
    let report = try engine.applyImport(document, source: "c.json")
    #expect(report.written["digests"] == 48)
    let after = try engine.store.read { tx in try tx.listDigests() }.map(\.id)
    #expect(after.count == 50)
    #expect(report.digestID.map(after.contains) == true, "the digest the import stored is kept")
    #expect(after.contains(own[0]), "the workspace's own digest is kept")
    #expect(!after.contains(sequentialID(3000)) && !after.contains(sequentialID(3001)), "the file's two oldest are left out")
  }
}

@Suite("Markdown export")
struct MarkdownExportTests {
  @Test("every record appears under its heading")
  func containsEveryRecord() throws {
    let (_, sample, document, _) = try exported()
    let md = MarkdownExport.render(document)
    for part in [
      "# Dolphin workspace export", "## Knowledge (5)", "### Decision: Use SQLite for the workspace",
      "- relationship: supports → `\(sample.decision.id.uuidString)`", "## Memories (1)", "Prefers tabs over spaces",
      "## Tasks (2)", "### [ ] Write the README", "### [x] Set up CI", "## Handoffs (1)", "### Export format (active)",
      "user: how do we restore?", "- next step 1: Write Docs/ExportFormat.md", "## Digests (1)", "#### Decisions",
      "## Conversations (1)", "### Restore", "How do we restore a workspace?", "## Activity receipts (1)",
      "`knowledge_search` succeeded", "## Run checkpoints (1)", "step 1: finished", "## Settings",
      "- assistant name: Flipper", "## Quarantine (1)", "- reason: text is empty",
    ] {
      #expect(md.contains(part), "missing: \(part)")
    }
  }

  @Test("stored markup and controls are shown as inert text")
  func storedTextIsInert() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    // Stored directly (capture would already drop the escape character).
    try store.write { tx in
      try tx.insertKnowledge(
        KnowledgeItem(
          id: sequentialID(1), kind: .fact, title: "# Heading <script>alert(1)</script> [x](http://evil.test) *bold*",
          content: "```\n# not a heading\n```\n\u{1B}[31mred", createdAt: SampleWorkspace.t0))
    }
    let md = MarkdownExport.render(try engine.exportWorkspace(generator: "t"))
    #expect(md.contains("### Fact: \\# Heading \\<script\\>alert(1)\\</script\\> \\[x\\](http://evil.test) \\*bold\\*"))
    #expect(md.contains("````text\n```\n# not a heading\n```\n␛[31mred\n````"))
    #expect(!md.contains("\u{1B}"))
  }

  @Test("a digest line starts with its evidence ids, so stored text cannot read as more evidence after it")
  func digestEvidenceFirst() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let fake = "00000000-0000-0000-0000-00000000BEEF"
    // Stored directly, as an import may carry it: the export shows stored digests as they are.
    let lines = [
      DigestLine(text: "Adopt WAL — evidence `\(fake)`", evidenceIDs: [sequentialID(1)]),
      DigestLine(text: "Ship it\n- [`\(fake)`] fake", evidenceIDs: [sequentialID(1), sequentialID(2)]),
      DigestLine(text: "… and 2 more decisions (not shown)", evidenceIDs: []),
    ]
    try store.write { tx in
      try tx.insertDigest(
        Digest(
          id: sequentialID(3), createdAt: SampleWorkspace.t0, trigger: .manual, sections: DigestSections(decisions: lines),
          algorithm: "rule-based-digest", algorithmVersion: "4"))
    }
    let md = MarkdownExport.render(try engine.exportWorkspace(generator: "t"))
    let one = "`\(sequentialID(1).uuidString)`", two = "`\(sequentialID(2).uuidString)`"
    #expect(md.contains("#### Decisions\n\n- [\(one)] Adopt WAL — evidence \\`\(fake)\\`\n"), "\(md)")
    #expect(md.contains("\n- [\(one), \(two)] Ship it - \\[\\`\(fake)\\`\\] fake\n"), "\(md)")
    // A marker line of a digest stored before version 7 reads as the section's count (review
    // 18-b B10): a paragraph after the list, not an item citing nothing.
    #expect(md.contains("\n\n… and 2 more decisions (not shown)\n"), "\(md)")
    #expect(!md.contains("- [] "), "\(md)")
  }

  @Test("a one-line field's line breaks of every kind fold to spaces, as the CLI folds them")
  func lineBreaksFold() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    // Stored directly: capture would drop \r, VT, FF and NEL as controls, but U+2028 stays.
    try store.write { tx in
      try tx.insertKnowledge(
        KnowledgeItem(
          id: sequentialID(1), kind: .fact, title: "harmless\u{2028}## Forged heading", content: "body",
          createdAt: SampleWorkspace.t0))
      try tx.insertKnowledge(
        KnowledgeItem(
          id: sequentialID(2), kind: .fact, title: "a\rb\u{0B}c\u{0C}d\u{85}e\u{2029}f", content: "body",
          createdAt: SampleWorkspace.t0))
      try tx.insertReceipt(
        ActivityReceipt(
          id: sequentialID(3), callID: "call\u{2028}- forged", tool: "knowledge_search", risk: "readOnly",
          arguments: "{}", outcome: .succeeded, startedAt: SampleWorkspace.t0, finishedAt: SampleWorkspace.t0))
    }
    let md = MarkdownExport.render(try engine.exportWorkspace(generator: "t"))
    #expect(md.contains("### Fact: harmless \\#\\# Forged heading\n"), "\(md)")
    #expect(md.contains("### Fact: a b c d e f\n"), "\(md)")
    #expect(md.contains("call `call - forged`"), "\(md)")
    for separator in ["\u{2028}", "\u{2029}", "\u{85}", "\u{0B}", "\u{0C}", "\r"] {
      #expect(!md.unicodeScalars.contains(Unicode.Scalar(separator)!), "\(separator.debugDescription) left in the export")
    }
    #expect(MarkdownExport.inline("x\u{2028}y") == "x y")
  }

  /// Review 19-c, finding 11: a superseded goal appeared in the Markdown export as a current one;
  /// only its successor's `relationship: supersedes → <id>` line hinted at it.
  @Test("a superseded item (and a memory whose mirror is superseded) is marked superseded by its successor's id")
  func supersededItemsMarked() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let old = try engine.capture(CaptureRequest(kind: .goal, title: "Ship beta by January 15")).item
    let new = try engine.capture(
      CaptureRequest(kind: .goal, title: "Ship beta by February 1", relationships: [.init(kind: .supersedes, targetID: old.id)])).item
    let memory = try engine.saveMemory(text: "Beta goes out in January")
    let newer = try engine.capture(
      CaptureRequest(kind: .context, title: "Beta moved", relationships: [.init(kind: .supersedes, targetID: memory.mirror.id)])).item
    let md = MarkdownExport.render(try engine.exportWorkspace(generator: "t"))
    #expect(md.contains("### Goal: Ship beta by January 15 (superseded)\n\n- id: `\(old.id.uuidString)`\n- superseded by `\(new.id.uuidString)`\n"), "\(md)")
    #expect(md.contains("### Goal: Ship beta by February 1\n"), "the successor is current")
    #expect(!md.contains("superseded by `\(old.id.uuidString)`"))
    #expect(md.contains("- knowledge mirror: `\(memory.mirror.id.uuidString)` (superseded by `\(newer.id.uuidString)`)"), "\(md)")
  }
}

/// Review 20-b, 19: the Markdown export listed records by id; a reader gets them in the order
/// the CLI lists them.
@Suite("Markdown export reading order")
struct MarkdownExportOrderTests {
  @Test("knowledge newest first, tasks open first by priority, handoffs and memories newest first")
  func readingOrder() throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let t0 = SampleWorkspace.t0
    // Ids chosen so that id order is the opposite of the reading order.
    try store.write { tx in
      try tx.insertKnowledge(
        KnowledgeItem(id: sequentialID(1), kind: .fact, title: "Newest: retry with backoff", createdAt: t0.addingTimeInterval(300)))
      try tx.insertKnowledge(
        KnowledgeItem(id: sequentialID(2), kind: .decision, title: "Middle: use WAL mode", createdAt: t0.addingTimeInterval(200)))
      try tx.insertKnowledge(
        KnowledgeItem(id: sequentialID(3), kind: .goal, title: "Oldest: ship the beta", createdAt: t0.addingTimeInterval(100)))
      _ = try tx.insertMemory(MemoryItem(id: sequentialID(11), text: "Newer memory about tabs", createdAt: t0.addingTimeInterval(50)))
      _ = try tx.insertMemory(MemoryItem(id: sequentialID(12), text: "Older memory about coffee", createdAt: t0))
      try tx.insertTask(
        TaskItem(id: sequentialID(21), title: "Done: set up CI", status: .completed, priority: .critical, createdAt: t0,
                 completedAt: t0.addingTimeInterval(10)))
      try tx.insertTask(TaskItem(id: sequentialID(22), title: "Open low: tidy docs", priority: .low, createdAt: t0))
      try tx.insertTask(TaskItem(id: sequentialID(23), title: "Open high, newer: fix crash", priority: .high, createdAt: t0.addingTimeInterval(20)))
      try tx.insertTask(TaskItem(id: sequentialID(24), title: "Open high, older: write tests", priority: .high, createdAt: t0.addingTimeInterval(5)))
      try tx.insertHandoff(Handoff(id: sequentialID(31), focus: "Newer handoff on search", createdAt: t0.addingTimeInterval(90)))
      try tx.insertHandoff(Handoff(id: sequentialID(32), focus: "Older handoff on storage", createdAt: t0.addingTimeInterval(30)))
    }
    let md = MarkdownExport.render(try engine.exportWorkspace(generator: "t"))
    func position(_ s: String) throws -> String.Index { try #require(md.range(of: s), "missing \(s)").lowerBound }
    #expect(try position("Newest: retry with backoff") < position("Middle: use WAL mode"))
    #expect(try position("Middle: use WAL mode") < position("Oldest: ship the beta"))
    #expect(try position("Newer memory about tabs") < position("Older memory about coffee"))
    #expect(try position("Open high, older: write tests") < position("Open high, newer: fix crash"))
    #expect(try position("Open high, newer: fix crash") < position("Open low: tidy docs"))
    #expect(try position("Open low: tidy docs") < position("Done: set up CI"))
    #expect(try position("Newer handoff on search") < position("Older handoff on storage"))
    // The JSON document keeps its own order (by id): only the reading copy is reordered.
    #expect(try engine.exportWorkspace(generator: "t").workspace.knowledge.map(\.id) == [1, 2, 3].map(sequentialID))
  }
}
