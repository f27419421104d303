import ContinuityKit
import Foundation

/// `dolphin-bench retention`: the cost of storing one receipt, chat message or checkpoint once
/// its collection is at the bound the workspace keeps (``KeptCollection``), so that every store
/// also drops the oldest by date.
///
/// Each collection is filled to its bound through the store, then `--runs` single stores are
/// timed, each in its own write transaction (process warm, database open). The anchor, in the
/// same run, is the same store on the same file after the date index of schema step 0008 is
/// dropped with the `sqlite3` shell — what a workspace from before that step does.
struct RetentionBench: BenchCommand {
  static let name = "retention"
  static let abstract = "Time storing a receipt, message or checkpoint at the kept bound, with and without the date index."
  static var help: String {
    """
    USAGE: dolphin-bench retention [--runs N] [--out FILE]

    Fills receipts (\(Limits.receiptsKept), 500-character arguments), chat messages
    (\(Limits.messagesKept), 500 characters) and checkpoints (\(Limits.checkpointsKept)) to the bound a
    workspace keeps, then times --runs single stores at the bound (p50/p95 ms, each its own
    transaction, which also drops the oldest by date): first with schema step 0008's date index,
    then with that index dropped (the anchor: a workspace from before the step).

    OPTIONS:
      --runs N     stores timed per collection and case (default 200)
      --out FILE   JSON results (default bench-results/retention.json)
    """
  }

  var runs = 200
  var out = "bench-results/retention.json"

  init(parsing a: inout ArgumentReader) throws {
    if let r = try a.option("--runs") {
      guard let n = Int(r), n > 0, n <= 10_000 else { throw UsageError(message: "--runs must be an integer in 1…10000, got '\(r)'") }
      runs = n
    }
    if let o = try a.option("--out") { out = o }
  }

  struct Stat: Encodable {
    var p50Milliseconds: Double
    var p95Milliseconds: Double
  }

  struct Row: Encodable {
    var collection: String
    var kept: Int
    var indexed: Stat
    var withoutIndex: Stat
    /// withoutIndex p50 / indexed p50.
    var speedup: Double
  }

  static let epoch = Date(timeIntervalSince1970: 1_780_000_000)
  static let filler = String(repeating: "retention benchmark text ", count: 20).prefix(500)

  /// Stores the `n`th record of `collection` (dated `n` seconds after ``epoch``).
  static func store(_ collection: KeptCollection, _ n: Int, conversation: UUID, in tx: WorkspaceTransaction) throws {
    let date = epoch.addingTimeInterval(Double(n))
    switch collection {
    case .receipts:
      try tx.insertReceipt(ActivityReceipt(
        id: UUID(), callID: "call-\(n)", tool: "knowledge_search", risk: "read", arguments: String(filler),
        outcome: .succeeded, startedAt: date, finishedAt: date))
    case .messages:
      try tx.insertMessage(ChatMessage(id: UUID(), conversationID: conversation, role: .user, text: String(filler), createdAt: date))
    case .checkpoints:
      try tx.insertCheckpoint(RunCheckpoint(id: UUID(), runID: conversation, step: n, state: "finished", createdAt: date))
    case .digests:
      preconditionFailure("digests are stored by the engine, not measured here")
    }
  }

  /// The index schema step 0008 made for `collection`.
  static func index(_ collection: KeptCollection) -> String {
    switch collection {
    case .receipts: "receipt_started"
    case .messages: "message_created"
    case .checkpoints: "checkpoint_created"
    case .digests: "digest_created"
    }
  }

  func run() throws {
    var rows: [Row] = []
    for collection in [KeptCollection.receipts, .messages, .checkpoints] {
      let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("dolphin-bench-retention-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: dir) }
      let conversation = UUID()
      var next = 0
      func timed(_ store: SQLiteWorkspaceStore) throws -> Stat {
        var ms: [Double] = []
        for _ in 0..<runs {
          next += 1
          let n = next
          ms.append(try milliseconds { try store.write { tx in try Self.store(collection, n, conversation: conversation, in: tx) } })
        }
        return Stat(p50Milliseconds: percentile(ms, 50), p95Milliseconds: percentile(ms, 95))
      }
      var store = try SQLiteWorkspaceStore.open(directory: dir)
      try store.write { tx in
        try tx.insertConversation(Conversation(id: conversation, title: "retention bench", createdAt: Self.epoch))
        for _ in 0..<collection.limit {
          next += 1
          try Self.store(collection, next, conversation: conversation, in: tx)
        }
      }
      try store.checkpoint()
      let indexed = try timed(store)
      try store.checkpoint()
      store = SQLiteWorkspaceStore.inMemory()  // closes the file's connection
      let db = dir.appendingPathComponent("workspace.sqlite").path
      let drop = ProcessTimer.run("/usr/bin/sqlite3", [db, "DROP INDEX \(Self.index(collection));"])
      guard drop.status == 0 else { throw UsageError(message: "sqlite3 could not drop \(Self.index(collection)) in \(db)") }
      store = try SQLiteWorkspaceStore.open(directory: dir)
      let without = try timed(store)
      let kept = try store.read { tx in try tx.retentionOrder(collection).count }
      let row = Row(
        collection: collection.rawValue, kept: kept, indexed: indexed, withoutIndex: without,
        speedup: without.p50Milliseconds / indexed.p50Milliseconds)
      rows.append(row)
      print(String(
        format: "%@ at the bound (%d kept): with the date index p50 %.2f ms p95 %.2f ms | without p50 %.2f ms p95 %.2f ms | %.1fx",
        collection.rawValue, kept, indexed.p50Milliseconds, indexed.p95Milliseconds, without.p50Milliseconds,
        without.p95Milliseconds, row.speedup))
    }
    struct Document: Encodable {
      var benchmark = "retention"
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
