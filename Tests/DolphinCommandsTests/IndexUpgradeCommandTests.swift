import ContinuityKit
import Foundation
import KnowledgeEngine
import Synchronization
import Testing
import TestSupport

/// A workspace whose search index was built by tokenizer version 1 (which kept `ø`, `ł`, `æ`)
/// is rebuilt by the first command that opens it, with no command from the user.
@Suite("An index from an older tokenizer is rebuilt by the first command", .serialized)
struct IndexUpgradeCommandTests {
  /// The line `doctor` and `verifySearchIndex` report for an index built with version 1.
  static let mismatch =
    "the search index was built with tokenizer version 1; this build tokenizes with version 2, so queries and stored terms may not match (run `dolphin reindex`)"

  /// Makes the index of the workspace at `path` look as tokenizer version 1 left it: the
  /// version key says 1, and `oresund` is spelled `øresund` as version 1 indexed it. Adds
  /// `extraNotes` knowledge items first, so a rebuild takes a while.
  static func makeVersion1(_ path: String, extraNotes: Int = 0) throws {
    let store = try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: path), create: false)
    if extraNotes > 0 {
      _ = try KnowledgeEngine(store: store).captureBulk(
        (0..<extraNotes).map { CaptureRequest(kind: .fact, title: "Note \($0) on the ferry line", content: "filler \($0 % 13)") })
    }
    try store.write { tx in
      try tx.setMeta("lexicalTokenizerVersion", "1")
      let changed = try tx.db.run("UPDATE lexical_term SET term = 'øresund' WHERE term = 'oresund'")
      #expect(changed == 1)
    }
  }

  static func notices(_ stderr: String) -> [Substring] {
    stderr.split(separator: "\n").filter { $0.contains("notice:") }
  }

  @Test("the first command rebuilds the index and says so once on stderr; doctor reported the mismatch until then")
  func firstCommandRebuilds() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Øresund bridge notes"]).status == 0)
    #expect(try cli.run(["memory", "save", "Ærø ferry times"]).status == 0)
    try Self.makeVersion1(cli.workspace)

    // doctor opens read-only: it reports the mismatch and repairs nothing.
    let stale = try cli.run(["doctor"])
    #expect(stale.status == 5)
    #expect(stale.stdout.contains("  - " + Self.mismatch), "\(stale.stdout)")

    let search = try cli.run(["search", "oresund", "--explain"])
    #expect(search.status == 0, "\(search.stderr)")
    #expect(search.stdout.contains("Øresund bridge notes"))
    #expect(search.stdout.contains("term oresund: exact"), "\(search.stdout)")
    #expect(
      Self.notices(search.stderr) == [
        "dolphin: notice: rebuilt the search index for tokenizer version 2 (it was built with version 1): re-indexed 3 document(s) (knowledge items and memories); no record changed"
      ], "\(search.stderr)")

    let again = try cli.run(["search", "oresund"])
    #expect(again.status == 0)
    #expect(again.stderr.isEmpty, "once rebuilt, nothing more is said: \(again.stderr)")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Search index: agrees with the records"))
  }

  @Test("reindex rebuilds once, itself, without the notice")
  func reindexIsNotDoubled() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Øresund bridge notes"]).status == 0)
    try Self.makeVersion1(cli.workspace)
    let reindex = try cli.run(["reindex"])
    #expect(reindex.status == 0)
    #expect(reindex.stdout == "Re-indexed 1 document(s); index check: ok\n")
    #expect(reindex.stderr.isEmpty, "\(reindex.stderr)")
  }

  @Test("two dolphin processes starting on the same upgraded workspace both succeed; one rebuilds; doctor is healthy")
  func concurrentProcesses() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Øresund bridge notes"]).status == 0)
    try Self.makeVersion1(cli.workspace, extraNotes: 3_000)
    let workspace = cli.workspace
    let results = Mutex<[Result<ProcessResult, any Error>]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      let result = Result { try runDolphin(["search", "oresund", "--workspace", workspace]) }
      results.withLock { $0.append(result) }
    }
    let runs = try results.withLock { $0 }.map { try $0.get() }
    for run in runs {
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains("Øresund bridge notes"), "\(run.stdout)")
    }
    let rebuilt = runs.flatMap { Self.notices($0.stderr) }
    #expect(rebuilt.count == 1, "one process rebuilds, the other finds it current: \(rebuilt)")
    #expect(rebuilt.first?.contains("rebuilt the search index for tokenizer version 2") == true)
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Doctor: healthy."))
  }

  @Test("dolphin mcp rebuilds when it starts, logs it on stderr, and its search finds Øresund by oresund")
  func mcpRebuildsAtStart() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Øresund bridge notes"]).status == 0)
    try Self.makeVersion1(cli.workspace)
    let run = try MCPRun(
      workspace: cli.workspace,
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"oresund"}}}"#
      ])
    #expect(run.status == 0)
    #expect(
      run.stderr.contains("dolphin mcp: notice: rebuilt the search index for tokenizer version 2 (it was built with version 1)"),
      "\(run.stderr)")
    #expect(run.response("1")?["result"]?["structuredContent"]?["total"] == 1)
  }
}
