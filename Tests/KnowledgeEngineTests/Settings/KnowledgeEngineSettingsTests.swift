import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

@Suite("Workspace settings through the engine")
struct KnowledgeEngineSettingsTests {
  static func engine(items: Int = 0) throws -> KnowledgeEngine {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    for i in 0..<items { _ = try engine.capture(CaptureRequest(kind: .fact, title: "Fact \(i)")) }
    return engine
  }

  @Test("the report holds the settings, the items held and the settable names")
  func report() throws {
    let engine = try Self.engine(items: 2)
    let report = try engine.settingsReport()
    #expect(report.settings == .default)
    #expect(report.knowledgeItems == 2)
    #expect(report.settable == ["knowledgeItemLimit"])
    #expect(report.entries.map(\.name) == ["assistantName", "responseStyle", "calendarAccessEnabled", "knowledgeItemLimit"])
    #expect(report.entries.map(\.value) == [.text("Dolphin"), .text("balanced"), .boolean(false), .integer(10_000)])
    #expect(report.entries.map(\.value.description) == ["Dolphin", "balanced", "false", "10000"])
    #expect(report.entries.filter(\.isSettable).map(\.name) == ["knowledgeItemLimit"])
  }

  @Test("setting the limit stores it, keeps the other settings, and reports the change; the same value writes nothing")
  func setLimit() throws {
    let engine = try Self.engine(items: 1)
    try engine.store.write { tx in try tx.setSettings(Settings(assistantName: "Flipper", responseStyle: .concise)) }
    let update = try engine.setKnowledgeItemLimit(20_000)
    #expect(update.changes == [SettingChange(name: "knowledgeItemLimit", from: .integer(10_000), to: .integer(20_000))])
    #expect(update.knowledgeItems == 1)
    let stored = try engine.settingsReport().settings
    #expect(stored == Settings(assistantName: "Flipper", responseStyle: .concise, knowledgeItemLimit: 20_000))
    #expect(update.settings == stored)
    #expect(try engine.setKnowledgeItemLimit(20_000).changes.isEmpty)
    // The items held are the floor, and may be the limit itself.
    #expect(try engine.setKnowledgeItemLimit(1).changes.count == 1)
    #expect(throws: WorkspaceError.self) { try engine.capture(CaptureRequest(kind: .fact, title: "One too many")) }
  }

  @Test("the value in effect on a store that creates its workspace at the first write creates nothing; another value creates it")
  func sameValueCreatesNothing() throws {
    let dir = TemporaryDirectory("settings")
    defer { dir.remove() }
    let directory = dir.appending("ws")
    let store = try SQLiteWorkspaceStore.open(directory: directory, creation: .atFirstWrite)
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    let same = try engine.setKnowledgeItemLimit(Limits.knowledgeItemsDefault)
    #expect(same.changes.isEmpty)
    #expect(same.settings == .default)
    #expect(!store.existsOnDisk)
    #expect(regularFiles(under: dir.url).isEmpty)
    #expect(try engine.setKnowledgeItemLimit(20_000).changes.count == 1)
    #expect(store.existsOnDisk)
    #expect(try engine.settingsReport().settings.knowledgeItemLimit == 20_000)
  }

