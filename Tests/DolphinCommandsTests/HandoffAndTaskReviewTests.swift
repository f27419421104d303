import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 20-b, findings 3, 4, 5, 6 and 18, through the built binary with the review's inputs.
@Suite("review 20-b: handoffs and tasks", .serialized)
struct HandoffAndTaskReviewTests {
  static func handoffID(_ obj: [String: Any]) throws -> String {
    try #require((obj["handoff"] as? [String: Any])?["id"] as? String)
  }

  @Test("#3: the restore brief lists tasks added and completed since the handoff, in text, JSON and counts")
  func briefListsTasksSince() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "seed"]).status == 0)
    let before = try #require(try cli.record("task", ["task", "add", "Task from before"])["id"] as? String)
    let h = try Self.handoffID(try cli.json(["handoff", "create", "--focus", "Day 1"]))
    let urgent = try #require(
      try cli.record("task", ["task", "add", "New urgent task added after handoff", "--priority", "critical"])["id"] as? String)
    #expect(try cli.run(["task", "complete", before]).status == 0)
    #expect(try cli.run(["capture", "decision", "Decision after handoff"]).status == 0)

    let text = try cli.run(["handoff", "restore", h])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("Knowledge captured since this handoff (1 of 1):"), "\(text.stdout)")
    #expect(text.stdout.contains("Tasks added, completed or updated since this handoff (2 of 2):"), "\(text.stdout)")
    #expect(text.stdout.contains("  - \(urgent)  task [open] (added since): \"New urgent task added after handoff\""), "\(text.stdout)")
    #expect(text.stdout.contains("  - \(before)  task [completed] (completed since): \"Task from before\""), "\(text.stdout)")

    let json = try cli.json(["handoff", "restore", h])
    #expect(json["tasksSinceTotal"] as? Int == 2)
    let since = try #require(json["tasksSince"] as? [[String: Any]])
    #expect(Set(since.compactMap { $0["id"] as? String }) == [urgent, before])
    #expect(since.first { $0["id"] as? String == urgent }?["change"] as? String == "added")
    #expect(since.first { $0["id"] as? String == before }?["change"] as? String == "completed")
  }

  @Test("#3: more tasks since than the brief lists: it lists the 10 changed latest and says how many earlier it left out (review 28-b, 6)")
  func briefBoundsTasksSince() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let h = try Self.handoffID(try cli.json(["handoff", "create", "--focus", "Day 1"]))
    for i in 1...12 { #expect(try cli.run(["task", "add", "Task \(i)"]).status == 0) }
    let text = try cli.run(["handoff", "restore", h])
    #expect(text.stdout.contains("Tasks added, completed or updated since this handoff (10 of 12):"), "\(text.stdout)")
    #expect(
      text.stdout.contains(
        "  … 2 earlier tasks since this handoff not shown (`dolphin task list --status all --limit 2 --workspace \(cli.workspace)` "
          + "lists them among the first 2 tasks, open first, then by priority and age)"), "\(text.stdout)")
    // The latest kept (the oldest were, hiding the newest), shown oldest first.
    #expect(!text.stdout.contains("\"Task 1\"") && !text.stdout.contains("\"Task 2\""), "\(text.stdout)")
    let third = try #require(text.stdout.range(of: "\"Task 3\""), "\(text.stdout)")
    let twelfth = try #require(text.stdout.range(of: "\"Task 12\""), "\(text.stdout)")
    #expect(third.lowerBound < twelfth.lowerBound)
  }

  @Test("#4: stale-handoff advice names the newer handoff to restore; --activate makes a new one active and clears it")
  func staleAdviceIsActionable() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let h1 = try Self.handoffID(try cli.json(["handoff", "create", "--focus", "Old focus"]))
    #expect(try cli.run(["handoff", "restore", h1]).status == 0)
    #expect(try cli.run(["capture", "fact", "Captured after the old handoff"]).status == 0)
    let alone = try cli.run(["insights"])
    #expect(alone.stdout.contains("create a new handoff and mark it active (`dolphin handoff create --focus TEXT --activate --workspace \(cli.workspace)`) "
      + "or deactivate this one (`dolphin handoff deactivate --workspace \(cli.workspace)`)."), "\(alone.stdout)")

    let h2 = try Self.handoffID(
      try cli.json(["handoff", "create", "--focus", "Backend database: MySQL vs PostgreSQL migration", "--auto"]))
    #expect(try cli.json(["handoff", "list"])["activeHandoffID"] as? String == h1, "create alone changes no marker")
    let stale = try cli.run(["insights"])
    #expect(stale.stdout.contains(
      "restore the newer handoff \"Backend database: MySQL vs PostgreSQL migration\" (id \(h2): `dolphin handoff restore \(h2) --workspace \(cli.workspace)`) "
        + "or deactivate this one (`dolphin handoff deactivate --workspace \(cli.workspace)`)."), "\(stale.stdout)")

    // Following the advice clears the insight.
    #expect(try cli.run(["handoff", "restore", h2]).status == 0)
    #expect(!(try cli.run(["insights"])).stdout.contains("may be stale"))

    let created = try cli.run(["handoff", "create", "--focus", "End of day", "--activate"])
    #expect(created.stdout.contains("Marked it active (handoff \(h2) was active before)."), "\(created.stdout)")
    let list = try cli.json(["handoff", "list"])
    let newest = try #require((list["handoffs"] as? [[String: Any]])?.first?["id"] as? String)
    #expect(list["activeHandoffID"] as? String == newest)
    #expect(newest != h1 && newest != h2)
  }

  /// Stores `count` handoffs dated one day apart from 2026-01-01 (the first is the oldest).
  static func fill(_ cli: CLI, count: Int) throws -> [UUID] {
    let store = try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: cli.workspace))
    let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    let ids = (1...count).map(sequentialID)
    try store.write { tx in
      for (i, id) in ids.enumerated() {
        try tx.insertHandoff(Handoff(id: id, focus: "Session \(i + 1)", createdAt: start.addingTimeInterval(Double(i) * 86_400)))
      }
    }
    return ids
  }

  @Test("#5: at 200 handoffs the error names the oldest inactive ones and one command; --keep-newest deletes them after a plan, never the active one")
  func fullHandoffsArePrunable() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let ids = try Self.fill(cli, count: Limits.handoffs)
    // The oldest is active: never selected.
    #expect(try cli.run(["handoff", "restore", ids[0].uuidString]).status == 0)
    let full = try cli.run(["handoff", "create", "--focus", "Session 201"])
    #expect(full.status == 4)
    #expect(full.stderr.contains("the workspace holds 200 handoffs, the most it may hold (200, a fixed limit, not a setting)"))
    #expect(full.stderr.contains(
      "The oldest inactive: \(ids[1].uuidString) (2026-01-02T00:00:00.000Z, \"Session 2\"); \(ids[2].uuidString) "), "\(full.stderr)")
    #expect(full.stderr.contains("; and 194 more."), "\(full.stderr)")
    #expect(full.stderr.contains("`dolphin handoff delete --keep-newest 150 --workspace \(cli.workspace)`"), "\(full.stderr)")
    #expect(!full.stderr.contains(ids[0].uuidString), "the active one is not offered")

    // No terminal and no --yes: the plan is shown, nothing is deleted.
    let unconfirmed = try cli.run(["handoff", "delete", "--keep-newest", "150"])
    #expect(unconfirmed.status != 0)
    #expect(unconfirmed.stdout.contains("Delete 49 handoff(s), oldest first"), "\(unconfirmed.stdout)")
    #expect(try cli.json(["handoff", "list"])["total"] as? Int == 200)

    let pruned = try cli.run(["handoff", "delete", "--keep-newest", "150", "--yes"])
    #expect(pruned.status == 0, "\(pruned.stderr)")
    #expect(pruned.stdout.contains("Deleted 49 handoff(s)"), "\(pruned.stdout)")
    let list = try cli.json(["handoff", "list"])
    #expect(list["total"] as? Int == 151)
    #expect(list["activeHandoffID"] as? String == ids[0].uuidString)
    let kept = Set((list["handoffs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
    #expect(kept == Set([ids[0]] + ids[50...]).map(\.uuidString).reduce(into: Set<String>()) { $0.insert($1) })
    #expect(try cli.run(["handoff", "create", "--focus", "Session 201"]).status == 0)

    // By date: the inactive ones made before 2026-03-01 (days 50…59 of the kept ones); a date
    // and time without a zone is UTC, as a date alone is (review 21-a, 17).
    let byDate = try cli.run(["handoff", "delete", "--inactive-older-than", "2026-03-01T00:00:00", "--yes", "--json"])
    #expect(byDate.status == 0, "\(byDate.stderr)")
    let out = try #require(try JSONSerialization.jsonObject(with: Data(byDate.stdout.utf8)) as? [String: Any])
    #expect(out["count"] as? Int == 9)  // 2026-02-20 … 2026-02-28 (ids[50] is 2026-02-20)
    #expect(try cli.json(["handoff", "list"])["activeHandoffID"] as? String == ids[0].uuidString)
  }

  @Test("#5: handoff delete takes exactly one of an id, --keep-newest and --inactive-older-than; a bad date is named")
  func pruningArguments() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let none = try cli.run(["handoff", "delete"])
    #expect(none.status == 2, "\(none.stderr)")
    #expect(none.stderr.contains("needs exactly one of: a handoff id, --keep-newest N, --inactive-older-than DATE"))
    let date = try cli.run(["handoff", "delete", "--inactive-older-than", "yesterday"])
    #expect(date.status == 2)
    #expect(date.stderr.contains("--inactive-older-than must be a date such as 2026-01-31 or 2026-01-31T12:00:00 (UTC unless"), "\(date.stderr)")
    let range = try cli.run(["handoff", "delete", "--keep-newest", "201"])
    #expect(range.status == 4)
    #expect(range.stderr.contains("--keep-newest is 201; it must be between 0 and 200"), "\(range.stderr)")
  }

  @Test("#6: task get shows notes, knowledge ids and the completion date; task edit changes them with task add's bounds")
  func taskGetAndEdit() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require((try cli.json(["capture", "fact", "ImageCache holds images"])["item"] as? [String: Any])?["id"] as? String)
    let t = try #require(
      try cli.record(
        "task",
        [
          "task", "add", "Investigate memory leak", "--notes",
          "Seen in Instruments: ImageCache retains UIImage after didReceiveMemoryWarning",
        ])["id"] as? String)
    let get = try cli.run(["task", "get", t])
    #expect(get.status == 0, "\(get.stderr)")
    #expect(get.stdout.contains("task: Investigate memory leak\nid:        \(t)\nstatus:    open\npriority:  normal\n"), "\(get.stdout)")
    #expect(get.stdout.contains("notes:     Seen in Instruments: ImageCache retains UIImage after didReceiveMemoryWarning"))
    #expect(get.stdout.contains("knowledge: (none)"))

    let h = try Self.handoffID(try cli.json(["handoff", "create", "--focus", "Leak", "--task", t]))
    let edited = try cli.run(["task", "edit", t, "--title", "Fix the ImageCache leak", "--priority", "critical", "--knowledge", k])
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.stdout.contains("Edited task \"Fix the ImageCache leak\": title, priority, knowledge changed."), "\(edited.stdout)")
    // Worded as every other write words it (review 21-a, 15).
    #expect(edited.stdout.contains("Also rewrote the rule-built summary of handoff \(h) \"Leak\"."), "\(edited.stdout)")
    let summary = try #require((try cli.record("handoff", ["handoff", "get", h])["summary"]) as? String)
    #expect(summary.contains("\"Fix the ImageCache leak\""), "\(summary)")

    #expect(try cli.run(["task", "complete", t]).status == 0)
    let after = try cli.run(["task", "get", t])
    #expect(after.stdout.contains("status:    completed (completed "), "\(after.stdout)")
    #expect(after.stdout.contains("priority:  critical"))
    #expect(after.stdout.contains("knowledge: \(k)"))
    let json = try cli.record("task", ["task", "get", t])
    #expect(json["notes"] as? String == "Seen in Instruments: ImageCache retains UIImage after didReceiveMemoryWarning")

    let same = try cli.run(["task", "edit", t, "--priority", "critical"])
    #expect(same.stdout.contains("No change: task \"Fix the ImageCache leak\" already holds what was given."), "\(same.stdout)")

    let long = try cli.run(["task", "edit", t, "--title", String(repeating: "x", count: 301)])
    #expect(long.status == 4)
    #expect(long.stderr.contains("title is 301 characters; the limit is 300 characters"), "\(long.stderr)")
    let notes = try cli.run(["task", "edit", t, "--notes", String(repeating: "n", count: 4_001)])
    #expect(notes.status == 4)
    #expect(notes.stderr.contains("4001 characters; the limit is 4000"), "\(notes.stderr)")
    let blank = try cli.run(["task", "edit", t, "--title", "   "])
    #expect(blank.status == 4, "\(blank.stderr)")
    let nothing = try cli.run(["task", "edit", t])
    #expect(nothing.status == 2)
    #expect(nothing.stderr.contains("task edit: nothing to change"))
    let unknown = try cli.run(["task", "edit", t, "--knowledge", "3F2504E0-4F89-11D3-9A0C-0305E82C3301"])
    #expect(unknown.status == 3, "\(unknown.stderr)")
    #expect(try cli.record("task", ["task", "get", t])["title"] as? String == "Fix the ImageCache leak", "nothing stored on error")
    #expect(try cli.run(["task", "get", "3F2504E0-4F89-11D3-9A0C-0305E82C3301"]).status == 3)
    for command in [["task", "get", "--help"], ["task", "edit", "--help"]] {
      let help = try cli.run(command)
      #expect(help.status == 0 && help.stdout.contains("dolphin " + command.prefix(2).joined(separator: " ")), "\(help.stdout)")
    }
  }

  @Test("#18: handoff restore and get take latest and a unique id prefix of at least 8 hex digits; never a guess")
  func handoffReferences() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "A workspace with no handoff"]).status == 0)
    let empty = try cli.run(["handoff", "restore", "latest"])
    #expect(empty.status == 3, "\(empty.stderr)")
    #expect(empty.stderr.contains("names the newest handoff, and the workspace holds none"))

    let first = try Self.handoffID(try cli.json(["handoff", "create", "--focus", "First"]))
    let second = try Self.handoffID(try cli.json(["handoff", "create", "--focus", "Second"]))
    let latest = try cli.run(["handoff", "restore", "latest"])
    #expect(latest.stdout.hasPrefix("Continuity brief — handoff \(second) is now active"), "\(latest.stdout)")
    let prefix = String(first.prefix(8)).lowercased()
    let byPrefix = try cli.run(["handoff", "restore", prefix])
    #expect(byPrefix.stdout.hasPrefix("Continuity brief — handoff \(first) is now active"), "\(byPrefix.stdout) \(byPrefix.stderr)")
    #expect(try cli.run(["handoff", "get", String(first.prefix(13))]).stdout.contains("id:       \(first)"))

    let short = try cli.run(["handoff", "restore", String(first.prefix(7))])
    #expect(short.status == 4)
    #expect(short.stderr.contains("is not a UUID, `latest`, or the start of a handoff id (at least 8 hexadecimal digits"), "\(short.stderr)")
    let malformed = try cli.run(["handoff", "restore", "not-a-uuid"])
    #expect(malformed.status == 4)
    #expect(malformed.stderr.contains("id 'not-a-uuid' is not a UUID"), "\(malformed.stderr)")
    let unknown = try cli.run(["handoff", "get", "FFFFFFFF"])
    #expect(unknown.status == 3)
    #expect(unknown.stderr.contains("no handoff id begins with FFFFFFFF"), "\(unknown.stderr)")
  }

  /// Review 23-a, 8: `handoff get 9917CC8F12ED` (12 digits of the id, without its hyphen) and
  /// `handoff get 0000000000` were both refused as malformed (exit 4).
  @Test("a prefix of more than 8 digits typed without the hyphen names its handoff; an unknown one exits 3")
  func hyphenlessPrefix() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try Self.handoffID(try cli.json(["handoff", "create", "--focus", "Prefix test"]))
    let digits = String(id.filter { $0 != "-" }.prefix(12))
    let get = try cli.run(["handoff", "get", digits])
    #expect(get.status == 0, "\(get.stderr)")
    #expect(get.stdout.contains("id:       \(id)"), "\(get.stdout)")
    let restored = try cli.run(["handoff", "restore", digits.lowercased()])
    #expect(restored.stdout.hasPrefix("Continuity brief — handoff \(id) is now active"), "\(restored.stdout) \(restored.stderr)")
    let whole = try cli.run(["handoff", "get", id.filter { $0 != "-" }])
    #expect(whole.status == 0 && whole.stdout.contains("id:       \(id)"), "\(whole.stderr)")

    let unknown = try cli.run(["handoff", "get", "0000000000"])
    #expect(unknown.status == 3, "\(unknown.stderr)")
    #expect(unknown.stderr.contains("id '0000000000': no handoff id begins with 0000000000"), "\(unknown.stderr)")
    // Hyphens must sit where the id has them, or be left out altogether.
    let misplaced = try cli.run(["handoff", "get", digits + "-0000"])
    #expect(misplaced.status == 4, "\(misplaced.stderr)")
    #expect(misplaced.stderr.contains("is not a UUID, `latest`, or the start of a handoff id"), "\(misplaced.stderr)")
  }

  @Test("#18: a prefix two handoffs share is refused, listing both")
  func ambiguousPrefix() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let ids = try Self.fill(cli, count: 2)  // 00000000-0000-0000-0000-000000000001 and …002
    let r = try cli.run(["handoff", "restore", "00000000-0000"])
    #expect(r.status == 4)
    #expect(r.stderr.contains("begins 2 handoff ids, so it names none of them: "), "\(r.stderr)")
    #expect(r.stderr.contains("\(ids[0].uuidString) \"Session 1\"") && r.stderr.contains("\(ids[1].uuidString) \"Session 2\""))
    #expect(try cli.json(["handoff", "list"])["activeHandoffID"] == nil || (try cli.json(["handoff", "list"])["activeHandoffID"] is NSNull))
  }
}

