import Foundation
import Testing
import TestSupport

/// Only commands that store something create a workspace; the others report a missing one
/// (exit 3) and create nothing, so a mistyped --workspace is not silently a new, empty one.
@Suite("Which commands create a workspace", .serialized)
struct WorkspaceCreationTests {
  static let id = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"

  static let nonCreating: [[String]] = [
    ["status"], ["doctor"], ["knowledge", "list"], ["knowledge", "get", id], ["memory", "list"],
    ["memory", "search", "words"], ["task", "list"], ["task", "search", "words"], ["search", "words"],
    ["context"], ["review"], ["insights"], ["handoff", "list"], ["handoff", "get", id], ["export"],
    ["activity"], ["quarantine"],
    // Commands that change existing records have nothing to change in a missing workspace.
    ["knowledge", "delete", id, "--yes"], ["task", "complete", id], ["task", "reopen", id],
    ["handoff", "restore", id], ["handoff", "deactivate"], ["reindex"], ["erase", "--yes"],
    ["activity", "clear", "--yes"],
  ]

  @Test("a command that does not store anything fails with exit 3 on a mistyped path and creates nothing", arguments: nonCreating)
  func missingPath(_ args: [String]) throws {
    let dir = TemporaryDirectory("typo")
    defer { dir.remove() }
    let typo = dir.appending("no/such/workspace").path
    let r = try runDolphin(args + ["--workspace", typo])
    #expect(r.status == 3, "\(r.stdout)\(r.stderr)")
    #expect(
      r.stderr.contains("no workspace at \(typo) (nothing has been captured there; `dolphin capture KIND TITLE --workspace \(typo)` creates it)"),
      "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appending("no").path))
  }

  @Test("an existing empty directory is not a workspace either, and stays empty", arguments: [["status"], ["search", "x"], ["export"]])
  func emptyDirectory(_ args: [String]) throws {
    let dir = TemporaryDirectory("empty")
    defer { dir.remove() }
    let r = try runDolphin(args + ["--workspace", dir.path])
    #expect(r.status == 3, "\(r.stderr)")
    #expect(r.stderr.contains("no workspace at \(dir.path)"), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// Review 30-a, 13: a workspace path that is a file, or goes through one, was a storage error
  /// (exit 5); it is a bad value, refused before anything is read or created (exit 4, as a
  /// symbolic link loop in the path), by every command that uses a workspace, doctor, mcp and
  /// the demo included.
  static let onAFile: [[String]] = [
    ["status"], ["doctor"], ["knowledge", "list"], ["search", "words"], ["capture", "fact", "x"],
    ["task", "add", "First task"], ["handoff", "create", "--focus", "F"], ["import", "-"], ["demo"], ["mcp"],
  ]

  @Test("a workspace path that is a file is refused as a bad value naming --workspace; nothing is created or changed", arguments: onAFile)
  func workspaceIsAFile(_ args: [String]) throws {
    let dir = TemporaryDirectory("ws-file")
    defer { dir.remove() }
    let file = dir.appending("passwd")
    let held = Data("root:x:0:0:root:/root:/bin/bash\n".utf8)
    try held.write(to: file)
    let r = try runDolphin(args + ["--workspace", file.path], stdin: "{}")
    #expect(r.status == 4, "\(r.stdout)\(r.stderr)")
    #expect(
      r.stderr.contains(
        "dolphin: error: --workspace \(file.path) is a file, not a directory (a workspace is a directory holding "
          + "workspace.sqlite); name a directory, or a new path to create one. Nothing was read or created"),
      "\(r.stderr)")
    #expect(try Data(contentsOf: file) == held, "the file is untouched")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["passwd"], "nothing was created")
  }

