import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 19-a: `task_list {"limit":5000}` on 5,000 long tasks returned one 36 MB JSON-RPC line
/// while the server refuses any incoming line over 4 MiB. A listing over a host's byte bound
/// now keeps its first records, each whole, and says how many it left out.
@Suite("Tool outputs within a byte bound")
struct ToolOutputByteBoundTests {
  // MARK: The cut itself

  /// A listing of `sizes.count` strings of those lengths, with a text that names the cut.
  static func listing(_ sizes: [Int]) -> ToolOutput {
    let entries = sizes.enumerated().map { i, n in JSONValue.string(String(repeating: Character(String(i % 10)), count: n)) }
    return ToolOutput(
      structured: ["items": .array(entries), "count": .integer(entries.count), "total": .integer(entries.count), "truncated": false],
      text: "all \(entries.count)",
      listing: ToolOutput.Listing(field: "items") { cut in "kept \(cut.kept) of \(cut.listed) within \(cut.boundBytes)" })
  }

  /// What the cut keeping `kept` entries of `output` is, built by hand.
  static func expectedCut(_ output: ToolOutput, keeping kept: Int, stated: Int) throws -> ToolOutput {
    var object = try #require(output.structured.object)
    let entries = try #require(object["items"]?.array)
    object["items"] = .array(Array(entries.prefix(kept)))
    object["truncated"] = true
    object["omittedForSize"] = .integer(entries.count - kept)
    object["count"] = .integer(kept)
    return ToolOutput(structured: .object(object), text: "kept \(kept) of \(entries.count) within \(stated)", listing: output.listing)
  }

  @Test("a listing over the bound keeps the most first entries that fit, each whole, and counts the rest")
  func keepsTheMostThatFit() throws {
    let output = Self.listing([100, 250, 80, 300, 120, 90, 400])
    for kept in 0..<7 {
      // A bound exactly at the size of the cut keeping `kept` entries keeps exactly those.
      let expected = try Self.expectedCut(output, keeping: kept, stated: 999)
      let bound = ToolOutputBound(bytes: expected.byteCount, statedBytes: 999)
      let cut = output.fitted(to: bound) { $0 }
      #expect(cut == expected, "kept \(kept)")
      #expect(cut.byteCount <= bound.bytes)
      // One byte less keeps one entry fewer (none stays none).
      let tighter = output.fitted(to: ToolOutputBound(bytes: expected.byteCount - 1, statedBytes: 999)) { $0 }
      #expect(tighter.structured["items"]?.array?.count == max(0, kept - 1), "kept \(kept)")
    }
  }

  @Test("a cut paged listing says where its next page starts: offset plus the entries kept; none when it kept none")
  func cutPageNextOffset() throws {
    var output = Self.listing([100, 250, 80, 300])
    var object = try #require(output.structured.object)
    object["offset"] = 5
    output.structured = .object(object)
    for kept in 0..<4 {
      let bytes = try Self.expectedCut(output, keeping: kept, stated: 9).byteCount + 40
      let cut = output.fitted(to: ToolOutputBound(bytes: bytes, statedBytes: 9)) { $0 }
      let sent = try #require(cut.structured["items"]?.array).count
      #expect(cut.structured["truncated"] == true)
      #expect(cut.structured["nextOffset"] == (sent > 0 ? .integer(5 + sent) : nil), "kept \(sent)")
    }
  }

  @Test("an output that fits, or that lists nothing, is returned as it was")
  func leavesWhatFits() throws {
    let output = Self.listing([100, 200, 300])
    let fits = output.fitted(to: ToolOutputBound(bytes: output.byteCount, statedBytes: 1)) { $0 }
    #expect(fits == output && fits.structured["omittedForSize"] == nil)
    var single = output
    single.listing = nil
    #expect(single.fitted(to: ToolOutputBound(bytes: 10, statedBytes: 1)) { $0 } == single)
  }

  @Test("the cut's text passes through the executor's finishing, and is measured after it")
  func finishedTextIsMeasured() throws {
    let output = Self.listing([200, 200, 200, 200])
    // A finishing step that lengthens the text: the cut must leave room for what it adds.
    let padding = String(repeating: "p", count: 120)
    let expected = try Self.expectedCut(output, keeping: 2, stated: 7)
    let bound = ToolOutputBound(bytes: expected.byteCount + padding.count, statedBytes: 7)
    let cut = output.fitted(to: bound) { $0 + padding }
    #expect(cut.structured["items"]?.array?.count == 2)
    #expect(cut.text == "kept 2 of 4 within 7" + padding)
    #expect(cut.byteCount <= bound.bytes)
  }

