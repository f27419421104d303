import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `dolphin` on a workspace directory it may not write: as root, inside a private mount
/// namespace where the directory is a read-only bind mount (nothing outside the child process
/// sees it); as any other user, with the directory's write permission removed.
enum Unwritable {
  enum Method { case readOnlyMount, chmod }

  static let method: Method? = {
    if getuid() != 0 { return .chmod }
    return ReliabilityScripts.namespacesPermitted ? .readOnlyMount : nil
  }()

  static let unavailable =
    "needs a read-only mount (root with `unshare -m`) or a non-root user (chmod); root cannot be denied writes by chmod"

  static func run(_ args: [String], in directory: String, stdin: String? = nil) throws -> ProcessResult {
    switch method {
    case .readOnlyMount:
      let script = #"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@""#
      return try runProcess(
        "/usr/bin/env", ["unshare", "-m", "sh", "-c", script, "sh", directory, dolphinExecutable().path] + args
          + ["--workspace", directory], stdin: stdin)
    case .chmod:
      chmod(directory, 0o500)
      defer { chmod(directory, 0o700) }
      return try runDolphin(args + ["--workspace", directory], stdin: stdin)
    case nil:
      throw CocoaError(.featureUnsupported)
    }
  }

  /// Every file under `directory` with its bytes.
  static func snapshot(_ directory: String) throws -> [String: Data] {
    var out: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
      out[name] = try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name))
    }
    return out
  }
}

