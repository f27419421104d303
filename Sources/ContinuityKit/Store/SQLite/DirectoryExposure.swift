import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C `struct group` of the group database (the enum below has a case of that name).
private typealias GroupEntry = group

/// Who may change what a workspace directory holds without being allowed to write its database.
///
/// SQLite reads more than the database file: the `-wal` beside it (whose frames it takes as the
/// newest pages and copies into the database at a checkpoint) and a `-journal` (a "hot" rollback
/// journal it plays back into the database on opening); https://www.sqlite.org/tempfiles.html,
/// https://www.sqlite.org/atomiccommit.html §4. Both are found by name in the database's
/// directory. Whoever may write that directory may therefore rewrite the database through such a
/// file, or swap the database itself, whatever the database's own mode says. A check of the files
/// before SQLite opens them cannot close that: a file swapped in between the check and SQLite's
/// `open` is read all the same (third review, s13), and the sticky bit (`/tmp`'s mode 1777) does
/// not help, since it keeps others from removing files, not from creating a missing `-wal`.
///
/// So the directory itself must be closed to such users. Its owner and mode can only be changed
/// by its owner and root, so once they pass this check no stranger can open it again before
/// SQLite is done. The workspace's parent directories are trusted as any program trusts the path
/// it is given; access control lists are not read (`ls -l` shows a `+` when a directory has one).
package enum DirectoryExposure: Sendable, Equatable {
  /// The directory belongs to user `uid`, who may not write the database.
  case owner(uid_t)
  /// Every user may write the directory (its mode has `o+w`, sticky bit or not), and not every
  /// user may write the database.
  case everyone
  /// The members of group `gid` may write the directory, and those named in `members` (account
  /// names, or `uid N`; at most a few) may not write the database.
  case group(gid_t, members: [String])

  /// The users who may write the database file with status `database` (nil: the file does not exist
  /// yet and will be made mode 600 by `user`) include `uid`: root, `user`, the file's owner, and
  /// whoever its mode lets write it (``SQLiteSideFiles/userMayWrite(_:_:)``).
  static func mayWriteDatabase(_ uid: uid_t, _ database: stat?, user: uid_t) -> Bool {
    if uid == 0 || uid == user { return true }
    guard let database else { return false }
    return SQLiteSideFiles.userMayWrite(uid, database)
  }

  /// Who may change what the directory holds without being allowed to write the database; nil
  /// when only users who may write the database (and root) may change the directory.
  ///
  /// - Parameters:
  ///   - directory: the workspace directory's `stat`.
  ///   - database: the database file's `stat`, or nil when it does not exist yet (dolphin makes it
  ///     mode 600, this user's).
  ///   - user: the effective user id of this process.
  ///   - groupMembers: the user ids in a group; by default from the group database (supplementary
  ///     members) and the password file (users whose primary group it is). Nil when the group is
  ///     unknown, which counts as holding strangers.
  /// - Returns: the first exposure found, checked in the order owner, everyone, group.
  package static func of(
    directory: stat, database: stat?, user: uid_t = geteuid(),
    groupMembers: (gid_t) -> [uid_t]? = DirectoryExposure.members(ofGroup:)
  ) -> DirectoryExposure? {
    if !mayWriteDatabase(directory.st_uid, database, user: user) { return .owner(directory.st_uid) }
    if directory.st_mode & S_IWOTH != 0, database.map({ $0.st_mode & S_IWOTH == 0 }) ?? true { return .everyone }
    guard directory.st_mode & S_IWGRP != 0 else { return nil }
    // A database its group may write lets every member of that group write it.
    if let database, database.st_mode & S_IWGRP != 0, database.st_gid == directory.st_gid { return nil }
    guard let members = groupMembers(directory.st_gid) else { return .group(directory.st_gid, members: []) }
    let strangers = members.filter { !mayWriteDatabase($0, database, user: user) }
    guard !strangers.isEmpty else { return nil }  // A user private group (Debian's umask 002), say.
    return .group(directory.st_gid, members: Array(Set(strangers)).sorted().prefix(3).map { FileAccessAdvice.owner($0) })
  }

  /// The user ids of group `gid`'s members: those the group database lists, and those whose
  /// primary group it is in `/etc/passwd`. Nil when the group is not in the group database.
  package static func members(ofGroup gid: gid_t) -> [uid_t]? {
    var entry = GroupEntry()
    var result: UnsafeMutablePointer<GroupEntry>?
    var buffer = [CChar](repeating: 0, count: 65_536)
    guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
    var uids: [uid_t] = []
    var member = entry.gr_mem
    while let name = member?.pointee {
      var account = passwd()
      var found: UnsafeMutablePointer<passwd>?
      var accountBuffer = [CChar](repeating: 0, count: 16_384)
      // A listed name without an account cannot log in; nobody acts as it.
      if getpwnam_r(name, &account, &accountBuffer, accountBuffer.count, &found) == 0, found != nil {
        uids.append(account.pw_uid)
      }
      member = member?.advanced(by: 1)
    }
    // Primary members: the password file's fourth field (name:password:uid:gid:…).
    if let passwd = try? String(contentsOfFile: "/etc/passwd", encoding: .utf8) {
      for line in passwd.split(separator: "\n") {
        let fields = line.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count > 3, let uid = uid_t(fields[2]), let primary = gid_t(fields[3]), primary == gid else { continue }
        uids.append(uid)
      }
    }
    return uids
  }

  /// Why dolphin will not open the workspace in `directory`, for an error that names the
  /// directory first: who may change it, what they could do, and what to do about it.
  /// - Parameters:
  ///   - directory: the directory's path, as it is shown.
  ///   - status: its `stat`.
  package func reason(directory: String, status: stat) -> String {
    let mode = FileAccessAdvice.permissions(status.st_mode)
    let who: String
    let advice: String
    switch self {
    case .owner(let uid):
      who = "belongs to \(FileAccessAdvice.owner(uid)), who may not write the database but may change anything in it"
      advice = FileAccessAdvice.ownDirectory + ", and move \(SQLiteWorkspaceStore.fileName) there"
    case .everyone:
      who = "(mode \(mode)) may be written by every user, and not every user may write the database"
      advice = FileAccessAdvice.makePrivate(path: directory, status: status, privateMode: "700")
    case .group(let gid, let members):
      let named = members.isEmpty ? "" : " (\(members.joined(separator: ", ")))"
      who = "(mode \(mode)) may be written by the members of group \(Self.groupName(gid)), and some\(named) may not "
        + "write the database"
      advice = FileAccessAdvice.makePrivate(path: directory, status: status, privateMode: "700")
        + (status.st_uid == geteuid() ? " (or `chmod g-w \(FileAccessAdvice.shellQuoted(directory))`)" : "")
    }
    return "the workspace directory \(who): they could put a -wal or rollback journal beside the database, which "
      + "SQLite would copy into it, or replace the database, so dolphin will not open it; nothing was read or changed. "
      + "To use the workspace: \(advice). Dolphin then checks the files beside the database before it opens it"
  }

  /// The group `gid` for a message: `staff (gid 50)`, or `gid 1234` without a name.
  static func groupName(_ gid: gid_t) -> String {
    var entry = GroupEntry()
    var result: UnsafeMutablePointer<GroupEntry>?
    var buffer = [CChar](repeating: 0, count: 65_536)
    guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name
    else { return "gid \(gid)" }
    return "\(String(cString: name)) (gid \(gid))"
  }
}
