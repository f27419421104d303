import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Regressions (review, s14): the check of the workspace directory alone left other ways for
/// another user to put their files where dolphin reads and writes — a database that is a
/// symbolic link into a directory they may write, a database file of theirs in this user's
/// directory, a directory of theirs made first at the path dolphin was given, a parent directory
/// they may rename entries of, and a side file of this user's whose mode lets them write it.
/// Each is refused before SQLite opens anything, and leaves every file as it was.
@Suite(
  "Paths and files other users control",
  .serialized,
  .enabled(
    if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
    "needs root to hand files to another user (uid 65534)"))
struct WorkspaceTrustCommandTests {
  static let stranger: uid_t = 65534

  /// A workspace of root's with one note in `parent`/`name`; returns its path and database.
  static func workspace(in parent: String, _ name: String = "ws") throws -> (workspace: String, db: String) {
    let workspace = parent + "/" + name
    let made = try runDolphin(["capture", "fact", "Root's own note", "--workspace", workspace])
    #expect(made.status == 0, "\(made.stderr)")
    return (workspace, workspace + "/workspace.sqlite")
  }

  static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test("a database that is a link into a directory every user may write is refused, and nothing is read there")
  func linkedDatabaseInOpenDirectory() throws {
    let dir = TemporaryDirectory("trust-linked-db")
    defer { dir.remove() }
    let (_, source) = try Self.workspace(in: dir.path, "source")
    let open = dir.appending("open").path
    try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
    chmod(open, 0o777)
    try FileManager.default.copyItem(atPath: source, toPath: open + "/db")
    let mine = dir.appending("mine").path
    try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: false)
    chmod(mine, 0o700)
    try FileManager.default.createSymbolicLink(atPath: mine + "/workspace.sqlite", withDestinationPath: open + "/db")
    let before = Self.bytes(open + "/db")
    for args in [["knowledge", "list"], ["capture", "fact", "Secret note"]] {
      let r = try runDolphin(args + ["--workspace", mine])
      #expect(r.status == 5, "\(args): \(r.stdout)\(r.stderr)")
      #expect(r.stderr.contains("\(open): a directory on the way to the workspace (mode 777) may be written by every user"), "\(args): \(r.stderr)")
    }
    #expect(Self.bytes(open + "/db") == before)
    #expect(!FileManager.default.fileExists(atPath: open + "/db-wal"), "SQLite never opened it")
    let doctor = try runDolphin(["doctor", "--workspace", mine])
    #expect(doctor.status == 5 && doctor.stdout.contains("Open: failed (path others control)"), "\(doctor.stdout)")
  }

  @Test("a database file another user put in this user's directory is neither read nor written")
  func databaseOfAnotherUser() throws {
    let dir = TemporaryDirectory("trust-db-owner")
    defer { dir.remove() }
    let (workspace, db) = try Self.workspace(in: dir.path)
    chown(db, Self.stranger, Self.stranger)  // as if swapped in while the directory was open
    let before = Self.bytes(db)
    let r = try runDolphin(["capture", "fact", "Secret after the swap", "--workspace", workspace])
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("the database file belongs to nobody (uid 65534), not to this user or root"), "\(r.stderr)")
    #expect(r.stderr.contains("`mv '\(db)' '\(db).foreign'`") && r.stderr.contains("`chown -h 0 '\(db)'`"), "\(r.stderr)")
    #expect(Self.bytes(db) == before, "nothing written into that user's file")
    let doctor = try runDolphin(["doctor", "--workspace", workspace])
    #expect(doctor.status == 5 && !doctor.stdout.contains("healthy"), "\(doctor.stdout)")
  }

  @Test("a directory another user made first at the path given is refused, database or not, and gets nothing")
  func directoryOfAnotherUser() throws {
    let dir = TemporaryDirectory("trust-dir-owner")
    defer { dir.remove() }
    chmod(dir.path, 0o1777)  // as /tmp
    let empty = dir.appending("made-first").path
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
    chown(empty, Self.stranger, Self.stranger)
    chmod(empty, 0o700)
    let r = try runDolphin(["capture", "fact", "Secret", "--workspace", empty])
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("the workspace directory belongs to nobody (uid 65534), not to this user or root"), "\(r.stderr)")
    #expect(r.stderr.contains("will not make or open a workspace there") && !r.stderr.contains("move workspace.sqlite"), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: empty).isEmpty)

    // With a database of that user's in it: not read either.
    let (theirs, db) = try Self.workspace(in: dir.path, "theirs")
    chown(theirs, Self.stranger, Self.stranger)
    chown(db, Self.stranger, Self.stranger)
    let list = try runDolphin(["knowledge", "list", "--workspace", theirs])
    #expect(list.status == 5 && !list.stdout.contains("Root's own note"), "\(list.stdout)\(list.stderr)")
    #expect(list.stderr.contains("`cp -r '\(theirs)' ~/copy`"), "\(list.stderr)")
  }

  @Test("a parent directory every user may write without the sticky bit is refused; with it, the workspace works")
  func openParentDirectory() throws {
    let dir = TemporaryDirectory("trust-parent")
    defer { dir.remove() }
    let parent = dir.appending("shared").path
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: false)
    chmod(parent, 0o755)
    let (workspace, _) = try Self.workspace(in: parent)
    chmod(parent, 0o777)
    let r = try runDolphin(["search", "note"], environment: ["DOLPHIN_HOME": workspace])
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    #expect(
      r.stderr.contains("\(parent): a directory on the way to the workspace (mode 777) may be written by every user and has no sticky bit"),
      "\(r.stderr)")
    #expect(r.stderr.contains("consider `chmod go-w '\(parent)'` (or `chmod +t '\(parent)'`"), "\(r.stderr)")
    chmod(parent, 0o1777)
    let sticky = try runDolphin(["search", "note"], environment: ["DOLPHIN_HOME": workspace])
    #expect(sticky.status == 0 && sticky.stdout.contains("Root's own note"), "\(sticky.stdout)\(sticky.stderr)")
  }

  @Test("a workspace path through a link in a shared directory is used through what it led to when checked")
  func linkedWorkspacePath() throws {
    let dir = TemporaryDirectory("trust-linked-path")
    defer { dir.remove() }
    let (workspace, db) = try Self.workspace(in: dir.path)
    let link = dir.appending("link").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: workspace)
    let r = try runDolphin(["capture", "fact", "Second note", "--workspace", link])
    #expect(r.status == 0, "\(r.stderr)")
    let list = try runDolphin(["knowledge", "list", "--workspace", workspace])
    #expect(list.stdout.contains("Second note"), "\(list.stdout)")
    #expect(!FileManager.default.fileExists(atPath: link + "-wal"))
    _ = db
  }

  @Test("a side file of this user's that others may write: refused when it holds bytes, removed when empty")
  func sideFileOthersMayWrite() throws {
    let dir = TemporaryDirectory("trust-side-mode")
    defer { dir.remove() }
    let (workspace, db) = try Self.workspace(in: dir.path)
    let planted = Data(repeating: 0x37, count: 64)
    try planted.write(to: URL(fileURLWithPath: db + "-journal"))
    chmod(db + "-journal", 0o666)
    let r = try runDolphin(["knowledge", "list", "--workspace", workspace])
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    #expect(
      r.stderr.contains("workspace.sqlite-journal holds 64 bytes of a rollback journal SQLite would play back into the database, but its mode (666) lets users who may not write this database write it"),
      "\(r.stderr)")
    #expect(Self.bytes(db + "-journal") == planted)
    unlink(db + "-journal")

    _ = FileManager.default.createFile(atPath: db + "-wal", contents: Data())
    chmod(db + "-wal", 0o666)
    let doctor = try runDolphin(["doctor", "--workspace", workspace])
    #expect(doctor.status == 5 && doctor.stdout.contains("its mode (666) lets users who may not write this database write it"), "\(doctor.stdout)")
    let capture = try runDolphin(["capture", "fact", "After the open -wal", "--workspace", workspace])
    #expect(capture.status == 0, "\(capture.stderr)")
    var st = stat()
    #expect(stat(db + "-wal", &st) != 0 || st.st_mode & 0o077 == 0, "the open -wal was replaced by SQLite's own")
  }

  /// The warning said "readable by other users (mode 666)" of a database everyone may write.
  @Test("a database others may write is warned about as writable, not only readable")
  func writableDatabaseWarning() throws {
    let dir = TemporaryDirectory("trust-db-mode")
    defer { dir.remove() }
    let (workspace, db) = try Self.workspace(in: dir.path)
    chmod(db, 0o666)
    let r = try runDolphin(["knowledge", "list", "--workspace", workspace])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("is writable by other users (mode 666): they may change or erase any record"), "\(r.stderr)")
    chmod(db, 0o644)
    let readable = try runDolphin(["knowledge", "list", "--workspace", workspace])
    #expect(readable.stderr.contains("is readable by other users (mode 644)"), "\(readable.stderr)")
  }

  // Second review (s14).

  /// A directory every user may write, with the sticky bit, as /tmp.
  static func sticky(_ dir: TemporaryDirectory) throws -> String {
    let shared = dir.appending("sticky").path
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
    chmod(shared, 0o1777)
    return shared
  }

  @Test("a symbolic link of another user's on the way is not followed, whatever it leads to")
  func foreignLinkOnTheWay() throws {
    let dir = TemporaryDirectory("trust-foreign-link")
    defer { dir.remove() }
    let shared = try Self.sticky(dir)
    let (workspace, db) = try Self.workspace(in: dir.path)  // root's own, and fine by itself
    let link = shared + "/newws"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: workspace)
    lchown(link, Self.stranger, Self.stranger)
    let before = Self.bytes(db)
    for args in [["capture", "fact", "Secret"], ["knowledge", "list"]] {
      let r = try runDolphin(args + ["--workspace", link])
      #expect(r.status == 5, "\(args): \(r.stdout)\(r.stderr)")
      #expect(r.stderr.contains("\(link): a symbolic link on the way to the workspace that belongs to nobody (uid 65534)"), "\(args): \(r.stderr)")
    }
    // Deeper in the path too, and for a workspace not created yet.
    let fresh = try runDolphin(["capture", "fact", "Secret", "--workspace", link + "/inner/ws"])
    #expect(fresh.status == 5 && fresh.stderr.contains("belongs to nobody (uid 65534)"), "\(fresh.stderr)")
    #expect(!FileManager.default.fileExists(atPath: workspace + "/inner"))
    #expect(Self.bytes(db) == before)
    // The demo names the link, not "your default workspace".
    try FileManager.default.createSymbolicLink(atPath: shared + "/dolphin-demo", withDestinationPath: dir.appending("elsewhere").path)
    lchown(shared + "/dolphin-demo", Self.stranger, Self.stranger)
    let demo = try runDolphin(["demo"], environment: ["DOLPHIN_HOME": shared + "/dh"])
    #expect(demo.status != 0 && demo.stderr.contains("\(shared)/dolphin-demo is a symbolic link on the way to the workspace that belongs to nobody"), "\(demo.stderr)")
    #expect(!demo.stderr.contains("is your default workspace"), "\(demo.stderr)")
  }

  @Test("a new workspace is not created where another user may rename it, and nothing is left there")
  func creationChecked() throws {
    let dir = TemporaryDirectory("trust-create")
    defer { dir.remove() }
    let shared = try Self.sticky(dir)
    let theirs = shared + "/nobws"
    try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
    chown(theirs, Self.stranger, Self.stranger)
    let open = dir.appending("open").path
    try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
    chmod(open, 0o777)
    for (target, says) in [
      (theirs + "/new", "\(theirs): a directory on the way to the workspace belongs to nobody (uid 65534)"),
      (open + "/a/b/ws", "\(open): a directory on the way to the workspace (mode 777) may be written by every user and has no sticky bit"),
    ] {
      let r = try runDolphin(["capture", "fact", "Secret first note", "--workspace", target])
      #expect(r.status == 5, "\(target): \(r.stdout)\(r.stderr)")
      #expect(r.stderr.contains(says), "\(r.stderr)")
      let demo = try runDolphin(["demo", "--workspace", target])
      #expect(demo.status != 0, "\(demo.stdout)\(demo.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: theirs).isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: open).isEmpty)
    // In the sticky directory itself a new workspace of this user's is fine.
    let mine = try runDolphin(["capture", "fact", "First note", "--workspace", shared + "/mine"])
    #expect(mine.status == 0, "\(mine.stderr)")
  }

  /// Writes a POSIX access control list granting `rwx` to user 65534 on `path`, as `setfacl -m
  /// u:nobody:rwx` does (no setfacl needed: the kernel's extended-attribute format), after
  /// `readers` other named users with `r-x` (ids 70000…).
  static func grantNobodyWrite(_ path: String, readers: Int = 0) throws -> Bool {
    let r = try runProcess(
      "/usr/bin/env",
      ["python3", "-c",
       "import os,struct,sys\nn=int(sys.argv[2])\ne=[(1,7,0xffffffff),(2,7,65534)]+[(2,5,70000+k) for k in range(n)]"
         + "+[(4,5,0xffffffff),(0x10,7,0xffffffff),(0x20,5,0xffffffff)]\n"
         + "d=struct.pack('<I',2)+b''.join(struct.pack('<HHI',t,p,i) for t,p,i in e)\n"
         + "os.setxattr(sys.argv[1],'system.posix_acl_access',d)",
       path, String(readers)])
    return r.status == 0
  }

  /// Seventh review (s15): a list of 300 entries overflowed the 256-entry buffer it was read
  /// into, read as no list at all, and let nobody's write grant through.
  @Test("an access control list of 300 entries is read whole: its write grant to another user is refused")
  func longAccessControlList() throws {
    let dir = TemporaryDirectory("trust-long-acl")
    defer { dir.remove() }
    let (workspace, _) = try Self.workspace(in: dir.path)
    try #require(try Self.grantNobodyWrite(workspace, readers: 300), "this filesystem keeps no POSIX access control lists")
    let r = try runDolphin(["knowledge", "list", "--workspace", workspace])
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("has an access control list that lets user nobody (uid 65534) write it"), "\(r.stderr)")
  }

  /// Seventh review (s15): a workspace directory shared with users who may write the database
  /// (1777, database 666) let them put a link named `legacy-backups` (root's backup was written
  /// where it led, and root's erase zeroed and unlinked everything there) or a link named
  /// `workspace.json` to root's private file (imported into the shared database); and erase
  /// removed any backup path recorded in the database.
  @Test("a directory others may change is refused even when they may write the database: no workspace.json read, no backup, no erase through a link")
  func sharedDirectoryLegacyFiles() throws {
    let dir = TemporaryDirectory("trust-shared-legacy")
    defer { dir.remove() }
    let shared = dir.appending("pub").path
    let made = try runDolphin(["capture", "fact", "Root's note", "--workspace", shared])
    #expect(made.status == 0, "\(made.stderr)")
    chmod(shared + "/workspace.sqlite", 0o666)
    chmod(shared, 0o1777)
    let victim = dir.appending("victim").path
    try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: false)
    try Data("precious".utf8).write(to: URL(fileURLWithPath: victim + "/keep.txt"))
    let secret = dir.appending("private.json").path
    let fixture = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy/workspace-v3.json")
    try FileManager.default.copyItem(atPath: fixture.path, toPath: secret)
    chmod(secret, 0o600)
    // Nobody's entries in the shared directory.
    try FileManager.default.createSymbolicLink(atPath: shared + "/legacy-backups", withDestinationPath: victim)
    lchown(shared + "/legacy-backups", Self.stranger, Self.stranger)
    try FileManager.default.createSymbolicLink(atPath: shared + "/workspace.json", withDestinationPath: secret)
    lchown(shared + "/workspace.json", Self.stranger, Self.stranger)

    // Since the ninth review (s15) such a directory is refused outright, whoever may write the
    // database: every command stops before SQLite or dolphin touches anything there.
    let forged = try runProcess(
      "/usr/bin/env",
      ["sqlite3", shared + "/workspace.sqlite",
       "INSERT INTO legacy_import VALUES('abc','workspace.json','\(victim)/keep.txt',4,'2024-01-01T00:00:00Z')"])
    #expect(forged.status == 0, "\(forged.stderr)")
    for args in [
      ["capture", "fact", "Second note"], ["migrate", secret], ["erase", "--kind", "all", "--yes"], ["knowledge", "list"],
    ] {
      let r = try runDolphin(args + ["--workspace", shared])
      #expect(r.status == 5, "\(args): \(r.stdout)\(r.stderr)")
      #expect(r.stderr.contains("the workspace directory (mode 1777) may be written by every user"), "\(args): \(r.stderr)")
      #expect(!r.stderr.contains("imported legacy"), "\(args): \(r.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: victim) == ["keep.txt"])
    #expect(try String(contentsOfFile: victim + "/keep.txt", encoding: .utf8) == "precious")
    #expect(try String(contentsOfFile: secret, encoding: .utf8).count > 100)
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: shared + "/legacy-backups")) == victim, "the link itself is left")
  }

  @Test("an access control list that lets another user write the directory is refused like the mode bits")
  func accessControlList() throws {
    let dir = TemporaryDirectory("trust-acl")
    defer { dir.remove() }
    let (workspace, _) = try Self.workspace(in: dir.path)
    try #require(try Self.grantNobodyWrite(workspace), "this filesystem keeps no POSIX access control lists")
    let r = try runDolphin(["knowledge", "list", "--workspace", workspace])
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("the workspace directory has an access control list that lets user nobody (uid 65534) write it"), "\(r.stderr)")
    #expect(r.stderr.contains("`setfacl -b '\(workspace)'`"), "\(r.stderr)")
    _ = try runProcess("/usr/bin/env", ["python3", "-c", "import os,sys; os.removexattr(sys.argv[1],'system.posix_acl_access')", workspace])
    #expect(try runDolphin(["knowledge", "list", "--workspace", workspace]).status == 0)

    // On a directory on the way (without the sticky bit) too.
    #expect(try Self.grantNobodyWrite(dir.path))
    let parent = try runDolphin(["knowledge", "list", "--workspace", workspace])
    #expect(parent.status == 5 && parent.stderr.contains("\(dir.path): a directory on the way to the workspace has an access control list that lets user nobody (uid 65534) write it"), "\(parent.stderr)")
  }

  @Test("doctor calls another user's rollback journal a foreign side file")
  func foreignJournalLabel() throws {
    let dir = TemporaryDirectory("trust-journal-label")
    defer { dir.remove() }
    let (workspace, db) = try Self.workspace(in: dir.path)
    try Data(repeating: 0xD9, count: 512).write(to: URL(fileURLWithPath: db + "-journal"))
    chown(db + "-journal", Self.stranger, Self.stranger)
    let doctor = try runDolphin(["doctor", "--workspace", workspace])
    #expect(doctor.status == 5 && doctor.stdout.contains("Open: failed (foreign side file)"), "\(doctor.stdout)")
  }

  /// Without --workspace the refusal told the user to omit --workspace.
  @Test("the demo's own directory linked to the default workspace is named as a link, without --workspace advice")
  func demoLinkedToDefault() throws {
    let dir = TemporaryDirectory("trust-demo-default")
    defer { dir.remove() }
    let home = dir.appending("dh").path
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: dir.appending("dolphin-demo").path, withDestinationPath: home)
    let r = try runDolphin(["demo"], environment: ["DOLPHIN_HOME": home])
    // Refused for what it is, as `--workspace <default>` is (review 28-c, 3).
    #expect(r.status == 4, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("the demo's own directory \(dir.appending("dolphin-demo").path) leads to your default workspace \(home) (a symbolic link)"), "\(r.stderr)")
    #expect(!r.stderr.contains("omit --workspace"), "\(r.stderr)")
  }

  /// Review 28-c, 3: a default workspace named `dolphin-demo` is the demo's own directory by its
  /// name; it was called a symbolic link, with advice to remove one (exit 2).
  @Test("a default workspace named dolphin-demo is named as the demo's own directory, not a link; nothing is written")
  func demoDefaultNamedDolphinDemo() throws {
    let dir = TemporaryDirectory("trust-demo-named")
    defer { dir.remove() }
    let home = dir.appending("dolphin-demo").path
    #expect(try runDolphin(["capture", "fact", "My real note"], environment: ["DOLPHIN_HOME": home]).status == 0)
    let r = try runDolphin(["demo"], environment: ["DOLPHIN_HOME": home])
    #expect(r.status == 4, "\(r.stdout)\(r.stderr)")
    #expect(
      r.stderr.contains(
        "the demo's own directory, <default workspace>/../dolphin-demo, is your default workspace \(home) itself (it is "
          + "named dolphin-demo); the demo writes only to a workspace of its own. Nothing was written. Name a new directory "
          + "with --workspace DIR"), "\(r.stderr)")
    #expect(!r.stderr.contains("symbolic link"), "\(r.stderr)")
    let json = try runDolphin(["demo", "--json"], environment: ["DOLPHIN_HOME": home])
    #expect(json.status == 4 && json.stdout.contains("\"kind\" : \"validation\""), "\(json.stdout)")
    let list = try runDolphin(["knowledge", "list", "--json"], environment: ["DOLPHIN_HOME": home])
    #expect(list.stdout.contains("\"total\" : 1"), "\(list.stdout)")
  }

  /// Third review (s14): a read command skipped every check when no database was found at the
  /// given path, then read what was there a moment later.
  @Test("a read command on another user's directory is refused, database or not")
  func readOfAnotherUsersDirectory() throws {
    let dir = TemporaryDirectory("trust-read-other")
    defer { dir.remove() }
    let theirs = dir.appending("theirs").path
    try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
    chown(theirs, Self.stranger, Self.stranger)
    for args in [["status"], ["knowledge", "list"], ["search", "note"]] {
      let r = try runDolphin(args + ["--workspace", theirs])
      #expect(r.status == 5, "\(args): \(r.stdout)\(r.stderr)")
      #expect(r.stderr.contains("the workspace directory belongs to nobody (uid 65534), not to this user or root"), "\(args): \(r.stderr)")
    }
  }

  /// Third review (s14): a relative `--workspace` had `link/..` dropped as text, so dolphin and
  /// `ls` named different directories.
  @Test("a relative --workspace through a link and .. names the directory the kernel does")
  func relativeDotDotThroughLink() throws {
    let dir = TemporaryDirectory("trust-relative-dotdot")
    defer { dir.remove() }
    let deep = dir.appending("real/a/b").path
    try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: dir.appending("l").path, withDestinationPath: deep)
    let r = try runDolphin(["capture", "fact", "Physical path", "--workspace", "l/../ws"], currentDirectory: dir.url)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir.appending("real/a/ws/workspace.sqlite").path))
    #expect(!FileManager.default.fileExists(atPath: dir.appending("ws").path))
  }

  /// Fifth review (s14): `export --output` followed another user's link in a shared directory,
  /// and wrote into (and cleared stale temporary files of) another user's directory.
  @Test("export --output is not written through another user's link or into their directory; own links and /tmp-like directories work")
  func exportOutputPath() throws {
    let dir = TemporaryDirectory("trust-export-output")
    defer { dir.remove() }
    let (workspace, _) = try Self.workspace(in: dir.path)
    let shared = dir.appending("shared").path
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
    chmod(shared, 0o1777)
    let victim = dir.appending("victim").path
    try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: false)
    chmod(victim, 0o755)
    // Another user's link in the shared directory, pointing at a directory of root's.
    try FileManager.default.createSymbolicLink(atPath: shared + "/out", withDestinationPath: victim)
    lchown(shared + "/out", Self.stranger, Self.stranger)
    let throughLink = try runDolphin(["export", "--output", shared + "/out/export.json", "--force", "--workspace", workspace])
    #expect(throughLink.status == 4, "\(throughLink.stdout)\(throughLink.stderr)")
    #expect(
      throughLink.stderr.contains("--output: \(shared)/out is a symbolic link on the way to the file that belongs to nobody (uid 65534)"),
      "\(throughLink.stderr)")
    #expect(throughLink.stderr.contains("nothing was written"), "\(throughLink.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: victim).isEmpty)

    // Another user's own directory.
    let theirs = shared + "/theirs"
    try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
    chown(theirs, Self.stranger, Self.stranger)
    let stale = theirs + "/.export.json.tmp-999999999-abcdefgh"
    try #require(FileManager.default.createFile(atPath: stale, contents: Data("theirs".utf8)))
    let intoTheirs = try runDolphin(["export", "--output", theirs + "/export.json", "--workspace", workspace])
    #expect(intoTheirs.status == 4, "\(intoTheirs.stdout)\(intoTheirs.stderr)")
    #expect(
      intoTheirs.stderr.contains("--output: \(theirs) belongs to nobody (uid 65534), not to this user or root: they may rename anything in it"),
      "\(intoTheirs.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: theirs) == [".export.json.tmp-999999999-abcdefgh"], "nothing written or removed")

    // A directory on the way that every user may write, without the sticky bit.
    let open = dir.appending("open").path
    try FileManager.default.createDirectory(atPath: open + "/sub", withIntermediateDirectories: true)
    chmod(open, 0o777)
    let underOpen = try runDolphin(["export", "--output", open + "/sub/export.json", "--workspace", workspace])
    #expect(underOpen.status == 4 && underOpen.stderr.contains("may be written by every user"), "\(underOpen.stderr)")
    #expect(!FileManager.default.fileExists(atPath: open + "/sub/export.json"))

    // A sticky shared directory, and root's own link in it to root's directory, are fine; the
    // file lands where the link led when it was checked. Another user's look-alike of a stale
    // temporary file there is theirs, and stays (seventh review, s15).
    try #require(FileManager.default.createFile(atPath: shared + "/.export.json.tmp-999999999-abcdefgh", contents: Data()))
    chown(shared + "/.export.json.tmp-999999999-abcdefgh", Self.stranger, Self.stranger)
    let inShared = try runDolphin(["export", "--output", shared + "/export.json", "--workspace", workspace])
    #expect(FileManager.default.fileExists(atPath: shared + "/.export.json.tmp-999999999-abcdefgh"))
    #expect(inShared.status == 0, "\(inShared.stderr)")
    #expect(FileManager.default.fileExists(atPath: shared + "/export.json"))
    try FileManager.default.createSymbolicLink(atPath: shared + "/mine", withDestinationPath: victim)
    let throughOwnLink = try runDolphin(["export", "--output", shared + "/mine/export.json", "--workspace", workspace])
    #expect(throughOwnLink.status == 0, "\(throughOwnLink.stderr)")
    #expect(FileManager.default.fileExists(atPath: victim + "/export.json"))
  }

  /// Eighth review (s15): `import FILE` followed another user's link to root's private export and
  /// read it into a workspace that user could read.
  @Test("a file named for import through another user's link is not read")
  func importThroughForeignLink() throws {
    let dir = TemporaryDirectory("trust-import-link")
    defer { dir.remove() }
    let (workspace, _) = try Self.workspace(in: dir.path)
    let privateExport = dir.appending("private.json").path
    #expect(try runDolphin(["export", "--output", privateExport, "--workspace", workspace]).status == 0)
    let shared = dir.appending("shared").path
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
    chmod(shared, 0o1777)
    try FileManager.default.createSymbolicLink(atPath: shared + "/team.json", withDestinationPath: privateExport)
    lchown(shared + "/team.json", Self.stranger, Self.stranger)
    let other = dir.appending("other").path
    let r = try runDolphin(["import", shared + "/team.json", "--workspace", other])
    #expect(r.status != 0, "\(r.stdout)")
    #expect(r.stderr.contains("\(shared)/team.json is a symbolic link that belongs to nobody (uid 65534)"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: other + "/workspace.sqlite"))
  }
}