@Suite("A workspace that cannot be written", .serialized, .enabled(if: Unwritable.method != nil, Comment(rawValue: Unwritable.unavailable)))
struct ReadOnlyWorkspaceTests {
  @Test("read-only commands work, export has everything, writes fail clearly, and no file changes")
  func readable() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "decision", "Readable decision", "--content", "Kept on a read-only disk"]).status == 0)
    #expect(try cli.run(["task", "add", "Readable task"]).status == 0)
    #expect(try cli.run(["memory", "save", "Readable memory"]).status == 0)
    let before = try Unwritable.snapshot(cli.workspace)
    #expect(before.keys.sorted() == ["workspace.sqlite"], "the last close removed -wal and -shm")

    let status = try Unwritable.run(["status", "--json"], in: cli.workspace)
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stderr.contains("is read-only: "), "\(status.stderr)")
    let counts = try #require((try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["counts"] as? [String: Int])
    #expect(counts["knowledge"] == 2 && counts["task"] == 1 && counts["memory"] == 1)

    for (args, expected) in [
      (["knowledge", "list"], "Readable decision"), (["search", "readable"], "Readable decision"),
      (["context"], "Readable decision"), (["task", "list"], "Readable task"), (["memory", "list"], "Readable memory"),
      (["export"], "Kept on a read-only disk"),
    ] {
      let r = try Unwritable.run(args, in: cli.workspace)
      #expect(r.status == 0, "\(args): \(r.stderr)")
      #expect(r.stdout.contains(expected), "\(args): \(r.stdout)")
    }

    let doctor = try Unwritable.run(["doctor"], in: cli.workspace)
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
    #expect(doctor.stdout.contains("Open: read-only ("))
    #expect(doctor.stdout.contains("PRAGMA integrity_check: ok"))
    #expect(doctor.stdout.contains("Doctor: healthy."))

    let write = try Unwritable.run(["capture", "fact", "Not stored"], in: cli.workspace)
    #expect(write.status == 5)
    #expect(write.stderr.contains("is open read-only ("), "\(write.stderr)")
    #expect(write.stderr.contains("nothing was written"), "\(write.stderr)")

    #expect(try Unwritable.snapshot(cli.workspace) == before)
  }

  @Test("a workspace from the build before schema step 0006: every read works, with a notice; doctor explains; no file changes")
  func earlierBuildWithoutStep0006() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "decision", "Earlier build decision", "--tags", "alpha"]).status == 0)
    #expect(try cli.run(["memory", "save", "Earlier build memory"]).status == 0)
    // As the previous build left it: no step 0006, no lexical_stale, a tag in the old form.
    let downgrade = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite",
       "DELETE FROM schema_migration WHERE name = '0006-normalize-stored-tags'; DROP TABLE lexical_stale; "
         + #"UPDATE knowledge SET tags = '[" Alpha "]' WHERE kind = 'decision';"#])
    try #require(downgrade.status == 0, "sqlite3 is needed to rebuild an earlier build's workspace: \(downgrade.stderr)")
    let before = try Unwritable.snapshot(cli.workspace)

    for (args, expected) in [
      (["status"], "Knowledge: 2"), (["knowledge", "list"], "Earlier build decision"),
      (["search", "earlier"], "Earlier build decision"), (["context"], "Earlier build decision"),
      (["memory", "list"], "Earlier build memory"), (["export"], "Earlier build decision"),
    ] {
      let r = try Unwritable.run(args, in: cli.workspace)
      // These exited 5: "open read-only (its schema is incomplete (pending step(s): 0006-…".
      #expect(r.status == 0, "\(args): \(r.stderr)")
      #expect(r.stdout.contains(expected), "\(args): \(r.stdout)")
      #expect(
        r.stderr.contains("was made by an earlier dolphin; its upgrade (step(s) 0006-normalize-stored-tags) finishes"),
        "\(args): \(r.stderr)")
    }
    // dolphin mcp gives the same notice on stderr when it starts; stdout stays JSON-RPC only.
    let mcp = try Unwritable.run(
      ["mcp"], in: cli.workspace,
      stdin: (initializeLines + [#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#]).joined(separator: "\n") + "\n")
    #expect(mcp.status == 0, "\(mcp.stderr)")
    #expect(
      mcp.stderr.contains(
        "dolphin mcp: notice: \(cli.workspace)/workspace.sqlite was made by an earlier dolphin; its upgrade (step(s) "
          + "0006-normalize-stored-tags) finishes the next time a command opens it where it can be written"),
      "\(mcp.stderr)")
    let lines = mcp.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(mcp.stdout)")
    for line in lines { #expect(try JSONValue(parsing: line)["jsonrpc"] == "2.0", "\(line)") }

    let doctor = try Unwritable.run(["doctor"], in: cli.workspace)
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
    #expect(!doctor.stdout.contains("interrupted"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Search index: agrees with the records"), "\(doctor.stdout)")
    #expect(
      doctor.stdout.contains("schema upgrade step(s) 0006-normalize-stored-tags are not applied yet"), "\(doctor.stdout)")
    #expect(try Unwritable.snapshot(cli.workspace) == before)

    // Where it can be written, doctor says the next command finishes it, and the next one does.
    let writableDoctor = try cli.run(["doctor"])
    #expect(writableDoctor.stdout.contains("the next command finishes the upgrade"), "\(writableDoctor.stdout)")
    let upgraded = try cli.run(["knowledge", "list", "--tag", "alpha"])
    #expect(upgraded.status == 0 && upgraded.stdout.contains("Earlier build decision"), "\(upgraded.stdout)\(upgraded.stderr)")
    #expect(!upgraded.stderr.contains("earlier dolphin"), "\(upgraded.stderr)")
  }

  // Regression case from a review (s9): step 0007 must behave on read-only paths as 0006 does.
  @Test("a workspace from before schema step 0007 with blank next steps: reads work, doctor reports them and that the upgrade removes them; no file changes")
  func earlierBuildWithoutStep0007() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let created = try cli.json(["handoff", "create", "--focus", "Read-only handoff", "--next", "Keep this"])
    let id = try #require((created["handoff"] as? [String: Any])?["id"] as? String, "\(created)")
    #expect(try cli.run(["capture", "decision", "Earlier build decision", "--tags", "alpha"]).status == 0)
    let step = "0007-renormalize-tags-drop-blank-next-steps"
    let downgrade = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite",
       "DELETE FROM schema_migration WHERE name = '\(step)'; "
         + #"UPDATE handoff SET next_steps = '["Keep this","\u2800"," "]'; "#
         + #"UPDATE knowledge SET tags = '["alpha","\u2800"]';"#])
    try #require(downgrade.status == 0, "sqlite3 is needed to rebuild an earlier build's workspace: \(downgrade.stderr)")
    let before = try Unwritable.snapshot(cli.workspace)

    for (args, expected) in [
      (["handoff", "get", id], "Read-only handoff"), (["knowledge", "list"], "Earlier build decision"),
      (["search", "earlier"], "Earlier build decision"), (["status"], "Handoffs:"),
    ] {
      let r = try Unwritable.run(args, in: cli.workspace)
      #expect(r.status == 0, "\(args): \(r.stderr)")
      #expect(r.stdout.contains(expected), "\(args): \(r.stdout)")
      #expect(
        r.stderr.contains("was made by an earlier dolphin; its upgrade (step(s) \(step)) finishes"), "\(args): \(r.stderr)")
    }
    let doctor = try Unwritable.run(["doctor"], in: cli.workspace)
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
    #expect(
      doctor.stdout.contains("Handoff next steps: 2 blank (showing nothing) in 1 handoff(s):\n  - handoff \(id): step(s) 2, 3\n"),
      "\(doctor.stdout)")
    #expect(
      doctor.stdout.contains(
        "Schema step \(step) removes them and keeps every other step as it is: the upgrade finishes the next time a "
          + "command opens the workspace where it can be written."),
      "\(doctor.stdout)")
    #expect(try Unwritable.snapshot(cli.workspace) == before)

    // Where it can be written, the next command removes them.
    let shown = try cli.record("handoff", ["handoff", "get", id])
    #expect(shown["nextSteps"] as? [String] == ["Keep this"], "\(shown)")
    #expect(try cli.run(["doctor"]).stdout.contains("Handoff next steps: none blank\n"))
  }

  @Test("a first run interrupted mid-upgrade: dolphin mcp starts, answers, and each tool call is a tool error naming the pending steps; no file changes")
  func interruptedFirstRunOverMCP() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "decision", "Interrupted workspace decision"]).status == 0)
    // As a first run killed right after step 0002 leaves it: later steps neither applied nor
    // recorded. Steps 0003-0005 are needed for reading, so it cannot be read as it is.
    let cut = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite",
       """
       DELETE FROM schema_migration WHERE name > '0002-lexical-index';
       DROP INDEX knowledge_tag_rowid; DROP INDEX knowledge_header;
       CREATE INDEX knowledge_kind ON knowledge(kind, updated_at);
       DROP INDEX knowledge_memory_mirror; DROP TABLE lexical_stale;
       DROP INDEX digest_created; DROP INDEX message_created; DROP INDEX receipt_started; DROP INDEX checkpoint_created;
       """])
    try #require(cut.status == 0, "sqlite3 is needed to cut the schema short: \(cut.stderr)")
    let before = try Unwritable.snapshot(cli.workspace)
    let pending =
      "pending step(s): 0003-knowledge-tag-rowid-index, 0004-knowledge-header-covering-index, "
      + "0005-knowledge-memory-mirror-index, 0006-normalize-stored-tags, 0007-renormalize-tags-drop-blank-next-steps, "
      + "0008-activity-date-indexes, 0009-task-updated-at"

    let mcp = try Unwritable.run(
      ["mcp"], in: cli.workspace,
      stdin: (initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"interrupted"}}}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"project_context","arguments":{}}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
      ]).joined(separator: "\n") + "\n")
    #expect(mcp.status == 0, "\(mcp.stderr)")
    // stdout holds JSON-RPC only: one answer per request.
    let messages = try mcp.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    #expect(messages.count == 4, "\(mcp.stdout)")
    #expect(messages.allSatisfy { $0["jsonrpc"] == "2.0" }, "\(mcp.stdout)")
    func response(_ id: Int) -> JSONValue? { messages.first { $0["id"]?.int == id } }
    #expect(response(0)?["result"]?["serverInfo"]?["name"] == "dolphin", "\(mcp.stdout)")
    #expect(response(3)?["result"] == [:], "\(mcp.stdout)")
    for id in [1, 2] {
      let result = try #require(response(id)?["result"], "\(mcp.stdout)")
      #expect(result["isError"] == true, "\(result)")
      #expect(result.toolErrorDetails?["error"]?["kind"] == "workspaceUnavailable", "\(result)")
      let text = result["content"]?.array?.first?["text"]?.string ?? ""
      #expect(text.contains("its schema is incomplete (\(pending)) and cannot be completed here"), "\(text)")
      #expect(text.contains("run any dolphin command once where the workspace can be written"), "\(text)")
      #expect(!text.contains("Interrupted workspace decision"), "nothing read from the incomplete schema")
    }
    #expect(mcp.stderr.contains("its schema is incomplete"), "the open's warning: \(mcp.stderr)")
    #expect(try Unwritable.snapshot(cli.workspace) == before)

    // The CLI refuses it the same way; where it can be written, the next command completes it.
    let status = try Unwritable.run(["status"], in: cli.workspace)
    #expect(status.status == 5, "\(status.stdout)\(status.stderr)")
    #expect(status.stderr.contains("its schema is incomplete (\(pending))"), "\(status.stderr)")
    let search = try cli.run(["search", "interrupted"])
    #expect(search.status == 0 && search.stdout.contains("Interrupted workspace decision"), "\(search.stdout)\(search.stderr)")
  }

  @Test("an index from an older tokenizer: searches still find every record and say why, doctor reports it, no file changes")
  func staleSearchIndex() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Øresund bridge notes", "--tags", "travel"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Łódź meetup"]).status == 0)
    try IndexUpgradeCommandTests.makeVersion1(cli.workspace)
    let before = try Unwritable.snapshot(cli.workspace)

    for (args, expected) in [(["search", "oresund"], "Øresund bridge notes"), (["search", "lodz", "--explain"], "term lodz: exact")] {
      let search = try Unwritable.run(args, in: cli.workspace)
      #expect(search.status == 0, "\(search.stderr)")
      #expect(search.stdout.contains(expected), "\(search.stdout)")
      #expect(
        search.stderr.contains(
          "dolphin: notice: the search index was built with tokenizer version 1, not this build's \(Tokenizer.version), and cannot be rebuilt here ("),
        "\(search.stderr)")
      #expect(search.stderr.contains("searches index every record in memory instead"))
    }

    // Pending work, not a problem: doctor notes it and says where it gets done.
    let doctor = try Unwritable.run(["doctor"], in: cli.workspace)
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
    #expect(
      doctor.stdout.contains(
        "  note: pending: the search index was built with tokenizer version 1 and this build tokenizes with version \(Tokenizer.version), "
          + "so it is to be rebuilt from the records; the next search run where the workspace can be written does it by "
          + "itself (until then searches here read every record instead, which is slower)\n"),
      "\(doctor.stdout)")
    #expect(try Unwritable.snapshot(cli.workspace) == before)

    // Where it can be written, the next command rebuilds it.
    let writable = try cli.run(["search", "oresund"])
    #expect(writable.stderr.contains("dolphin: notice: rebuilt the search index"), "\(writable.stderr)")
  }

  @Test("committed changes still in the -wal: read with its -shm; without it, refused saying why, and doctor says the same")
  func walLeftBehind() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Checkpointed"]).status == 0)
    let db = cli.workspace + "/workspace.sqlite"
    // The capture stays in the WAL; -wal and -shm are left behind as a crash would.
    try ReliabilityScripts.leavingWrites(inWALOf: db) {
      let capture = try cli.run(["capture", "fact", "Only in the WAL"])
      #expect(capture.status == 0)
    }
    let wal = try Data(contentsOf: URL(fileURLWithPath: db + "-wal"))
    #expect(!wal.isEmpty)

    let withIndex = try Unwritable.run(["knowledge", "list"], in: cli.workspace)
    #expect(withIndex.status == 0, "\(withIndex.stderr)")
    #expect(withIndex.stdout.contains("Only in the WAL"), "\(withIndex.stdout)")

    // The same files without the -shm: SQLite would have to create it; immutable mode would
    // ignore the -wal and show the older state, so the open is refused instead.
    let copy = cli.dir.appending("copy").path
    try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    for suffix in ["", "-wal"] {
      try FileManager.default.copyItem(atPath: db + suffix, toPath: copy + "/workspace.sqlite" + suffix)
    }
    let before = try Unwritable.snapshot(copy)
    let refused = try Unwritable.run(["knowledge", "list"], in: copy)
    #expect(refused.status == 5)
    #expect(refused.stderr.contains("committed changes are still in its -wal file (\(wal.count) bytes)"), "\(refused.stderr)")
    #expect(!refused.stdout.contains("Checkpointed"), "an older state must not be shown")

    let doctor = try Unwritable.run(["doctor"], in: copy)
    #expect(doctor.status == 5)
    #expect(doctor.stdout.contains("Open: failed (read-only): "), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("PRAGMA integrity_check: not run"))
    #expect(doctor.stdout.contains("References: not run"))
    #expect(doctor.stdout.contains("Search index: not run"))
    #expect(!doctor.stdout.contains(".recover"), "a healthy database needs no recovery advice")
    #expect(doctor.stdout.contains("Doctor: the database could not be opened; nothing was checked."))
    #expect(try Unwritable.snapshot(copy) == before)

    // Where it can be written, the same copy opens with every committed change.
    let writable = try runDolphin(["knowledge", "list", "--workspace", copy])
    #expect(writable.stdout.contains("Only in the WAL"))
  }
}