  // MARK: Every listing tool

  /// A listing tool run over a seeded workspace, whose output a bound of `bound` bytes cuts.
  struct BoundCase: CustomTestStringConvertible, Sendable {
    var tool: String
    var arguments: JSONValue
    /// The member holding the records, and what the text calls them.
    var field: String
    var noun: String
    /// How the last line says to get the rest.
    var remedy: String
    var bound: Int
    var seed: @Sendable (KnowledgeEngine) throws -> Void
    var testDescription: String { tool }
  }

  static let filler = String(repeating: "long enough to take room ", count: 20)

  static let cases: [BoundCase] = [
    BoundCase(
      tool: "task_list", arguments: ["limit": 12], field: "tasks", noun: "task(s)",
      remedy: "call task_list again with offset KEPT for the next ones", bound: 8_000
    ) { engine in
      for n in 1...12 { _ = try engine.addTask(title: "Task \(n)", notes: filler + filler) }
    },
    BoundCase(
      tool: "handoff_list", arguments: ["limit": 6], field: "handoffs", noun: "handoff(s)",
      remedy: "call handoff_list again with offset KEPT for the next ones", bound: 8_000
    ) { engine in
      for n in 1...6 { _ = try engine.createHandoff(HandoffRequest(focus: "Focus \(n)", summary: filler + filler + filler)) }
    },
    BoundCase(
      tool: "knowledge_search", arguments: ["query": "cache", "limit": 20], field: "results", noun: "results",
      remedy: "they rank below the ones sent; a narrower query, kinds or tag lists fewer", bound: 9_000
    ) { engine in
      for n in 1...20 {
        _ = try engine.capture(CaptureRequest(kind: .decision, title: "Cache decision \(n) " + filler.prefix(200), content: "cache " + filler))
      }
    },
    BoundCase(
      tool: "memory_search", arguments: ["query": "cache", "limit": 20], field: "results", noun: "results",
      remedy: "they rank below the ones sent; a narrower query lists fewer", bound: 9_000
    ) { engine in
      for n in 1...20 { _ = try engine.saveMemory(text: "Cache memory \(n) " + filler) }
    },
    BoundCase(
      tool: "task_search", arguments: ["query": "cache", "limit": 20], field: "results", noun: "results",
      remedy: "they rank below the ones sent; a narrower query or status lists fewer", bound: 9_000
    ) { engine in
      for n in 1...20 { _ = try engine.addTask(title: "Cache task \(n)", notes: filler) }
    },
    BoundCase(
      tool: "continuity_insights", arguments: [:], field: "insights", noun: "insights",
      remedy: "a higher minPriority lists fewer", bound: 4_000
    ) { engine in
      // Each contradiction is an insight of its own, quoting both titles.
      for n in 1...8 {
        let a = try engine.capture(CaptureRequest(kind: .decision, title: "Decision \(n) " + filler.prefix(250), tags: ["t"])).item
        _ = try engine.capture(
          CaptureRequest(
            kind: .decision, title: "Counter \(n) " + filler.prefix(250), tags: ["t"],
            relationships: [KnowledgeRelationship(kind: .contradicts, targetID: a.id)]))
      }
    },
    BoundCase(
      tool: "code_analyze", arguments: ["code": .string((0..<60).map { "let x\($0) = y\($0)!\n" }.joined())],
      field: "findings", noun: "findings",
      remedy: "structuredContent.counts counts each rule's findings; analyze a smaller part of the code for the rest", bound: 8_000
    ) { _ in },
  ]

  static func run(_ engine: KnowledgeEngine, _ tool: String, _ arguments: JSONValue, bound: ToolOutputBound? = nil) async throws
    -> ToolOutput
  {
    let r = await ToolExecutor(engine: engine).execute(
      ToolCall(id: tool, name: tool, arguments: arguments), approver: StaticApprovalPolicy.allow, outputBound: bound)
    return try #require(r.output, "\(String(describing: r.error)) \(r.failureMessage ?? "")")
  }

