import ContinuityKit
import Foundation
import KnowledgeEngine
import SynthCorpus

/// `dolphin-bench foundation`: end-to-end CLI latency and memory on large workspaces (issue 2),
/// against the `sqlite3` shell doing the same single-row insert (the anchor), in the same run.
struct FoundationBench: BenchCommand {
  static let name = "foundation"
  static let abstract = "Time `dolphin capture|knowledge get|status` end to end on 10k/100k-item workspaces."
  static var help: String {
    """
    USAGE: dolphin-bench foundation [--sizes N,N] [--runs N] [--dolphin PATH] [--out FILE] [--corpus PATH]

    Builds each workspace with synth.py's items through the bulk path (item limit raised by the
    knowledgeItemLimit setting), then runs the release `dolphin` binary as separate processes:
    capture, knowledge get and status, each --runs times (p50/p95 wall ms), then five more runs
    each through /usr/bin/time for peak RSS (the last capture stores the automatic digest),
    and the same single-row INSERT through the sqlite3 shell as the anchor.
    Build first: swift build -c release --product dolphin

    OPTIONS:
      --sizes LIST   workspace sizes (default 10000,100000)
      --runs N       runs per measurement (default 50)
      --dolphin PATH the binary (default \(BenchPaths.repositoryRoot.path)/.build/release/dolphin)
      --out FILE     JSON results (default bench-results/foundation.json)
      --keep DIR     build the workspaces under DIR and keep them (default: a temporary
                     directory, removed afterwards)
    """
  }

  var sizes = [10_000, 100_000]
  var runs = 50
  var dolphin = BenchPaths.repositoryRoot.appendingPathComponent(".build/release/dolphin").path
  var out = "bench-results/foundation.json"
  var corpus = BenchPaths.scifactCorpus
  var keep: String?

  init(parsing a: inout ArgumentReader) throws {
    if let s = try a.option("--sizes") { sizes = s.split(separator: ",").compactMap { Int($0) } }
    if let r = try a.option("--runs") {
      guard let n = Int(r), n > 0 else { throw UsageError(message: "--runs must be a positive integer, got '\(r)'") }
      runs = n
    }
    if let d = try a.option("--dolphin") { dolphin = d }
    if let o = try a.option("--out") { out = o }
    if let c = try a.option("--corpus") { corpus = c }
    keep = try a.option("--keep")
  }

  func validate() throws {
    guard FileManager.default.isExecutableFile(atPath: dolphin) else {
      throw UsageError(message: "no dolphin binary at \(dolphin); run `swift build -c release --product dolphin` first")
    }
    guard sizes.allSatisfy({ $0 > runs + Self.memoryProbes && $0 <= Limits.knowledgeItemsMaximum }) else {
      throw UsageError(message: "--sizes must each be in \(runs + Self.memoryProbes + 1)…\(Limits.knowledgeItemsMaximum)")
    }
  }

  struct Row: Encodable {
    var items: Int
    var bulkImportSeconds: Double
    var databaseBytes: Int
    var capture: Stat
    var get: Stat
    var status: Stat
    var sqlite3Insert: Stat
    var captureToAnchorRatio: Double
  }

  /// RSS probes per command (five, so the last capture probe stores the automatic digest).
  static let memoryProbes = 5

  struct Stat: Encodable {
    var p50Milliseconds: Double
    var p95Milliseconds: Double
    /// The largest peak RSS of the probes that succeeded, from `/usr/bin/time`.
    var maxRSSMegabytes: Double
    /// Timed runs and RSS probes that exited non-zero (or whose RSS could not be read).
    var failures: Int

    init(_ samples: [ProcessSample], rss: [Int?]) {
      let ms = samples.map(\.milliseconds)
      p50Milliseconds = percentile(ms, 50)
      p95Milliseconds = percentile(ms, 95)
      maxRSSMegabytes = Double(rss.compactMap { $0 }.max() ?? 0) / 1024
      failures = samples.filter { $0.status != 0 }.count + rss.filter { $0 == nil }.count
    }
  }

