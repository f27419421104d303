import Foundation

/// Where benchmark inputs live when no option says otherwise.
///
/// Found from this source file's path, so the defaults hold whatever the current directory
/// is: the repository is `/work/<checkout>/` and shared data `/work/shared/data/`.
enum BenchPaths {
  /// The repository root: `Benchmarks/Sources/dolphin-bench/Support/` is four folders below it.
  static let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<5 { url.deleteLastPathComponent() }
    return url
  }()

  /// `<repository>/../shared/data`: data sets shared by all checkouts.
  static let sharedData: URL =
    repositoryRoot
    .deletingLastPathComponent()
    .appendingPathComponent("shared/data", isDirectory: true)
    .standardizedFileURL

  /// The BEIR SciFact corpus, the source of the synthetic items.
  static var scifactCorpus: String {
    sharedData.appendingPathComponent("scifact/corpus.jsonl").path
  }
}
