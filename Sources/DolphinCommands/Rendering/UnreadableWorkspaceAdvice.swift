import ContinuityKit
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Commands {
  /// What `doctor` and every reading command say when this user may not read the workspace:
  /// what stops it — the directory, which this user may not even enter, or the database file —
  /// whose it is (the account name, or the uid without one) and its mode, and what works.
  ///
  /// The owner comes from `stat`, which needs no permission on the file itself, only on the
  /// directories on the way to it: the database's when this user may enter the directory, the
  /// directory's otherwise. `ls -la DIR` fails where the directory cannot be entered, so then the
  /// advice shows `ls -ld DIR`, which looks at the directory alone. When a directory on the way
  /// to the workspace may not be entered (``FileAccessAdvice/unsearchableAncestor(of:currentDirectory:)``),
  /// neither works: the advice names that directory, its owner and mode, and shows `ls -ld` of it.
  /// - Parameters:
  ///   - directory: the workspace directory, as given.
  ///   - databasePath: its database file.
  ///   - user: the effective user id of this process.
  /// - Returns: one paragraph, starting `This user may not read the workspace files`.
  static func unreadableWorkspaceAdvice(directory: String, databasePath: String, user: uid_t = geteuid()) -> String {
    let created =
      "dolphin creates them (directory 0700, files 0600) for the user who first ran it"
    let unchanged = "Nothing was changed."
    var st = stat()
    // A directory on the way that this user may not enter hides the workspace entirely: `stat`
    // of the workspace fails too, and an `ls` of it would fail the same way.
    if let ancestor = FileAccessAdvice.unsearchableAncestor(of: directory), stat(ancestor, &st) == 0 {
      let what =
        "This user may not read the workspace files: the directory \(ancestor) on the way to the workspace "
        + "directory belongs to \(st.st_uid == user ? "this user" : FileAccessAdvice.owner(st.st_uid)) and has mode "
        + FileAccessAdvice.permissions(st.st_mode) + ", so this user cannot enter it to reach \(directory)"
        + (st.st_uid == user ? "" : ", and this user is \(FileAccessAdvice.owner(user))")
      let look = "`ls -ld \(ShellWord.quoted(ancestor))` shows its owner and mode"
      if st.st_uid == user {
        return "\(what). It is this user's own: let this user enter it again with "
          + "`chmod u+x \(ShellWord.quoted(ancestor))`; \(look). \(unchanged)"
      }
      return "\(what). Only its owner or root can let this user through (`chmod o+x \(ShellWord.quoted(ancestor))`, "
        + "or g+x for a group this user is in); otherwise run dolphin as a user who can reach the workspace, or pass "
        + "--workspace (or set DOLPHIN_HOME to) a directory this user can reach; \(look). \(unchanged)"
    }
    let cannotEnter = access(directory, R_OK | X_OK) != 0
    let (blocker, label, privateMode) =
      cannotEnter ? (directory, "the workspace directory", "700") : (databasePath, "the database", "600")
    guard stat(blocker, &st) == 0 else {
      return "This user may not read the workspace files. \(created): run dolphin as that user, or fix the owner and "
        + "modes (`ls -ld \(ShellWord.quoted(directory))` shows the directory's). \(unchanged)"
    }
    let what =
      "This user may not read the workspace files: \(label) \(blocker) belongs to "
      + "\(st.st_uid == user ? "this user" : FileAccessAdvice.owner(st.st_uid)) and has mode "
      + FileAccessAdvice.permissions(st.st_mode)
      + (cannotEnter ? ", so this user cannot even look inside the directory" : "")
      + (st.st_uid == user ? "" : ", and this user is \(FileAccessAdvice.owner(user))")
    // `ls -la` lists the directory, which needs read and search permission on it.
    let look =
      cannotEnter
      ? "`ls -ld \(ShellWord.quoted(directory))` shows the directory's owner and mode"
        + (st.st_uid == user ? "" : " (listing what is inside needs its owner or root)")
      : "`ls -la \(ShellWord.quoted(directory))` shows every file's owner and mode"
    if st.st_uid == user {
      return "\(what). It is this user's own: give it its mode back with "
        + "`chmod \(privateMode) \(ShellWord.quoted(blocker))`; \(look). \(unchanged)"
    }
    return "\(what). \(created): run dolphin as that user, or, if the workspace should be this user's, have root "
      + "give it over while no dolphin uses it (`chown -R \(user) \(ShellWord.quoted(directory))`); \(look). \(unchanged)"
  }
}
