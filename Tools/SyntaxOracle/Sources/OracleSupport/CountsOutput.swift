import Foundation

/// The shared command line and output format of `syntax-oracle` and `dolphin-analyze-counts`.
///
/// Input: file paths as arguments, or one per line on standard input with `--stdin`.
/// Output, one line per file: `<path>\t<force_unwrap>\t<force_try>\t<force_cast>`; with
/// `--lines`, also one line per hit: `<path>\t<rule>\t<line>` (rule ids as in Dolphin).
public struct CountsCommand: Sendable {
  /// The files to count, in the order given.
  public var paths: [String]
  /// Whether to print one line per hit too.
  public var printsLines: Bool

  /// Parses `CommandLine.arguments`.
  public init(arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
    var paths: [String] = []
    var printsLines = false
    var readsStandardInput = false
    for argument in arguments {
      switch argument {
      case "--lines": printsLines = true
      case "--stdin": readsStandardInput = true
      default: paths.append(argument)
      }
    }
    if readsStandardInput {
      while let line = readLine() { if !line.isEmpty { paths.append(line) } }
    }
    self.paths = paths
    self.printsLines = printsLines
  }

  /// The three rule ids, in output order.
  public static let rules = ["force_unwrap", "force_try", "force_cast"]

  /// Reads each file and prints its counts (and lines); `hits` returns `(rule, line)` pairs.
  public func run(_ hits: (_ path: String, _ source: String) -> [(rule: String, line: Int)]) {
    var output = ""
    for path in paths {
      guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
        continue
      }
      let found = hits(path, String(decoding: data, as: UTF8.self))
      let counts = Self.rules.map { rule in found.count { $0.rule == rule } }
      output += ([path] + counts.map(String.init)).joined(separator: "\t") + "\n"
      if printsLines {
        for hit in found.sorted(by: { ($0.line, $0.rule) < ($1.line, $1.rule) }) {
          output += "\(path)\t\(hit.rule)\t\(hit.line)\n"
        }
      }
    }
    FileHandle.standardOutput.write(Data(output.utf8))
  }
}
