import ContinuityKit
import Foundation
import Testing

@Suite("BoundedLines")
struct BoundedLinesTests {
  static func section(_ heading: String?, _ entries: [String], total: Int? = nil, rank: Int = 0, noun: String)
    -> BoundedLines.Section
  {
    BoundedLines.Section(heading: heading, entries: entries, total: total, rank: rank) { "… and \($0) more \(noun)" }
  }

  @Test("text that fits is every line, joined, with no omission line")
  func fits() {
    let text = BoundedLines.render(
      head: ["Head"], sections: [Self.section("Tasks:", ["a", "b"], noun: "tasks")], tail: ["Tail"], limit: 100)
    #expect(text == "Head\nTasks:\na\nb\nTail")
  }

  @Test("an empty list shows nothing; a list the caller capped says how many it left out")
  func emptyAndCapped() {
    let text = BoundedLines.render(
      head: ["Head"],
      sections: [Self.section("Knowledge:", [], noun: "items"), Self.section("Tasks:", ["a", "b"], total: 5, noun: "tasks")],
      limit: 100)
    #expect(text == "Head\nTasks:\na\nb\n… and 3 more tasks")
  }

  @Test("lists of one rank share the room in turn, each cut between entries and counted, and the text is exactly within the bound")
  func roundRobin() {
    let knowledge = (1...64).map { "K\($0) " + String(repeating: "k", count: 40) }
    let tasks = (1...64).map { "T\($0) " + String(repeating: "t", count: 40) }
    let limit = 1_000
    let text = BoundedLines.render(
      head: ["Handoff"],
      sections: [Self.section("Knowledge:", knowledge, noun: "knowledge items"), Self.section("Tasks:", tasks, noun: "tasks")],
      limit: limit)
    #expect(text.count <= limit)
    #expect(!text.contains(Truncation.marker))
    let lines = text.split(separator: "\n").map(String.init)
    let shownK = lines.filter { $0.hasPrefix("K") && $0 != "Knowledge:" }.count
    let shownT = lines.filter { $0.hasPrefix("T") && $0 != "Tasks:" }.count
    #expect(shownK > 0 && shownT > 0 && abs(shownK - shownT) <= 1, "\(text)")
    #expect(lines.contains("… and \(64 - shownK) more knowledge items"), "\(text)")
    #expect(lines.contains("… and \(64 - shownT) more tasks"), "\(text)")
    #expect(text.contains("… and \(64 - shownK) more knowledge items\nTasks:\n"), "\(text)")
    // Room for no further entry: one more of either would not fit.
    #expect(text.count + 46 > limit, "\(text.count)")
  }

  @Test("a lower rank is filled first; a higher one still says how many it holds")
  func ranks() {
    let steps = (1...5).map { "step \($0) " + String(repeating: "s", count: 50) }
    let text = BoundedLines.render(
      head: ["Head"],
      sections: [
        Self.section("Knowledge:", (1...9).map { "item \($0) " + String(repeating: "k", count: 50) }, rank: 1, noun: "knowledge items"),
        Self.section("Next steps:", steps, rank: 0, noun: "next steps"),
      ],
      limit: 400)
    #expect(text.count <= 400)
    for step in steps { #expect(text.contains(step), "\(text)") }
    #expect(text.contains("Knowledge:\n"), "\(text)")
    #expect(text.contains("… and 9 more knowledge items\nNext steps:"), "\(text)")
  }

  @Test("when the head alone is over the bound, the head is cut with the marker and every count is kept")
  func headCut() {
    let head = [String(repeating: "h", count: 900)]
    let text = BoundedLines.render(
      head: head, sections: [Self.section("Tasks:", ["a", "b", "c"], noun: "tasks")], tail: ["Captured since: 2"], limit: 500)
    #expect(text.count == 500)
    #expect(text.hasSuffix(Truncation.marker + "\nTasks:\n… and 3 more tasks\nCaptured since: 2"), "\(text)")
  }

  @Test("the bound holds in Unicode scalars too")
  func scalars() {
    // 20 characters of 30 scalars each: they fit a bound of 60 characters, not its 600 scalars.
    let heavy = String(repeating: "e" + String(repeating: "\u{301}", count: 29), count: 20)
    let text = BoundedLines.render(
      head: ["Head"], sections: [Self.section("Tasks:", [heavy, "b"], noun: "tasks")], limit: 60)
    #expect(Limits.fits(text, limit: 60))
    // Entries are kept in order: the one after an entry that does not fit is not shown either.
    #expect(text == "Head\nTasks:\n… and 2 more tasks", "\(text)")
  }
}
