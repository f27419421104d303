import Foundation
import FuzzEntries
import Testing
import TestSupport

/// Replays the saved fuzz corpus (`Fuzz/Corpus/<target>/`) and every crash reproducer the
/// fuzzers found (`Fuzz/Regressions/<target>/`) through the libFuzzer targets' own entry points,
/// without a sanitizer build: each input must hold every property the fuzzer checks.
@Suite("fuzz corpus and regressions replay")
struct CorpusReplayTests {
  static let targets = FuzzEntries.targets.keys.sorted()

  /// The regular files in `Fuzz/<folder>/<target>/`, sorted by name.
  static func inputs(_ folder: String, _ target: String) -> [URL] {
    let dir = repositoryRoot.appendingPathComponent("Fuzz").appendingPathComponent(folder).appendingPathComponent(target)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
    return names.sorted().map { dir.appendingPathComponent($0) }
  }

  @Test("every saved input holds the target's properties", arguments: targets)
  func replay(_ target: String) throws {
    let entry = try #require(FuzzEntries.targets[target])
    let corpus = Self.inputs("Corpus", target)
    #expect(!corpus.isEmpty, "no saved corpus for \(target)")
    for file in corpus + Self.inputs("Regressions", target) {
      let bytes = try [UInt8](Data(contentsOf: file))
      let problems = entry(bytes)
      #expect(problems.isEmpty, "\(target) \(file.lastPathComponent): \(problems)")
    }
  }
}
