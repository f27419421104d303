import Foundation
import Testing
import TestSupport

/// `dolphin search` and `memory search` take `--explain`; `task search`, ranked by the same
/// ranker, did not (a review). It now shows each task's score parts — title, notes, fuzzy,
/// phrase, coverage: a task has no tags — and how each query term matched, as search does.
@Suite("task search --explain", .serialized)
struct TaskSearchExplainTests {
  /// The numbers of an explained score line, `score S = title T + notes N + fuzzy F + phrase P
  /// + coverage C`, in that order.
  static func scoreParts(_ line: Substring) throws -> [Double] {
    let words = line.split(separator: " ")
    let numbers = words.compactMap { Double($0) }
    #expect(
      words.filter { Double($0) == nil && $0 != "=" && $0 != "+" }
        == ["score", "title", "notes", "fuzzy", "phrase", "coverage"],
      "\(line)")
    return numbers
  }

  /// Review (s16): `search "🚀" --explain` printed the query-terms header over nothing, and
  /// `task search` never named the emoji it did not search.
  @Test("a query of symbols only: the note names them, and --explain says no term was searched")
  func symbolsOnly() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.record("task", ["task", "add", "Plan the 🚀 launch"])
    _ = try cli.json(["capture", "fact", "Launch 🚀 plan"])
    for command in [["task", "search"], ["search"]] {
      let alone = try cli.run(command + ["🚀", "--explain"])
      #expect(alone.status == 0, "\(alone.stderr)")
      #expect(alone.stdout.contains("No results: the query has no searchable word; symbols and emoji are not indexed, so '🚀' was not searched."), "\(alone.stdout)")
      #expect(alone.stdout.contains("query terms: none (the query has no searchable word)"), "\(alone.stdout)")
      #expect(!alone.stdout.contains("query terms (stemmed"), "\(alone.stdout)")
      let mixed = try cli.run(command + ["🚀 launch"])
      #expect(mixed.stdout.contains("Note: symbols and emoji are not indexed, so '🚀' was not searched."), "\(mixed.stdout)")
    }
  }

  @Test("--explain shows each task's score parts, which add up to its score and match --json, and how each query term matched")
  func explain() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let bench = try #require(
      try cli.record("task", ["task", "add", "Benchmark the digest", "--notes", "Measure p50 and p95 at 10k items.", "--priority", "high"])["id"] as? String)
    _ = try cli.record("task", ["task", "add", "Write the digest section of the README", "--notes", "Explain how the benchmark numbers were taken."])
    _ = try cli.record("task", ["task", "add", "Renew the TLS certificate"])

    let r = try cli.run(["task", "search", "benchmark digest", "--explain"])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "mode: hybrid-lexical (hybrid-lexical-v1) · 2 shown of 2 matching task(s)", "\(r.stdout)")
    // A two-word query is ordered by the terms matched first; --explain says so.
    #expect(lines.count > 2 && lines[1] == "Order: tasks matching more of the query's 2 terms come first, then higher scores.", "\(r.stdout)")
    #expect(lines.count > 3 && lines[2].hasPrefix("[ ] \(bench)  \"Benchmark the digest\" (high)  matched stems: "), "\(r.stdout)")
    let scoreLines = lines.filter { $0.hasPrefix("   score ") }
    #expect(scoreLines.count == 2, "\(r.stdout)")
    let json = try cli.json(["task", "search", "benchmark digest"])
    let results = try #require(json["results"] as? [[String: Any]])
    for (line, result) in zip(scoreLines, results) {
      let numbers = try Self.scoreParts(line)
      try #require(numbers.count == 6, "\(line)")
      // The parts add up to the score, as printed to four decimals.
      #expect(abs(numbers[1...].reduce(0, +) - numbers[0]) < 0.0005, "\(line)")
      let parts = try #require(result["scoreParts"] as? [String: Double], "\(result)")
      #expect(parts.keys.sorted() == ["coverage", "fuzzy", "notes", "phrase", "title"], "\(parts)")
      let fromJSON = [result["score"] as? Double ?? -1] + ["title", "notes", "fuzzy", "phrase", "coverage"].map { parts[$0] ?? -1 }
      #expect(zip(numbers, fromJSON).allSatisfy { abs($0 - $1) < 0.00005 }, "\(line) vs \(result)")
    }
    // The task holding both words in its title scores on its title; the other on its notes too.
    let first = try Self.scoreParts(try #require(scoreLines.first, "\(r.stdout)"))
    #expect(first.count == 6 && first[1] > 0, "\(scoreLines)")
    #expect(r.stdout.contains("\nquery terms (stemmed, with the words typed; fuzzy = typo, word-form and prefix variants, at reduced weight):\n"), "\(r.stdout)")
    #expect(r.stdout.contains("\nterm benchmark: exact\n") && r.stdout.contains("\nterm digest: exact\n"), "\(r.stdout)")

    // A typo is matched by a close spelling, at reduced weight, and said so.
    let typo = try cli.run(["task", "search", "certifcate", "--explain"])
    #expect(typo.stdout.contains(" (certifcate): absent; close spellings → certif"), "\(typo.stdout)")
    let typoScore = try Self.scoreParts(try #require(typo.stdout.split(separator: "\n").first { $0.hasPrefix("   score ") }))
    #expect(typoScore.count == 6 && typoScore[1] == 0 && typoScore[3] > 0, "title 0, fuzzy > 0: \(typo.stdout)")

    // Without --explain: rows only.
    let plain = try cli.run(["task", "search", "benchmark digest"])
    #expect(!plain.stdout.contains("   score ") && !plain.stdout.contains("query terms"), "\(plain.stdout)")
    let help = try cli.run(["task", "search", "--help"])
    #expect(help.stdout.contains("--explain"), "\(help.stdout)")
    #expect(help.stdout.contains("score parts"), "\(help.stdout)")
  }

  // A review (s16): `task search` said `1 shown of 1 task(s) found (mode hybrid-lexical)` where
  // `search` says `mode: hybrid-lexical (hybrid-lexical-v1) · 1 shown of 1 match(es)`.
  @Test("task search's summary line has search's form: the mode and its version first, then the counts and the cut")
  func summaryLine() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for title in ["Benchmark the digest", "Benchmark the index", "Benchmark the import"] {
      #expect(try cli.run(["task", "add", title]).status == 0)
    }
    #expect(try cli.run(["capture", "fact", "Benchmark numbers"]).status == 0)
    let search = try cli.run(["search", "benchmark"])
    #expect(search.stdout.hasPrefix("mode: hybrid-lexical (hybrid-lexical-v1) · 1 shown of 1 match(es)\n"), "\(search.stdout)")
    let all = try cli.run(["task", "search", "benchmark"])
    #expect(all.stdout.hasPrefix("mode: hybrid-lexical (hybrid-lexical-v1) · 3 shown of 3 matching task(s)\n"), "\(all.stdout)")
    let cut = try cli.run(["task", "search", "benchmark", "--limit", "2"])
    #expect(
      cut.stdout.hasPrefix("mode: hybrid-lexical (hybrid-lexical-v1) · 2 shown of 3 matching task(s) · cut by --limit\n"),
      "\(cut.stdout)")
  }
}
