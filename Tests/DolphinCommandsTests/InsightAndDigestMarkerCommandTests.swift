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
    #expect((obj["context"] as? [String: Any])?["algorithmVersion"] as? String == "11")

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
    #expect(text.stdout.contains("once a knowledge item is captured after it or once it is older than 14 days (336 hours)"), "\(text.stdout)")

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
}
