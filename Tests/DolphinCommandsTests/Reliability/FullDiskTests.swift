import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Runs `dolphin` on a copy of a workspace on a small tmpfs (2 MiB) that is then filled up, in a
/// private mount namespace (`unshare -m`, as `scripts/fault-injection.sh` does): a real full disk,
/// which nothing outside the child process sees. Needs root.
enum FullDisk {
  static let unavailable = "needs root and `unshare -m` to mount a small tmpfs (CI runs as root)"

  /// One command line run with `--workspace` on the copy; `stdin` is fed to it when set.
  struct Command: Sendable {
    var args: [String]
    var stdin: String?
    init(_ args: [String], stdin: String? = nil) {
      self.args = args
      self.stdin = stdin
    }
  }

  /// One command's exit status and output.
  struct Output: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// What one session did.
  struct Session {
    /// The workspace copy on the tmpfs, as the commands named it.
    var workspace: String
    /// Its database file.
    var database: String { workspace + "/" + SQLiteWorkspaceStore.fileName }
    /// The free bytes `statvfs` reported once the disk was filled (`stat -f`).
    var freeBytesWhenFull: Int64
    /// What the commands run on the full disk gave, in order.
    var whileFull: [Output]
    /// Whether `workspace.sqlite` held the same bytes after those commands as before them.
    var databaseUnchanged: Bool
    /// What the commands run once the filler was removed gave, in order.
    var afterFreeing: [Output]
    /// The directory the shell snippets saw as `$OUT`, for files they wrote.
    var outputDirectory: String
  }

  /// `text` as one shell word.
  static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

