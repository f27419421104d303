import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review (s17, F6): `task_list` and `handoff_list` had no limit, so one answer at the
/// 5,000-task cap was 20.7 MB.
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
}
