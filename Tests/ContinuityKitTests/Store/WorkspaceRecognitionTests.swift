import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Which database files are dolphin workspaces: a database another program made is refused by
/// every open, before anything is written to it; a file with no schema at all (what a first run
/// interrupted before its first schema step leaves) is no workspace yet for an open that may
/// not create one, and is completed by one that may.
@Suite("Workspace recognition", .serialized)
struct WorkspaceRecognitionTests {
  /// One way to open a workspace, named for the failure report.
  struct Opening: Sendable, CustomTestStringConvertible {
    let name: String
    let open: @Sendable (URL) throws -> SQLiteWorkspaceStore
    var testDescription: String { name }
  }

  static let openings = [
    Opening(name: "never (reads)") { try SQLiteWorkspaceStore.open(directory: $0, creation: .never) },
    Opening(name: "at first write") { try SQLiteWorkspaceStore.open(directory: $0, creation: .atFirstWrite) },
    Opening(name: "immediately") { try SQLiteWorkspaceStore.open(directory: $0, creation: .immediately) },
    Opening(name: "read-only (doctor)") { try SQLiteWorkspaceStore.open(directory: $0, readOnly: true) },
  ]

  /// A workspace directory whose `workspace.sqlite` holds what `sql` creates, and the file's bytes.
  static func foreignDatabase(_ dir: TemporaryDirectory, _ sql: String) throws -> (URL, Data) {
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true)
    let db = ws.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    let made = try runProcess("/usr/bin/sqlite3", [db, sql])
    try #require(made.status == 0, "sqlite3 is needed to make another program's database: \(made.stderr)")
    return (ws, try Data(contentsOf: URL(fileURLWithPath: db)))
  }

  @Test("another program's database is refused, naming the file and what it holds, and left byte for byte", arguments: openings)
  func foreignRefused(_ opening: Opening) throws {
    let dir = TemporaryDirectory("foreign")
    defer { dir.remove() }
    let (ws, before) = try Self.foreignDatabase(dir, "CREATE TABLE foo(x); INSERT INTO foo VALUES (1);")
    let db = ws.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    let error = #expect(throws: WorkspaceError.self) { _ = try opening.open(ws) }
    #expect(error == .notAWorkspace(file: db, found: ["table foo"]))
    #expect(error?.description.contains("\(db) is an SQLite database but not a dolphin workspace") == true)
    #expect(error?.description.contains("nothing was read from it or written to it") == true)
    #expect(SQLiteWorkspaceStore.openFailure(try #require(error), directory: ws) == .notAWorkspace)
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    let tables = try runProcess("/usr/bin/sqlite3", [db, "SELECT group_concat(name) FROM sqlite_master"])
    #expect(tables.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "foo")
  }

  // Regression cases from a review (2026-11-30): an empty schema_migration table.
  static let emptyMigrationTable =
    "CREATE TABLE schema_migration (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL);"

  @Test("an empty schema_migration beside another program's tables is not dolphin's either", arguments: openings)
  func emptyMigrationTableWithOthersRefused(_ opening: Opening) throws {
    let dir = TemporaryDirectory("foreign")
    defer { dir.remove() }
    let (ws, before) = try Self.foreignDatabase(
      dir, Self.emptyMigrationTable + "CREATE TABLE users(id, name); INSERT INTO users VALUES (1, 'alice');")
    let db = ws.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    let error = #expect(throws: WorkspaceError.self) { _ = try opening.open(ws) }
    #expect(error == .notAWorkspace(file: db, found: ["table users"]))
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
  }

  @Test("an empty schema_migration alone is a first run interrupted after creating it: no workspace for reads")
  func emptyMigrationTableAloneIsNoWorkspaceForReads() throws {
    let dir = TemporaryDirectory("blank")
    defer { dir.remove() }
    let (ws, before) = try Self.foreignDatabase(dir, Self.emptyMigrationTable)
    let db = ws.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    #expect(throws: WorkspaceError.noWorkspace(directory: ws.path)) {
      _ = try SQLiteWorkspaceStore.open(directory: ws, creation: .never)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    // A store that may create completes it.
    let store = try SQLiteWorkspaceStore.open(directory: ws, creation: .immediately)
    #expect(store.pendingMigrationSteps.isEmpty)
  }

  struct UserVersionCase: CustomTestStringConvertible, Sendable {
    var name: String
    var sql: String
    var version: Int64
    var testDescription: String { name }
  }

  // dolphin sets `user_version` only in a schema step's transaction, with the step's tables and
  // its `schema_migration` row; without them the version is another program's. Every open used
  // to treat such a file differently: no workspace yet for reads, a newer schema for writes (or,
  // at version 5, a blank file to complete).
  static let userVersionOnly = [
    UserVersionCase(name: "user_version 5, no objects", sql: "PRAGMA user_version = 5;", version: 5),
    UserVersionCase(name: "user_version 9, no objects", sql: "PRAGMA user_version = 9;", version: 9),
    UserVersionCase(name: "user_version 3 beside an empty schema_migration", sql: emptyMigrationTable + "PRAGMA user_version = 3;", version: 3),
  ]

  @Test(
    "a user_version without any recorded schema step is another program's database for every open, left byte for byte",
    arguments: userVersionOnly, openings)
  func userVersionWithoutSchemaRefused(_ c: UserVersionCase, _ opening: Opening) throws {
    let dir = TemporaryDirectory("foreign")
    defer { dir.remove() }
    let (ws, before) = try Self.foreignDatabase(dir, c.sql)
    let db = ws.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    let error = #expect(throws: WorkspaceError.self) { _ = try opening.open(ws) }
    #expect(error == .notAWorkspace(file: db, found: [WorkspaceError.userVersionOnly(c.version)]))
    #expect(
      error?.description
        == "\(db) is an SQLite database but not a dolphin workspace: it records no dolphin schema step and holds no "
        + "tables of its own, yet its PRAGMA user_version is \(c.version), which dolphin sets only together with its "
        + "tables; nothing was read from it or written to it. Pass --workspace (or set DOLPHIN_HOME) with a dolphin "
        + "workspace directory, or move that file away to start a new workspace there")
    #expect(SQLiteWorkspaceStore.openFailure(try #require(error), directory: ws) == .notAWorkspace)
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
  }

  struct ForeignCase: CustomTestStringConvertible, Sendable {
    var name: String
    var sql: String
    var found: [String]
    var testDescription: String { name }
  }

  // Regression cases from a review (s8/h3): dolphin never sets `PRAGMA application_id`, and a
  // `schema_migration` table without dolphin's columns is another program's. The first was
  // called an interrupted first run and completed by a capture; the others failed every
  // command with "no such column: name".
  static let foreignMarks = [
    ForeignCase(
      name: "application_id only", sql: "PRAGMA application_id = 12345;",
      found: [WorkspaceError.applicationIDOnly(12345)]),
    ForeignCase(
      name: "negative application_id beside an empty schema_migration",
      sql: emptyMigrationTable + "PRAGMA application_id = -2;", found: [WorkspaceError.applicationIDOnly(-2)]),
    ForeignCase(
      name: "application_id and user_version", sql: "PRAGMA application_id = 7; PRAGMA user_version = 5;",
      found: [WorkspaceError.applicationIDOnly(7)]),
    ForeignCase(
      name: "schema_migration(version) beside another table",
      sql: "CREATE TABLE schema_migration(version TEXT); CREATE TABLE users(id);",
      found: ["table schema_migration", "table users"]),
    ForeignCase(
      name: "schema_migration(version) with a row", sql: "CREATE TABLE schema_migration(version TEXT); INSERT INTO schema_migration VALUES ('1');",
      found: ["table schema_migration"]),
    ForeignCase(
      name: "empty schema_migration(version) alone", sql: "CREATE TABLE schema_migration(version);",
      found: ["table schema_migration"]),
    ForeignCase(
      name: "schema_migration(name) without applied_at", sql: "CREATE TABLE schema_migration(name TEXT);",
      found: ["table schema_migration"]),
    // Regression cases from a review (s8/h5): dolphin's columns but only another program's
    // rows. doctor called it healthy, and every other command a read-only newer schema.
    ForeignCase(
      name: "schema_migration(name, applied_at) with a foreign row beside users",
      sql: foreignMigrationRow + "CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT);",
      found: ["table schema_migration", "table users"]),
    ForeignCase(
      name: "schema_migration(name, applied_at) with a foreign row alone", sql: foreignMigrationRow,
      found: ["table schema_migration"]),
  ]

  /// Another program's migration table with dolphin's column names, and a step of its own.
  static let foreignMigrationRow =
    "CREATE TABLE schema_migration(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL); "
    + "INSERT INTO schema_migration VALUES('0001_create_users','2024-01-01');"

  @Test(
    "an application_id or a schema_migration of another layout marks another program's database for every open, left byte for byte",
    arguments: foreignMarks, openings)
  func foreignMarksRefused(_ c: ForeignCase, _ opening: Opening) throws {
    let dir = TemporaryDirectory("foreign")
    defer { dir.remove() }
    let (ws, before) = try Self.foreignDatabase(dir, c.sql)
    let db = ws.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    let error = #expect(throws: WorkspaceError.self) { _ = try opening.open(ws) }
    #expect(error == .notAWorkspace(file: db, found: c.found))
    #expect(SQLiteWorkspaceStore.openFailure(try #require(error), directory: ws) == .notAWorkspace)
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
  }

  @Test("a workspace a newer dolphin build made records steps unknown here beside known ones: opened read-only as a newer schema, byte for byte", arguments: openings)
  func newerBuildStepsAreStillDolphins(_ opening: Opening) throws {
    let dir = TemporaryDirectory("newer")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    do {
      let store = try SQLiteWorkspaceStore.open(directory: ws, creation: .immediately)
      try store.write { tx in try tx.insertKnowledge(item(1)) }
      try store.checkpoint()
    }
    let db = ws.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    let added = try runProcess(
      "/usr/bin/sqlite3", [db, "INSERT INTO schema_migration VALUES ('0099-future-step', '2027-01-01T00:00:00Z');"])
    try #require(added.status == 0, "\(added.stderr)")
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    let store = try opening.open(ws)
    #expect(store.isReadOnly)
    #expect(store.readOnlyReason == "it records migration step '0099-future-step', unknown to this build")
    #expect(try store.read { try $0.knowledgeCount() } == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
  }

  @Test("a workspace dolphin made has application_id 0 and is still recognised")
  func dolphinWorkspaceHasNoApplicationID() throws {
    let dir = TemporaryDirectory("own")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    let store = try SQLiteWorkspaceStore.open(directory: ws, creation: .immediately)
    try store.write { tx in try tx.insertKnowledge(item(1)) }
    let db = ws.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    let id = try runProcess("/usr/bin/sqlite3", [db, "PRAGMA application_id"])
    #expect(id.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    let reopened = try SQLiteWorkspaceStore.open(directory: ws, creation: .never)
    #expect(try reopened.read { tx in try tx.knowledgeCount() } == 1)
  }

  @Test("the objects named are sorted and bounded, with a count of the rest")
  func foundIsBounded() throws {
    let dir = TemporaryDirectory("foreign")
    defer { dir.remove() }
    let sql = (1...7).map { "CREATE TABLE t\($0)(x);" }.joined() + "CREATE VIEW v AS SELECT 1;"
    let (ws, _) = try Self.foreignDatabase(dir, sql)
    let error = #expect(throws: WorkspaceError.self) { _ = try SQLiteWorkspaceStore.open(directory: ws, creation: .never) }
    #expect(
      error?.description.contains("holds table t1, table t2, table t3, table t4, table t5, 3 more;") == true,
      "\(String(describing: error))")
  }

  @Test("an empty file is no workspace for an open that may not create one, and it stays empty")
  func emptyFileIsNoWorkspaceForReads() throws {
    let dir = TemporaryDirectory("blank")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true)
    let db = ws.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    #expect(FileManager.default.createFile(atPath: db, contents: Data()))
    #expect(throws: WorkspaceError.noWorkspace(directory: ws.path)) {
      _ = try SQLiteWorkspaceStore.open(directory: ws, creation: .never)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)).isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: ws.path) == [SQLiteWorkspaceStore.fileName])

    // Read-only (doctor): opened as it is, every schema step pending, nothing written.
    let inspected = try SQLiteWorkspaceStore.open(directory: ws, readOnly: true)
    #expect(inspected.pendingMigrationSteps == WorkspaceSchema.steps.map(\.name))
    #expect(!inspected.pendingMigrationStepsNeededForReading.isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)).isEmpty)

    // An open that may create the workspace completes it, as before.
    let store = try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite)
    try store.write { tx in try tx.insertKnowledge(item(1)) }
    let reopened = try SQLiteWorkspaceStore.open(directory: ws, creation: .never)
    #expect(try reopened.read { tx in try tx.knowledgeCount() } == 1)
    #expect(reopened.pendingMigrationSteps.isEmpty)
  }
}
