import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Regression (review, s12; fixed s13): another user who may read a workspace and write its
/// directory (made mode 777) creates the database's `-wal` and `-shm` just by reading it — even
/// with the read-only `dolphin doctor`, which cannot remove them (taking SQLite's lock needs write
/// permission on the database). They belonged to that user, and every later write of the
/// workspace's owner failed ("this user may not write the workspace's side files … have root
/// chown them"). The owner's next command now removes them, empty as a reader leaves them, as
/// SQLite's last connection would have; a `-wal` holding commits is still never touched.
@Suite(
  "Side files another user's read left behind",
  .serialized,
  .enabled(
    if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
    "needs root and setpriv to run dolphin as two users (root writes anywhere)"))
struct OtherUsersSideFilesTests {
  static let owner: uid_t = 65533
  static let stranger: uid_t = 65534

  static func run(as uid: uid_t, _ args: [String]) throws -> ProcessResult {
    try runProcess(
      "/usr/bin/setpriv",
      ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", dolphinExecutable().path] + args)
  }

  static func owner(_ path: String) -> uid_t? {
    var st = stat()
    return lstat(path, &st) == 0 ? st.st_uid : nil
  }

  /// A workspace in `directory` made by ``owner`` with one note, then opened to everyone: the
  /// directory mode 777, the database `databaseMode`.
  static func sharedWorkspace(in directory: TemporaryDirectory, databaseMode: mode_t) throws
    -> (workspace: String, db: String)
  {
    chown(directory.path, owner, owner)
    let workspace = directory.appending("ws").path
    let db = workspace + "/workspace.sqlite"
    #expect(try run(as: owner, ["capture", "fact", "First note", "--workspace", workspace]).status == 0)
    chmod(workspace, 0o777)
    chmod(db, databaseMode)
    return (workspace, db)
  }

  @Test("the owner's capture after a stranger's doctor succeeds, and the stranger's doctor says what will happen to its files")
  func ownerWritesAfterStrangersDoctor() throws {
    let directory = TemporaryDirectory("other-users-side-files")
    defer { directory.remove() }
    let (workspace, db) = try Self.sharedWorkspace(in: directory, databaseMode: 0o644)

    let doctor = try Self.run(as: Self.stranger, ["doctor", "--workspace", workspace])
    #expect(doctor.stdout.contains("Doctor: healthy."), "\(doctor.stdout)\(doctor.stderr)")
    #expect(
      doctor.stdout.contains(
        "the next dolphin command of a user who may write the database (its owner) removes them"),
      "\(doctor.stdout)")
    try #require(Self.owner(db + "-shm") == Self.stranger, "the stranger's read left its -shm")

    let capture = try Self.run(as: Self.owner, ["capture", "fact", "Second note", "--workspace", workspace])
    #expect(capture.status == 0, "\(capture.stderr)")
    #expect(!capture.stderr.contains("side files"), "\(capture.stderr)")
    let search = try Self.run(as: Self.owner, ["search", "note", "--workspace", workspace])
    #expect(search.stdout.contains("2 shown of 2"), "\(search.stdout)")
    for suffix in ["-wal", "-shm"] {
      #expect(Self.owner(db + suffix) != Self.stranger, "\(suffix) is no longer the stranger's")
    }
  }

  @Test("a -wal of another user that holds commits is left alone, and the refusal still names it")
  func walWithCommitsStays() throws {
    let directory = TemporaryDirectory("other-users-wal")
    defer { directory.remove() }
    let (workspace, db) = try Self.sharedWorkspace(in: directory, databaseMode: 0o666)
    // The stranger may write the database too: while a reader of its own holds the database
    // open, its commit stays in its -wal, and killing that reader leaves it there, as a crash
    // does.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    holder.arguments = [
      "--reuid=\(Self.stranger)", "--regid=\(Self.stranger)", "--clear-groups", "/usr/bin/env", "python3", "-c",
      "import sqlite3,sys,time\nc=sqlite3.connect(sys.argv[1]); c.execute('SELECT count(*) FROM knowledge').fetchone()\n"
        + "print('ready', flush=True); time.sleep(120)",
      db,
    ]
    let out = Pipe()
    holder.standardOutput = out
    try holder.run()
    _ = out.fileHandleForReading.availableData  // waits for "ready"
    let second = try Self.run(as: Self.stranger, ["capture", "fact", "Stranger's note", "--workspace", workspace])
    #expect(second.status == 0, "\(second.stderr)")
    kill(holder.processIdentifier, SIGKILL)
    holder.waitUntilExit()
    let wal = try Data(contentsOf: URL(fileURLWithPath: db + "-wal"))
    try #require(wal.count > 0 && Self.owner(db + "-wal") == Self.stranger)
    chmod(db + "-wal", 0o644)
    chmod(db + "-shm", 0o644)