/// Doctor when the database cannot be opened, for reasons root can reproduce.
@Suite("doctor when the database cannot be opened", .serialized)
struct DoctorOpenFailureTests {
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var prepare: @Sendable (URL) throws -> Void
    var status: Int32
    var reason: String
    var advice: String
    var description: String { name }
  }

  // A path that is a file is refused before doctor runs, as for every command (review 30-a, 13:
  // `WorkspaceCreationTests.workspaceIsAFile`).
  static let cases: [Case] = [
    Case(
      name: "not a database", prepare: { ws in
        try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: ws.appendingPathComponent("workspace.sqlite"))
      }, status: 5, reason: "not a database", advice: ".recover"),
    Case(name: "no workspace", prepare: { _ in }, status: 3, reason: "no workspace", advice: "`dolphin capture KIND TITLE` creates a workspace"),
    Case(
      name: "a symbolic link loop", prepare: { ws in
        try FileManager.default.createSymbolicLink(atPath: ws.path, withDestinationPath: ws.lastPathComponent)
      }, status: 4, reason: "symbolic link", advice: "Replace or remove the link"),
  ]

  /// The check results of the JSON report; each is `null` when the check did not run.
  static let checkResultKeys = [
    "integrityCheck", "malformedRecords", "referenceProblems", "searchIndexProblems", "searchIndexStaleRecords",
    "searchIndexNotes", "searchIndexUpgradePending", "quarantined", "credentials",
  ]

  @Test("says why, marks the checks not run, gives fitting advice, and exits 5 (3 without a workspace)", arguments: cases)
  func openFailure(_ c: Case) throws {
    let dir = TemporaryDirectory("doctor-open")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try c.prepare(ws)
    let r = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(r.status == c.status, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("Open: failed (\(c.reason)): "), "\(r.stdout)")
    for check in ["PRAGMA integrity_check", "References", "Search index", "Credentials"] {
      #expect(r.stdout.contains("\(check): not run"), "\(r.stdout)")
    }
    #expect(!r.stdout.contains("References: ok") && !r.stdout.contains("agrees with the records"))
    #expect(!r.stdout.contains("run `dolphin doctor"), "doctor must not point to itself")
    #expect(r.stdout.contains(namingWorkspace(c.advice, ws.path)), "\(r.stdout)")
    let json = try runDolphin(["doctor", "--json", "--workspace", ws.path])
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((obj["openProblem"] as? [String: Any])?["reason"] as? String == c.reason)
    #expect(obj["checksRun"] as? Bool == false && obj["ok"] as? Bool == false)
    // The failure as every command's --json gives it (review, s17: a script checking `.error` found none).
    let error = try #require(obj["error"] as? [String: Any], "\(json.stdout)")
    #expect(error["exitCode"] as? Int == Int(c.status) && json.status == c.status)
    #expect((error["message"] as? String)?.hasPrefix("cannot open the workspace (\(c.reason)): ") == true, "\(error)")
    #expect(error["kind"] as? String == (c.status == 3 ? "notFound" : c.status == 4 ? "validation" : "storage"))
    // No result for a check that never ran: `null`, not a clean-looking default.
    for key in Self.checkResultKeys {
      #expect(obj[key] is NSNull, "\(key) should be null when the checks did not run: \(json.stdout)")
    }
    #expect(json.status == c.status)
  }

  @Test("--json gives every check result when the checks ran")
  func checkResultsWhenRun() throws {
    let dir = TemporaryDirectory("doctor-ran")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    _ = try runDolphin(["capture", "fact", "Doctor checks ran", "--workspace", ws])
    let json = try runDolphin(["doctor", "--json", "--workspace", ws])
    #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(obj["checksRun"] as? Bool == true)
    #expect(obj["integrityCheck"] as? [String] == ["ok"])
    #expect(obj["quarantined"] as? Int == 0 && obj["searchIndexUpgradePending"] as? Bool == false)
    #expect((obj["credentials"] as? [String: Any])?["complete"] as? Bool == true)
    for key in ["malformedRecords", "referenceProblems", "searchIndexProblems", "searchIndexNotes"] {
      #expect(obj[key] as? [Any] != nil, "\(key): \(json.stdout)")
    }
  }
}

