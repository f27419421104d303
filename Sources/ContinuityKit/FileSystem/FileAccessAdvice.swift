import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What to tell a user about the mode of a workspace directory or file: the `chmod` to run when
/// it is theirs to change, otherwise whose it is and that dolphin needs a directory of its own.
///
/// Only the owner (or root) may change a mode, and some directories must keep theirs whoever
/// owns them: `/`, and directories shared by all users (`/tmp`, mode 1777: the sticky bit and
/// open to everyone). Advising `chmod 700 /` — or a `chmod` the user cannot run — would be wrong
/// either way. The sticky bit alone does not make a directory shared: on this user's own
/// directory (a 1700 or 1777 directory they made) the `chmod` is theirs to run.
package enum FileAccessAdvice {
  /// Where to put a workspace instead: the clause after "dolphin needs a directory of its
  /// own:" or after why a directory cannot be made private.
  package static let newDirectory =
    "pass --workspace (or set DOLPHIN_HOME to) a new directory of your own, such as ~/.local/share/dolphin"

  /// What to do instead of changing a mode that is not the user's to change.
  package static let ownDirectory = "dolphin needs a directory of its own: " + newDirectory

  /// How a directory or file can be made accessible to its owner only.
  package enum Privacy: Equatable, Sendable {
    /// This user may change its mode: the `chmod` command to run.
    case chmod(String)
    /// Its mode is not this user's to change (or must stay as it is): why, as a clause whose
    /// subject is the path as given to ``privacy(path:subject:status:privateMode:user:)``.
    case elsewhere(String)
  }

  /// Whether `path` can be made private by this user, and how; or why not.
  /// - Parameters:
  ///   - path: the directory or file, as it is shown in a `chmod` command.
  ///   - subject: how the reason names it: `it`, or the path.
  ///   - status: its `stat`.
  ///   - privateMode: the mode to advise, `700` for a directory, `600` for a file.
  ///   - user: the effective user id of this process.
  /// - Returns: ``Privacy/chmod(_:)`` when `user` owns it and it is neither `/` nor a shared
  ///   directory (``isSharedDirectory(_:user:)``); otherwise ``Privacy/elsewhere(_:)``: it is the
  ///   root directory, a directory shared by all users, or whose it is and who may change it.
  package static func privacy(
    path: String, subject: String, status: stat, privateMode: String, user: uid_t = geteuid()
  ) -> Privacy {
    if isRootDirectory(path) {
      return .elsewhere("\(subject) is the root directory, whose mode must stay as it is")
    }
    if isSharedDirectory(status, user: user) {
      // `/tmp is … (sticky bit, as /tmp)` would say it twice.
      let like = path == "/tmp" || path == "/tmp/" ? "" : ", as /tmp"
      return .elsewhere(
        "\(subject) is a directory shared by all users (sticky bit\(like)), owned by \(owner(status.st_uid)), "
          + "so it cannot be made private")
    }
    if status.st_uid != user {
      let who = status.st_uid == 0 ? "only root" : "only that user or root"
      return .elsewhere("\(subject) belongs to \(owner(status.st_uid)), so \(who) can change its mode")
    }
    return .chmod("chmod \(privateMode) \(shellQuoted(path))")
  }

  /// What to do to use a workspace in `directory` that others may write: the sentences that
  /// follow the reason it is refused.
  ///
  /// When this user may change its mode: "To use the workspace: consider" the `chmod` (with
  /// `alternative`, such as the group's `chmod g-w`, beside it), then that dolphin checks the
  /// files beside the database. Otherwise one sentence that names the directory, says why it
  /// cannot be made private and where to put a workspace instead (``newDirectory``), such as
  /// "To use a workspace: /tmp is a directory shared by all users (sticky bit), owned by root
  /// (uid 0), so it cannot be made private; pass --workspace (or set DOLPHIN_HOME to) a new
  /// directory of your own, such as ~/.local/share/dolphin."
  /// - Parameters:
  ///   - directory: the workspace directory, as it is shown.
  ///   - status: its `stat`.
  ///   - alternative: another command this user could run instead of the `chmod`, if any.
  ///   - user: the effective user id of this process.
  package static func useWorkspaceAdvice(
    directory: String, status: stat, alternative: String? = nil, user: uid_t = geteuid()
  ) -> String {
    switch privacy(path: directory, subject: Limits.shownPath(directory), status: status, privateMode: "700", user: user) {
    case .chmod(let command):
      return "To use the workspace: consider `\(command)`" + (alternative.map { " (or `\($0)`)" } ?? "")
        + ". Dolphin then checks the files beside the database before it opens it."
    case .elsewhere(let why):
      return "To use a workspace: \(why); \(newDirectory)."
    }
  }

  /// The permission bits of `mode` in octal as `chmod` takes them, with the set-user-ID,
  /// set-group-ID and sticky bits when set: `755`, `1777`.
  package static func permissions(_ mode: mode_t) -> String {
    String(mode & 0o7777, radix: 8)
  }

  /// The user `uid` for a message: `root (uid 0)`, or `uid 1234` without an account name.
  package static func owner(_ uid: uid_t) -> String {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name
    else { return "uid \(uid)" }
    return "\(String(cString: name)) (uid \(uid))"
  }

  /// Whether `path` is the root directory, however it is spelled (`/`, `/.`, `/..`, a link to it).
  package static func isRootDirectory(_ path: String) -> Bool {
    var root = stat()
    var status = stat()
    return stat("/", &root) == 0 && stat(path, &status) == 0 && root.st_dev == status.st_dev
      && root.st_ino == status.st_ino
  }

  /// `path` in single quotes, each `'` written `'\''`, so that a command shown with it pastes
  /// into a POSIX shell as one word whatever the path holds (spaces, quotes, `$`):
  /// ``ShellWord/quoted(_:)``.
  package static func shellQuoted(_ path: String) -> String { ShellWord.quoted(path) }

  /// Advice for making `path` accessible to its owner only.
  ///
  /// - Parameters:
  ///   - path: the directory or file, as it is shown.
  ///   - status: its `stat`.
  ///   - privateMode: the mode to advise, `700` for a directory, `600` for a file.
  ///   - user: the effective user id of this process.
  /// - Returns: "consider `chmod 700 PATH`" when `user` owns it and it is neither `/` nor a
  ///   shared directory (``isSharedDirectory(_:user:)``); otherwise why its mode is not to be
  ///   changed, whose it is, and ``ownDirectory``.
  package static func makePrivate(path: String, status: stat, privateMode: String, user: uid_t = geteuid()) -> String {
    switch privacy(path: path, subject: "it", status: status, privateMode: privateMode, user: user) {
    case .chmod(let command): return "consider `\(command)`"
    case .elsewhere(let why): return why + "; " + ownDirectory
    }
  }

  /// Whether a directory is one all users share, as `/tmp`: the sticky bit set and writable by
  /// everyone, and either another user's or root's. Root's own such directories are the
  /// system's shared ones (`/tmp`, `/var/tmp`, `/dev/shm`), so root is never told to close one;
  /// any other user's own sticky directory is theirs, and gets the `chmod`.
  /// - Parameters:
  ///   - status: the directory's `stat` (anything but a directory is never shared).
  ///   - user: the effective user id of this process.
  package static func isSharedDirectory(_ status: stat, user: uid_t) -> Bool {
    (status.st_mode & S_IFMT) == S_IFDIR && status.st_mode & S_ISVTX != 0 && status.st_mode & S_IWOTH != 0
      && (status.st_uid != user || status.st_uid == 0)
  }

  /// Advice for a workspace directory or database file this user may not write, so that dolphin
  /// can only read the workspace.
  ///
  /// - Parameters:
  ///   - path: the directory or file, as it is shown.
  ///   - status: its `stat`.
  ///   - writableMode: the mode to advise, `700` for a directory, `600` for a file.
  ///   - user: the effective user id of this process.
  /// - Returns: the `chmod` to run when `user` owns it (everything stored stays as it is);
  ///   otherwise whose it is, and that running dolphin as that user, or on a copy of the workspace
  ///   directory, works instead.
  package static func makeWritable(path: String, status: stat, writableMode: String, user: uid_t = geteuid())
    -> String
  {
    let shown = shellQuoted(path)
    if status.st_uid == user {
      return "to store anything, make it writable again (`chmod \(writableMode) \(shown)`) and run the command again; "
        + "everything stored is still there"
    }
    return "it belongs to \(owner(status.st_uid)), so only that user or root can make it writable: run dolphin as "
      + "that user, or copy the whole workspace directory somewhere writable and pass --workspace with the copy"
  }

  /// The directory on the way to `path` that this user may not search (enter), so that `path`
  /// cannot be reached at all: its first ancestor, from the root down, for which
  /// `access(_, X_OK)` fails with `EACCES`.
  ///
  /// From the root down, not from `path` up: below a directory that may not be searched, every
  /// ancestor fails `access` too (the path to it cannot be resolved), so the nearest failing one
  /// is not the one at fault. The first that fails is the one whose own mode stops this user,
  /// and its `stat` still works (its parent may be searched), so its owner and mode can be named.
  /// `path` itself is not checked: whether the workspace directory can be entered is another
  /// question, answered with its own advice.
  /// - Parameters:
  ///   - path: the workspace directory, absolute or relative to the current directory.
  ///   - currentDirectory: what a relative `path` is relative to.
  /// - Returns: the ancestor, spelled as in `path` (with the current directory before a relative
  ///   one); nil when every ancestor may be searched, or one fails for another reason (it does
  ///   not exist, it is not a directory).
  /// - Complexity: one `access` call per component of `path`.
  package static func unsearchableAncestor(
    of path: String, currentDirectory: String = FileManager.default.currentDirectoryPath
  ) -> String? {
    let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
    // Every component but the last one, which is `path` itself.
    for ancestor in PathProblem.componentPrefixes(absolute).dropLast() {
      if access(ancestor, X_OK) == 0 { continue }
      return errno == EACCES ? ancestor : nil
    }
    return nil
  }

  /// Advice after this user could not create the workspace in `directory` (permission denied):
  /// whose the directory is and ``ownDirectory``, when it is not this user's own; nil when it is
  /// (the user can change its mode, and the error's own words say what to change).
  package static func cannotCreate(in directory: String, user: uid_t = geteuid()) -> String? {
    var status = stat()
    guard stat(directory, &status) == 0 else { return nil }
    if isRootDirectory(directory) { return "\(directory) is the root directory; " + ownDirectory }
    guard status.st_uid != user else { return nil }
    return "\(directory) belongs to \(owner(status.st_uid)); " + ownDirectory
  }
}
