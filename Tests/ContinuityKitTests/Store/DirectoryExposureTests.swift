@testable import ContinuityKit
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Who may change a workspace directory without being allowed to write its database, decided
/// from modes, owners and group members alone (the group database is replaced by a table here).
struct DirectoryExposureTests {
  static let user: uid_t = 1000
  static let stranger: uid_t = 4_000_001

  static func status(_ mode: mode_t, owner: uid_t = user, group: gid_t = 1000) -> stat {
    var st = stat()
    st.st_mode = mode
    st.st_uid = owner
    st.st_gid = group
    return st
  }

  /// Group 1000 is the user's private group; group 2000 also holds a stranger; 3000 is unknown.
  static func members(_ gid: gid_t) -> [uid_t]? {
    switch gid {
    case 1000: return [user]
    case 2000: return [user, stranger]
    default: return nil
    }
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var directory: stat
    var database: stat?
    var expected: DirectoryExposure?
  }

  static let cases: [Case] = [
    Case(testDescription: "this user's 700 directory", directory: status(S_IFDIR | 0o700), database: status(S_IFREG | 0o600), expected: nil),
    Case(testDescription: "755: others read only", directory: status(S_IFDIR | 0o755), database: status(S_IFREG | 0o600), expected: nil),
    Case(testDescription: "777 over a 600 database", directory: status(S_IFDIR | 0o777), database: status(S_IFREG | 0o600), expected: .everyone),
    Case(testDescription: "root's 1777 (sticky bit does not help)", directory: status(S_IFDIR | 0o1777, owner: 0, group: 0), database: status(S_IFREG | 0o600), expected: .everyone),
    Case(testDescription: "777 over a database everyone may write", directory: status(S_IFDIR | 0o777), database: status(S_IFREG | 0o666), expected: nil),
    Case(testDescription: "775 with the user's private group (umask 002)", directory: status(S_IFDIR | 0o775), database: status(S_IFREG | 0o600), expected: nil),
    Case(testDescription: "775 with a group holding a stranger", directory: status(S_IFDIR | 0o775, group: 2000), database: status(S_IFREG | 0o600), expected: .group(2000, members: ["uid 4000001"])),
    Case(testDescription: "2770 over a database that group may write", directory: status(S_IFDIR | 0o2770, group: 2000), database: status(S_IFREG | 0o660, group: 2000), expected: nil),
    Case(testDescription: "770 over a 660 database of another group", directory: status(S_IFDIR | 0o770, group: 2000), database: status(S_IFREG | 0o660, group: 1000), expected: .group(2000, members: ["uid 4000001"])),
    Case(testDescription: "775 of an unknown group", directory: status(S_IFDIR | 0o775, group: 3000), database: status(S_IFREG | 0o600), expected: .group(3000, members: [])),
    Case(testDescription: "a stranger's 755 directory over this user's database", directory: status(S_IFDIR | 0o755, owner: stranger), database: status(S_IFREG | 0o600), expected: .owner(stranger)),
    Case(testDescription: "another user's 700 directory, their database (a directory made first in /tmp)", directory: status(S_IFDIR | 0o700, owner: stranger), database: status(S_IFREG | 0o600, owner: stranger), expected: .owner(stranger)),
    Case(testDescription: "the owner's 755 directory read by this user", directory: status(S_IFDIR | 0o755, owner: stranger), database: status(S_IFREG | 0o644, owner: stranger), expected: .owner(stranger)),
    Case(testDescription: "root's 755 directory", directory: status(S_IFDIR | 0o755, owner: 0, group: 0), database: status(S_IFREG | 0o600), expected: nil),
    Case(testDescription: "no database yet, 700", directory: status(S_IFDIR | 0o700), database: nil, expected: nil),
    Case(testDescription: "no database yet, 757", directory: status(S_IFDIR | 0o757), database: nil, expected: .everyone),
    Case(testDescription: "no database yet, 770 with a stranger in the group", directory: status(S_IFDIR | 0o770, group: 2000), database: nil, expected: .group(2000, members: ["uid 4000001"])),
  ]

  @Test("exposure of a workspace directory", arguments: cases)
  func exposure(_ c: Case) {
    let found = DirectoryExposure.of(
      directory: c.directory, database: c.database, user: Self.user, groupMembers: Self.members)
    #expect(found == c.expected)
  }

