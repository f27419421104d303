import ContinuityKit
import Foundation
import Testing
import TestSupport
@testable import DolphinCommands

/// Regression cases from a review (s9): `dolphin doctor` did not report a stored handoff next
/// step that shows nothing (empty, whitespace, or only characters such as U+2800 or soft
/// hyphens), which earlier imports stored before the writers refused them, and schema step 0006
/// kept tags of such characters in workspaces that ran it before tags were judged by what they
/// show. Doctor now counts and locates the blank steps; step 0007 removes them and those tags.
@Suite("Blank next steps at the command line", .serialized)
struct BlankNextStepDoctorTests {
  /// The next steps stored: two real ones around one of each kind that shows nothing.
  static let storedSteps =
    #"["Ship it","","   ","\u2800","\u00ad\u00ad","\u200b","Then test"]"#
  static let visibleSteps = ["Ship it", "Then test"]

  /// A workspace with one handoff and one tagged item, then edited with sqlite3 as `sql` says.
  static func workspace(_ cli: CLI, _ sql: (_ handoffID: String) -> String) throws -> String {
    let created = try cli.json(["handoff", "create", "--focus", "Blank steps", "--next", "Ship it", "--next", "Then test"])
    let id = try #require((created["handoff"] as? [String: Any])?["id"] as? String, "\(created)")
    #expect(try cli.run(["capture", "fact", "Tagged long ago", "--tags", "storage"]).status == 0)
    let edit = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql(id)])
    try #require(edit.status == 0, "sqlite3 is needed to store what earlier builds stored: \(edit.stderr)")
    return id
  }

  static func doctorJSON(_ cli: CLI) throws -> [String: Any] {
    let r = try cli.run(["doctor", "--json"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
  }

  @Test("a workspace from before step 0007: doctor reports the blank steps and that the upgrade removes them; the next command does")
  func beforeStep0007() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    // As a workspace that ran step 0006 before tags that show nothing were dropped, and holds a
    // next step of each blank kind an earlier import stored.
    let id = try Self.workspace(cli) { id in
      """
      UPDATE handoff SET next_steps = '\(Self.storedSteps)' WHERE id = '\(id)';
      UPDATE knowledge SET tags = '["\\u2800","storage","\\u00ad"]';
      INSERT INTO knowledge_tag(tag, knowledge_rowid) SELECT char(10240), rowid FROM knowledge;
      INSERT INTO knowledge_tag(tag, knowledge_rowid) SELECT char(173), rowid FROM knowledge;
      DELETE FROM schema_migration WHERE name = '\(StoredTextCleanupStep.name)';
      """
    }
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
    #expect(
      doctor.stdout.contains(
        "Handoff next steps: 5 blank (showing nothing) in 1 handoff(s):\n  - handoff \(id): step(s) 2, 3, 4, 5, 6\n"),
      "\(doctor.stdout)")
    let advice =
      "5 handoff next step(s) in 1 handoff(s) show nothing (empty, whitespace, or only invisible characters); "
      + "`handoff get` and restores list them as blank lines. Imports by earlier dolphins stored them (capture refuses "
      + "such a step, and imports now drop it). Schema step \(StoredTextCleanupStep.name) removes them and keeps every "
      + "other step as it is: the next command finishes the upgrade."
    #expect(doctor.stdout.contains("\n" + advice + "\n"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("schema upgrade step(s) \(StoredTextCleanupStep.name) are not applied yet"))
    #expect(doctor.stdout.hasSuffix("Doctor: healthy.\n"), "not a problem: \(doctor.stdout)")
    let report = try Self.doctorJSON(cli)
    #expect(report["ok"] as? Bool == true)
    let blank = try #require(report["blankNextSteps"] as? [String: Any], "\(report)")
    #expect(blank["count"] as? Int == 5)
    #expect(blank["handoffCount"] as? Int == 1)
    let handoffs = try #require(blank["handoffs"] as? [[String: Any]])
    #expect(handoffs.count == 1)
    #expect(handoffs.first?["handoffID"] as? String == id)
    #expect(handoffs.first?["positions"] as? [Int] == [2, 3, 4, 5, 6])
    #expect((report["advice"] as? [String])?.contains(advice) == true, "\(report)")

    // The next command applies step 0007: the blank steps and invisible tags are gone, the
    // rest is as it was.
    let shown = try cli.record("handoff", ["handoff", "get", id])
    #expect(shown["nextSteps"] as? [String] == Self.visibleSteps, "\(shown)")
    #expect(shown["focus"] as? String == "Blank steps")
    let items = try #require(try cli.json(["knowledge", "list"])["items"] as? [[String: Any]])
    #expect(items.first?["tags"] as? [String] == ["storage"])
    let searched = try cli.run(["search", "tagged"])
    #expect(searched.status == 0, "\(searched.stderr)")
    #expect(
      searched.stderr.contains(
        "(schema step 0006-normalize-stored-tags or \(StoredTextCleanupStep.name) rewrote stored tags"),
      "\(searched.stderr)")
    let after = try cli.run(["doctor"])
    #expect(after.stdout.contains("Handoff next steps: none blank\n"), "\(after.stdout)")
    #expect(!after.stdout.contains("show nothing"), "\(after.stdout)")
    #expect(after.stdout.hasSuffix("Doctor: healthy.\n"), "\(after.stdout)")
    let clean = try Self.doctorJSON(cli)
    let none = try #require(clean["blankNextSteps"] as? [String: Any])
    #expect(none["count"] as? Int == 0 && (none["handoffs"] as? [Any])?.isEmpty == true, "\(none)")
  }

  @Test("more handoffs with blank steps than doctor lists: JSON says truncated, the text says how many more")
  func listCut() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for n in 1...22 {
      #expect(try cli.run(["handoff", "create", "--focus", "Handoff \(n)", "--next", "Ship it"]).status == 0)
    }
    let edit = try runProcess(
      "/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", #"UPDATE handoff SET next_steps = '["","Ship it"]';"#])
    try #require(edit.status == 0, "sqlite3 is needed to store what earlier builds stored: \(edit.stderr)")
    let blank = try #require(try Self.doctorJSON(cli)["blankNextSteps"] as? [String: Any])
    #expect(blank["handoffCount"] as? Int == 22)
    #expect((blank["handoffs"] as? [Any])?.count == 20)
    #expect(blank["truncated"] as? Bool == true, "\(blank)")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.stdout.contains("Handoff next steps: 22 blank (showing nothing) in 22 handoff(s):\n"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("\n  … and 2 more handoff(s)\n"), "\(doctor.stdout)")
    // Two handoffs fewer with a blank step: the other 20 are all listed, and nothing is cut.
    let fix = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite",
       #"UPDATE handoff SET next_steps = '["Ship it"]' WHERE id IN (SELECT id FROM handoff ORDER BY id LIMIT 2);"#])
    try #require(fix.status == 0, "\(fix.stderr)")
    let whole = try #require(try Self.doctorJSON(cli)["blankNextSteps"] as? [String: Any])
    #expect(whole["handoffCount"] as? Int == 20 && whole["truncated"] as? Bool == false, "\(whole)")
    #expect(!(try cli.run(["doctor"]).stdout.contains("more handoff(s)")))
  }

  @Test("blank steps written after the upgrade (not by dolphin): doctor gives the sqlite3 command that removes them, and it does")
  func afterStep0007() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try Self.workspace(cli) { id in
      #"UPDATE handoff SET next_steps = '["","Ship it","\u2800","Then test"]' WHERE id = '"# + id + "';"
    }
    let db = cli.workspace + "/workspace.sqlite"
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
    #expect(
      doctor.stdout.contains("Handoff next steps: 2 blank (showing nothing) in 1 handoff(s):\n  - handoff \(id): step(s) 1, 3\n"),
      "\(doctor.stdout)")
    // Positions from the last down, so removing one leaves the others where they were.
    let command =
      "sqlite3 '\(db)' 'UPDATE handoff SET next_steps = json_remove(next_steps, '\\''$[2]'\\'', '\\''$[0]'\\'') "
      + "WHERE id = '\\''\(id)'\\'''"
    #expect(
      doctor.stdout.contains(
        "They were written after this workspace's upgrade removed such steps, so not by dolphin (capture refuses them, "
          + "imports drop them). Nothing was changed. To remove them all and keep the other steps, stop every dolphin "
          + "process using this workspace and run: \(command); or delete such a handoff (`dolphin handoff delete <id> --workspace \(cli.workspace)`)."),
      "\(doctor.stdout)")
    #expect(try Self.doctorJSON(cli)["blankNextStepsCommand"] as? String == command)
    #expect(!doctor.stdout.contains("Schema step"), "\(doctor.stdout)")
    // The command pastes as shown.
    let fixed = try runProcess("/bin/sh", ["-c", command])
    #expect(fixed.status == 0, "\(fixed.stderr)")
    #expect(try cli.record("handoff", ["handoff", "get", id])["nextSteps"] as? [String] == Self.visibleSteps)
    #expect(try cli.run(["doctor"]).stdout.contains("Handoff next steps: none blank\n"))
    #expect(try Self.doctorJSON(cli)["blankNextStepsCommand"] is NSNull, "null once there are none")
  }

  @Test("blank steps in more handoffs than doctor lists: one sqlite3 command removes them all, and it does")
  func oneCommandForEveryHandoff() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    var ids: [String] = []
    for n in 1...22 {
      let created = try cli.json(["handoff", "create", "--focus", "Handoff \(n)", "--next", "Ship it", "--next", "Then test"])
      ids.append(try #require((created["handoff"] as? [String: Any])?["id"] as? String))
    }
    // Different positions in different handoffs: each keeps its own two real steps.
    let edit = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite",
       #"UPDATE handoff SET next_steps = CASE WHEN rowid % 2 = 0 THEN '["","Ship it","\u2800","Then test"]' "#
        + #"ELSE '["Ship it"," ","Then test",""]' END;"#])
    try #require(edit.status == 0, "sqlite3 is needed to store what earlier builds stored: \(edit.stderr)")
    let report = try Self.doctorJSON(cli)
    // The report keeps its shape: 20 handoffs listed, cut, with every count.
    let blank = try #require(report["blankNextSteps"] as? [String: Any])
    #expect(blank["count"] as? Int == 44 && blank["handoffCount"] as? Int == 22)
    #expect((blank["handoffs"] as? [Any])?.count == 20 && blank["truncated"] as? Bool == true, "\(blank)")
    let command = try #require(report["blankNextStepsCommand"] as? String, "\(report)")
    #expect(command.hasPrefix("sqlite3 '\(cli.workspace)/workspace.sqlite' 'UPDATE handoff SET next_steps = CASE id WHEN "))
    for id in ids { #expect(command.contains(id), "the command covers \(id), listed or not") }
    let doctor = try cli.run(["doctor"])
    #expect(doctor.stdout.contains("To remove them all and keep the other steps, stop every dolphin process using "
      + "this workspace and run: \(command); or delete such a handoff"), "\(doctor.stdout)")
    #expect(doctor.stdout.components(separatedBy: "sqlite3 '").count == 2, "one command: \(doctor.stdout)")
    #expect(!doctor.stdout.contains("and so on"), "\(doctor.stdout)")

    let fixed = try runProcess("/bin/sh", ["-c", command])
    #expect(fixed.status == 0, "\(fixed.stderr)")
    for id in ids {
      #expect(try cli.record("handoff", ["handoff", "get", id])["nextSteps"] as? [String] == Self.visibleSteps, "\(id)")
    }
    #expect(try cli.run(["doctor"]).stdout.contains("Handoff next steps: none blank\n"))
  }

  /// A review stored blank steps in 1,500 handoffs with sqlite3 (a workspace holds 200): the
  /// one command fits some 800 in a command line, and the advice said "remove them all".
  @Test("a command cut to what one command line holds says which handoffs it covers, not all")
  func cutCommandSaysSo() {
    let entries = (0..<1500).map { i in
      BlankNextStepReport.Entry(
        handoffID: String(format: "3F2504E0-4F89-11D3-9A0C-%012d", i), positions: [1, 3])
    }
    let report = BlankNextStepReport(count: 3000, handoffCount: 1500, handoffs: entries)
    let (advice, command) = Commands.blankNextStepAdvice(
      report, removedByPendingStep: false, writable: true, databasePath: "/tmp/ws/workspace.sqlite")
    let covered = Commands.blankNextStepCommand(entries, databasePath: "/tmp/ws/workspace.sqlite").covered
    #expect(covered > 200 && covered < 1500, "\(covered)")
    // Printed with its shell quoting, the command is longer than the argument sqlite3 gets,
    // which Linux caps at 128 KiB (MAX_ARG_STRLEN).
    #expect((command?.utf8.count ?? .max) < 128 * 1024, "\(command?.utf8.count ?? 0)")
    #expect(!advice.contains("remove them all"), "\(advice)")
    #expect(advice.contains("To remove them from the first \(covered) handoffs"), "\(advice)")
    #expect(advice.contains("run `dolphin doctor` again afterwards"), "\(advice)")
    let all = Commands.blankNextStepAdvice(
      BlankNextStepReport(count: 2, handoffCount: 1, handoffs: [entries[0]]),
      removedByPendingStep: false, writable: true, databasePath: "/tmp/ws/workspace.sqlite")
    #expect(all.advice.contains("To remove them all"), "\(all.advice)")
  }
}