  @Test("under a file, a device, through a link, from DOLPHIN_HOME, and in --json: exit 4 naming the option and the file")
  func workspaceUnderAFile() throws {
    let dir = TemporaryDirectory("under-file")
    defer { dir.remove() }
    try Data("x".utf8).write(to: dir.appending("somefile"))
    let file = dir.appending("somefile").path
    for args in [["capture", "fact", "x"], ["knowledge", "list"]] {
      let r = try runDolphin(args + ["--workspace", file + "/sub"])
      #expect(r.status == 4, "\(r.stderr)")
      #expect(
        r.stderr.contains(
          "dolphin: error: --workspace \(file)/sub: \(file) is a file, not a directory, so no directory can be made there "
            + "(a workspace is a directory holding workspace.sqlite)"), "\(r.stderr)")
    }
    // The reviewer's own input, and a device.
    let passwd = try runDolphin(["status", "--workspace", "/etc/passwd"])
    #expect(passwd.status == 4 && passwd.stderr.contains("--workspace /etc/passwd is a file, not a directory"), "\(passwd.stderr)")
    let null = try runDolphin(["capture", "fact", "x", "--workspace", "/dev/null"])
    #expect(null.status == 4 && null.stderr.contains("--workspace /dev/null is a character device, not a directory"), "\(null.stderr)")
    try FileManager.default.createSymbolicLink(atPath: dir.appending("link").path, withDestinationPath: file)
    let link = try runDolphin(["status", "--workspace", dir.appending("link").path])
    #expect(link.status == 4 && link.stderr.contains("is a symbolic link to a file, not a directory"), "\(link.stderr)")
    // DOLPHIN_HOME naming a file is refused naming the variable, for reads and writes alike.
    for args in [["status"], ["capture", "fact", "x"]] {
      let home = try runDolphin(args, environment: ["DOLPHIN_HOME": file])
      #expect(home.status == 4, "\(home.stderr)")
      #expect(
        home.stderr.contains(
          "dolphin: error: DOLPHIN_HOME (\(file)) is a file, not a directory (a workspace is a directory holding "
            + "workspace.sqlite); set DOLPHIN_HOME to a directory, unset it to use the default"), "\(home.stderr)")
    }
    let json = try runDolphin(["status", "--json"], environment: ["DOLPHIN_HOME": file + "/ws"])
    #expect(json.status == 4)
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any], "\(json.stdout)")
    #expect(error["kind"] as? String == "validation" && error["field"] as? String == "DOLPHIN_HOME" && error["exitCode"] as? Int == 4)
    let option = try runDolphin(["knowledge", "list", "--json", "--workspace", file])
    let optionError = try #require(
      (try JSONSerialization.jsonObject(with: Data(option.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(optionError["field"] as? String == "workspace" && optionError["kind"] as? String == "validation")
    #expect(try Data(contentsOf: dir.appending("somefile")) == Data("x".utf8), "the file is untouched")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link", "somefile"], "nothing was created")
  }

  @Test(
    "a workspace in a directory whose filesystem refuses new directories says which and why",
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self")))
  func procWorkspace() throws {
    let ws = "/proc/dolphin-review-\(getpid())-cli"
    let r = try runDolphin(["capture", "fact", "x", "--workspace", ws])
    #expect(r.status == 5, "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "\(ws): cannot create the workspace directory: \(ws) could not be created: No such file or directory; "
          + "/proc exists, but its filesystem does not allow creating a directory there"), "\(r.stderr)")
    #expect(!r.stderr.contains("The operation could not be completed"), "\(r.stderr)")
  }

  static let creating: [[String]] = [
    ["capture", "fact", "First"], ["memory", "save", "First memory"], ["task", "add", "First task"],
    ["handoff", "create", "--focus", "First focus"], ["context", "--save"],
  ]

  @Test("a command that stores something creates the workspace", arguments: creating)
  func creates(_ args: [String]) throws {
    let dir = TemporaryDirectory("create")
    defer { dir.remove() }
    let ws = dir.appending("new/ws").path
    let r = try runDolphin(args + ["--workspace", ws])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: ws + "/workspace.sqlite"))
    #expect(try runDolphin(["status", "--workspace", ws]).status == 0)
  }

  /// A store command refused on a workspace path that does not exist yet.
  struct Refusal: CustomStringConvertible, Sendable {
    var name: String
    /// `{dir}` stands for the test's temporary directory.
    var args: [String]
    var status: Int32
    /// What stderr must contain, when the case checks it (that the refusal is the one meant).
    var stderr: String? = nil
    /// Writes the files the command reads into `dir` (a legacy workspace file, say).
    var prepare: @Sendable (TemporaryDirectory) throws -> Void = { _ in }
    var description: String { name }
  }

  static let refusals: [Refusal] = [
    Refusal(name: "capture, title over the limit", args: ["capture", "fact", String(repeating: "t", count: 301)], status: 4),
    Refusal(name: "capture, unknown relationship target", args: ["capture", "fact", "x", "--relates", "supports:" + id], status: 3),
    Refusal(name: "memory save, credential", args: ["memory", "save", "password=hunter22222"], status: 4),
    Refusal(name: "task add, unknown knowledge id", args: ["task", "add", "x", "--knowledge", id], status: 3),
    Refusal(name: "handoff create, unknown task id", args: ["handoff", "create", "--focus", "f", "--task", id], status: 3),
    Refusal(name: "knowledge delete, unknown id", args: ["knowledge", "delete", id, "--yes"], status: 3),
    Refusal(name: "ask, empty message", args: ["ask", " "], status: 4),
    // Regression cases (s9/h2): on a 0-byte workspace.sqlite these added the schema before the
    // input was refused. Every command that writes, with input it refuses.
    Refusal(name: "capture, empty title", args: ["capture", "fact", ""], status: 4),
    Refusal(name: "capture, invisible title", args: ["capture", "fact", "\u{200B}\u{2800}"], status: 4),
    Refusal(name: "capture, unknown kind", args: ["capture", "bogus", "x"], status: 2),
    Refusal(name: "capture, unknown priority", args: ["capture", "fact", "x", "--priority", "urgent"], status: 2),
    Refusal(name: "capture, tag over the limit", args: ["capture", "fact", "x", "--tags", String(repeating: "t", count: 49)], status: 4),
    Refusal(
      name: "capture, too many tags", args: ["capture", "fact", "x", "--tags", (1...17).map { "t\($0)" }.joined(separator: ",")],
      status: 4, stderr: "17"),
    Refusal(name: "capture, tag with a line break", args: ["capture", "fact", "x", "--tags", "a\nb"], status: 4),
    Refusal(name: "capture, malformed relationship", args: ["capture", "fact", "x", "--relates", "supports"], status: 4),
    Refusal(name: "capture, credential", args: ["capture", "fact", "x", "--content", "password=hunter22222"], status: 4),
    Refusal(name: "memory save, empty text", args: ["memory", "save", " "], status: 4),
    Refusal(name: "task add, empty title", args: ["task", "add", ""], status: 4),
    Refusal(name: "task add, notes over the limit", args: ["task", "add", "x", "--notes", String(repeating: "n", count: 4_001)], status: 4),
    Refusal(name: "task complete, unknown id", args: ["task", "complete", id], status: 3),
    Refusal(name: "task delete, malformed id", args: ["task", "delete", "not-a-uuid", "--yes"], status: 4),
    Refusal(name: "handoff create, empty focus", args: ["handoff", "create", "--focus", ""], status: 4),
    Refusal(
      name: "handoff create, too many next steps",
      args: ["handoff", "create", "--focus", "f"] + (1...13).flatMap { ["--next", "step \($0)"] }, status: 4,
      stderr: "13"),
    Refusal(name: "handoff restore, unknown id", args: ["handoff", "restore", id], status: 3),
    Refusal(name: "erase, all", args: ["erase", "--kind", "all", "--yes"], status: 3),
    Refusal(
      name: "import, a record over a bound", args: ["import", "{dir}/export.json"], status: 4,
      stderr: "title is 301 characters; the limit is 300 characters",
      prepare: { dir in try Data(exportDocument(title: String(repeating: "t", count: 301)).utf8).write(to: dir.appending("export.json")) }),
    Refusal(
      name: "import, not JSON", args: ["import", "{dir}/export.json"], status: 4,
      prepare: { dir in try Data("{".utf8).write(to: dir.appending("export.json")) }),
    Refusal(name: "migrate, a directory", args: ["migrate", "{dir}"], status: 4),
    Refusal(
      name: "migrate, a newer legacy file", args: ["migrate", "{dir}/legacy.json"], status: 4,
      prepare: { dir in try Data(#"{"schemaVersion": 9}"#.utf8).write(to: dir.appending("legacy.json")) }),
  ]

  /// A minimal `dolphin export` document holding one knowledge item titled `title`.
  static func exportDocument(title: String) -> String {
    let id = "3F2504E0-4F89-11D3-9A0C-0305E82C3302", at = "2026-01-01T00:00:00.000Z"
    return #"{"format":"dolphin-export","formatVersion":1,"schemaVersion":5,"exportedAt":"\#(at)","#
      + #""generator":"test","quarantine":[],"workspace":{"schemaVersion":5,"knowledge":[{"id":"\#(id)","#
      + #""kind":"fact","title":"\#(title)","content":"","source":"user","tags":[],"relationships":[],"#
      + #""priority":"normal","createdAt":"\#(at)","updatedAt":"\#(at)","revision":1}],"memories":[],"#
      + #""tasks":[],"handoffs":[],"digests":[],"conversations":[],"messages":[],"receipts":[],"#
      + #""checkpoints":[],"settings":{"assistantName":"Dolphin","calendarAccessEnabled":false,"#
      + #""knowledgeItemLimit":10000,"responseStyle":"balanced"}}}"#
  }

  @Test("a refused store command on a new workspace path leaves no directory, database or backup", arguments: refusals)
  func refusedWriteCreatesNothing(_ c: Refusal) throws {
    let dir = TemporaryDirectory("refused")
    defer { dir.remove() }
    try c.prepare(dir)
    let before = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    let ws = dir.appending("new/ws").path
    let args = c.args.map { $0.replacingOccurrences(of: "{dir}", with: dir.path) }
    let r = try runDolphin(args + ["--workspace", ws])
    #expect(r.status == c.status, "\(r.stderr)")
    if let stderr = c.stderr { #expect(r.stderr.contains(stderr), "\(r.stderr)") }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == before, "\(r.stderr)")
    // The same in an existing empty directory: it stays empty.
    let empty = dir.appending("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
    #expect(try runDolphin(args + ["--workspace", empty.path]).status == c.status)
    #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)
  }

  // Regression (s9/h2): a command that writes opened a 0-byte workspace.sqlite (what a first
  // run interrupted before its first schema step leaves) by adding the schema, before its
  // input was refused.
  @Test("a refused store command leaves a 0-byte workspace.sqlite at 0 bytes, with nothing beside it", arguments: refusals)
  func refusedWriteLeavesEmptyDatabaseEmpty(_ c: Refusal) throws {
    let dir = TemporaryDirectory("refused-blank")
    defer { dir.remove() }
    try c.prepare(dir)
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: false)
    let db = ws.appendingPathComponent("workspace.sqlite")
    try Data().write(to: db)
    let args = c.args.map { $0.replacingOccurrences(of: "{dir}", with: dir.path) }
    let r = try runDolphin(args + ["--workspace", ws.path])
    #expect(r.status == c.status, "\(r.stderr)")
    if let stderr = c.stderr { #expect(r.stderr.contains(stderr), "\(r.stderr)") }
    #expect(try Data(contentsOf: db).isEmpty, "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: ws.path) == ["workspace.sqlite"])
  }

  @Test("the first store command that succeeds completes a 0-byte workspace.sqlite", arguments: creating)
  func succeedingWriteCompletesEmptyDatabase(_ args: [String]) throws {
    let dir = TemporaryDirectory("blank-create")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: false)
    try Data().write(to: ws.appendingPathComponent("workspace.sqlite"))
    let r = try runDolphin(args + ["--workspace", ws.path])
    #expect(r.status == 0, "\(r.stderr)")
    let doctor = try runDolphin(["doctor", "--workspace", ws.path])
    #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
  }

  @Test("a refused command racing successful first commands never costs them their writes (10 rounds)")
  func refusedRacingSuccessful() async throws {
    let dir = TemporaryDirectory("race-refused")
    defer { dir.remove() }
    for round in 0..<10 {
      let ws = dir.appending("ws\(round)").path
      let runs: [[String]] = [
        ["capture", "fact", String(repeating: "t", count: 301)], ["capture", "fact", "a"],
        ["task", "add", "x", "--knowledge", Self.id], ["capture", "fact", "b"],
      ]
      let results = try await withThrowingTaskGroup(of: (Int, ProcessResult).self) { group in
        for (n, args) in runs.enumerated() { group.addTask { (n, try runDolphin(args + ["--workspace", ws])) } }
        return try await group.reduce(into: [Int: ProcessResult]()) { $0[$1.0] = $1.1 }
      }
      #expect(results[0]?.status == 4 && results[2]?.status == 3, "round \(round)")
      #expect(results[1]?.status == 0 && results[3]?.status == 0, "round \(round)")
      let list = try runDolphin(["knowledge", "list", "--json", "--workspace", ws])
      let obj = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
      #expect(obj?["total"] as? Int == 2, "round \(round): \(list.stderr)")
    }
  }

  @Test("three first commands racing to create the same workspace all succeed (25 rounds)")
  func racingFirstCommands() async throws {
    let dir = TemporaryDirectory("race")
    defer { dir.remove() }
    for round in 0..<25 {
      let ws = dir.appending("ws\(round)").path
      let runs: [[String]] = [["capture", "fact", "a"], ["capture", "fact", "b"], ["memory", "save", "c"]]
      let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
        for args in runs { group.addTask { try runDolphin(args + ["--workspace", ws]) } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      // These used to fail with "cannot create: File exists" (both saw no database and one lost
      // the O_EXCL create) or "database is locked" (both switching the new file to WAL).
      for r in results { #expect(r.status == 0, "round \(round): \(r.stderr)") }
      let list = try runDolphin(["knowledge", "list", "--json", "--workspace", ws])
      let obj = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
      #expect(obj?["total"] as? Int == 3, "round \(round)")
    }
  }

  @Test("import creates the workspace; import --dry-run plans against an empty one and creates nothing")
  func importCreates() throws {
    let source = CLI()
    defer { source.dir.remove() }
    #expect(try source.run(["capture", "decision", "Exported"]).status == 0)
    let file = source.dir.appending("export.json").path
    #expect(try source.run(["export", "--output", file]).status == 0)
    let target = source.dir.appending("target/ws").path
    let dry = try runDolphin(["import", file, "--dry-run", "--workspace", target])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains("Dry run: nothing was written."))
    #expect(!FileManager.default.fileExists(atPath: source.dir.appending("target").path))
    let real = try runDolphin(["import", file, "--workspace", target])
    #expect(real.status == 0, "\(real.stderr)")
    let list = try runDolphin(["knowledge", "list", "--workspace", target])
    #expect(list.stdout.contains("Exported"))
  }
}
