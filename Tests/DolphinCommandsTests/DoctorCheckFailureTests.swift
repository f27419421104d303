import ContinuityKit
import Foundation
import Testing
import TestSupport

/// A new user's review: on a database with bytes overwritten in the middle, `doctor` reported
/// SQLite's "database disk image is malformed" as a reference problem and advised deleting
/// records. A check that an SQLite error stops did not run; the damage is reported once, by the
/// integrity check, with the recovery steps.
@Suite("doctor when a check fails with an SQLite error", .serialized)
struct DoctorCheckFailureTests {
  @Test("bytes overwritten inside the knowledge table: integrity reports it, the stopped checks are \"not run\", recovery advice only")
  func overwrittenPage() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    // 40 items with some bulk, so the table spans several pages: copies of one this build
    // exported, under new ids.
    #expect(try cli.run(["capture", "fact", "Template item"]).status == 0)
    let probe = cli.dir.appending("probe.json")
    #expect(try cli.run(["export", "--output", probe.path]).status == 0)
    var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: probe)) as? [String: Any])
    var workspace = try #require(document["workspace"] as? [String: Any])
    let template = try #require((workspace["knowledge"] as? [[String: Any]])?.first)
    workspace["knowledge"] = (1...40).map { n -> [String: Any] in
      var item = template
      item["id"] = String(format: "00000000-0000-0000-0000-%012d", n)
      item["title"] = "Item \(n)"
      item["content"] = String(repeating: "word \(n) ", count: 60)
      return item
    }
    document["workspace"] = workspace
    let file = cli.dir.appending("bulk.json")
    try JSONSerialization.data(withJSONObject: document).write(to: file)
    let imported = try cli.run(["import", file.path])
    try #require(imported.status == 0, "\(imported.stdout)\(imported.stderr)")

    // Overwrite the second half of the table's first leaf page and the start of the next one,
    // as the review did at a fixed offset of a larger file.
    let db = cli.workspace + "/workspace.sqlite"
    let leaf = try runProcess(
      "/usr/bin/env", ["sqlite3", db, "SELECT min(pageno) FROM dbstat WHERE name = 'knowledge' AND pagetype = 'leaf'"])
    let page = try #require(Int(leaf.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "sqlite3 with dbstat is needed: \(leaf.stderr)")
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: db))
    try handle.seek(toOffset: UInt64((page - 1) * 4096 + 1152))
    try handle.write(contentsOf: Data(repeating: 0xff, count: 3000))
    try handle.close()

    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
    #expect(text.stdout.contains("PRAGMA integrity_check: *** in database main ***"), "\(text.stdout)")
    #expect(text.stdout.contains("References: not run"), "\(text.stdout)")
    #expect(text.stdout.contains("Search index: not run"), "\(text.stdout)")
    #expect(text.stdout.contains("Handoff next steps: not run"), "\(text.stdout)")
    #expect(!text.stdout.contains("problem(s)"), "\(text.stdout)")
    #expect(!text.stdout.contains("Delete or fix the records"), "\(text.stdout)")
    #expect(text.stdout.contains("The database file failed SQLite's integrity check. Nothing was changed."))
    #expect(text.stdout.contains(".recover > recovered.sql"), "\(text.stdout)")
    // The corruption is reported once: by the integrity check.
    #expect(text.stdout.components(separatedBy: "database disk image is malformed").count == 2, "\(text.stdout)")

    let json = try cli.run(["doctor", "--json"])
    #expect(json.status == 5)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(report["ok"] as? Bool == false)
    #expect(report["checksRun"] as? Bool == true)
    #expect((report["integrityCheck"] as? [String])?.first != "ok")
    for key in ["referenceProblems", "searchIndexProblems", "searchIndexNotes", "credentials", "quarantined", "blankNextSteps"] {
      #expect(report[key] is NSNull, "\(key) = \(String(describing: report[key]))")
    }
    #expect(report["checkError"] == nil, "the integrity check already reports the damage")
    let advice = (report["advice"] as? [String] ?? []).joined(separator: "\n")
    #expect(!advice.contains("Delete or fix"), "\(advice)")
  }
}