/// Review 21-a, 4: `handoff delete` took only a full UUID, though `get` and `restore` take
/// `latest` and id prefixes.
@Suite("handoff delete takes the references get and restore take")
struct HandoffDeleteReferenceTests {
  @Test("a unique 8-digit prefix and latest select one handoff; a malformed one is named")
  func prefixAndLatest() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let first = try #require((try cli.json(["handoff", "create", "--focus", "Storage layer"])["handoff"] as? [String: Any])?["id"] as? String)
    let second = try #require((try cli.json(["handoff", "create", "--focus", "Search tuning"])["handoff"] as? [String: Any])?["id"] as? String)
    let byPrefix = try cli.run(["handoff", "delete", String(first.prefix(8)).lowercased(), "--yes"])
    #expect(byPrefix.status == 0, "\(byPrefix.stderr)")
    #expect(byPrefix.stdout.contains("Deleted handoff \(first)"), "\(byPrefix.stdout)")
    let latest = try cli.run(["handoff", "delete", "latest", "--yes"])
    #expect(latest.status == 0, "\(latest.stderr)")
    #expect(latest.stdout.contains("Deleted handoff \(second)"), "\(latest.stdout)")
    #expect(try cli.json(["handoff", "list"])["total"] as? Int == 0)
    let bad = try cli.run(["handoff", "delete", "9E99"])
    #expect(bad.status == 4, "\(bad.stderr)")
    #expect(bad.stderr.contains("9E99"), "\(bad.stderr)")
  }
}

