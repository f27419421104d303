import ContinuityKit
import Foundation
import KnowledgeEngine
import SynthCorpus

/// `dolphin-bench doctor-export`: `dolphin doctor` and `dolphin export` end to end on a large,
/// lived-in workspace — the two commands that read every record — as separate processes of the
/// release binary, optionally alternated with a second binary (the build before a change) on
/// the same workspace, so both are measured under the same load.
struct DoctorExportBench: BenchCommand {
  static let name = "doctor-export"
  static let abstract = "Time `dolphin doctor` and `dolphin export` end to end on a 10k-item lived-in workspace."
  static var help: String {
    """
    USAGE: dolphin-bench doctor-export [--items N] [--runs N] [--dolphin PATH] [--baseline PATH]
                                       [--workspace DIR | --keep DIR] [--out FILE] [--corpus PATH]

    Builds a workspace of --items knowledge items (synth.py's items, kinds in rotation, the clock
    one second apart): 95% stored through the bulk path (the last tenth of them each related to
    an earlier item), then the rest as memories (each mirrored as a knowledge item, saved one by
    one, with their automatic digests), 1,000 tasks (half citing knowledge, a fifth completed),
    50 handoffs (ten items, five tasks, three next steps and excerpts each; the last restored),
    a conversation of 1,000 messages, 2,000 receipts and 200 run checkpoints. Then runs
    `dolphin doctor` and `dolphin export --output FILE --force` --runs times each as separate
    processes (p50/p95 wall ms, p50 CPU ms; every run must exit 0), and three more runs of each through
    /usr/bin/time for peak RSS. With --baseline, the other binary's runs alternate with these on
    the same workspace and the report gives the ratio of the p50s (baseline / this).
    Build first: swift build -c release --product dolphin

    OPTIONS:
      --items N        knowledge items, memory mirrors included (default 10000)
      --runs N         timed runs per command and binary (default 5)
      --dolphin PATH   the binary (default \(BenchPaths.repositoryRoot.path)/.build/release/dolphin)
      --baseline PATH  a second binary to time alternately (e.g. the build before a change)
      --workspace DIR  time an existing workspace instead of building one (nothing is built)
      --keep DIR       build the workspace under DIR and keep it (default: a temporary
                       directory, removed afterwards)
      --out FILE       JSON results (default bench-results/doctor-export.json)
    """
  }

  var items = 10_000
  var runs = 5
  var dolphin = BenchPaths.repositoryRoot.appendingPathComponent(".build/release/dolphin").path
  var baseline: String?
  var workspace: String?
  var keep: String?
  var out = "bench-results/doctor-export.json"
  var corpus = BenchPaths.scifactCorpus

  /// Memories are this share of the items (their mirrors are knowledge items).
  static let memoryShare = 5
  static let tasks = 1_000
  static let handoffs = 50
  static let messages = 1_000
  static let receipts = 2_000
  static let checkpoints = 200
  /// Peak-RSS probes per command and binary.
  static let memoryProbes = 3

  init(parsing a: inout ArgumentReader) throws {
    func positive(_ name: String) throws -> Int? {
      guard let text = try a.option(name) else { return nil }
      guard let n = Int(text), n > 0 else { throw UsageError(message: "\(name) must be a positive integer, got '\(text)'") }
      return n
    }
    if let n = try positive("--items") { items = n }
    if let n = try positive("--runs") { runs = n }
    if let d = try a.option("--dolphin") { dolphin = d }
    baseline = try a.option("--baseline")
    workspace = try a.option("--workspace")
    keep = try a.option("--keep")
    if let o = try a.option("--out") { out = o }
    if let c = try a.option("--corpus") { corpus = c }
  }

  func validate() throws {
    for binary in [dolphin] + (baseline.map { [$0] } ?? []) where !FileManager.default.isExecutableFile(atPath: binary) {
      throw UsageError(message: "no dolphin binary at \(binary); run `swift build -c release --product dolphin` first")
    }
    guard items >= 1_000, items <= Limits.knowledgeItemsMaximum else {
      throw UsageError(message: "--items must be in 1000…\(Limits.knowledgeItemsMaximum), got \(items)")
    }
    if workspace != nil, keep != nil {
      throw UsageError(message: "--workspace times an existing workspace and --keep builds one: give one of them")
    }
  }

