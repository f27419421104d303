import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Errors about input that say where the problem is.
@Suite("input errors name where", .serialized)
struct InputErrorLocationTests {
  /// Regression (review, s14): text from `--content-file` that was not UTF-8 was refused as "not
  /// UTF-8 text" without saying where; `import` already named the byte and its offset.
  @Test("--content-file that is not UTF-8 is refused naming the byte and its offset, as import names it")
  func contentFileNotUTF8Offset() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try FileManager.default.createDirectory(at: cli.dir.url, withIntermediateDirectories: true)
    let latin1 = cli.dir.appending("inv.txt")
    // "Café menu" saved as Latin-1: é is the single byte 0xE9, at offset 3.
    try Data([0x43, 0x61, 0x66, 0xE9, 0x20, 0x6D, 0x65, 0x6E, 0x75, 0x0A]).write(to: latin1)
    let r = try cli.run(["capture", "fact", "Menu", "--content-file", latin1.path])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "content from '\(latin1.path)' is not UTF-8 text: the byte 0xE9 at byte offset 3 (counting from 0) is not valid UTF-8"),
      "\(r.stderr)")
  }
}
