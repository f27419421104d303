import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 23-a, finding 3: `truncated` was `count < total`, so `task_list {limit: 2}` over 3
/// tasks said `truncated: true` at offsets 2, 3 and 4 too, and a client paging
/// `while truncated: offset += count` asked for offset 3 forever. `truncated` now means "records
/// come after this page" (`offset + count < total`), and `nextOffset` says where the next
/// page starts.
@Suite("Paged listings: truncated and nextOffset")
struct ListingPagesTests {
  struct Page: CustomStringConvertible, Sendable {
    var offset: Int
    var count: Int
    var truncated: Bool
    var nextOffset: Int?
    var description: String { "offset \(offset)" }
  }

  /// The reviewer's pages: 3 records, pages of 2.
  static let pagesOfTwo = [
    Page(offset: 0, count: 2, truncated: true, nextOffset: 2),
    Page(offset: 2, count: 1, truncated: false, nextOffset: nil),
    Page(offset: 3, count: 0, truncated: false, nextOffset: nil),
    Page(offset: 4, count: 0, truncated: false, nextOffset: nil),
  ]

  static func expect(_ output: ToolOutput, _ page: Page, total: Int, tool: String) throws {
    let s = output.structured
    #expect(s["offset"] == .integer(page.offset), "\(tool) \(page)")
    #expect(s["count"] == .integer(page.count), "\(tool) \(page)")
    #expect(s["total"] == .integer(total), "\(tool) \(page)")
    #expect(s["truncated"] == .bool(page.truncated), "\(tool) \(page): \(s)")
    #expect(s["nextOffset"] == page.nextOffset.map { .integer($0) }, "\(tool) \(page): \(s)")
    try BoundedListingToolsTests.expectConforms(s, to: tool)
  }

  @Test("task_list over 3 tasks in pages of 2: truncated only on the first page, nextOffset 2 there", arguments: pagesOfTwo)
  func taskListPages(_ page: Page) async throws {
    let engine = makeEngine()
    for i in 1...3 { _ = try engine.addTask(title: "task \(i)") }
    let output = try await BoundedListingToolsTests.run(engine, "task_list", ["limit": 2, "offset": .integer(page.offset)])
    try Self.expect(output, page, total: 3, tool: "task_list")
    let listing = try engine.taskListing(limit: 2, offset: page.offset)
    #expect(listing.isTruncated == page.truncated && listing.nextOffset == page.nextOffset)
  }

  @Test("handoff_list over 3 handoffs in pages of 2: truncated only on the first page", arguments: pagesOfTwo)
  func handoffListPages(_ page: Page) async throws {
    let engine = makeEngine()
    for i in 1...3 { _ = try engine.createHandoff(HandoffRequest(focus: "handoff \(i)")) }
    let output = try await BoundedListingToolsTests.run(engine, "handoff_list", ["limit": 2, "offset": .integer(page.offset)])
    try Self.expect(output, page, total: 3, tool: "handoff_list")
    let list = try engine.listHandoffs(limit: 2, offset: page.offset)
    #expect(list.isTruncated == page.truncated && list.nextOffset == page.nextOffset)
  }

  @Test("handoff_list at offset 7 of 7: no record, not truncated (the reviewer's second case)")
  func handoffListPastTheEnd() async throws {
    let engine = makeEngine()
    for i in 1...7 { _ = try engine.createHandoff(HandoffRequest(focus: "handoff \(i)")) }
    let output = try await BoundedListingToolsTests.run(engine, "handoff_list", ["offset": 7])
    try Self.expect(output, Page(offset: 7, count: 0, truncated: false, nextOffset: nil), total: 7, tool: "handoff_list")
  }

  @Test("a client paging while truncated, from nextOffset, stops and has every record once, in order")
  func pagingLoopStops() async throws {
    let engine = makeEngine()
    for i in 1...7 { _ = try engine.addTask(title: "task \(i)") }
    for i in 1...5 { _ = try engine.createHandoff(HandoffRequest(focus: "handoff \(i)")) }
    for (tool, field, total) in [("task_list", "tasks", 7), ("handoff_list", "handoffs", 5)] {
      let all = try #require(try await BoundedListingToolsTests.run(engine, tool, ["limit": 50]).structured[field]?.array)
      var seen: [JSONValue] = []
      var offset = 0
      var calls = 0
      while true {
        calls += 1
        try #require(calls <= total, "\(tool) pages on past the last record")
        let page = try await BoundedListingToolsTests.run(engine, tool, ["limit": 2, "offset": .integer(offset)]).structured
        seen += page[field]?.array ?? []
        guard page["truncated"] == true else { break }
        offset = try #require(page["nextOffset"]?.int, "\(tool): truncated without nextOffset")
      }
      #expect(seen == all, "\(tool)")
      #expect(calls == (total + 1) / 2, "\(tool)")
    }
  }

  @Test("a listing without an offset (offset 0) keeps its meaning: truncated when the limit left some out")
  func firstPageOnly() throws {
    #expect(TaskListing(tasks: [], total: 0).isTruncated == false)
    let engine = makeEngine()
    for i in 1...3 { _ = try engine.addTask(title: "task \(i)") }
    #expect(try engine.taskListing(limit: 2).isTruncated)
    #expect(try engine.taskListing(limit: 3).isTruncated == false)
    #expect(try engine.taskListing(limit: 3).nextOffset == nil)
  }

  @Test("HandoffList encodes its offset and decodes one written without it as offset 0")
  func handoffListCoding() throws {
    let list = HandoffList(handoffs: [], total: 4, activeHandoffID: nil, offset: 4)
    let data = try JSONEncoder().encode(list)
    #expect(try JSONDecoder().decode(HandoffList.self, from: data) == list)
    let old = try JSONDecoder().decode(HandoffList.self, from: Data(#"{"handoffs":[],"total":2}"#.utf8))
    #expect(old.offset == 0 && old.total == 2)
  }
}
