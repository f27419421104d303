import ContinuityKit
import Foundation
import Testing
import TestSupport

/// `context`, `review`, `insights` and `task search` through the built binary.
@Suite("dolphin context, review, insights and task search", .serialized)
struct ContinuityCommandsTests {
  /// Captures a small real workspace; returns the ids by title.
  static func seed(_ cli: CLI) throws -> [String: String] {
    var ids: [String: String] = [:]
    func capture(_ args: [String]) throws {
      let r = try cli.json(["capture"] + args)
      let item = try #require(r["item"] as? [String: Any])
      ids[try #require(item["title"] as? String)] = try #require(item["id"] as? String)
    }
    try capture(["decision", "Use SQLite for the workspace", "--content", "WAL mode. One file per workspace.", "--tags", "storage", "--priority", "high"])
    try capture(["decision", "Ship İstanbul-safe lowercasing", "--content", "Never use the locale. Tests run in tr_TR.", "--tags", "i18n"])
    try capture(["preference", "Prefer Swift Testing", "--tags", "testing"])
    try capture(["goal", "Ship 1.0 before March?", "--priority", "critical"])
    let t = try cli.record("task", ["task", "add", "Benchmark the digest", "--priority", "high", "--knowledge", try #require(ids["Use SQLite for the workspace"])])
    ids["Benchmark the digest"] = try #require(t["id"] as? String)
    let u = try cli.record("task", ["task", "add", "Write the README"])
    ids["Write the README"] = try #require(u["id"] as? String)
    return ids
  }

  struct EnvironmentCase: CustomStringConvertible, Sendable {
    var name: String
    var variables: [String: String]
    var description: String { name }
  }

  static let environments: [EnvironmentCase] = [
    EnvironmentCase(name: "UTC, C locale", variables: ["TZ": "UTC", "LANG": "C", "LC_ALL": "C"]),
    EnvironmentCase(name: "Chatham, Turkish", variables: ["TZ": "Pacific/Chatham", "LANG": "tr_TR.UTF-8", "LC_ALL": "tr_TR.UTF-8"]),
    EnvironmentCase(name: "St. John's, German", variables: ["TZ": "America/St_Johns", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"]),
    EnvironmentCase(name: "Kiritimati, Japanese", variables: ["TZ": "Pacific/Kiritimati", "LANG": "ja_JP.UTF-8", "LC_ALL": "ja_JP.UTF-8"]),
  ]

  @Test("context is byte-identical in any process, locale and time zone, and writes nothing")
  func contextIsDeterministic() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let ids = try Self.seed(cli)
    var outputs: [String] = []
    var texts: [String] = []
    for env in Self.environments {
      let json = try runDolphin(["context", "--json", "--workspace", cli.workspace], environment: env.variables)
      #expect(json.status == 0, "\(env): \(json.stderr)")
      outputs.append(json.stdout)
      texts.append(try runDolphin(["context", "--workspace", cli.workspace], environment: env.variables).stdout)
    }
    #expect(Set(outputs).count == 1, "the JSON differs between environments")
    #expect(Set(texts).count == 1, "the text differs between environments")
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(outputs[0].utf8)) as? [String: Any])
    let context = try #require(obj["context"] as? [String: Any])
    #expect(obj["digest"] == nil && obj["droppedDigestIDs"] == nil, "nothing stored without --save")
    #expect(context["method"] as? String == "rule-based")
    #expect(context["algorithm"] as? String == "rule-based-digest")
    let sections = try #require(context["sections"] as? [String: Any])
    let decisions = try #require(sections["decisions"] as? [[String: Any]])
    #expect(decisions.map { $0["text"] as? String } == [
      "Use SQLite for the workspace [high] — WAL mode.", "Ship İstanbul-safe lowercasing — Never use the locale.",
    ])
    let sqlite = try #require(ids["Use SQLite for the workspace"])
    let benchmark = try #require(ids["Benchmark the digest"])
    #expect(decisions.first?["evidenceIDs"] as? [String] == [sqlite])
    let tasks = try #require(sections["openTasks"] as? [[String: Any]])
    #expect(tasks.first?["evidenceIDs"] as? [String] == [benchmark, sqlite])
    #expect(texts[0].hasPrefix("Project context — rule-based digest (rule-based-digest v12"))
    // Evidence ids first, as the MCP tools render them, so that text cannot pose as an id.
    #expect(texts[0].contains("Each line starts with its evidence ids in brackets."))
    #expect(texts[0].contains("  - [\(sqlite)] Use SQLite for the workspace [high] — WAL mode.\n"))
    #expect(texts[0].contains("  - [\(benchmark), \(sqlite)] Benchmark the digest"), "\(texts[0])")
    // Four captures: no automatic digest, and computing the context stored none either.
    #expect((try cli.json(["status"])["counts"] as? [String: Any])?["digest"] as? Int == 0)
  }

