import Foundation
#if canImport(Glibc)
  import Glibc
#endif
@testable import KnowledgeEngine
import Testing
import TestSupport

/// Opt-in timing of the digest and the insight rules on a 10,000-item workspace.
///
/// Run in a release build with a JSON-lines file of `{"title", "content", "tags"}` items (for
/// example the first 10,000 items of `shared/bench/synth.py`):
///
///     DOLPHIN_TIMING_ITEMS=/path/synth10k.jsonl swift test -c release --filter ContinuityTimingTests
///
/// It prints the timings; it asserts only that the work completes. Benchmarks proper live in
/// `Benchmarks/`.
@Suite("continuity timing (opt-in)")
struct ContinuityTimingTests {
  struct Row: Decodable {
    var title: String
    var content: String
    var tags: [String]
  }

  @Test(
    "digest and insights on 10,000 items",
    .enabled(if: ProcessInfo.processInfo.environment["DOLPHIN_TIMING_ITEMS"] != nil))
  func timing() throws {
    let path = try #require(ProcessInfo.processInfo.environment["DOLPHIN_TIMING_ITEMS"])
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").prefix(10_000)
    let rows = try lines.map { try JSONDecoder().decode(Row.self, from: Data($0.utf8)) }
    let dir = TemporaryDirectory("timing")
    defer { if ProcessInfo.processInfo.environment["DOLPHIN_TIMING_KEEP"] == nil { dir.remove() } else { print("kept \(dir.path)") } }
    let kinds = KnowledgeKind.allCases
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    do {
      let store = try SQLiteWorkspaceStore.open(directory: dir.url)
      try store.write { tx in
        var ids: [UUID] = []
        for (i, r) in rows.enumerated() {
          let id = sequentialID(i + 1)
          let priority: Priority = i % 37 == 0 ? .critical : i % 11 == 0 ? .high : i % 5 == 0 ? .low : .normal
          let rel = i % 10 == 9 ? [KnowledgeRelationship(kind: i % 20 == 19 ? .contradicts : .supports, targetID: ids[i - 1])] : []
          try tx.insertKnowledge(
            KnowledgeItem(
              id: id, kind: kinds[i % kinds.count], title: String(r.title.prefix(Limits.title)), content: r.content,
              tags: Limits.normalizeTags(r.tags), relationships: rel, priority: priority,
              createdAt: start.addingTimeInterval(Double(i))))
          ids.append(id)
        }
        for t in 0..<500 {
          try tx.insertTask(
            TaskItem(
              id: sequentialID(100_000 + t), title: "Task \(t): follow up on \(rows[t * 7].title.prefix(60))",
              status: t % 3 == 0 ? .completed : .open, priority: t % 9 == 0 ? .high : .normal,
              createdAt: start.addingTimeInterval(Double(t)), knowledgeIDs: t % 2 == 0 ? [ids[t * 3]] : []))
        }
        let h = Handoff(id: sequentialID(200_000), focus: "Timing", knowledgeIDs: [ids[0]], createdAt: start.addingTimeInterval(5_000))
        try tx.insertHandoff(h)
        try tx.setActiveHandoffID(h.id)
      }
    }
    // Fold the WAL back into the database, as SQLite's automatic checkpoints would.
    try SQLiteWorkspaceStore.open(directory: dir.url).checkpoint()
    // A fresh connection, as a new CLI process would open it.
    let store = try SQLiteWorkspaceStore.open(directory: dir.url)
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment(start: start.addingTimeInterval(20_000)))
    func cpu() -> Double {
      var ts = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
      return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
    }
    func measure<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
      var times: [Double] = []
      var cpuTimes: [Double] = []
      var last: T?
      for _ in 0..<7 {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let c0 = cpu()
        last = try body()
        cpuTimes.append(cpu() - c0)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
      }
      let sorted = times.sorted(), cpus = cpuTimes.sorted()
      func f(_ x: Double) -> String { String(format: "%.1f", x) }
      print("\(label): wall first \(f(times[0])) ms, median \(f(sorted[sorted.count / 2])) ms, min \(f(sorted[0])) ms; CPU median \(f(cpus[cpus.count / 2])) ms, min \(f(cpus[0])) ms")
      return last!
    }
    try store.read { tx in
      var titles = TrigramSets()
      var include: [Bool] = []
      _ = measure("scan + title trigram sets") { () -> Int in
        titles = TrigramSets()
        include = []
        try? tx.forEachKnowledgeHeader(createdAfter: start.addingTimeInterval(5_000), detailKinds: [.decision, .preference], contentPrefix: 100) { h in
          titles.append(h.title)
          include.append(h.kind == .decision || h.kind == .preference)
        }
        return titles.count
      }
      _ = measure("scan only") { () -> Int in
        var n = 0
        try? tx.forEachKnowledgeHeader(createdAfter: start.addingTimeInterval(5_000), detailKinds: [.decision, .preference], contentPrefix: 100) { _ in n += 1 }
        return n
      }
      let dup = measure("near-duplicate title join") { titles.join(threshold: 0.8, maximumGeneratorFrequency: 256) }
      var subset = TrigramSets()
      try? tx.forEachKnowledgeHeader(detailKinds: []) { h in if h.kind == .decision || h.kind == .preference { subset.append(h.title) } }
      let conflict = measure("conflict title join") { subset.similarPairs(threshold: 0.5, maximumGeneratorFrequency: 32) }
      print("  pairs: near-duplicate \(dup.expandedPairs.count), conflict \(conflict.count), tokens \(titles.tokens.count)")
    }
    let context = measure("digest (projectContext) at \(rows.count) items") { try? engine.projectContext() }
    let report = measure("insights at \(rows.count) items") { try? engine.insights() }
    _ = measure("review at \(rows.count) items") { try? engine.review() }
    #expect(context?.sections.decisions.isEmpty == false)
    #expect(report?.insights.isEmpty == false)
    for i in report?.insights ?? [] { print("  [\(i.priority.rawValue)] \(i.rule.rawValue) \(i.evidenceIDs.count) ids: \(i.message.prefix(120))") }
    print("  insights total \(report?.total ?? 0)")
  }
}