  /// A limit the engine must refuse, and the error's bound and message.
  struct Refused: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var value: Int
    var bound: Int
    var message: String
  }

  static let refused: [Refused] = [
    Refused(
      testDescription: "zero", value: 0, bound: 100_000,
      message: "knowledgeItemLimit is 0; it must be between 1 and 100000. Nothing was changed"),
    Refused(
      testDescription: "negative", value: -3, bound: 100_000,
      message: "knowledgeItemLimit is -3; it must be between 1 and 100000. Nothing was changed"),
    Refused(
      testDescription: "over the maximum", value: 100_001, bound: 100_000,
      message: "knowledgeItemLimit is 100001; it must be between 1 and 100000. Nothing was changed"),
    Refused(
      testDescription: "below the three items held", value: 2, bound: 3,
      message: "knowledgeItemLimit 2 is below the 3 knowledge items the workspace holds; set it to at least 3 (at most "
        + "100000), or delete items first (`dolphin knowledge delete ID`). Nothing was changed"),
  ]

  @Test("a limit outside 1…100,000 or below the items held is refused naming the field, the bound and the value", arguments: refused)
  func refusal(_ c: Refused) throws {
    let engine = try Self.engine(items: 3)
    #expect(
      throws: WorkspaceError.validation(
        ValidationError(field: "knowledgeItemLimit", limit: c.bound, actual: c.value, message: c.message))
    ) { try engine.setKnowledgeItemLimit(c.value) }
    #expect(try engine.settingsReport().settings.knowledgeItemLimit == 10_000)
  }

  @Test("a read-only store refuses the write")
  func readOnly() throws {
    let directory = TemporaryDirectory("settings-ro")
    defer { directory.remove() }
    let store = try SQLiteWorkspaceStore.open(directory: directory.url)
    _ = try KnowledgeEngine(store: store).capture(CaptureRequest(kind: .fact, title: "Kept"))
    let readOnly = try SQLiteWorkspaceStore.open(directory: directory.url, readOnly: true)
    #expect(throws: WorkspaceError.self) { try KnowledgeEngine(store: readOnly).setKnowledgeItemLimit(20_000) }
    #expect(try KnowledgeEngine(store: readOnly).settingsReport().settings.knowledgeItemLimit == 10_000)
  }

  @Test("changes list each differing setting in field order, text quoted in the description")
  func changes() {
    let old = Settings()
    let new = Settings(assistantName: "Fin\nner", responseStyle: .detailed, calendarAccessEnabled: true, knowledgeItemLimit: 5)
    let changes = SettingChange.changes(from: old, to: new)
    #expect(changes.map(\.name) == ["assistantName", "responseStyle", "calendarAccessEnabled", "knowledgeItemLimit"])
    #expect(changes.map(\.description) == [
      #"assistantName 'Dolphin' → 'Fin\nner'"#, "responseStyle balanced → detailed", "calendarAccessEnabled false → true",
      "knowledgeItemLimit 10000 → 5",
    ])
    #expect(SettingChange.changes(from: new, to: new).isEmpty)
  }

  @Test("a change encodes its values with their types, as the settings are: numbers, booleans, strings; and decodes back")
  func typedJSON() throws {
    let changes = SettingChange.changes(
      from: Settings(),
      to: Settings(assistantName: "Fin", responseStyle: .detailed, calendarAccessEnabled: true, knowledgeItemLimit: 5))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(changes), as: UTF8.self)
    #expect(
      json == #"[{"from":"Dolphin","name":"assistantName","to":"Fin"},"#
        + #"{"from":"balanced","name":"responseStyle","to":"detailed"},"#
        + #"{"from":false,"name":"calendarAccessEnabled","to":true},"#
        + #"{"from":10000,"name":"knowledgeItemLimit","to":5}]"#)
    #expect(try JSONDecoder().decode([SettingChange].self, from: Data(json.utf8)) == changes)
    // Text that looks like a number or a truth value stays text.
    let name = SettingChange(name: "assistantName", from: .text("true"), to: .text("42"))
    let encoded = try encoder.encode(name)
    #expect(String(decoding: encoded, as: UTF8.self) == #"{"from":"true","name":"assistantName","to":"42"}"#)
    #expect(try JSONDecoder().decode(SettingChange.self, from: encoded) == name)
  }

  @Test("an import that adopts the file's settings reports what it changed; one that keeps them reports nothing")
  func importReport() throws {
    let source = try Self.engine(items: 1)
    var document = try source.exportWorkspace(generator: "test")
    document.workspace.settings.knowledgeItemLimit = 20_000
    let target = try Self.engine()
    try target.store.write { tx in try tx.setSettings(Settings()) }
    let skipped = try target.applyImport(document, policy: .skip, source: "e.json")
    #expect(skipped.settingsChanged.isEmpty)
    let replaced = try target.applyImport(document, policy: .replace, source: "e.json")
    #expect(replaced.settingsChanged == [SettingChange(name: "knowledgeItemLimit", from: .integer(10_000), to: .integer(20_000))])
    #expect(replaced.written.values.reduce(0, +) == 0)
    #expect(try target.settingsReport().settings.knowledgeItemLimit == 20_000)
  }
}
