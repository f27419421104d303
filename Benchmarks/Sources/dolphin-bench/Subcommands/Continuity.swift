import ContinuityKit
import Foundation
@_spi(Tooling) import KnowledgeEngine
import SynthCorpus

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `dolphin-bench continuity`: issue 4's figures. Heuristic code analysis throughput over real
/// Swift (this repository's `Sources/` and the toolchain's `.swiftinterface` files), and the
/// rule-based digest, insights and review on a 10,000-item workspace, in process (warm) and
/// end to end through the release `dolphin` binary.
struct ContinuityBench: BenchCommand {
  static let name = "continuity"
  static let abstract = "Code analysis MB/s; digest, insights and review time on a 10k-item workspace."
  static var help: String {
    """
    USAGE: dolphin-bench continuity [--items N] [--runs N] [--repeat N] [--dolphin PATH]
                                    [--out FILE] [--corpus PATH] [--swift-root DIR]

    Code analysis: every rule over this repository's Sources/*.swift and every .swiftinterface
    under <toolchain>/usr/lib/swift (found from `swift` on PATH, or --swift-root), one thread,
    without the per-file input bound; best of --repeat passes, MB/s = 10^6 UTF-8 bytes per
    second of wall time and of this thread's CPU time. Target ≥ 20 MB/s.

    Digest, insights, review: a workspace of --items synth.py items (kinds in rotation, the
    clock one minute apart), 200 open tasks (half citing knowledge), an active handoff made
    before the last 5% of captures, and in that last 5% a tenth of the decisions and goals
    related to an earlier item and every 97th item contradicting one, so every rule has work. Each call --runs times in process with the
    database open (p50/p95 wall ms; CPU ms of this thread and of all threads; the first
    call reported apart), then the CLI
    commands `context`, `insights`, `review` end to end (p50 wall ms, peak RSS through
    /usr/bin/time). Targets at 10,000 items: digest and insights ≤ 50 ms each.
    Build first: swift build -c release --product dolphin

    OPTIONS:
      --items N       workspace size (default 10000)
      --runs N        timed calls per measurement (default 30)
      --repeat N      code-analysis passes (default 5)
      --dolphin PATH  the binary (default \(BenchPaths.repositoryRoot.path)/.build/release/dolphin)
      --out FILE      JSON results (default bench-results/continuity.json)
      --swift-root D  the toolchain's usr directory (default: from `swift` on PATH)
      --keep DIR      build the workspace under DIR and keep it (default: a temporary
                      directory, removed afterwards)
    """
  }

  var items = 10_000
  var runs = 30
  var repeats = 5
  var dolphin = BenchPaths.repositoryRoot.appendingPathComponent(".build/release/dolphin").path
  var out = "bench-results/continuity.json"
  var corpus = BenchPaths.scifactCorpus
  var swiftRoot: String?
  var keep: String?

  init(parsing a: inout ArgumentReader) throws {
    func positive(_ name: String) throws -> Int? {
      guard let text = try a.option(name) else { return nil }
      guard let n = Int(text), n > 0 else { throw UsageError(message: "\(name) must be a positive integer, got '\(text)'") }
      return n
    }
    if let n = try positive("--items") { items = n }
    if let n = try positive("--runs") { runs = n }
    if let n = try positive("--repeat") { repeats = n }
    if let d = try a.option("--dolphin") { dolphin = d }
    if let o = try a.option("--out") { out = o }
    if let c = try a.option("--corpus") { corpus = c }
    swiftRoot = try a.option("--swift-root")
    keep = try a.option("--keep")
  }

  func validate() throws {
    guard FileManager.default.isExecutableFile(atPath: dolphin) else {
      throw UsageError(message: "no dolphin binary at \(dolphin); run `swift build -c release --product dolphin` first")
    }
    guard items >= 100, items <= Limits.knowledgeItemsMaximum else {
      throw UsageError(message: "--items must be in 100…\(Limits.knowledgeItemsMaximum), got \(items)")
    }
  }

  // MARK: Results

  struct CodeAnalysisRow: Encodable {
    var files: Int
    var bytes: Int
    var sourcesFiles: Int
    var interfaceFiles: Int
    var findings: Int
    var passes: Int
    var megabytesPerSecondWall: Double
    var megabytesPerSecondCPU: Double
  }

  struct Timing: Encodable {
    var firstCallMilliseconds: Double
    var p50Milliseconds: Double
    var p95Milliseconds: Double
    /// CPU time of the calling thread.
    var p50CPUMilliseconds: Double
    var p95CPUMilliseconds: Double
    /// CPU time of every thread of the process (insights build trigrams and join on two).
    var p50ProcessCPUMilliseconds: Double
  }

  struct CLITiming: Encodable {
    var p50Milliseconds: Double
    var p95Milliseconds: Double
    var maxRSSMegabytes: Double
    var failures: Int
  }

