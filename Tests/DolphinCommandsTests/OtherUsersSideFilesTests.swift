import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Files another user put beside a workspace's database.
///
/// Regression (review, s12; fixed s13): another user who may read a workspace and write its
/// directory (made mode 777) created the database's `-wal` and `-shm` just by reading it, and
/// every later write of the owner failed. Third review (s13): such a user could also race any
/// check of those files and have SQLite copy a forged `-wal` into the database. Since s14 a
/// directory that users who may not write the database may write is refused outright, before
/// anything is opened; files left from before it was closed are checked, and the empty ones a
/// reader leaves are removed by the owner's next write.
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

  static func sideFiles(_ workspace: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: workspace).filter { $0 != "workspace.sqlite" }.sorted()
  }

  @Test("a directory strangers may write is refused before SQLite opens anything, for every command and user")
  func openDirectoryRefused() throws {
    let directory = TemporaryDirectory("other-users-open-directory")
    defer { directory.remove() }
    let (workspace, db) = try Self.sharedWorkspace(in: directory, databaseMode: 0o644)
    let before = try Data(contentsOf: URL(fileURLWithPath: db))

    let doctor = try Self.run(as: Self.stranger, ["doctor", "--workspace", workspace])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    #expect(doctor.stdout.contains("Open: failed (path others control)"), "\(doctor.stdout)")
    // The directory holding the workspace is the owner's too: the stranger is refused there.
    #expect(doctor.stdout.contains("\(directory.path): a directory on the way to the workspace belongs to uid 65533, not to this user or root"), "\(doctor.stdout)")
    for args in [["capture", "fact", "Second note"], ["search", "note"], ["knowledge", "list"]] {
      let refused = try Self.run(as: Self.owner, args + ["--workspace", workspace])
      #expect(refused.status == 5, "\(args): \(refused.stdout)\(refused.stderr)")
      #expect(
        refused.stderr.contains("the workspace directory (mode 777) may be written by every user: they could put a -wal"),
        "\(args): \(refused.stderr)")
      #expect(refused.stderr.contains("consider `chmod 700 '\(workspace)'`"), "\(refused.stderr)")
    }
    #expect(try Self.sideFiles(workspace).isEmpty, "nothing opened: no -wal or -shm made")
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)

    chmod(workspace, 0o755)  // as advised (the owner may keep it readable)
    let capture = try Self.run(as: Self.owner, ["capture", "fact", "Second note", "--workspace", workspace])
    #expect(capture.status == 0, "\(capture.stderr)")
  }

  @Test("empty side files a stranger's reader left while the directory was open: doctor refuses them, the owner's next command removes them")
  func ownerWritesAfterStrangersRead() throws {
    let directory = TemporaryDirectory("other-users-side-files")
    defer { directory.remove() }
    let (workspace, db) = try Self.sharedWorkspace(in: directory, databaseMode: 0o644)
    // Another program of the stranger's (the sqlite3 shell) reads it while the directory is open.
    let read = try runProcess(
      "/usr/bin/setpriv",
      ["--reuid=\(Self.stranger)", "--regid=\(Self.stranger)", "--clear-groups", "/usr/bin/sqlite3", db,
       "SELECT count(*) FROM knowledge"])
    #expect(read.stdout.contains("1"), "\(read.stdout)\(read.stderr)")
    try #require(Self.owner(db + "-shm") == Self.stranger, "the stranger's read left its -shm")
    chmod(workspace, 0o755)

    // The stranger may still write its own files: the read-only doctor, which may not remove
    // them, does not read through them.
    let doctor = try Self.run(as: Self.owner, ["doctor", "--workspace", workspace])
    #expect(doctor.status == 5, "\(doctor.stdout)\(doctor.stderr)")
    #expect(doctor.stdout.contains("it belongs to nobody (uid 65534), another user who may not write this database, and that user may write into it while SQLite reads through it"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("`rm '\(db)-"), "\(doctor.stdout)")
    #expect(Self.owner(db + "-shm") == Self.stranger, "doctor leaves files as it found them")

    let capture = try Self.run(as: Self.owner, ["capture", "fact", "Second note", "--workspace", workspace])
    #expect(capture.status == 0, "\(capture.stderr)")
    let search = try Self.run(as: Self.owner, ["search", "note", "--workspace", workspace])
    #expect(search.stdout.contains("2 shown of 2"), "\(search.stdout)\(search.stderr)")
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
    // The stranger's own program commits (dolphin itself no longer opens a directory of
    // another user's).
    let second = try runProcess(
      "/usr/bin/setpriv",
      ["--reuid=\(Self.stranger)", "--regid=\(Self.stranger)", "--clear-groups", "/usr/bin/sqlite3", db,
       "UPDATE knowledge SET title = title"])
    #expect(second.status == 0, "\(second.stderr)")
    kill(holder.processIdentifier, SIGKILL)
    holder.waitUntilExit()
    let wal = try Data(contentsOf: URL(fileURLWithPath: db + "-wal"))
    try #require(wal.count > 0 && Self.owner(db + "-wal") == Self.stranger)
    chmod(db + "-wal", 0o644)
    chmod(db + "-shm", 0o644)

    // Since s15 the directory every user may write is refused first, whoever may write the
    // database; closed again, the -wal of the stranger (who may write the database) is named.
    let open = try Self.run(as: Self.owner, ["capture", "fact", "Third note", "--workspace", workspace])
    #expect(open.status == 5 && open.stderr.contains("(mode 777) may be written by every user"), "\(open.stderr)")
    chmod(workspace, 0o755)
    let capture = try Self.run(as: Self.owner, ["capture", "fact", "Third note", "--workspace", workspace])
    #expect(capture.status != 0)
    #expect(capture.stderr.contains("another user, nobody (uid 65534), owns them"), "\(capture.stderr)")
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
    chmod(workspace, 0o755)  // closed since, as dolphin advises

    for args in [["knowledge", "list"], ["capture", "fact", "Second note"], ["search", "note"]] {
      let refused = try Self.run(as: Self.owner, args + ["--workspace", workspace])
      #expect(refused.status != 0, "\(args)")
      #expect(
        refused.stderr.contains("workspace.sqlite-wal holds 30 bytes of changes, but it belongs to nobody (uid 65534), another user who may not write this database"),
        "\(args): \(refused.stderr)")
      #expect(refused.stderr.contains("mv '\(db)-wal' '\(db)-wal.foreign'"), "\(refused.stderr)")
    }
    let doctor = try Self.run(as: Self.owner, ["doctor", "--workspace", workspace])
    #expect(doctor.status != 0 && doctor.stdout.contains("belongs to another user who may not write the database, or is not a regular file"), "\(doctor.stdout)")
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
    chmod(workspace, 0o2755)
    let refused = try Self.run(as: Self.owner, ["knowledge", "list", "--workspace", workspace])
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("belongs to nobody (uid 65534), another user who may not write this database"), "\(refused.stderr)")
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
    chmod(workspace, 0o755)
    for args in [["knowledge", "list"], ["capture", "fact", "Second"], ["doctor"]] {
      let refused = try Self.run(as: Self.owner, args + ["--workspace", workspace])
      #expect(refused.status != 0, "\(args)")
      let said = refused.stdout + refused.stderr
      #expect(said.contains("\(db)\(suffix) is a symbolic link (to \(target)) that nobody (uid 65534) put there"), "\(args): \(said)")
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
    chmod(workspace, 0o755)
    let list = try Self.run(as: Self.owner, ["knowledge", "list", "--workspace", workspace])
    #expect(!list.stderr.contains("who may not write this database"), "\(list.stderr)")
  }

  /// Regression (third review, s13): a FIFO in the `-shm`'s place gave SQLite's bare "disk I/O
  /// error" without naming the file.
  @Test("a side file that is not a regular file is named, with what it is", arguments: ["-shm", "-wal", "-journal"])
  func specialSideFileNamed(suffix: String) throws {
    let directory = TemporaryDirectory("other-users-fifo")
    defer { directory.remove() }
    let (workspace, db) = try Self.sharedWorkspace(in: directory, databaseMode: 0o600)
    chmod(workspace, 0o700)
    #expect(mkfifo(db + suffix, 0o644) == 0)
    for args in [["knowledge", "list"], ["capture", "fact", "Second"]] {
      let refused = try Self.run(as: Self.owner, args + ["--workspace", workspace])
      #expect(refused.status == 5, "\(args)")
      #expect(refused.stderr.contains("\(db)\(suffix) is a FIFO (named pipe) that root (uid 0) put there, not a file SQLite makes"), "\(args): \(refused.stderr)")
      #expect(refused.stderr.contains("`rm '\(db)\(suffix)'`"), "\(refused.stderr)")
    }
    let doctor = try Self.run(as: Self.owner, ["doctor", "--workspace", workspace])
    #expect(doctor.status == 5 && doctor.stdout.contains("is a FIFO (named pipe)"), "\(doctor.stdout)")
    unlink(db + suffix)
    #expect(try Self.run(as: Self.owner, ["capture", "fact", "Second", "--workspace", workspace]).status == 0)
  }

  /// SQLite plays a hot rollback journal back into the database when it opens it, whoever wrote
  /// the journal: one of a user who may not write the database is never used.
  @Test("a rollback journal another user put beside the database is refused and left as it was")
  func foreignJournalRefused() throws {
    let directory = TemporaryDirectory("other-users-journal")
    defer { directory.remove() }
    let (workspace, db) = try Self.sharedWorkspace(in: directory, databaseMode: 0o600)
    let planted = Data(repeating: 0xD9, count: 512)
    try planted.write(to: URL(fileURLWithPath: db + "-journal"))
    chown(db + "-journal", Self.stranger, Self.stranger)
    chmod(workspace, 0o755)
    for args in [["knowledge", "list"], ["capture", "fact", "Second note"]] {
      let refused = try Self.run(as: Self.owner, args + ["--workspace", workspace])
      #expect(refused.status == 5, "\(args)")
      #expect(
        refused.stderr.contains("workspace.sqlite-journal holds 512 bytes of a rollback journal SQLite would play back into the database, but it belongs to nobody (uid 65534)"),
        "\(args): \(refused.stderr)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: db + "-journal")) == planted)
  }
}
