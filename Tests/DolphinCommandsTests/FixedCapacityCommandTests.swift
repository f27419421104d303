import ContinuityKit
import Foundation
import Testing
import TestSupport

/// A new user's review (s16): a full collection with a fixed limit (memories, tasks, handoffs)
/// said "the workspace is limited to 10000 memories, and this would exceed that" — no count held,
/// none added, no total — while a full knowledge collection gave all three.
@Suite("dolphin at a fixed collection limit", .serialized)
struct FixedCapacityCommandTests {
  /// A collection filled to its limit, the command that adds one more, and what it says.
  struct Full: CustomTestStringConvertible, Sendable {
    var testDescription: String { what.rawValue }
    var what: CappedCollection
    var command: [String]
    var stderr: String
  }

  static let cases = [
    Full(
      what: .memories, command: ["memory", "save", "one more"],
      stderr: "the workspace holds 10000 memories, the most it may hold (10000, a fixed limit, not a setting); "
        + "adding 1 would make 10001. Delete some (`dolphin memory delete ID --workspace {WS}`)"),
    Full(
      what: .tasks, command: ["task", "add", "One more"],
      stderr: "the workspace holds 5000 tasks, the most it may hold (5000, a fixed limit, not a setting); "
        + "adding 1 would make 5001. Delete some (`dolphin task delete ID --workspace {WS}`)"),
    Full(
      what: .handoffs, command: ["handoff", "create", "--focus", "One more"],
      // Also the oldest inactive handoffs (all made at once here: the list's order, reversed)
      // and the command that deletes the oldest in one go (review 20-b, 5).
      stderr: "the workspace holds 200 handoffs, the most it may hold (200, a fixed limit, not a setting); "
        + "adding 1 would make 201. Delete some (`dolphin handoff delete ID --workspace {WS}`). The oldest inactive: "
        + [200, 199, 198, 197, 196].map { "\(sequentialID($0).uuidString) (2026-09-21T14:13:20.000Z, \"Session \($0)\")" }
          .joined(separator: "; ")
        + "; and 195 more. To delete the oldest inactive ones in one go (the plan is shown first; the active handoff is "
        + "kept): `dolphin handoff delete --keep-newest 150 --workspace {WS}` or "
        + "`dolphin handoff delete --inactive-older-than YYYY-MM-DD --workspace {WS}`"),
  ]

  /// Fills `what` to its limit through the store, in one transaction.
  static func fill(_ what: CappedCollection, in directory: String) throws {
    let store = try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: directory))
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    try store.write { tx in
      switch what {
      case .memories:
        for i in 1...Limits.memories { try tx.insertMemory(MemoryItem(id: sequentialID(i), text: "Memory \(i)", createdAt: start)) }
      case .tasks:
        for i in 1...Limits.tasks { try tx.insertTask(TaskItem(id: sequentialID(i), title: "Task \(i)", createdAt: start)) }
      case .handoffs:
        for i in 1...Limits.handoffs { try tx.insertHandoff(Handoff(id: sequentialID(i), focus: "Session \(i)", createdAt: start)) }
      case .knowledge:
        Issue.record("knowledge has a setting; SettingsCommandTests covers it")
      }
    }
  }

  @Test("one more memory, task or handoff says how many are held, how many it adds, the total and the fixed limit", arguments: cases)
  func full(_ c: Full) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try Self.fill(c.what, in: cli.workspace)
    let r = try cli.run(c.command)
    #expect(r.status == 4, "\(r.stderr)")
    let expected = c.stderr.replacingOccurrences(of: "{WS}", with: cli.workspace)
    #expect(r.stderr == "dolphin: error: \(expected)\n", "\(r.stderr)")
    #expect(!r.stderr.contains("knowledgeItemLimit"))
    let json = try cli.run(c.command + ["--json"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let error = try #require(document["error"] as? [String: Any])
    #expect(error["field"] as? String == c.what.field)
    #expect(error["message"] as? String == expected)
    #expect(error["exitCode"] as? Int == 4)
    // Nothing was added: neither the record nor (for a memory) its knowledge mirror.
    let status = try cli.json(["status"])
    let counts = try #require(status["counts"] as? [String: Any])
    #expect(counts["knowledge"] as? Int == 0, "\(counts)")
  }

  @Test("an import past a fixed limit names the file, gives the counts and says nothing was imported, as other import refusals")
  func importPastLimit() throws {
    let source = CLI()
    defer { source.dir.remove() }
    #expect(try source.run(["handoff", "create", "--focus", "From the file"]).status == 0)
    #expect(try source.run(["handoff", "create", "--focus", "Also from the file"]).status == 0)
    let file = source.dir.appending("two-handoffs.json")
    try Data(try source.run(["export"]).stdout.utf8).write(to: file)

    let cli = CLI()
    defer { cli.dir.remove() }
    try Self.fill(.handoffs, in: cli.workspace)
    let message =
      "\(file.path): the workspace holds 200 handoffs, the most it may hold (200, a fixed limit, not a setting); "
      + "adding 2 would make 202. Delete some (`dolphin handoff delete ID --workspace \(cli.workspace)`). Nothing was imported"
    let r = try cli.run(["import", file.path])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr == "dolphin: error: \(message)\n", "\(r.stderr)")
    let json = try cli.run(["import", file.path, "--json"])
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(error["message"] as? String == message)
    #expect(error["field"] as? String == "handoffs")
    #expect(error["exitCode"] as? Int == 4)
    #expect((try cli.json(["status"])["counts"] as? [String: Any])?["handoff"] as? Int == 200)
  }
}