  /// Copies `workspace` onto a fresh 2 MiB tmpfs, runs `prepare` (shell, with `$WS` the copy,
  /// `$DOLPHIN` the binary, `$PYTHON` the test Python), fills the disk leaving `leaveFree` bytes
  /// (or, with `outOfInodes`, creates empty files until no inode is left), runs `whileFull`, then
  /// `beforeFreeing` (shell), removes the filler and runs `afterFreeing`.
  /// - Parameters:
  ///   - workspace: a workspace directory whose last command has closed it (no `-wal`); left as it is.
  ///   - scratch: a directory on another filesystem for the script, the outputs and the mount point.
  static func run(
    workspace: String, scratch: TemporaryDirectory, leaveFree: Int64 = 0, outOfInodes: Bool = false,
    prepare: String = "", whileFull: [Command], beforeFreeing: String = "", afterFreeing: [Command] = []
  ) throws -> Session {
    let out = scratch.appending("full-disk-out").path
    let mount = scratch.appending("full-disk-mnt").path
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
    var script = """
      set -u
      OUT=\(quoted(out)) MNT=\(quoted(mount)) DOLPHIN=\(quoted(dolphinExecutable().path))
      PYTHON=\(quoted(ReliabilityScripts.python)) WS="$MNT/ws"
      mount -t tmpfs -o size=2m,mode=0755\(outOfInodes ? ",nr_inodes=64" : "") tmpfs "$MNT" || exit 90
      cp -a \(quoted(workspace)) "$WS" || exit 91
      run() { n=$1; shift; if [ -e "$OUT/$n.in" ]; then in="$OUT/$n.in"; else in=/dev/null; fi
        "$DOLPHIN" "$@" --workspace "$WS" <"$in" >"$OUT/$n.out" 2>"$OUT/$n.err"; echo $? >"$OUT/$n.status"; }
      \(prepare)
      avail=$(( $(stat -f -c '%a*%S' "$MNT") ))
      if [ \(outOfInodes ? 1 : 0) = 1 ]; then i=0; while (: >"$MNT/filler$i") 2>/dev/null; do i=$((i + 1)); done
      elif [ \(leaveFree) -gt 0 ]; then fallocate -l $(( avail - \(leaveFree) )) "$MNT/filler" || exit 92
      else dd if=/dev/zero of="$MNT/filler" bs=4k >/dev/null 2>&1; fi
      echo $(( $(stat -f -c '%a*%S' "$MNT") )) >"$OUT/free"
      cp "$WS/workspace.sqlite" "$OUT/before.sqlite"

      """
    func lines(_ commands: [Command], prefix: String) throws -> String {
      var text = ""
      for (i, command) in commands.enumerated() {
        if let stdin = command.stdin { try Data(stdin.utf8).write(to: URL(fileURLWithPath: "\(out)/\(prefix)\(i).in")) }
        text += "run \(prefix)\(i) " + command.args.map(quoted).joined(separator: " ") + "\n"
      }
      return text
    }
    script += try lines(whileFull, prefix: "full")
    script += """
      cmp -s "$WS/workspace.sqlite" "$OUT/before.sqlite"; echo $? >"$OUT/unchanged"
      \(beforeFreeing)
      rm -f "$MNT"/filler*

      """
    script += try lines(afterFreeing, prefix: "after")
    script += "kill -9 $(jobs -p) 2>/dev/null; wait 2>/dev/null; exit 0\n"
    let scriptPath = scratch.appending("full-disk.sh").path
    try Data(script.utf8).write(to: URL(fileURLWithPath: scriptPath))
    let r = try ReliabilityScripts.run(["unshare", "-m", "--propagation", "private", "sh", scriptPath])
    try #require(r.status == 0, "the full-disk session could not be set up (exit \(r.status)): \(r.stderr)")
    func read(_ name: String) -> String { (try? String(contentsOfFile: "\(out)/\(name)", encoding: .utf8)) ?? "" }
    func results(_ prefix: String, _ count: Int) -> [Output] {
      (0..<count).map { i in
        Output(
          status: Int32(read("\(prefix)\(i).status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
          stdout: read("\(prefix)\(i).out"), stderr: read("\(prefix)\(i).err"))
      }
    }
    return Session(
      workspace: mount + "/ws",
      freeBytesWhenFull: Int64(read("free").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
      whileFull: results("full", whileFull.count),
      databaseUnchanged: read("unchanged").hasPrefix("0"),
      afterFreeing: results("after", afterFreeing.count), outputDirectory: out)
  }

  /// A workspace of a few real records, closed (no `-wal`): two knowledge items, a task, a
  /// handoff and a memory (whose knowledge mirror makes three items); the first item's id.
  static func makeWorkspace(_ cli: CLI) throws -> String {
    let item = try cli.json([
      "capture", "decision", "Keep the workspace on SQLite", "--content", "WAL mode, single-row writes", "--tags", "storage",
    ])
    let id = try #require((item["item"] as? [String: Any])?["id"] as? String, "\(item)")
    for args in [
      ["capture", "fact", "Backups run nightly", "--content", "rsync to the NAS at 02:00"],
      ["task", "add", "Rotate the backup disk"], ["memory", "save", "The NAS is in the hall cupboard"],
      ["handoff", "create", "--focus", "Disk space review", "--next", "Check the backup volume"],
    ] {
      let r = try cli.run(args)
      try #require(r.status == 0, "\(args): \(r.stderr)")
    }
    return id
  }
}

/// A full disk keeps every reading command working and fails only writes, clearly (review s21:
/// every command, reads and `doctor` included, failed with "disk I/O error", because opening the
/// workspace for writing maps SQLite's `-shm` index, which could not grow).
@Suite("A workspace on a full disk", .serialized, .enabled(if: ReliabilityScripts.namespacesPermitted, Comment(rawValue: FullDisk.unavailable)))
struct FullDiskTests {
  struct ReadCase: CustomTestStringConvertible, Sendable {
    var name: String
    /// `{id}` stands for the first knowledge item's id, `{export}` for a file on another disk.
    var args: [String]
    var stdin: String? = nil
    /// What standard output holds.
    var expected: [String]
    var testDescription: String { name }
  }

  static let mcpSearch =
    (initializeLines + [
      #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"backups"}}}"#
    ]).joined(separator: "\n") + "\n"

  static let reads: [ReadCase] = [
    ReadCase(name: "status", args: ["status"], expected: ["Knowledge: 3"]),
    ReadCase(name: "search", args: ["search", "backups"], expected: ["\"Backups run nightly\""]),
    ReadCase(name: "context", args: ["context"], expected: ["Keep the workspace on SQLite"]),
    ReadCase(name: "knowledge list", args: ["knowledge", "list"], expected: ["3 item(s) shown of 3", "Backups run nightly"]),
    ReadCase(name: "knowledge get", args: ["knowledge", "get", "{id}"], expected: ["WAL mode, single-row writes"]),
    ReadCase(name: "task list", args: ["task", "list"], expected: ["Rotate the backup disk"]),
    ReadCase(name: "handoff list", args: ["handoff", "list"], expected: ["Disk space review"]),
    ReadCase(name: "memory list", args: ["memory", "list"], expected: ["The NAS is in the hall cupboard"]),
    ReadCase(name: "export to stdout", args: ["export"], expected: ["\"Keep the workspace on SQLite\"", "rsync to the NAS at 02:00"]),
    ReadCase(name: "export --output onto another disk", args: ["export", "--output", "{export}"], expected: []),
    ReadCase(name: "dolphin mcp knowledge_search", args: ["mcp"], stdin: mcpSearch, expected: ["Backups run nightly"]),
  ]

  @Test("a reading command works, says once that the disk is full, and changes no byte of the database", arguments: reads)
  func read(_ c: ReadCase) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try FullDisk.makeWorkspace(cli)
    let export = cli.dir.appending("rescue.json").path
    let args = c.args.map { $0 == "{id}" ? id : $0 == "{export}" ? export : $0 }
    let session = try FullDisk.run(
      workspace: cli.workspace, scratch: cli.dir, whileFull: [FullDisk.Command(args, stdin: c.stdin)])
    #expect(session.freeBytesWhenFull == 0, "the premise: nothing left on the disk")
    let r = try #require(session.whileFull.first)
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    for text in c.expected { #expect(r.stdout.contains(text), "\(text): \(r.stdout)") }
    // `dolphin mcp` words its notice as it does for any read-only workspace.
    let notice = c.args == ["mcp"] ? "dolphin mcp: notice: \(session.database) is read-only (" : "dolphin: notice: \(session.database) is read-only: "
    #expect(
      r.stderr.contains(
        notice + "the disk is full (0 bytes free of 2 MiB on the filesystem holding \(session.workspace)); to store "
          + "anything, free space on that disk"),
      "\(r.stderr)")
    #expect(!r.stderr.contains("error"), "\(r.stderr)")
    #expect(session.databaseUnchanged)
    if args.contains(export) {
      let saved = try String(contentsOfFile: export, encoding: .utf8)
      #expect(saved.contains("Keep the workspace on SQLite") && saved.contains("The NAS is in the hall cupboard"))
    }
  }

  @Test("doctor reports the full disk with its free space and what to do (exit 5), checks everything, and is healthy once space is freed")
  func doctor() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try FullDisk.makeWorkspace(cli)
    let session = try FullDisk.run(
      workspace: cli.workspace, scratch: cli.dir,
      whileFull: [FullDisk.Command(["doctor"]), FullDisk.Command(["doctor", "--json"])],
      afterFreeing: [FullDisk.Command(["doctor", "--json"])])
    let text = session.whileFull[0]
    #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
    #expect(text.stdout.contains("Open: read-only (the disk is full (0 bytes free of 2 MiB on the filesystem holding \(session.workspace)))\n"), "\(text.stdout)")
    #expect(text.stdout.contains("\nDisk: full: 0 bytes free of 2 MiB on the filesystem holding \(session.workspace)\n"), "\(text.stdout)")
    #expect(text.stdout.contains("PRAGMA integrity_check: ok"))
    #expect(text.stdout.contains("References: ok") && text.stdout.contains("Search index: agrees with the records"))
    #expect(
      text.stdout.contains(
        "The disk holding the workspace is full (0 bytes free of 2 MiB): every command that stores something fails, and "
          + "nothing stored is lost; the checks above read the workspace as it is on disk. Free space on that disk"),
      "\(text.stdout)")
    #expect(text.stdout.contains("`dolphin export --output FILE --workspace \(session.workspace)`, with FILE on another disk"))
    #expect(text.stdout.hasSuffix("Doctor: problems found.\n"), "\(text.stdout)")

    let json = try #require(try JSONSerialization.jsonObject(with: Data(session.whileFull[1].stdout.utf8)) as? [String: Any])
    #expect(session.whileFull[1].status == 5)
    #expect(json["ok"] as? Bool == false && json["checksRun"] as? Bool == true)
    #expect(json["integrityCheck"] as? [String] == ["ok"])
    let disk = try #require(json["diskSpace"] as? [String: Any], "\(json)")
    #expect(disk["full"] as? Bool == true && disk["availableBytes"] as? Int == 0 && disk["totalBytes"] as? Int == 2 << 20)
    #expect((json["error"] as? [String: Any])?["exitCode"] as? Int == 5)

    let after = try #require(try JSONSerialization.jsonObject(with: Data(session.afterFreeing[0].stdout.utf8)) as? [String: Any])
    #expect(session.afterFreeing[0].status == 0, "\(session.afterFreeing[0].stdout)")
    #expect(after["ok"] as? Bool == true && (after["diskSpace"] as? [String: Any])?["full"] as? Bool == false)
    #expect(session.databaseUnchanged)
  }

