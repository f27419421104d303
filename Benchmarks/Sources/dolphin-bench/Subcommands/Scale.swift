import ContinuityKit
import Foundation
import KnowledgeEngine
import SynthCorpus

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `dolphin-bench scale`: how search cost grows with the workspace — bulk index build, warm
/// in-process query latency, cold `dolphin search` and `dolphin capture` end to end, and peak
/// memory — on the synthetic knowledge items of `shared/bench/synth.py`.
struct Scale: BenchCommand {
  static let name = "scale"
  static let abstract =
    "Search latency, index build, cold CLI search and capture at 1k/10k/100k items."
  static var help: String {
    """
    USAGE: dolphin-bench scale [--sizes LIST] [--repeats N] [--cli-runs N] [--captures N]
                               [--dolphin PATH] [--out FILE] [--corpus FILE] [--data DIR]

    For each size: builds a fresh workspace from synth.py's first N items through the bulk
    capture path (one transaction, index included; the item limit raised to 100,000), then,
    with this process warm and the database open, times engine.search(query, limit: 10) for
    200 short queries (synth.py's short_queries) and 200 SciFact claims (the first 200 train
    queries with judgements, by numeric id): one warm-up pass, then --repeats passes, the
    per-query median kept (scale_fts5.py's protocol). Then it spawns the release `dolphin`
    binary: `dolphin search` (--cli-runs short queries and --cli-runs claims) and
    `dolphin capture` (--captures times), timing each process from spawn to exit, with its
    peak RSS from wait4.
    Build first: swift build -c release --product dolphin

    OPTIONS:
      --sizes LIST    item counts (default 1000,10000,100000)
      --repeats N     timed passes per query set (default 3)
      --cli-runs N    cold `dolphin search` runs per query set (default 30)
      --captures N    `dolphin capture` runs (default 30)
      --dolphin PATH  the binary (default \(BenchPaths.repositoryRoot.path)/.build/release/dolphin)
      --out FILE      JSON results (default bench-results/scale.json)
      --corpus FILE   SciFact corpus.jsonl, the source of the items
      --data DIR      SciFact directory with queries.jsonl and qrels/train.tsv
      --keep          keep each workspace (its path goes to stderr), for profiling
    """
  }

  var sizes = [1_000, 10_000, 100_000]
  var repeats = 3
  var cliRuns = 30
  var captures = 30
  var dolphin = BenchPaths.repositoryRoot.appendingPathComponent(".build/release/dolphin").path
  var out = "bench-results/scale.json"
  var corpus = BenchPaths.scifactCorpus
  var data = BenchPaths.sharedData.appendingPathComponent("scifact").path
  var keep = false

  init(parsing a: inout ArgumentReader) throws {
    func positive(_ name: String) throws -> Int? {
      guard let text = try a.option(name) else { return nil }
      guard let n = Int(text), n > 0 else {
        throw UsageError(message: "\(name) must be a positive integer, got '\(text)'")
      }
      return n
    }
    if let s = try a.option("--sizes") {
      sizes = try s.split(separator: ",").map {
        guard let n = Int($0) else { throw UsageError(message: "--sizes: '\($0)' is not a number") }
        return n
      }
    }
    repeats = try positive("--repeats") ?? repeats
    cliRuns = try positive("--cli-runs") ?? cliRuns
    captures = try positive("--captures") ?? captures
    if let d = try a.option("--dolphin") { dolphin = d }
    if let o = try a.option("--out") { out = o }
    if let c = try a.option("--corpus") { corpus = c }
    if let d = try a.option("--data") { data = d }
    keep = a.flag("--keep")
  }

  func validate() throws {
    guard FileManager.default.isExecutableFile(atPath: dolphin) else {
      throw UsageError(
        message:
          "no dolphin binary at \(dolphin); run `swift build -c release --product dolphin` first")
    }
    guard !sizes.isEmpty,
      sizes.allSatisfy({ ((captures + 3)...Limits.knowledgeItemsMaximum).contains($0) })
    else {
      throw UsageError(
        message: "--sizes must each be in \(captures + 3)…\(Limits.knowledgeItemsMaximum)")
    }
  }

  /// Latency of one query set.
  struct Latency: Encodable {
    var p50Milliseconds: Double
    var p95Milliseconds: Double
    var meanMilliseconds: Double
    /// p50 of each query's first run in this process (the warm-up pass).
    var firstRunP50Milliseconds: Double
    /// p50 and p95 of the per-query median thread CPU time: what the query costs when no other
    /// process competes for the cores.
    var cpuP50Milliseconds: Double
    var cpuP95Milliseconds: Double
    var meanMatches: Double
  }

