import ContinuityKit
import DolphinCommands
import Foundation
import Testing
import TestSupport

/// Review 22 (3): `knowledge list` said `50 item(s) shown of 85 in the workspace` with no hint of
/// how to see the rest, where `task list` says `(the first 50; 4950 left out, --limit N lists up
/// to 5000)`. Every list whose `--limit` left records out says so now, with its own maximum.
@Suite("lists say what --limit left out", .serialized)
struct ListLeftOutHintTests {
  func run(_ arguments: [String], workspace: String) async -> (code: Int32, stdout: String) {
    let console = Console()
    let code = await DolphinCLI.run(arguments + ["--workspace", workspace], console: console)
    return (code, console.standardOutput)
  }

  @Test("knowledge, memory, handoff and task lists name the first N, how many were left out and the largest --limit")
  func hints() async throws {
    let dir = TemporaryDirectory("list-left-out")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    for i in 1...3 {
      #expect(await run(["capture", "fact", "Fact \(i)"], workspace: ws).code == 0)
      #expect(await run(["memory", "save", "Memory \(i)"], workspace: ws).code == 0)
      #expect(await run(["task", "add", "Task \(i)"], workspace: ws).code == 0)
      #expect(await run(["handoff", "create", "--focus", "Focus \(i)"], workspace: ws).code == 0)
    }
    // Memories mirror as knowledge items: 3 facts and 3 mirrors.
    let knowledge = await run(["knowledge", "list", "--limit", "2"], workspace: ws)
    #expect(knowledge.code == 0)
    #expect(
      knowledge.stdout.hasPrefix(
        "2 item(s) shown of 6 in the workspace (the first 2; 4 left out, --limit N lists up to \(Limits.knowledgeItemsMaximum))\n"),
      "\(knowledge.stdout)")
    let filtered = await run(["knowledge", "list", "--kind", "fact", "--limit", "1"], workspace: ws)
    #expect(
      filtered.stdout.hasPrefix("1 item(s) shown of 3 matching (the first 1; 2 left out, --limit N lists up to \(Limits.knowledgeItemsMaximum))\n"),
      "\(filtered.stdout)")
    let memories = await run(["memory", "list", "--limit", "2"], workspace: ws)
    #expect(
      memories.stdout.hasPrefix("2 memory(ies) shown of 3 in the workspace (the first 2; 1 left out, --limit N lists up to \(Limits.memories))\n"),
      "\(memories.stdout)")
    let handoffs = await run(["handoff", "list", "--limit", "1"], workspace: ws)
    #expect(
      handoffs.stdout.hasPrefix("1 handoff(s) shown of 3 (the first 1; 2 left out, --limit N lists up to \(Limits.handoffs)); active: "),
      "\(handoffs.stdout)")
    let tasks = await run(["task", "list", "--limit", "2"], workspace: ws)
    #expect(tasks.stdout.hasPrefix("2 task(s) shown of 3 (the first 2; 1 left out, --limit N lists up to \(Limits.tasks))\n"), "\(tasks.stdout)")

    // Nothing left out: no hint.
    for (args, prefix) in [
      (["knowledge", "list"], "6 item(s) shown of 6 in the workspace\n"), (["memory", "list"], "3 memory(ies) shown of 3 in the workspace\n"),
      (["handoff", "list"], "3 handoff(s) shown of 3; active: "), (["task", "list"], "3 task(s) shown of 3\n"),
    ] {
      let listed = await run(args, workspace: ws)
      #expect(listed.stdout.hasPrefix(prefix), "\(args): \(listed.stdout)")
    }
  }
}
