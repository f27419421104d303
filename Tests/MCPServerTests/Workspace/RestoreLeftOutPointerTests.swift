import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Review 28-d, 6: `handoff_restore` said of the knowledge captured since that it left out "not
/// shown; structuredContent.capturedSince holds the latest 10 of 55" — it holds the 10 shown,
/// not the others — and of the tasks "task_list lists them", whose first 50 need not. Each line
/// now names the page of a list tool (`knowledge_list`, new, or `task_list`) that holds every
/// one left out; called as named, it lists them.
@Suite("MCP handoff_restore: the not-shown pointers, called as named, list what was left out")
struct RestoreLeftOutPointerTests {
  /// The tool call named on the text's line holding `marker`: `knowledge_list {"offset": 0,
  /// "limit": 26}` as the tool's name and its arguments.
  static func call(in text: String, marker: String) throws -> (tool: String, arguments: JSONObject) {
    let line = try #require(text.split(separator: "\n").first { $0.contains(marker) }, "\(text)")
    let semicolon = try #require(line.range(of: "(not shown; "), "\(line)")
    let rest = line[semicolon.upperBound...]
    let name = String(rest.prefix { $0 != " " })
    let open = try #require(rest.firstIndex(of: "{")), close = try #require(rest.firstIndex(of: "}"))
    let value = try JSONDecoder().decode(JSONValue.self, from: Data(rest[open...close].utf8))
    return (name, try #require(value.object, "\(line)"))
  }

  static func ids(_ result: MCPToolResult, _ field: String) -> [String] {
    result.structuredContent?[field]?.array?.compactMap { $0["id"]?.string } ?? []
  }

  @Test("knowledge_list and task_list pages named by handoff_restore hold every record it left out")
  func pointersReachTheLeftOut() async throws {
    let fixture = WorkspaceFixture()
    let seeded = try fixture.engine.store.write { tx in
      try ScatteredSinceFixture.insert(into: tx, now: Date(timeIntervalSince1970: 1_790_000_000))
    }
    let restore = await HandoffParityTests.call(fixture, "handoff_restore", ["id": .string(seeded.handoffID.uuidString)])
    #expect(!restore.isError, "\(restore.text)")
    let tasksLeftOut = Set(seeded.tasksChangedSince.map(\.uuidString)).subtracting(Self.ids(restore, "tasksSince"))
    let itemsLeftOut = Set(seeded.knowledgeCapturedSince.map(\.uuidString)).subtracting(Self.ids(restore, "capturedSince"))
    #expect(tasksLeftOut.count == 21 && itemsLeftOut.count == 15)
    #expect(!restore.text.contains("structuredContent.capturedSince holds the latest"), "\(restore.text)")
    #expect(
      restore.text.contains(
        #"… and 15 more knowledge items captured since (not shown; knowledge_list {"offset": 0, "limit": 26} lists them, among other items (most recently changed first))"#),
      "\(restore.text)")
    #expect(
      restore.text.contains(
        #"… and 21 more tasks added, completed or updated since (not shown; task_list {"status": "all", "offset": 4, "limit": 26} lists them, among other tasks (open first, then by priority and age))"#),
      "\(restore.text)")
    #expect(restore.structuredContent?["capturedSinceLeftOut"] == ["offset": 0, "limit": 26])
    #expect(restore.structuredContent?["tasksSinceLeftOut"] == ["offset": 4, "limit": 26])

    let items = try Self.call(in: restore.text, marker: "more knowledge items captured since")
    #expect(items.tool == "knowledge_list")
    let itemPage = await HandoffParityTests.call(fixture, items.tool, items.arguments)
    #expect(!itemPage.isError, "\(itemPage.text)")
    #expect(itemsLeftOut.isSubset(of: Self.ids(itemPage, "items")), "\(itemPage.text)")

    let tasks = try Self.call(in: restore.text, marker: "more tasks added, completed or updated since")
    #expect(tasks.tool == "task_list")
    let taskPage = await HandoffParityTests.call(fixture, tasks.tool, tasks.arguments)
    #expect(!taskPage.isError, "\(taskPage.text)")
    #expect(tasksLeftOut.isSubset(of: Self.ids(taskPage, "tasks")), "\(taskPage.text)")
  }

  @Test("knowledge_list pages the items most recently changed first, as dolphin knowledge list orders them")
  func knowledgeListPages() async throws {
    let fixture = WorkspaceFixture()
    let old = try fixture.capture(.decision, "Use SQLite for the workspace", content: "WAL mode.")
    for i in 1...4 { try fixture.capture(.fact, "Benchmark run \(i)") }
    let new = try fixture.engine.capture(
      CaptureRequest(
        kind: .decision, title: "Use SQLite in WAL mode", relationships: [KnowledgeRelationship(kind: .supersedes, targetID: old.id)])
    ).item
    let first = await HandoffParityTests.call(fixture, "knowledge_list", ["limit": 2])
    #expect(!first.isError, "\(first.text)")
    #expect(Self.ids(first, "items") == [new.id.uuidString, try #require(fixture.engine.listKnowledge().first { $0.title == "Benchmark run 4" }).id.uuidString])
    #expect(first.structuredContent?["total"] == 6 && first.structuredContent?["truncated"] == true)
    #expect(first.structuredContent?["nextOffset"] == 2 && first.structuredContent?["offset"] == 0)
    #expect(first.text.hasPrefix("2 of 6 knowledge item(s), most recently changed first, cut by the limit of 2 (limit takes up to 100000)"))
    let last = await HandoffParityTests.call(fixture, "knowledge_list", ["offset": 4, "limit": 50])
    #expect(Self.ids(last, "items").last == old.id.uuidString)
    #expect(last.structuredContent?["truncated"] == false && last.structuredContent?["nextOffset"] == nil)
    // The superseded item is marked, in text and structure.
    #expect(last.structuredContent?["supersededBy"] == [old.id.uuidString: [.string(new.id.uuidString)]])
    #expect(last.text.contains("(id \(old.id.uuidString)) [superseded by \(new.id.uuidString)]"), "\(last.text)")
    let past = await HandoffParityTests.call(fixture, "knowledge_list", ["offset": 60])
    #expect(past.text.hasPrefix("0 of 6 knowledge item(s), most recently changed first; offset 60 is past the last of them"), "\(past.text)")
    let refused = await HandoffParityTests.call(fixture, "knowledge_list", ["limit": 100_001])
    #expect(refused.isError && refused.text.contains("arguments.limit"), "\(refused.text)")
  }
}
