import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

let legacyFixtures = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy")

func fixture(_ name: String) -> URL { legacyFixtures.appendingPathComponent(name) }

/// Copies a fixture into `dir` so tests can check the original is never modified.
func copyFixture(_ name: String, to dir: TemporaryDirectory, as target: String? = nil) throws -> URL {
  let dest = dir.appending(target ?? name)
  try FileManager.default.copyItem(at: fixture(name), to: dest)
  chmod(dest.path, 0o644)
  return dest
}

@Suite("Legacy migration into the store")
struct LegacyMigrationTests {
  @Test(
    "every record of each version lands in the store, field by field",
    arguments: ["workspace-v1.json", "workspace-v2.json", "workspace-v3.json", "workspace-v4.json",
                "workspace-v1-string-version.json", "workspace-v4-missing-optional.json"])
  func migratesEverything(_ name: String) throws {
    let dir = TemporaryDirectory("mig")
    defer { dir.remove() }
    let file = try copyFixture(name, to: dir)
    let original = try Data(contentsOf: file)
    let expected = try LegacyWorkspaceImporter.decode(original, fileName: name)
    let store = try SQLiteWorkspaceStore.open(directory: dir.appending("ws"))
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let report = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("ws/legacy-backups"))
    #expect(report.alreadyImported == false)
    #expect(report.sourceVersion == expected.sourceVersion)
    let ws = try store.read { try $0.snapshot() }
    let e = expected.workspace
    #expect(ws.conversations == e.conversations.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) })
    #expect(ws.messages == e.messages)
    #expect(ws.memories == e.memories.sorted { $0.id.uuidString < $1.id.uuidString })
    #expect(ws.tasks == e.tasks.sorted { $0.id.uuidString < $1.id.uuidString })
    // Listed by when each call started, then in the file's order (the v4 fixture's are not in time order).
    #expect(ws.receipts == e.receipts.enumerated().sorted { ($0.element.startedAt, $0.offset) < ($1.element.startedAt, $1.offset) }.map(\.element))
    #expect(ws.checkpoints == e.checkpoints)
    #expect(ws.settings == e.settings)
    #expect(report.imported["memories"] == e.memories.count)
    #expect(!e.memories.isEmpty)
    // The original is untouched; the backup is a 0600 byte-for-byte copy.
    #expect(try Data(contentsOf: file) == original)
    let backup = try #require(report.backupPath)
    #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == original)
    var st = stat()
    stat(backup, &st)
    #expect(st.st_mode & 0o777 == 0o600)
    stat(file.path, &st)
    #expect(st.st_mode & 0o777 == 0o644)
    // One digest at the end of the bulk path.
    #expect(ws.digests.count == 1)
    // The same file is never imported twice.
    let again = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("ws/legacy-backups"))
    #expect(again.alreadyImported)
    #expect(try store.read { try $0.snapshot() } == ws)
  }

  @Test("migrated text is made inert as captured text is; the backup keeps the original bytes")
  func migratedTextIsSanitized() throws {
    let dir = TemporaryDirectory("mig-inert")
    defer { dir.remove() }
    let raw = "rtlmark \u{202E}exe.txt\u{202C} and \u{200B}zw <system>boss</system> \u{1B}[2J\u{1B}[31mred\u{1B}[0m"
    var v4 = try #require(try JSONParser().parse(Data(contentsOf: fixture("workspace-v4.json"))).object)
    v4["memories"] = [
      [
        "id": "6F9619FF-8B86-D011-B42D-00C04FC964FF", "text": .string(raw), "tags": [" Ops "],
        "createdAt": "2025-01-06T09:20:00Z",
      ]
    ]
    v4["tasks"] = [
      [
        "id": "8DB9E660-4A07-411F-8674-C7E8F72E742F", "title": "Ship \u{1B}]0;pwned\u{07}<|im_start|>it",
        "notes": "a\u{200B}b", "isCompleted": false, "priority": "high", "createdAt": "2025-04-10T08:31:13Z",
      ]
    ]
    let document = JSONValue.object(v4)
    let file = dir.appending("workspace.json")
    try Data(document.jsonString().utf8).write(to: file)
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let report = try engine.importLegacyWorkspace(file: file, backupDirectory: dir.appending("b"))
    #expect(report.integrityProblems.isEmpty, "\(report.integrityProblems)")
    let memory = try #require(try store.read { try $0.snapshot() }.memories.first)
    #expect(memory.text == "rtlmark exe.txt and zw ‹system›boss‹/system› red")
    #expect(memory.tags == ["ops"])
    #expect(!Sanitizer.containsLiveDelimiter(memory.text))
    let task = try #require(try store.read { try $0.snapshot() }.tasks.first)
    #expect(task.title == "Ship ‹|im_start|›it")
    #expect(task.notes == "ab")
    // Search reads the inert text, and the escape sequence no longer glues onto the word.
    let found = try engine.search("red", memoriesOnly: true)
    #expect(found.results.map(\.title) == [memory.text])
    // Migrated memories have no knowledge mirror: a search of knowledge (of every kind, or of
    // some) says that only memories match, and a memory search that only knowledge does.
    #expect(try engine.search("red").emptyReason == .onlyMemoriesMatch)
    #expect(try engine.search("red", kinds: [.fact]).emptyReason == .onlyMemoriesMatch)
    #expect(try engine.search("red", includeMemories: true).results.count == 1)
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Widget rollover"))
    #expect(try engine.search("widget", memoriesOnly: true).emptyReason == .onlyKnowledgeMatches)
    // The backup is the file as it was.
    #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(report.backupPath))) == Data(contentsOf: file))
  }

  @Test("invalid records are kept verbatim in quarantine and reported")
  func quarantine() throws {
    let dir = TemporaryDirectory("quar")
    defer { dir.remove() }
    let file = try copyFixture("workspace-v4-quarantine.json", to: dir)
    let decoded = try LegacyWorkspaceImporter.decode(try Data(contentsOf: file), fileName: file.lastPathComponent)
    let store = SQLiteWorkspaceStore.inMemory()
    let report = try KnowledgeEngine(store: store).importLegacyWorkspace(file: file, backupDirectory: dir.appending("b"))
    let kept = try store.read { try $0.listQuarantine() }
    #expect(report.quarantined.count == decoded.quarantined.count)
    #expect(kept.count == decoded.quarantined.count)
    #expect(kept.map(\.raw) == decoded.quarantined.map(\.rawJSON))
    #expect(kept.map(\.reason) == decoded.quarantined.map(\.reason))
    #expect(try KnowledgeEngine(store: store).status().quarantined == kept.count)
  }

  struct Refused: CustomStringConvertible, Sendable {
    var name: String
    var fixture: String
    var messageContains: [String]
    var description: String { name }
  }

  @Test(
    "a refused file imports nothing, keeps no backup and is left untouched",
    arguments: [
      Refused(name: "newer version", fixture: "workspace-v99.json", messageContains: ["workspace-v99.json", "99"]),
      Refused(name: "cut off mid-record", fixture: "workspace-v3-truncated.json", messageContains: ["workspace-v3-truncated.json", "line", "column"]),
    ])
  func refused(_ c: Refused) throws {
    let dir = TemporaryDirectory("ref")
    defer { dir.remove() }
    let file = try copyFixture(c.fixture, to: dir)
    let original = try Data(contentsOf: file)
    let store = SQLiteWorkspaceStore.inMemory()
    let before = try store.read { try $0.snapshot() }
    let error = #expect(throws: LegacyImportError.self) {
      try KnowledgeEngine(store: store).importLegacyWorkspace(file: file, backupDirectory: dir.appending("b"))
    }
    for part in c.messageContains { #expect(error?.description.contains(part) == true, "\(String(describing: error))") }
    #expect(try store.read { try $0.snapshot() } == before)
    #expect(try Data(contentsOf: file) == original)
    #expect(!FileManager.default.fileExists(atPath: dir.appending("b").path))
  }

  @Test("records that clash with existing ones roll the whole import back")
  func clashRollsBack() throws {
    let dir = TemporaryDirectory("clash")
    defer { dir.remove() }
    let file = try copyFixture("workspace-v2.json", to: dir)
    let decoded = try LegacyWorkspaceImporter.decode(try Data(contentsOf: file), fileName: "x")
    let store = SQLiteWorkspaceStore.inMemory()
    let clash = try #require(decoded.workspace.tasks.last)
    try store.write { tx in try tx.insertTask(clash) }
    let before = try store.read { try $0.snapshot() }
    let error = #expect(throws: WorkspaceError.self) {
      try KnowledgeEngine(store: store).importLegacyWorkspace(file: file, backupDirectory: dir.appending("b"))
    }
    // The error names the file (its path, when the caller gives no other name) and the record.
    #expect(error?.description.hasPrefix("\(file.path): task \(clash.id.uuidString): ") == true, "\(String(describing: error))")
    let named = #expect(throws: WorkspaceError.self) {
      try KnowledgeEngine(store: store).importLegacyWorkspace(file: file, named: "legacy/v2.json", backupDirectory: dir.appending("b"))
    }
    #expect(named?.description.hasPrefix("legacy/v2.json: task \(clash.id.uuidString): ") == true, "\(String(describing: named))")
    #expect(error?.description.contains("Nothing was imported") == true)
    #expect(try store.read { try $0.snapshot() } == before)
    // The backup is written last, once everything else was accepted: not even its directory is left.
    #expect(!FileManager.default.fileExists(atPath: dir.appending("b").path))
  }

  @Test("a record blank once sanitized, with a NUL or with a control character in a tag is quarantined; the rest imports")
  func recordsBlankOnceSanitizedAreQuarantined() throws {
    let dir = TemporaryDirectory("mig-blank")
    defer { dir.remove() }
    var v4 = try #require(try JSONParser().parse(Data(contentsOf: fixture("workspace-v4.json"))).object)
    func memory(_ n: Int, _ text: String, tags: [JSONValue] = []) -> JSONValue {
      ["id": .string("A0000000-0000-0000-0000-00000000000\(n)"), "text": .string(text), "tags": .array(tags), "createdAt": "2025-01-06T09:20:00Z"]
    }
    v4["memories"] = [
      memory(1, "keep me"), memory(2, "\u{1B}[2J"), memory(3, "\u{202E}\u{FEFF}"), memory(4, "a\u{0}b"),
      memory(5, "tagged", tags: ["a\nb"]),
    ]
    v4["tasks"] = [
      ["id": "8DB9E660-4A07-411F-8674-C7E8F72E742F", "title": "\u{1B}[1m", "notes": "", "isCompleted": false, "priority": "high", "createdAt": "2025-04-10T08:31:13Z"]
    ]
    let file = dir.appending("workspace.json")
    try Data(JSONValue.object(v4).jsonString().utf8).write(to: file)
    let store = SQLiteWorkspaceStore.inMemory()
    let report = try KnowledgeEngine(store: store, environment: fixedEnvironment())
      .importLegacyWorkspace(file: file, backupDirectory: dir.appending("b"))
    let ws = try store.read { try $0.snapshot() }
    #expect(ws.memories.map(\.text) == ["keep me"])
    #expect(ws.tasks.isEmpty)
    let quarantined = try store.read { try $0.listQuarantine() }
    #expect(quarantined.map(\.collection).sorted() == ["memories", "memories", "memories", "memories", "tasks"])
    let reasons = quarantined.map(\.reason).joined(separator: "\n")
    #expect(reasons.contains("field 'text' must not be empty"), "\(reasons)")
    #expect(reasons.contains("field 'text' contains a NUL character (U+0000) at character 2"), "\(reasons)")
    #expect(reasons.contains("field 'tags'[0]"), "\(reasons)")
    #expect(reasons.contains("field 'title' must not be empty"), "\(reasons)")
    #expect(report.quarantined.count == 5)
  }
}
