import Foundation
import Testing
import TestSupport

/// Review 25-a, 3: `handoff restore` printed "… N more knowledge items since this handoff not
/// shown" after the task list, where it read as part of the tasks.
@Suite("dolphin handoff restore: each list's overflow line under it", .serialized)
struct HandoffRestoreOverflowTests {
  @Test("13 items captured since, one task: the knowledge overflow line closes the knowledge list")
  func overflowUnderItsList() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["handoff", "create", "--focus", "Storage layer", "--activate"]).status == 0)
    for i in 1...13 { #expect(try cli.run(["capture", "fact", "Finding \(i) after the handoff"]).status == 0) }
    #expect(try cli.run(["task", "add", "Benchmark capture"]).status == 0)
    let restore = try cli.run(["handoff", "restore", "latest"])
    #expect(restore.status == 0, "\(restore.stderr)")
    let lines = restore.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let knowledge = try #require(lines.firstIndex { $0.hasPrefix("Knowledge captured since this handoff (10 of 13)") })
    let tasks = try #require(lines.firstIndex { $0.hasPrefix("Tasks added, completed or updated since this handoff (1 of 1)") })
    let more = try #require(lines.firstIndex { $0.contains("… 3 earlier knowledge items since this handoff not shown") })
    #expect(more == knowledge + 11, "\(restore.stdout)")
    #expect(more < tasks)
    #expect(lines[tasks + 1].contains("Benchmark capture"))
    #expect(!lines[(tasks + 1)...].contains { $0.contains("earlier knowledge item") }, "\(restore.stdout)")
    // The newest kept, oldest of them first (review 28-b, 6): findings 4 to 13.
    #expect(lines[knowledge + 1].contains("\"Finding 4 after the handoff\""), "\(restore.stdout)")
    #expect(lines[knowledge + 10].contains("\"Finding 13 after the handoff\""), "\(restore.stdout)")
  }
}