  /// End-to-end runs of one command.
  struct ProcessStat: Encodable {
    var runs: Int
    var p50Milliseconds: Double
    var p95Milliseconds: Double
    /// Peak RSS of the command alone (see ``ProcessTimer/peakRSSKilobytes(_:_:)``), the
    /// largest of a few extra runs.
    var maxRSSMegabytes: Double
    var failures: Int

    init(_ samples: [ProcessSample], peakRSSKilobytes: [Int?]) {
      let ms = samples.map(\.milliseconds)
      runs = samples.count
      p50Milliseconds = percentile(ms, 50)
      p95Milliseconds = percentile(ms, 95)
      maxRSSMegabytes = Double(peakRSSKilobytes.compactMap { $0 }.max() ?? 0) / 1024
      failures = samples.filter { $0.status != 0 }.count
    }
  }

  struct Row: Encodable {
    var items: Int
    var bulkImportSeconds: Double
    var databaseBytes: Int
    var short: Latency
    var claims: Latency
    var cliSearchShort: ProcessStat
    var cliSearchClaims: ProcessStat
    var capture: ProcessStat
    /// Items in the workspace before the first timed capture (fewer than `items` only when
    /// `items` leaves no room under the 100,000-item limit).
    var captureBaseItems: Int
    /// This process's peak RSS so far (sizes run in ascending order; includes the generated
    /// items of the largest size).
    var benchMaxRSSMegabytes: Double
    var loadAverage: [Double]
  }

  func run() throws {
    let source = try SynthSource(corpusPath: corpus)
    let generated = synthItems(source, count: sizes.max() ?? 0)
    let short = shortQueries(source)
    let claims = try claimQueries()
    let kinds = KnowledgeKind.allCases
    var rows: [Row] = []
    for size in sizes.sorted() {
      let workspace = try BenchWorkspace(
        label: "scale-\(size)", itemLimit: Limits.knowledgeItemsMaximum)
      defer {
        if keep {
          FileHandle.standardError.write(Data("kept \(workspace.directory.path)\n".utf8))
        } else {
          workspace.remove()
        }
      }
      let requests = generated.prefix(size).enumerated().map { i, item in
        CaptureRequest(
          kind: kinds[i % kinds.count], title: item.title, content: item.content, tags: item.tags,
          allowCredentials: true)
      }
      let (stored, bulkSeconds) = try workspace.captureBulk(requests)
      let bytes = workspace.databaseBytes()
      FileHandle.standardError.write(
        Data(
          String(
            format: "items=%d bulk import %.1f s, %.1f MB\n", size, bulkSeconds, Double(bytes) / 1e6
          ).utf8))

      let shortLatency = try measure(short, engine: workspace.engine)
      let claimLatency = try measure(claims, engine: workspace.engine)

      let ws = workspace.directory.path
      let cliShort = short.prefix(cliRuns).map {
        ProcessTimer.run(dolphin, ["search", $0, "--limit", "10", "--workspace", ws])
      }
      let cliClaims = claims.prefix(cliRuns).map {
        ProcessTimer.run(dolphin, ["search", $0, "--limit", "10", "--workspace", ws])
      }
      // A workspace at the item limit has no room for the timed captures: delete the last
      // synthetic items first, through the product's planned deletion.
      let room = Limits.knowledgeItemsMaximum - size
      for item in stored.suffix(max(0, captures + 3 - room)) {
        _ = try workspace.engine.apply(try workspace.engine.planDeletion(of: .knowledge(item.id)))
      }
      func captureArguments(_ i: Int) -> [String] {
        [
          "capture", "fact", "Bench capture \(i)", "--content",
          "Measured end to end: process start, open, insert with its index rows, commit.",
          "--tags", "bench", "--workspace", ws,
        ]
      }
      let captureRuns = (0..<captures).map { ProcessTimer.run(dolphin, captureArguments($0)) }
      // Peak memory of the commands alone, from a few more runs (see ProcessStat).
      let searchRSS = (short.prefix(3) + claims.prefix(3)).map {
        ProcessTimer.peakRSSKilobytes(dolphin, ["search", $0, "--limit", "10", "--workspace", ws])
      }
      let captureRSS = (captures..<(captures + 3)).map {
        ProcessTimer.peakRSSKilobytes(dolphin, captureArguments($0))
      }
      var load = [Double](repeating: 0, count: 3)
      _ = getloadavg(&load, 3)
      let row = Row(
        items: size, bulkImportSeconds: bulkSeconds, databaseBytes: bytes, short: shortLatency,
        claims: claimLatency, cliSearchShort: ProcessStat(cliShort, peakRSSKilobytes: searchRSS),
        cliSearchClaims: ProcessStat(cliClaims, peakRSSKilobytes: searchRSS),
        capture: ProcessStat(captureRuns, peakRSSKilobytes: captureRSS),
        captureBaseItems: size - max(0, captures + 3 - room),
        benchMaxRSSMegabytes: Double(selfMaxRSSKilobytes()) / 1024, loadAverage: load)
      rows.append(row)
      print(
        String(
          format:
            "items=%d build %.1fs db %.1fMB | short p50 %.3f p95 %.3f ms (first %.3f, cpu %.3f) | claims p50 %.3f p95 %.3f ms (first %.3f, cpu %.3f) | cli search short p50 %.1f claims p50 %.1f ms rss %.1f MB | capture p50 %.1f p95 %.1f ms | failures %d/%d/%d",
          size, bulkSeconds, Double(bytes) / 1e6, shortLatency.p50Milliseconds,
          shortLatency.p95Milliseconds, shortLatency.firstRunP50Milliseconds,
          shortLatency.cpuP50Milliseconds, claimLatency.p50Milliseconds,
          claimLatency.p95Milliseconds, claimLatency.firstRunP50Milliseconds,
          claimLatency.cpuP50Milliseconds, row.cliSearchShort.p50Milliseconds,
          row.cliSearchClaims.p50Milliseconds,
          max(row.cliSearchShort.maxRSSMegabytes, row.cliSearchClaims.maxRSSMegabytes),
          row.capture.p50Milliseconds, row.capture.p95Milliseconds, row.cliSearchShort.failures,
          row.cliSearchClaims.failures, row.capture.failures))
    }
    struct Document: Encodable {
      var benchmark = "scale"
      var date: String
      var sqlite: String
      var algorithmVersion: String
      var repeats: Int
      var rows: [Row]
    }
    let document = Document(
      date: ISO8601.string(from: Date()), sqlite: SQLiteWorkspaceStore.sqliteVersion,
      algorithmVersion: HybridLexicalRanker.algorithmVersion, repeats: repeats, rows: rows)
    let url = URL(fileURLWithPath: out)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(StableJSON.string(document, pretty: true).utf8).write(to: url)
    print("wrote \(out)")
  }

