import Foundation
import Testing

/// `dolphin-bench` end to end: runs the built binary and checks stdout, stderr and exit code.
struct SynthCommandTests {
  /// The result of one run.
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The built `dolphin-bench`, beside the test bundle in the products directory.
  static let binary: URL = {
    let candidates = [
      Bundle.main.bundleURL,
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    for directory in candidates {
      let url = directory.appendingPathComponent("dolphin-bench")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return candidates[0].appendingPathComponent("dolphin-bench")
  }()

  static let unicodeCorpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("SynthCorpusTests/Fixtures/unicode-corpus.jsonl").path

  func run(_ arguments: [String]) throws -> Run {
    let process = Process()
    process.executableURL = Self.binary
    process.arguments = arguments
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Read before waiting so that a full pipe cannot block the child.
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus,
      stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }

  @Test func fingerprintsOfTheUnicodeFixture() throws {
    let result = try run(["synth", "--corpus", Self.unicodeCorpus, "--sizes", "100,500"])
    #expect(result.status == 0, "stderr: \(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(
      lines.first?.hasPrefix(
        "N=   100 sha256=330088ee3b8ce9419a8739b552df86de1bb8a6832bdb366e6841a8f34eec0300 ")
        == true)
    #expect(
      lines.dropFirst().first?.hasPrefix(
        "N=   500 sha256=9c6c61b5f4650c313469074c1b3aa7677217e89c1b1ce8c87fbbffb117678d4c ")
        == true)
    #expect(lines.dropFirst(3).first?.hasPrefix("short queries[:8] ['savo xeru', ") == true)
    #expect(result.stderr.contains("generate 500 items"))
  }

  /// `<repository>/../shared/data/scifact/corpus.jsonl`, the binary's default corpus.
  static let sciFactCorpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/data/scifact/corpus.jsonl").standardizedFileURL.path

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: sciFactCorpus),
      Comment(rawValue: "SciFact corpus not found at \(sciFactCorpus)")))
  func defaultCorpusIsSciFact() throws {
    let result = try run(["synth", "--sizes", "1000"])
    #expect(result.status == 0, "stderr: \(result.stderr)")
    #expect(
      result.stdout.hasPrefix(
        "N=  1000 sha256=f59e3542def79ebf0bdd29c364d47c7f04b3a275a392f28f2a99ab2a1f76dbfe "
          + "content chars min/mean/max 200/1100/1993 tags mean 3.97 max 8 distinct titles 896\n"))
  }

  /// A bad command line and the message it must produce.
  struct UsageCase: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  @Test(arguments: [
    UsageCase(arguments: [], message: "missing subcommand"),
    UsageCase(arguments: ["bogus"], message: "unknown subcommand 'bogus'"),
    UsageCase(arguments: ["synth", "--sizes", "10,x"], message: "--sizes: 'x' is not an integer"),
    UsageCase(arguments: ["synth", "--sizes", "0"], message: "every size must be positive"),
    UsageCase(arguments: ["synth", "--corpus", "/nonexistent.jsonl"], message: "corpus not found"),
    UsageCase(arguments: ["synth", "--corpus"], message: "option --corpus needs a value"),
    UsageCase(arguments: ["synth", "extra"], message: "unexpected argument 'extra'"),
  ])
  func usageErrors(_ usage: UsageCase) throws {
    let result = try run(usage.arguments)
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(usage.message), "stderr: \(result.stderr)")
  }

  @Test func help() throws {
    let top = try run(["--help"])
    #expect(top.status == 0)
    #expect(top.stdout.contains("synth"))
    let synth = try run(["synth", "--help"])
    #expect(synth.status == 0)
    #expect(synth.stdout.contains("--sizes"))
  }
}
