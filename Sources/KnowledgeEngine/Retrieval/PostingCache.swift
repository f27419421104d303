import ContinuityKit
import Synchronization

/// Posting lists read by recent searches, kept in memory while the database is unchanged, so
/// a warm process does not read a frequent term's postings from SQLite on every query.
///
/// **Correctness first.** Every search reads the transaction's ``ChangeStamp`` before anything
/// else and hands it to ``validate(_:)``; when it differs from the stamp the cached lists were
/// read under, the whole cache is dropped. The stamp changes on any row change made through
/// the store's connection (captures, deletions, imports, erase, rebuild) and on any commit by
/// another connection or process (`PRAGMA data_version`), so a cached list is only ever used
/// while the database holds exactly what it was read from.
///
/// **Bounds.** At most ``capacityBytes`` (by ``PostingList/byteCount``); the least recently
/// used lists are dropped first, and a list larger than the capacity is never kept.
final class PostingCache: Sendable {
  private struct Entry {
    var list: PostingList
    var lastUse: UInt64
  }

  private struct State {
    var stamp: ChangeStamp?
    var entries: [String: Entry] = [:]
    var bytes = 0
    var clock: UInt64 = 0
    var hits = 0
    var misses = 0
    /// Document frequencies asked for without their lists (compound splits ask about many
    /// parts), under the same stamp.
    var frequencies: [String: Int] = [:]
  }

  /// The most bytes of posting lists kept.
  let capacityBytes: Int
  private let state = Mutex(State())

  /// The default bound: 32 MiB, about 850,000 postings.
  static let defaultCapacityBytes = 32 << 20

  init(capacityBytes: Int = PostingCache.defaultCapacityBytes) {
    self.capacityBytes = max(0, capacityBytes)
  }

  /// Drops every list unless `stamp` is the stamp they were read under.
  func validate(_ stamp: ChangeStamp) {
    state.withLock { state in
      guard state.stamp != stamp else { return }
      state.stamp = stamp
      state.entries.removeAll()
      state.frequencies.removeAll()
      state.bytes = 0
    }
  }

  /// The cached list of `term`, if any.
  func list(for term: String) -> PostingList? {
    state.withLock { state in
      state.clock += 1
      guard var entry = state.entries[term] else {
        state.misses += 1
        return nil
      }
      state.hits += 1
      entry.lastUse = state.clock
      state.entries[term] = entry
      return entry.list
    }
  }

  /// The document frequency of `term` if known: the length of its cached list, or a frequency
  /// kept by ``insertFrequency(_:for:)``; not counted as a hit or a miss.
  func cachedCount(for term: String) -> Int? {
    state.withLock { state in
      guard var entry = state.entries[term] else { return state.frequencies[term] }
      state.clock += 1
      entry.lastUse = state.clock
      state.entries[term] = entry
      return entry.list.count
    }
  }

  /// The most document frequencies kept without their lists; past it they are all dropped.
  static let frequencyCapacity = 1 << 16

  /// Keeps `frequency` as the document frequency of `term`, read under the stamp last
  /// validated.
  func insertFrequency(_ frequency: Int, for term: String) {
    state.withLock { state in
      if state.frequencies.count >= Self.frequencyCapacity { state.frequencies.removeAll() }
      state.frequencies[term] = frequency
    }
  }

  /// Keeps `list` for `term`, read under the stamp last validated; drops the least recently
  /// used lists while over the capacity.
  func insert(_ list: PostingList, for term: String) {
    let size = list.byteCount + term.utf8.count
    guard size <= capacityBytes else { return }
    state.withLock { state in
      state.clock += 1
      if let old = state.entries.updateValue(Entry(list: list, lastUse: state.clock), forKey: term)
      {
        state.bytes -= old.list.byteCount + term.utf8.count
      }
      state.bytes += size
      guard state.bytes > capacityBytes else { return }
      let byAge = state.entries.sorted { $0.value.lastUse < $1.value.lastUse }
      for (key, entry) in byAge where state.bytes > capacityBytes && key != term {
        state.entries[key] = nil
        state.bytes -= entry.list.byteCount + key.utf8.count
      }
    }
  }

  /// Counters for tests and benchmarks.
  var statistics: (hits: Int, misses: Int, lists: Int, bytes: Int) {
    state.withLock { ($0.hits, $0.misses, $0.entries.count, $0.bytes) }
  }
}

/// A reader that serves posting lists from a ``PostingCache`` and reads the rest from `base`.
struct CachedLexicalIndex<Base: PostingListReader>: PostingListReader {
  let base: Base
  let cache: PostingCache

  func postingList(for term: String) throws -> PostingList {
    if let cached = cache.list(for: term) { return cached }
    let list = try base.postingList(for: term)
    cache.insert(list, for: term)
    return list
  }

  func statistics() throws -> IndexStatistics { try base.statistics() }
  func postings(for term: String) throws -> [Posting] { try base.postings(for: term) }
  /// From the cache when known; a term found absent is cached as an empty list, and any other
  /// frequency is kept too, so a warm process asks SQLite about a term once per database state
  /// (compound splits ask about many terms).
  func documentFrequency(of term: String) throws -> Int {
    if let count = cache.cachedCount(for: term) { return count }
    let frequency = try base.documentFrequency(of: term)
    if frequency == 0 {
      cache.insert(PostingList(), for: term)
    } else {
      cache.insertFrequency(frequency, for: term)
    }
    return frequency
  }
  /// From the base in one batch; not cached (typo candidates are mostly absent terms, asked
  /// once).
  func documentFrequencies(of terms: [String]) throws -> [String: Int] {
    try base.documentFrequencies(of: terms)
  }
  func vocabularyTerms(sharingTrigrams trigrams: [String], minimumShared: Int, limit: Int) throws
    -> [String]
  {
    try base.vocabularyTerms(sharingTrigrams: trigrams, minimumShared: minimumShared, limit: limit)
  }
  func vocabularyTerms(withPrefix prefix: String, limit: Int) throws -> [String] {
    try base.vocabularyTerms(withPrefix: prefix, limit: limit)
  }
  func documents(_ keys: [Int64]) throws -> [Int64: IndexedDocument] { try base.documents(keys) }
}
