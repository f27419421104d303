import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 18-b B4, B5, B6, B8, B10 and B11 through the built binary: cut evidence and cut
/// digest sections say what they left out, duplicate open tasks are flagged, a contradicting
/// pair is not advised to be merged, and an open question is prefixed once.
@Suite("insights and context: truncation, duplicates and questions", .serialized)
struct InsightAndDigestMarkerCommandTests {
  @Test("tasks differing only in a value are asked which one holds, as the knowledge rule asks (review 23-a, 2)")
  func duplicateTasksDifferingInAValue() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for title in ["Benchmark capture at 10k items", "Benchmark capture at 100k items"] {
      #expect(try cli.run(["task", "add", title]).status == 0)
      #expect(try cli.run(["capture", "fact", title + " takes 14 ms"]).status == 0)
    }
    let text = try cli.run(["insights"])
    let line = try #require(text.stdout.split(separator: "\n").first { $0.contains("duplicate-tasks:") }, "\(text.stdout)")
    #expect(
      line.hasSuffix(
        #"that may state different values (10k / 100k): "Benchmark capture at 10k items", "Benchmark capture at 100k items"; check which one holds: complete or delete the outdated one, or make the titles distinct if both are work to do."#
      ), "\(line)")
    #expect(!text.stdout.contains("extra ones"), "\(text.stdout)")
    // The knowledge rule reads the same pair the same way.
    #expect(text.stdout.contains("may state different values (10k / 100k)"), "\(text.stdout)")
  }

  /// Review 24-a, 10: a task citing 18 items showed the task and 8 of them, with nothing saying
  /// that 10 were left out, in text and JSON alike.
  @Test("a task line citing more items than it may names how many more, in text, JSON, review and Markdown")
  func taskLineCountsItsCutEvidence() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    var ids: [String] = []
    for i in 1...18 { ids.append(try #require(try cli.record("item", ["capture", "fact", "f\(i)"])["id"] as? String)) }
    let task = try #require(try cli.record("task", ["task", "add", "all18"] + ids.flatMap { ["--knowledge", $0] })["id"] as? String)
    let few = try #require(try cli.record("task", ["task", "add", "two", "--knowledge", ids[0], "--knowledge", ids[1]])["id"] as? String)

    let obj = try cli.json(["context"])
    let sections = try #require((obj["context"] as? [String: Any])?["sections"] as? [String: Any])
    let tasks = try #require(sections["openTasks"] as? [[String: Any]])
    let cut = try #require(tasks.first { ($0["evidenceIDs"] as? [String])?.first == task }, "\(tasks)")
    #expect((cut["evidenceIDs"] as? [String]) == [task] + ids.prefix(8))
    #expect(cut["evidenceTotal"] as? Int == 19)
    #expect(cut["evidenceTruncated"] as? Bool == true)
    let whole = try #require(tasks.first { ($0["evidenceIDs"] as? [String])?.first == few }, "\(tasks)")
    #expect(whole["evidenceTotal"] as? Int == 3)
    #expect(whole["evidenceTruncated"] as? Bool == false)
    #expect((obj["context"] as? [String: Any])?["algorithmVersion"] as? String == "12")

    let marked = "- [\(([task] + ids.prefix(8)).joined(separator: ", ")), and 10 more] all18"
    let context = try cli.run(["context"])
    #expect(context.stdout.contains("  " + marked + "\n"), "\(context.stdout)")
    #expect(context.stdout.contains("- [\([few, ids[0], ids[1]].joined(separator: ", "))] two\n"), "\(context.stdout)")
    #expect(try cli.run(["review"]).stdout.contains(marked), "review")
    // A stored digest keeps the count, and the Markdown export shows it too.
    #expect(try cli.run(["context", "--save"]).status == 0)
    let markdown = try cli.run(["export", "--format", "markdown"])
    #expect(markdown.stdout.contains(", and 10 more] all18"), "\(markdown.stdout)")
  }

  @Test("66 identical open tasks: duplicate-tasks fires, cut evidence says how many more, the digest counts the rest")
  func manyDuplicateTasks() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for _ in 0..<66 { #expect(try cli.run(["task", "add", "Deploy"]).status == 0) }

    let text = try cli.run(["insights"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("[normal] duplicate-tasks: 66 open tasks have the same title: \"Deploy\""), "\(text.stdout)")
    let evidence = text.stdout.split(separator: "\n").filter { $0.hasPrefix("    evidence: ") }
    #expect(evidence.count == 2, "\(text.stdout)")
    #expect(evidence.allSatisfy { $0.hasSuffix(", … and 2 more (66 in all)") }, "\(evidence)")
    #expect(text.stdout.contains("once a knowledge item is captured after it or one it carries is edited after it, or once it is older than 14 days (336 hours)"), "\(text.stdout)")

    let json = try cli.json(["insights"])
    let insights = try #require(json["insights"] as? [[String: Any]])
    let duplicates = try #require(insights.first { $0["rule"] as? String == "duplicate-tasks" })
    #expect((duplicates["evidenceIDs"] as? [String])?.count == 64)
    #expect(duplicates["evidenceTotal"] as? Int == 66)
    #expect(duplicates["evidenceTruncated"] as? Bool == true)
    let unsupported = try #require(insights.first { $0["rule"] as? String == "unsupported-tasks" })
    #expect(unsupported["evidenceTotal"] as? Int == 66)

    let context = try cli.run(["context"])
    #expect(context.stdout.contains("\n  … and 56 more open tasks (not shown)\n"), "\(context.stdout)")
    #expect(!context.stdout.contains("[]"), "\(context.stdout)")
    let obj = try cli.json(["context"])
    let sections = try #require((obj["context"] as? [String: Any])?["sections"] as? [String: Any])
    let tasks = try #require(sections["openTasks"] as? [[String: Any]])
    #expect(tasks.count == 10)
    #expect(tasks.allSatisfy { ($0["evidenceIDs"] as? [String])?.isEmpty == false })
    #expect(sections["omitted"] as? [String: Int] == ["openTasks": 56])

    // A stored digest keeps the count, and review carries it as well.
    let saved = try cli.json(["context", "--save"])
    let savedSections = try #require((saved["context"] as? [String: Any])?["sections"] as? [String: Any])
    #expect(savedSections["omitted"] as? [String: Int] == ["openTasks": 56])
    let review = try cli.run(["review"])
    #expect(review.stdout.contains("\n  … and 56 more open tasks (not shown)\n"), "\(review.stdout)")
    #expect((try cli.json(["review"])["omitted"] as? [String: Int]) == ["openTasks": 56])
  }

  @Test("a pair captured as contradicting gets the contradiction insight and no advice to merge it")
  func contradictingPair() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let a = try cli.json(["capture", "fact", "The API rate limit is 100 requests per minute", "--tags", "api"])
    let aID = try #require((a["item"] as? [String: Any])?["id"] as? String)
    _ = try cli.json(["capture", "fact", "The API rate limit is 500 requests per minute", "--tags", "api", "--relates", "contradicts:\(aID)"])
    let out = try cli.run(["insights"]).stdout
    #expect(out.contains("[high] contradiction: "), "\(out)")
    #expect(!out.contains("] near-duplicates:"), "\(out)")
    #expect(!out.contains("merge them"), "\(out)")
  }

  @Test("an item titled \"Open question: …\" is listed once with the prefix")
  func openQuestionPrefix() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.json(["capture", "fact", "Open question: which license", "--tags", "question"])
    let out = try cli.run(["context"]).stdout
    #expect(out.contains("] Open question: which license\n"), "\(out)")
    #expect(!out.contains("Open question: Open question:"), "\(out)")
  }

  @Test("titles ending in a full-width, Arabic or Greek question mark are open questions (review 23-a, 7)")
  func questionMarksOfOtherScripts() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for title in ["我们应该使用什么数据库？", "هل نستخدم Postgres؟", "データベースはどれを使う？", "Which database?", "Ποια βάση\u{037E}"] {
      #expect(try cli.run(["capture", "fact", title]).status == 0)
    }
    let out = try cli.run(["context"]).stdout
    for title in ["我们应该使用什么数据库？", "هل نستخدم Postgres؟", "データベースはどれを使う？", "Which database?", "Ποια βάση;"] {
      #expect(out.contains("] Open question: \(title)\n"), "\(title): \(out)")
    }
  }

  @Test("Postgres / DuckDB for analytics is a possible conflict, as tabs / spaces is (review 23-a, 10)")
  func differentChoicesWordByWord() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for (title, tag) in [
      ("Use Postgres for analytics", "db"), ("Use DuckDB for analytics", "db"), ("Use tabs for indentation", "style"),
      ("Use spaces for indentation", "style"),
    ] {
      #expect(try cli.run(["capture", "decision", title, "--tags", tag]).status == 0)
    }
    let lines = try cli.run(["insights"]).stdout.split(separator: "\n").filter { $0.contains("possible-conflict:") }
    #expect(lines.count == 2, "\(lines)")
    #expect(
      lines.contains {
        $0.hasSuffix(
          #"Possible conflict: Decisions "Use DuckDB for analytics" and "Use Postgres for analytics" share the tag "db" and have titles that are the same but for words naming different choices (duckdb / postgres); link them (supersedes, contradicts) or reword one."#
        )
      }, "\(lines)")
  }

  @Test("review 27-a, 14 and 15 through the binary: choices of different lengths, phrase antonyms, needn't, log to, a modifier; an elaborated duplicate is merged")
  func review27aGaps() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let captures: [(title: String, content: String?, tag: String)] = [
      ("Store dates in UTC", nil, "d1"), ("Store dates in local time", nil, "d1"),
      ("Deploy with Kubernetes", nil, "d2"), ("Deploy with Docker Compose", nil, "d2"),
      ("Enable telemetry", nil, "d3"), ("Turn off telemetry", nil, "d3"),
      ("Needn't sign commits", nil, "d4"), ("Need to sign commits", nil, "d4"),
      ("Log to stdout", nil, "d5"), ("Log to stderr", nil, "d5"),
      ("Use managed Postgres", nil, "d6"), ("Use managed MySQL", nil, "d6"),
      ("Use tabs", nil, "d7"), ("Use tabs", "Indent with tabs everywhere", "d7"),
      ("Rate limit", "100 requests per minute", "d8"), ("Rate limit", "200 requests per minute", "d8"),
      // Not conflicts.
      ("Use Postgres for analytics", nil, "n1"), ("Use Postgres for reporting", nil, "n1"),
      ("Run tests on CI", nil, "n2"), ("Run linters on CI", nil, "n2"),
      ("Encrypt backups at rest", nil, "n3"), ("Compress backups at rest", nil, "n3"),
    ]
    for c in captures {
      let content = c.content.map { ["--content", $0] } ?? []
      #expect(try cli.run(["capture", "decision", c.title, "--tags", c.tag] + content).status == 0)
    }
    let text = try cli.run(["insights"])
    #expect(text.status == 0)
    #expect(text.stdout.hasPrefix("Insights — rule-based (rule-based-insights v14"), "\(text.stdout)")
    let conflicts = text.stdout.split(separator: "\n").filter { $0.contains("possible-conflict:") }.map {
      String($0.drop { $0 != "\"" })
    }
    let tail = "; link them (supersedes, contradicts) or reword one."
    #expect(
      conflicts.sorted() == [
        #""Deploy with Docker Compose" and "Deploy with Kubernetes" share the tag "d2" and have titles that are the same but for words naming different choices (docker compose / kubernetes)"# + tail,
        #""Enable telemetry" and "Turn off telemetry" share the tag "d3" and have titles that say opposite things (enable / turn off)"# + tail,
        #""Log to stderr" and "Log to stdout" share the tag "d5" and have similar titles (trigram similarity 0.53) that name different choices (stderr / stdout)"# + tail,
        #""Need to sign commits" and "Needn't sign commits" share the tag "d4" and have titles that say opposite things (need to / needn't)"# + tail,
        #""Rate limit" and "Rate limit" share the tag "d8" and have similar titles (trigram similarity 1.00) but different content"# + tail,
        #""Store dates in UTC" and "Store dates in local time" share the tag "d1" and have titles that are the same but for words naming different choices (utc / local time)"# + tail,
        #""Use managed MySQL" and "Use managed Postgres" share the tag "d6" and have titles that are the same but for words naming different choices (mysql / postgres)"# + tail,
      ], "\(text.stdout)")
    let duplicates = text.stdout.split(separator: "\n").filter { $0.contains("near-duplicates:") }
    #expect(
      duplicates == [
        #"[normal] near-duplicates: 2 items have identical titles, and the content of one only adds to the other's: "Use tabs", "Use tabs"; merge them into the one with the fullest content, or link them (supersedes) if one replaces the other, or make the titles distinct."#
      ], "\(text.stdout)")
  }
}
