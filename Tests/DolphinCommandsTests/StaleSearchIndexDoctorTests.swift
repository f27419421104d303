import ContinuityKit
import Foundation
import Testing
import TestSupport

/// An edit outside dolphin (`sqlite3 ws.sqlite "UPDATE knowledge SET title = 'x' WHERE …"`) left
/// the search index describing the old text, and `dolphin doctor` called the workspace healthy
/// while searches kept finding the item by its old words; only `dolphin reindex` fixed it.
@Suite("doctor finds a search index made stale outside dolphin", .serialized)
struct StaleSearchIndexDoctorTests {
  @Test("reported as a search index problem naming the record, with the reindex advice; reindex repairs it")
  func staleAfterOutsideEdit() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let created = try cli.json(["capture", "decision", "Adopt the harbour schedule", "--content", "Ferries at nine"])
    let id = try #require((created["item"] as? [String: Any])?["id"] as? String)
    #expect(try cli.run(["capture", "fact", "Unrelated note"]).status == 0)
    let edit = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite", "UPDATE knowledge SET title = 'x' WHERE id = '\(id)'"])
    try #require(edit.status == 0, "sqlite3 is needed to edit the workspace outside dolphin: \(edit.stderr)")
    // The premise: searches still find it by the title it no longer has.
    #expect(try cli.run(["search", "harbour"]).stdout.contains(id))

    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    #expect(doctor.stdout.contains("Search index: 1 problem(s)"), "\(doctor.stdout)")
    #expect(
      doctor.stdout.contains(
        "  - 1 of 2 indexed record(s) no longer match their search index entries (changed outside dolphin after they "
          + "were indexed), so searches rank them by their old words: knowledge \(id) (title) (run `dolphin reindex`)"),
      "\(doctor.stdout)")
    #expect(doctor.stdout.contains("`dolphin reindex` rebuilds it from them."), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Doctor: problems found."), "\(doctor.stdout)")

    let json = try cli.run(["doctor", "--json"])
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let stale = try #require(report["searchIndexStaleRecords"] as? [String: Any], "\(json.stdout)")
    #expect(stale["checked"] as? Int == 2 && stale["staleCount"] as? Int == 1, "\(stale)")
    let first = try #require((stale["stale"] as? [[String: Any]])?.first)
    #expect(first["recordType"] as? String == "knowledge" && first["id"] as? String == id, "\(first)")
    #expect(first["differences"] as? [String] == ["title"], "\(first)")

    let reindex = try cli.run(["reindex"])
    #expect(reindex.status == 0, "\(reindex.stderr)")
    let healthy = try cli.run(["doctor"])
    #expect(healthy.status == 0 && healthy.stdout.contains("Search index: agrees with the records"), "\(healthy.stdout)")
    #expect(!(try cli.run(["search", "harbour"]).stdout.contains(id)))
  }
}
