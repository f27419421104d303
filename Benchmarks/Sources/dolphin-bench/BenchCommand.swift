/// A `dolphin-bench` subcommand: parsed from its options, validated, then run.
///
/// The shape follows swift-argument-parser (`validate()` then `run()`), written by hand so the
/// benchmarks need no outside packages.
protocol BenchCommand: Sendable {
  /// The word that selects the subcommand, such as `synth`.
  static var name: String { get }

  /// A one-line summary for the subcommand list.
  static var abstract: String { get }

  /// The full help: usage line and options.
  static var help: String { get }

  /// Reads the subcommand's options; ``ArgumentReader/finish()`` rejects what is left over.
  ///
  /// - Throws: ``UsageError`` for a malformed option.
  init(parsing arguments: inout ArgumentReader) throws

  /// Checks the parsed options before anything runs.
  ///
  /// - Throws: ``UsageError`` for options that cannot work together or a missing input.
  func validate() throws

  /// Does the work, printing results to standard output.
  ///
  /// - Throws: Any error of the libraries it calls; the message is shown to the user.
  func run() throws
}

extension BenchCommand {
  func validate() throws {}
}

/// A bad command line, with a message saying what to change.
struct UsageError: Error {
  /// What was wrong, naming the option and the value.
  var message: String
}
