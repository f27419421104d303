import DolphinCommands
import Foundation
import Testing
import TestSupport

/// Review 19-c, finding 3, as reproduced: `ask "/done <task>"` rewrote the rule-built summary of
/// the handoff carrying the task, and its receipt said `changed <task id>` only.
@Suite("dolphin ask: receipts list the handoffs a call rewrote", .serialized)
struct RewrittenHandoffReceiptCommandTests {
  @Test("/done: the receipt lists the task and the handoff whose summary it rewrote, and the answer says so")
  func doneListsHandoff() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let task = try #require(try cli.record("task", ["task", "add", "Write the migration"])["id"] as? String)
    let created = try cli.json(["handoff", "create", "--focus", "Migration", "--task", task])
    let handoff = try #require((created["handoff"] as? [String: Any])?["id"] as? String)

    let r = try cli.run(["ask", "/done \(task)", "--yes", "--receipts"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains(" changed \(task),\(handoff) "), "\(r.stdout)")
    #expect(r.stdout.contains("Rebuilt the rule-built summary of handoff(s) \(handoff)."), "\(r.stdout)")

    let activity = try cli.json(["activity"])
    let receipts = try #require(activity["receipts"] as? [[String: Any]])
    #expect(receipts.first?["changedIDs"] as? [String] == [task, handoff], "\(receipts)")
    let summary = try #require(try cli.record("handoff", ["handoff", "get", handoff])["summary"] as? String)
    #expect(summary.contains(#"Tasks marked completed: "Write the migration"."#), "\(summary)")
  }

  @Test("on a terminal, the approval prompt says which handoff's summary the call will rewrite")
  func promptNamesHandoff() async throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let task = try #require(try cli.record("task", ["task", "add", "Write the migration"])["id"] as? String)
    let created = try cli.json(["handoff", "create", "--focus", "Migration", "--task", task])
    let handoff = try #require((created["handoff"] as? [String: Any])?["id"] as? String)
    let console = Console(isInteractive: true, input: ["n"])
    _ = await DolphinCLI.run(["ask", "/done \(task)", "--workspace", cli.workspace], console: console)
    #expect(
      console.standardError.contains(
        "Approve this local write?\n  task_complete {\"id\":\"\(task)\"}\n  It will also rewrite the rule-built summary of "
          + "handoff \(handoff) \"Migration\".\n[y/N] "), "\(console.standardError)")
  }
}
