import DolphinCommands
import Foundation
import Testing
import TestSupport

/// Review 19-b (F10): `task list` had no `--limit` and printed every task (5,000 lines at the bound).
@Suite("task list --limit", .serialized)
struct TaskListLimitTests {
  @Test("at most 50 by default, --limit N more or fewer, saying how many were left out")
  func limit() async throws {
    let dir = TemporaryDirectory("task-list-limit")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    for i in 1...52 {
      #expect(await DolphinCLI.run(["task", "add", "Task \(i)", "--workspace", ws], console: Console()) == 0)
    }
    let byDefault = Console()
    #expect(await DolphinCLI.run(["task", "list", "--workspace", ws], console: byDefault) == 0)
    let lines = byDefault.standardOutput.split(separator: "\n")
    #expect(lines.first == "50 task(s) shown of 52 (the first 50; 2 left out, --limit N lists up to 5000)", "\(lines.first ?? "")")
    #expect(lines.count == 51)

    let json = Console()
    #expect(await DolphinCLI.run(["task", "list", "--limit", "3", "--status", "open", "--json", "--workspace", ws], console: json) == 0)
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect((doc["tasks"] as? [Any])?.count == 3)
    #expect(doc["count"] as? Int == 3 && doc["total"] as? Int == 52 && doc["truncated"] as? Bool == true, "\(doc)")

    let all = Console()
    #expect(await DolphinCLI.run(["task", "list", "--limit", "5000", "--workspace", ws], console: all) == 0)
    #expect(all.standardOutput.hasPrefix("52 task(s) shown of 52\n"), "\(all.standardOutput.prefix(80))")

    for (value, code) in [("0", ExitCode.validation), ("5001", ExitCode.validation), ("ten", ExitCode.usage)] {
      let refused = Console()
      #expect(await DolphinCLI.run(["task", "list", "--limit", value, "--workspace", ws], console: refused) == code, "\(value)")
    }
  }
}
