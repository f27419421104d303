import Foundation
import Testing

@testable import ContinuityKit

@Suite("Legacy JSON workspace importer")
struct LegacyWorkspaceImporterTests {
  // MARK: - Each version, field by field

  struct VersionCase: CustomTestStringConvertible, Sendable {
    var fixture: String
    var version: Int
    var expected: AssistantWorkspace
    var testDescription: String { fixture }
  }

  static let versionCases: [VersionCase] = [
    VersionCase(fixture: "workspace-v1.json", version: 1, expected: ExpectedLegacy.v1),
    VersionCase(
      fixture: "workspace-v1-string-version.json", version: 1,
      expected: ExpectedLegacy.v1StringVersion),
    VersionCase(fixture: "workspace-v2.json", version: 2, expected: ExpectedLegacy.v2),
    VersionCase(fixture: "workspace-v3.json", version: 3, expected: ExpectedLegacy.v3),
    VersionCase(fixture: "workspace-v4.json", version: 4, expected: ExpectedLegacy.v4),
    VersionCase(
      fixture: "workspace-v4-missing-optional.json", version: 4,
      expected: ExpectedLegacy.v4MissingOptional),
  ]

  @Test("Converts every record of a fixture to schema v5", arguments: versionCases)
  func convertsFixture(_ testCase: VersionCase) throws {
    let result = try LegacyWorkspaceImporter.decode(
      try legacyFixture(testCase.fixture), fileName: testCase.fixture)
    #expect(result.sourceVersion == testCase.version)
    #expect(result.quarantined == [])
    #expect(result.integrityProblems == [])
    expectSameWorkspace(result.workspace, testCase.expected)
  }

  // MARK: - Version header

  struct HeaderCase: CustomTestStringConvertible, Sendable {
    var name: String
    var json: String
    var version: Int
    var testDescription: String { name }
  }

