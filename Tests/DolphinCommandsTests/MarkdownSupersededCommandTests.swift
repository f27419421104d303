import Foundation
import Testing
import TestSupport

/// Review 19-c, finding 11, as reproduced: in `export --format markdown` a superseded goal read
/// as a current one.
@Suite("dolphin export --format markdown marks superseded items", .serialized)
struct MarkdownSupersededCommandTests {
  @Test("the superseded goal's heading says so and names its successor")
  func supersededGoal() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let old = try #require((try cli.json(["capture", "goal", "Ship beta by January 15", "--tags", "release"])["item"] as? [String: Any])?["id"] as? String)
    let new = try #require(
      (try cli.json(["capture", "goal", "Ship beta by February 1", "--tags", "release", "--relates", "supersedes:\(old)"])["item"]
        as? [String: Any])?["id"] as? String)
    let r = try cli.run(["export", "--format", "markdown"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("### Goal: Ship beta by January 15 (superseded)\n\n- id: `\(old)`\n- superseded by `\(new)`\n"), "\(r.stdout)")
    #expect(r.stdout.contains("### Goal: Ship beta by February 1\n"))
  }
}
