import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paths as the file system holds them: bytes, which need not be UTF-8 (a Linux file name is
/// any bytes but `/` and NUL), for the code that walks directories the user did not name
/// itself — `dolphin analyze`'s walk (review 22, 1: a folder named `sub\xFE` was skipped without
/// a word, since Foundation lists such names as nothing).
///
/// Each function takes the path's bytes without a terminating NUL.
package enum SystemPath {
  /// Calls `body` with `path` as a NUL-terminated C string.
  package static func withCString<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
    var terminated = path.map { CChar(bitPattern: $0) }
    terminated.append(0)
    return body(terminated)
  }

  /// `lstat(2)` of `path`: its status without following a final symbolic link, or nil.
  package static func linkStatus(_ path: [UInt8]) -> stat? {
    var status = stat()
    return withCString(path) { lstat($0, &status) } == 0 ? status : nil
  }

  /// `stat(2)` of `path`, following symbolic links; or the `errno` it failed with.
  package static func status(_ path: [UInt8]) -> Result<stat, SystemError> {
    var status = stat()
    if withCString(path, { stat($0, &status) }) == 0 { return .success(status) }
    return .failure(SystemError(code: errno))
  }

  /// An `errno` value as an error.
  package struct SystemError: Error, Equatable {
    /// The `errno` value.
    package var code: Int32
  }

  /// The names in the directory at `path` (`readdir(3)`), `.` and `..` left out, in the order
  /// the system gives them; nil when it cannot be opened or listed.
  /// - Complexity: O(n) in the number of entries.
  package static func directoryEntries(_ path: [UInt8]) -> [[UInt8]]? {
    guard let directory = withCString(path, { opendir($0) }) else { return nil }
    defer { closedir(directory) }
    var names: [[UInt8]] = []
    errno = 0
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 })
      }
      if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
      errno = 0
    }
    // `readdir` returns nil at the end and on an error, telling them apart by `errno` only.
    return errno == 0 ? names : nil
  }

  /// The absolute path `path` leads to, every symbolic link, `.` and `..` resolved
  /// (`realpath(3)`), or nil when it leads nowhere.
  package static func resolved(_ path: [UInt8]) -> [UInt8]? {
    withCString(path) { pointer -> [UInt8]? in
      guard let real = realpath(pointer, nil) else { return nil }
      defer { free(real) }
      return Array(UnsafeRawBufferPointer(start: real, count: strlen(real)))
    }
  }

  /// The target of the symbolic link at `path` (`readlink(2)`), or nil when it is no link.
  package static func linkTarget(_ path: [UInt8]) -> [UInt8]? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let size = buffer.count
    let count = withCString(path) { readlink($0, &buffer, size) }
    return count >= 0 ? buffer[0..<count].map { UInt8(bitPattern: $0) } : nil
  }

  /// `path` as text: each run of valid UTF-8 as it is, each byte that is not part of one
  /// written `\xHH` (two uppercase hexadecimal digits), as `dolphin` names an argument that is
  /// not UTF-8 — `sub\xFE/x.swift`.
  /// - Complexity: O(n) in the number of bytes.
  package static func shown(_ path: some Collection<UInt8>) -> String {
    var out = ""
    var rest = Array(path)[...]
    while let offset = UTF8Validation.firstInvalidByteOffset(in: rest) {
      out += String(decoding: rest.prefix(offset), as: UTF8.self)
      let byte = rest[rest.startIndex + offset]
      out += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      rest = rest.dropFirst(offset + 1)
    }
    return out + String(decoding: rest, as: UTF8.self)
  }

  /// `path` percent-encoded as a URI path (RFC 3986 §3.3): every byte but the unreserved
  /// characters, the sub-delimiters, `:`, `@` and `/` written `%HH`, so that a name that is not
  /// UTF-8 has an exact, ASCII spelling (`sub%FE/x.swift`) that ``percentDecoded(_:)`` undoes.
  package static func percentEncoded(_ path: some Collection<UInt8>) -> String {
    var out = ""
    for byte in path {
      if isAllowedInPath(byte) {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return out
  }

  /// The bytes `text` spells with ``percentEncoded(_:)``'s escapes undone; nil when a `%` is not
  /// followed by two hexadecimal digits.
  package static func percentDecoded(_ text: String) -> [UInt8]? {
    var out: [UInt8] = []
    var bytes = Array(text.utf8)[...]
    while let byte = bytes.popFirst() {
      guard byte == UInt8(ascii: "%") else {
        out.append(byte)
        continue
      }
      guard bytes.count >= 2, let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) else {
        return nil
      }
      out.append(value)
      bytes = bytes.dropFirst(2)
    }
    return out
  }

  /// RFC 3986 `pchar` and `/`: ALPHA, DIGIT, `-._~`, `!$&'()*+,;=`, `:`, `@`.
  private static func isAllowedInPath(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return Array("-._~!$&'()*+,;=:@/".utf8).contains(byte)
    }
  }
}