  @Test("each listing tool over the bound keeps its first records whole, counts the rest and says how to get them", arguments: cases)
  func everyListingTool(_ c: BoundCase) async throws {
    let engine = makeEngine()
    try c.seed(engine)
    let full = try await Self.run(engine, c.tool, c.arguments)
    let entries = try #require(full.structured[c.field]?.array)
    #expect(full.byteCount > c.bound, "the case must be over its bound: \(full.byteCount)")
    let cut = try await Self.run(engine, c.tool, c.arguments, bound: ToolOutputBound(bytes: c.bound, statedBytes: 4_194_304))
    #expect(cut.byteCount <= c.bound)
    let kept = try #require(cut.structured[c.field]?.array)
    #expect(kept.count > 0 && kept.count < entries.count, "kept \(kept.count) of \(entries.count)")
    // Whole records, the first ones, as the uncut output has them.
    #expect(kept == Array(entries.prefix(kept.count)))
    #expect(cut.structured["omittedForSize"] == .integer(entries.count - kept.count))
    #expect(cut.structured["truncated"] == .bool(true))
    if full.structured["count"] != nil { #expect(cut.structured["count"] == .integer(kept.count)) }
    try BoundedListingToolsTests.expectConforms(cut.structured, to: c.tool)
    #expect(cut.text.count <= Limits.renderedToolOutput)
    let last = try #require(cut.text.split(separator: "\n").last.map(String.init))
    #expect(
      last == "\(entries.count - kept.count) more of the \(entries.count) \(c.noun) listed were left out of this response, whole, "
        + "to keep it within 4194304 bytes (structuredContent.omittedForSize counts them); "
        + c.remedy.replacingOccurrences(of: "KEPT", with: "\(kept.count)") + ".",
      "\(cut.text)")
    #expect(cut.text.contains("cut to fit the response's byte bound (see the last line)"), "\(cut.text.prefix(300))")
    // The text names no record that the structured output left out.
    for entry in entries.dropFirst(kept.count) {
      let id = entry["id"]?.string ?? entry["task"]?["id"]?.string
      if let id { #expect(!cut.text.contains(id), "\(id) was left out but is shown") }
    }
  }

  @Test("task_list pages with offset: the pages of a cut listing add up to the whole listing, in order")
  func taskListPages() async throws {
    let engine = makeEngine()
    for n in 1...12 { _ = try engine.addTask(title: "Task \(n)", notes: Self.filler + Self.filler) }
    let all = try #require(try await Self.run(engine, "task_list", ["limit": 12]).structured["tasks"]?.array)
    var pages: [JSONValue] = []
    var offset = 0
    while offset < all.count {
      let page = try await Self.run(
        engine, "task_list", ["limit": 12, "offset": .integer(offset)], bound: ToolOutputBound(bytes: 8_000, statedBytes: 8_000))
      let tasks = try #require(page.structured["tasks"]?.array)
      #expect(page.structured["offset"] == .integer(offset))
      try #require(!tasks.isEmpty)
      pages += tasks
      offset += tasks.count
      // A page the byte bound cut says where the next one starts; the last says none does.
      #expect(page.structured["truncated"] == .bool(offset < all.count))
      #expect(page.structured["nextOffset"] == (offset < all.count ? .integer(offset) : nil))
    }
    #expect(pages == all)
  }

  @Test("task_list and handoff_list with an offset past the last record list none and say so")
  func offsetPastTheEnd() async throws {
    let engine = makeEngine()
    for n in 1...3 { _ = try engine.addTask(title: "Task \(n)") }
    _ = try engine.createHandoff(HandoffRequest(focus: "Ship"))
    let tasks = try await Self.run(engine, "task_list", ["offset": 5])
    #expect(tasks.text == "0 of 3 task(s); offset 5 is past the last of them")
    // Nothing comes after an offset past the end (review 23-a, 3: this said truncated: true).
    #expect(tasks.structured["tasks"] == .array([]) && tasks.structured["truncated"] == .bool(false))
    #expect(tasks.structured["nextOffset"] == nil)
    let middle = try await Self.run(engine, "task_list", ["offset": 1, "limit": 1])
    #expect(middle.text.hasPrefix("1 of 3 task(s), after the first 1, cut by the limit of 1 (limit takes up to 5000)\n- [ ] \"Task 2\""))
    let handoffs = try await Self.run(engine, "handoff_list", ["offset": 1])
    #expect(handoffs.text == "0 of 1 handoff(s), newest first; offset 1 is past the last of them; active: none")
    try BoundedListingToolsTests.expectConforms(handoffs.structured, to: "handoff_list")
  }
}