  /// The first 200 SciFact queries with train judgements, by numeric id (as scale_fts5.py).
  func claimQueries() throws -> [String] {
    let judged = try beirQrels(path: data + "/qrels/train.tsv")
    return try beirQueries(path: data + "/queries.jsonl")
      .filter { judged[$0.id] != nil }
      .sorted { (Int($0.id) ?? 0) < (Int($1.id) ?? 0) }
      .prefix(200).map(\.text)
  }

  /// Warm in-process latency of `engine.search(query, limit: 10)` over `queries`.
  func measure(_ queries: [String], engine: KnowledgeEngine) throws -> Latency {
    var first: [Double] = []
    var matches = 0
    for query in queries {
      first.append(try milliseconds { matches += try engine.search(query, limit: 10).total })
    }
    var passes: [[Double]] = []
    var cpuPasses: [[Double]] = []
    for _ in 0..<repeats {
      var wall: [Double] = []
      var cpu: [Double] = []
      for query in queries {
        let cpuStart = threadCPUMilliseconds()
        wall.append(try milliseconds { _ = try engine.search(query, limit: 10) })
        cpu.append(threadCPUMilliseconds() - cpuStart)
      }
      passes.append(wall)
      cpuPasses.append(cpu)
    }
    let medians = queries.indices.map { i in percentile(passes.map { $0[i] }, 50) }
    let cpuMedians = queries.indices.map { i in percentile(cpuPasses.map { $0[i] }, 50) }
    return Latency(
      p50Milliseconds: percentile(medians, 50), p95Milliseconds: percentile(medians, 95),
      meanMilliseconds: medians.reduce(0, +) / Double(max(1, medians.count)),
      firstRunP50Milliseconds: percentile(first, 50),
      cpuP50Milliseconds: percentile(cpuMedians, 50),
      cpuP95Milliseconds: percentile(cpuMedians, 95),
      meanMatches: Double(matches) / Double(max(1, queries.count)))
  }
}