  struct AncestorCase: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var status: stat
    var expected: WorkspaceTrust.AncestorExposure?
  }

  static let ancestors: [AncestorCase] = [
    AncestorCase(testDescription: "root's 755 /home", status: status(S_IFDIR | 0o755, owner: 0, group: 0), expected: nil),
    AncestorCase(testDescription: "this user's 700 home", status: status(S_IFDIR | 0o700), expected: nil),
    AncestorCase(testDescription: "root's 1777 /tmp", status: status(S_IFDIR | 0o1777, owner: 0, group: 0), expected: nil),
    AncestorCase(testDescription: "this user's 777 directory without the sticky bit", status: status(S_IFDIR | 0o777), expected: .everyone),
    AncestorCase(testDescription: "root's 777 directory without the sticky bit", status: status(S_IFDIR | 0o777, owner: 0, group: 0), expected: .everyone),
    AncestorCase(testDescription: "another user's 755 directory", status: status(S_IFDIR | 0o755, owner: stranger), expected: .owner(stranger)),
    AncestorCase(testDescription: "another user's 1777 directory", status: status(S_IFDIR | 0o1777, owner: stranger), expected: .owner(stranger)),
    AncestorCase(testDescription: "775 with the user's private group", status: status(S_IFDIR | 0o775), expected: nil),
    AncestorCase(testDescription: "775 with a group holding a stranger", status: status(S_IFDIR | 0o775, group: 2000), expected: .group(2000, members: ["uid 4000001"])),
    AncestorCase(testDescription: "3775: group-writable with the sticky bit", status: status(S_IFDIR | 0o3775, group: 2000), expected: nil),
  ]

  @Test("exposure of a directory on the way to the workspace", arguments: ancestors)
  func ancestorExposure(_ c: AncestorCase) {
    #expect(WorkspaceTrust.ancestorExposure(c.status, user: Self.user, groupMembers: Self.members) == c.expected)
  }

  @Test("the reason names the mode, the risk, and the chmod for this user's own directory")
  func reasonText() {
    let st = Self.status(S_IFDIR | 0o777, owner: geteuid())
    let text = DirectoryExposure.everyone.reason(directory: "/srv/ws", status: st)
    #expect(text.hasPrefix("the workspace directory (mode 777) may be written by every user"))
    #expect(text.contains("SQLite would copy into it"))
    #expect(text.contains("consider `chmod 700 '/srv/ws'`"))
    let owned = DirectoryExposure.owner(Self.stranger).reason(directory: "/srv/ws", status: st)
    #expect(owned.contains("belongs to uid 4000001, not to this user or root"))
    #expect(owned.contains("`cp -r '/srv/ws' ~/copy`"))
    let empty = DirectoryExposure.owner(Self.stranger).reason(directory: "/srv/ws", status: st, holdsDatabase: false)
    #expect(empty.contains("will not make or open a workspace there") && !empty.contains("cp -r"))
    #expect(owned.contains("dolphin needs a directory of its own"))
  }

  @Test("the group database answers for a real group: root's group holds root")
  func realGroupMembers() throws {
    let members = try #require(DirectoryExposure.members(ofGroup: 0))
    #expect(members.contains(0))
    #expect(DirectoryExposure.members(ofGroup: 3_999_999) == nil)
  }

  /// Little-endian `posix_acl_xattr` bytes: version 2, then (tag, permissions, id) entries.
  static func aclBytes(version: UInt32 = 2, _ entries: [(UInt16, UInt16, UInt32)]) -> [UInt8] {
    func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
    return le(version) + entries.flatMap { le($0.0) + le($0.1) + le($0.2) }
  }

  @Test("an access control list's write grants are read after its mask; bytes that are no version-2 list are refused")
  func accessListBytes() throws {
    // user::rwx, user:4000001:rw-, group::r-x, group:4000002:rwx, mask::r-x, other::r-x
    let masked = Self.aclBytes([(0x01, 7, 0), (0x02, 6, 4_000_001), (0x04, 5, 0), (0x08, 7, 4_000_002), (0x10, 5, 0), (0x20, 5, 0)])
    #expect(try #require(POSIXAccessControlList(xattr: masked)).writers.isEmpty, "the mask takes write away")
    let open = Self.aclBytes([(0x01, 7, 0), (0x02, 6, 4_000_001), (0x04, 5, 0), (0x08, 7, 4_000_002), (0x10, 7, 0), (0x20, 5, 0)])
    #expect(try #require(POSIXAccessControlList(xattr: open)).writers == [.user(4_000_001), .group(4_000_002)])

    #expect(POSIXAccessControlList(xattr: []) == nil)
    #expect(POSIXAccessControlList(xattr: Self.aclBytes(version: 1, [(0x02, 6, 4_000_001)])) == nil)
    #expect(POSIXAccessControlList(xattr: Array(open.dropLast(3))) == nil, "a cut entry")
  }

  /// A list that exists but cannot be read whole (`writeGrants(of:)` answers `.unreadable` for an
  /// error other than "no such attribute" or "not supported", and for bytes that are no list)
  /// fails closed: it counts as granting write to someone dolphin cannot name.
  @Test("an access control list that cannot be read counts as letting strangers write, and says so")
  func unreadableAccessList() {
    let unreadable = POSIXAccessControlList(writers: [.unreadable])
    let names = DirectoryExposure.strangers(in: unreadable) { _ in false }
    #expect(names == ["users dolphin cannot tell (the list could not be read whole)"])
    let own = POSIXAccessControlList(writers: [.user(Self.user)])
    #expect(DirectoryExposure.strangers(in: own) { $0 != Self.user }.isEmpty)
  }
}
