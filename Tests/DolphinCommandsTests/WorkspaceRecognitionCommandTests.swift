import ContinuityKit
import Foundation
import Testing
import TestSupport

/// A new user's review: commands that only read wrote dolphin's schema into an empty
/// `workspace.sqlite` and into another program's database, and `doctor` called the latter an
/// interrupted first run. Each stays fixed.
@Suite("Empty and foreign workspace databases", .serialized)
struct WorkspaceRecognitionCommandTests {
  /// A 0700 workspace directory holding `workspace.sqlite` (0600), made by `make`.
  static func workspace(_ cli: CLI, _ make: (String) throws -> Void) throws -> String {
    try FileManager.default.createDirectory(
      atPath: cli.workspace, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let db = cli.workspace + "/" + SQLiteWorkspaceStore.fileName
    try make(db)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: db)
    return db
  }

  /// A workspace directory whose `workspace.sqlite` the `sqlite3` shell made by running `sql`.
  static func workspace(_ cli: CLI, sqlite3 sql: String) throws -> String {
    try workspace(cli) { db in
      let made = try runProcess("/usr/bin/env", ["sqlite3", db, sql])
      try #require(made.status == 0, "sqlite3 is needed to make this database (\(sql)): \(made.stderr)")
    }
  }

  /// `dolphin mcp` starts, refuses a capture as "not a dolphin workspace", and leaves the
  /// workspace's files as `before`.
  static func expectMCPRefuses(_ cli: CLI, leaving before: [String: Data]) throws {
    let mcp = try cli.run(
      ["mcp", "--writes", "allow"],
      stdin: (initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"No"}}}"#
      ]).joined(separator: "\n") + "\n")
    #expect(mcp.stdout.contains("not a dolphin workspace"), "\(mcp.stdout)\(mcp.stderr)")
    #expect(try Unwritable.snapshot(cli.workspace) == before, "dolphin mcp changed the files")
  }

  static let readingCommands = [
    ["status"], ["knowledge", "list"], ["search", "anything"], ["context"], ["activity"], ["task", "list"],
    ["handoff", "list"], ["quarantine"],
  ]

  @Test("an empty workspace.sqlite: reading commands say there is no workspace yet (exit 3) and write nothing; the first capture completes it")
  func emptyFile() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let db = try Self.workspace(cli) { db in
      #expect(FileManager.default.createFile(atPath: db, contents: Data()))
    }
    for args in Self.readingCommands {
      let r = try cli.run(args)
      #expect(r.status == 3, "\(args): \(r.stdout)\(r.stderr)")
      #expect(
        r.stderr.contains("dolphin: error: no workspace at \(cli.workspace) yet: its workspace.sqlite holds no schema"),
        "\(args): \(r.stderr)")
      #expect(r.stderr.contains("nothing was read or written"), "\(args): \(r.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: db)).isEmpty, "\(args) wrote into the empty file")
      #expect(try FileManager.default.contentsOfDirectory(atPath: cli.workspace) == ["workspace.sqlite"], "\(args)")
    }
    let json = try cli.run(["knowledge", "list", "--json"])
    #expect(json.status == 3)
    #expect(json.stdout.contains(#""kind" : "notFound""#), "\(json.stdout)")
    // doctor reads it read-only, as a first run that stopped before its first schema step.
    let doctor = try cli.run(["doctor"])
    // No workspace yet, as every other command says: exit 3, though nothing is wrong.
    #expect(doctor.status == 3, "\(doctor.stdout)\(doctor.stderr)")
    #expect(doctor.stderr.contains("dolphin: error: no workspace at \(cli.workspace) yet: its workspace.sqlite holds no schema"), "\(doctor.stderr)")
    #expect(doctor.stdout.contains("a first run was interrupted"), "\(doctor.stdout)")
    // Not "healthy": there is no workspace yet, and the last line says what makes one.
    #expect(!doctor.stdout.contains("healthy"), "\(doctor.stdout)")
    #expect(
      doctor.stdout.hasSuffix(
        "\nDoctor: no workspace yet: a first run was interrupted before its first write committed, or is still running; "
          + "not a problem: the "
          + "first command that stores something (e.g. `dolphin capture KIND TITLE --workspace \(cli.workspace)`) completes it.\n"),
      "\(doctor.stdout)")
    let doctorJSON = try cli.run(["doctor", "--json"])
    #expect(doctorJSON.status == 3, "\(doctorJSON.stdout)\(doctorJSON.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(doctorJSON.stdout.utf8)) as? [String: Any])
    #expect(report["interruptedFirstRun"] as? Bool == true, "\(report)")
    // Review 19-d, #8: the help said exit 0 here, and `ok` said true beside the exit-3 error; it is
    // true exactly when doctor exits 0.
    let help = try cli.run(["doctor", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(help.contains("there is no workspace yet, as every other command says (exit 3; exit 0 between steps;"), "\(help)")
    #expect(help.contains("ok is true exactly when doctor exits 0"), "\(help)")
    #expect(!help.contains("it is not a problem (exit 0;"), "\(help)")
    #expect(report["ok"] as? Bool == false, "\(report)")
    #expect((report["error"] as? [String: Any])?["exitCode"] as? Int == 3, "\(report)")
    #expect((report["pendingSchemaSteps"] as? [String])?.first == "0001-schema-v5-records", "\(report)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)).isEmpty)
    // An import dry run previews against an empty workspace, as with no workspace at all
    // (a review found it refused here), and writes nothing.
    let file = cli.dir.appending("one.json")
    let source = CLI()
    defer { source.dir.remove() }
    #expect(try source.run(["capture", "fact", "From elsewhere"]).status == 0)
    #expect(try source.run(["export", "--output", file.path]).status == 0)
    let preview = try cli.run(["import", file.path, "--dry-run"])
    #expect(preview.status == 0, "\(preview.stdout)\(preview.stderr)")
    #expect(preview.stdout.contains("Dry run: nothing was written."), "\(preview.stdout)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)).isEmpty)

    let capture = try cli.run(["capture", "fact", "Completes the workspace"])
    #expect(capture.status == 0, "\(capture.stderr)")
    let list = try cli.run(["knowledge", "list"])
    #expect(list.status == 0 && list.stdout.contains("Completes the workspace"), "\(list.stdout)\(list.stderr)")
    #expect(try cli.run(["doctor"]).status == 0)
  }

  @Test("another program's database: every command refuses it naming the file and its tables (exit 5) and leaves it byte for byte")
  func foreignDatabase() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let db = try Self.workspace(cli, sqlite3: "CREATE TABLE foo(x); INSERT INTO foo VALUES (42);")
    let before = try Unwritable.snapshot(cli.workspace)
    let writing = [["capture", "fact", "Not stored here"], ["task", "add", "Not here either"], ["memory", "save", "No"]]
    for args in Self.readingCommands + writing + [["doctor"]] {
      let r = try cli.run(args)
      #expect(r.status == 5, "\(args): \(r.stdout)\(r.stderr)")
      #expect(
        r.stderr.contains("\(db) is an SQLite database but not a dolphin workspace: it records no dolphin schema step and holds table foo"),
        "\(args): \(r.stderr)")
      #expect(try Unwritable.snapshot(cli.workspace) == before, "\(args) changed the files")
    }
    let doctor = try cli.run(["doctor"])
    #expect(doctor.stdout.contains("Open: failed (not a dolphin workspace)"), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("interrupted"), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("healthy"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("is another program's SQLite database, not a dolphin workspace"), "\(doctor.stdout)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(try cli.run(["doctor", "--json"]).stdout.utf8)) as? [String: Any])
    #expect(report["ok"] as? Bool == false)
    #expect((report["openProblem"] as? [String: Any])?["reason"] as? String == "not a dolphin workspace")
    #expect(report["checksRun"] as? Bool == false)

    // The MCP server starts, and each tool call is refused the same way; nothing is written.
    try Self.expectMCPRefuses(cli, leaving: before)
  }

  /// `doctor --json`'s advice for a database it could not open, checked to stand on its own.
  static func doctorJSON(_ cli: CLI) throws -> (status: Int32, report: [String: Any]) {
    let r = try cli.run(["doctor", "--json"])
    let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
    return (r.status, report)
  }

  @Test("doctor --json advice for another program's database stands on its own: it names the tables instead of pointing \"above\"")
  func foreignDoctorJSONAdvice() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let db = try Self.workspace(cli, sqlite3: "CREATE TABLE foo(x); CREATE TABLE bar(y);")
    let (status, report) = try Self.doctorJSON(cli)
    #expect(status == 5)
    let advice = try #require(report["advice"] as? [String])
    #expect(
      advice == [
        "\(db) is another program's SQLite database, not a dolphin workspace: it records no dolphin schema step (it "
          + "holds table bar, table foo); dolphin neither read nor changed it. Pass --workspace (or set DOLPHIN_HOME) "
          + "with a dolphin workspace directory, or move that file away: the first command that stores something then "
          + "creates a new workspace there."
      ])
    #expect(!advice.joined().contains("above"))
    // The text report prints the same line after the open failure.
    let text = try cli.run(["doctor"])
    #expect(text.stdout.contains(advice[0]), "\(text.stdout)")
  }

  @Test("a database with a PRAGMA user_version but no schema: status, capture, doctor and mcp all call it another program's database (exit 5) and leave it byte for byte", arguments: [5, 9])
  func userVersionWithoutSchema(_ version: Int) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let db = try Self.workspace(cli, sqlite3: "PRAGMA user_version = \(version);")
    let before = try Unwritable.snapshot(cli.workspace)
    let message =
      "\(db) is an SQLite database but not a dolphin workspace: it records no dolphin schema step and "
      + "holds no tables of its own, yet its PRAGMA user_version is \(version), which dolphin sets only together with its "
      + "tables; nothing was read from it or written to it."
    for args in [["status"], ["capture", "fact", "Not stored here"], ["knowledge", "list"], ["doctor"]] {
      let r = try cli.run(args)
      #expect(r.status == 5, "\(args): \(r.stdout)\(r.stderr)")
      #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
      #expect(!r.stderr.contains("no schema") && !r.stderr.contains("newer"), "\(args): \(r.stderr)")
      #expect(try Unwritable.snapshot(cli.workspace) == before, "\(args) changed the files")
    }
    let status = try cli.run(["status", "--json"])
    #expect(status.status == 5)
    #expect(status.stdout.contains(#""kind" : "storage""#), "\(status.stdout)")
    let doctor = try cli.run(["doctor"])
    #expect(doctor.stdout.contains("Open: failed (not a dolphin workspace)"), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("interrupted") && !doctor.stdout.contains("newer"), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains(".recover"), "no recovery steps for a file that is not damaged: \(doctor.stdout)")
    let (code, report) = try Self.doctorJSON(cli)
    #expect(code == 5)
    #expect((report["openProblem"] as? [String: Any])?["reason"] as? String == "not a dolphin workspace")
    #expect(report["checksRun"] as? Bool == false)
    let advice = try #require(report["advice"] as? [String])
    #expect(advice.count == 1 && advice[0].contains("its PRAGMA user_version is \(version)"), "\(advice)")
    try Self.expectMCPRefuses(cli, leaving: before)
  }

  struct ForeignCase: CustomTestStringConvertible, Sendable {
    var name: String
    var sql: String
    var holds: String
    var testDescription: String { name }
  }

  // Regression cases from a review (s8/h3): status called the first an interrupted first run
  // and capture wrote dolphin's schema into it; the others failed with "SQLite error 1: no such
  // column: name", and doctor advised stopping another process.
  static let foreignMarks = [
    ForeignCase(
      name: "PRAGMA application_id = 12345", sql: "PRAGMA application_id = 12345;",
      holds: "holds no tables of its own, yet its PRAGMA application_id is 12345"),
    ForeignCase(
      name: "schema_migration(version) and users", sql: "CREATE TABLE schema_migration(version TEXT); CREATE TABLE users(id);",
      holds: "holds table schema_migration, table users"),
    ForeignCase(
      name: "empty schema_migration(version) alone", sql: "CREATE TABLE schema_migration(version);",
      holds: "holds table schema_migration"),
    // Regression cases from a review (s8/h5): dolphin's columns, another program's rows.
    ForeignCase(
      name: "schema_migration(name, applied_at) with a foreign row, and users",
      sql: foreignMigrationRow + "CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT);",
      holds: "holds table schema_migration, table users"),
    ForeignCase(
      name: "schema_migration(name, applied_at) with a foreign row alone", sql: foreignMigrationRow,
      holds: "holds table schema_migration"),
  ]

  /// Another program's migration table with dolphin's column names, and a step of its own.
  static let foreignMigrationRow =
    "CREATE TABLE schema_migration(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL); "
    + "INSERT INTO schema_migration VALUES('0001_create_users','2024-01-01');"

  @Test("a schema_migration with dolphin's columns but only another program's steps: every command, doctor --json and mcp say not a dolphin workspace (exit 5), file byte for byte")
  func foreignMigrationRowsRefusedEverywhere() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let db = try Self.workspace(cli, sqlite3: Self.foreignMigrationRow + "CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT);")
    let before = try Unwritable.snapshot(cli.workspace)
    let file = cli.dir.appending("one.json")
    let source = CLI()
    defer { source.dir.remove() }
    #expect(try source.run(["capture", "fact", "From elsewhere"]).status == 0)
    #expect(try source.run(["export", "--output", file.path]).status == 0)
    let commands = [
      ["status"], ["capture", "fact", "Not stored here"], ["search", "anything"], ["import", file.path],
      ["import", file.path, "--dry-run"], ["erase", "--kind", "all", "--yes"], ["doctor"],
    ]
    for args in commands {
      let r = try cli.run(args)
      #expect(r.status == 5, "\(args): \(r.stdout)\(r.stderr)")
      #expect(
        r.stderr.contains("\(db) is an SQLite database but not a dolphin workspace: it records no dolphin schema step and holds table schema_migration, table users"),
        "\(args): \(r.stderr)")
      let all = r.stdout + r.stderr
      #expect(!all.contains("interrupted") && !all.contains("newer") && !all.contains("read-only"), "\(args): \(all)")
      #expect(!all.contains("healthy"), "\(args): \(all)")
      #expect(try Unwritable.snapshot(cli.workspace) == before, "\(args) changed the files")
    }
    let (code, report) = try Self.doctorJSON(cli)
    #expect(code == 5)
    #expect(report["ok"] as? Bool == false)
    #expect((report["openProblem"] as? [String: Any])?["reason"] as? String == "not a dolphin workspace")
    try Self.expectMCPRefuses(cli, leaving: before)
  }

  @Test("a workspace from a newer dolphin build (a step unknown here beside known ones) is still dolphin's: doctor says newer, capture refuses as read-only")
  func newerBuildWorkspaceStillRecognised() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Kept"]).status == 0)
    let db = cli.workspace + "/" + SQLiteWorkspaceStore.fileName
    let added = try runProcess(
      "/usr/bin/env", ["sqlite3", db, "INSERT INTO schema_migration VALUES ('0099-future-step', '2027-01-01T00:00:00Z');"])
    try #require(added.status == 0, "\(added.stderr)")
    let doctor = try cli.run(["doctor"])
    #expect(!doctor.stdout.contains("not a dolphin workspace"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("0099-future-step"), "\(doctor.stdout)")
    let capture = try cli.run(["capture", "fact", "Not stored"])
    #expect(capture.status == 5, "\(capture.stdout)\(capture.stderr)")
    #expect(capture.stderr.contains("unknown to this build"), "\(capture.stderr)")
    let list = try cli.run(["knowledge", "list"])
    #expect(list.status == 0 && list.stdout.contains("Kept"), "\(list.stdout)\(list.stderr)")
  }

  @Test("an application_id or a foreign schema_migration: status, capture and doctor say not a dolphin workspace (exit 5), file byte for byte", arguments: foreignMarks)
  func foreignMarksRefused(_ c: ForeignCase) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let db = try Self.workspace(cli, sqlite3: c.sql)
    let before = try Unwritable.snapshot(cli.workspace)
    for args in [["status"], ["capture", "fact", "Not stored here"], ["doctor"]] {
      let r = try cli.run(args)
      #expect(r.status == 5, "\(args): \(r.stdout)\(r.stderr)")
      #expect(
        r.stderr.contains("\(db) is an SQLite database but not a dolphin workspace: it records no dolphin schema step and \(c.holds)"),
        "\(args): \(r.stderr)")
      #expect(!(r.stdout + r.stderr).contains("no such column"), "\(args): \(r.stdout)\(r.stderr)")
      #expect(!(r.stdout + r.stderr).contains("interrupted"), "\(args): \(r.stdout)\(r.stderr)")
      #expect(!(r.stdout + r.stderr).contains("another process holds"), "\(args): \(r.stdout)\(r.stderr)")
      #expect(try Unwritable.snapshot(cli.workspace) == before, "\(args) changed the files")
    }
    let doctor = try cli.run(["doctor"])
    #expect(doctor.stdout.contains("Open: failed (not a dolphin workspace)"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("is another program's SQLite database, not a dolphin workspace"), "\(doctor.stdout)")
  }
}