    let capture = try Self.run(as: Self.owner, ["capture", "fact", "Third note", "--workspace", workspace])
    #expect(capture.status != 0)
    #expect(capture.stderr.contains("another user (uid 65534) owns them"), "\(capture.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: db + "-wal")) == wal, "the -wal with a commit is untouched")
  }

  /// Regression (second review, s13): another user who may write the directory put a `-wal`
  /// made from a database of their own beside the owner's 0600 database, and the owner's
  /// `knowledge list` showed that user's forged records; the advice was to chown it and keep it.
  /// A non-empty `-wal` whose owner may not write the database cannot hold its changes: it is
  /// not read, and the message says how to move it aside.
  @Test("a -wal another user put beside a database they may not write is never read")
  func foreignWALRefused() throws {
    let directory = TemporaryDirectory("other-users-forged-wal")
    defer { directory.remove() }
    let (workspace, db) = try Self.sharedWorkspace(in: directory, databaseMode: 0o600)
    // Its content does not matter: the ownership alone shows it cannot be the database's.
    let planted = Data("WAL frames of another database".utf8)
    try planted.write(to: URL(fileURLWithPath: db + "-wal"))
    chown(db + "-wal", Self.stranger, Self.stranger)

    for args in [["knowledge", "list"], ["capture", "fact", "Second note"], ["search", "note"]] {
      let refused = try Self.run(as: Self.owner, args + ["--workspace", workspace])
      #expect(refused.status != 0, "\(args)")
      #expect(
        refused.stderr.contains("workspace.sqlite-wal holds 30 bytes of changes, but it belongs to another user (uid 65534)"),
        "\(args): \(refused.stderr)")
      #expect(refused.stderr.contains("mv '\(db)-wal' '\(db)-wal.foreign'"), "\(refused.stderr)")
    }
    let doctor = try Self.run(as: Self.owner, ["doctor", "--workspace", workspace])
    #expect(doctor.status != 0 && doctor.stdout.contains("is a -wal another user put there who may not write the database"), "\(doctor.stdout)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: db + "-wal")) == planted, "left as it was")

    // Moved aside, as advised: the owner's workspace is the owner's again.
    try FileManager.default.moveItem(atPath: db + "-wal", toPath: db + "-wal.foreign")
    let list = try Self.run(as: Self.owner, ["knowledge", "list", "--workspace", workspace])
    #expect(list.status == 0 && list.stdout.contains("First note"), "\(list.stdout)\(list.stderr)")
  }

  /// Regression (third review, s13): in a setgid directory every new file takes the directory's
  /// group, so a `-wal` the stranger put beside a group-writable (0660) database carried the
  /// database's group and passed as a group member's; the stranger is no member.
  @Test("a setgid directory's group on a planted -wal does not make its owner a group member")
  func setgidGroupIsNoMembership() throws {
    let directory = TemporaryDirectory("other-users-setgid-wal")
    defer { directory.remove() }
    let (workspace, db) = try Self.sharedWorkspace(in: directory, databaseMode: 0o660)
    chmod(workspace, 0o2777)
    try Data("WAL frames of another database".utf8).write(to: URL(fileURLWithPath: db + "-wal"))
    chown(db + "-wal", Self.stranger, Self.owner)  // the group the setgid directory gives
    let refused = try Self.run(as: Self.owner, ["knowledge", "list", "--workspace", workspace])
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("belongs to another user (uid 65534) who may not write this database"), "\(refused.stderr)")
  }

  /// Regression (third review, s13): a `-wal` that is a symbolic link got the advice to have root
  /// chown it, which follows the link: planted as a link to /etc/shadow, that gives the system's
  /// password file to the workspace's owner.
  @Test("a symbolic link in a side file's place is refused with the advice to remove it, never to chown it", arguments: ["-wal", "-shm"])
  func symlinkedSideFileRefused(suffix: String) throws {
    let directory = TemporaryDirectory("other-users-symlink")
    defer { directory.remove() }
    let (workspace, db) = try Self.sharedWorkspace(in: directory, databaseMode: 0o600)
    let target = directory.appending("victim.txt").path
    try Data("not yours".utf8).write(to: URL(fileURLWithPath: target))
    #expect(symlink(target, db + suffix) == 0)
    lchown(db + suffix, Self.stranger, Self.stranger)
    for args in [["knowledge", "list"], ["capture", "fact", "Second"], ["doctor"]] {
      let refused = try Self.run(as: Self.owner, args + ["--workspace", workspace])
      #expect(refused.status != 0, "\(args)")
      let said = refused.stdout + refused.stderr
      #expect(said.contains("\(db)\(suffix) is a symbolic link (to \(target)) that user uid 65534 put there"), "\(args): \(said)")
      #expect(said.contains("`rm '\(db)\(suffix)'`") && !said.contains("`chown"), "\(args): \(said)")
    }
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "not yours")
  }

  /// The other side of the membership check: a `-wal` of a user who is a member of the database's
  /// group, which may write it (0660), may hold its own saved changes and is read as before.
  @Test(
    "a -wal of a member of a group-writable database's group is not refused",
    .enabled(if: getpwuid(OtherUsersSideFilesTests.stranger)?.pointee.pw_gid == OtherUsersSideFilesTests.stranger,
             "needs the stranger's primary group to be its uid (Debian's nobody/nogroup)"))
  func groupMemberWALAccepted() throws {
    let directory = TemporaryDirectory("other-users-group-wal")
    defer { directory.remove() }
    let (workspace, db) = try Self.sharedWorkspace(in: directory, databaseMode: 0o660)
    chown(db, Self.owner, Self.stranger)  // the stranger's primary group: a member
    chmod(db, 0o660)
    try Data(repeating: 0, count: 32).write(to: URL(fileURLWithPath: db + "-wal"))
    chown(db + "-wal", Self.stranger, Self.stranger)
    chmod(db + "-wal", 0o660)
    let list = try Self.run(as: Self.owner, ["knowledge", "list", "--workspace", workspace])
    #expect(!list.stderr.contains("who may not write this database"), "\(list.stderr)")
  }
}
