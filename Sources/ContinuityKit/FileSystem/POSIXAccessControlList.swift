import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The write grants of a file's POSIX access control list beyond its owner, group and other
/// bits: the named users and named groups whose entry, masked by the list's mask, allows
/// writing.
///
/// Linux keeps the list in the extended attribute `system.posix_acl_access` (`acl(5)`; the byte
/// layout is the kernel's `posix_acl_xattr_header` and `posix_acl_xattr_entry` in
/// `include/uapi/linux/posix_acl_xattr.h`: a little-endian `u32` version 2, then entries of a `u16`
/// tag, a `u16` permission set and a `u32` id). `ls -l` shows a `+` after the mode of a file that
/// has one. The mode's group bits are then the list's mask, not the owning group's permissions,
/// which the list's own group entry holds. Other systems (and Darwin's extended ACLs, which are
/// another model) are not read: ``writeGrants(of:)`` answers nil there.
package struct POSIXAccessControlList: Sendable, Equatable {
  /// A user or group a named entry lets write the file (after the mask).
  package enum Grantee: Sendable, Hashable {
    case user(uid_t)
    case group(gid_t)
    /// A list that exists but could not be read or understood: anyone may be in it.
    case unreadable
  }

  /// The named users and groups that may write the file through the list.
  package var writers: [Grantee]

  // Entry tags and the write permission of `acl(5)` (`<linux/posix_acl.h>`).
  static let userEntry: UInt16 = 0x02
  static let groupEntry: UInt16 = 0x08
  static let maskEntry: UInt16 = 0x10
  static let writePermission: UInt16 = 0x02

  /// Reads the list from its extended-attribute bytes; nil when they are not a version-2 list.
  package init?(xattr bytes: [UInt8]) {
    guard bytes.count >= 4, (bytes.count - 4) % 8 == 0 else { return nil }
    func u16(_ i: Int) -> UInt16 { UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 }
    func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
    guard u32(0) == 2 else { return nil }
    var mask: UInt16 = 0x07
    var named: [(tag: UInt16, perm: UInt16, id: UInt32)] = []
    for offset in stride(from: 4, to: bytes.count, by: 8) {
      let entry = (tag: u16(offset), perm: u16(offset + 2), id: u32(offset + 4))
      if entry.tag == Self.maskEntry { mask = entry.perm } else { named.append(entry) }
    }
    writers = named.compactMap { entry in
      guard entry.perm & mask & Self.writePermission != 0 else { return nil }
      switch entry.tag {
      case Self.userEntry: return .user(uid_t(entry.id))
      case Self.groupEntry: return .group(gid_t(entry.id))
      default: return nil
      }
    }
  }

  /// The write grants of the access control list of `path` (following a symbolic link), or nil
  /// when it has none or this system keeps no POSIX lists.
  ///
  /// A list that exists but cannot be read whole or understood (another error than "no such
  /// attribute" or "not supported", or bytes that are not a version-2 list) fails closed: it
  /// answers ``Grantee/unreadable`` as a writer (review, s15: a list of 300 entries overflowed a
  /// fixed buffer, read as none, and let a stranger with write access through). The size is
  /// asked first and the read retried while the list grows.
  package static func writeGrants(of path: String) -> POSIXAccessControlList? {
    #if os(Linux)
      typealias GetXattr = @convention(c) (
        UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int
      ) -> Int
      // `getxattr(2)` is in the C library, which Glibc's Swift module does not export.
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getxattr") else { return nil }
      let getxattr = unsafeBitCast(symbol, to: GetXattr.self)
      let name = "system.posix_acl_access"
      let unreadable = POSIXAccessControlList(writers: [.unreadable])
      for _ in 0..<8 {
        let size = getxattr(path, name, nil, 0)
        if size < 0 { return errno == ENODATA || errno == ENOTSUP || errno == ENOENT ? nil : unreadable }
        if size == 0 { return nil }
        var buffer = [UInt8](repeating: 0, count: size)
        let count = buffer.withUnsafeMutableBytes { getxattr(path, name, $0.baseAddress, $0.count) }
        if count < 0 {
          if errno == ERANGE { continue }  // It grew meanwhile: ask again.
          return errno == ENODATA || errno == ENOTSUP || errno == ENOENT ? nil : unreadable
        }
        return POSIXAccessControlList(xattr: Array(buffer.prefix(count))) ?? unreadable
      }
      return unreadable
    #else
      return nil
    #endif
  }

  /// A list with these writers (tests, and the list that could not be read).
  package init(writers: [Grantee]) { self.writers = writers }
}
