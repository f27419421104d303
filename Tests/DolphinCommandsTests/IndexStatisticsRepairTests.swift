import Foundation
import Testing
import TestSupport

/// Regression (second review, s13): with the search index's statistics row deleted outside
/// dolphin, `dolphin reindex` printed "index check: index statistics count 0 documents but 7 are
/// indexed" and exited 0, leaving the row missing: scores went negative, and doctor kept advising
/// the reindex that did not help. The rebuild now writes the row whether or not it exists.
@Suite("reindex restores the search index's statistics row", .serialized)
struct IndexStatisticsRepairTests {
  @Test("deleted lexical_stats: reindex repairs it, scores are positive, doctor is healthy")
  func statisticsRowRestored() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Widgets plan", "--content", "widgets for spring"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Other note"]).status == 0)
    let edit = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", "DELETE FROM lexical_stats"])
    try #require(edit.status == 0, "sqlite3 is needed to edit the workspace outside dolphin: \(edit.stderr)")
    #expect(try cli.run(["doctor"]).status == 5)

    let reindex = try cli.run(["reindex"])
    #expect(reindex.status == 0 && reindex.stdout.contains("index check: ok"), "\(reindex.stdout)\(reindex.stderr)")
    let found = try cli.json(["search", "widgets", "--json"])
    let scores = (found["results"] as? [[String: Any]] ?? []).compactMap { $0["score"] as? Double }
    #expect(scores.count == 1 && scores.allSatisfy { $0 > 0 }, "\(scores)")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0 && doctor.stdout.hasSuffix("Doctor: healthy.\n"), "\(doctor.stdout)")
  }

  /// Regression (third review, s13): doctor compared only the document count, so edited field
  /// lengths passed as "agrees with the records" while they skewed every score, and a negative
  /// document count printed `score -nan`.
  @Test("edited statistics: doctor names the field lengths, and search scores stay finite and positive until reindex")
  func editedStatistics() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Laptop plan", "--content", "laptop x"]).status == 0)
    let healthyScore = try #require(((try cli.json(["search", "laptop", "--json"])["results"] as? [[String: Any]])?.first?["score"]) as? Double)
    func edit(_ sql: String) throws {
      let run = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql])
      try #require(run.status == 0, "sqlite3 is needed: \(run.stderr)")
    }
    try edit("UPDATE lexical_stats SET content_length = -100, title_length = 99999")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5)
    #expect(
      doctor.stdout.contains("index statistics give field lengths (title, tags, content) of 99999, 0, -100 but the indexed documents add up to 2, 0, 2"),
      "\(doctor.stdout)")
    try edit("UPDATE lexical_stats SET document_count = -5")
    let score = try #require(((try cli.json(["search", "laptop", "--json"])["results"] as? [[String: Any]])?.first?["score"]) as? Double)
    #expect(score.isFinite && abs(score - healthyScore) < 1e-9, "\(score) vs \(healthyScore)")
    #expect(try cli.run(["reindex"]).status == 0)
    #expect(try cli.run(["doctor"]).status == 0)
  }
}
