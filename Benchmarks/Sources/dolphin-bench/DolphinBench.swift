import Foundation

/// `dolphin-bench`: benchmark and data-generation commands for Dolphin Continuity.
///
/// Usage: `dolphin-bench <subcommand> [options]`. Each subcommand is a ``BenchCommand``; to add
/// one (`quality`, `scale`, `capture`, …), write the type in `Subcommands/` and list it in
/// ``subcommands``.
@main
enum DolphinBench {
  /// The subcommands, in the order `--help` lists them.
  static let subcommands: [any BenchCommand.Type] = [
    Synth.self,
    FoundationBench.self,
    Quality.self,
    Scale.self,
    ContinuityBench.self,
    RetentionBench.self,
    DoctorExportBench.self,
  ]

  /// Exit status for a bad command line (`EX_USAGE` in BSD `sysexits.h`).
  static let usageExitCode: Int32 = 64

  static func main() {
    exit(run(arguments: Array(CommandLine.arguments.dropFirst())))
  }

  /// Parses `arguments` (without the program name), runs the subcommand, and returns the exit
  /// status: 0 on success, 1 when the command failed, ``usageExitCode`` for a bad command line.
  static func run(arguments: [String]) -> Int32 {
    guard let name = arguments.first, !name.hasPrefix("-") else {
      if arguments.first == "--help" || arguments.first == "-h" {
        print(overview)
        return 0
      }
      printError("missing subcommand\n\n\(overview)")
      return usageExitCode
    }
    guard let command = subcommands.first(where: { $0.name == name }) else {
      printError("unknown subcommand '\(name)'\n\n\(overview)")
      return usageExitCode
    }
    let options = Array(arguments.dropFirst())
    if options.contains("--help") || options.contains("-h") {
      print(command.help)
      return 0
    }
    do {
      var reader = ArgumentReader(options)
      let parsed = try command.init(parsing: &reader)
      try reader.finish()
      try parsed.validate()
      try parsed.run()
      return 0
    } catch let error as UsageError {
      printError("\(error.message)\n\n\(command.help)")
      return usageExitCode
    } catch {
      printError("\(error)")
      return 1
    }
  }

  /// The top-level help text.
  static var overview: String {
    let width = subcommands.map { $0.name.count }.max() ?? 0
    let lines = subcommands.map { command in
      "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
        + command.abstract
    }
    return """
      USAGE: dolphin-bench <subcommand> [options]

      SUBCOMMANDS:
      \(lines.joined(separator: "\n"))

      See 'dolphin-bench <subcommand> --help' for a subcommand's options.
      """
  }

  /// Writes `message` to standard error with an `error:` prefix.
  static func printError(_ message: String) {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  }
}