/// A workspace read while its database was read-only, then made writable again: SQLite gave the
/// `-wal` and `-shm` it created the database's read-only mode, which kept every later write out.
@Suite(
  "Side files left read-only by a read",
  .enabled(
    if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
    "needs root and setpriv to run dolphin as another user (root is never denied a write)"))
struct ReadOnlySideFileTests {
  static func asNobody(_ args: [String]) throws -> ProcessResult {
    try runProcess(
      "/usr/bin/setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", dolphinExecutable().path] + args)
  }

  /// A workspace of one note, owned by uid 65534, read once while its database was 0400 (which
  /// leaves `-wal` and `-shm` 0400), then made 0600 again; the paths of the workspace and its
  /// database.
  static func readWhileReadOnly(_ directory: TemporaryDirectory) throws -> (workspace: String, db: String) {
    chown(directory.path, 65534, 65534)
    let workspace = directory.appending("ws").path
    let db = workspace + "/workspace.sqlite"
    #expect(try asNobody(["capture", "fact", "First note", "--workspace", workspace]).status == 0)
    chmod(db, 0o400)
    #expect(try asNobody(["status", "--workspace", workspace]).status == 0)
    // The premise: the read left both side files with the database's read-only mode.
    for suffix in ["-wal", "-shm"] {
      var st = stat()
      try #require(stat(db + suffix, &st) == 0, "\(suffix) exists")
      #expect(st.st_mode & 0o777 == 0o400, "\(suffix)")
    }
    chmod(db, 0o600)
    return (workspace, db)
  }

  @Test("after chmod 600 on the database, writes work again: dolphin repairs the side files it owns")
  func writesWorkAfterTheDatabaseIsWritableAgain() throws {
    let directory = TemporaryDirectory("sidefiles")
    defer { directory.remove() }
    let (workspace, _) = try Self.readWhileReadOnly(directory)
    let second = try Self.asNobody(["capture", "fact", "Second note", "--workspace", workspace])
    #expect(second.status == 0, "\(second.stderr)")
    let list = try Self.asNobody(["knowledge", "list", "--workspace", workspace])
    #expect(list.stdout.contains("First note") && list.stdout.contains("Second note"), "\(list.stdout)")
  }

  @Test("side files of another owner whose -wal is not empty are left alone and named, with their owner, as what blocks writing")
  func sideFilesOfAnotherOwnerAreNamed() throws {
    let directory = TemporaryDirectory("sidefiles-owner")
    defer { directory.remove() }
    let (workspace, db) = try Self.readWhileReadOnly(directory)
    // Bytes in the -wal stand for commits not yet in the database. (An empty -wal, as a reader
    // leaves it, is removed with its -shm instead: OtherUsersSideFilesTests.)
    try Data(repeating: 0, count: 32).write(to: URL(fileURLWithPath: db + "-wal"))
    for suffix in ["-wal", "-shm"] {
      chown(db + suffix, 0, 0)
      chmod(db + suffix, 0o644)
    }
    let blocked = try Self.asNobody(["capture", "fact", "Second note", "--workspace", workspace])
    #expect(blocked.status == 5, "\(blocked.stderr)")
    #expect(blocked.stderr.contains("\(db)-wal and \(db)-shm"), "\(blocked.stderr)")
    #expect(blocked.stderr.contains("another user, root (uid 0), owns them") && blocked.stderr.contains("`chown -h 65534 "), "\(blocked.stderr)")
    // Removing a -wal file can lose saved changes: the advice is to give them back, never to
    // delete them.
    #expect(blocked.stderr.contains("`chown -h 65534 "), "\(blocked.stderr)")
    #expect(blocked.stderr.contains("do not delete them"), "\(blocked.stderr)")
    #expect(!blocked.stderr.contains("remove them"), "\(blocked.stderr)")
    // Left as they were.
    var st = stat()
    #expect(stat(db + "-shm", &st) == 0 && st.st_uid == 0 && st.st_mode & 0o777 == 0o644)
  }
}
