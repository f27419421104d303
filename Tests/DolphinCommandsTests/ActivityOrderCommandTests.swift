import Foundation
import Testing
import TestSupport

/// A new user's review: `dolphin activity` said "oldest first" but, after two concurrent MCP
/// write calls, listed the call that started at 09:23:07.488 before the one that started at
/// 09:23:07.485 (each call stores its receipt when it finishes).
@Suite("dolphin activity order", .serialized)
struct ActivityOrderCommandTests {
  static func receipt(_ n: Int, callID: String, startedAt: String) -> [String: Any] {
    [
      "id": String(format: "00000000-0000-0000-0000-%012d", 900 + n), "callID": callID, "tool": "knowledge_capture",
      "risk": "localWrite", "arguments": "{}", "outcome": "succeeded", "changedIDs": [String](),
      "startedAt": startedAt, "finishedAt": "2026-03-01T09:23:08.000Z", "message": "",
    ]
  }

  @Test("receipts are listed by the time their call started, then in the order they were stored, in text and --json")
  func oldestFirst() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    // Receipts stored in this order: the later call's first, as concurrent calls store them.
    #expect(try cli.run(["capture", "fact", "Template"]).status == 0)
    let probe = cli.dir.appending("probe.json")
    #expect(try cli.run(["export", "--output", probe.path]).status == 0)
    var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: probe)) as? [String: Any])
    var workspace = try #require(document["workspace"] as? [String: Any])
    workspace["receipts"] = [
      Self.receipt(1, callID: "call-488", startedAt: "2026-03-01T09:23:07.488Z"),
      Self.receipt(2, callID: "call-485", startedAt: "2026-03-01T09:23:07.485Z"),
      Self.receipt(3, callID: "tie-stored-first", startedAt: "2026-03-01T09:23:07.490Z"),
      Self.receipt(4, callID: "tie-stored-second", startedAt: "2026-03-01T09:23:07.490Z"),
    ]
    document["workspace"] = workspace
    let file = cli.dir.appending("receipts.json")
    try JSONSerialization.data(withJSONObject: document).write(to: file)
    let imported = try cli.run(["import", file.path])
    try #require(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
    let expected = ["call-485", "call-488", "tie-stored-first", "tie-stored-second"]

    let text = try cli.run(["activity"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.hasPrefix("4 receipt(s), oldest first\n"), "\(text.stdout)")
    let order = text.stdout.split(separator: "\n").dropFirst().compactMap { line in
      expected.first { line.contains("call \($0) ") }
    }
    #expect(order == expected, "\(text.stdout)")

    let json = try cli.json(["activity"])
    #expect((json["receipts"] as? [[String: Any]])?.compactMap { $0["callID"] as? String } == expected)
    // --limit keeps the most recent by the same order.
    let last = try cli.json(["activity", "--limit", "2"])
    #expect((last["receipts"] as? [[String: Any]])?.compactMap { $0["callID"] as? String } == Array(expected.suffix(2)))
  }
}
