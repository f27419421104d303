import Foundation
import Testing
import TestSupport

/// `dolphin reindex` refused a workspace holding one record with an id that is not a UUID
/// (written by another program): the whole index stayed unbuilt. It now indexes every other
/// record, names the malformed ones as skipped (escaped, as doctor names them) and exits 5, as
/// doctor does for a workspace with problems.
@Suite("reindex skips records with a malformed id", .serialized)
struct ReindexMalformedIDTests {
  @Test("reindex rebuilds the index for the well-formed records and reports the malformed id as skipped")
  func skipsMalformedID() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require((try cli.json(["capture", "fact", "Broken alpaca note"])["item"] as? [String: Any])?["id"] as? String)
    #expect(try cli.run(["capture", "fact", "Healthy zebra note"]).status == 0)
    #expect(try cli.run(["memory", "save", "Healthy marmot memory"]).status == 0)
    let edit = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite", "UPDATE knowledge SET id = 'HF-7\u{202E}x\"y' WHERE id = '\(k)'"])
    try #require(edit.status == 0, "\(edit.stderr)")

    let r = try cli.run(["reindex"])
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    // Two knowledge items (the note and the memory's mirror) and the memory; the index agrees.
    #expect(r.stdout.contains("Re-indexed 3 document(s); index check: ok\n"), "\(r.stdout)")
    #expect(r.stdout.contains(#"knowledge at row 1: id "HF-7\u{202E}x\"y" is not a UUID"#), "\(r.stdout.debugDescription)")
    #expect(!r.stdout.unicodeScalars.contains(where: { $0.properties.isBidiControl }), "\(r.stdout.debugDescription)")
    #expect(r.stderr.contains("1 record(s) with an id that is not a UUID were left out of the search index"), "\(r.stderr)")

    let json = try cli.run(["reindex", "--json"])
    #expect(json.status == 5, "\(json.stdout)\(json.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(document["indexed"] as? Int == 3)
    #expect((document["problems"] as? [Any])?.isEmpty == true, "\(document)")
    let skipped = try #require(document["skipped"] as? [[String: Any]])
    #expect(skipped.count == 1)
    #expect(skipped.first?["table"] as? String == "knowledge")
    #expect(skipped.first?["id"] as? String == "HF-7\u{202E}x\"y")
    // The failure as every --json failure gives it, beside the report (s17).
    let error = try #require(document["error"] as? [String: Any], "\(document)")
    #expect(error["kind"] as? String == "storage" && error["exitCode"] as? Int == 5)
    #expect((error["message"] as? String)?.hasPrefix("1 record(s) with an id that is not a UUID were left out") == true)

    // The well-formed records were indexed and are found.
    let zebra = try cli.run(["search", "zebra"])
    #expect(zebra.status == 0 && zebra.stdout.contains("Healthy zebra note"), "\(zebra.stdout)\(zebra.stderr)")
    let marmot = try cli.run(["search", "marmot", "--include-memories"])
    #expect(marmot.status == 0 && marmot.stdout.contains("Healthy marmot memory"), "\(marmot.stdout)\(marmot.stderr)")
  }

  @Test("reindex of a workspace whose ids are all UUIDs reports nothing skipped and exits 0")
  func nothingSkipped() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Healthy zebra note"]).status == 0)
    let r = try cli.run(["reindex"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(!r.stdout.contains("Skipped"), "\(r.stdout)")
    let json = try cli.json(["reindex"])
    #expect((json["skipped"] as? [Any])?.isEmpty == true, "\(json)")
  }
}
