import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review (s17, F6 and F12): `task_list` and `handoff_list` had no limit, so one answer at the
/// 5,000-task cap was 20.7 MB; `handoff_restore`'s text was cut at 8,000 characters after the
/// next steps, so a handoff of 64 knowledge items and 64 tasks read as one with none.
@Suite("Bounded tool listings")
struct BoundedListingToolsTests {
  static func run(_ engine: KnowledgeEngine, _ tool: String, _ arguments: JSONValue = [:]) async throws -> ToolOutput {
    let r = await ToolExecutor(engine: engine).execute(
      ToolCall(id: tool, name: tool, arguments: arguments), approver: StaticApprovalPolicy.allow)
    return try #require(r.output, "\(String(describing: r.error)) \(r.failureMessage ?? "")")
  }

  /// The structured output holds only properties the output schema declares, every required
  /// one, each of its declared type — what a client that validates structured results checks.
  static func expectConforms(_ structured: JSONValue, to tool: String) throws {
    let schema = try ToolRegistry.standard.tool(named: tool).outputSchema
    let properties = try #require(schema["properties"]?.object)
    let object = try #require(structured.object)
    for key in schema["required"]?.array?.compactMap(\.string) ?? [] {
      #expect(object[key] != nil, "\(tool): required \(key) is missing")
    }
    for key in object.keys {
      let declared = try #require(properties[key], "\(tool): \(key) is not in the output schema")
      let value = try #require(object[key])
      #expect(declared["type"]?.string == value.kindName.replacingOccurrences(of: "number", with: "integer"), "\(tool).\(key): \(value)")
    }
  }

  @Test("task_list lists 50 by default and says how many there are and that the limit cut them, in structured output and text")
  func taskListDefaultLimit() async throws {
    let engine = makeEngine()
    for n in 1...60 { _ = try engine.addTask(title: "Task \(n)") }
    let output = try await Self.run(engine, "task_list")
    let structured = output.structured
    #expect(structured["tasks"]?.array?.count == 50)
    #expect(structured["count"] == .integer(50))
    #expect(structured["total"] == .integer(60))
    #expect(structured["truncated"] == .bool(true))
    try Self.expectConforms(structured, to: "task_list")
    let lines = output.text.split(separator: "\n")
    #expect(lines.first == "50 of 60 task(s), cut by the limit of 50 (limit takes up to 5000)", "\(output.text)")
    #expect(lines.count == 51, "\(output.text)")
  }

  @Test("task_list with a limit and a status: the first tasks of that status, total counting that status only")
  func taskListLimitAndStatus() async throws {
    let engine = makeEngine()
    let tasks = try (1...5).map { try engine.addTask(title: "Task \($0)") }
    _ = try engine.completeTaskReportingOutcome(id: tasks[0].id)
    let open = try await Self.run(engine, "task_list", ["status": "open", "limit": 3])
    #expect(open.structured["tasks"]?.array?.compactMap { $0["title"]?.string } == ["Task 2", "Task 3", "Task 4"])
    #expect(open.structured["total"] == .integer(4))
    #expect(open.structured["truncated"] == .bool(true))
    #expect(open.text.hasPrefix("3 of 4 open task(s), cut by the limit of 3 (limit takes up to 5000)\n- [ ] \"Task 2\""), "\(open.text)")
    let all = try await Self.run(engine, "task_list", ["limit": 5000])
    #expect(all.structured["count"] == .integer(5))
    #expect(all.structured["truncated"] == .bool(false))
    try Self.expectConforms(all.structured, to: "task_list")
    #expect(all.text.hasPrefix("5 of 5 task(s)\n"), "\(all.text)")
    let none = try await Self.run(makeEngine(), "task_list", ["status": "completed"])
    #expect(none.text == "No completed tasks.")
    #expect(none.structured["total"] == .integer(0) && none.structured["truncated"] == .bool(false))
  }

  @Test("task_list and handoff_list refuse a limit past the collection's bound, naming it")
  func limitBounds() throws {
    let executor = ToolExecutor(engine: makeEngine())
    for (tool, maximum) in [("task_list", Limits.tasks), ("handoff_list", Limits.handoffs)] {
      let refusal = executor.refusal(of: ToolCall(id: "c", name: tool, arguments: ["limit": .integer(maximum + 1)]))
      guard case .invalidArguments(let e)? = refusal else {
        Issue.record("\(tool): expected invalidArguments, got \(String(describing: refusal))")
        continue
      }
      #expect(e.field == "arguments.limit")
      #expect(e.message == "arguments.limit is \(maximum + 1); it must be between 1 and \(maximum)")
      #expect(executor.refusal(of: ToolCall(id: "c", name: tool, arguments: ["limit": .integer(maximum)])) == nil)
    }
  }

