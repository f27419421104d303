import Foundation
import Testing
import TestSupport

/// Regression (review, s14): text another program wrote into a workspace that no dolphin command
/// stores — a NUL in a knowledge item's content, a tag holding U+0001 — made the workspace's own
/// export impossible to import: back into the same workspace (exit 4, "contains a NUL character
/// … Nothing was imported"), and into an empty one, while `doctor` called the workspace healthy.
/// And doctor's fix for a tags column made unreadable by a raw control character emptied the
/// list, losing the readable tags.
@Suite("Stored text an import refuses: export, import and doctor", .serialized)
struct RefusedTextCommandTests {
  static func sqlite(_ cli: CLI, _ sql: String) throws {
    let edit = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql])
    #expect(edit.status == 0, "\(edit.stderr)")
  }

  static func sqliteValue(_ cli: CLI, _ sql: String) throws -> String {
    let r = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql])
    #expect(r.status == 0, "\(r.stderr)")
    return r.stdout.trimmingCharacters(in: .newlines)
  }

  static func id(_ obj: [String: Any]) throws -> String {
    try #require(((obj["item"] as? [String: Any]) ?? obj)["id"] as? String)
  }

  /// A workspace with a decision whose content another program gave a NUL, and a fact whose
  /// tags it gave a U+0001 (as `json_array` writes it: valid JSON).
  static func tampered() throws -> (cli: CLI, decision: String, fact: String) {
    let cli = CLI()
    let decision = try id(
      cli.json(["capture", "decision", "Use SQLite for the workspace", "--content", "WAL mode, single-row writes."]))
    let fact = try id(cli.json(["capture", "fact", "Build server is ci-3", "--tags", "one,two"]))
    try sqlite(
      cli,
      "UPDATE knowledge SET content = 'WAL mode,' || char(0) || ' single-row writes.' WHERE id = '\(decision)';"
        + "UPDATE knowledge SET tags = json_array('one', 'tw' || char(1) || 'o') WHERE id = '\(fact)';")
    return (cli, decision, fact)
  }

  @Test("the export imports back into its own workspace as the same records; an empty workspace names every record and the fix")
  func exportRoundTrip() throws {
    let (cli, decision, fact) = try Self.tampered()
    defer { cli.dir.remove() }
    let file = cli.dir.appending("backup.json").path

    let export = try cli.run(["export", "--output", file])
    #expect(export.status == 0, "\(export.stderr)")
    // Nothing is lost: the file carries the text as stored, and says what an import refuses.
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.contains(#"WAL mode,\u0000 single-row writes."#))
    #expect(export.stderr.contains("workspace.knowledge[0].content (id \(decision))") || export.stderr.contains("workspace.knowledge[1].content (id \(decision))"), "\(export.stderr)")
    #expect(export.stderr.contains("(id \(fact))"), "\(export.stderr)")
    #expect(export.stderr.contains("`dolphin doctor`"), "\(export.stderr)")

    // Back into the same workspace: the same records, nothing written, the stored text kept.
    let back = try cli.run(["import", file])
    #expect(back.status == 0, "\(back.stdout)\(back.stderr)")
    #expect(back.stdout.contains("Imported 0 record(s)"), "\(back.stdout)")
    #expect(try Self.sqliteValue(cli, "SELECT hex(content) FROM knowledge WHERE id = '\(decision)'").contains("2C00"))

    // Into an empty workspace: refused (exit 4), naming both records, their fields and the fix.
    let empty = CLI()
    defer { empty.dir.remove() }
    let restore = try empty.run(["import", file])
    #expect(restore.status == 4, "\(restore.stdout)\(restore.stderr)")
    #expect(restore.stderr.contains("2 values of records this import would write"), "\(restore.stderr)")
    #expect(restore.stderr.contains("(id \(decision)): content contains a NUL character (U+0000) at character 10"), "\(restore.stderr)")
    #expect(restore.stderr.contains("(id \(fact)): tags[1] 'tw\\u{1}o' contains a control character"), "\(restore.stderr)")
    #expect(restore.stderr.contains("Nothing was imported"), "\(restore.stderr)")
    #expect(restore.stderr.contains("run `dolphin doctor` on the workspace the file came from"), "\(restore.stderr)")
  }

  @Test("doctor names each value (table, id, field) with a fix that keeps the text; after it the backup restores")
  func doctorFix() throws {
    let (cli, decision, fact) = try Self.tampered()
    defer { cli.dir.remove() }

    let text = try cli.run(["doctor"])
    #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
    #expect(text.stdout.contains("Importable text: 2 stored value(s)"), "\(text.stdout)")
    #expect(text.stdout.contains("  - knowledge \(decision): content contains a NUL character (U+0000)"), "\(text.stdout)")
    #expect(text.stdout.contains("  - knowledge \(fact): tags[1] 'tw\\u{1}o' contains a control character"), "\(text.stdout)")
    #expect(!text.stdout.contains("Doctor: healthy"), "\(text.stdout)")

    let doctor = try JSONSerialization.jsonObject(with: Data(cli.run(["doctor", "--json"]).stdout.utf8)) as? [String: Any]
    let refused = try #require(doctor?["refusedText"] as? [String: Any])
    #expect(refused["count"] as? Int == 2)
    let records = try #require(refused["records"] as? [[String: Any]])
    #expect(records.map { "\($0["table"] ?? "") \($0["field"] ?? "")" }.sorted() == ["knowledge content", "knowledge tags[1]"])
    #expect(doctor?["ok"] as? Bool == false)

    // The advised statements, run as another program would run them.
    for record in records { try Self.sqlite(cli, try #require(record["fixStatement"] as? String)) }
    #expect(try Self.sqliteValue(cli, "SELECT content FROM knowledge WHERE id = '\(decision)'") == "WAL mode, single-row writes.")
    #expect(try Self.sqliteValue(cli, "SELECT tags FROM knowledge WHERE id = '\(fact)'") == #"["one","two"]"#)
    // The edit changed indexed text, as doctor's advice says: reindex, then doctor is healthy.
    #expect(try cli.run(["reindex"]).status == 0)
    let after = try cli.run(["doctor"])
    #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
    #expect(after.stdout.contains("Importable text: no stored value would make an export unimportable"), "\(after.stdout)")
    #expect(after.stdout.hasSuffix("Doctor: healthy.\n"), "\(after.stdout)")

    // Its export now restores into an empty workspace.
    let file = cli.dir.appending("backup.json").path
    let export = try cli.run(["export", "--output", file])
    #expect(export.status == 0 && export.stderr.isEmpty, "\(export.stderr)")
    let empty = CLI()
    defer { empty.dir.remove() }
    let restore = try empty.run(["import", file])
    #expect(restore.status == 0, "\(restore.stdout)\(restore.stderr)")
    #expect(try empty.run(["knowledge", "get", fact]).stdout.contains("tags:      one, two"))
  }

  @Test("a tags column made unreadable by a raw control character: doctor's fix keeps the readable tags")
  func malformedTagsKeepReadableTags() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let fact = try Self.id(cli.json(["capture", "fact", "Build server is ci-3", "--tags", "one,two"]))
    // A raw U+0001 inside a JSON string is not JSON: every command reading the item refuses.
    try Self.sqlite(cli, "UPDATE knowledge SET tags = '[\"one\",\"tw' || char(1) || 'o\"]' WHERE id = '\(fact)'")
    #expect(try cli.run(["knowledge", "list"]).status == 5)

    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    let step = try #require(doctor.stdout.split(separator: "\n").first { $0.hasPrefix("3. ") }.map(String.init))
    #expect(!step.contains("'[]'"), "the fix does not empty the list: \(step)")
    let command = try #require(step.range(of: "e.g.: ").map { String(step[$0.upperBound...]) })
    #expect(command.hasPrefix("sqlite3 "), "\(command)")
    // Pasted into a shell as shown.
    let run = try runProcess("/bin/sh", ["-c", command])
    #expect(run.status == 0, "\(command): \(run.stderr)")

    #expect(try Self.sqliteValue(cli, "SELECT tags FROM knowledge WHERE id = '\(fact)'") == #"["one","two"]"#)
    let after = try cli.run(["doctor"])
    #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
    #expect(after.stdout.hasSuffix("Doctor: healthy.\n"), "\(after.stdout)")
    #expect(try cli.run(["knowledge", "list", "--tag", "two"]).stdout.contains(fact))
  }
}
