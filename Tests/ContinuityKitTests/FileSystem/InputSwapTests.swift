@testable import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Tenth review (s15): another user's own directory on the way to a file root reads, swapped for
/// their link to a directory of root's after the walk, made root read its own private file
/// (`O_NOFOLLOW` guards only the last component). The opened file must be where the walk said.
@Suite("A file read is the one the walk found", .serialized)
struct InputSwapTests {
  @Test("the kernel's name for an open file tells a directory on the way that became a link")
  func openedPathCheck() throws {
    let dir = TemporaryDirectory("input-opened-path")
    defer { dir.remove() }
    let real = dir.appending("real").path
    try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
    try Data("text".utf8).write(to: URL(fileURLWithPath: real + "/c.txt"))
    try FileManager.default.createSymbolicLink(atPath: dir.appending("link").path, withDestinationPath: real)
    let fd = open(dir.appending("link").path + "/c.txt", O_RDONLY | O_NOFOLLOW)
    defer { close(fd) }
    #expect(fd >= 0)
    #expect(BoundedInput.opened(fd, isAt: real + "/c.txt"))
    #expect(!BoundedInput.opened(fd, isAt: dir.appending("link").path + "/c.txt"), "opened through the link: not where the walk said")
  }

  @Test(
    "another user swapping their directory with their link to root's never gets root's file read",
    .enabled(
      if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "needs root and setpriv to swap the entries as another user (uid 65534)"))
  func swapRace() throws {
    let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("dolphin-tests-input-swap-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    let shared = root + "/shared"
    let secret = root + "/secret"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: secret, withIntermediateDirectories: true)
    chmod(root, 0o755)
    chmod(shared, 0o1777)
    chmod(secret, 0o700)
    try Data("ROOT SECRET".utf8).write(to: URL(fileURLWithPath: secret + "/c.txt"))
    try FileManager.default.createDirectory(atPath: shared + "/sw", withIntermediateDirectories: false)
    try Data("their text".utf8).write(to: URL(fileURLWithPath: shared + "/sw/c.txt"))
    chown(shared + "/sw/c.txt", 65534, 65534)
    chown(shared + "/sw", 65534, 65534)
    try FileManager.default.createSymbolicLink(atPath: shared + "/swl", withDestinationPath: secret)
    lchown(shared + "/swl", 65534, 65534)
    let swapper = try WorkspaceTrustRaceTests.startSwapping(shared + "/sw", shared + "/swl")
    defer {
      swapper.terminate()
      swapper.waitUntilExit()
    }
    var read = 0
    for _ in 0..<400 {
      if let result = try? BoundedInput.readFile(atPath: shared + "/sw/c.txt", maxBytes: 1000) {
        read += 1
        #expect(String(decoding: result.bytes, as: UTF8.self) == "their text")
      }
    }
    _ = read
  }
}
