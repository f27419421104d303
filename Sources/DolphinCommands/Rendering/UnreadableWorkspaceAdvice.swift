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
  /// advice shows `ls -ld DIR`, which looks at the directory alone.
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
