import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 19-c (s20): `dolphin migrate` into a workspace at its kept bounds pruned the
/// workspace's digests and checkpoints without a word. Its report now says, as `import`'s does,
/// how many of the file's were left out as older and how many of the workspace's were pruned.
@Suite("dolphin migrate reports what keeping the newest left out", .serialized)
struct MigrateRetentionCommandTests {
  static let fixture = MigrateCommandTests.fixtures.appendingPathComponent("workspace-v4.json")

  /// A workspace holding 50 digests and 1,000 checkpoints dated 2025-04-11 (between the v4
  /// fixture's earliest activity and its latest), put there by `import`.
  static func fullWorkspace() throws -> CLI {
    let cli = CLI()
    #expect(try cli.run(["capture", "fact", "Harbor ships weekly"]).status == 0)
    #expect(try cli.run(["context", "--save"]).status == 0)
    let export = try cli.run(["export"])
    var document = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
    var ws = try #require(document["workspace"] as? [String: Any])
    let template = try #require((ws["digests"] as? [[String: Any]])?.first)
    let start = try #require(ISO8601.date(from: "2025-04-11T00:00:00Z"))
    func date(_ i: Int) -> String { ISO8601.string(from: start.addingTimeInterval(Double(i))) }
    ws["digests"] = (0..<Limits.digestsKept).map { i -> [String: Any] in
      var d = template
      d["id"] = String(format: "00000000-0000-4000-8000-%012X", 0xD000 + i)
      d["createdAt"] = date(i)
      return d
    }
    ws["checkpoints"] = (0..<Limits.checkpointsKept).map { i -> [String: Any] in
      [
        "id": String(format: "00000000-0000-4000-8000-%012X", 0xC0000 + i),
        "runID": "00000000-0000-4000-8000-0000000000AA", "step": i, "state": "finished", "note": "",
        "createdAt": date(i),
      ]
    }
    document["workspace"] = ws
    let path = cli.dir.appending("full.json").path
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
    let imported = try cli.run(["import", path])
    #expect(imported.status == 0, "\(imported.stderr)")
    let counts = try #require(try cli.json(["status"])["counts"] as? [String: Any])
    try #require(counts["digest"] as? Int == Limits.digestsKept && counts["checkpoint"] as? Int == Limits.checkpointsKept, "\(counts)")
    return cli
  }

  @Test("the text report names each collection and which side lost records")
  func text() throws {
    let cli = try Self.fullWorkspace()
    defer { cli.dir.remove() }
    let r = try cli.run(["migrate", Self.fixture.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains(", 3 receipts, 2 checkpoints, 0 quarantined."), "\(r.stdout)")
    #expect(
      r.stdout.contains(
        "Kept the newest 50 digests: 1 older of this workspace's were pruned.\n"
          + "Kept the newest 1000 checkpoints: 4 of the file's, older, were not imported; "
          + "2 older of this workspace's were pruned.\n"),
      "\(r.stdout)")
    #expect(!r.stdout.contains("Kept the newest 10000"), "receipts and messages fit: \(r.stdout)")
    let counts = try #require(try cli.json(["status"])["counts"] as? [String: Any])
    #expect(counts["checkpoint"] as? Int == Limits.checkpointsKept && counts["digest"] as? Int == Limits.digestsKept)
  }

  @Test("--json carries pruned and olderThanKept by collection; an empty workspace has none")
  func json() throws {
    let cli = try Self.fullWorkspace()
    defer { cli.dir.remove() }
    let report = try cli.json(["migrate", Self.fixture.path])
    #expect(report["pruned"] as? [String: Int] == ["checkpoints": 2, "digests": 1], "\(report)")
    #expect(report["olderThanKept"] as? [String: Int] == ["checkpoints": 4], "\(report)")
    #expect((report["imported"] as? [String: Int])?["checkpoints"] == 2)

    let fresh = CLI()
    defer { fresh.dir.remove() }
    let first = try fresh.json(["migrate", Self.fixture.path])
    #expect(first["pruned"] as? [String: Int] == [:] && first["olderThanKept"] as? [String: Int] == [:], "\(first)")
    #expect((first["imported"] as? [String: Int])?["checkpoints"] == 6)
    let other = CLI()
    defer { other.dir.remove() }
    let text = try other.run(["migrate", Self.fixture.path])
    #expect(!text.stdout.contains("Kept the newest"), "\(text.stdout)")
  }
}