  struct Document: Encodable {
    var benchmark = "continuity"
    var date: String
    var sqlite: String
    var codeAnalysis: CodeAnalysisRow
    var items: Int
    var tasks: Int
    var relationships: Int
    var digest: Timing
    var insights: Timing
    var review: Timing
    var insightsFired: Int
    var digestEvidenceIDs: Int
    var cliContext: CLITiming
    var cliInsights: CLITiming
    var cliReview: CLITiming
  }

  // MARK: Run

  func run() throws {
    let code = try codeAnalysis()
    print(String(format: "code analysis: %d files (%d Sources, %d .swiftinterface), %.1f MB, %d findings | best of %d: %.1f MB/s wall, %.1f MB/s CPU (target ≥ 20)",
                 code.files, code.sourcesFiles, code.interfaceFiles, Double(code.bytes) / 1e6, code.findings, code.passes,
                 code.megabytesPerSecondWall, code.megabytesPerSecondCPU))

    let (workspace, tasks, relationships) = try buildWorkspace()
    defer { if keep == nil { workspace.remove() } else { print("kept \(workspace.directory.path)") } }
    let engine = workspace.engine
    var digestEvidence = 0
    let digest = try time { digestEvidence = try engine.projectContext().evidenceIDs.count }
    var fired = 0
    let insights = try time { fired = try engine.insights().total }
    let review = try time { _ = try engine.review() }
    func report(_ name: String, _ t: Timing, target: Double?) {
      let verdict = target.map { t.p50Milliseconds <= $0 ? " (target ≤ \(Int($0)) ms wall: met)" : " (target ≤ \(Int($0)) ms wall: NOT met)" } ?? ""
      print(String(format: "%@ at %d items: p50 %.1f ms wall (CPU %.1f this thread, %.1f all threads), p95 %.1f ms, first call %.1f ms", name, items,
                   t.p50Milliseconds, t.p50CPUMilliseconds, t.p50ProcessCPUMilliseconds, t.p95Milliseconds, t.firstCallMilliseconds) + verdict)
    }
    report("digest  ", digest, target: 50)
    report("insights", insights, target: 50)
    report("review  ", review, target: nil)

    let ws = workspace.directory.path
    func cli(_ command: String) -> CLITiming {
      let samples = (0..<runs).map { _ in ProcessTimer.run(dolphin, [command, "--workspace", ws]) }
      let rss = (0..<3).map { _ in ProcessTimer.peakRSSKilobytes(dolphin, [command, "--workspace", ws]) }
      let ms = samples.map(\.milliseconds)
      return CLITiming(
        p50Milliseconds: percentile(ms, 50), p95Milliseconds: percentile(ms, 95),
        maxRSSMegabytes: Double(rss.compactMap { $0 }.max() ?? 0) / 1024,
        failures: samples.filter { $0.status != 0 }.count + rss.filter { $0 == nil }.count)
    }
    let cliContext = cli("context"), cliInsights = cli("insights"), cliReview = cli("review")
    for (name, t) in [("context", cliContext), ("insights", cliInsights), ("review", cliReview)] {
      print(String(format: "dolphin %@ end to end: p50 %.1f ms, p95 %.1f ms, peak RSS %.1f MB, failures %d",
                   name, t.p50Milliseconds, t.p95Milliseconds, t.maxRSSMegabytes, t.failures))
    }

    let doc = Document(
      date: ISO8601.string(from: Date()), sqlite: SQLiteWorkspaceStore.sqliteVersion, codeAnalysis: code,
      items: items, tasks: tasks, relationships: relationships, digest: digest, insights: insights,
      review: review, insightsFired: fired, digestEvidenceIDs: digestEvidence, cliContext: cliContext,
      cliInsights: cliInsights, cliReview: cliReview)
    let url = URL(fileURLWithPath: out)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(StableJSON.string(doc, pretty: true).utf8).write(to: url)
    print("wrote \(out)")
  }

  /// Runs `body` once untimed-for-statistics (the first call, reported apart), then `runs` times.
  func time(_ body: () throws -> Void) throws -> Timing {
    let firstStart = DispatchTime.now().uptimeNanoseconds
    try body()
    let first = Double(DispatchTime.now().uptimeNanoseconds - firstStart) / 1e6
    var wall: [Double] = [], cpu: [Double] = [], processCPU: [Double] = []
    for _ in 0..<runs {
      let p0 = Self.processCPUMilliseconds()
      let c0 = threadCPUMilliseconds()
      let w0 = DispatchTime.now().uptimeNanoseconds
      try body()
      wall.append(Double(DispatchTime.now().uptimeNanoseconds - w0) / 1e6)
      cpu.append(threadCPUMilliseconds() - c0)
      processCPU.append(Self.processCPUMilliseconds() - p0)
    }
    return Timing(
      firstCallMilliseconds: first, p50Milliseconds: percentile(wall, 50), p95Milliseconds: percentile(wall, 95),
      p50CPUMilliseconds: percentile(cpu, 50), p95CPUMilliseconds: percentile(cpu, 95),
      p50ProcessCPUMilliseconds: percentile(processCPU, 50))
  }

