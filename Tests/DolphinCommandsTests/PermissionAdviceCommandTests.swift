import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `dolphin` advised `chmod 700 /` to a user pointing --workspace at `/`, and a `chmod` (with the
/// sticky bit dropped from the mode) for root's 1777 directories, which the user cannot run.
@Suite(
  "Permission advice names only what this user may change",
  .enabled(
    if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
    "needs root and setpriv to run dolphin as a user who owns neither / nor the test directories"))
struct PermissionAdviceCommandTests {
  static func runAsNobody(_ args: [String], in directory: URL? = nil) throws -> ProcessResult {
    try runProcess(
      "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", dolphinExecutable().path] + args,
      currentDirectory: directory)
  }

  /// A spelling of the root directory.
  struct RootSpelling: CustomTestStringConvertible, Sendable {
    var testDescription: String { "--workspace \(workspace)" }
    var workspace: String
  }

  @Test(
    "--workspace / (however spelled) never advises chmod on /; it says dolphin needs a directory of its own",
    arguments: [RootSpelling(workspace: "/"), RootSpelling(workspace: "."), RootSpelling(workspace: "..")])
  func rootDirectory(_ spelling: RootSpelling) throws {
    let r = try Self.runAsNobody(
      ["capture", "fact", "hi", "--workspace", spelling.workspace], in: URL(fileURLWithPath: "/"))
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    #expect(!r.stderr.contains("chmod"), "\(r.stderr)")
    #expect(r.stderr.contains("root directory") && r.stderr.contains("dolphin needs a directory of its own"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: "/workspace.sqlite"))
  }

  /// Since s14 a directory every user may write is refused, not warned about: another user could
  /// put a `-wal` or hot journal beside the database between any check and SQLite's open.
  @Test("root's 1777 directory is refused, shows mode 1777, advises no chmod, and gets no file")
  func stickyDirectory() throws {
    let directory = TemporaryDirectory("sticky")
    defer { directory.remove() }
    let shared = directory.appending("shared")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
    chmod(directory.path, 0o755)
    chmod(shared.path, 0o1777)
    let r = try Self.runAsNobody(["capture", "fact", "hi", "--workspace", shared.path])
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("\(shared.path): the workspace directory (mode 1777) may be written by every user: they could"), "\(r.stderr)")
    #expect(!r.stderr.contains("chmod"), "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "To use a workspace: \(shared.path) is a directory shared by all users (sticky bit, as /tmp), owned by root "
          + "(uid 0), so it cannot be made private; pass --workspace (or set DOLPHIN_HOME to) a new directory of your "
          + "own, such as ~/.local/share/dolphin.\n"), "\(r.stderr)")
    #expect(!r.stderr.contains("Dolphin then checks"), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: shared.path).isEmpty)
  }

  @Test("this user's own directory with the sticky bit gets the chmod to run, and works once it is run")
  func ownStickyDirectory() throws {
    let directory = TemporaryDirectory("own-sticky")
    defer { directory.remove() }
    let mine = directory.appending("mine")
    try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
    chmod(directory.path, 0o755)
    chown(mine.path, 65534, 65534)
    chmod(mine.path, 0o1777)
    let r = try Self.runAsNobody(["capture", "fact", "hi", "--workspace", mine.path])
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("(mode 1777) may be written by every user"), "\(r.stderr)")
    #expect(r.stderr.contains("To use the workspace: consider `chmod 700 '\(mine.path)'`"), "\(r.stderr)")
    #expect(!r.stderr.contains("shared by all users"), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: mine.path).isEmpty)
    chmod(mine.path, 0o700)
    let after = try Self.runAsNobody(["capture", "fact", "hi", "--workspace", mine.path])
    #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
  }

  @Test("this user's own open directory still gets the chmod to run")
  func ownDirectory() throws {
    let directory = TemporaryDirectory("own")
    defer { directory.remove() }
    let mine = directory.appending("mine")
    try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
    chmod(directory.path, 0o755)
    chmod(mine.path, 0o755)
    chown(mine.path, 65534, 65534)
    let r = try Self.runAsNobody(["capture", "fact", "hi", "--workspace", mine.path])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("(mode 755); consider `chmod 700 '\(mine.path)'`"), "\(r.stderr)")
  }

  /// A review saw `status` and `search` say only "SQLite error 14: permission denied; nothing was
  /// written (SQLite: unable to open database file)" for another user's workspace: neither what
  /// to do nor true of a read. They now say what `doctor` says.
  @Test("a read command on another user's workspace says whose files they are and what to do, as doctor does")
  func anotherUsersWorkspace() throws {
    let directory = TemporaryDirectory("not-mine")
    defer { directory.remove() }
    let workspace = directory.appending("ws")
    chmod(directory.path, 0o755)
    let created = try runDolphin(["capture", "fact", "root's note", "--workspace", workspace.path])
    #expect(created.status == 0, "\(created.stderr)")
    chmod(workspace.path, 0o755)  // the directory can be listed; the 0600 database not read
    for args in [["status"], ["search", "note"], ["knowledge", "list", "--json"], ["doctor"]] {
      let r = try Self.runAsNobody(args + ["--workspace", workspace.path])
      #expect(r.status == 5, "\(args) \(r.stdout)\(r.stderr)")
      let output = r.stdout + r.stderr
      #expect(output.contains("This user may not read the workspace files"), "\(args) \(output)")
      #expect(output.contains("`ls -la '\(workspace.path)'`"), "\(args) \(output)")
      #expect(!output.contains("nothing was written"), "\(args) \(output)")
    }
  }

  /// The permission-denied advice named nobody ("run dolphin as that user") and its `ls -la DIR`
  /// failed for a user who may not even enter the directory.
  struct Unreadable: CustomTestStringConvertible, Sendable {
    var testDescription: String { name }
    var name: String
    /// The workspace directory's mode (the database stays root's 0600).
    var directoryMode: mode_t
    /// What the advice names as stopping the read, and how it says to look.
    var blocker: @Sendable (_ workspace: String) -> String
    var look: @Sendable (_ workspace: String) -> String
    var wrongLook: @Sendable (_ workspace: String) -> String
  }

  @Test(
    "permission denied names the owner and mode of what stops the read, and advice that works for this user",
    arguments: [
      Unreadable(
        name: "a 0600 database in a directory this user may list", directoryMode: 0o755,
        blocker: { "the database \($0)/workspace.sqlite belongs to root (uid 0) and has mode 600" },
        look: { "`ls -la '\($0)'` shows every file's owner and mode" }, wrongLook: { "`ls -ld '\($0)'`" }),
      Unreadable(
        name: "a 0700 directory this user may not enter", directoryMode: 0o700,
        blocker: { "the workspace directory \($0) belongs to root (uid 0) and has mode 700, so this user cannot even look inside" },
        look: { "`ls -ld '\($0)'` shows the directory's owner and mode" }, wrongLook: { "`ls -la '\($0)'`" }),
    ])
  func ownerNamed(_ c: Unreadable) throws {
    let directory = TemporaryDirectory("unreadable")
    defer { directory.remove() }
    let workspace = directory.appending("ws")
    chmod(directory.path, 0o755)
    let created = try runDolphin(["capture", "fact", "root's note", "--workspace", workspace.path])
    #expect(created.status == 0, "\(created.stderr)")
    chmod(workspace.path, c.directoryMode)
    for args in [["status"], ["search", "note"], ["knowledge", "list", "--json"], ["doctor"]] {
      let r = try Self.runAsNobody(args + ["--workspace", workspace.path])
      #expect(r.status == 5, "\(args) \(r.stdout)\(r.stderr)")
      let output = r.stdout + r.stderr
      #expect(output.contains("This user may not read the workspace files: " + c.blocker(workspace.path)), "\(args) \(output)")
      #expect(output.contains("and this user is nobody (uid 65534)"), "\(args) \(output)")
      #expect(output.contains("`chown -R 65534 '\(workspace.path)'`"), "\(args) \(output)")
      #expect(output.contains(c.look(workspace.path)), "\(args) \(output)")
      #expect(!output.contains(c.wrongLook(workspace.path)), "\(args) \(output)")
      #expect(!output.contains("root's note"), "\(args) \(output)")
    }
    // The advice works for this user: the `ls` it gives succeeds.
    let asNobody = try runProcess(
      "/usr/bin/setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/ls", c.directoryMode == 0o700 ? "-ld" : "-la", workspace.path])
    #expect(asNobody.status == 0, "the advised ls works for this user: \(asNobody.stderr)")
  }

  /// A directory on the way to the workspace that this user may not enter: the advice showed
  /// `ls -ld WORKSPACE`, which fails the same way, and never named the directory at fault.
  @Test("permission denied on a parent directory names that directory, its owner and mode, and an ls that works")
  func parentDirectoryNamed() throws {
    let directory = TemporaryDirectory("closed-parent")
    defer { directory.remove() }
    let parent = directory.appending("closed")
    let workspace = parent.appendingPathComponent("inner").appendingPathComponent("ws")
    chmod(directory.path, 0o755)
    let created = try runDolphin(["capture", "fact", "root's note", "--workspace", workspace.path])
    #expect(created.status == 0, "\(created.stderr)")
    chmod(parent.path, 0o700)
    for args in [["status"], ["search", "note"], ["knowledge", "list", "--json"], ["doctor"]] {
      let r = try Self.runAsNobody(args + ["--workspace", workspace.path])
      #expect(r.status == 5, "\(args) \(r.stdout)\(r.stderr)")
      let output = r.stdout + r.stderr
      #expect(
        output.contains(
          "This user may not read the workspace files: the directory \(parent.path) on the way to the workspace "
            + "directory belongs to root (uid 0) and has mode 700, so this user cannot enter it to reach \(workspace.path)"),
        "\(args) \(output)")
      #expect(output.contains("and this user is nobody (uid 65534)"), "\(args) \(output)")
      #expect(output.contains("`ls -ld '\(parent.path)'` shows its owner and mode"), "\(args) \(output)")
      #expect(output.contains("`chmod o+x '\(parent.path)'`"), "\(args) \(output)")
      // Neither the workspace's own ls nor a chown of it: this user cannot reach it at all.
      #expect(!output.contains("`ls -ld '\(workspace.path)'`"), "\(args) \(output)")
      #expect(!output.contains("chown"), "\(args) \(output)")
    }
    // The advised ls works for this user; the workspace's own did not.
    let advised = try runProcess(
      "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/ls", "-ld", parent.path])
    #expect(advised.status == 0, "the advised ls works for this user: \(advised.stderr)")
    let workspaceLs = try runProcess(
      "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/ls", "-ld", workspace.path])
    #expect(workspaceLs.status != 0)
  }

  @Test("a parent directory that is this user's own gets the chmod u+x to run")
  func ownParentDirectory() throws {
    let directory = TemporaryDirectory("own-closed-parent")
    defer { directory.remove() }
    let parent = directory.appending("mine")
    let workspace = parent.appendingPathComponent("ws")
    chmod(directory.path, 0o755)
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    chown(parent.path, 65534, 65534)
    let created = try Self.runAsNobody(["capture", "fact", "nobody's note", "--workspace", workspace.path])
    #expect(created.status == 0, "\(created.stderr)")
    chmod(parent.path, 0o600)
    let r = try Self.runAsNobody(["status", "--workspace", workspace.path])
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    #expect(
      r.stderr.contains("the directory \(parent.path) on the way to the workspace directory belongs to this user and has mode 600"),
      "\(r.stderr)")
    #expect(r.stderr.contains("`chmod u+x '\(parent.path)'`"), "\(r.stderr)")
  }
}

