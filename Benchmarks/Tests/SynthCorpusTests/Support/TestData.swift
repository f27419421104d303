import Foundation
import SynthCorpus

/// Locations of test data, found from this file's path.
enum TestData {
  /// `Benchmarks/Tests/SynthCorpusTests/`.
  static let testsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The fixtures beside the tests.
  static func fixture(_ name: String) -> String {
    testsDirectory.appendingPathComponent("Fixtures/\(name)").path
  }

  /// `<repository>/../shared/data/scifact/`: SciFact, shared by all checkouts, not in git.
  static let scifactDirectory =
    testsDirectory
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // Benchmarks
    .deletingLastPathComponent()  // repository
    .deletingLastPathComponent()
    .appendingPathComponent("shared/data/scifact")
    .standardizedFileURL

  /// The SciFact corpus path.
  static let scifactCorpusPath = scifactDirectory.appendingPathComponent("corpus.jsonl").path

  /// Whether the SciFact corpus is present.
  static let hasSciFact = FileManager.default.fileExists(atPath: scifactCorpusPath)

  /// Why SciFact tests are skipped when they are.
  static let sciFactMissing =
    "SciFact corpus not found at \(scifactCorpusPath); "
    + "these tests need shared/data/scifact beside the repository"

  /// The SciFact source, loaded once for all tests; nil when the corpus is missing.
  static let scifact: SynthSource? = try? SynthSource(corpusPath: scifactCorpusPath)

  /// The Unicode fixture source (see `Fixtures/make_unicode_corpus.py`).
  static let unicodeCorpus: SynthSource? = try? SynthSource(
    corpusPath: fixture("unicode-corpus.jsonl"))
}
