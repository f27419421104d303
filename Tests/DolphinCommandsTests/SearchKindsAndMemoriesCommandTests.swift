import Foundation
import Testing
import TestSupport

/// `dolphin search --kind K --include-memories`: memories have no kind, so the combination is
/// refused (exit 2) naming both flags, before any workspace is read.
@Suite("search --kind with --include-memories", .serialized)
struct SearchKindsAndMemoriesCommandTests {
  @Test("the combination is a usage error naming both flags; each flag alone still works")
  func refused() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "decision", "Use tabs for indentation"]).status == 0)
    #expect(try cli.run(["memory", "save", "Prefers tabs over spaces"]).status == 0)
    let r = try cli.run(["search", "tabs", "--kind", "decision", "--include-memories"])
    #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("--kind") && r.stderr.contains("--include-memories"), "\(r.stderr)")
    #expect(r.stderr.contains("memories have no kind"), "\(r.stderr)")
    #expect(!r.stdout.contains("Prefers tabs"), "\(r.stdout)")
    let json = try cli.run(["search", "tabs", "--kind", "decision", "--include-memories", "--json"])
    #expect(json.status == 2)
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(error["kind"] as? String == "usage")

    let kinds = try cli.run(["search", "tabs", "--kind", "decision"])
    #expect(kinds.status == 0 && kinds.stdout.contains("Use tabs") && !kinds.stdout.contains("Prefers tabs"), "\(kinds.stdout)")
    let memories = try cli.run(["search", "tabs", "--include-memories"])
    #expect(memories.status == 0 && memories.stdout.contains("Prefers tabs"), "\(memories.stdout)")
    #expect(try cli.run(["search", "--help"]).stdout.contains("not with --kind"))
  }
}