/// A review (s16) of `dolphin capture fact x --workspace /tmp` read "To use the workspace: it is a
/// directory shared by all users (sticky bit, as /tmp), owned by root (uid 0); dolphin needs a
/// directory of its own: pass --workspace …", which is no sentence, followed by "Dolphin then
/// checks the files beside the database", which only follows a `chmod`.
@Suite(
  "The advice for a workspace in /tmp",
  .enabled(
    if: {
      var st = stat()
      return stat("/tmp", &st) == 0 && st.st_uid == 0 && st.st_mode & 0o7777 == 0o1777
    }(), "needs /tmp to be root's directory of mode 1777"))
struct SharedTemporaryDirectoryAdviceTests {
  @Test("capture --workspace /tmp is refused with one sentence that says why /tmp cannot be used and what to pass instead")
  func temporaryDirectory() throws {
    let before = Set(try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter { $0.hasPrefix("workspace.sqlite") })
    let r = try runDolphin(["capture", "fact", "x", "--workspace", "/tmp"])
    #expect(r.status == 5, "\(r.stderr)")
    #expect(
      r.stderr.hasSuffix(
        "nothing was written there. To use a workspace: /tmp is a directory shared by all users (sticky bit), owned "
          + "by root (uid 0), so it cannot be made private; pass --workspace (or set DOLPHIN_HOME to) a new directory "
          + "of your own, such as ~/.local/share/dolphin.\n"), "\(r.stderr)")
    #expect(!r.stderr.contains("To use the workspace: it is"), "\(r.stderr)")
    #expect(!r.stderr.contains("chmod"), "\(r.stderr)")
    let after = Set(try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter { $0.hasPrefix("workspace.sqlite") })
    #expect(after == before)
  }
}
