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

  /// Imports `receipts` into `cli`'s workspace: a capture makes one, its export gets them, and
  /// the edited export is imported.
  static func importReceipts(into cli: CLI, _ receipts: [[String: Any]]) throws {
    #expect(try cli.run(["capture", "fact", "Template"]).status == 0)
    let probe = cli.dir.appending("probe.json")
    #expect(try cli.run(["export", "--output", probe.path]).status == 0)
    var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: probe)) as? [String: Any])
    var workspace = try #require(document["workspace"] as? [String: Any])
    workspace["receipts"] = receipts
    document["workspace"] = workspace
    let file = cli.dir.appending("receipts.json")
    try JSONSerialization.data(withJSONObject: document).write(to: file)
    let imported = try cli.run(["import", file.path])
    try #require(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
  }

  @Test("receipts are listed by the time their call started, then in the order they were stored, in text and --json")
  func oldestFirst() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    // Receipts stored in this order: the later call's first, as concurrent calls store them.
    try Self.importReceipts(into: cli, [
      Self.receipt(1, callID: "call-488", startedAt: "2026-03-01T09:23:07.488Z"),
      Self.receipt(2, callID: "call-485", startedAt: "2026-03-01T09:23:07.485Z"),
      Self.receipt(3, callID: "tie-stored-first", startedAt: "2026-03-01T09:23:07.490Z"),
      Self.receipt(4, callID: "tie-stored-second", startedAt: "2026-03-01T09:23:07.490Z"),
    ])
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

  /// Review (s17, F11): with 60 receipts, `activity` printed "50 receipt(s), oldest first" from
  /// call 11 on, and `--json` held 50 receipts, with nothing saying 10 were left out.
  @Test("activity says how many receipts the limit left out, in text and --json")
  func limitIsReported() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try Self.importReceipts(
      into: cli,
      (1...60).map { n in
        Self.receipt(n, callID: "call-\(n)", startedAt: String(format: "2026-03-01T09:%02d:00.000Z", n - 1))
      })

    let text = try cli.run(["activity"])
    #expect(text.status == 0, "\(text.stderr)")
    let lines = text.stdout.split(separator: "\n")
    #expect(lines.first == "50 of 60 receipt(s) shown (the newest; --limit N for more), oldest first", "\(text.stdout)")
    #expect(lines.count == 51)
    #expect(lines.dropFirst().first?.contains("call call-11 ") == true, "\(text.stdout)")
    let json = try cli.json(["activity"])
    #expect((json["receipts"] as? [[String: Any]])?.count == 50)
    #expect(json["count"] as? Int == 50)
    #expect(json["total"] as? Int == 60)
    #expect(json["truncated"] as? Bool == true)

    // A limit that takes them all: no word of a cut.
    #expect(try cli.run(["activity", "--limit", "60"]).stdout.hasPrefix("60 receipt(s), oldest first\n"))
    let all = try cli.json(["activity", "--limit", "100"])
    #expect(all["count"] as? Int == 60 && all["total"] as? Int == 60 && all["truncated"] as? Bool == false)
  }
}
