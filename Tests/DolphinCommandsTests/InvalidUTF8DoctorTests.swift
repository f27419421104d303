import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 29-a: `dolphin doctor` did not flag stored text that is not UTF-8.
@Suite("doctor names stored text that is not UTF-8; reading it crashes nothing", .serialized)
struct InvalidUTF8DoctorTests {
  static func sqlite3(_ workspace: URL, _ sql: String) throws -> String {
    try DurabilityReview29aTests.sqlite3(workspace, sql)
  }

  @Test("a title written as x'ff41' outside dolphin: doctor names it (exit 5), its fix works; search, get and export read it")
  func invalidTitle() throws {
    let dir = TemporaryDirectory("invalid-utf8")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let capture = try runDolphin(["capture", "fact", "Widgets ship in spring", "--content", "spring plan", "--json", "--workspace", ws.path])
    try #require(capture.status == 0, "\(capture.stderr)")
    let id = try Self.sqlite3(ws, "SELECT id FROM knowledge")
    _ = try Self.sqlite3(ws, "UPDATE knowledge SET title = CAST(x'ff41' AS TEXT) WHERE id = '\(id)'")

    let doctor = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(doctor.status == 5, "was healthy: \(doctor.stdout)")
    #expect(
      doctor.stdout.contains(
        "Text encoding: 1 stored value(s) are not UTF-8 (bytes another program wrote); every command reads them with "
          + "U+FFFD (�) in place of those bytes:\n  - knowledge \(id): title is not UTF-8: 1 ill-formed byte sequence(s) "
          + "(the first at byte 0), each read as U+FFFD (�)\n"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("To store the text as dolphin reads it"), "\(doctor.stdout)")
    #expect(doctor.stdout.hasSuffix("Doctor: problems found.\n"), "\(doctor.stdout)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(try runDolphin(["doctor", "--json", "--workspace", ws.path]).stdout.utf8)) as? [String: Any])
    let invalid = try #require(json["invalidUTF8"] as? [String: Any])
    #expect(invalid["count"] as? Int == 1)
    let entry = try #require((invalid["records"] as? [[String: Any]])?.first)
    #expect(entry["table"] as? String == "knowledge" && entry["id"] as? String == id && entry["field"] as? String == "title")
    #expect(json["ok"] as? Bool == false)

    // Reading it crashes nothing: each command shows U+FFFD where the byte stands.
    let get = try runDolphin(["knowledge", "get", id, "--workspace", ws.path])
    #expect(get.status == 0 && get.stdout.contains("\u{FFFD}A"), "\(get.stdout)\(get.stderr)")
    let search = try runDolphin(["search", "spring", "--workspace", ws.path])
    #expect(search.status == 0 && search.stdout.contains(id), "\(search.stdout)\(search.stderr)")
    let searchJSON = try runDolphin(["search", "spring", "--json", "--workspace", ws.path])
    #expect(searchJSON.status == 0 && searchJSON.stdout.contains("\u{FFFD}A"), "\(searchJSON.stdout)\(searchJSON.stderr)")
    let export = try runDolphin(["export", "--workspace", ws.path])
    #expect(export.status == 0 && export.stdout.contains("\"title\" : \"\u{FFFD}A\""), "\(export.stderr)")
    #expect(try runDolphin(["export", "--format", "markdown", "--workspace", ws.path]).status == 0)
    #expect(try runDolphin(["knowledge", "list", "--workspace", ws.path]).status == 0)
    #expect(try runDolphin(["context", "--workspace", ws.path]).status == 0)

    // The fix doctor gives, then the index rebuilt for the text changed outside dolphin.
    let fix = try #require(entry["fixStatement"] as? String)
    _ = try Self.sqlite3(ws, fix)
    #expect(try Self.sqlite3(ws, "SELECT hex(title) FROM knowledge") == "EFBFBD41")
    #expect(try runDolphin(["reindex", "--workspace", ws.path]).status == 0)
    let healthy = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(healthy.status == 0, "\(healthy.stdout)")
    #expect(healthy.stdout.contains("\nText encoding: all stored text is UTF-8\n"), "\(healthy.stdout)")
  }
}