  func run() throws {
    let source = try SynthSource(corpusPath: corpus)
    let largest = sizes.max() ?? 0
    let synth = synthItems(source, count: largest)
    var rows: [Row] = []
    for size in sizes {
      let parent = keep.map { URL(fileURLWithPath: $0) } ?? URL(fileURLWithPath: NSTemporaryDirectory())
      let dir = parent.appendingPathComponent("dolphin-bench-\(size)-\(UUID().uuidString)")
      defer {
        if keep == nil { try? FileManager.default.removeItem(at: dir) } else { print("kept \(dir.path)") }
      }
      let store = try SQLiteWorkspaceStore.open(directory: dir)
      try store.write { tx in try tx.setSettings(Settings(knowledgeItemLimit: Limits.knowledgeItemsMaximum)) }
      let engine = KnowledgeEngine(store: store)
      // Leave room for the timed captures and the memory probes, so the last probe lands exactly
      // at `size` (a multiple of five, so it also stores the automatic digest: the worst case).
      let base = size - runs - Self.memoryProbes
      let kinds = KnowledgeKind.allCases
      let requests = synth.prefix(base).enumerated().map { i, it in
        CaptureRequest(kind: kinds[i % kinds.count], title: it.title, content: it.content, tags: it.tags)
      }
      let t0 = DispatchTime.now().uptimeNanoseconds
      let stored = try engine.captureBulk(requests).items
      let bulk = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
      try store.checkpoint()
      let ws = dir.path
      var capture: [ProcessSample] = []
      for i in 0..<runs {
        capture.append(ProcessTimer.run(dolphin, ["capture", "fact", "Bench capture \(i)", "--content", "Measured end to end: process start, open, insert, commit.", "--tags", "bench", "--workspace", ws]))
      }
      var get: [ProcessSample] = []
      for i in 0..<runs {
        get.append(ProcessTimer.run(dolphin, ["knowledge", "get", stored[(i * 7919) % stored.count].id.uuidString, "--workspace", ws]))
      }
      var status: [ProcessSample] = []
      for _ in 0..<runs { status.append(ProcessTimer.run(dolphin, ["status", "--workspace", ws])) }
      // Peak RSS of each command alone, through /usr/bin/time (see ProcessTimer.peakRSSKilobytes:
      // wait4's figure for a posix_spawn child starts at this large process's high-water mark).
      // A failed probe is a failure, never replaced by another figure.
      let captureRSS = (0..<Self.memoryProbes).map { i in
        ProcessTimer.peakRSSKilobytes(dolphin, ["capture", "fact", "RSS probe \(i)", "--content", "Peak memory of one capture.", "--tags", "bench", "--workspace", ws])
      }
      let getRSS = (0..<Self.memoryProbes).map { i in
        ProcessTimer.peakRSSKilobytes(dolphin, ["knowledge", "get", stored[(i * 104_729) % stored.count].id.uuidString, "--workspace", ws])
      }
      let statusRSS = (0..<Self.memoryProbes).map { _ in ProcessTimer.peakRSSKilobytes(dolphin, ["status", "--workspace", ws]) }
      // Anchor: the same single-row insert through the sqlite3 shell on a copy of the database.
      try store.checkpoint()
      let db = dir.appendingPathComponent("workspace.sqlite").path
      let anchorDB = dir.appendingPathComponent("anchor.sqlite").path
      try FileManager.default.copyItem(atPath: db, toPath: anchorDB)
      func anchorArguments(_ i: Int) -> [String] {
        let sql = "PRAGMA busy_timeout=15000; PRAGMA journal_mode=WAL; INSERT INTO knowledge(id, kind, title, content, source, tags, priority, created_at, updated_at, revision) VALUES ('anchor-\(i)', 'fact', 'Bench capture \(i)', 'Measured end to end: process start, open, insert, commit.', 'user', '[\"bench\"]', 'normal', '2026-11-29T00:00:00.000Z', '2026-11-29T00:00:00.000Z', 1);"
        return [anchorDB, sql]
      }
      var anchor: [ProcessSample] = []
      for i in 0..<runs { anchor.append(ProcessTimer.run("/usr/bin/sqlite3", anchorArguments(i))) }
      let anchorRSS = (0..<Self.memoryProbes).map { ProcessTimer.peakRSSKilobytes("/usr/bin/sqlite3", anchorArguments(runs + $0)) }
      let bytes = (try? FileManager.default.attributesOfItem(atPath: db)[.size] as? Int) ?? 0
      let captureStat = Stat(capture, rss: captureRSS)
      let anchorStat = Stat(anchor, rss: anchorRSS)
      let row = Row(
        items: size, bulkImportSeconds: bulk, databaseBytes: bytes, capture: captureStat,
        get: Stat(get, rss: getRSS), status: Stat(status, rss: statusRSS), sqlite3Insert: anchorStat,
        captureToAnchorRatio: captureStat.p50Milliseconds / anchorStat.p50Milliseconds)
      rows.append(row)
      print(String(format: "items=%d bulk=%.1fs db=%.1fMB | capture p50 %.1f ms p95 %.1f ms rss %.1f MB | get p50 %.1f ms p95 %.1f ms rss %.1f MB | status p50 %.1f ms rss %.1f MB | sqlite3 insert p50 %.1f ms (capture/anchor %.2fx) | failures %d/%d/%d",
                   size, bulk, Double(row.databaseBytes) / 1e6, row.capture.p50Milliseconds, row.capture.p95Milliseconds, row.capture.maxRSSMegabytes,
                   row.get.p50Milliseconds, row.get.p95Milliseconds, row.get.maxRSSMegabytes, row.status.p50Milliseconds, row.status.maxRSSMegabytes, row.sqlite3Insert.p50Milliseconds,
                   row.captureToAnchorRatio, row.capture.failures, row.get.failures, row.status.failures))
    }
    struct Document: Encodable {
      var benchmark = "foundation"
      var date: String
      var sqlite: String
      var runs: Int
      var rows: [Row]
    }
    let doc = Document(date: ISO8601.string(from: Date()), sqlite: SQLiteWorkspaceStore.sqliteVersion, runs: runs, rows: rows)
    let url = URL(fileURLWithPath: out)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(StableJSON.string(doc, pretty: true).utf8).write(to: url)
    print("wrote \(out)")
  }
}