  // MARK: Results

  struct Timing: Encodable {
    var p50Milliseconds: Double
    var p95Milliseconds: Double
    /// CPU time (user + system, all threads) of the timed runs: on a shared machine wall time
    /// also counts the time other processes held the cores.
    var p50CPUMilliseconds: Double
    /// The largest peak RSS of the probes, from `/usr/bin/time`.
    var maxRSSMegabytes: Double
    /// Timed runs and probes that exited non-zero (or whose RSS could not be read).
    var failures: Int
  }

  struct BinaryRow: Encodable {
    var dolphin: String
    var doctor: Timing
    var export: Timing
    var exportBytes: Int
  }

  struct Document: Encodable {
    var benchmark = "doctor-export"
    var date: String
    var sqlite: String
    var runs: Int
    /// Rows per table of the timed workspace.
    var counts: [String: Int]
    var databaseBytes: Int
    var buildSeconds: Double?
    var current: BinaryRow
    var baseline: BinaryRow?
    /// Baseline p50 over this binary's p50, per command: wall time, and CPU time.
    var doctorSpeedup: Double?
    var exportSpeedup: Double?
    var doctorCPUSpeedup: Double?
    var exportCPUSpeedup: Double?
  }

  // MARK: Run

  func run() throws {
    var built: BenchWorkspace?
    var buildSeconds: Double?
    let directory: URL
    if let workspace {
      directory = URL(fileURLWithPath: workspace)
    } else {
      let start = DispatchTime.now().uptimeNanoseconds
      let w = try buildWorkspace()
      buildSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      built = w
      directory = w.directory
    }
    defer {
      if let built {
        if keep == nil { built.remove() } else { print("kept \(built.directory.path)") }
      }
    }
    // Closed again before the timed runs (the store closes its connection when released).
    let counts = try SQLiteWorkspaceStore.open(directory: directory, readOnly: true, create: false).read { tx in
      try tx.counts()
    }
    let db = directory.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    let databaseBytes = (try? FileManager.default.attributesOfItem(atPath: db)[.size] as? Int) ?? 0
    print(
      "workspace \(directory.path): "
        + counts.sorted { $0.key < $1.key }.filter { $0.value > 0 }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        + String(format: "; %.1f MB", Double(databaseBytes) / 1e6)
        + (buildSeconds.map { String(format: "; built in %.1f s", $0) } ?? ""))

    // Outside the workspace: export refuses an --output inside it.
    let scratch = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("dolphin-bench-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let exportFile = scratch.appendingPathComponent("export.json").path
    let ws = directory.path
    let commands: [(name: String, arguments: [String])] = [
      ("doctor", ["doctor", "--workspace", ws]),
      ("export", ["export", "--output", exportFile, "--force", "--workspace", ws]),
    ]
    let binaries = [dolphin] + (baseline.map { [$0] } ?? [])
    // samples[binary][command]; runs alternate between the binaries, command by command.
    var samples = Array(repeating: Array(repeating: [ProcessSample](), count: commands.count), count: binaries.count)
    var exportBytes = Array(repeating: 0, count: binaries.count)
    for (c, command) in commands.enumerated() {
      for _ in 0..<runs {
        for (b, binary) in binaries.enumerated() {
          samples[b][c].append(ProcessTimer.run(binary, command.arguments))
          if command.name == "export" {
            exportBytes[b] = (try? FileManager.default.attributesOfItem(atPath: exportFile)[.size] as? Int) ?? 0
          }
        }
      }
    }
    var rss = Array(repeating: Array(repeating: [Int?](), count: commands.count), count: binaries.count)
    for (c, command) in commands.enumerated() {
      for _ in 0..<Self.memoryProbes {
        for (b, binary) in binaries.enumerated() { rss[b][c].append(ProcessTimer.peakRSSKilobytes(binary, command.arguments)) }
      }
    }
    func timing(_ b: Int, _ c: Int) -> Timing {
      let ms = samples[b][c].map(\.milliseconds)
      return Timing(
        p50Milliseconds: percentile(ms, 50), p95Milliseconds: percentile(ms, 95),
        p50CPUMilliseconds: percentile(samples[b][c].map(\.cpuMilliseconds), 50),
        maxRSSMegabytes: Double(rss[b][c].compactMap { $0 }.max() ?? 0) / 1024,
        failures: samples[b][c].filter { $0.status != 0 }.count + rss[b][c].filter { $0 == nil }.count)
    }
    let rows = binaries.indices.map { b in
      BinaryRow(dolphin: binaries[b], doctor: timing(b, 0), export: timing(b, 1), exportBytes: exportBytes[b])
    }
    for row in rows {
      for (name, t) in [("doctor", row.doctor), ("export", row.export)] {
        print(String(format: "%@ %@: p50 %.1f ms (CPU %.1f ms), p95 %.1f ms, peak RSS %.1f MB, failures %d",
                     row.dolphin, name, t.p50Milliseconds, t.p50CPUMilliseconds, t.p95Milliseconds, t.maxRSSMegabytes, t.failures))
      }
    }
    let base = rows.count > 1 ? rows[1] : nil
    let doctorSpeedup = base.map { $0.doctor.p50Milliseconds / rows[0].doctor.p50Milliseconds }
    let exportSpeedup = base.map { $0.export.p50Milliseconds / rows[0].export.p50Milliseconds }
    let doctorCPUSpeedup = base.map { $0.doctor.p50CPUMilliseconds / rows[0].doctor.p50CPUMilliseconds }
    let exportCPUSpeedup = base.map { $0.export.p50CPUMilliseconds / rows[0].export.p50CPUMilliseconds }
    if let doctorSpeedup, let exportSpeedup, let doctorCPUSpeedup, let exportCPUSpeedup {
      print(String(format: "baseline / this, p50 wall (CPU): doctor %.2f× (%.2f×), export %.2f× (%.2f×)",
                   doctorSpeedup, doctorCPUSpeedup, exportSpeedup, exportCPUSpeedup))
    }
    let doc = Document(
      date: ISO8601.string(from: Date()), sqlite: SQLiteWorkspaceStore.sqliteVersion, runs: runs, counts: counts,
      databaseBytes: databaseBytes, buildSeconds: buildSeconds, current: rows[0], baseline: base,
      doctorSpeedup: doctorSpeedup, exportSpeedup: exportSpeedup, doctorCPUSpeedup: doctorCPUSpeedup,
      exportCPUSpeedup: exportCPUSpeedup)
    let url = URL(fileURLWithPath: out)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(StableJSON.string(doc, pretty: true).utf8).write(to: url)
    print("wrote \(out)")
    let failures = rows.reduce(0) { $0 + $1.doctor.failures + $1.export.failures }
    if failures > 0 {
      throw BenchFailure(message: "\(failures) run(s) exited non-zero: a healthy workspace's doctor and export exit 0")
    }
  }

  /// A measurement that did not hold (a timed command failed).
  struct BenchFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  // MARK: Workspace

  /// The workspace described in the help text.
  func buildWorkspace() throws -> BenchWorkspace {
    let source = try SynthSource(corpusPath: corpus)
    let synth = synthItems(source, count: items)
    let workspace = try BenchWorkspace(
      label: "doctor-export-\(items)", itemLimit: max(items, Limits.knowledgeItemsDefault),
      environment: BenchWorkspace.environment(secondsPerCall: 1), parent: keep.map { URL(fileURLWithPath: $0) })
    let engine = workspace.engine
    let kinds = KnowledgeKind.allCases
    let memories = items * Self.memoryShare / 100
    let bulk = items - memories
    let plain = bulk * 9 / 10
    func request(_ i: Int, relationships: [KnowledgeRelationship] = []) -> CaptureRequest {
      CaptureRequest(
        kind: kinds[i % kinds.count], title: synth[i].title, content: synth[i].content, tags: synth[i].tags,
        relationships: relationships)
    }
    let first = try workspace.captureBulk((0..<plain).map { request($0) }).items
    let relationKinds: [RelationshipKind] = [.supports, .dependsOn, .relatesTo, .contradicts]
    let related = try workspace.captureBulk(
      (plain..<bulk).map { i in
        request(
          i, relationships: [KnowledgeRelationship(kind: relationKinds[i % relationKinds.count], targetID: first[(i * 31) % first.count].id)])
      }
    ).items
    let knowledge = first + related
    for i in bulk..<items {
      _ = try engine.saveMemory(text: synth[i].title + "\n\n" + synth[i].content.prefix(2_000), tags: synth[i].tags)
    }
    var tasks: [TaskItem] = []
    for t in 0..<Self.tasks {
      let cited = t % 2 == 0 ? [knowledge[(t * 7_919) % knowledge.count].id] : []
      tasks.append(
        try engine.addTask(
          title: "Follow up on \(knowledge[(t * 104_729) % knowledge.count].title.prefix(60))",
          notes: String(synth[t % synth.count].content.prefix(400)), knowledgeIDs: cited))
    }
    for t in stride(from: 0, to: Self.tasks, by: 5) { _ = try engine.completeTask(id: tasks[t].id) }
    var lastHandoff: UUID?
    for h in 0..<Self.handoffs {
      let cited = (0..<10).map { knowledge[(h * 997 + $0 * 613) % knowledge.count].id }
      let taskIDs = (0..<5).map { tasks[(h * 17 + $0 * 3) % tasks.count].id }
      let created = try engine.createHandoff(
        HandoffRequest(
          focus: "Session \(h): \(knowledge[h].title.prefix(80))", summary: String(synth[h].content.prefix(600)),
          nextSteps: ["Check the cited decisions", "Close the open tasks", "Capture what was learned"],
          knowledgeIDs: cited, taskIDs: taskIDs,
          recentExcerpts: (0..<3).map { "user: \(synth[h * 3 + $0].title.prefix(200))" }))
      lastHandoff = created.handoff.id
    }
    if let lastHandoff { _ = try engine.restoreHandoff(id: lastHandoff) }
    let env = BenchWorkspace.environment(secondsPerCall: 1)
    let runID = env.makeID()
    try workspace.store.write { tx in
      let conversation = Conversation(id: UUID(), title: "Benchmark session", createdAt: env.now())
      try tx.insertConversation(conversation)
      for m in 0..<Self.messages {
        try tx.appendMessage(
          ChatMessage(
            id: UUID(), conversationID: conversation.id, role: m % 2 == 0 ? .user : .assistant,
            text: String(synth[m % synth.count].content.prefix(500)), createdAt: env.now()))
      }
      let tools = ["knowledge_search", "knowledge_get", "project_context", "task_list", "knowledge_capture"]
      for r in 0..<Self.receipts {
        let tool = tools[r % tools.count]
        let started = env.now()
        try tx.insertReceipt(
          ActivityReceipt(
            id: UUID(), callID: "call-\(r)", tool: tool, risk: tool == "knowledge_capture" ? "localWrite" : "readOnly",
            arguments: try StableJSON.string(["query": String(synth[r % synth.count].title.prefix(60))]),
            outcome: r % 50 == 0 ? .denied : .succeeded,
            changedIDs: tool == "knowledge_capture" ? [knowledge[r % knowledge.count].id] : [], startedAt: started,
            finishedAt: started.addingTimeInterval(0.02), approval: r % 50 == 0 ? nil : "notRequired",
            message: r % 50 == 0 ? "denied by policy" : ""))
      }
      for c in 0..<Self.checkpoints {
        try tx.insertCheckpoint(
          RunCheckpoint(
            id: UUID(), runID: runID, step: c, state: RunCheckpoint.states[c % RunCheckpoint.states.count],
            note: "step \(c)", createdAt: env.now()))
      }
    }
    try? workspace.store.checkpoint()
    return workspace
  }
}