/// Review 21-a, 18: `--next -` took all of standard input as one step holding line breaks, and
/// `--auto` ranked by the focus alone, so the README's own working day selected no task.
@Suite("handoff create: next steps from standard input, and --auto reads them")
struct HandoffNextStepsInputTests {
  @Test("--next - makes one step per non-blank line, each checked as a step")
  func oneStepPerLine() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["handoff", "create", "--focus", "f", "--next", "Write tests", "--next", "-", "--json"], stdin: "step a\n\n  step b  \n")
    #expect(r.status == 0, "\(r.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect((json["handoff"] as? [String: Any])?["nextSteps"] as? [String] == ["Write tests", "step a", "step b"])
    let long = try cli.run(["handoff", "create", "--focus", "f", "--next", "-"], stdin: "ok\n" + String(repeating: "x", count: 301) + "\n")
    #expect(long.status == 4, "\(long.stderr)")
    // Named by its input line too (review 28-d, 9).
    #expect(long.stderr.contains("--next - line 2 (step #2)"), "\(long.stderr)")
    let many = try cli.run(["handoff", "create", "--focus", "f", "--next", "-"], stdin: (1...13).map { "step \($0)" }.joined(separator: "\n"))
    #expect(many.status == 4, "\(many.stderr)")
    #expect(many.stderr.contains("12"), "\(many.stderr)")
    #expect(try cli.json(["handoff", "list"])["total"] as? Int == 1)
  }

  /// Review 24-a, 6: standard input as a whole was held to 12 × (300 + 2) = 3,624 characters,
  /// blank lines included, and the error named that bound, which no help text stated.
  @Test("--next -: blank lines and white space count toward no bound; too many or too long steps name the real bounds")
  func blankLinesCountForNothing() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let one = try cli.run(["handoff", "create", "--focus", "f", "--next", "-", "--json"], stdin: String(repeating: "\n", count: 3700) + "only step\n")
    #expect(one.status == 0, "\(one.stderr)")
    let oneJSON = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
    #expect((oneJSON["handoff"] as? [String: Any])?["nextSteps"] as? [String] == ["only step"])

    let full = (1...12).map { _ in "   " + String(repeating: "y", count: 298) + "\t\n\n\n\n\n" }.joined()
    let twelve = try cli.run(["handoff", "create", "--focus", "f", "--next", "-", "--json"], stdin: full)
    #expect(twelve.status == 0, "\(twelve.stderr)")
    let twelveJSON = try #require(try JSONSerialization.jsonObject(with: Data(twelve.stdout.utf8)) as? [String: Any])
    #expect((twelveJSON["handoff"] as? [String: Any])?["nextSteps"] as? [String] == Array(repeating: String(repeating: "y", count: 298), count: 12))

    let many = try cli.run(["handoff", "create", "--focus", "f", "--next", "-"], stdin: String(repeating: "x\n", count: 2000))
    #expect(many.status == 4, "\(many.stderr)")
    #expect(many.stderr.contains("--next has 2000 steps; the limit is 12"), "\(many.stderr)")
    #expect(!many.stderr.contains("3624"), "\(many.stderr)")
    let beside = try cli.run(["handoff", "create", "--focus", "f", "--next", "a", "--next", "-"], stdin: String(repeating: "x\n", count: 12))
    #expect(beside.stderr.contains("--next has 13 steps; the limit is 12"), "\(beside.stderr)")

    let long = try cli.run(
      ["handoff", "create", "--focus", "f", "--next", "-"], stdin: String(repeating: "\n", count: 4000) + String(repeating: "z", count: 301))
    #expect(long.status == 4, "\(long.stderr)")
    #expect(long.stderr.contains("--next - line 4001 (step #1) is 301 characters; the limit is 300 characters"), "\(long.stderr)")

    let blank = try cli.run(["handoff", "create", "--focus", "f", "--next", "-"], stdin: " \n\t\n\n")
    #expect(blank.status == 4, "\(blank.stderr)")
    #expect(blank.stderr.contains("--next -: standard input held no step"), "\(blank.stderr)")

    // Whatever is piped in, at most the documented bound is read, and the error names it.
    let huge = try cli.run(
      ["handoff", "create", "--focus", "f", "--next", "-"], stdin: String(repeating: "\n", count: Limits.handoffNextStepsInputBytes + 1))
    #expect(huge.status == 4, "\(huge.stderr)")
    #expect(
      huge.stderr.contains(
        "--next -: standard input is more than \(Limits.handoffNextStepsInputBytes) bytes, the most read for --next - "
          + "(at most 12 steps of at most 300 characters, one per non-blank line)"),
      "\(huge.stderr)")
    #expect(try cli.json(["handoff", "list"])["total"] as? Int == 2)
  }

  @Test("the README's working day: --auto selects the task its next step names")
  func autoReadsNextSteps() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let t = try #require(try cli.record("task", ["task", "add", "Benchmark capture at 10k items", "--priority", "high"])["id"] as? String)
    _ = try cli.json(["capture", "decision", "Use SQLite WAL mode", "--content", "Readers never block the writer"])
    let r = try cli.json(["handoff", "create", "--focus", "Storage layer", "--next", "Run the benchmark", "--auto"])
    let handoff = try #require(r["handoff"] as? [String: Any])
    #expect(handoff["taskIDs"] as? [String] == [t], "\(handoff)")
  }
}

/// Review 21-a, 6: only `task list` and `activity` said in `--json` whether the limit cut the
/// list; `knowledge list`, `memory list` and `handoff list` give `truncated` too.
@Suite("Every list says in --json whether its limit cut it")
struct ListTruncatedTests {
  @Test("truncated is true under the limit's cut and false when all are listed")
  func truncatedEverywhere() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for i in 1...3 {
      #expect(try cli.run(["capture", "fact", "Fact \(i)"]).status == 0)
      #expect(try cli.run(["memory", "save", "Memory \(i)"]).status == 0)
      #expect(try cli.run(["handoff", "create", "--focus", "Session \(i)"]).status == 0)
      #expect(try cli.run(["task", "add", "Task \(i)"]).status == 0)
    }
    for list in [["knowledge", "list"], ["memory", "list"], ["handoff", "list"], ["task", "list"]] {
      let cut = try cli.json(list + ["--limit", "2"])
      #expect(cut["truncated"] as? Bool == true && cut["count"] as? Int == 2, "\(list): \(cut.keys.sorted())")
      let whole = try cli.json(list + ["--limit", "50"])
      #expect(whole["truncated"] as? Bool == false, "\(list)")
    }
  }
}