  @Test("task_list text stays within the output bound and counts the listed tasks it leaves out, never cut mid-row")
  func taskListTextBounded() async throws {
    let engine = makeEngine()
    for n in 1...50 { _ = try engine.addTask(title: "Task \(n) " + String(repeating: "t", count: 280)) }
    let output = try await Self.run(engine, "task_list")
    #expect(output.structured["count"] == .integer(50))
    #expect(output.text.count <= Limits.renderedToolOutput)
    #expect(!output.text.contains(Truncation.marker), "\(output.text.suffix(300))")
    let rows = output.text.split(separator: "\n").filter { $0.hasPrefix("- [ ]") }.count
    #expect(rows > 0 && rows < 50)
    #expect(
      output.text.hasSuffix(
        "\n… and \(50 - rows) more of the 50 listed (not shown: the text is bounded; structuredContent.tasks holds every one)"),
      "\(output.text.suffix(300))")
  }

  @Test("handoff_list lists 50 by default, newest first, and names the active handoff even when its row is left out")
  func handoffListDefaultLimit() async throws {
    let engine = makeEngine()
    // The fixed clock ticks on every reading: each handoff is newer than the one before.
    let ids = try (0..<55).map { n in try engine.createHandoff(HandoffRequest(focus: "Focus \(n)")).handoff.id }
    _ = try engine.restoreHandoff(id: ids[0])
    let output = try await Self.run(engine, "handoff_list")
    #expect(output.structured["handoffs"]?.array?.count == 50)
    #expect(output.structured["count"] == .integer(50))
    #expect(output.structured["total"] == .integer(55))
    #expect(output.structured["truncated"] == .bool(true))
    #expect(output.structured["activeHandoffID"] == .string(ids[0].uuidString))
    try Self.expectConforms(output.structured, to: "handoff_list")
    let lines = output.text.split(separator: "\n")
    #expect(
      lines.first == "50 of 55 handoff(s), newest first, cut by the limit of 50 (limit takes up to 200); active: \(ids[0].uuidString)",
      "\(output.text)")
    #expect(lines.dropFirst().first == "- \(ids[54].uuidString) \"Focus 54\"")
    #expect(lines.count == 51)

    let two = try await Self.run(engine, "handoff_list", ["limit": 2])
    #expect(two.structured["handoffs"]?.array?.compactMap { $0["focus"]?.string } == ["Focus 54", "Focus 53"])
    // With none active the id is absent, as its schema (a string, not required) allows.
    _ = try engine.deactivateHandoff()
    let inactive = try await Self.run(engine, "handoff_list", ["limit": 200])
    #expect(inactive.structured["activeHandoffID"] == nil)
    #expect(inactive.structured["truncated"] == .bool(false))
    try Self.expectConforms(inactive.structured, to: "handoff_list")
    #expect(inactive.text.hasPrefix("55 of 55 handoff(s), newest first; active: none\n"), "\(inactive.text.prefix(200))")
  }

  /// A handoff at every bound a tool call accepts: focus 300, summary 4,000, 12 next steps of
  /// 300, 64 knowledge items and 64 tasks with 300-character titles.
  static func fullHandoff(_ engine: KnowledgeEngine) throws -> Handoff {
    let knowledge = try (1...64).map { n in
      try engine.capture(CaptureRequest(kind: .fact, title: "K\(n) " + String(repeating: "k", count: 290))).item.id
    }
    let tasks = try (1...64).map { n in try engine.addTask(title: "T\(n) " + String(repeating: "t", count: 290)).id }
    return try engine.createHandoff(
      HandoffRequest(
        focus: String(repeating: "f", count: 300), summary: String(repeating: "Summary sentence. ", count: 222),
        nextSteps: (1...12).map { "Step \($0) " + String(repeating: "s", count: 290) }, knowledgeIDs: knowledge, taskIDs: tasks)
    ).handoff
  }

  @Test("handoff_restore's text counts what the handoff carries and says how many knowledge items and tasks it leaves out")
  func restoreTextCounts() async throws {
    let engine = makeEngine()
    let h = try Self.fullHandoff(engine)
    let output = try await Self.run(engine, "handoff_restore", ["id": .string(h.id.uuidString)])
    let text = output.text
    #expect(text.count <= Limits.renderedToolOutput)
    // Only the summary is cut inside, and says so; every list is cut between its lines.
    #expect(text.components(separatedBy: Truncation.marker).count == 2, "\(text)")
    #expect(
      text.contains(
        Truncation.marker + " (cut at 2000 characters; handoff_get has all of it)\nSince it was made ("
          + ISO8601.string(from: h.createdAt) + "): 0 knowledge items captured, 0 tasks added, completed or updated.\nNext: Step 1 "),
      "\(text)")
    #expect(
      text.hasPrefix(
        "Restored handoff \(h.id.uuidString) as context only (nothing was re-run); it carries 64 knowledge items and 64 tasks.\n"),
      "\(text.prefix(200))")
    let lines = text.split(separator: "\n").map(String.init)
    let steps = lines.filter { $0.hasPrefix("Next: ") }.count
    let knowledge = lines.filter { $0.hasPrefix("Knowledge: ") }.count
    let tasks = lines.filter { $0.hasPrefix("Task: ") }.count
    // Next steps come first; the rest of the room is shared by knowledge and tasks, and every
    // list left short says by how much.
    #expect(steps == 12, "\(text)")
    #expect(knowledge > 0 && tasks > 0, "\(text)")
    let knowledgeLine = "… and \(64 - knowledge) more knowledge items (not shown; handoff_get lists them)"
    let tasksLine = "… and \(64 - tasks) more tasks (not shown; handoff_get lists them)"
    #expect(lines.contains(knowledgeLine), "\(text.suffix(600))")
    #expect(lines.contains(tasksLine), "\(text.suffix(600))")
    #expect(abs(knowledge - tasks) <= 1)
    // The structured output still carries every one.
    #expect(output.structured["knowledge"]?.array?.count == 64)
    #expect(output.structured["tasks"]?.array?.count == 64)
  }

  /// A workspace with one handoff carrying one decision and one task.
  static func smallHandoff() throws -> (KnowledgeEngine, KnowledgeItem, TaskItem, Handoff) {
    let engine = makeEngine()
    let k = try engine.capture(CaptureRequest(kind: .decision, title: "Use WAL")).item
    let t = try engine.addTask(title: "Write the soak")
    let h = try engine.createHandoff(
      HandoffRequest(focus: "Ship", summary: "Short.", nextSteps: ["Run it"], knowledgeIDs: [k.id], taskIDs: [t.id])
    ).handoff
    return (engine, k, t, h)
  }

  @Test("handoff_restore's text for a small handoff lists everything, with no omission line")
  func restoreSmallHandoff() async throws {
    let (engine, k, t, h) = try Self.smallHandoff()
    let output = try await Self.run(engine, "handoff_restore", ["id": .string(h.id.uuidString)])
    #expect(
      output.text == """
        Restored handoff \(h.id.uuidString) as context only (nothing was re-run); it carries 1 knowledge item and 1 task.
        Focus: Ship
        Summary: Short.
        Since it was made (\(ISO8601.string(from: h.createdAt))): 0 knowledge items captured, 0 tasks added, completed or updated.
        Next: Run it
        Knowledge: "Use WAL" (id \(k.id.uuidString))
        Task: "Write the soak" (id \(t.id.uuidString))
        """)
  }

  @Test("handoff_get's text lists the ids of what the handoff carries")
  func getListsIDs() async throws {
    let (engine, k, t, h) = try Self.smallHandoff()
    let output = try await Self.run(engine, "handoff_get", ["id": .string(h.id.uuidString)])
    #expect(
      output.text == """
        Handoff \(h.id.uuidString): "Ship" (1 knowledge item and 1 task)
        Summary: Short.
        next: Run it
        knowledge: \(k.id.uuidString)
        task: \(t.id.uuidString)
        """)
  }

  @Test("handoff_get's text at every bound stays within the output bound and counts every list it leaves short")
  func getCountsWhatItLeavesOut() async throws {
    let engine = makeEngine()
    let h = try Self.fullHandoff(engine)
    let output = try await Self.run(engine, "handoff_get", ["id": .string(h.id.uuidString)])
    let text = output.text
    #expect(text.count <= Limits.renderedToolOutput)
    #expect(!text.contains(Truncation.marker), "\(text.suffix(400))")
    #expect(text.hasPrefix("Handoff \(h.id.uuidString): \"\(h.focus)\" (64 knowledge items and 64 tasks)\nSummary: \(h.summary)\n"))
    let lines = text.split(separator: "\n").map(String.init)
    let steps = lines.filter { $0.hasPrefix("next: ") }.count
    let knowledge = lines.filter { $0.hasPrefix("knowledge: ") }.count
    let tasks = lines.filter { $0.hasPrefix("task: ") }.count
    let held = "(not shown; structuredContent.handoff holds every one)"
    // The whole summary (4,000 characters) leaves room for 11 of the 12 steps; the lists of
    // ids (filled after the steps) still say how many they hold.
    #expect(steps == 11, "\(text)")
    #expect(lines.contains("… and 1 more next step \(held)"))
    #expect(lines.contains("… and \(64 - knowledge) more knowledge items \(held)"))
    #expect(lines.last == "… and \(64 - tasks) more tasks \(held)")
  }
}
