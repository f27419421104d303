import ContinuityKit
import Foundation
import KnowledgeEngine
import Synchronization
import Testing
import TestSupport

/// A workspace whose search index was built by tokenizer version 1 (which kept `ø`, `ł`, `æ`)
/// is rebuilt by the first command that ranks, with no command from the user; commands that do
/// not rank write nothing because of it. An index from a newer build is left alone.
@Suite("An index from another tokenizer is rebuilt by the first command that ranks", .serialized)
struct IndexUpgradeCommandTests {
  /// The note `doctor` gives for an index built with version 1 where the workspace can be written.
  static let pendingRebuild =
    "pending: the search index was built with tokenizer version 1 and this build tokenizes with version \(Tokenizer.version), so it is "
    + "to be rebuilt from the records; the next search (or other command that ranks) does it by itself, or run "
    + "`dolphin reindex` now"

  /// The notice of a rebuild of a version-1 index of `documents` documents.
  static func rebuiltNotice(_ documents: Int) -> String {
    "dolphin: notice: rebuilt the search index for tokenizer version \(Tokenizer.version) (it was built with version 1): re-indexed \(documents) document(s) (knowledge items and memories); no record changed"
  }

  /// Makes the index of the workspace at `path` look as tokenizer version 1 left it: the
  /// version key says 1, and `oresund` is spelled `øresund` as version 1 indexed it. Adds
  /// `extraNotes` knowledge items first, so a rebuild takes a while.
  static func makeVersion1(_ path: String, extraNotes: Int = 0) throws {
    try setVersion(path, "1", extraNotes: extraNotes)
    let store = try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: path), create: false)
    try store.write { tx in
      let changed = try tx.db.run("UPDATE lexical_term SET term = 'øresund' WHERE term = 'oresund'")
      #expect(changed == 1)
    }
  }

  /// Stores `value` as the index's tokenizer version (nil removes it).
  static func setVersion(_ path: String, _ value: String?, extraNotes: Int = 0) throws {
    let store = try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: path), create: false)
    if extraNotes > 0 {
      _ = try KnowledgeEngine(store: store).captureBulk(
        (0..<extraNotes).map { CaptureRequest(kind: .fact, title: "Note \($0) on the ferry line", content: "filler \($0 % 13)") })
    }
    try store.write { tx in try tx.setMeta("lexicalTokenizerVersion", value) }
  }

  /// The stored tokenizer version of the workspace at `path`, read without writing.
  static func storedVersion(_ path: String) throws -> String? {
    let store = try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: path), readOnly: true)
    return try store.read { tx in try tx.meta("lexicalTokenizerVersion") }
  }

  static func notices(_ stderr: String) -> [Substring] {
    stderr.split(separator: "\n").filter { $0.contains("notice:") }
  }

  /// A workspace with an Øresund fact, an Ærø memory (and its knowledge mirror), an export of it
  /// beside the workspace, and an index made version 1's.
  static func outdatedWorkspace() throws -> (cli: CLI, factID: String, exportPath: String) {
    let cli = CLI()
    let captured = try cli.json(["capture", "fact", "Øresund bridge notes"])
    let id = try #require((captured["item"] as? [String: Any])?["id"] as? String)
    #expect(try cli.run(["memory", "save", "Ærø ferry times"]).status == 0)
    let exportPath = cli.dir.appending("export.json").path
    #expect(try cli.run(["export", "--output", exportPath]).status == 0)
    try makeVersion1(cli.workspace)
    return (cli, id, exportPath)
  }

  /// A command that does not rank.
  struct NonRanking: CustomTestStringConvertible, Sendable {
    var args: [String]
    var status: Int32 = 0
    var testDescription: String { args.joined(separator: " ") }
  }

  @Test("commands that do not rank leave an outdated index alone: no file changes, no notice; the first search rebuilds it")
  func nonRankingCommandsWriteNothing() throws {
    let (cli, id, exportPath) = try Self.outdatedWorkspace()
    defer { cli.dir.remove() }
    let commands: [NonRanking] = [
      NonRanking(args: ["status"]), NonRanking(args: ["status", "--json"]),
      NonRanking(args: ["knowledge", "list"]), NonRanking(args: ["knowledge", "get", id]),
      NonRanking(args: ["memory", "list"]), NonRanking(args: ["task", "list"]),
      NonRanking(args: ["handoff", "list"]), NonRanking(args: ["context"]), NonRanking(args: ["review"]),
      NonRanking(args: ["insights"]), NonRanking(args: ["export"]), NonRanking(args: ["export", "--json"]),
      NonRanking(args: ["import", exportPath, "--dry-run"]),
      // Refused for want of confirmation: "nothing was changed" must be true.
      NonRanking(args: ["knowledge", "delete", id], status: 1),
      NonRanking(args: ["erase", "--kind", "all"], status: 1),
    ]
    let before = try Unwritable.snapshot(cli.workspace)
    #expect(before.keys.sorted() == ["workspace.sqlite"], "the last close removed -wal and -shm")
    for command in commands {
      let r = try cli.run(command.args)
      #expect(r.status == command.status, "\(command.args): \(r.stderr)")
      #expect(Self.notices(r.stderr).isEmpty, "\(command.args): \(r.stderr)")
      #expect(try Unwritable.snapshot(cli.workspace) == before, "\(command.args) changed the workspace files")
    }
    #expect(try Self.storedVersion(cli.workspace) == "1")

    // The first search rebuilds it, says so once on stderr, and --json stdout stays one document.
    let search = try cli.run(["search", "oresund", "--json"])
    #expect(search.status == 0, "\(search.stderr)")
    let response = try #require(try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [String: Any])
    #expect(response["total"] as? Int == 1)
    #expect(Self.notices(search.stderr) == [Substring(Self.rebuiltNotice(3))], "\(search.stderr)")
    #expect(try Self.storedVersion(cli.workspace) == String(Tokenizer.version))
  }

  /// A command that ranks over the persisted index.
  struct Ranking: CustomTestStringConvertible, Sendable {
    var args: [String]
    /// Text its standard output shows when it found the Øresund fact (or the Ærø memory).
    var found: String
    var testDescription: String { args.joined(separator: " ") }
  }

  static let ranking: [Ranking] = [
    Ranking(args: ["search", "oresund", "--explain"], found: "term oresund: exact"),
    Ranking(args: ["memory", "search", "aero"], found: "Ærø ferry times"),
    Ranking(args: ["handoff", "create", "--focus", "oresund crossing", "--auto"], found: "Øresund bridge notes"),
    Ranking(args: ["ask", "/search oresund"], found: "Øresund bridge notes"),
  ]

  @Test("each command that ranks rebuilds the index once and says so once; the next finds it current", arguments: ranking)
  func rankingCommandsRebuild(_ command: Ranking) throws {
    let (cli, _, _) = try Self.outdatedWorkspace()
    defer { cli.dir.remove() }
    let first = try cli.run(command.args)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains(command.found), "\(first.stdout)")
    #expect(Self.notices(first.stderr) == [Substring(Self.rebuiltNotice(3))], "\(first.stderr)")
    // Said before the rebuild starts, once, so a long rebuild is not a silent pause.
    let lines = first.stderr.split(separator: "\n")
    let starting = lines.filter { $0.hasPrefix("dolphin: rebuilding the search index for tokenizer version \(Tokenizer.version) (it was built with version 1)") }
    #expect(starting.count == 1, "\(first.stderr)")
    #expect(lines.firstIndex(of: starting.first ?? "") ?? .max < lines.firstIndex(where: { $0.contains("notice:") }) ?? 0)
    #expect(try Self.storedVersion(cli.workspace) == String(Tokenizer.version))
    let again = try cli.run(["search", "oresund"])
    #expect(again.stdout.contains("Øresund bridge notes"))
    #expect(again.stderr.isEmpty, "once rebuilt, nothing more is said: \(again.stderr)")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Search index: agrees with the records"))
  }

  @Test("doctor notes an outdated index as pending work the next search does, not a problem (exit 0), in text and JSON")
  func doctorNotesPendingRebuild() throws {
    let (cli, _, _) = try Self.outdatedWorkspace()
    defer { cli.dir.remove() }
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
    #expect(
      doctor.stdout.contains(
        "Search index: upgrade work pending (not a problem; see the note)\n  note: " + cli.naming(Self.pendingRebuild) + "\n"),
      "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("disagrees with the stored records"), "\(doctor.stdout)")
    #expect(doctor.stdout.hasSuffix("Doctor: healthy (the search index work noted as pending is not a problem).\n"))
    let json = try cli.run(["doctor", "--json"])
    #expect(json.status == 0)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(report["ok"] as? Bool == true)
    #expect(report["searchIndexUpgradePending"] as? Bool == true)
    #expect(report["searchIndexProblems"] as? [String] == [])
    #expect(report["searchIndexNotes"] as? [String] == [cli.naming(Self.pendingRebuild)])
    #expect(try Self.storedVersion(cli.workspace) == "1", "doctor writes nothing")
  }

  @Test("pending index work beside a real problem: doctor still exits 5 and names both")
  func pendingWorkBesideAProblem() throws {
    let (cli, _, _) = try Self.outdatedWorkspace()
    defer { cli.dir.remove() }
    let edit = try runProcess(
      "/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", "DELETE FROM lexical_document WHERE doc > 0"])
    try #require(edit.status == 0, "\(edit.stderr)")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("knowledge item(s) are missing from the search index"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("  note: " + cli.naming(Self.pendingRebuild) + "\n"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("`dolphin reindex --workspace \(cli.workspace)` rebuilds it from them."), "\(doctor.stdout)")
    #expect(doctor.stdout.hasSuffix("Doctor: problems found.\n"))
  }

  @Test("an index from a newer dolphin is left alone: searches work in memory, say so once, write nothing; doctor is healthy and advises no rebuild")
  func newerIndexIsLeftAlone() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Øresund bridge notes"]).status == 0)
    try Self.setVersion(cli.workspace, String(Tokenizer.version + 1))
    let before = try Unwritable.snapshot(cli.workspace)
    // `ask` is among them but writes its own receipts and messages, so it goes last.
    for args in [["search", "oresund"], ["search", "bridge", "--json"], ["ask", "/search oresund"]] {
      let r = try cli.run(args)
      #expect(r.status == 0, "\(args): \(r.stderr)")
      #expect(r.stdout.contains("Øresund bridge notes"), "\(args): \(r.stdout)")
      #expect(
        Self.notices(r.stderr) == [
          "dolphin: notice: the search index was built by a newer dolphin (tokenizer version \(Tokenizer.version + 1); this build's is \(Tokenizer.version)); it is left as it is, and searches here index every record in memory instead, which is slower. The newer dolphin searches it directly"
        ], "\(args): \(r.stderr)")
      if args[0] != "ask" {
        #expect(try Unwritable.snapshot(cli.workspace) == before, "\(args) wrote the workspace")
      }
    }
    #expect(try Self.storedVersion(cli.workspace) == String(Tokenizer.version + 1))
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Search index: agrees with the records\n  note: the search index was built by a newer dolphin"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Doctor: healthy."))
    #expect(!doctor.stdout.contains("reindex"), "no rebuild this build would undo: \(doctor.stdout)")
  }

  @Test("an unreadable stored version is called unreadable, not version 0, and the first search rebuilds the index")
  func unreadableVersion() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Øresund bridge notes"]).status == 0)
    try Self.setVersion(cli.workspace, "2.0")
    let doctor = try cli.run(["doctor", "--json"])
    #expect(doctor.status == 5)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any])
    #expect(
      report["searchIndexProblems"] as? [String] == [
        "the search index records an unreadable version ('2.0') of its tokenizer; this build tokenizes with version \(Tokenizer.version), so stored terms may not match queries until it is rebuilt"
      ])
    let search = try cli.run(["search", "oresund"])
    #expect(search.stdout.contains("Øresund bridge notes"))
    #expect(
      Self.notices(search.stderr) == [
        "dolphin: notice: rebuilt the search index for tokenizer version \(Tokenizer.version) (its recorded tokenizer version was unreadable: an unreadable version ('2.0')): re-indexed 1 document(s) (knowledge items and memories); no record changed"
      ], "\(search.stderr)")
    #expect(!search.stderr.contains("version 0"))
    #expect(try Self.storedVersion(cli.workspace) == String(Tokenizer.version))
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

  @Test("reindex over a newer dolphin's index rebuilds it as asked, and says what it replaced")
  func reindexOverNewerIndex() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Øresund bridge notes"]).status == 0)
    try Self.setVersion(cli.workspace, String(Tokenizer.version + 1))
    let reindex = try cli.run(["reindex", "--json"])
    #expect(reindex.status == 0, "\(reindex.stderr)")
    let out = try #require(try JSONSerialization.jsonObject(with: Data(reindex.stdout.utf8)) as? [String: Any])
    #expect(out["replacedTokenizerVersion"] as? Int == Tokenizer.version + 1)
    #expect(
      Self.notices(reindex.stderr) == [
        "dolphin: notice: the search index was built by a newer dolphin (tokenizer version \(Tokenizer.version + 1)); it now holds this build's (version \(Tokenizer.version)), and the newer dolphin will rebuild it again when it next ranks"
      ], "\(reindex.stderr)")
    #expect(try Self.storedVersion(cli.workspace) == String(Tokenizer.version))
    // A current index: no notice, no field.
    let again = try cli.run(["reindex", "--json"])
    #expect(again.stderr.isEmpty, "\(again.stderr)")
    #expect(!again.stdout.contains("replacedTokenizerVersion"))
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
    #expect(rebuilt.first?.contains("rebuilt the search index for tokenizer version \(Tokenizer.version)") == true)
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Doctor: healthy."))
  }

  @Test("a capture while another process rebuilds the index is stored, and the rebuilt index finds it")
  func captureDuringRebuild() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Øresund bridge notes"]).status == 0)
    try Self.makeVersion1(cli.workspace, extraNotes: 3_000)
    let workspace = cli.workspace
    let results = Mutex<[String: Result<ProcessResult, any Error>]>([:])
    DispatchQueue.concurrentPerform(iterations: 2) { i in
      let args = i == 0 ? ["search", "oresund"] : ["capture", "decision", "Ærø harbour schedule"]
      if i == 1 { usleep(200_000) }  // Let the search start its rebuild first.
      let result = Result { try runDolphin(args + ["--workspace", workspace]) }
      results.withLock { $0[args[0]] = result }
    }
    let search = try #require(try results.withLock { $0 }["search"]?.get())
    let capture = try #require(try results.withLock { $0 }["capture"]?.get())
    #expect(search.status == 0, "\(search.stderr)")
    #expect(capture.status == 0, "\(capture.stderr)")
    let found = try cli.run(["search", "aero harbour"])
    #expect(found.stdout.contains("Ærø harbour schedule"), "\(found.stdout)")
    #expect(found.stderr.isEmpty, "\(found.stderr)")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.stdout)")
  }

  @Test("dolphin mcp serves without touching an outdated index until a tool ranks; then it rebuilds once and says so once")
  func mcpRebuildsAtFirstRankingCall() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Øresund bridge notes"]).status == 0)
    try Self.makeVersion1(cli.workspace)
    let before = try Unwritable.snapshot(cli.workspace)
    let idle = try MCPRun(
      workspace: cli.workspace, ["--verbose"],
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"dolphin://digest/current"}}"#,
      ])
    #expect(idle.status == 0)
    #expect(idle.response("0")?["result"]?["protocolVersion"] == "2025-11-25")
    #expect(idle.response("2")?["result"] != nil, "\(idle.stdoutLines)")
    #expect(!idle.stderr.contains("search index"), "\(idle.stderr)")
    let afterIdle = try Unwritable.snapshot(cli.workspace)
    #expect(afterIdle == before, "no ranking call, no write: \(Set(afterIdle.keys).symmetricDifference(before.keys)) \(afterIdle.keys.filter { afterIdle[$0] != before[$0] }.map { ($0, afterIdle[$0]?.count ?? -1, before[$0]?.count ?? -1) }) \(idle.stderr)")

    let search = #"{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"oresund"}}}"#
    let run = try MCPRun(
      workspace: cli.workspace,
      lines: initializeLines + [
        search.replacingOccurrences(of: "ID", with: "1"), search.replacingOccurrences(of: "ID", with: "2"),
      ])
    #expect(run.status == 0)
    for id in ["1", "2"] {
      #expect(run.response(id)?["result"]?["structuredContent"]?["total"] == 1, "\(run.stdoutLines)")
    }
    #expect(
      Self.notices(run.stderr) == [
        "dolphin mcp: notice: rebuilt the search index for tokenizer version \(Tokenizer.version) (it was built with version 1): re-indexed 1 document(s) (knowledge items and memories); no record changed"
      ], "\(run.stderr)")
    #expect(try Self.storedVersion(cli.workspace) == String(Tokenizer.version))
  }
}
