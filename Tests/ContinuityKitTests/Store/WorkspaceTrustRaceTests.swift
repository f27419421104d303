@testable import ContinuityKit
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Regressions (third review, s14): a path with a missing component was let through as given
/// (its `realpath` failed, so the unresolved string was checked and then opened through a link
/// put there a moment later), and a new workspace was made with `mkdir` and `chmod` by path,
/// following a link toggled in a shared directory: root's capture went into another user's
/// file, and its `chmod 700` onto a directory of that user's choosing.
@Suite("Workspace path checks under a changing path", .serialized)
struct WorkspaceTrustRaceTests {
  /// Starts uid 65534 swapping the entries `a` and `b` with `renameat2(RENAME_EXCHANGE)` for six
  /// seconds, and waits a moment for it to begin. The caller terminates it.
  static func startSwapping(_ a: String, _ b: String) throws -> Process {
    let swapper = Process()
    swapper.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    swapper.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
      "import ctypes,sys,time\nlibc=ctypes.CDLL(None,use_errno=True)\na=sys.argv[1].encode();b=sys.argv[2].encode()\n"
        + "end=time.time()+6\nwhile time.time()<end:\n"
        + " libc.syscall(ctypes.c_long(316),ctypes.c_long(-100),a,ctypes.c_long(-100),b,ctypes.c_long(2))\n",
      a, b,
    ]
    try swapper.run()
    usleep(200_000)  // let it start
    return swapper
  }

  /// For 400 rounds, as root: neither verifying `directory` as a workspace, nor checking it as an
  /// output file's directory, nor creating the workspace `created` may succeed; the first that
  /// does is recorded.
  static func expectNoPathThrough(_ directory: String, creating created: String) {
    for _ in 0..<400 {
      if case .success(let verified) = WorkspaceTrust.verify(directory: directory, user: 0) {
        Issue.record("verified \(verified.directory)")
        return
      }
      if case .directory(let resolved) = WorkspaceTrust.verifyOutputDirectory(directory, option: "--output", user: 0) {
        Issue.record("would write in \(resolved)")
        return
      }
      if case .success(let made) = WorkspaceTrust.createWorkspaceDirectory(created, user: 0) {
        Issue.record("made \(made)")
        return
      }
    }
  }

  @Test("a path that does not resolve is refused, never checked or opened as given")
  func unresolvedRefused() throws {
    let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("dolphin-tests-unresolved-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    switch WorkspaceTrust.verify(directory: dir.appendingPathComponent("ws").path) {
    case .success(let verified): Issue.record("verified \(verified.directory)")
    case .failure(let refusal): #expect(refusal.message.contains("the path to the workspace changed while dolphin checked it"))
    }
  }

  /// CI (s15): two first writes raced to create one workspace; the second found the directory
  /// made by the first when its walk reached it, and was refused as "the path changed".
  @Test("creating a workspace directory that another process made a moment ago succeeds with its resolved path")
  func creationFindsItMadeMeanwhile() throws {
    let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("dolphin-tests-made-meanwhile-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    let ws = dir.appendingPathComponent("ws").path
    try FileManager.default.createDirectory(atPath: ws, withIntermediateDirectories: true)
    chmod(dir.path, 0o755)
    chmod(ws, 0o700)
    switch WorkspaceTrust.createWorkspaceDirectory(dir.path + "/./ws") {
    case .success(let path): #expect(path == ws)
    case .failure(let failure): Issue.record("refused: \(failure)")
    }
    // `..` after a missing directory still cannot be created, and says why (review, s15: it was
    // called a path changed during the check).
    switch WorkspaceTrust.createWorkspaceDirectory(dir.path + "/missing/../ws2") {
    case .success(let path): Issue.record("made \(path)")
    case .failure(.refused(let refusal)): Issue.record("refused: \(refusal.message)")
    case .failure(.obstacle(let obstacle)):
      #expect(obstacle.path == dir.path + "/missing")
      #expect(obstacle.reason.hasPrefix("does not exist, and the path goes back out of it (`..`)"))
    }
  }

  /// Sixth review (s15): the walk took a last component that was not a directory as resolved,
  /// unjudged; every later look-up by name then followed whatever stood there.
  @Test("a path ending in a file is not a directory to the walk: verified, created or written in, it is refused")
  func lastComponentMustBeADirectory() throws {
    let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("dolphin-tests-last-file-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    chmod(dir.path, 0o755)
    let file = dir.path + "/file"
    try #require(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
    if case .notADirectory(let path) = WorkspaceTrust.walk(file) { #expect(path == file) } else { Issue.record("walked into a file") }
    if case .resolved(let path) = WorkspaceTrust.walk(file, last: .any) { #expect(path == file) } else { Issue.record("a file asked for") }
    if case .success(let verified) = WorkspaceTrust.verify(directory: file) { Issue.record("verified \(verified.directory)") }
    #expect(WorkspaceTrust.verifyOutputDirectory(file, option: "--output") == .notADirectory(file))
    #expect(WorkspaceTrust.verifyOutputDirectory(file + "/sub", option: "--output") == .notADirectory(file))
    switch WorkspaceTrust.createWorkspaceDirectory(file) {
    case .failure(.obstacle(let obstacle)): #expect(obstacle.description == "\(file) is not a directory")
    default: Issue.record("created or refused otherwise")
    }
  }

  /// Sixth review (s15): another user's plain file and their link to root's directory, swapped
  /// with `renameat2(RENAME_EXCHANGE)` in a 1777 directory: the walk saw the file, every later
  /// look-up the link — root's export replaced a file in root's directory, and root's capture
  /// imported that user's `workspace.json` into root's workspace.
  @Test(
    "another user swapping their plain file with their link to root's directory never gets a path through",
    .enabled(
      if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "needs root and setpriv to swap the entries as another user (uid 65534)"))
  func fileExchangeRace() throws {
    let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("dolphin-tests-file-exchange-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    let shared = root + "/shared"
    let rootsOwn = root + "/roots"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: rootsOwn, withIntermediateDirectories: true)
    chmod(root, 0o755)
    chmod(shared, 0o1777)
    chmod(rootsOwn, 0o700)
    try #require(FileManager.default.createFile(atPath: shared + "/w", contents: Data()))
    chown(shared + "/w", 65534, 65534)
    try FileManager.default.createSymbolicLink(atPath: shared + "/wl", withDestinationPath: rootsOwn)
    lchown(shared + "/wl", 65534, 65534)
    let swapper = try Self.startSwapping(shared + "/w", shared + "/wl")
    defer {
      swapper.terminate()
      swapper.waitUntilExit()
    }
    Self.expectNoPathThrough(shared + "/w", creating: shared + "/w")
  }

  @Test(
    "creating a workspace while another user toggles a link on the way never follows it: its target is untouched",
    .enabled(
      if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "needs root and setpriv to toggle the link as another user (uid 65534)"))
  func creationRace() throws {
    let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("dolphin-tests-create-race-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    let shared = root + "/shared"
    let victim = root + "/victim"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: victim + "/b", withIntermediateDirectories: true)
    chmod(root, 0o755)
    chmod(shared, 0o1777)
    chmod(victim, 0o755)
    chmod(victim + "/b", 0o755)
    // uid 65534 points `shared/a` at the victim and takes it away, over and over.
    let toggler = Process()
    toggler.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    toggler.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env", "python3", "-c",
      "import os,sys,time\nend=time.time()+6\nwhile time.time()<end:\n"
        + " try: os.symlink(sys.argv[1],sys.argv[2])\n except OSError: pass\n"
        + " try: os.unlink(sys.argv[2])\n except OSError: pass\n",
      victim, shared + "/a",
    ]
    try toggler.run()
    defer {
      toggler.terminate()
      toggler.waitUntilExit()
    }
    usleep(200_000)  // let it start
    var made = 0
    for _ in 0..<400 {
      if case .success(let path) = WorkspaceTrust.createWorkspaceDirectory(shared + "/a/b/ws", user: 0) {
        made += 1
        #expect(path == shared + "/a/b/ws", "made where it was asked, through no link")
        try? FileManager.default.removeItem(atPath: shared + "/a")
      }
    }
    var st = stat()
    #expect(stat(victim, &st) == 0 && st.st_mode & 0o777 == 0o755, "never chmodded through the link")
    #expect(stat(victim + "/b", &st) == 0 && st.st_mode & 0o777 == 0o755)
    #expect(!FileManager.default.fileExists(atPath: victim + "/b/ws"), "nothing made inside the link's target")
    _ = made
  }

  /// Fourth review (s14): another user's own directory and own link to root's directory, swapped
  /// with `renameat2(RENAME_EXCHANGE)` in a 1777 directory, showed the walk a plain directory and
  /// a later `stat` root's directory: root's workspace was overwritten through the swap, and a
  /// new workspace's `fchmod` landed on root's directory. The walk now judges each directory as
  /// it finds it.
  @Test(
    "another user swapping their directory with their link to root's never gets a path through",
    .enabled(
      if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "needs root and setpriv to swap the entries as another user (uid 65534)"))
  func exchangeRace() throws {
    let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("dolphin-tests-exchange-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    let shared = root + "/shared"
    let rootsOwn = root + "/roots"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: rootsOwn + "/target", withIntermediateDirectories: true)
    chmod(root, 0o755)
    chmod(shared, 0o1777)
    chmod(rootsOwn, 0o755)
    chmod(rootsOwn + "/target", 0o755)
    try FileManager.default.createDirectory(atPath: shared + "/w", withIntermediateDirectories: false)
    chown(shared + "/w", 65534, 65534)
    try FileManager.default.createSymbolicLink(atPath: shared + "/wl", withDestinationPath: rootsOwn)
    lchown(shared + "/wl", 65534, 65534)
    let swapper = try Self.startSwapping(shared + "/w", shared + "/wl")
    defer {
      swapper.terminate()
      swapper.waitUntilExit()
    }
    Self.expectNoPathThrough(shared + "/w", creating: shared + "/w/target")
    var st = stat()
    #expect(stat(rootsOwn + "/target", &st) == 0 && st.st_mode & 0o777 == 0o755, "never chmodded through the swap")
  }
}