  static let headerCases: [HeaderCase] = [
    HeaderCase(name: "no key means v1", json: #"{"conversations":[],"memories":[]}"#, version: 1),
    HeaderCase(
      name: "number 1", json: #"{"schemaVersion":1,"conversations":[],"memories":[]}"#, version: 1),
    HeaderCase(
      name: "string \"4\"",
      json:
        #"{"schemaVersion":"4","conversations":[],"memories":[],"tasks":[],"receipts":[],"checkpoints":[]}"#,
      version: 4),
    HeaderCase(
      name: "byte order mark before a v3 file",
      json: "\u{FEFF}"
        + #"{"schemaVersion":3,"conversations":[],"memories":[],"tasks":[],"receipts":[]}"#,
      version: 3),
  ]

  @Test("Reads the version header; missing settings get their defaults", arguments: headerCases)
  func readsHeader(_ testCase: HeaderCase) throws {
    let result = try LegacyWorkspaceImporter.decode(
      Data(testCase.json.utf8), fileName: "workspace.json")
    #expect(result.sourceVersion == testCase.version)
    #expect(result.workspace == AssistantWorkspace())
    #expect(result.workspace.settings == .default)
    #expect(result.isClean)
  }

  // MARK: - Whole-file failures

  struct FailureCase: CustomTestStringConvertible, Sendable {
    var name: String
    var file: String
    /// A fixture name, or nil to use `bytes`.
    var fixture: String?
    var bytes: [UInt8] = []
    var expected: LegacyImportError
    var testDescription: String { name }

    init(_ name: String, fixture: String, expected: LegacyImportError) {
      self.name = name
      self.file = fixture
      self.fixture = fixture
      self.expected = expected
    }

    init(_ name: String, json: String, expected: LegacyImportError) {
      self.init(name, bytes: Array(json.utf8), expected: expected)
    }

    init(_ name: String, bytes: [UInt8], expected: LegacyImportError) {
      self.name = name
      self.file = "workspace.json"
      self.bytes = bytes
      self.expected = expected
    }
  }

  static let failureCases: [FailureCase] = [
    // Not JSON
    FailureCase(
      "file cut off inside a receipt", fixture: "workspace-v3-truncated.json",
      expected: .notJSON(
        file: "workspace-v3-truncated.json", line: 70, column: 41, byteOffset: 2190,
        detail:
          "the input ends inside a string that starts at line 70, column 22; the file looks cut off"
      )),
    FailureCase(
      "file cut off after an opening bracket", json: #"{"memories": ["#,
      expected: .notJSON(
        file: "workspace.json", line: 1, column: 15, byteOffset: 14,
        detail:
          "the input ends inside an array opened at line 1, column 14, where a value or ']' was expected; the file looks cut off"
      )),
    FailureCase(
      "empty file", json: "",
      expected: .notJSON(
        file: "workspace.json", line: 1, column: 1, byteOffset: 0, detail: "the input is empty")),
    FailureCase(
      "misspelled literal", json: #"{"memories": tru}"#,
      expected: .notJSON(
        file: "workspace.json", line: 1, column: 14, byteOffset: 13,
        detail: "invalid literal; expected 'true'")),
    FailureCase(
      "trailing comma", json: #"{"memories": [1,]}"#,
      expected: .notJSON(
        file: "workspace.json", line: 1, column: 17, byteOffset: 16,
        detail: "unexpected ']' after ','; trailing commas are not JSON")),
    FailureCase(
      "column counts characters, not bytes", json: "{\n  \"title\": \"Café ☕️\", x\n}",
      expected: .notJSON(
        file: "workspace.json", line: 2, column: 22, byteOffset: 29,
        detail: "unexpected character 'x'; expected a member name in double quotes")),
    FailureCase(
      "a stray backslash is named, not quoted", json: "{} \\",
      expected: .notJSON(
        file: "workspace.json", line: 1, column: 4, byteOffset: 3,
        detail: "unexpected backslash after the end of the JSON value")),
    FailureCase(
      "two values", json: "{} {}",
      expected: .notJSON(
        file: "workspace.json", line: 1, column: 4, byteOffset: 3,
        detail: "unexpected character '{' after the end of the JSON value")),
    FailureCase(
      "invalid UTF-8 in a string", bytes: Array(#"{"a": ""#.utf8) + [0xFF] + Array(#""}"#.utf8),
      expected: .notJSON(
        file: "workspace.json", line: 1, column: 7, byteOffset: 6,
        detail: "the string starting here is not valid UTF-8")),
    FailureCase(
      "nested too deeply", json: String(repeating: "[", count: 300),
      expected: .notJSON(
        file: "workspace.json", line: 1, column: 257, byteOffset: 256,
        detail: "arrays and objects are nested deeper than 256 levels")),
    FailureCase(
      "unpaired surrogate escape", json: #"{"a": "\ud83c"}"#,
      expected: .notJSON(
        file: "workspace.json", line: 1, column: 8, byteOffset: 7,
        detail: #"unpaired surrogate escape \uD83C"#)),
    // Versions
    FailureCase(
      "schemaVersion 99", fixture: "workspace-v99.json",
      expected: .unsupportedVersion(file: "workspace-v99.json", found: 99)),
    FailureCase(
      "schemaVersion 5 is the database", json: #"{"schemaVersion": 5, "knowledge": []}"#,
      expected: .unsupportedVersion(file: "workspace.json", found: 5)),
    FailureCase(
      "schemaVersion \"99\"", json: #"{"schemaVersion": "99"}"#,
      expected: .unsupportedVersion(file: "workspace.json", found: 99)),
    FailureCase(
      "schemaVersion 0", json: #"{"schemaVersion": 0}"#,
      expected: .unsupportedVersion(file: "workspace.json", found: 0)),
    FailureCase(
      "schemaVersion -1", json: #"{"schemaVersion": -1}"#,
      expected: .unsupportedVersion(file: "workspace.json", found: -1)),
    FailureCase(
      "schemaVersion true", json: #"{"schemaVersion": true}"#,
      expected: .invalidVersion(file: "workspace.json", found: "true")),
    FailureCase(
      "schemaVersion 1.5", json: #"{"schemaVersion": 1.5}"#,
      expected: .invalidVersion(file: "workspace.json", found: "1.5")),
    FailureCase(
      "schemaVersion \"v2\"", json: #"{"schemaVersion": "v2"}"#,
      expected: .invalidVersion(file: "workspace.json", found: #""v2""#)),
    FailureCase(
      "schemaVersion null", json: #"{"schemaVersion": null}"#,
      expected: .invalidVersion(file: "workspace.json", found: "null")),
    FailureCase(
      "schemaVersion too large for Int", json: #"{"schemaVersion": 99999999999999999999}"#,
      expected: .invalidVersion(file: "workspace.json", found: "99999999999999999999")),
    // Not a workspace
    FailureCase(
      "top level is an array", json: "[]",
      expected: .notAWorkspace(
        file: "workspace.json",
        detail:
          #"the top level is an array; a workspace file is one JSON object with keys such as "conversations" and "memories""#
      )),
    FailureCase(
      "v2 without tasks", json: #"{"schemaVersion": 2, "conversations": [], "memories": []}"#,
      expected: .notAWorkspace(
        file: "workspace.json",
        detail:
          #"a version-2 workspace has a "tasks" array and this file has none; if the file is an earlier version, its schemaVersion is wrong"#
      )),
    FailureCase(
      "collection of the wrong type", json: #"{"conversations": {}, "memories": []}"#,
      expected: .notAWorkspace(
        file: "workspace.json",
        detail: #""conversations" is an object ({}); a version-1 workspace stores it as an array"#)),
    FailureCase(
      "key of a later version", json: #"{"conversations": [], "memories": [], "tasks": []}"#,
      expected: .notAWorkspace(
        file: "workspace.json",
        detail:
          #"the top-level key "tasks" is not part of a version-1 workspace, which has only "schemaVersion", "conversations", "memories", "settings"; if the file is a later version, its schemaVersion is wrong"#
      )),
    FailureCase(
      "repeated top-level key", json: #"{"memories": [], "memories": [], "conversations": []}"#,
      expected: .notAWorkspace(
        file: "workspace.json",
        detail:
          #"the top-level key "memories" appears twice, so it is unclear which one holds the data; remove the stale copy"#
      )),
  ]

  @Test("Refuses the whole file and imports nothing", arguments: failureCases)
  func refusesFile(_ testCase: FailureCase) throws {
    let data = try testCase.fixture.map(legacyFixture) ?? Data(testCase.bytes)
    #expect(throws: testCase.expected) {
      try LegacyWorkspaceImporter.decode(data, fileName: testCase.file)
    }
  }

  @Test("Error messages say what, where, and what to do")
  func errorMessages() {
    #expect(
      LegacyImportError.notJSON(
        file: "workspace-v3-truncated.json", line: 70, column: 41, byteOffset: 2190,
        detail:
          "the input ends inside a string that starts at line 70, column 22; the file looks cut off"
      ).description
        == "workspace-v3-truncated.json is not valid JSON: at line 70, column 41 (byte 2190), the "
        + "input ends inside a string that starts at line 70, column 22; the file looks cut off. "
        + "Nothing was imported and the file was not changed. If the file was cut off (an "
        + "interrupted copy or a full disk), import an intact copy or backup instead.")
    // Review 18-c (C12): the cut-off advice was given for every syntax error, an encoding error too.
    let encoding = LegacyImportError.notJSON(
      file: "latin.json", line: 3, column: 12, byteOffset: 40, detail: "the string starting here is not valid UTF-8"
    ).description
    #expect(!encoding.contains("cut off"))
    #expect(encoding.hasSuffix("save it as UTF-8 and migrate that copy."))
    let syntax = LegacyImportError.notJSON(
      file: "w.json", line: 2, column: 5, byteOffset: 9, detail: "unexpected character 'x' where a value was expected"
    ).description
    #expect(!syntax.contains("cut off"))
    #expect(syntax.hasSuffix("Fix the JSON at that place in a copy of the file, or import an intact copy or backup instead."))
    #expect(
      LegacyImportError.unsupportedVersion(file: "workspace-v99.json", found: 99).description
        == "workspace-v99.json declares schemaVersion 99, but this build reads legacy JSON "
        + "workspaces of versions 1–4 only. It was written by a newer Dolphin than this build knows, "
        + "so this build cannot import it. Nothing was imported.")
    #expect(
      LegacyImportError.unsupportedVersion(file: "old.json", found: 5).description
        == "old.json declares schemaVersion 5, but this build reads legacy JSON workspaces of "
        + "versions 1–4 only. Schema v5 is the SQLite database (workspace.sqlite), not a JSON "
        + "file; to bring in a v5 export, use the export import (`dolphin import` on the command "
        + "line), not the legacy migration. Nothing was imported.")
    #expect(
      LegacyImportError.invalidVersion(file: "w.json", found: "true").description
        == "w.json has schemaVersion true, which is not a version number. Expected a whole number "
        + "from 1 to 4 (\"1\" as a string is accepted too), or no schemaVersion key for a "
        + "version-1 file. Nothing was imported.")
    #expect(
      LegacyImportError.notAWorkspace(file: "w.json", detail: "the top level is an array")
        .description
        == "w.json is not a Dolphin legacy workspace: the top level is an array. Nothing was "
        + "imported and the file was not changed.")
  }

  // MARK: - Quarantine

  @Test("Quarantines each bad record verbatim and imports the rest")
  func quarantinesBadRecords() throws {
    let name = "workspace-v4-quarantine.json"
    let result = try LegacyWorkspaceImporter.decode(try legacyFixture(name), fileName: name)
    #expect(result.sourceVersion == 4)

    let crash = uuid("0E1F2A3B-4C5D-4E6F-8A9B-0C1D2E3F4A5B")
    let run = uuid("4AB1C2D3-4E5F-4A6B-9C8D-9E0F1A2B3C4D")
    expectSameWorkspace(
      result.workspace,
      AssistantWorkspace(
        memories: [
          MemoryItem(
            id: uuid("7A8B9C0D-1E2F-4A3B-8C5D-6E7F8A9B0C1D"), text: "Prefers SwiftUI over UIKit",
            tags: ["swiftui"], createdAt: date("2025-04-01T09:00:00Z"))
        ],
        tasks: [
          TaskItem(
            id: uuid("C2F3A4B5-6D7E-4F8A-9B0C-1D2E3F4A5B6C"), title: "Fix the widget crash",
            priority: .high, createdAt: date("2025-04-20T10:05:00Z"))
        ],
        conversations: [
          Conversation(
            id: crash, title: "Widget crash", createdAt: date("2025-04-20T10:00:00Z"),
            updatedAt: date("2025-04-20T10:02:00Z"))
        ],
        messages: [
          ChatMessage(
            id: uuid("1A2B3C4D-5E6F-4A7B-8C9D-0E1F2A3B4C5D"), conversationID: crash, role: .user,
            text: "The widget crashes on launch.", createdAt: date("2025-04-20T10:00:00Z"))
        ],
        settings: .default,
        receipts: [
          ActivityReceipt(
            id: uuid("06D7E8F9-0A1B-4C2D-9E4F-5A6B7C8D9E0F"), callID: "call_04LC3Z2P",
            tool: "task_add",
            risk: "localWrite", arguments: #"{"title":"Fix the widget crash"}"#,
            outcome: .succeeded,
            startedAt: date("2025-04-20T10:04:59Z"), finishedAt: date("2025-04-20T10:05:00Z"),
            approval: "user")
        ],
        checkpoints: [
          RunCheckpoint(
            id: uuid("39A0B1C2-3D4E-4F5A-8B7C-8D9E0F1A2B3C"), runID: run, step: 0, state: "planned",
            createdAt: date("2025-04-20T10:04:58Z"))
        ]))

    let logLine = "error: cannot find 'HabitStore' in scope\n"
    let longText = String(
      String(repeating: logLine, count: 16_001 / logLine.count + 1).prefix(16_001))
    let longTextJSON = longText.replacingOccurrences(of: "\n", with: #"\n"#)
    let uuidHint = "expected a form like 3F2504E0-4F89-11D3-9A0C-0305E82C3301"

    let expected: [QuarantinedRecord] = [
      QuarantinedRecord(
        collection: "conversations[0].messages", index: 1,
        reason:
          #"field 'role' has unknown value "wizard"; expected one of user, assistant, system, tool"#,
        rawJSON:
          #"{"createdAt":"2025-04-20T10:01:00Z","id":"2B3C4D5E-6F7A-4B8C-9D0E-1F2A3B4C5D6E","role":"wizard","text":"Abracadabra."}"#
      ),
      QuarantinedRecord(
        collection: "conversations[0].messages", index: 2,
        reason: "missing required field 'createdAt'",
        rawJSON:
          #"{"id":"3C4D5E6F-7A8B-4C9D-8E1F-2A3B4C5D6E7F","role":"assistant","text":"Check the widget's memory use."}"#
      ),
      QuarantinedRecord(
        collection: "conversations", index: 1,
        reason: #"field 'id' is not a UUID: "conv-2"; "# + uuidHint,
        rawJSON:
          #"{"createdAt":"2025-04-20T11:00:00Z","id":"conv-2","messages":[{"createdAt":"2025-04-20T11:00:00Z","id":"4D5E6F7A-8B9C-4D0E-9F2A-3B4C5D6E7F8A","role":"user","text":"Hello?"},{"createdAt":"2025-04-20T11:00:01Z","id":"5E6F7A8B-9C0D-4E1F-8A3B-4C5D6E7F8A9B","role":"assistant","text":"Hi."}],"title":"Broken id","updatedAt":"2025-04-20T11:00:00Z"}"#
      ),
      QuarantinedRecord(
        collection: "conversations", index: 2,
        reason:
          "duplicate id 0E1F2A3B-4C5D-4E6F-8A9B-0C1D2E3F4A5B; conversations[0] has the same id and was imported",
        rawJSON:
          #"{"createdAt":"2025-04-20T10:00:00Z","id":"0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b","messages":[{"createdAt":"2025-04-20T10:00:00Z","id":"6F7A8B9C-0D1E-4F2A-9B4C-5D6E7F8A9B0C","role":"user","text":"The widget crashes on launch."}],"title":"Widget crash (copy)","updatedAt":"2025-04-20T10:00:00Z"}"#
      ),
      QuarantinedRecord(
        collection: "memories", index: 1,
        reason: #"field 'id' is not a UUID: "not-a-uuid"; "# + uuidHint,
        rawJSON: #"{"createdAt":"2025-04-01T09:01:00Z","id":"not-a-uuid","text":"Uses SwiftData"}"#),
      QuarantinedRecord(
        collection: "memories", index: 2,
        reason: "field 'text' is 16001 characters; the limit is 16000 characters",
        rawJSON:
          #"{"createdAt":"2025-04-01T09:02:00Z","id":"8B9C0D1E-2F3A-4B4C-9D6E-7F8A9B0C1D2E","text":""#
          + longTextJSON + #""}"#),
      QuarantinedRecord(
        collection: "memories", index: 3,
        reason:
          "duplicate id 7A8B9C0D-1E2F-4A3B-8C5D-6E7F8A9B0C1D; memories[0] has the same id and was imported",
        rawJSON:
          #"{"createdAt":"2025-04-01T09:03:00Z","id":"7A8B9C0D-1E2F-4A3B-8C5D-6E7F8A9B0C1D","text":"Prefers SwiftUI over UIKit (again)"}"#
      ),
      QuarantinedRecord(
        collection: "memories", index: 4,
        reason: "unknown field 'pinned'; a v4 memory record has only id, text, tags, createdAt",
        rawJSON:
          #"{"createdAt":"2025-04-01T09:04:00Z","id":"9C0D1E2F-3A4B-4C5D-8E7F-8A9B0C1D2E3F","pinned":true,"text":"Ships on Tuesdays"}"#
      ),
      QuarantinedRecord(
        collection: "memories", index: 5, reason: "field 'tags' has 17 tags; the limit is 16",
        rawJSON:
          #"{"createdAt":"2025-04-01T09:05:00Z","id":"A0D1E2F3-4B5C-4D6E-9F8A-9B0C1D2E3F4A","tags":["t01","t02","t03","t04","t05","t06","t07","t08","t09","t10","t11","t12","t13","t14","t15","t16","t17"],"text":"Too many tags"}"#
      ),
      QuarantinedRecord(
        collection: "memories", index: 6, reason: "field 'text' must not be empty",
        rawJSON:
          #"{"createdAt":"2025-04-01T09:06:00Z","id":"B1E2F3A4-5C6D-4E7F-8A9B-0C1D2E3F4A5B","text":"   "}"#
      ),
      QuarantinedRecord(
        collection: "settings", index: nil,
        reason:
          #"field 'responseStyle' has unknown value "chatty"; expected one of concise, balanced, detailed"#,
        rawJSON:
          #"{"assistantName":"Dolphin","calendarAccessEnabled":false,"responseStyle":"chatty"}"#),
      QuarantinedRecord(
        collection: "tasks", index: 1, reason: "missing required field 'title'",
        rawJSON:
          #"{"createdAt":"2025-04-20T10:06:00Z","id":"D3A4B5C6-7E8F-4A9B-8C1D-2E3F4A5B6C7D","isCompleted":false,"notes":"No title here"}"#
      ),
      QuarantinedRecord(
        collection: "tasks", index: 2,
        reason: #"field 'priority' has unknown value "urgent"; expected one of low, normal, high"#,
        rawJSON:
          #"{"createdAt":"2025-04-20T10:07:00Z","id":"E4B5C6D7-8F9A-4B0C-9D2E-3F4A5B6C7D8E","isCompleted":false,"priority":"urgent","title":"Escalate to Apple"}"#
      ),
      QuarantinedRecord(
        collection: "tasks", index: 3,
        reason:
          "isCompleted is true but completedAt is missing; a completed task records when it was completed",
        rawJSON:
          #"{"createdAt":"2025-04-20T10:08:00Z","id":"F5C6D7E8-9A0B-4C1D-8E3F-4A5B6C7D8E9F","isCompleted":true,"title":"Reproduce on iOS 17.4"}"#
      ),
      QuarantinedRecord(
        collection: "tasks", index: 4, reason: "expected a task object, found a string",
        rawJSON: #""Buy milk""#),
      QuarantinedRecord(
        collection: "receipts", index: 1,
        reason:
          #"field 'outcome' has unknown value "exploded"; expected one of succeeded, failed, denied, cancelled"#,
        rawJSON:
          #"{"arguments":{"query":"widget"},"callID":"call_04LC3Z3Q","finishedAt":"2025-04-20T10:06:01Z","id":"17E8F9A0-1B2C-4D3E-8F5A-6B7C8D9E0F1A","outcome":"exploded","risk":"readOnly","startedAt":"2025-04-20T10:06:00Z","tool":"memory_search"}"#
      ),
      QuarantinedRecord(
        collection: "receipts", index: 2,
        reason: #"field 'arguments' is a string ("{\"query\":\"widget\"}"); expected an object"#,
        rawJSON:
          #"{"arguments":"{\"query\":\"widget\"}","callID":"call_04LC3Z4R","finishedAt":"2025-04-20T10:07:01Z","id":"28F9A0B1-2C3D-4E4F-9A6B-7C8D9E0F1A2B","outcome":"succeeded","risk":"readOnly","startedAt":"2025-04-20T10:07:00Z","tool":"memory_search"}"#
      ),
      QuarantinedRecord(
        collection: "checkpoints", index: 1,
        reason: #"field 'step' is a string ("two"); expected a whole number of at least 0"#,
        rawJSON:
          #"{"createdAt":"2025-04-20T10:04:59Z","id":"5BC2D3E4-5F6A-4B7C-8D9E-0F1A2B3C4D5E","runID":"4AB1C2D3-4E5F-4A6B-9C8D-9E0F1A2B3C4D","state":"executing","step":"two"}"#
      ),
      QuarantinedRecord(
        collection: "checkpoints", index: 2,
        reason: "field 'step' is 1.5; expected a whole number of at least 0",
        rawJSON:
          #"{"createdAt":"2025-04-20T10:04:59Z","id":"6CD3E4F5-6A7B-4C8D-9E0F-1A2B3C4D5E6F","runID":"4AB1C2D3-4E5F-4A6B-9C8D-9E0F1A2B3C4D","state":"executing","step":1.5}"#
      ),
      QuarantinedRecord(
        collection: "checkpoints", index: 3,
        reason:
          #"field 'createdAt' is not an ISO-8601 date: "yesterday"; expected a form like 2025-03-14T09:12:44Z"#,
        rawJSON:
          #"{"createdAt":"yesterday","id":"7DE4F5A6-7B8C-4D9E-8F1A-2B3C4D5E6F7A","runID":"4AB1C2D3-4E5F-4A6B-9C8D-9E0F1A2B3C4D","state":"finished","step":2}"#
      ),
    ]
    #expect(result.quarantined.count == expected.count)
    for (actual, wanted) in zip(result.quarantined, expected) {
      #expect(actual.collection == wanted.collection)
      #expect(actual.index == wanted.index, "\(wanted.collection)")
      #expect(actual.reason == wanted.reason, "\(wanted.collection)[\(wanted.index ?? -1)]")
      #expect(actual.rawJSON == wanted.rawJSON, "\(wanted.collection)[\(wanted.index ?? -1)]")
    }

    // One problem line per quarantined record, naming where it was and its id as written.
    #expect(
      result.integrityProblems == [
        #"conversations[0].messages[1] (id "2B3C4D5E-6F7A-4B8C-9D0E-1F2A3B4C5D6E"): "#
          + expected[0].reason + "; the record was quarantined",
        #"conversations[0].messages[2] (id "3C4D5E6F-7A8B-4C9D-8E1F-2A3B4C5D6E7F"): "#
          + expected[1].reason + "; the record was quarantined",
        #"conversations[1] (id "conv-2"): "# + expected[2].reason
          + "; the record was quarantined with its 2 embedded messages",
        #"conversations[2] (id "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b"): "# + expected[3].reason
          + "; the record was quarantined with its 1 embedded message",
        #"memories[1] (id "not-a-uuid"): "# + expected[4].reason + "; the record was quarantined",
        #"memories[2] (id "8B9C0D1E-2F3A-4B4C-9D6E-7F8A9B0C1D2E"): "# + expected[5].reason
          + "; the record was quarantined",
        #"memories[3] (id "7A8B9C0D-1E2F-4A3B-8C5D-6E7F8A9B0C1D"): "# + expected[6].reason
          + "; the record was quarantined",
        #"memories[4] (id "9C0D1E2F-3A4B-4C5D-8E7F-8A9B0C1D2E3F"): "# + expected[7].reason
          + "; the record was quarantined",
        #"memories[5] (id "A0D1E2F3-4B5C-4D6E-9F8A-9B0C1D2E3F4A"): "# + expected[8].reason
          + "; the record was quarantined",
        #"memories[6] (id "B1E2F3A4-5C6D-4E7F-8A9B-0C1D2E3F4A5B"): "# + expected[9].reason
          + "; the record was quarantined",
        "settings: " + expected[10].reason
          + "; the record was quarantined and the default settings were used",
        #"tasks[1] (id "D3A4B5C6-7E8F-4A9B-8C1D-2E3F4A5B6C7D"): "# + expected[11].reason
          + "; the record was quarantined",
        #"tasks[2] (id "E4B5C6D7-8F9A-4B0C-9D2E-3F4A5B6C7D8E"): "# + expected[12].reason
          + "; the record was quarantined",
        #"tasks[3] (id "F5C6D7E8-9A0B-4C1D-8E3F-4A5B6C7D8E9F"): "# + expected[13].reason
          + "; the record was quarantined",
        "tasks[4]: " + expected[14].reason + "; the record was quarantined",
        #"receipts[1] (id "17E8F9A0-1B2C-4D3E-8F5A-6B7C8D9E0F1A"): "# + expected[15].reason
          + "; the record was quarantined",
        #"receipts[2] (id "28F9A0B1-2C3D-4E4F-9A6B-7C8D9E0F1A2B"): "# + expected[16].reason
          + "; the record was quarantined",
        #"checkpoints[1] (id "5BC2D3E4-5F6A-4B7C-8D9E-0F1A2B3C4D5E"): "# + expected[17].reason
          + "; the record was quarantined",
        #"checkpoints[2] (id "6CD3E4F5-6A7B-4C8D-9E0F-1A2B3C4D5E6F"): "# + expected[18].reason
          + "; the record was quarantined",
        #"checkpoints[3] (id "7DE4F5A6-7B8C-4D9E-8F1A-2B3C4D5E6F7A"): "# + expected[19].reason
          + "; the record was quarantined",
      ])
  }

  struct RecordCase: CustomTestStringConvertible, Sendable {
    var name: String
    /// The top-level key the record goes in; `settings` holds it directly, others in an array.
    var collection: String
    var record: String
    var reason: String
    var rawJSON: String
    var testDescription: String { name }
  }

  static let recordCases: [RecordCase] = [
    RecordCase(
      name: "repeated field", collection: "memories",
      record:
        #"{"id": "11111111-1111-4111-8111-111111111111", "id": "22222222-2222-4222-8222-222222222222", "text": "a", "createdAt": "2025-01-01T00:00:00Z"}"#,
      reason: "field 'id' appears twice",
      rawJSON:
        #"{"createdAt":"2025-01-01T00:00:00Z","id":"11111111-1111-4111-8111-111111111111","id":"22222222-2222-4222-8222-222222222222","text":"a"}"#
    ),
    RecordCase(
      name: "required field is null", collection: "memories",
      record:
        #"{"id": "11111111-1111-4111-8111-111111111111", "text": null, "createdAt": "2025-01-01T00:00:00Z"}"#,
      reason: "field 'text' is null; it is required and must be a string",
      rawJSON:
        #"{"createdAt":"2025-01-01T00:00:00Z","id":"11111111-1111-4111-8111-111111111111","text":null}"#
    ),
    RecordCase(
      name: "memory tags before v4", collection: "memories",
      record:
        #"{"id": "11111111-1111-4111-8111-111111111111", "text": "a", "tags": ["x"], "createdAt": "2025-01-01T00:00:00Z"}"#,
      reason: "unknown field 'tags'; a v1–v3 memory record has only id, text, createdAt",
      rawJSON:
        #"{"createdAt":"2025-01-01T00:00:00Z","id":"11111111-1111-4111-8111-111111111111","tags":["x"],"text":"a"}"#
    ),
    RecordCase(
      name: "completedAt on an open task", collection: "tasks",
      record:
        #"{"id": "11111111-1111-4111-8111-111111111111", "title": "Ship", "isCompleted": false, "createdAt": "2025-01-01T00:00:00Z", "completedAt": "2025-01-02T00:00:00Z"}"#,
      reason: "completedAt is set but isCompleted is false; the two disagree",
      rawJSON:
        #"{"completedAt":"2025-01-02T00:00:00Z","createdAt":"2025-01-01T00:00:00Z","id":"11111111-1111-4111-8111-111111111111","isCompleted":false,"title":"Ship"}"#
    ),
    // Review 18-d, S1: stored, it failed `doctor` and made the workspace's export unimportable.
    RecordCase(
      name: "task completed before it was created", collection: "tasks",
      record:
        #"{"id": "11111111-1111-4111-8111-111111111111", "title": "Ship", "isCompleted": true, "createdAt": "2025-01-02T00:00:00Z", "completedAt": "2025-01-01T00:00:00Z"}"#,
      reason:
        "completedAt 2025-01-01T00:00:00.000Z is earlier than createdAt 2025-01-02T00:00:00.000Z; a task cannot be completed before it was created",
      rawJSON:
        #"{"completedAt":"2025-01-01T00:00:00Z","createdAt":"2025-01-02T00:00:00Z","id":"11111111-1111-4111-8111-111111111111","isCompleted":true,"title":"Ship"}"#
    ),
    RecordCase(
      name: "task title over 300 characters", collection: "tasks",
      record:
        #"{"id": "11111111-1111-4111-8111-111111111111", "title": "\#(String(repeating: "é", count: 301))", "isCompleted": false, "createdAt": "2025-01-01T00:00:00Z"}"#,
      reason: "field 'title' is 301 characters; the limit is 300 characters",
      rawJSON:
        #"{"createdAt":"2025-01-01T00:00:00Z","id":"11111111-1111-4111-8111-111111111111","isCompleted":false,"title":"\#(String(repeating: "é", count: 301))"}"#
    ),
    RecordCase(
      name: "blank tool name", collection: "receipts",
      record:
        #"{"id": "11111111-1111-4111-8111-111111111111", "callID": "c1", "tool": "  ", "risk": "readOnly", "arguments": {}, "outcome": "succeeded", "startedAt": "2025-01-01T00:00:00Z", "finishedAt": "2025-01-01T00:00:01Z"}"#,
      reason: "field 'tool' must not be empty",
      rawJSON:
        #"{"arguments":{},"callID":"c1","finishedAt":"2025-01-01T00:00:01Z","id":"11111111-1111-4111-8111-111111111111","outcome":"succeeded","risk":"readOnly","startedAt":"2025-01-01T00:00:00Z","tool":"  "}"#
    ),
    RecordCase(
      name: "blank assistant name", collection: "settings",
      record: #"{"assistantName": "", "responseStyle": "concise"}"#,
      reason: "field 'assistantName' must not be empty",
      rawJSON: #"{"assistantName":"","responseStyle":"concise"}"#),
    // Review 19-b, F2: these aborted the whole migration (the store refused them) instead of
    // being quarantined as every other over-bound record is.
    RecordCase(
      name: "assistant name over 300 characters", collection: "settings",
      record: #"{"assistantName": "\#(String(repeating: "n", count: 301))", "responseStyle": "concise"}"#,
      reason: "field 'assistantName' is 301 characters; the limit is 300 characters",
      rawJSON: #"{"assistantName":"\#(String(repeating: "n", count: 301))","responseStyle":"concise"}"#),
    RecordCase(
      name: "conversation title over 300 characters", collection: "conversations",
      record:
        #"{"id": "11111111-1111-4111-8111-111111111111", "title": "\#(String(repeating: "中", count: 301))", "createdAt": "2025-01-01T00:00:00Z", "updatedAt": "2025-01-01T00:00:00Z", "messages": []}"#,
      reason: "field 'title' is 301 characters; the limit is 300 characters",
      rawJSON:
        #"{"createdAt":"2025-01-01T00:00:00Z","id":"11111111-1111-4111-8111-111111111111","messages":[],"title":"\#(String(repeating: "中", count: 301))","updatedAt":"2025-01-01T00:00:00Z"}"#
    ),
  ]

  @Test("A message over 16,000 characters is quarantined alone; its conversation and the others are imported")
  func overBoundMessage() throws {
    let long = String(repeating: "x", count: Limits.content + 1)
    let atLimit = String(repeating: "y", count: Limits.content)
    let json = #"""
      {"schemaVersion": 1, "memories": [], "conversations": [
        {"id": "11111111-1111-4111-8111-111111111111", "title": "Code review", "createdAt": "2025-01-01T00:00:00Z",
         "updatedAt": "2025-01-01T00:02:00Z", "messages": [
          {"id": "22222222-2222-4222-8222-222222222222", "role": "user", "text": "Show me the file", "createdAt": "2025-01-01T00:00:00Z"},
          {"id": "33333333-3333-4333-8333-333333333333", "role": "assistant", "text": "\#(long)", "createdAt": "2025-01-01T00:01:00Z"},
          {"id": "44444444-4444-4444-8444-444444444444", "role": "assistant", "text": "\#(atLimit)", "createdAt": "2025-01-01T00:02:00Z"}]}]}
      """#
    let result = try LegacyWorkspaceImporter.decode(Data(json.utf8), fileName: "w.json")
    #expect(result.workspace.conversations.map(\.id) == [uuid("11111111-1111-4111-8111-111111111111")])
    #expect(
      result.workspace.messages.map(\.id)
        == [uuid("22222222-2222-4222-8222-222222222222"), uuid("44444444-4444-4444-8444-444444444444")])
    let reason = "field 'text' is \(Limits.content + 1) characters; the limit is \(Limits.content) characters"
    #expect(result.quarantined.map(\.collection) == ["conversations[0].messages"])
    #expect(result.quarantined.first?.index == 1)
    #expect(result.quarantined.first?.reason == reason)
    #expect(result.quarantined.first?.rawJSON.contains(long) == true, "kept verbatim")
    #expect(
      result.integrityProblems == [
        #"conversations[0].messages[1] (id "33333333-3333-4333-8333-333333333333"): "# + reason
          + "; the record was quarantined"
      ])
  }

  @Test("Quarantines a record that breaks a rule", arguments: recordCases)
  func quarantinesRecord(_ testCase: RecordCase) throws {
    var members = [
      "\"schemaVersion\": 3", "\"conversations\": []", "\"memories\": []", "\"tasks\": []",
      "\"receipts\": []",
    ]
    members.removeAll { $0.hasPrefix("\"\(testCase.collection)\"") }
    let isSettings = testCase.collection == "settings"
    members.append(
      "\"\(testCase.collection)\": " + (isSettings ? testCase.record : "[\(testCase.record)]"))
    let json = "{" + members.joined(separator: ", ") + "}"
    let result = try LegacyWorkspaceImporter.decode(Data(json.utf8), fileName: "w.json")
    #expect(
      result.quarantined == [
        QuarantinedRecord(
          collection: testCase.collection, index: isSettings ? nil : 0, reason: testCase.reason,
          rawJSON: testCase.rawJSON)
      ])
    #expect(result.integrityProblems.count == 1)
    #expect(result.workspace == AssistantWorkspace())
  }

  /// Review 19-b (F6): a tag holding a comma could be stored by MCP and import, and the CLI
  /// could neither tell it from two tags nor remove it. Every path refuses one now; a legacy
  /// memory carrying one is quarantined, as one with a control character in a tag is.
  @Test("A v4 memory with a comma in a tag is quarantined, naming the tag and where its comma is")
  func commaInMemoryTag() throws {
    let json = #"""
      {"schemaVersion": 4, "conversations": [], "tasks": [], "receipts": [], "checkpoints": [],
       "memories": [
         {"id": "11111111-1111-4111-8111-111111111111", "text": "kept", "tags": ["plain"], "createdAt": "2025-01-01T00:00:00Z"},
         {"id": "22222222-2222-4222-8222-222222222222", "text": "aside", "tags": ["ok", "food,groceries"], "createdAt": "2025-01-01T00:00:00Z"}
       ]}
      """#
    let result = try LegacyWorkspaceImporter.decode(Data(json.utf8), fileName: "w.json")
    #expect(result.workspace.memories.map(\.text) == ["kept"])
    #expect(result.quarantined.count == 1)
    #expect(result.quarantined.first?.collection == "memories" && result.quarantined.first?.index == 1)
    #expect(
      result.quarantined.first?.reason
        == "field 'tags'[1] 'food,groceries' contains a comma (at character 5); a tag holds no comma, since tags are "
        + "given and shown as a comma-separated list (`--tags a,b` is two tags): give each part as a tag of its own, "
        + "or write it 'food-groceries'", "\(result.quarantined)")
  }

  @Test("Message ids are unique across conversations; the first one wins")
  func duplicateMessageAcrossConversations() throws {
    let json = #"""
      {"conversations": [
        {"id": "11111111-1111-4111-8111-111111111111", "title": "A", "createdAt": "2025-01-01T00:00:00Z",
         "updatedAt": "2025-01-01T00:00:00Z",
         "messages": [{"id": "AAAAAAAA-AAAA-4AAA-8AAA-AAAAAAAAAAAA", "role": "user", "text": "first", "createdAt": "2025-01-01T00:00:00Z"}]},
        {"id": "22222222-2222-4222-8222-222222222222", "title": "B", "createdAt": "2025-01-02T00:00:00Z",
         "updatedAt": "2025-01-02T00:00:00Z",
         "messages": [{"id": "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa", "role": "user", "text": "second", "createdAt": "2025-01-02T00:00:00Z"}]}
      ], "memories": []}
      """#
    let result = try LegacyWorkspaceImporter.decode(Data(json.utf8), fileName: "w.json")
    #expect(result.workspace.conversations.map(\.title) == ["A", "B"])
    #expect(result.workspace.messages.map(\.text) == ["first"])
    #expect(
      result.quarantined == [
        QuarantinedRecord(
          collection: "conversations[1].messages", index: 0,
          reason:
            "duplicate id AAAAAAAA-AAAA-4AAA-8AAA-AAAAAAAAAAAA; conversations[0].messages[0] has the same id and was imported",
          rawJSON:
            #"{"createdAt":"2025-01-02T00:00:00Z","id":"aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa","role":"user","text":"second"}"#
        )
      ])
  }

  @Test("Records beyond a collection's v5 bound are quarantined, not pruned")
  func collectionBound() throws {
    let limit = Limits.checkpointsKept
    let checkpoints = (0...limit).map { step in
      let id = String(format: "00000000-0000-4000-8000-%012d", step)
      return
        #"{"id":"\#(id)","runID":"99999999-9999-4999-8999-999999999999","step":\#(step),"state":"executing","createdAt":"2025-04-01T00:00:00Z"}"#
    }
    let json =
      #"{"schemaVersion":4,"conversations":[],"memories":[],"tasks":[],"receipts":[],"checkpoints":["#
      + checkpoints.joined(separator: ",") + "]}"
    let result = try LegacyWorkspaceImporter.decode(Data(json.utf8), fileName: "w.json")
    #expect(result.workspace.checkpoints.count == limit)
    #expect(result.workspace.checkpoints.last?.step == limit - 1)
    #expect(
      result.quarantined == [
        QuarantinedRecord(
          collection: "checkpoints", index: limit,
          reason:
            "checkpoints already holds 1000 records, the most schema v5 keeps (Limits.checkpointsKept); kept here so nothing is lost",
          rawJSON:
            #"{"createdAt":"2025-04-01T00:00:00Z","id":"00000000-0000-4000-8000-000000001000","runID":"99999999-9999-4999-8999-999999999999","state":"executing","step":1000}"#
        )
      ])
    #expect(result.integrityProblems.count == 1)
  }

  // MARK: - Integrity and determinism

  @Test("A message whose conversation is missing is reported as a dangling reference")
  func danglingMessage() {
    let orphan = ChatMessage(
      id: uuid("33333333-3333-4333-8333-333333333333"),
      conversationID: uuid("44444444-4444-4444-8444-444444444444"), role: .user, text: "lost",
      createdAt: date("2025-01-01T00:00:00Z"))
    #expect(
      LegacyWorkspaceImporter.referenceProblems(in: AssistantWorkspace(messages: [orphan])) == [
        "messages[0] (id 33333333-3333-4333-8333-333333333333) refers to conversation "
          + "44444444-4444-4444-8444-444444444444, which is not in the workspace"
      ])
    #expect(LegacyWorkspaceImporter.referenceProblems(in: ExpectedLegacy.v4) == [])
  }

  @Test("The same bytes always give the same result")
  func deterministic() throws {
    let data = try legacyFixture("workspace-v4-quarantine.json")
    let first = try LegacyWorkspaceImporter.decode(data, fileName: "a.json")
    let second = try LegacyWorkspaceImporter.decode(data, fileName: "a.json")
    #expect(first == second)
  }

  // MARK: - JSON reading

  @Test("Canonical JSON sorts keys, keeps repeated keys and number text, escapes minimally")
  func canonicalJSON() throws {
    let text =
      #"{ "b": 1, "a": [1.50, -0, 1e3, 12345678901234567890, "x\u0001\"\/é\ud83c\udf0a"], "a": null }"#
    let value = try LegacyJSONParser.parse(Array(text.utf8))
    #expect(
      value.canonicalText
        == #"{"a":[1.50,-0,1e3,12345678901234567890,"x\u0001\"/é🌊"],"a":null,"b":1}"#)
  }
}

// MARK: - Helpers

/// Compares two workspaces collection by collection, record by record, field by field, so a
/// failure names e.g. `tasks[2].completedAt`.
func expectSameWorkspace(
  _ actual: AssistantWorkspace, _ expected: AssistantWorkspace,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(actual.schemaVersion == SchemaVersion.current, sourceLocation: sourceLocation)
  expectSameRecords(actual.conversations, expected.conversations, "conversations", sourceLocation)
  expectSameRecords(actual.messages, expected.messages, "messages", sourceLocation)
  expectSameRecords(actual.memories, expected.memories, "memories", sourceLocation)
  expectSameRecords(actual.tasks, expected.tasks, "tasks", sourceLocation)
  expectSameRecords(actual.receipts, expected.receipts, "receipts", sourceLocation)
  expectSameRecords(actual.checkpoints, expected.checkpoints, "checkpoints", sourceLocation)
  expectSameRecords([actual.settings], [expected.settings], "settings", sourceLocation)
  #expect(actual.knowledge.isEmpty, sourceLocation: sourceLocation)
  #expect(actual.handoffs.isEmpty, sourceLocation: sourceLocation)
  #expect(actual.digests.isEmpty, sourceLocation: sourceLocation)
  #expect(actual.activeHandoffID == nil, sourceLocation: sourceLocation)
  if actual != expected {
    Issue.record(
      "the workspaces differ (see the field issues above)", sourceLocation: sourceLocation)
  }
}

private func expectSameRecords<Record: Equatable>(
  _ actual: [Record], _ expected: [Record], _ collection: String, _ sourceLocation: SourceLocation
) {
  #expect(actual.count == expected.count, "\(collection).count", sourceLocation: sourceLocation)
  for (index, (record, wanted)) in zip(actual, expected).enumerated() {
    let fields = Mirror(reflecting: record).children.map { ($0.label ?? "?", fieldText($0.value)) }
    let wantedFields = Mirror(reflecting: wanted).children.map {
      ($0.label ?? "?", fieldText($0.value))
    }
    #expect(fields.count == wantedFields.count, sourceLocation: sourceLocation)
    for ((label, value), (_, wantedValue)) in zip(fields, wantedFields) {
      #expect(
        value == wantedValue, "\(collection)[\(index)].\(label)", sourceLocation: sourceLocation)
    }
    if record != wanted {
      Issue.record("\(collection)[\(index)] differs", sourceLocation: sourceLocation)
    }
  }
}

/// A field's value as text; dates to the millisecond (the default description drops them).
private func fieldText(_ value: Any) -> String {
  if let date = value as? Date { return ISO8601.string(from: date) }
  return String(reflecting: value)
}
