import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C `struct group` of the group database (the enum below has a case of that name).
private typealias GroupEntry = group

/// Who besides this user and root may change what a workspace directory holds. The workspace is
/// opened only where no one else may (``WorkspaceTrust``; since s15 also when they may write the
/// database: SQLite acts on files it finds beside the database by name, and a crafted rollback
/// journal names a "super-journal" it deletes, whatever that is).
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
/// So the directory itself must be this user's or root's and closed to such users: its owner and
/// mode can only be changed by its owner and root, so once they pass this check no stranger can
/// open it again before SQLite is done. The directories on the way to it and the database file
/// are checked by ``WorkspaceTrust``. Access control lists are not read (`ls -l` shows a `+` when a
/// directory has one).
package enum DirectoryExposure: Sendable, Equatable {
  /// The directory belongs to user `uid`, neither this user nor root.
  case owner(uid_t)
  /// Every user may write the directory (its mode has `o+w`, sticky bit or not), and not every
  /// user may write the database.
  case everyone
  /// The members of group `gid` may write the directory, and those named in `members` (account
  /// names, or `uid N`; at most a few) may not write the database.
  case group(gid_t, members: [String])
  /// Its access control list lets the users and groups named (at most three) write it, and they
  /// may not write the database.
  case accessList([String])

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
    // Its owner may rename and replace anything in it and change its mode at will: only this
    // user's and root's are trusted, as git trusts only a repository of this user's
    // (`safe.directory`) and ssh only a key file whose directories are this user's or root's.
    if directory.st_uid != user && directory.st_uid != 0 { return .owner(directory.st_uid) }
    if directory.st_mode & S_IWOTH != 0, database.map({ $0.st_mode & S_IWOTH == 0 }) ?? true { return .everyone }
    guard directory.st_mode & S_IWGRP != 0 else { return nil }
    // A database its group may write lets every member of that group write it.
    if let database, database.st_mode & S_IWGRP != 0, database.st_gid == directory.st_gid { return nil }
    guard let members = groupMembers(directory.st_gid) else { return .group(directory.st_gid, members: []) }
    let strangers = members.filter { !mayWriteDatabase($0, database, user: user) }
    guard !strangers.isEmpty else { return nil }  // A user private group (Debian's umask 002), say.
    return .group(directory.st_gid, members: Array(Set(strangers)).sorted().prefix(3).map { FileAccessAdvice.owner($0) })
  }

  /// Who the access control list of the directory at `path` lets write it without being allowed
  /// to write the database (``POSIXAccessControlList``); nil when no one.
  static func aclExposure(of path: String, database: stat?, user: uid_t) -> DirectoryExposure? {
    guard let list = POSIXAccessControlList.writeGrants(of: path) else { return nil }
    let names = strangers(in: list) { !mayWriteDatabase($0, database, user: user) }
    return names.isEmpty ? nil : .accessList(names)
  }

  /// The names (at most three) of the users and groups that `list` lets write and that hold a
  /// user `isStranger` accepts; a group the group database does not know counts.
  static func strangers(in list: POSIXAccessControlList, isStranger: (uid_t) -> Bool) -> [String] {
    var names: [String] = []
    for writer in list.writers {
      switch writer {
      case .user(let uid) where isStranger(uid):
        names.append("user " + FileAccessAdvice.owner(uid))
      case .group(let gid) where members(ofGroup: gid).map({ $0.contains(where: isStranger) }) ?? true:
        names.append("group " + groupName(gid))
      case .unreadable:
        names.append("users dolphin cannot tell (the list could not be read whole)")
      default: continue
      }
    }
    return Array(names.prefix(3))
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
  ///   - holdsDatabase: whether the database exists in it (else dolphin was to create it).
  package func reason(directory: String, status: stat, holdsDatabase: Bool = true) -> String {
    let mode = FileAccessAdvice.permissions(status.st_mode)
    let risk =
      holdsDatabase
      ? "they could put a -wal or rollback journal beside the database, which SQLite would copy into it (a crafted "
        + "journal even makes SQLite delete a file it names), or replace the database, so dolphin will not open it; "
        + "nothing was read or changed"
      : "they could read what dolphin stores there, or put files beside it that SQLite would copy into it, so dolphin "
        + "will not make or open a workspace there; nothing was written there"
    switch self {
    case .owner(let uid):
      let copy =
        holdsDatabase
        ? "; to read that user's workspace, copy the directory (`cp -r \(FileAccessAdvice.shellQuoted(directory)) ~/copy`) "
          + "and pass --workspace with the copy, or run dolphin as that user" : ""
      return "the workspace directory belongs to \(FileAccessAdvice.owner(uid)), not to this user or root, and its owner "
        + "may rename or replace anything in it: \(risk). Dolphin opens only a directory of this user's or root's: "
        + FileAccessAdvice.ownDirectory + copy + "."
    case .everyone:
      return "the workspace directory (mode \(mode)) may be written by every user: \(risk). "
        + FileAccessAdvice.useWorkspaceAdvice(directory: directory, status: status)
    case .accessList(let names):
      let quoted = FileAccessAdvice.shellQuoted(directory)
      return "the workspace directory has an access control list that lets \(names.joined(separator: ", ")) write it "
        + "(`getfacl \(quoted)` shows it): \(risk). "
        + (status.st_uid == geteuid()
          ? "To use the workspace: remove the list (`setfacl -b \(quoted)`) or its entries that grant write. "
            + "Dolphin then checks the files beside the database before it opens it."
          : "To use a workspace: \(Limits.shownPath(directory)) belongs to \(FileAccessAdvice.owner(status.st_uid)), "
            + "so only \(status.st_uid == 0 ? "root" : "that user or root") can change its list; "
            + FileAccessAdvice.newDirectory + ".")
    case .group(let gid, let members):
      let named =
        members.isEmpty
        ? ", a group the group database does not list, so who they are is unknown"
        : ", among them \(members.joined(separator: ", "))"
      return "the workspace directory (mode \(mode)) may be written by the members of group \(Self.groupName(gid))\(named): "
        + "\(risk). "
        + FileAccessAdvice.useWorkspaceAdvice(
          directory: directory, status: status, alternative: "chmod g-w \(FileAccessAdvice.shellQuoted(directory))")
    }
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

/// The checks of a workspace's path made before SQLite opens anything: the workspace directory
/// (``DirectoryExposure``), every directory on the way to it, the database file's owner, and the
/// same for the directory a database that is a symbolic link lies in (SQLite keeps the side files
/// beside the file a link names).
///
/// A directory on the way whose entries other users may rename (a mode-777 parent without the
/// sticky bit, another user's directory) lets them move the workspace aside and put their own in
/// its place; a database file of another user in this user's directory was put there by them
/// (while the directory was open) or by root. The rules are ssh's for `authorized_keys`
/// (`StrictModes`: this user's or root's, not writable by others, on the whole path) with the
/// sticky bit honoured: in a 1777 directory such as `/tmp` only an entry's owner, the directory's
/// owner and root may rename it. Paths are resolved (`realpath`) first, so a symbolic link on the
/// way is judged by what it leads to, and SQLite is then given the resolved path: a link swapped
/// after the check changes nothing.
package enum WorkspaceTrust {
  /// Why a workspace is not opened: the path to name and the whole message.
  package struct Refusal: Error, Sendable, Equatable {
    package var path: String
    package var message: String
  }

  /// What lets other users rename the entries of a directory on the way to the workspace.
  package enum AncestorExposure: Sendable, Equatable {
    /// It belongs to user `uid`, neither this user nor root.
    case owner(uid_t)
    /// Every user may write it and it has no sticky bit.
    case everyone
    /// The members of group `gid` may write it, it has no sticky bit, and `members` (names, at
    /// most three; empty when the group is unknown) are neither this user nor root.
    case group(gid_t, members: [String])
    /// Its access control list lets the users and groups named (at most three) write it, and it
    /// has no sticky bit.
    case accessList([String])
  }

  /// What lets users other than this one and root rename the entries of the directory with
  /// status `status`, or nil.
  package static func ancestorExposure(
    _ status: stat, user: uid_t = geteuid(),
    groupMembers: (gid_t) -> [uid_t]? = DirectoryExposure.members(ofGroup:)
  ) -> AncestorExposure? {
    if status.st_uid != user && status.st_uid != 0 { return .owner(status.st_uid) }
    // Only an entry's owner (checked one level down), the directory's owner and root may rename
    // an entry of a sticky directory.
    if status.st_mode & S_ISVTX != 0 { return nil }
    if status.st_mode & S_IWOTH != 0 { return .everyone }
    guard status.st_mode & S_IWGRP != 0 else { return nil }
    guard let members = groupMembers(status.st_gid) else { return .group(status.st_gid, members: []) }
    let strangers = Set(members.filter { $0 != user && $0 != 0 })
    return strangers.isEmpty ? nil : .group(status.st_gid, members: strangers.sorted().prefix(3).map { FileAccessAdvice.owner($0) })
  }

  /// The first reason not to open the workspace in `directory` (which exists), or nil; always nil
  /// in an app sandbox (iOS and its kin), which no other user's process can reach.
  /// - Parameters:
  ///   - directory: the workspace directory as given.
  ///   - user: the effective user id of this process.
  package static func refusal(directory: String, user: uid_t = geteuid()) -> Refusal? {
    if case .failure(let refusal) = verify(directory: directory, user: user) { return refusal }
    return nil
  }

  /// What ``verify(directory:user:)`` found: the path to open and the database there.
  package struct Verified: Sendable {
    /// The workspace directory with every link resolved, as checked: hand SQLite this.
    package var directory: String
    /// The database file's `stat` at ``directory`` (following a link), nil when there is none.
    package var database: stat?
    /// The database file to hand SQLite: `<directory>/workspace.sqlite`, or, when that is a
    /// symbolic link of this user's or root's, the file it leads to as the walk resolved it
    /// (SQLite is opened with `SQLITE_OPEN_NOFOLLOW`, so it never follows a link itself).
    package var databaseFile: String
  }

  /// Checks the path to the workspace directory `directory` (which exists) and returns the
  /// directory's resolved path — the one that was checked, which the caller must hand SQLite, so
  /// that no symbolic link on the given path is followed twice — with the database found there,
  /// or the first refusal.
  ///
  /// In order: a symbolic link on the given path that is neither this user's nor root's (its
  /// owner may point it anywhere: ``foreignLink(onTheWayTo:user:)``); the path resolving at all
  /// (a component removed or a link replaced meanwhile is refused, never read as given); the
  /// resolved directory (``DirectoryExposure``, its access control list); every directory on the
  /// way to it (``ancestorExposure(_:user:groupMembers:)``); then, when the database exists there,
  /// the directory a database that is a symbolic link leads to, checked the same way, and the
  /// database file's owner (this user or root).
  /// - Parameters:
  ///   - directory: the workspace directory as given.
  ///   - user: the effective user id of this process.
  package static func verify(directory: String, user: uid_t = geteuid()) -> Result<Verified, Refusal> {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      // An app's container is its own: the sandbox keeps every other process out, and the
      // system owns some directories on the way to it.
      var database = stat()
      let path = (directory as NSString).appendingPathComponent(SQLiteWorkspaceStore.fileName)
      return .success(Verified(directory: directory, database: stat(path, &database) == 0 ? database : nil, databaseFile: path))
    #else
      let realDirectory: String
      switch walk(directory, user: user) {
      case .resolved(let real): realDirectory = real
      case .foreignLink(let link, let owner): return .failure(Refusal(path: link, message: foreignLinkReason(owner: owner)))
      case .exposed(let at, let exposure, let status):
        return .failure(exposedRefusal(at, exposure: exposure, status: status, workspace: directory, user: user))
      case .notADirectory(let path): return .failure(Refusal(path: path, message: changedReason))
      case .missing, .unresolvable: return .failure(Refusal(path: directory, message: changedReason))
      }
      let databasePath = (realDirectory as NSString).appendingPathComponent(SQLiteWorkspaceStore.fileName)
      var status = stat()
      let database: stat? = stat(databasePath, &status) == 0 ? status : nil
      if let refusal = check(directory: realDirectory, shownAs: directory, database: database, user: user) {
        return .failure(refusal)
      }
      guard let database else {
        return .success(Verified(directory: realDirectory, database: nil, databaseFile: databasePath))
      }
      var databaseFile = databasePath
      var link = stat()
      if lstat(databasePath, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
        if link.st_uid != user && link.st_uid != 0 {
          return .failure(Refusal(path: databasePath, message: foreignLinkReason(owner: link.st_uid)))
        }
        let target: String
        switch walk(databasePath, user: user, last: .any) {
        case .resolved(let resolved): target = resolved
        case .foreignLink(let link, let owner): return .failure(Refusal(path: link, message: foreignLinkReason(owner: owner)))
        case .exposed(let at, let exposure, let status):
          return .failure(exposedRefusal(at, exposure: exposure, status: status, workspace: directory, user: user))
        case .notADirectory(let path): return .failure(Refusal(path: path, message: changedReason))
        case .missing, .unresolvable: return .failure(Refusal(path: databasePath, message: changedReason))
        }
        databaseFile = target
        let holder = (target as NSString).deletingLastPathComponent
        if holder != realDirectory,
          let refusal = check(directory: holder, shownAs: holder, database: database, user: user, holdsLinkTarget: true)
        {
          return .failure(refusal)
        }
      }
      if database.st_uid != user && database.st_uid != 0 {
        let quoted = FileAccessAdvice.shellQuoted(databasePath)
        return .failure(
          Refusal(
            path: databasePath,
            message: "the database file belongs to \(FileAccessAdvice.owner(database.st_uid)), not to this user or root, "
              + "in a directory of this user's: that user (or root) put it there, so what it holds and what would be "
              + "written into it are that user's, and dolphin will not open it; nothing was read or changed. If it is "
              + "not this user's workspace, move it aside while no dolphin is running (`mv \(quoted) "
              + "\(FileAccessAdvice.shellQuoted(databasePath + ".foreign"))`); if it is, have root give it back "
              + "(`chown -h \(user) \(quoted)`)."))
      }
      return .success(Verified(directory: realDirectory, database: database, databaseFile: databaseFile))
    #endif
  }

  /// Whether users other than `user` and root may change what the directory `directory` holds
  /// (create, rename or remove its entries): another owner, `o+w` (sticky or not), `g+w` for a
  /// group holding other users, an access control list granting them write. True too when it is
  /// not a directory of its own (a link, or gone).
  ///
  /// A workspace directory may be shared with users who may write the database too
  /// (``DirectoryExposure``); the files dolphin keeps there beside SQLite's — the legacy
  /// `workspace.json` it reads, the `legacy-backups` it writes and erases — are handled only where
  /// no one else may change the directory (review, s15: in a 1777 directory with a 666 database,
  /// another user's link named `legacy-backups` sent root's backup, and root's erase, into a
  /// directory of that user's choosing).
  package static func othersMayChange(directory: String, user: uid_t = geteuid()) -> Bool {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      return false  // An app's container is its own.
    #else
      var status = stat()
      guard lstat(directory, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return true }
      return DirectoryExposure.of(directory: status, database: nil, user: user) != nil
        || DirectoryExposure.aclExposure(of: directory, database: nil, user: user) != nil
    #endif
  }

  /// Why a path that stopped resolving while it was checked is not opened.
  static let changedReason =
    "the path to the workspace changed while dolphin checked it (a directory on the way was removed, or a symbolic "
    + "link replaced), so dolphin will not open it; nothing was read or changed. Run the command again; if this "
    + "happens again, another user may be changing a directory on the way: " + FileAccessAdvice.ownDirectory + "."

  /// Why creating a workspace directory is not completed: what dolphin itself refused, or the
  /// system's reason it could not be made.
  package enum CreationFailure: Error, Sendable {
    case refused(Refusal)
    case obstacle(DirectoryObstacle)
  }

  /// Creates the workspace directory `directory` and any missing directory on the way, where no
  /// other user may rename them, and returns its resolved path.
  ///
  /// The nearest directory on the way that exists is resolved and checked with every directory
  /// on the way to it (``ancestorExposure(_:user:groupMembers:)``, access control lists); the
  /// missing ones are then made one by one relative to an open descriptor of the last one
  /// (`mkdirat`, then `openat` with `O_NOFOLLOW`): a symbolic link or another user's directory put
  /// in their place meanwhile (review, s14: a link toggled in a 1777 directory sent root's first
  /// capture into another user's file, and its `chmod 700` onto a directory of that user's
  /// choosing) is refused, never followed. Directories on the way get mode 755 at most, the
  /// workspace directory 700 (`fchmod` on its descriptor), whatever the umask. A workspace
  /// directory that exists by the time the walk reaches it (another process made it) is returned
  /// as the walk resolved it, unchanged: the caller must verify it
  /// (``verify(directory:user:)``) as it would any existing one.
  /// - Parameters:
  ///   - directory: the workspace directory to make, absolute, as given.
  ///   - user: the effective user id of this process.
  package static func createWorkspaceDirectory(_ directory: String, user: uid_t = geteuid())
    -> Result<String, CreationFailure>
  {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      if let obstacle = PathProblem.createDirectories(directory) { return .failure(.obstacle(obstacle)) }
      chmod(directory, 0o700)
      return .success(directory)
    #else
      let base: String
      var missing: [String]
      switch walk(directory, user: user) {
      case .missing(let existing, let remaining) where !remaining.contains(".."):
        base = existing
        missing = remaining.filter { $0 != "." && !$0.isEmpty }
      case .foreignLink(let link, let owner):
        return .failure(.refused(Refusal(path: link, message: foreignLinkReason(owner: owner))))
      case .exposed(let at, let exposure, let status):
        return .failure(.refused(exposedRefusal(at, exposure: exposure, status: status, workspace: directory, user: user)))
      case .unresolvable:
        return .failure(.obstacle(PathProblem.obstacle(onTheWayTo: directory) ?? PathProblem.failure(directory, ENOENT)))
      case .resolved(let real):
        // Another process's first command made it meanwhile (CI, s15: two first writes racing to
        // create one workspace): not an error. The walk judged every directory on the way, and
        // the caller verifies the workspace directory itself before anything is opened there.
        return .success(real)
      case .missing(let existing, let remaining):
        // `..` follows a missing directory: the kernel finds no such directory to go back out of
        // (review, s15: this was reported as a path changed during the check).
        let absent = (existing as NSString).appendingPathComponent(remaining.first(where: { $0 != "." && !$0.isEmpty }) ?? "")
        return .failure(
          .obstacle(
            DirectoryObstacle(
              path: absent,
              reason: "does not exist, and the path goes back out of it (`..`), so it cannot be created on the way: "
                + "create it first, or give the path without `..`")))
      case .notADirectory(let path):
        return .failure(.obstacle(DirectoryObstacle(path: path, reason: "is not a directory")))
      }
      guard !missing.isEmpty else { return .failure(.refused(Refusal(path: directory, message: changedReason))) }
      var ancestor = base
      while true {
        var status = stat()
        // One this user may not search stops the walk: creating fails with its own advice.
        guard stat(ancestor, &status) == 0 else { break }
        if let exposure = ancestorExposure(status, user: user) ?? aclExposure(of: ancestor, user: user) {
          return .failure(.refused(Refusal(path: ancestor, message: reason(exposure, ancestor: ancestor, status: status, user: user))))
        }
        if ancestor == "/" || ancestor.isEmpty { break }
        ancestor = (ancestor as NSString).deletingLastPathComponent
      }
      var fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard fd >= 0 else { return .failure(.obstacle(PathProblem.failure(base, errno))) }
      defer { close(fd) }
      var made = base
      for (i, name) in missing.enumerated() {
        made = (made as NSString).appendingPathComponent(name)
        let last = i == missing.count - 1
        if mkdirat(fd, name, last ? 0o700 : 0o755) != 0 && errno != EEXIST {
          return .failure(.obstacle(PathProblem.failure(made, errno)))
        }
        let next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard next >= 0 else {
          let code = errno
          if code == ELOOP || code == ENOTDIR {
            return .failure(.refused(Refusal(path: made, message: changedReason)))
          }
          return .failure(.obstacle(PathProblem.failure(made, code)))
        }
        close(fd)
        fd = next
        var status = stat()
        // Made by another user between `mkdirat` and `openat` (the parent lets them: a sticky one).
        guard fstat(fd, &status) == 0, status.st_uid == user || status.st_uid == 0 else {
          return .failure(.refused(Refusal(path: made, message: changedReason)))
        }
      }
      if fchmod(fd, 0o700) != 0 {
        return .failure(.obstacle(DirectoryObstacle(path: made, reason: "cannot be given mode 0700: \(SystemErrorCause.describe(errno))")))
      }
      return .success(made)
    #endif
  }

  /// What resolving a path component by component found (``walk(_:user:last:othersDirectories:)``).
  package enum Walk: Sendable {
    /// Every component exists: the path with each link and `.`/`..` resolved.
    case resolved(String)
    /// The components from `remaining` on do not exist; `existing` is the resolved path of those
    /// before them.
    case missing(existing: String, remaining: [String])
    /// A symbolic link on the way belongs to `owner`, neither this user nor root.
    case foreignLink(link: String, owner: uid_t)
    /// A directory on the way (the workspace directory included) lets other users rename its
    /// entries: `status` is what `lstat` found.
    case exposed(directory: String, exposure: AncestorExposure, status: stat)
    /// `path` is not a directory: a component the path goes on inside of, or, when the walk
    /// asked for a directory (``LastComponent``), the last one (after its links are followed).
    case notADirectory(path: String)
    /// The path does not resolve: a loop, a link that cannot be read, one this user may not
    /// search (reported elsewhere).
    case unresolvable
  }

  /// What ``walk(_:user:last:othersDirectories:)`` requires of the path's last component, once its links are followed.
  package enum LastComponent: Sendable {
    /// A directory of this user's or root's (the workspace directory: who may write it is judged
    /// against the database afterwards, ``DirectoryExposure``).
    case ownDirectory
    /// A directory judged as every directory on the way is (``ancestorExposure(_:user:groupMembers:)``,
    /// its access control list): the one a file named by the user is written in.
    case closedDirectory
    /// Anything: a file whose own checks follow (the database a symbolic link leads to).
    case any
  }

  /// Resolves `path` component by component as the kernel does, following each symbolic link
  /// and the links in its target, and stops at the first link that belongs to neither `user` nor
  /// root: such a link's owner may point it anywhere at any time, as Linux's
  /// `fs.protected_symlinks` guards against in shared directories.
  ///
  /// Each directory is judged as `lstat` finds it, before the walk goes on inside it: it must be
  /// this user's or root's and let no one else rename its entries
  /// (``ancestorExposure(_:user:groupMembers:)``, its access control list). A directory that passes
  /// cannot be renamed or replaced by anyone else afterwards, so the path the walk returns — made
  /// only of such directories and of links of this user's or root's inside them — names the same
  /// files for every later look-up by name, SQLite's included.
  ///
  /// This walk, not a later `realpath` or `stat`, names the directory dolphin checks and opens
  /// (reviews, s14: a link toggled in a 1777 directory passed a check made while it was absent;
  /// then another user's own directory and own link there, swapped with `renameat2`
  /// `RENAME_EXCHANGE`, showed the walk a plain directory and the later `stat` root's directory
  /// through the link).
  ///
  /// The last component must be what `last` says. One that is not a directory was never judged
  /// (review, s15: another user's plain file in a 1777 directory, swapped with their link by
  /// `renameat2` `RENAME_EXCHANGE`, showed the walk a file and every later look-up their link), so
  /// it is refused unless `last` is ``LastComponent/any``.
  ///
  /// With `othersDirectories`, a directory of another user is judged as if it were this user's
  /// (only who else may rename its entries counts): a file this user reads from another user's
  /// directory, which its owner could have given them anyway.
  package static func walk(
    _ path: String, user: uid_t = geteuid(), last: LastComponent = .ownDirectory, othersDirectories: Bool = false
  ) -> Walk {
    /// Who besides `user`, root (and, with `othersDirectories`, its owner) may rename the
    /// entries of the directory `directory` with status `status`.
    func exposure(_ status: stat, _ directory: String) -> AncestorExposure? {
      let judgedAs = othersDirectories && status.st_uid != 0 ? status.st_uid : user
      return ancestorExposure(status, user: judgedAs) ?? aclExposure(of: directory, user: judgedAs)
    }
    var pending = Array((path as NSString).pathComponents.drop(while: { $0 == "/" }))
    var current = "/"
    var links = 0
    var rootStatus = stat()
    guard lstat("/", &rootStatus) == 0 else { return .unresolvable }
    if let exposure = exposure(rootStatus, "/") {
      return .exposed(directory: "/", exposure: exposure, status: rootStatus)
    }
    while !pending.isEmpty {
      let name = pending.removeFirst()
      if name.isEmpty || name == "." || name == "/" { continue }
      if name == ".." {
        current = (current as NSString).deletingLastPathComponent
        continue
      }
      let candidate = (current as NSString).appendingPathComponent(name)
      var status = stat()
      guard lstat(candidate, &status) == 0 else {
        return errno == ENOENT ? .missing(existing: current, remaining: [name] + pending) : .unresolvable
      }
      guard (status.st_mode & S_IFMT) == S_IFLNK else {
        // `ws/.` ends at `ws` as `ws` does.
        let isLast = pending.allSatisfy { $0.isEmpty || $0 == "." }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
          if isLast && last == .any {
            current = candidate
            continue
          }
          return .notADirectory(path: candidate)
        }
        if isLast && last == .ownDirectory {
          // The workspace directory only needs to be this user's or root's here: who may write
          // it is judged against the database (``DirectoryExposure``) once the walk is done, on
          // what only its owner may change.
          if status.st_uid != user && status.st_uid != 0 {
            return .exposed(directory: candidate, exposure: .owner(status.st_uid), status: status)
          }
        } else if let exposure = exposure(status, candidate) {
          return .exposed(directory: candidate, exposure: exposure, status: status)
        }
        current = candidate
        continue
      }
      if status.st_uid != user && status.st_uid != 0 { return .foreignLink(link: candidate, owner: status.st_uid) }
      links += 1
      guard links <= 40, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: candidate) else {
        return .unresolvable
      }
      let components = (target as NSString).pathComponents
      if target.hasPrefix("/") {
        current = "/"
        pending = Array(components.drop(while: { $0 == "/" })) + pending
      } else {
        pending = components + pending
      }
    }
    return .resolved(current)
  }

  /// The first symbolic link on the way to `path` (``walk(_:user:last:othersDirectories:)``) that belongs to neither
  /// `user` nor root, with its owner; nil when there is none before the path stops resolving.
  package static func foreignLink(onTheWayTo path: String, user: uid_t = geteuid()) -> (link: String, owner: uid_t)? {
    if case .foreignLink(let link, let owner) = walk(path, user: user) { return (link, owner) }
    return nil
  }

  /// The refusal for a directory the walk found others may rename entries of: the workspace
  /// directory itself is named as such (``DirectoryExposure``'s words), any other as one on the way.
  static func exposedRefusal(_ at: String, exposure: AncestorExposure, status: stat, workspace: String, user: uid_t)
    -> Refusal
  {
    if case .owner(let uid) = exposure, at == (workspace as NSString).standardizingPath || at == workspace {
      var database = stat()
      let holds = stat((at as NSString).appendingPathComponent(SQLiteWorkspaceStore.fileName), &database) == 0
      return Refusal(
        path: workspace,
        message: DirectoryExposure.owner(uid).reason(directory: workspace, status: status, holdsDatabase: holds))
    }
    return Refusal(path: at, message: reason(exposure, ancestor: at, status: status, user: user))
  }

  /// Why a symbolic link of `owner`'s on the way to the workspace is not followed, for an error
  /// that names the link first.
  package static func foreignLinkReason(owner: uid_t) -> String {
    "a symbolic link on the way to the workspace that belongs to \(FileAccessAdvice.owner(owner)), not to this user or "
      + "root: that user may point it anywhere at any time, so dolphin will not follow it; nothing was read or changed. "
      + "Pass --workspace (or set DOLPHIN_HOME) with the directory itself, if it is yours, or "
      + FileAccessAdvice.ownDirectory + "."
  }


  /// The checks of one resolved directory that holds (or is to hold) the database, and of the
  /// directories on the way to it.
  private static func check(
    directory: String, shownAs shown: String, database: stat?, user: uid_t, holdsLinkTarget: Bool = false
  ) -> Refusal? {
    var status = stat()
    guard stat(directory, &status) == 0 else { return Refusal(path: shown, message: changedReason) }
    // Whoever else may change the directory is refused, whether or not they may write the
    // database (review, s15: a shared directory — 1777 with a 666 database — let another user
    // plant a rollback journal whose super-journal name made root's SQLite delete any file, a
    // FIFO that hung root's command, hard links SQLite wrote into; SQLite acts on what it finds
    // beside the database by name, which no check before its open can settle).
    if let exposure = DirectoryExposure.of(directory: status, database: nil, user: user)
      ?? DirectoryExposure.aclExposure(of: directory, database: nil, user: user)
    {
      let reason = exposure.reason(directory: shown, status: status, holdsDatabase: database != nil)
      return Refusal(
        path: shown,
        message: holdsLinkTarget
          ? reason.replacingOccurrences(of: "the workspace directory", with: "the directory the database's link leads to")
          : reason)
    }
    var ancestor = directory
    while ancestor != "/" && !ancestor.isEmpty {
      ancestor = (ancestor as NSString).deletingLastPathComponent
      var status = stat()
      // One this user may not search stops the walk: the open fails with its own advice.
      guard stat(ancestor, &status) == 0 else { return nil }
      if let exposure = ancestorExposure(status, user: user) ?? aclExposure(of: ancestor, user: user) {
        return Refusal(path: ancestor, message: reason(exposure, ancestor: ancestor, status: status, user: user))
      }
    }
    return nil
  }

  /// The named users and groups an access control list of the directory at `path` lets write it
  /// who are neither `user` nor root (a group counts when it holds such a user, or is unknown);
  /// nil when there are none, or the directory has the sticky bit (only an entry's owner, the
  /// directory's owner and root may rename its entries).
  static func aclExposure(of path: String, user: uid_t) -> AncestorExposure? {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_ISVTX == 0,
      let list = POSIXAccessControlList.writeGrants(of: path)
    else { return nil }
    let names = DirectoryExposure.strangers(in: list) { $0 != user && $0 != 0 }
    return names.isEmpty ? nil : .accessList(names)
  }

  /// What ``verifyOutputDirectory(_:option:user:)`` found.
  package enum OutputDirectory: Sendable, Equatable {
    /// The directory passed every check: its resolved path, to write the file in.
    case directory(String)
    /// The directory, or one on the way to it, does not exist: the first that does not.
    case missing(String)
    /// A component of the path is not a directory (a file, or a link to one): that component.
    case notADirectory(String)
    /// It is not written to, and why (its path is the link or directory to blame; its message
    /// starts with the option, says nothing was written and what to do).
    case refused(Refusal)
  }

  /// Checks the directory a file the user named is to be written in (`export --output`) as the
  /// path to a workspace is checked (``walk(_:user:last:othersDirectories:)``): no symbolic link on the way of a
  /// user other than this one and root, and every directory on the way, that one included,
  /// this user's or root's and closed to renames by others (``ancestorExposure(_:user:groupMembers:)``,
  /// access control lists; the sticky bit, as `/tmp` has, is enough). Such a path names the same
  /// directory for every later look-up, so the caller writes in the resolved directory returned
  /// (reviews, s14 and s15: root's export followed another user's link, toggled in `/tmp`, or
  /// their plain file swapped with their link, into a directory of that user's choosing, and
  /// cleared stale temporary files there).
  /// - Parameters:
  ///   - directory: the directory, absolute, as given (never standardized: `link/..` is where
  ///     the link leads, then up).
  ///   - option: how the user named the file, for messages (`--output`).
  ///   - user: the effective user id of this process.
  package static func verifyOutputDirectory(_ directory: String, option: String, user: uid_t = geteuid())
    -> OutputDirectory
  {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      return .directory(directory)
    #else
      let elsewhere = "give \(option) a path in a directory of your own, such as one under your home"
      switch walk(directory, user: user, last: .closedDirectory) {
      case .resolved(let real): return .directory(real)
      case .missing(let existing, let remaining):
        return .missing((existing as NSString).appendingPathComponent(remaining.first(where: { $0 != "." && !$0.isEmpty }) ?? ""))
      case .notADirectory(let path): return .notADirectory(path)
      case .foreignLink(let link, let owner):
        return .refused(
          Refusal(
            path: link,
            message: "\(option): \(Limits.shownPath(link)) is a symbolic link on the way to the file that belongs to "
              + "\(FileAccessAdvice.owner(owner)), not to this user or root: that user may point it anywhere at any time, "
              + "so dolphin will not write through it; nothing was written. Name the directory itself, if it is yours, or "
              + elsewhere + "."))
      case .exposed(let at, let exposure, let status):
        return .refused(
          Refusal(
            path: at,
            message: "\(option): \(Limits.shownPath(at)) \(exposureDescription(exposure, directory: at, status: status)): "
              + "they may rename anything in it, and so replace the file or send it elsewhere while it is written; "
              + "nothing was written. " + elsewhere.prefix(1).uppercased() + elsewhere.dropFirst() + "."))
      case .unresolvable:
        let why =
          directory.utf8.count >= Int(PATH_MAX)
          ? "is longer than the \(Int(PATH_MAX) - 1) bytes a path may have"
          : (directory as NSString).pathComponents.contains(where: { $0.utf8.count > Int(NAME_MAX) })
            ? "has a name longer than the \(NAME_MAX) bytes a file name may have"
            : "cannot be followed (a directory on the way that this user may not search, a symbolic link that "
              + "cannot be read, or too many links)"
        return .refused(
          Refusal(
            path: directory,
            message: "\(option): the path \(Limits.shownPath(directory)) \(why); nothing was written. "
              + elsewhere.prefix(1).uppercased() + elsewhere.dropFirst() + "."))
      }
    #endif
  }

  /// Who may rename the entries of the directory `directory` with status `status`, as a
  /// predicate for a message: `belongs to uid 1001, not to this user or root`.
  static func exposureDescription(_ exposure: AncestorExposure, directory: String, status: stat) -> String {
    let mode = FileAccessAdvice.permissions(status.st_mode)
    switch exposure {
    case .owner(let uid): return "belongs to \(FileAccessAdvice.owner(uid)), not to this user or root"
    case .everyone: return "(mode \(mode)) may be written by every user and has no sticky bit"
    case .group(let gid, let members):
      return "(mode \(mode)) may be written by the members of group \(DirectoryExposure.groupName(gid))"
        + (members.isEmpty ? " (a group the group database does not list)" : ", among them \(members.joined(separator: ", "))")
        + ", and has no sticky bit"
    case .accessList(let names):
      return "has an access control list that lets \(names.joined(separator: ", ")) write it "
        + "(`getfacl \(FileAccessAdvice.shellQuoted(directory))` shows it), and no sticky bit"
    }
  }

  /// The message for a directory on the way to the workspace that others may rename entries of.
  static func reason(_ exposure: AncestorExposure, ancestor: String, status: stat, user: uid_t) -> String {
    let quoted = FileAccessAdvice.shellQuoted(ancestor)
    let who = exposureDescription(exposure, directory: ancestor, status: status)
    let advice: String
    if case .owner = exposure {
      advice = FileAccessAdvice.ownDirectory
    } else if case .accessList = exposure, status.st_uid == user {
      advice = "remove the list (`setfacl -b \(quoted)`) or its entries that grant write"
    } else if status.st_uid == user {
      advice = "consider `chmod go-w \(quoted)` (or `chmod +t \(quoted)`, as /tmp has, so that only an entry's owner may rename it)"
    } else {
      advice = "only root can change its mode; " + FileAccessAdvice.ownDirectory
    }
    return "a directory on the way to the workspace \(who): they may rename anything in it, and so move the workspace "
      + "aside and put another in its place, and dolphin will not open it; nothing was read or changed. To use the "
      + "workspace: \(advice)."
  }
}
