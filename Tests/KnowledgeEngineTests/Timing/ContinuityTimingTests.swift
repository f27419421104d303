import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Opt-in timing of the digest, the insight rules and the review on a 10,000-item workspace.
///
/// Run in a release build with a JSON-lines file of `{"title", "content", "tags"}` items (for
/// example the first 10,000 items of `shared/bench/synth.py`):
///
///     DOLPHIN_TIMING_ITEMS=/path/synth10k.jsonl \
///       swift test -c release -Xswiftc -enable-testing --filter ContinuityTimingTests
///
/// It prints wall-clock and thread CPU times (first run, median and minimum of 7) and asserts
/// only that the work completes. Benchmarks proper live in `Benchmarks/`.
@Suite("continuity timing (opt-in)")
struct ContinuityTimingTests {
  struct Row: Decodable {
    var title: String
    var content: String
    var tags: [String]
  }

  static func cpuMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
  }

  /// Runs `body` 7 times and prints its timings.
  static func measure<T>(_ label: String, _ body: () throws -> T) throws -> T? {
    var wall: [Double] = []
    var cpu: [Double] = []
    var last: T?
    for _ in 0..<7 {
      let t0 = DispatchTime.now().uptimeNanoseconds
      let c0 = cpuMilliseconds()
      last = try body()
      cpu.append(cpuMilliseconds() - c0)
      wall.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
    }
    func f(_ x: Double) -> String { String(format: "%.1f", x) }
    let w = wall.sorted(), c = cpu.sorted()
    print(
      "\(label): wall first \(f(wall[0])) ms, median \(f(w[3])) ms, min \(f(w[0])) ms; "
        + "CPU median \(f(c[3])) ms, min \(f(c[0])) ms")
    return last
  }

  @Test(
    "digest, insights and review on 10,000 items",
    .enabled(if: ProcessInfo.processInfo.environment["DOLPHIN_TIMING_ITEMS"] != nil))
  func timing() throws {
    let path = try #require(ProcessInfo.processInfo.environment["DOLPHIN_TIMING_ITEMS"])
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").prefix(10_000)
    let rows = try lines.map { try JSONDecoder().decode(Row.self, from: Data($0.utf8)) }
    let dir = TemporaryDirectory("timing")
    defer { dir.remove() }
    let kinds = KnowledgeKind.allCases
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    // Kinds in turn; some high and critical items; every 10th item supports (every 20th
    // contradicts) the one before; 500 tasks, half citing an item; an active handoff older
    // than most items.
    try SQLiteWorkspaceStore.open(directory: dir.url).write { tx in
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
    // Fold the WAL back into the database, as SQLite's automatic checkpoints would, then open a
    // fresh connection, as a new CLI process would.
    try SQLiteWorkspaceStore.open(directory: dir.url).checkpoint()
    let store = try SQLiteWorkspaceStore.open(directory: dir.url)
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment(start: start.addingTimeInterval(20_000)))

    // Where the insight time goes.
    try store.read { tx in
      var scan = InsightRules.Scan()
      _ = try Self.measure("  insights: scan + title trigram sets") { () -> Int in
        scan = InsightRules.Scan()
        try tx.forEachKnowledgeHeader(createdAfter: start, detailKinds: [.decision, .preference], contentPrefix: 100) { h in
          scan.titles.append(h.title)
          scan.conflictEligible.append(h.kind == .decision || h.kind == .preference)
          scan.headers.append(h)
        }
        return scan.headers.count
      }
      _ = try Self.measure("  insights: near-duplicate title join") {
        scan.titles.join(threshold: 0.8, maximumGeneratorFrequency: 256).pairs.count
      }
      _ = try Self.measure("  insights: possible-conflict title join") {
        scan.titles.similarPairs(threshold: 0.5, maximumGeneratorFrequency: 32, include: scan.conflictEligible).count
      }
    }
    let context = try Self.measure("digest (projectContext) at \(rows.count) items") { try engine.projectContext() }
    let report = try Self.measure("insights at \(rows.count) items") { try engine.insights() }
    _ = try Self.measure("review at \(rows.count) items") { try engine.review() }
    #expect(context?.sections.decisions.isEmpty == false)
    #expect(report?.insights.isEmpty == false)
    print("  insights: \(report?.total ?? 0) fired; shown by rule: " + (report?.insights.map(\.rule.rawValue) ?? []).joined(separator: ", "))
  }
}
