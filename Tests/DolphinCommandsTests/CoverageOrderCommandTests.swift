import Foundation
import Testing
import TestSupport

/// The CLI says when a short query's results are ordered by the query terms matched before the
/// score (review 30a: `kiwi mango` listed the title *Kiwi* above a content naming both words).
@Suite("search order by query terms matched, CLI", .serialized)
struct CoverageOrderCommandTests {
  @Test("search and task search name the order, print terms matched with --explain, and carry it in JSON")
  func namesTheOrder() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Kiwi"]).status == 0)
    #expect(
      try cli.run([
        "capture", "fact", "Fruit list", "--content",
        "We bought kiwi and mango at the market on Saturday morning along with several other fruits for the party",
      ]).status == 0)
    for i in 1...3 { #expect(try cli.run(["capture", "fact", "filler \(i)", "--content", "other words \(i)"]).status == 0) }

    let plain = try cli.run(["search", "kiwi mango"])
    #expect(plain.status == 0, "\(plain.stderr)")
    let lines = plain.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count >= 4, "\(plain.stdout)")
    #expect(lines[1] == "Order: results matching more of the query's 2 terms come first, then higher scores.", "\(plain.stdout)")
    #expect(lines[2].hasSuffix("\"Fruit list\""), "\(plain.stdout)")

    let explained = try cli.run(["search", "kiwi mango", "--explain"])
    #expect(explained.stdout.contains("matched stems: kiwi, mango; terms matched: 2 of 2"), "\(explained.stdout)")
    #expect(explained.stdout.contains("matched stems: kiwi; terms matched: 1 of 2"), "\(explained.stdout)")

    let json = try cli.json(["search", "kiwi mango"])
    #expect(json["orderedByTermsMatched"] as? Bool == true)
    let results = try #require(json["results"] as? [[String: Any]])
    #expect(results.map { $0["title"] as? String } == ["Fruit list", "Kiwi"])
    #expect(results.map { $0["termsMatched"] as? Int } == [2, 1])

    // One word: score order, nothing said, nothing in JSON.
    let one = try cli.run(["search", "kiwi"])
    #expect(!one.stdout.contains("Order:"), "\(one.stdout)")
    let oneJSON = try cli.json(["search", "kiwi"])
    #expect(oneJSON["orderedByTermsMatched"] == nil)
    #expect((oneJSON["results"] as? [[String: Any]])?.allSatisfy { $0["termsMatched"] == nil } == true)

    // Tasks are ranked by the same ranker and say it the same way.
    #expect(try cli.run(["task", "add", "Kiwi"]).status == 0)
    #expect(try cli.run(["task", "add", "Shopping", "--notes", "Buy kiwi and mango and bread and milk and eggs for the weekend at the market"]).status == 0)
    let tasks = try cli.run(["task", "search", "kiwi mango"])
    #expect(tasks.stdout.contains("Order: tasks matching more of the query's 2 terms come first, then higher scores."), "\(tasks.stdout)")
    let taskJSON = try cli.json(["task", "search", "kiwi mango"])
    #expect(taskJSON["orderedByTermsMatched"] as? Bool == true)
    let taskResults = try #require(taskJSON["results"] as? [[String: Any]])
    #expect(taskResults.map { ($0["task"] as? [String: Any])?["title"] as? String } == ["Shopping", "Kiwi"])
    #expect(taskResults.map { $0["termsMatched"] as? Int } == [2, 1])
  }
}
