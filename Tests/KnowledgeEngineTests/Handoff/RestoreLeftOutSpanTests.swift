import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Review 28-d, 6: the restore brief keeps the latest 10 knowledge items and tasks since the
/// handoff and pointed to `knowledge list` / `task list --status all` for the others, whose
/// first 50 need not hold them. The brief now carries, for each, the page of that listing that
/// holds every one left out.
@Suite("Restore brief: the listing page that holds what the brief leaves out")
struct RestoreLeftOutSpanTests {
  static func restored() throws -> (KnowledgeEngine, HandoffBrief, ScatteredSinceFixture) {
    let store = SQLiteWorkspaceStore.inMemory()
    let now = Date()
    let fixture = try store.write { tx in try ScatteredSinceFixture.insert(into: tx, now: now) }
    let engine = KnowledgeEngine(store: store, environment: Environment(now: { now }, makeID: { UUID() }))
    return (engine, try engine.restoreHandoff(id: fixture.handoffID), fixture)
  }

  @Test("tasks: the span of task list order holds every task left out, starting and ending with one")
  func tasksSpan() throws {
    let (engine, brief, fixture) = try Self.restored()
    #expect(brief.tasksSinceTotal == 31 && brief.tasksSince.count == 10)
    let leftOut = fixture.tasksChangedSince.subtracting(brief.tasksSince.map(\.id))
    #expect(leftOut.count == 21)
    let span = try #require(brief.tasksSinceLeftOut)
    let page = try engine.taskListing(status: nil, limit: span.limit, offset: span.offset).tasks
    #expect(page.count == span.limit)
    #expect(leftOut.isSubset(of: page.map(\.id)), "\(span)")
    // Tight: the page starts and ends with a task left out, after the four critical ones.
    #expect(span.offset == 4, "\(span)")
    #expect(leftOut.contains(page[0].id) && leftOut.contains(page[page.count - 1].id))
    // The span is positions of the whole listing, as `--limit span.end` lists them from the start.
    let all = try engine.taskListing(status: nil, limit: Limits.tasks).tasks.map(\.id)
    #expect(Set(all[span.offset..<span.end]) == Set(page.map(\.id)))
  }

  @Test("knowledge: the span of knowledge list order holds every item left out, starting and ending with one")
  func knowledgeSpan() throws {
    let (engine, brief, fixture) = try Self.restored()
    #expect(brief.capturedSinceTotal == 25 && brief.capturedSince.count == 10)
    let leftOut = fixture.knowledgeCapturedSince.subtracting(brief.capturedSince.map(\.id))
    #expect(leftOut.count == 15)
    let span = try #require(brief.capturedSinceLeftOut)
    let page = try engine.knowledgeListing(limit: span.limit, offset: span.offset).items
    #expect(page.count == span.limit)
    #expect(leftOut.isSubset(of: page.map(\.id)), "\(span)")
    #expect(leftOut.contains(page[0].id) && leftOut.contains(page[page.count - 1].id))
    // The item edited last of all is first (position 1); the last left out is the 26th.
    #expect(span == ListingSpan(offset: 0, limit: 26), "\(span)")
    // `--limit offset+limit` from the start holds them too, as the CLI says.
    let fromStart = try engine.knowledgeListing(limit: span.end).items.map(\.id)
    #expect(leftOut.isSubset(of: fromStart))
  }

  @Test("nothing left out: no span, and no extra scan")
  func noneLeftOut() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let h = try engine.createHandoff(HandoffRequest(focus: "Small session")).handoff
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "One finding"))
    _ = try engine.addTask(title: "One task")
    let brief = try engine.restoreHandoff(id: h.id)
    #expect(brief.capturedSinceTotal == 1 && brief.tasksSinceTotal == 1)
    #expect(brief.capturedSinceLeftOut == nil && brief.tasksSinceLeftOut == nil)
  }

  @Test("a paged knowledge listing: offset skips in list order, and nextOffset follows the page")
  func knowledgeListingOffset() throws {
    let (engine, _, _) = try Self.restored()
    let all = try engine.knowledgeListing().items.map(\.id)
    let page = try engine.knowledgeListing(limit: 7, offset: 10)
    #expect(page.items.map(\.id) == Array(all[10..<17]))
    #expect(page.total == 30 && page.isTruncated && page.nextOffset == 17)
    let last = try engine.knowledgeListing(limit: 50, offset: 25)
    #expect(last.items.count == 5 && !last.isTruncated && last.nextOffset == nil)
  }
}
