import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Regression cases from a review (s11): `dolphin doctor` did not report stored text that a
/// bound of this build refuses — a title stored before the Unicode scalar bound existed, say —
/// although such a record cannot be rewritten (`task complete`) or imported from an export.
/// Doctor now counts such records, names the first ones with field, limit and size, and says
/// that nothing was changed.
@Suite("Stored text over a bound at the command line", .serialized)
struct TextBoundsDoctorTests {
  /// SQL for one `x` carrying 4,000 combining acute accents: 1 character, 4,001 Unicode scalars,
  /// within every character limit and over every scalar bound of a 300-character field.
  static let heavyText = "'x' || replace(hex(zeroblob(4000)), '00', char(769))"

  /// Stores `sql`'s changes as an earlier dolphin would have: the records, then their search
  /// index entries (`dolphin reindex`), so doctor sees only the text over a bound.
  static func sqlite3(_ cli: CLI, _ sql: String) throws {
    let edit = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql])
    try #require(edit.status == 0, "sqlite3 is needed to store what earlier builds stored: \(edit.stderr)")
    let reindex = try cli.run(["reindex"])
    try #require(reindex.status == 0, "\(reindex.stdout)\(reindex.stderr)")
  }

  static func doctorJSON(_ cli: CLI) throws -> [String: Any] {
    let r = try cli.run(["doctor", "--json"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
  }

  @Test("titles and other text stored over a bound: doctor counts them, names id, field, limit and size, changes nothing")
  func reportedAndLeftAlone() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let heavy = try #require((try cli.json(["capture", "fact", "Heavy"])["item"] as? [String: Any])?["id"] as? String)
    #expect(try cli.run(["capture", "fact", "Plain", "--tags", "fine"]).status == 0)
    let task = try #require(try cli.record("task", ["task", "add", "Heavy task"])["id"] as? String)
    let handoff = try #require(
      (try cli.json(["handoff", "create", "--focus", "F", "--next", "ok"])["handoff"] as? [String: Any])?["id"] as? String)

    let clean = try cli.run(["doctor"])
    #expect(clean.stdout.contains("\nText bounds: all stored text is within its bounds\n"), "\(clean.stdout)")
    let none = try #require(try Self.doctorJSON(cli)["textOverBounds"] as? [String: Any])
    #expect(none["count"] as? Int == 0 && (none["records"] as? [Any])?.isEmpty == true, "\(none)")

    // As an earlier dolphin stored them, before the Unicode scalar bound.
    try Self.sqlite3(
      cli,
      """
      UPDATE knowledge SET title = \(Self.heavyText) WHERE id = '\(heavy)';
      UPDATE task SET title = \(Self.heavyText);
      UPDATE handoff SET next_steps = json_array('ok', \(Self.heavyText));
      """)
    let before = try Data(contentsOf: URL(fileURLWithPath: cli.workspace + "/workspace.sqlite"))
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
    let over =
      " is 1 character but 4001 Unicode scalars (each combining mark, joiner or modifier counts as one); the limit is "
      + "300 characters and at most 3000 Unicode scalars in all (10 per character)\n"
    #expect(
      doctor.stdout.contains(
        "\nText bounds: 3 stored record(s) hold text over a bound of this dolphin (1 knowledge, 1 task, 1 handoff):\n"
          + "  - knowledge \(heavy): title" + over + "  - task \(task): title" + over
          + "  - handoff \(handoff): nextSteps[1]" + over),
      "\(doctor.stdout)")
    #expect(
      doctor.stdout.contains(
        "\n3 stored record(s) hold text over a bound of this dolphin (listed above): an earlier dolphin stored them "
          + "before the bound existed (such as the bound of 10 Unicode scalars per character), or another program did. "
          + "This is advisory: nothing was changed"),
      "\(doctor.stdout)")
    #expect(doctor.stdout.hasSuffix("Doctor: healthy.\n"), "advisory, not a problem: \(doctor.stdout)")

    let report = try Self.doctorJSON(cli)
    #expect(report["ok"] as? Bool == true)
    let bounds = try #require(report["textOverBounds"] as? [String: Any], "\(report)")
    #expect(bounds["count"] as? Int == 3)
    #expect(bounds["countsByRecordType"] as? [String: Int] == ["knowledge": 1, "task": 1, "handoff": 1])
    #expect(bounds["truncated"] as? Bool == false)
    let records = try #require(bounds["records"] as? [[String: Any]])
    #expect(records.map { $0["recordType"] as? String } == ["knowledge", "task", "handoff"])
    #expect(records.map { $0["id"] as? String } == [heavy, task, handoff])
    #expect(records.map { $0["field"] as? String } == ["title", "title", "nextSteps[1]"])
    #expect(records.allSatisfy { $0["limit"] as? Int == 3_000 && $0["actual"] as? Int == 4_001 }, "\(records)")
    #expect(records.allSatisfy { $0["unit"] as? String == "Unicode scalars" }, "\(records)")
    #expect(records.first?["message"] as? String == "title" + over.dropLast())
    #expect(
      (report["advice"] as? [String])?.contains { $0.hasPrefix("3 stored record(s) hold text over a bound") } == true,
      "\(report)")

    // Nothing changed: the file is as it was, and the title is still there whole.
    #expect(try Data(contentsOf: URL(fileURLWithPath: cli.workspace + "/workspace.sqlite")) == before)
    let item = try #require(try cli.record("item", ["knowledge", "get", heavy])["title"] as? String)
    #expect(item.unicodeScalars.count == 4_001)
  }

  @Test("more records over a bound than doctor names: the count covers them all, JSON says truncated")
  func listCut() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for n in 1...12 { #expect(try cli.run(["capture", "fact", "Item \(n)"]).status == 0) }
    // Over the character limit this time: 301 characters.
    try Self.sqlite3(cli, "UPDATE knowledge SET title = title || printf('%.301c', 'y');")
    let bounds = try #require(try Self.doctorJSON(cli)["textOverBounds"] as? [String: Any])
    #expect(bounds["count"] as? Int == 12)
    let records = try #require(bounds["records"] as? [[String: Any]])
    #expect(records.count == 10 && bounds["truncated"] as? Bool == true, "\(bounds)")
    #expect(records.allSatisfy { $0["unit"] as? String == "characters" && $0["limit"] as? Int == 300 }, "\(records)")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.stdout.contains("Text bounds: 12 stored record(s) hold text over a bound of this dolphin (12 knowledge):\n"))
    #expect(doctor.stdout.contains("\n  … and 2 more record(s)\n"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains(" is 307 characters; the limit is 300 characters\n"), "\(doctor.stdout)")
  }

  // A review found `task complete` on such a task answering `title is 1 character but 4001
  // Unicode scalars …`, as if the user had typed a title: the command takes only an id. The
  // refusal now says it is the stored title, and what to do.
  @Test("task complete and reopen on a task whose stored title is over the bound: the error names the stored field, limit and size; nothing changes")
  func completeStoredTitleOverBound() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let open = try #require(try cli.record("task", ["task", "add", "Migrate the billing tables"])["id"] as? String)
    let done = try #require(try cli.record("task", ["task", "add", "Archive the 2023 invoices"])["id"] as? String)
    #expect(try cli.run(["task", "complete", done]).status == 0)
    // As an earlier dolphin stored them, before the Unicode scalar bound.
    try Self.sqlite3(cli, "UPDATE task SET title = 'Migrate the billing tables' || replace(hex(zeroblob(3000)), '00', char(769));")
    let before = try Data(contentsOf: URL(fileURLWithPath: cli.workspace + "/workspace.sqlite"))

    let stored =
      "its stored title is 26 characters but 3026 Unicode scalars (each combining mark, joiner or modifier counts as "
      + "one); the limit is 300 characters and at most 3000 Unicode scalars in all (10 per character)"
    for (args, id, verb) in [(["task", "complete", open], open, "completed"), (["task", "reopen", done], done, "reopened")] {
      let r = try cli.run(args)
      #expect(r.status == 4, "\(args): \(r.stdout)\(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.hasPrefix("dolphin: error: task \(id) cannot be \(verb): \(stored). "), "\(args): \(r.stderr)")
      #expect(r.stderr.contains("nothing was changed"), "\(args): \(r.stderr)")
      #expect(r.stderr.contains("`dolphin task delete \(id) --workspace \(cli.workspace)`"), "\(args): \(r.stderr)")
      let json = try cli.run(args + ["--json"])
      let error = try #require(
        (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
      #expect(error["field"] as? String == "title", "\(error)")
      #expect(error["exitCode"] as? Int == 4, "\(error)")
    }
    // Nothing changed: the file, and each task's status.
    #expect(try Data(contentsOf: URL(fileURLWithPath: cli.workspace + "/workspace.sqlite")) == before)
    let list = try cli.run(["task", "list", "--json"])
    #expect(list.stdout.contains(#""status" : "open""#) && list.stdout.contains(#""status" : "completed""#), "\(list.stdout)")
  }
  // Review 19-b, F13: `knowledge edit A --priority high` on an item whose stored title is 400
  // characters said "`--title` is 400 characters" though no --title was given; `knowledge delete B`
  // where A relates to B failed naming neither A nor "stored"; doctor advised delete and re-add,
  // where `knowledge edit A --title …` keeps the id and relationships.
  @Test("a knowledge item's stored over-bound title: edit and delete errors name the stored field and record, and the edit that fixes it")
  func storedKnowledgeTitleOverBound() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let b = try #require((try cli.json(["capture", "fact", "Build server is ci-3"])["item"] as? [String: Any])?["id"] as? String)
    let a = try #require(
      (try cli.json(["capture", "decision", "Deploy from ci-3", "--relates", "supports:\(b)"])["item"] as? [String: Any])?["id"]
        as? String)
    try Self.sqlite3(cli, "UPDATE knowledge SET title = printf('%.400c', 't') WHERE id = '\(a)';")
    let before = try Data(contentsOf: URL(fileURLWithPath: cli.workspace + "/workspace.sqlite"))

    let edit = try cli.run(["knowledge", "edit", a, "--priority", "high"])
    #expect(edit.status == 4, "\(edit.stdout)\(edit.stderr)")
    #expect(
      edit.stderr.hasPrefix(
        "dolphin: error: knowledge item \(a) cannot be edited: its stored title is 400 characters; the limit is 300 "
          + "characters. It was stored before this bound existed, or by another program; nothing was changed."),
      "\(edit.stderr)")
    #expect(edit.stderr.contains("`dolphin knowledge edit \(a) --title … --workspace \(cli.workspace)`"), "\(edit.stderr)")
    #expect(!edit.stderr.contains("--title is 400"), "\(edit.stderr)")
    let json = try cli.run(["knowledge", "edit", a, "--priority", "high", "--json"])
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(error["field"] as? String == "title", "\(error)")

    let delete = try cli.run(["knowledge", "delete", b, "--yes"])
    #expect(delete.status == 4, "\(delete.stdout)\(delete.stderr)")
    #expect(delete.stdout.isEmpty, "refused before the plan is shown: \(delete.stdout)")
    #expect(
      delete.stderr.contains(
        "cannot delete knowledge item \(b): knowledge item \(a) relates to it (supports), and the deletion rewrites it, "
          + "but its stored title is 400 characters; the limit is 300 characters."),
      "\(delete.stderr)")
    #expect(delete.stderr.contains("`dolphin knowledge edit \(a) --title … --workspace \(cli.workspace)`"), "\(delete.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: cli.workspace + "/workspace.sqlite")) == before)

    // Doctor gives the same way out, keeping the id, for knowledge; delete and store again for the others.
    let doctor = try cli.run(["doctor"])
    #expect(doctor.stdout.contains("`dolphin knowledge edit <id> --title … --workspace \(cli.workspace)` (or `--content`, `--tags`)"), "\(doctor.stdout)")

    // The edit that sets the title within the bound goes through with the rest, keeping the id.
    let fixed = try cli.json(["knowledge", "edit", a, "--priority", "high", "--title", "Deploy from ci-3"])
    #expect((fixed["item"] as? [String: Any])?["id"] as? String == a, "\(fixed)")
    #expect(try cli.run(["knowledge", "delete", b, "--yes"]).status == 0)
    let after = try cli.record("item", ["knowledge", "get", a])
    #expect((after["relationships"] as? [Any])?.isEmpty == true, "\(after)")
  }
}
