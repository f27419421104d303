import Foundation
import SynthCorpus

/// `dolphin-bench synth`: generates the synthetic corpora and prints their fingerprints.
///
/// Standard output follows `python3 shared/bench/synth.py` line for line, so the two can be
/// compared with `diff`; timings go to standard error.
struct Synth: BenchCommand {
  static let name = "synth"
  static let abstract = "Generate the synthetic knowledge items and print their fingerprints."
  static var help: String {
    """
    USAGE: dolphin-bench synth [--corpus PATH] [--sizes N,N,...]

    Generates the largest size once (smaller sizes are its prefixes) and prints, per size,
    the sha256 fingerprint and statistics, then the vocabulary head, the first 8 short
    queries and the first item, as shared/bench/synth.py does. Timings go to stderr.

    OPTIONS:
      --corpus PATH     BEIR corpus.jsonl (default: \(BenchPaths.scifactCorpus))
      --sizes LIST      comma-separated item counts (default: \(defaultSizes.map(String.init).joined(separator: ",")))
    """
  }

  static let defaultSizes = [1_000, 10_000, 100_000]

  /// The corpus the items are drawn from.
  var corpusPath: String

  /// The corpus sizes to fingerprint, in the order given.
  var sizes: [Int]

  init(parsing arguments: inout ArgumentReader) throws {
    corpusPath = try arguments.option("--corpus") ?? BenchPaths.scifactCorpus
    if let list = try arguments.option("--sizes") {
      sizes = try list.split(separator: ",", omittingEmptySubsequences: false).map { field in
        let trimmed = field.trimmingCharacters(in: .whitespaces).replacingOccurrences(
          of: "_", with: "")
        guard let size = Int(trimmed) else {
          throw UsageError(message: "--sizes: '\(field)' is not an integer (example: 1000,10000)")
        }
        return size
      }
    } else {
      sizes = Self.defaultSizes
    }
  }

  func validate() throws {
    if let bad = sizes.first(where: { $0 <= 0 }) {
      throw UsageError(message: "--sizes: every size must be positive, got \(bad)")
    }
    if !FileManager.default.fileExists(atPath: corpusPath) {
      throw UsageError(
        message: "corpus not found at \(corpusPath); pass --corpus PATH to a BEIR corpus.jsonl")
    }
  }

  func run() throws {
    let clock = ContinuousClock()
    var source: SynthSource?
    let loadTime = try clock.measure { source = try SynthSource(corpusPath: corpusPath) }
    guard let source else { return }

    let largest = sizes.max() ?? 0
    var items: [SynthItem] = []
    let generateTime = clock.measure { items = synthItems(source, count: largest) }

    var lines: [String] = []
    let fingerprintTime = clock.measure {
      lines = sizes.map { Self.summary(items.prefix($0)) }
    }
    for line in lines { print(line) }
    print("vocab[:12]", PythonText.list(Array(source.vocab.prefix(12))))
    print("short queries[:8]", PythonText.list(Array(shortQueries(source).prefix(8))))
    if let first = items.first {
      print("item0", String(Self.json(first).unicodeScalars.prefix(300)))
    }

    let report = """
      load \(Self.seconds(loadTime)) (\(source.docs.count) docs), \
      generate \(largest) items \(Self.seconds(generateTime)), \
      fingerprint and stats \(Self.seconds(fingerprintTime))

      """
    FileHandle.standardError.write(Data(report.utf8))
  }

  /// The per-size line of `synth.py`:
  /// `N=  1000 sha256=… content chars min/mean/max …/…/… tags mean … max … distinct titles …`.
  static func summary(_ items: ArraySlice<SynthItem>) -> String {
    let count = items.count
    let contentLengths = items.map(\.content.unicodeScalarCount)
    let tagCounts = items.map(\.tags.count)
    // Titles compared as scalars (Python's equality), not by Swift's canonical equivalence.
    let distinctTitles = Set(items.map { Array($0.title.unicodeScalars.map(\.value)) }).count
    let contentMean = Double(contentLengths.reduce(0, +)) / Double(count)
    let tagMean = Double(tagCounts.reduce(0, +)) / Double(count)
    let countField = String(count)
    let paddedCount = String(repeating: " ", count: max(0, 6 - countField.count)) + countField
    return "N=\(paddedCount) sha256=\(fingerprint(items)) content chars min/mean/max "
      + "\(contentLengths.min() ?? 0)/\(String(format: "%.0f", contentMean))/"
      + "\(contentLengths.max() ?? 0) tags mean \(String(format: "%.2f", tagMean)) "
      + "max \(tagCounts.max() ?? 0) distinct titles \(distinctTitles)"
  }

  /// `json.dumps(item)` for the `title`, `content`, `tags` dictionary of `synth.py`.
  static func json(_ item: SynthItem) -> String {
    "{\"title\": \(PythonText.json(item.title)), \"content\": \(PythonText.json(item.content)), "
      + "\"tags\": \(PythonText.json(item.tags))}"
  }

  /// A duration as seconds with three decimals: `1.234 s`.
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.3f s", Double(seconds) + Double(attoseconds) * 1e-18)
  }
}
