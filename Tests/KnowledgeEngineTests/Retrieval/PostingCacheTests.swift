import Foundation
import TestSupport
import Testing

@testable import KnowledgeEngine

/// The warm posting cache: used while the database is unchanged, dropped on any change, from
/// this engine, another engine on the same store, or another connection to the same file.
struct PostingCacheTests {
  static func engine(_ store: SQLiteWorkspaceStore = .inMemory()) throws -> KnowledgeEngine {
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    _ = try engine.captureBulk([
      CaptureRequest(kind: .decision, title: "Use SQLite", content: "WAL mode for the workspace"),
      CaptureRequest(kind: .fact, title: "SQLite is embedded", content: "no server process"),
      CaptureRequest(kind: .goal, title: "Ship search", content: "lexical search over knowledge"),
    ])
    return engine
  }

  @Test("A repeated search reads its posting lists from the cache and answers the same")
  func repeatedSearchHits() throws {
    // Two words that are no compound (`wal` is too short a part), so two posting lists.
    let engine = try Self.engine()
    let first = try engine.search("sqlite wal")
    let afterFirst = engine.postingCache.statistics
    #expect(afterFirst.misses == 2)
    #expect(afterFirst.hits == 0)
    #expect(try engine.search("sqlite wal") == first)
    let afterSecond = engine.postingCache.statistics
    #expect(afterSecond.misses == 2)
    #expect(afterSecond.hits == 2)
  }

  @Test("A term found absent is cached as an empty list, and dropped like any list on a change")
  func absentTermCached() throws {
    let engine = try Self.engine()
    // `workspace` may be written open, `work space` or `works pace`: `work` and `works` are in
    // no note, so they are asked about once and then answered from the cache.
    _ = try engine.search("workspace")
    #expect(engine.postingCache.cachedCount(for: "work") == 0)
    #expect(engine.postingCache.cachedCount(for: "works") == 0)
    let afterFirst = engine.postingCache.statistics
    _ = try engine.search("workspace")
    #expect(engine.postingCache.statistics.lists == afterFirst.lists)
    #expect(engine.postingCache.statistics.misses == afterFirst.misses)
    // After a capture that holds the split, the next search drops the cache (its change stamp
    // differs) and finds it.
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "Work space plan")).item
    let response = try engine.search("workspace")
    #expect(response.results.map(\.id).contains(item.id))
    #expect(response.terms.first?.compounds == ["work space"])
  }

  @Test("A capture through the same engine is found at once")
  func captureInvalidates() throws {
    let engine = try Self.engine()
    #expect(try engine.search("sqlite keystone").total == 2)
    let item = try engine.capture(CaptureRequest(kind: .fact, title: "Keystone SQLite notes")).item
    let response = try engine.search("sqlite keystone")
    #expect(response.total == 3)
    #expect(response.results.first?.id == item.id)
  }

  @Test("A deletion is seen at once")
  func deletionInvalidates() throws {
    let engine = try Self.engine()
    let target = try #require(try engine.search("embedded").results.first)
    _ = try engine.apply(try engine.planDeletion(of: .knowledge(target.id)))
    #expect(try engine.search("embedded").results.isEmpty)
    #expect(try engine.search("sqlite").total == 1)
  }

  @Test("A write by another engine on the same store is seen")
  func otherEngineSameStore() throws {
    let engine = try Self.engine()
    let other = KnowledgeEngine(store: engine.store)
    #expect(try engine.search("sqlite").total == 2)
    _ = try other.capture(CaptureRequest(kind: .fact, title: "SQLite 3.40 is installed"))
    #expect(try engine.search("sqlite").total == 3)
    _ = try other.rebuildSearchIndex()
    #expect(try engine.search("sqlite").total == 3)
  }

  @Test("A commit by another connection to the same file is seen (PRAGMA data_version)")
  func otherConnection() throws {
    let directory = TemporaryDirectory("posting-cache")
    defer { directory.remove() }
    let engine = try Self.engine(try SQLiteWorkspaceStore.open(directory: directory.url))
    let other = KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: directory.url))
    #expect(try engine.search("sqlite").total == 2)
    let hitsBefore = engine.postingCache.statistics.hits
    #expect(try engine.search("sqlite").total == 2)
    #expect(engine.postingCache.statistics.hits == hitsBefore + 1)

    let added = try other.capture(CaptureRequest(kind: .fact, title: "SQLite from another process")).item
    let response = try engine.search("sqlite")
    #expect(response.total == 3)
    #expect(response.results.contains { $0.id == added.id })

    _ = try other.apply(try other.planDeletion(of: .knowledge(added.id)))
    #expect(try engine.search("sqlite").total == 2)
  }

  @Test("Document frequencies kept without lists are bounded: past the capacity they are dropped")
  func frequenciesBounded() {
    let cache = PostingCache()
    cache.validate(ChangeStamp(localChanges: 1, dataVersion: 1))
    for i in 0..<PostingCache.frequencyCapacity { cache.insertFrequency(i + 1, for: "term\(i)") }
    #expect(cache.cachedCount(for: "term0") == 1)
    #expect(cache.cachedCount(for: "term\(PostingCache.frequencyCapacity - 1)") == PostingCache.frequencyCapacity)
    // One more: the full table is dropped, then the new one kept.
    cache.insertFrequency(7, for: "one more")
    #expect(cache.cachedCount(for: "term0") == nil)
    #expect(cache.cachedCount(for: "one more") == 7)
    // The same database state keeps them; a change drops them.
    cache.validate(ChangeStamp(localChanges: 1, dataVersion: 1))
    #expect(cache.cachedCount(for: "one more") == 7)
    cache.validate(ChangeStamp(localChanges: 2, dataVersion: 1))
    #expect(cache.cachedCount(for: "one more") == nil)
  }

  @Test("The cache keeps at most its capacity, dropping the least recently used list")
  func bounded() {
    func list(_ documents: Int) -> PostingList {
      var list = PostingList()
      for d in 0..<documents {
        list.append(
          document: Int64(d + 1), kind: 0, termFrequencies: FieldCounts(title: 1, tags: 0, content: 0),
          fieldLengths: FieldCounts(title: 3, tags: 0, content: 0), positions: UnsafeRawBufferPointer(start: nil, count: 0))
      }
      return list
    }
    let cache = PostingCache(capacityBytes: 1_000)
    cache.validate(ChangeStamp(localChanges: 1, dataVersion: 1))
    cache.insert(list(10), for: "a")  // 370 + 1 bytes
    cache.insert(list(10), for: "b")
    #expect(cache.list(for: "a") != nil)  // now "b" is the least recently used
    cache.insert(list(10), for: "c")
    #expect(cache.statistics.bytes <= 1_000)
    #expect(cache.list(for: "b") == nil)
    #expect(cache.list(for: "a") == list(10))
    #expect(cache.list(for: "c") == list(10))
    cache.insert(list(100), for: "huge")  // larger than the capacity: never kept
    #expect(cache.list(for: "huge") == nil)
    cache.validate(ChangeStamp(localChanges: 2, dataVersion: 1))
    #expect(cache.statistics.lists == 0)
  }
}