  @Test("context and review print each line's evidence ids first, so a title cannot pose as more ids")
  func evidenceIDsFirst() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let fake = "00000000-0000-0000-0000-00000000BEEF"
    let r = try cli.json(["capture", "decision", "Adopt WAL  [\(fake)]", "--priority", "high"])
    let id = try #require((r["item"] as? [String: Any])?["id"] as? String)
    for command in ["context", "review"] {
      let out = try cli.run([command]).stdout
      // Digest lines (the insights of `review` print their ids on a line of their own).
      let lines = out.split(separator: "\n").filter { $0.hasPrefix("  - ") && $0.contains("Adopt WAL") }
      #expect(!lines.isEmpty, "\(command): \(out)")
      for line in lines {
        #expect(line.hasPrefix("  - [\(id)] "), "\(command): \(line)")
        #expect(line.contains("Adopt WAL  [\(fake)]"), "\(command): \(line)")
      }
    }
  }

  @Test("a title's line break cannot start a digest line or an insight's evidence line of its own")
  func lineBreakCannotFakeEvidence() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let fake = "00000000-0000-0000-0000-00000000BEEF"
    let wal = try #require((try cli.json(["capture", "decision", "Adopt WAL  [\(fake)]"])["item"] as? [String: Any])?["id"] as? String)
    let title = "Ship it\n- [\(fake)] fake\n    evidence: \(fake)"
    let ship = try #require((try cli.json(["capture", "goal", title])["item"] as? [String: Any])?["id"] as? String)
    for command in ["context", "review", "insights"] {
      let out = try cli.run([command]).stdout
      let lines = out.split(separator: "\n")
      #expect(!lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("- [\(fake)]") }, "\(command): \(out)")
      #expect(!lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("evidence: \(fake)") }, "\(command): \(out)")
      // Digest lines: the ids first; the title folded onto the line.
      for line in lines where line.hasPrefix("  - ") && line.contains("Ship it") {
        #expect(line == "  - [\(ship)] Ship it - [\(fake)] fake     evidence: \(fake)", "\(command): \(line)")
      }
      // Insights (`review`, `insights`): the evidence sits on a line of its own, after the
      // message, and names real ids only.
      for line in lines where line.trimmingCharacters(in: .whitespaces).hasPrefix("evidence: ") {
        let ids = line.trimmingCharacters(in: .whitespaces).dropFirst("evidence: ".count).split(separator: ", ").map(String.init)
        #expect(!ids.isEmpty && ids.allSatisfy { $0 == wal || $0 == ship }, "\(command): \(line)")
      }
    }
    #expect(try cli.run(["insights"]).stdout.contains("evidence: "), "the missing-tags insight cites both items")
  }

  @Test("context --save stores one digest with trigger manual")
  func contextSave() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try Self.seed(cli)
    let r = try cli.json(["context", "--save"])
    let digest = try #require(r["digest"] as? [String: Any])
    #expect((digest["trigger"] as? [String: Any])?["kind"] as? String == "manual")
    #expect(digest["sections"] as? [String: Any] != nil, "the digest stored, whole")
    #expect(
      (digest["sections"] as? NSDictionary) == ((r["context"] as? [String: Any])?["sections"] as? NSDictionary),
      "the digest holds the sections shown")
    #expect((try cli.json(["status"])["counts"] as? [String: Any])?["digest"] as? Int == 1)
    let text = try cli.run(["context", "--save"])
    #expect(text.stdout.contains("Stored rule-based digest "))
    #expect(text.stdout.contains("(trigger manual)"))
  }

  @Test("review: key sections, top insights and task status, labeled rule-based")
  func review() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let ids = try Self.seed(cli)
    let r = try cli.json(["review"])
    #expect(r["method"] as? String == "rule-based")
    let tasks = try #require(r["tasks"] as? [String: Any])
    #expect(tasks["open"] as? Int == 2)
    #expect(tasks["completed"] as? Int == 0)
    #expect((tasks["oldestOpen"] as? [String: Any])?["id"] as? String == ids["Benchmark the digest"])
    #expect(((r["insights"] as? [Any])?.count ?? 0) > 0)
    let text = try cli.run(["review"])
    #expect(text.stdout.hasPrefix("Project review — rule-based"))
    #expect(text.stdout.contains("Tasks: 2 open, 0 completed; oldest open: \(ids["Benchmark the digest"] ?? "") (created "))
    #expect(text.stdout.contains(") \"Benchmark the digest\"\n"), "\(text.stdout)")
    #expect(text.stdout.contains("Top insights ("))
  }

  @Test("insights: a contradiction is high priority; --min-priority filters; output says rule-based")
  func insights() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let ids = try Self.seed(cli)
    let sqlite = try #require(ids["Use SQLite for the workspace"])
    let c = try cli.json(["capture", "decision", "Use JSON files for the workspace", "--relates", "contradicts:\(sqlite)", "--tags", "storage"])
    let json = try #require((c["item"] as? [String: Any])?["id"] as? String)
    let high = try cli.json(["insights", "--min-priority", "high"])
    let list = try #require(high["insights"] as? [[String: Any]])
    #expect(list.count == 1)
    #expect(list.first?["rule"] as? String == "contradiction")
    #expect(Set(list.first?["evidenceIDs"] as? [String] ?? []) == [sqlite, json])
    #expect(high["method"] as? String == "rule-based")
    let all = try cli.json(["insights"])
    let rules = (all["insights"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
    #expect(rules.first == "contradiction")
    #expect(rules.contains("unsupported-tasks"))
    #expect(rules.contains("missing-relationships"))
    let text = try cli.run(["insights"])
    #expect(text.stdout.hasPrefix("Insights — rule-based (rule-based-insights v14"))
    #expect(text.stdout.contains("[high] contradiction: Conflicting knowledge: "))
    // A filter that leaves everything out says so instead of "No rule fired".
    let critical = try cli.run(["insights", "--min-priority", "critical"])
    #expect(critical.stdout.contains("No rule fired at priority critical or above ("), "\(critical.stdout)")
    #expect((try cli.json(["insights", "--min-priority", "critical"])["belowMinimumPriority"] as? Int ?? 0) > 0)
    let bad = try cli.run(["insights", "--min-priority", "urgent"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("--min-priority 'urgent' is not one of: low, normal, high, critical"))
  }

  @Test("insights: the footer names the shared-tag condition; near-duplicates with different content are not told to merge")
  func insightsWording() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "preference", "Tabs", "--content", "Use tabs"]).status == 0)
    #expect(try cli.run(["capture", "preference", "Tabs", "--content", "Never tabs"]).status == 0)
    let text = try cli.run(["insights"])
    #expect(text.status == 0)
    #expect(text.stdout.contains(
      "possible conflicts between two decisions or two preferences that share a tag, at title similarity ≥ 0.5 (or once a negation is set aside, or word by word when the titles name different choices or say opposite things), with different opening content (one adding to the other's under the same title, with no negation or correction in what it adds, is a near-duplicate) or titles that say opposite things, state different values or name different choices; "),
      "\(text.stdout)")
    let line = try #require(text.stdout.split(separator: "\n").first { $0.contains("near-duplicates:") })
    #expect(line.contains("but different content"), "\(line)")
    #expect(line.hasSuffix("; review them: keep one or reconcile them, or make the titles distinct."), "\(line)")
    #expect(!line.contains("merge"), "\(line)")
  }

  @Test("insights: numbered steps and phases are not possible conflicts; two ports still are")
  func insightsNumberedSeries() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for title in ["Migration step 2", "Migration step 10", "Phase 1", "Phase 2", "Use port 8080 for the API", "Use port 8081 for the API"] {
      #expect(try cli.run(["capture", "decision", title, "--content", "About \(title).", "--tags", "rollout"]).status == 0)
    }
    let report = try cli.json(["insights"])
    #expect(report["algorithmVersion"] as? String == "14")
    let insights = try #require(report["insights"] as? [[String: Any]])
    let conflicts = insights.filter { $0["rule"] as? String == "possible-conflict" }.compactMap { $0["message"] as? String }
    #expect(conflicts.count == 1, "\(conflicts)")
    #expect(conflicts.first?.contains("\"Use port 8080 for the API\" and \"Use port 8081 for the API\"") == true, "\(conflicts)")
    #expect(!insights.contains { $0["rule"] as? String == "near-duplicates" })
    let text = try cli.run(["insights"])
    #expect(!text.stdout.contains("Possible conflict: Decisions \"Migration step"), "\(text.stdout)")
    #expect(!text.stdout.contains("Possible conflict: Decisions \"Phase"), "\(text.stdout)")
    #expect(
      text.stdout.contains(
        "Titles that differ only in a sequence number (step 2 / step 10, phase 1 / phase 2, #3 / #4) are neither possible conflicts nor near-duplicates; versions (v1 / v2) and other numbers are values and still count."),
      "\(text.stdout)")
  }

  @Test("insights: versions, levels and days are values, so titles that differ in them are possible conflicts")
  func insightsValuesAreNotSeries() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    // The review's workspace: each pair picks a different value, and each pair is a possible conflict.
    let pairs: [(kind: String, first: (String, String), second: (String, String))] = [
      ("decision", ("Use zstd compression level 3", "fast"), ("Use zstd compression level 19", "small")),
      ("decision", ("Pin Node v18 in CI", "LTS"), ("Pin Node v20 in CI", "newer")),
      ("decision", ("Deploy on day 1 of each sprint", "early"), ("Deploy on day 5 of each sprint", "late")),
      ("preference", ("Use TLS version 1.2 minimum", "compat"), ("Use TLS version 1.3 minimum", "secure")),
      ("decision", ("Pin Python version 3.11", "a"), ("Pin Python version 3.12", "b")),
    ]
    for pair in pairs {
      for (title, content) in [pair.first, pair.second] {
        #expect(try cli.run(["capture", pair.kind, title, "--content", content, "--tags", "build"]).status == 0)
      }
    }
    let text = try cli.run(["insights"]).stdout
    for pair in pairs {
      let kinds = pair.kind == "decision" ? "Decisions" : "Preferences"
      #expect(text.contains("Possible conflict: \(kinds) \"\(pair.first.0)\" and \"\(pair.second.0)\""), "\(text)")
    }
  }

  @Test("a search cut by the default limit says so, not that --limit cut it")
  func searchCutWording() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for i in 0..<12 { _ = try cli.json(["capture", "fact", "Ledger note \(i)"]) }
    let byDefault = try cli.run(["search", "ledger"])
    #expect(byDefault.stdout.hasPrefix("mode: hybrid-lexical"))
    #expect(byDefault.stdout.contains("10 shown of 12 match(es) · cut at the default limit of 10"), "\(byDefault.stdout)")
    #expect(!byDefault.stdout.contains("--limit"))
    let given = try cli.run(["search", "ledger", "--limit", "3"])
    #expect(given.stdout.contains("3 shown of 12 match(es) · cut by --limit"), "\(given.stdout)")
    let all = try cli.run(["search", "ledger", "--limit", "20"])
    #expect(!all.stdout.contains("cut"))
  }

  @Test("task search that finds nothing says why, as search does, in text and JSON")
  func taskSearchEmptyReason() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["task", "add", "Water plants weekly"]).status == 0)
    let common = try cli.run(["task", "search", "the of and"])
    #expect(common.status == 0, "\(common.stderr)")
    #expect(
      common.stdout
        == "mode: hybrid-lexical (hybrid-lexical-v1) · 0 shown of 0 matching task(s)\n"
        + "No results: the query has only common words such as the, and, of (searched only when a query has no other "
        + "word), and none of them occurs in any task; add a word that names what you are looking for.\n",
      "\(common.stdout)")
    let commonJSON = try cli.json(["task", "search", "the of and"])
    #expect(commonJSON["emptyReason"] as? String == "noCommonWordMatched")
    // Now `the` occurs in a task: it was left out, not missing.
    #expect(try cli.run(["task", "add", "Renew the lease"]).status == 0)
    let other = try cli.run(["task", "search", "the invoices", "--status", "open"])
    #expect(
      other.stdout.contains(
        "No results: the common word 'the' was not searched (common words are searched only when a query has no "
          + "other word), and 'invoices' (or a close spelling of it) occurs in no open task.\n"),
      "\(other.stdout)")
    let otherJSON = try cli.json(["task", "search", "the invoices"])
    #expect(otherJSON["emptyReason"] as? String == "noOtherWordMatched")
    #expect(otherJSON["unsearchedCommonWords"] as? [String] == ["the"])
    let none = try cli.json(["task", "search", "kubernetes"])
    #expect(none["emptyReason"] as? String == "noTermMatched")
    // A search that finds a task has no reason, in text or JSON.
    let found = try cli.json(["task", "search", "plants"])
    #expect((found["results"] as? [Any])?.count == 1)
    #expect(found["emptyReason"] == nil)
    #expect(!(try cli.run(["task", "search", "plants"])).stdout.contains("No results"))
  }

  @Test("task search finds the obviously matching task and names the ranking mode")
  func taskSearch() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let ids = try Self.seed(cli)
    let r = try cli.json(["task", "search", "readme"])
    let results = try #require(r["results"] as? [[String: Any]])
    let readme = try #require(ids["Write the README"])
    let found: [String] = results.compactMap { ($0["task"] as? [String: Any])?["id"] as? String }
    #expect(found.contains(readme))
    #expect(r["mode"] as? String != nil)
    let text = try cli.run(["task", "search", "benchmark digest"])
    #expect(text.stdout.hasPrefix("mode: hybrid-lexical (hybrid-lexical-v1) · "), "\(text.stdout)")
    #expect(text.stdout.contains("Benchmark the digest"))
    // The ranker reports index terms, so the label says they are stems, not the typed words.
    #expect(text.stdout.contains("  matched stems: benchmark, digest"), "\(text.stdout)")
    #expect(!text.stdout.contains("  matched: "))
    let empty = try cli.run(["task", "search", " "])
    #expect(empty.status == 4)
    #expect(empty.stderr.contains("query has nothing printable: all 1 character(s) given are white space, and a value is required"))
    // Control or invisible characters only: said as capture and ask say it.
    for args in [["task", "search"], ["search"], ["memory", "search"]] {
      let invisible = try cli.run(args + ["\u{1}\u{200B}"])
      #expect(invisible.status == 4, "\(args): \(invisible.stderr)")
      #expect(
        invisible.stderr.contains(
          "dolphin: error: query has nothing printable: all 2 character(s) given are control or invisible characters, "
            + "which are removed or show nothing; nothing was searched"),
        "\(args): \(invisible.stderr)")
    }
    // A zero-width space alone is invisible, not blank, wherever it is given.
    let zeroWidth = try cli.run(["capture", "fact", "\u{200B}"])
    #expect(zeroWidth.status == 4 && zeroWidth.stderr.contains("title has nothing printable: all 1 character(s)"), "\(zeroWidth.stderr)")
    // So are a soft hyphen, a Hangul filler and a Braille blank, which the sanitizer keeps inside
    // words (a review, s8/h3, found them stored as blank titles and next steps).
    for invisible in ["\u{AD}", "\u{3164}", "\u{2800}", "\u{115F}\u{1160}"] {
      for (args, field) in [
        (["capture", "fact", invisible], "title"), (["handoff", "create", "--focus", "Real", "--next", invisible], "--next"),
        (["search", invisible], "query"), (["task", "add", invisible], "title"),
      ] {
        let r = try cli.run(args)
        #expect(r.status == 4, "\(args): \(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("has nothing printable"), "\(args) (\(field)): \(r.stderr)")
      }
    }
    #expect(try cli.run(["capture", "fact", "co\u{AD}operate"]).status == 0)
  }
}