  /// Milliseconds of CPU time every thread of this process has used (`CLOCK_PROCESS_CPUTIME_ID`).
  static func processCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
  }

  // MARK: Code analysis

  /// The toolchain's `usr` directory: `--swift-root`, else two levels above the resolved `swift`.
  func toolchainUsr() -> URL? {
    if let swiftRoot { return URL(fileURLWithPath: swiftRoot) }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
      guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
      return swift.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
    }
    return nil
  }

  /// Files under `root` whose names end in `suffix`, in byte order of their paths.
  static func files(under root: URL, suffix: String) -> [String] {
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
    var paths: [String] = []
    for case let url as URL in walker where url.lastPathComponent.hasSuffix(suffix) { paths.append(url.path) }
    return paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  func codeAnalysis() throws -> CodeAnalysisRow {
    let sources = Self.files(under: BenchPaths.repositoryRoot.appendingPathComponent("Sources"), suffix: ".swift")
    let interfaces = toolchainUsr().map { Self.files(under: $0.appendingPathComponent("lib/swift"), suffix: ".swiftinterface") } ?? []
    guard !interfaces.isEmpty else {
      throw UsageError(message: "no .swiftinterface files found under the toolchain; pass --swift-root <toolchain>/usr")
    }
    let texts = (sources + interfaces).compactMap { path in
      FileManager.default.contents(atPath: path).map { (path, String(decoding: $0, as: UTF8.self)) }
    }
    let bytes = texts.reduce(0) { $0 + $1.1.utf8.count }
    var bestWall = Double.infinity, bestCPU = Double.infinity, findings = 0
    for _ in 0..<repeats {
      findings = 0
      let c0 = threadCPUMilliseconds()
      let w0 = DispatchTime.now().uptimeNanoseconds
      for (path, text) in texts {
        findings += CodeAnalyzer.analyzeWithoutBounds(source: text, fileName: path).totalFindings
      }
      bestWall = min(bestWall, Double(DispatchTime.now().uptimeNanoseconds - w0) / 1e9)
      bestCPU = min(bestCPU, (threadCPUMilliseconds() - c0) / 1e3)
    }
    let megabytes = Double(bytes) / 1e6
    return CodeAnalysisRow(
      files: texts.count, bytes: bytes, sourcesFiles: sources.count, interfaceFiles: interfaces.count,
      findings: findings, passes: repeats, megabytesPerSecondWall: megabytes / bestWall,
      megabytesPerSecondCPU: megabytes / bestCPU)
  }

  // MARK: Workspace

  /// The workspace the digest and insights run over (see the help text), and its task and
  /// relationship counts.
  func buildWorkspace() throws -> (BenchWorkspace, tasks: Int, relationships: Int) {
    let source = try SynthSource(corpusPath: corpus)
    let synth = synthItems(source, count: items)
    let workspace = try BenchWorkspace(
      label: "continuity-\(items)", itemLimit: max(items, Limits.knowledgeItemsDefault),
      environment: BenchWorkspace.environment(secondsPerCall: 60), parent: keep.map { URL(fileURLWithPath: $0) })
    let kinds = KnowledgeKind.allCases
    func request(_ i: Int, relationships: [KnowledgeRelationship] = []) -> CaptureRequest {
      CaptureRequest(
        kind: kinds[i % kinds.count], title: synth[i].title, content: synth[i].content, tags: synth[i].tags,
        relationships: relationships)
    }
    let early = items * 95 / 100
    let first = try workspace.captureBulk((0..<early).map { request($0) }).items
    var relationships = 0
    var tasks: [TaskItem] = []
    for t in 0..<200 {
      let cited = t % 2 == 0 ? [first[(t * 7_919) % first.count].id] : []
      tasks.append(try workspace.engine.addTask(title: "Follow up on \(first[(t * 104_729) % first.count].title.prefix(60))", knowledgeIDs: cited))
    }
    let handoff = try workspace.engine.createHandoff(
      HandoffRequest(focus: "Benchmark handoff before the last captures", nextSteps: ["Review the latest captures"],
                     knowledgeIDs: Array(first.prefix(5).map(\.id)), taskIDs: Array(tasks.prefix(5).map(\.id))))
    _ = try workspace.engine.restoreHandoff(id: handoff.handoff.id)
    let late = (early..<items).map { i -> CaptureRequest in
      let kind = kinds[i % kinds.count]
      var related: [KnowledgeRelationship] = []
      if (kind == .decision || kind == .goal), i % 20 < 2 {
        related.append(KnowledgeRelationship(kind: .supports, targetID: first[(i * 31) % first.count].id))
      }
      if i % 97 == 0 { related.append(KnowledgeRelationship(kind: .contradicts, targetID: first[(i * 13) % first.count].id)) }
      relationships += related.count
      return request(i, relationships: related)
    }
    _ = try workspace.captureBulk(late)
    try? workspace.store.checkpoint()
    return (workspace, tasks.count, relationships)
  }
}
