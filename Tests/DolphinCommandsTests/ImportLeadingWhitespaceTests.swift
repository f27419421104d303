import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import DolphinCommands

/// Review 25-a, 2: reading a document, the "cannot be a JSON object" check rescanned the leading
/// white space from byte 0 after every chunk, so 64 MB of leading spaces took 30 s (quadratic).
/// The check now resumes where it stopped; it must still answer as the whole-input check does.
@Suite("import: leading white space is read once")
struct ImportLeadingWhitespaceTests {
  /// `stopUnlessObject()` fed `input` in chunks of the given sizes (the last one takes the rest),
  /// as the reader feeds it: each call with everything read so far.
  static func answers(_ input: [UInt8], chunks: [Int]) -> [Bool] {
    let stop = TextInput.stopUnlessObject()
    var read = 0
    var out: [Bool] = []
    for size in chunks + [input.count] where read < input.count {
      read = min(input.count, read + max(1, size))
      out.append(stop(Array(input[..<read])))
    }
    return out
  }

  @Test("each answer equals the whole-input check on the bytes read so far, however the input is cut")
  func matchesWholeInputCheck() {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let inputs: [[UInt8]] = [
      Array("   \n\t {\"a\":1}".utf8), Array("      [1]".utf8), Array("".utf8), Array("      ".utf8),
      bom + Array("  {}".utf8), bom + Array("  [".utf8), Array("\r\n\r\nnull".utf8), [0xEF, 0xBB, 0x20, 0x7B],
      bom, Array("x".utf8),
    ]
    var generator = SystemRandomNumberGenerator()
    for input in inputs {
      for _ in 0..<50 {
        let chunks = (0..<6).map { _ in Int.random(in: 1...4, using: &generator) }
        var read = 0
        var expected: [Bool] = []
        for size in chunks + [input.count] where read < input.count {
          read = min(input.count, read + max(1, size))
          expected.append(TextInput.notAnObject(Array(input[..<read])))
        }
        #expect(Self.answers(input, chunks: chunks) == expected, "\(input) in \(chunks)")
      }
    }
  }

  @Test("8 MB of leading white space before an export imports it; only white space is refused as empty")
  func leadingWhitespaceImports() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Leading blanks survive", "--content", "kept"]).status == 0)
    let export = try cli.run(["export"]).stdout
    try FileManager.default.createDirectory(at: cli.dir.url, withIntermediateDirectories: true)
    let path = cli.dir.appending("lead.json").path
    try Data((String(repeating: " ", count: 8 << 20) + export).utf8).write(to: URL(fileURLWithPath: path))
    let other = CLI()
    defer { other.dir.remove() }
    let imported = try other.run(["import", path, "--yes"])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try other.run(["search", "leading blanks"]).stdout.contains("Leading blanks survive"))
    let blank = try other.run(["import", "-"], stdin: String(repeating: " \n", count: 1 << 20))
    #expect(blank.status == 4)
    #expect(blank.stderr.contains("stdin is empty; expected a dolphin export"), "\(blank.stderr)")
  }
}