  @Test("a capture on a full disk fails naming the file, the full disk and what to do (exit 5); nothing is lost, and it succeeds once space is freed")
  func captureOnFullDisk() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try FullDisk.makeWorkspace(cli)
    let session = try FullDisk.run(
      workspace: cli.workspace, scratch: cli.dir,
      whileFull: [FullDisk.Command(["capture", "fact", "Written on a full disk"])],
      afterFreeing: [
        FullDisk.Command(["doctor"]), FullDisk.Command(["capture", "fact", "Written after freeing space"]),
        FullDisk.Command(["knowledge", "list"]),
      ])
    let refused = session.whileFull[0]
    #expect(refused.status == 5)
    // One line: no notice repeating what the error says.
    #expect(
      refused.stderr
        == "dolphin: error: \(session.database) is open read-only (the disk is full (0 bytes free of 2 MiB on the "
        + "filesystem holding \(session.workspace)); to store anything, free space on that disk (remove or move files "
        + "there) and run the command again; until then commands that only read work, and `dolphin export --output FILE --workspace \(session.workspace)`, "
        + "with FILE on another disk, saves a copy of everything); nothing was written\n",
      "\(refused.stderr)")
    #expect(session.databaseUnchanged)
    let doctor = session.afterFreeing[0]
    #expect(doctor.status == 0 && doctor.stdout.contains("PRAGMA integrity_check: ok"), "\(doctor.stdout)")
    #expect(doctor.stdout.hasSuffix("Doctor: healthy.\n"), "\(doctor.stdout)")
    #expect(session.afterFreeing[1].status == 0, "\(session.afterFreeing[1].stderr)")
    let list = session.afterFreeing[2].stdout
    #expect(list.hasPrefix("4 item(s) shown of 4"), "\(list)")
    #expect(list.contains("Written after freeing space") && !list.contains("Written on a full disk"), "\(list)")
  }

  @Test("a write that runs out of space midway (SQLITE_FULL) fails naming the file, the free space and what to do; reads go on; nothing is lost")
  func writeRunsOutOfSpace() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try FullDisk.makeWorkspace(cli)
    // 2,600 distinct words: the item and its index rows need more than the 64 KiB left.
    let content = (0..<2_600).map { "w\($0)" }.joined(separator: " ")
    let session = try FullDisk.run(
      workspace: cli.workspace, scratch: cli.dir, leaveFree: 64 << 10,
      whileFull: [
        FullDisk.Command(["knowledge", "list"]), FullDisk.Command(["capture", "context", "Too big to fit", "--content", content]),
        FullDisk.Command(["search", "backups"]),
      ],
      afterFreeing: [FullDisk.Command(["doctor"]), FullDisk.Command(["capture", "context", "Fits now", "--content", content])])
    #expect(session.freeBytesWhenFull == 64 << 10)
    // The open needs no fallback here: there was room for the -shm index.
    let list = session.whileFull[0]
    #expect(list.status == 0 && list.stdout.contains("3 item(s) shown of 3") && list.stderr.isEmpty, "\(list.stderr)")
    let capture = session.whileFull[1]
    #expect(capture.status == 5)
    #expect(
      capture.stderr.hasPrefix(
        "dolphin: error: storage error in \(session.database): SQLite error 13: the disk is full ("), "\(capture.stderr)")
    #expect(capture.stderr.contains(" on the filesystem holding \(session.workspace)); nothing was written (SQLite: database or disk is full). To store anything, free space on that disk"), "\(capture.stderr)")
    let search = session.whileFull[2]
    #expect(search.status == 0 && search.stdout.contains("Backups run nightly"), "\(search.stderr)")
    let doctor = session.afterFreeing[0]
    #expect(doctor.status == 0 && doctor.stdout.hasSuffix("Doctor: healthy.\n"), "\(doctor.stdout)")
    #expect(session.afterFreeing[1].status == 0, "\(session.afterFreeing[1].stderr)")
  }

  @Test("committed changes still in the -wal after a crash are read on a full disk, from the -wal itself")
  func walLeftByACrash() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try FullDisk.makeWorkspace(cli)
    // Reading the -wal needs a new -shm index, which a full disk cannot hold.
    let session = try FullDisk.run(
      workspace: cli.workspace, scratch: cli.dir, prepare: Self.crashLeavingWAL,
      whileFull: [FullDisk.Command(["knowledge", "list"]), FullDisk.Command(["doctor"])],
      afterFreeing: [FullDisk.Command(["knowledge", "list"]), FullDisk.Command(["doctor"])])
    let list = session.whileFull[0]
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.hasPrefix("4 item(s) shown of 4") && list.stdout.contains("Only in the WAL"), "\(list.stdout)")
    #expect(list.stderr.contains("is read-only: the disk is full (0 bytes free"), "\(list.stderr)")
    #expect(!list.stderr.contains("immutable"), "immutable mode would have hidden the -wal: \(list.stderr)")
    let doctor = session.whileFull[1]
    #expect(doctor.status == 5 && doctor.stdout.contains("PRAGMA integrity_check: ok"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("Disk: full: 0 bytes free"))
    #expect(session.afterFreeing[0].stdout.contains("Only in the WAL"), "\(session.afterFreeing[0].stdout)")
    #expect(session.afterFreeing[1].stdout.hasSuffix("Doctor: healthy.\n"), "\(session.afterFreeing[1].stdout)")
  }

  @Test("a schema step still pending on a full disk: reading works on the records as stored, and the upgrade finishes once space is freed")
  func pendingSchemaStep() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try FullDisk.makeWorkspace(cli)
    // As the build before step 0008 left it.
    let downgrade = try runProcess(
      "/usr/bin/env",
      ["sqlite3", cli.workspace + "/workspace.sqlite",
       "DELETE FROM schema_migration WHERE name = '0008-activity-date-indexes'; DROP INDEX digest_created; "
         + "DROP INDEX message_created; DROP INDEX receipt_started; DROP INDEX checkpoint_created;"])
    try #require(downgrade.status == 0, "sqlite3 is needed to rebuild an earlier build's workspace: \(downgrade.stderr)")
    // Another process holds the workspace open, so its -shm index exists at full size: the open
    // for writing succeeds, and it is the schema step's write that finds no room.
    let prepare = #"""
      "$PYTHON" -c 'import sqlite3,sys,time
      c=sqlite3.connect(sys.argv[1]); c.execute("SELECT count(*) FROM knowledge").fetchone(); print("ready", flush=True); time.sleep(60)' "$WS/workspace.sqlite" >"$OUT/holder" &
      H=$!; while ! grep -q ready "$OUT/holder" 2>/dev/null; do sleep 0.05; done
      """#
    let session = try FullDisk.run(
      workspace: cli.workspace, scratch: cli.dir, prepare: prepare,
      whileFull: [FullDisk.Command(["knowledge", "list"]), FullDisk.Command(["search", "backups"])],
      beforeFreeing: "kill -9 $H; wait $H 2>/dev/null",
      afterFreeing: [FullDisk.Command(["knowledge", "list"]), FullDisk.Command(["doctor", "--json"])])
    for r in session.whileFull {
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("Backups run nightly"), "\(r.stdout)")
      #expect(r.stderr.contains("is read-only: the disk is full (0 bytes free"), "\(r.stderr)")
      #expect(r.stderr.contains("was made by an earlier dolphin; its upgrade (step(s) 0008-activity-date-indexes) finishes"), "\(r.stderr)")
    }
    #expect(session.databaseUnchanged)
    let upgraded = session.afterFreeing[0]
    #expect(upgraded.status == 0 && upgraded.stderr.isEmpty, "\(upgraded.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(session.afterFreeing[1].stdout.utf8)) as? [String: Any])
    #expect(json["ok"] as? Bool == true && json["pendingSchemaSteps"] as? [String] == [], "\(json)")
  }

  @Test("out of inodes, with committed changes in the -wal and no -shm to read them: refused, naming the full disk and what to do, never an older state; doctor says the same (exit 5)")
  func walUnreadableOutOfInodes() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try FullDisk.makeWorkspace(cli)
    let session = try FullDisk.run(
      workspace: cli.workspace, scratch: cli.dir, outOfInodes: true, prepare: Self.crashLeavingWAL,
      whileFull: [FullDisk.Command(["knowledge", "list"]), FullDisk.Command(["doctor"]), FullDisk.Command(["doctor", "--json"])],
      afterFreeing: [FullDisk.Command(["knowledge", "list"])])
    let list = session.whileFull[0]
    #expect(list.status == 5)
    #expect(list.stdout.isEmpty, "an older state must not be shown: \(list.stdout)")
    #expect(
      list.stderr.contains(
        "\(session.database): cannot be read here: the disk is full (") && list.stderr.contains(
          " on the filesystem holding \(session.workspace), and no inode left for a new file), and committed changes are "
          + "still in its -wal file ("),
      "\(list.stderr)")
    #expect(
      list.stderr.contains(
        "Nothing was changed. Free space on that disk (remove or move files there) and run the command again, or copy "
          + "the whole workspace directory (with workspace.sqlite-wal) to another disk"),
      "\(list.stderr)")
    let doctor = session.whileFull[1]
    #expect(doctor.status == 5)
    #expect(doctor.stdout.contains("Open: failed (disk full): "), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("PRAGMA integrity_check: not run"))
    #expect(doctor.stdout.contains("Disk: full: "), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("The disk holding the workspace is full ("), "\(doctor.stdout)")
    #expect(doctor.stdout.hasSuffix("Doctor: the database could not be opened; nothing was checked.\n"))
    let json = try #require(try JSONSerialization.jsonObject(with: Data(session.whileFull[2].stdout.utf8)) as? [String: Any])
    #expect((json["openProblem"] as? [String: Any])?["reason"] as? String == "disk full", "\(json)")
    #expect((json["diskSpace"] as? [String: Any])?["availableFiles"] as? Int == 0, "\(json)")
    #expect(session.afterFreeing[0].stdout.contains("Only in the WAL"), "\(session.afterFreeing[0].stdout)")
  }

  @Test("dolphin mcp started on a full disk answers reads, refuses a write saying the disk is full, and writes once space is freed, without restarting")
  func mcpRecoversOnceSpaceIsFreed() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try FullDisk.makeWorkspace(cli)
    // One session across the freeing of space: a driver speaks JSON-RPC to the server and removes
    // the filler between the two captures.
    let driver = #"""
      "$PYTHON" - "$DOLPHIN" "$WS" "$MNT" >"$OUT/mcp.txt" 2>"$OUT/mcp.err" <<'PY'
      import glob, json, os, subprocess, sys
      dolphin, ws, mnt = sys.argv[1:]
      p = subprocess.Popen([dolphin, "mcp", "--writes", "allow", "--workspace", ws], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
      def call(i, method, params):
          p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n"); p.stdin.flush()
          return json.loads(p.stdout.readline())
      call(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
      p.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n'); p.stdin.flush()
      tool = lambda i, name, args: call(i, "tools/call", {"name": name, "arguments": args})["result"]
      results = [tool(1, "knowledge_search", {"query": "backups"}), tool(2, "knowledge_capture", {"kind": "fact", "title": "Stored on a full disk"})]
      for f in glob.glob(mnt + "/filler*"): os.remove(f)
      results.append(tool(3, "knowledge_capture", {"kind": "fact", "title": "Stored once space was freed"}))
      p.stdin.close(); p.wait()
      print(json.dumps({"results": results, "stderr": p.stderr.read()}))
      PY
      """#
    let session = try FullDisk.run(
      workspace: cli.workspace, scratch: cli.dir, whileFull: [], beforeFreeing: driver,
      afterFreeing: [FullDisk.Command(["knowledge", "list"])])
    let text = try String(contentsOfFile: session.outputDirectory + "/mcp.txt", encoding: .utf8)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    let results = try #require(report["results"] as? [[String: Any]], "\(text)")
    try #require(results.count == 3, "\(text)")
    func shown(_ result: [String: Any]) -> String { ((result["content"] as? [[String: Any]])?.first?["text"] as? String) ?? "" }
    #expect(results[0]["isError"] as? Bool != true && shown(results[0]).contains("Backups run nightly"), "\(results[0])")
    #expect(results[1]["isError"] as? Bool == true, "\(results[1])")
    #expect(
      shown(results[1]).contains("\(session.database) is open read-only (the disk is full (0 bytes free of 2 MiB"),
      "\(results[1])")
    #expect(results[2]["isError"] as? Bool != true, "\(results[2])")
    let stderr = report["stderr"] as? String ?? ""
    #expect(stderr.contains("can be written now; the workspace was opened again for writing"), "\(stderr)")
    // Asked again only once a byte was free: one read-only notice, from the start.
    #expect(stderr.components(separatedBy: "is read-only (the disk is full").count == 2, "\(stderr)")
    let list = session.afterFreeing[0].stdout
    #expect(list.contains("Stored once space was freed") && !list.contains("Stored on a full disk"), "\(list)")
  }

  /// Shell for ``FullDisk/run``'s `prepare`: a second process holds the database open, so a
  /// capture stays in the -wal; it is killed, as a crash would, and the -shm index removed, so
  /// that reading the -wal needs a new one.
  static let crashLeavingWAL = #"""
    "$PYTHON" -c 'import sqlite3,sys,time
    c=sqlite3.connect(sys.argv[1]); c.execute("SELECT count(*) FROM knowledge").fetchone(); print("ready", flush=True); time.sleep(60)' "$WS/workspace.sqlite" >"$OUT/holder" &
    H=$!; while ! grep -q ready "$OUT/holder" 2>/dev/null; do sleep 0.05; done
    "$DOLPHIN" capture fact "Only in the WAL" --workspace "$WS" >/dev/null || exit 93
    kill -9 $H; wait $H 2>/dev/null
    [ -s "$WS/workspace.sqlite-wal" ] || exit 94
    rm -f "$WS/workspace.sqlite-shm"
    """#
}
