import Foundation
import Testing
import TestSupport

/// Review 28-d, 4: `dolphin ask "/get <a task's id>"` said `knowledge_get failed: no knowledge
/// item has the id …` and `/done <a knowledge item's id>` `task_complete failed: no task has the
/// id …`, while `dolphin knowledge get <the task's id>` named the task and the command for it.
/// `ask` now says whose id it is and which slash command takes it; followed, the advice works.
@Suite("dolphin ask given another record type's id names its owner and the command for it", .serialized)
struct AskWrongRecordIDCommandTests {
  @Test("/get, /done, /reopen and /restore name the record that has the id and the slash command that takes it")
  func namesTheOwner() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let task = try #require(try cli.record("task", ["task", "add", "Benchmark WAL"])["id"] as? String)
    let item = try #require(try cli.record("item", ["capture", "fact", "WAL is on"])["id"] as? String)
    let handoff = try #require(try cli.record("handoff", ["handoff", "create", "--focus", "Storage work"])["id"] as? String)
    let memory = try #require(try cli.record("memory", ["memory", "save", "Deploys run on Tuesdays"])["id"] as? String)

    let get = try cli.run(["ask", "/get \(task)"])
    #expect(get.status == 3, "\(get.stderr)")
    #expect(
      get.stderr.contains(
        "knowledge_get failed: no knowledge item has the id \(task) (it is a task's id; `dolphin task get \(task) --workspace "
          + "\(cli.workspace)` shows it; `/done \(task)` completes it and `/reopen \(task)` reopens it)"), "\(get.stderr)")
    // Review 29-b, 7: the command that shows the task is named too, and followed, it shows it.
    let shownTask = try runDolphin(try Review28dWordingCommandTests.command(in: get.stderr, after: "it is a task's id; ").dropFirst().map { $0 })
    #expect(shownTask.status == 0 && shownTask.stdout.contains("Benchmark WAL"), "\(shownTask.stdout) \(shownTask.stderr)")

    let done = try cli.run(["ask", "/done \(item)", "--yes"])
    #expect(done.status == 3, "\(done.stderr)")
    #expect(
      done.stderr.contains("task_complete failed: no task has the id \(item) (it is a knowledge item's id; `/get \(item)` shows it)"),
      "\(done.stderr)")
    // Followed, each piece of advice works.
    let shown = try cli.run(["ask", "/get \(item)"])
    #expect(shown.status == 0 && shown.stdout.contains("WAL is on"), "\(shown.stdout) \(shown.stderr)")
    let completed = try cli.run(["ask", "/done \(task)", "--yes"])
    #expect(completed.status == 0 && completed.stdout.contains("Completed task \(task)"), "\(completed.stdout) \(completed.stderr)")

    let restore = try cli.run(["ask", "/restore \(item)", "--yes"])
    #expect(restore.status == 3, "\(restore.stderr)")
    #expect(restore.stderr.contains("no handoff has the id \(item) (it is a knowledge item's id; `/get \(item)` shows it)"), "\(restore.stderr)")
    let reopen = try cli.run(["ask", "/reopen \(handoff)", "--yes"])
    #expect(reopen.status == 3, "\(reopen.stderr)")
    // The read command first (review 30-b): `/restore` marks the handoff restored.
    #expect(
      reopen.stderr.contains(
        "no task has the id \(handoff) (it is a handoff's id; `dolphin handoff get \(handoff) --workspace \(cli.workspace)` "
          + "shows it; `/restore \(handoff)` restores it)"), "\(reopen.stderr)")
    let handoffShown = try runDolphin(["handoff", "get", handoff, "--workspace", cli.workspace])
    #expect(handoffShown.status == 0, "\(handoffShown.stderr)")
    let restored = try cli.run(["ask", "/restore \(handoff)", "--yes"])
    #expect(restored.status == 0 && restored.stdout.contains("Restored handoff \(handoff)"), "\(restored.stdout) \(restored.stderr)")

    // A legacy memory's id: its knowledge mirror shows its text, and /get takes that id.
    let byMemory = try cli.run(["ask", "/get \(memory)"])
    #expect(byMemory.status == 3, "\(byMemory.stderr)")
    let note = try #require(byMemory.stderr.range(of: "(it is a legacy memory's id; `/get "), "\(byMemory.stderr)")
    let mirror = String(byMemory.stderr[note.upperBound...].prefix(36))
    #expect(byMemory.stderr.contains("`/get \(mirror)` shows its text (the memory's knowledge mirror))"), "\(byMemory.stderr)")
    let text = try cli.run(["ask", "/get \(mirror)"])
    #expect(text.status == 0 && text.stdout.contains("Deploys run on Tuesdays"), "\(text.stdout) \(text.stderr)")

    // --json names the argument and says not found, as before.
    let json = try cli.run(["ask", "/get \(task)", "--json"])
    #expect(json.status == 3, "\(json.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
    let error = try #require(document["error"] as? [String: Any])
    #expect(error["kind"] as? String == "notFound")
    #expect(
      (error["message"] as? String)?.contains(
        "(it is a task's id; `dolphin task get \(task) --workspace \(cli.workspace)` shows it; `/done \(task)` completes it") == true,
      "\(error)")
  }
}
