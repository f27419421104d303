import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 28-d, 6: `handoff restore` said "`dolphin task list --status all …` lists every task"
/// (and `knowledge list` "every item") for what its brief left out, while those commands list
/// 50. Each pointer now carries the `--limit` that reaches the last record left out; followed as
/// printed, it lists every one.
@Suite("dolphin handoff restore: the not-shown pointers, followed, list what was left out", .serialized)
struct HandoffRestorePointerTests {
  /// The command between the first pair of backticks of the line of `text` holding `marker`,
  /// split into words (the suggestion quotes no word here: the temporary path holds none to
  /// quote).
  static func pointer(in text: String, marker: String) throws -> [String] {
    let line = try #require(text.split(separator: "\n").first { $0.contains(marker) }, "\(text)")
    let quoted = line.split(separator: "`", omittingEmptySubsequences: false)
    try #require(quoted.count >= 3, "\(line)")
    return quoted[1].split(separator: " ").map(String.init)
  }

  @Test("tasks and knowledge scattered through their lists: each printed command lists every one left out")
  func pointersReachTheLeftOut() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let store = try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: cli.workspace))
    let fixture = try store.write { tx in try ScatteredSinceFixture.insert(into: tx) }
    let brief = try cli.json(["handoff", "restore", fixture.handoffID.uuidString])
    let shownTasks = try #require(brief["tasksSince"] as? [[String: Any]]).compactMap { $0["id"] as? String }
    let shownItems = try #require(brief["capturedSince"] as? [[String: Any]]).compactMap { $0["id"] as? String }
    let tasksLeftOut = Set(fixture.tasksChangedSince.map(\.uuidString)).subtracting(shownTasks)
    let itemsLeftOut = Set(fixture.knowledgeCapturedSince.map(\.uuidString)).subtracting(shownItems)
    #expect(tasksLeftOut.count == 21 && itemsLeftOut.count == 15)
    #expect((brief["tasksSinceLeftOut"] as? [String: Int]) == ["offset": 4, "limit": 26], "\(brief)")

    let text = try cli.run(["handoff", "restore", fixture.handoffID.uuidString])
    #expect(text.status == 0, "\(text.stderr)")
    let taskCommand = try Self.pointer(in: text.stdout, marker: "21 earlier tasks since this handoff not shown")
    #expect(
      taskCommand == ["dolphin", "task", "list", "--status", "all", "--limit", "30", "--workspace", cli.workspace], "\(text.stdout)")
    #expect(text.stdout.contains("` lists them among the first 30 tasks, open first, then by priority and age)"))
    let itemCommand = try Self.pointer(in: text.stdout, marker: "15 earlier knowledge items since this handoff not shown")
    #expect(itemCommand == ["dolphin", "knowledge", "list", "--limit", "26", "--workspace", cli.workspace], "\(text.stdout)")
    #expect(!text.stdout.contains("lists every"), "\(text.stdout)")

    // Followed as printed: every record left out is listed.
    let tasks = try runDolphin(Array(taskCommand.dropFirst()) + ["--json"])
    #expect(tasks.status == 0, "\(tasks.stderr)")
    let listedTasks = try #require(
      (try JSONSerialization.jsonObject(with: Data(tasks.stdout.utf8)) as? [String: Any])?["tasks"] as? [[String: Any]])
    #expect(tasksLeftOut.isSubset(of: listedTasks.compactMap { $0["id"] as? String }))
    let items = try runDolphin(Array(itemCommand.dropFirst()) + ["--json"])
    #expect(items.status == 0, "\(items.stderr)")
    let listedItems = try #require(
      (try JSONSerialization.jsonObject(with: Data(items.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
    #expect(itemsLeftOut.isSubset(of: listedItems.compactMap { $0["id"] as? String }))
  }
}
