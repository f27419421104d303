import ContinuityKit
import Foundation
import Testing
import TestSupport

@Suite("Export document decoding")
struct WorkspaceExportTests {
  static let sample = WorkspaceExport(
    exportedAt: Date(timeIntervalSince1970: 1_790_000_000.125), generator: "dolphin test",
    workspace: AssistantWorkspace(
      knowledge: [KnowledgeItem(id: sequentialID(1), kind: .decision, title: "Use SQLite", createdAt: Date(timeIntervalSince1970: 1_790_000_000))]),
    quarantine: [])

  static func sampleJSON() throws -> String { String(decoding: try sample.jsonData(), as: UTF8.self) }

  @Test("a document round-trips through its JSON unchanged, with the documented header")
  func roundTrip() throws {
    let data = try Self.sample.jsonData()
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("\"format\" : \"dolphin-export\""))
    #expect(text.contains("\"formatVersion\" : 1"))
    #expect(text.contains("\"schemaVersion\" : 5"))
    #expect(text.contains("\"exportedAt\" : \"2026-09-21T14:13:20.125Z\""))
    #expect(try WorkspaceExport.decode(data, fileName: "x.json") == Self.sample)
  }

  struct Refused: CustomStringConvertible, Sendable {
    var name: String
    var json: @Sendable (String) -> String
    var message: [String]
    var description: String { name }
  }

  static let refused: [Refused] = [
    Refused(
      name: "a newer format version", json: { $0.replacingOccurrences(of: "\"formatVersion\" : 1", with: "\"formatVersion\" : 2") },
      message: ["f.json has export format version 2, newer than this build reads (1); upgrade dolphin"]),
    Refused(
      name: "another format", json: { $0.replacingOccurrences(of: "dolphin-export", with: "other-tool") },
      message: ["f.json is not a dolphin export: its format is 'other-tool'"]),
    Refused(name: "a legacy workspace file", json: { _ in "{\"schemaVersion\": 4, \"memories\": []}" },
            message: ["is not a dolphin export: it has no \"format\""]),
    Refused(name: "not JSON", json: { String($0.prefix(120)) }, message: ["f.json: not valid JSON at line"]),
    Refused(
      name: "truncated JSON is located", json: { _ in "{\"format\": \"dolphin-export\",\n \"formatVer" },
      message: ["f.json: not valid JSON at line 2, column 12 (byte 40): the JSON text ends too early"]),
    Refused(
      name: "an empty file", json: { _ in "" },
      message: ["f.json is empty; expected a dolphin export (JSON"]),
    Refused(name: "a file of blank lines", json: { _ in "\n  \n" }, message: ["f.json is empty; expected a dolphin export"]),
    Refused(
      name: "not an object", json: { _ in "[1, 2]" },
      message: ["f.json: expected a JSON object (a dolphin export), got an array. Nothing was imported"]),
    Refused(
      name: "null", json: { _ in "null" },
      message: ["f.json: expected a JSON object (a dolphin export), got null. Nothing was imported"]),
    Refused(
      name: "a fractional revision names its path and value",
      json: { $0.replacingOccurrences(of: "\"revision\" : 1", with: "\"revision\" : 1.5") },
      message: ["f.json: workspace.knowledge[0].revision: expected a whole number, got 1.5. Nothing was imported"]),
    Refused(
      name: "a revision beyond Double's range",
      json: { $0.replacingOccurrences(of: "\"revision\" : 1", with: "\"revision\" : 1e400") },
      message: ["f.json: workspace.knowledge[0].revision: expected a whole number, got 1e400. Nothing was imported"]),
    Refused(
      name: "a revision beyond Int's range",
      json: { $0.replacingOccurrences(of: "\"revision\" : 1", with: "\"revision\" : 99999999999999999999") },
      message: ["f.json: workspace.knowledge[0].revision: 99999999999999999999 is out of range; a revision is between 1 and 1000000. Nothing was imported"]),
    Refused(
      name: "a fractional setting",
      json: { $0.replacingOccurrences(of: "\"knowledgeItemLimit\" : 10000", with: "\"knowledgeItemLimit\" : 10.5") },
      message: ["f.json: workspace.settings.knowledgeItemLimit: expected a whole number, got 10.5. Nothing was imported"]),
    Refused(
      name: "a fractional schema version",
      json: { $0.replacingOccurrences(of: "\"schemaVersion\" : 5", with: "\"schemaVersion\" : 5.5") },
      message: ["f.json: schemaVersion: expected a whole number, got 5.5. Nothing was imported"]),
    Refused(
      name: "a fractional format version",
      json: { $0.replacingOccurrences(of: "\"formatVersion\" : 1", with: "\"formatVersion\" : 1.5") },
      message: ["f.json: formatVersion: expected a whole number, got 1.5. Nothing was imported"]),
    Refused(
      // A NUL in a record is refused by the import, on a record it writes (RefusedTextTests).
      name: "a NUL in the header is refused, not dropped",
      json: { $0.replacingOccurrences(of: "\"generator\" : \"dolphin test\"", with: "\"generator\" : \"dolphin\\u0000test\"") },
      message: [
        "f.json: generator contains a NUL character (U+0000) at character 8; NUL is not text, remove it. Nothing was imported"
      ]),
    Refused(
      name: "a key twice in one object is refused, not resolved silently",
      json: { $0.replacingOccurrences(of: "\"title\" : \"Use SQLite\"", with: "\"title\" : \"Injected\", \"title\" : \"Use SQLite\"") },
      message: [
        "f.json: not acceptable JSON at line", "the key \"title\" appears twice in one object; keep one. Nothing was imported",
      ]),
    Refused(
      // Review 28-b, 8: the header decoder took the first, and the file was called a newer format.
      name: "a format version given twice is refused as a repeated key, whichever comes first",
      json: { $0.replacingOccurrences(of: "\"formatVersion\" : 1", with: "\"formatVersion\" : 99, \"formatVersion\" : 1") },
      message: [
        "f.json: not acceptable JSON at line", "the key \"formatVersion\" appears twice in one object; keep one. Nothing was imported",
      ]),
    Refused(
      name: "a format version given twice, the supported one first",
      json: { $0.replacingOccurrences(of: "\"formatVersion\" : 1", with: "\"formatVersion\" : 1, \"formatVersion\" : 99") },
      message: ["the key \"formatVersion\" appears twice in one object; keep one. Nothing was imported"]),
    Refused(
      name: "a schema version given twice",
      json: { $0.replacingOccurrences(of: "\"schemaVersion\" : 5", with: "\"schemaVersion\" : 6, \"schemaVersion\" : 5") },
      message: ["the key \"schemaVersion\" appears twice in one object; keep one. Nothing was imported"]),
    Refused(
      name: "a null says what was expected instead",
      json: { $0.replacingOccurrences(of: "\"title\" : \"Use SQLite\"", with: "\"title\" : null") },
      message: ["workspace.knowledge[0].title: expected a string, got null. Nothing was imported"]),
    Refused(
      name: "a value of the wrong type says what was given",
      json: { $0.replacingOccurrences(of: "\"title\" : \"Use SQLite\"", with: "\"title\" : 5") },
      message: ["f.json: workspace.knowledge[0].title: expected a string, got 5. Nothing was imported"]),
    Refused(
      name: "an object where an array belongs",
      json: { $0.replacingOccurrences(of: "\"tasks\" : [\n\n    ]", with: "\"tasks\" : {}") },
      message: ["f.json: workspace.tasks: expected an array, got an object. Nothing was imported"]),
    Refused(
      name: "an unknown enum value names the record, the field, the value and the choices",
      json: { $0.replacingOccurrences(of: "\"kind\" : \"decision\"", with: "\"kind\" : \"rumour\"") },
      message: [
        "f.json: workspace.knowledge[0].kind: 'rumour' is not one of decision, goal, preference, fact, insight, context, code. Nothing was imported"
      ]),
    Refused(
      name: "an unknown priority lists the priorities",
      json: { $0.replacingOccurrences(of: "\"priority\" : \"normal\"", with: "\"priority\" : \"urgent\"") },
      message: ["workspace.knowledge[0].priority: 'urgent' is not one of low, normal, high, critical. Nothing was imported"]),
    Refused(
      name: "a malformed id quotes it",
      json: { $0.replacingOccurrences(of: "00000000-0000-0000-0000-000000000001", with: "xyz") },
      message: ["f.json: workspace.knowledge[0].id: 'xyz' is not a UUID (expected e.g. 3F2504E0-4F89-11D3-9A0C-0305E82C3301). Nothing was imported"]),
    Refused(
      name: "a missing field names it", json: { $0.replacingOccurrences(of: "\"title\" : \"Use SQLite\",", with: "") },
      message: ["workspace.knowledge[0].title: missing required field"]),
    Refused(
      name: "a malformed date names it",
      json: { $0.replacingOccurrences(of: "\"exportedAt\" : \"2026-09-21T14:13:20.125Z\"", with: "\"exportedAt\" : \"yesterday\"") },
      message: ["exportedAt:", "yesterday"]),
  ]

  @Test("a refused document says why, naming the file and the path of the bad value", arguments: refused)
  func refusals(_ c: Refused) throws {
    let text = c.json(try Self.sampleJSON())
    let error = #expect(throws: ExportDocumentError.self) {
      try WorkspaceExport.decode(Data(text.utf8), fileName: "f.json")
    }
    for part in c.message { #expect(error?.description.contains(part) == true, "\(String(describing: error))") }
    // Foundation's texts name Swift types and end in their own period; none reaches the user.
    for raw in ["Cannot initialize", "Attempted to decode", "The given data", "Expected to decode", ".."] {
      #expect(error?.description.contains(raw) == false, "\(String(describing: error))")
    }
  }

  @Test("bytes that are not UTF-8 are refused naming the first one and its offset, before any JSON decoding")
  func notUTF8() throws {
    var data = Data(try Self.sampleJSON().utf8)
    let offset = try #require(data.firstRange(of: Data("Use SQLite".utf8))?.lowerBound)
    data[offset] = 0xFF
    #expect(throws: ExportDocumentError.notUTF8(file: "exp/f.json", byteOffset: offset, byte: 0xFF)) {
      try WorkspaceExport.decode(data, fileName: "exp/f.json")
    }
    let error = ExportDocumentError.notUTF8(file: "exp/f.json", byteOffset: 42, byte: 0xC3)
    #expect(
      error.description
        == "exp/f.json is not UTF-8 text: the byte 0xC3 at byte offset 42 (counting from 0) is not valid UTF-8. "
        + "An export is UTF-8 JSON, as `dolphin export --format json` writes it; was the file saved in another "
        + "encoding, or damaged? Nothing was imported")
    // A byte order mark is UTF-8, and the document still decodes.
    #expect(try WorkspaceExport.decode(Data([0xEF, 0xBB, 0xBF]) + Data(try Self.sampleJSON().utf8), fileName: "f.json") == Self.sample)
  }
}
