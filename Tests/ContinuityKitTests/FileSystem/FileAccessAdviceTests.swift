import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Advice about a workspace's modes: a `chmod` only for what this user owns, never for `/` or a
/// shared sticky directory; the mode shown with its special bits.
@Suite("File access advice")
struct FileAccessAdviceTests {
  static func status(mode: mode_t, owner: uid_t) -> stat {
    var st = stat()
    st.st_mode = mode
    st.st_uid = owner
    return st
  }

  @Test("the mode keeps its sticky, set-user-ID and set-group-ID bits")
  func permissions() {
    #expect(FileAccessAdvice.permissions(S_IFDIR | 0o1777) == "1777")
    #expect(FileAccessAdvice.permissions(S_IFDIR | 0o755) == "755")
    #expect(FileAccessAdvice.permissions(S_IFDIR | 0o2770) == "2770")
    #expect(FileAccessAdvice.permissions(S_IFREG | 0o644) == "644")
  }

  /// A directory for which no `chmod` may be advised, and what the advice says instead.
  struct NoChmod: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var path: String
    var mode: mode_t
    var owner: uid_t
    var user: uid_t
    var says: String
  }

  @Test(
    "no chmod for the root directory, a shared sticky directory, or another user's directory",
    arguments: [
      NoChmod(testDescription: "/ as another user", path: "/", mode: S_IFDIR | 0o755, owner: 0, user: 65534, says: "root directory"),
      NoChmod(testDescription: "/ as root, who owns it", path: "/", mode: S_IFDIR | 0o755, owner: 0, user: 0, says: "root directory"),
      NoChmod(testDescription: "/. spells /", path: "/.", mode: S_IFDIR | 0o755, owner: 0, user: 0, says: "root directory"),
      NoChmod(testDescription: "/.. spells /", path: "/..", mode: S_IFDIR | 0o755, owner: 0, user: 65534, says: "root directory"),
      NoChmod(testDescription: "root's 1777 directory", path: "/tmp", mode: S_IFDIR | 0o1777, owner: 0, user: 65534, says: "sticky bit"),
      NoChmod(testDescription: "a 1777 directory as root", path: "/tmp", mode: S_IFDIR | 0o1777, owner: 0, user: 0, says: "sticky bit"),
      NoChmod(testDescription: "root's 777 directory", path: "/srv/x", mode: S_IFDIR | 0o777, owner: 0, user: 65534, says: "belongs to root (uid 0), so only root"),
      NoChmod(testDescription: "another user's file", path: "/srv/x/f", mode: S_IFREG | 0o644, owner: 4_000_001, user: 65534, says: "belongs to uid 4000001, so only that user or root"),
    ])
  func noChmod(_ c: NoChmod) {
    let advice = FileAccessAdvice.makePrivate(
      path: c.path, status: Self.status(mode: c.mode, owner: c.owner), privateMode: "700", user: c.user)
    #expect(!advice.contains("chmod"), "\(advice)")
    #expect(advice.contains(c.says), "\(advice)")
    #expect(advice.contains("dolphin needs a directory of its own") && advice.contains("--workspace"), "\(advice)")
  }

  @Test("a chmod for this user's own directory or file")
  func chmodOwn() {
    let dir = TemporaryDirectory("advice")
    defer { dir.remove() }
    let advice = FileAccessAdvice.makePrivate(
      path: dir.path, status: Self.status(mode: S_IFDIR | 0o755, owner: 1000), privateMode: "700", user: 1000)
    #expect(advice == "consider `chmod 700 '\(dir.path)'`")
    let file = FileAccessAdvice.makePrivate(
      path: dir.path + "/f", status: Self.status(mode: S_IFREG | 0o644, owner: 1000), privateMode: "600", user: 1000)
    #expect(file == "consider `chmod 600 '\(dir.path)/f'`")
    // Regression (review, s12): `chmod 700 /tmp/my ws` pasted as shown changed /tmp/my and ./ws.
    let spaced = FileAccessAdvice.makePrivate(
      path: "/tmp/my ws/it's", status: Self.status(mode: S_IFDIR | 0o755, owner: 1000), privateMode: "700", user: 1000)
    #expect(spaced == #"consider `chmod 700 '/tmp/my ws/it'\''s'`"#)
  }

  /// A directory with the sticky bit, and whether the advice is the `chmod` or why not.
  struct StickyCase: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var mode: mode_t
    var owner: uid_t
    var user: uid_t
    /// The advice, exactly, when it is a `chmod`; nil when it must not be one.
    var chmod: String?
    /// Words the advice holds when it is not a `chmod`.
    var says = ""
  }

  @Test(
    "a sticky directory is shared only when it is another user's and open to all, or root's /tmp-like one",
    arguments: [
      StickyCase(testDescription: "this user's own 1777 directory", mode: S_IFDIR | 0o1777, owner: 1000, user: 1000, chmod: "700"),
      StickyCase(testDescription: "this user's own 1755 directory", mode: S_IFDIR | 0o1755, owner: 1000, user: 1000, chmod: "700"),
      StickyCase(testDescription: "this user's own 1700 directory", mode: S_IFDIR | 0o1700, owner: 1000, user: 1000, chmod: "700"),
      StickyCase(testDescription: "root's own 1750 directory, as root", mode: S_IFDIR | 0o1750, owner: 0, user: 0, chmod: "700"),
      StickyCase(
        testDescription: "another user's 1777 directory", mode: S_IFDIR | 0o1777, owner: 4_000_001, user: 1000,
        says: "a directory shared by all users (sticky bit, as /tmp), owned by uid 4000001"),
      StickyCase(
        testDescription: "root's 1777 directory, as root", mode: S_IFDIR | 0o1777, owner: 0, user: 0,
        says: "a directory shared by all users (sticky bit, as /tmp), owned by root (uid 0)"),
      StickyCase(
        testDescription: "another user's 1755 directory is theirs, not shared", mode: S_IFDIR | 0o1755, owner: 4_000_001,
        user: 1000, says: "it belongs to uid 4000001, so only that user or root can change its mode"),
    ])
  func stickyDirectory(_ c: StickyCase) {
    let dir = TemporaryDirectory("sticky")
    defer { dir.remove() }
    let advice = FileAccessAdvice.makePrivate(
      path: dir.path, status: Self.status(mode: c.mode, owner: c.owner), privateMode: "700", user: c.user)
    if let mode = c.chmod {
      #expect(advice == "consider `chmod \(mode) '\(dir.path)'`")
    } else {
      #expect(!advice.contains("chmod"), "\(advice)")
      #expect(advice.contains(c.says), "\(advice)")
      #expect(advice.hasSuffix(FileAccessAdvice.ownDirectory), "\(advice)")
    }
  }

  /// A workspace directory others may write, and the whole advice that follows its refusal.
  struct UseCase: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var path: String
    var mode: mode_t
    var owner: uid_t
    var user: uid_t
    var alternative: String? = nil
    var advice: String
  }

  // A review (s16) read "To use the workspace: it is a directory shared by all users (sticky bit,
  // as /tmp), owned by root (uid 0); dolphin needs a directory of its own: pass --workspace …":
  // the part after the colon was no sentence, and "Dolphin then checks …" followed a `chmod`
  // that was never offered.
  static let useCases: [UseCase] = [
    UseCase(
      testDescription: "/tmp, as root", path: "/tmp", mode: S_IFDIR | 0o1777, owner: 0, user: 0,
      advice: "To use a workspace: /tmp is a directory shared by all users (sticky bit), owned by root (uid 0), so it "
        + "cannot be made private; pass --workspace (or set DOLPHIN_HOME to) a new directory of your own, such as "
        + "~/.local/share/dolphin."),
    UseCase(
      testDescription: "another shared directory, as another user", path: "/srv/drop", mode: S_IFDIR | 0o1777, owner: 0,
      user: 1000,
      advice: "To use a workspace: /srv/drop is a directory shared by all users (sticky bit, as /tmp), owned by root "
        + "(uid 0), so it cannot be made private; pass --workspace (or set DOLPHIN_HOME to) a new directory of your "
        + "own, such as ~/.local/share/dolphin."),
    UseCase(
      testDescription: "another user's open directory", path: "/srv/x", mode: S_IFDIR | 0o777, owner: 4_000_001,
      user: 1000,
      advice: "To use a workspace: /srv/x belongs to uid 4000001, so only that user or root can change its mode; pass "
        + "--workspace (or set DOLPHIN_HOME to) a new directory of your own, such as ~/.local/share/dolphin."),
    UseCase(
      testDescription: "the root directory", path: "/", mode: S_IFDIR | 0o777, owner: 0, user: 0,
      advice: "To use a workspace: / is the root directory, whose mode must stay as it is; pass --workspace (or set "
        + "DOLPHIN_HOME to) a new directory of your own, such as ~/.local/share/dolphin."),
    UseCase(
      testDescription: "this user's own directory", path: "/home/u/ws", mode: S_IFDIR | 0o777, owner: 1000, user: 1000,
      advice: "To use the workspace: consider `chmod 700 '/home/u/ws'`. Dolphin then checks the files beside the "
        + "database before it opens it."),
    UseCase(
      testDescription: "this user's own group-writable directory", path: "/home/u/ws", mode: S_IFDIR | 0o770, owner: 1000,
      user: 1000, alternative: "chmod g-w '/home/u/ws'",
      advice: "To use the workspace: consider `chmod 700 '/home/u/ws'` (or `chmod g-w '/home/u/ws'`). Dolphin then "
        + "checks the files beside the database before it opens it."),
  ]

  @Test("the advice after a refused workspace directory reads as sentences, and offers a chmod only where one may be run", arguments: useCases)
  func useWorkspace(_ c: UseCase) {
    let advice = FileAccessAdvice.useWorkspaceAdvice(
      directory: c.path, status: Self.status(mode: c.mode, owner: c.owner), alternative: c.alternative, user: c.user)
    #expect(advice == c.advice)
  }

  @Test("owners are named by account and uid")
  func owners() {
    #expect(FileAccessAdvice.owner(0) == "root (uid 0)")
    #expect(FileAccessAdvice.owner(4_000_001) == "uid 4000001")
  }
}
