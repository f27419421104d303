import ContinuityKit
import Foundation
import KnowledgeEngine

/// The `dolphin` command line: parses, validates, calls the library, renders, returns an exit
/// code. Thin by design; all behaviour lives in the libraries.
public enum DolphinCLI {
  /// Runs one invocation from the raw bytes of its arguments, as the operating system passed
  /// them.
  ///
  /// An argument that is not valid UTF-8 is refused (usage error, naming which one) instead of
  /// being repaired with U+FFFD and stored: text read from a file is held to the same rule.
  /// - Parameters:
  ///   - rawArguments: the bytes of each argument after the program name (no terminating NUL).
  ///   - console: streams and environment.
  /// - Returns: the process exit code (see ``ExitCode``): ``ExitCode/storage`` when standard
  ///   output could not be written (``Console/outputFailure``) and the command otherwise succeeded.
  public static func run(rawArguments: [[UInt8]], console: Console) async -> Int32 {
    var arguments: [String] = []
    for (index, bytes) in rawArguments.enumerated() {
      guard let text = String(validating: bytes, as: UTF8.self) else {
        let json =
          rawArguments.prefix { $0 != Array("--".utf8) }.contains(Array("--json".utf8)) && rawArguments.first != Array("mcp".utf8)
        return report(invalidUTF8(rawArguments, at: index), wantsJSON: json, console: console)
      }
      arguments.append(text)
    }
    let code = await run(arguments, console: console)
    // Output that did not reach standard output is a failure the caller must see: a backup
    // redirected to a full disk is cut short (review 20-a, #1). `dolphin mcp` owns its stdout.
    if let failure = console.outputFailure, arguments.first != "mcp" {
      console.printError("dolphin: error: \(console.outputFailureMessage(failure))")
      return code == ExitCode.success ? ExitCode.storage : code
    }
    return code
  }

  /// The usage error for the argument at `index` (0-based, after the program name), naming
  /// what it is for when the command's parser can tell (``role(ofArgumentAt:in:)``): `argument 3
  /// after `dolphin` (the title) is not valid UTF-8: …`, `(the value of --content)`.
  static func invalidUTF8(_ rawArguments: [[UInt8]], at index: Int) -> CLIError {
    let role = role(ofArgumentAt: index, in: rawArguments)
    var after = role.map { " (\($0.description))" } ?? ""
    if role == nil, index > 0, let previous = String(validating: rawArguments[index - 1], as: UTF8.self),
      previous.hasPrefix("--"), previous != "--"
    {
      after = " (the value after \(previous.prefix(40)))"
    }
    let message =
      "argument \(index + 1) after `dolphin`\(after) is not valid UTF-8: '\(escapingInvalidUTF8(rawArguments[index]))'; "
      + "dolphin takes text as UTF-8 (convert it first, e.g. with iconv)"
    return role.map { .invalidValue(message, field: $0.field) } ?? .usage(message)
  }

  /// What an argument is for: a positional (`title`) or an option's value (`content`).
  struct ArgumentRole: Equatable {
    /// The positional's name, or the option's without its dashes.
    var field: String
    /// Whether it is an option's value.
    var isOptionValue: Bool

    /// `the title`, `the value of --content`.
    var description: String { isOptionValue ? "the value of --\(field)" : "the \(field)" }
  }

  /// What the argument at `index` (0-based, after the program name) is for, found by parsing the
  /// command line with each argument that is not UTF-8 replaced by a stand-in (`--name=` kept
  /// before one given as `--name=VALUE`): the positional or the option whose value it became.
  /// Nil when the command cannot be told, the argument is a command word or an option's name, or
  /// the line does not parse.
  static func role(ofArgumentAt index: Int, in rawArguments: [[UInt8]]) -> ArgumentRole? {
    // U+FFFF is a noncharacter: no argument a person types holds it.
    let marker = "\u{FFFF}argument \(index + 1)\u{FFFF}"
    var arguments: [String] = []
    for (i, bytes) in rawArguments.enumerated() {
      if let text = String(validating: bytes, as: UTF8.self) {
        arguments.append(text)
        continue
      }
      let standIn = i == index ? marker : "\u{FFFF}argument \(i + 1)\u{FFFF}"
      if bytes.starts(with: Array("--".utf8)), let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
        let name = String(validating: bytes[..<equals], as: UTF8.self)
      {
        arguments.append(name + "=" + standIn)
      } else {
        arguments.append(standIn)
      }
    }
    let matches = Commands.all.filter { arguments.starts(with: $0.spec.path) }
    guard let command = matches.max(by: { $0.spec.path.count < $1.spec.path.count }),
      index >= command.spec.path.count,
      let parsed = try? ArgumentParser.parse(Array(arguments.dropFirst(command.spec.path.count)), spec: command.spec)
    else { return nil }
    if let position = parsed.positionals.firstIndex(of: marker) {
      let positionals = command.spec.positionals
      if position < positionals.count { return ArgumentRole(field: positionals[position].name, isOptionValue: false) }
      guard command.spec.variadic, let last = positionals.last else { return nil }
      return ArgumentRole(field: last.name, isOptionValue: false)
    }
    let option = parsed.values.keys.sorted().first { parsed.values[$0]?.contains(marker) == true }
    return option.map { ArgumentRole(field: $0, isOptionValue: true) }
  }

  /// `bytes` as text with each byte that is not part of valid UTF-8 shown as `\xFF`, cut to
  /// 80 characters.
  static func escapingInvalidUTF8(_ bytes: [UInt8]) -> String {
    var out = ""
    var i = 0
    while i < bytes.count, out.count < 80 {
      let valid = (1...4).lazy.compactMap { n -> (String, Int)? in
        guard i + n <= bytes.count, let s = String(validating: bytes[i..<(i + n)], as: UTF8.self) else { return nil }
        return (s, n)
      }.first
      if let (s, n) = valid {
        out += s
        i += n
      } else {
        let hex = String(bytes[i], radix: 16, uppercase: true)
        out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
        i += 1
      }
    }
    return i < bytes.count ? out + "…" : out
  }

  /// Refuses a `--workspace` that cannot mean what it says (review 21-a, 2): one starting with
  /// `~` (`~/notes`, `~alice/notes`), which no shell expanded — quoted, after `=` as in
  /// `--workspace=~/notes`, or in an MCP client's configuration — and would create a directory
  /// named `~` in the current directory; and, for `dolphin mcp`, any relative path, since an
  /// MCP client starts the server in a directory of its own choosing (as a relative
  /// `DOLPHIN_HOME` is refused for every command).
  /// - Throws: ``CLIError/invalidValue(_:field:)`` (exit 2) naming the value and what to give.
  static func checkWorkspaceArgument(_ value: String, command: String) throws(CLIError) {
    if value.hasPrefix("~") {
      throw CLIError.invalidValue(
        "--workspace \(quotedValue(value, cutAt: 80)) starts with '~', which no shell expanded here (quoted, after '=', "
          + "or in an MCP client's configuration), so it would name a directory called '~' in the current directory; "
          + (value == "~" || value.hasPrefix("~/")
            ? "give the full path, e.g. --workspace \"$HOME/\(value.dropFirst(2))\"" : "give the full path"),
        field: "workspace")
    }
    if command == "mcp", !value.hasPrefix("/") {
      throw CLIError.invalidValue(
        "dolphin mcp: --workspace \(quotedValue(value, cutAt: 80)) is a relative path; an MCP client starts the server "
          + "in a directory of its own choosing, so give an absolute path", field: "workspace")
    }
  }

  /// Refuses a workspace path that can never be a directory (review 30-a, 13: `--workspace
  /// /etc/passwd` failed as a storage error, exit 5): the path, or a component on the way to it
  /// (`/etc/passwd/ws`), exists and is a file, a device, a FIFO or a socket
  /// (``PathProblem/nonDirectory(onTheWayTo:)``). A well-formed path refused for what it names,
  /// as a symbolic link loop in it is: exit 4, before anything is read or created.
  /// - Parameters:
  ///   - option: `--workspace`'s value as given; nil for the default workspace
  ///     (``WorkspaceLocation/defaultDirectory(environment:)``).
  ///   - environment: the process environment the default workspace comes from.
  /// - Throws: ``ValidationError`` with field `workspace`, or `DOLPHIN_HOME` when the default
  ///   workspace is that variable's, naming the path, the component and what it is.
  static func requireWorkspaceNotAFile(option: String?, environment: [String: String]) throws(ValidationError) {
    let fromHome = option == nil ? environment["DOLPHIN_HOME"].flatMap { $0.isEmpty ? nil : $0 } : nil
    let path = option ?? fromHome ?? WorkspaceLocation.defaultDirectory(environment: environment).path
    guard let found = PathProblem.nonDirectory(onTheWayTo: path) else { return }
    let name =
      option != nil ? "--workspace \(shownValue(path))"
      : fromHome != nil ? "DOLPHIN_HOME (\(shownValue(path)))" : "the default workspace \(shownValue(path))"
    let problem =
      found.isWholePath
      ? "\(name) is \(found.description)"
      : "\(name): \(shownValue(found.path)) is \(found.description), so no directory can be made there"
    let advice =
      option != nil
      ? "name a directory, or a new path to create one"
      : fromHome != nil
        ? "set DOLPHIN_HOME to a directory, unset it to use the default ($XDG_DATA_HOME/dolphin, else "
          + "~/.local/share/dolphin), or pass --workspace DIR"
        : "move that file aside, set DOLPHIN_HOME to a directory, or pass --workspace DIR"
    throw ValidationError(
      field: fromHome != nil ? "DOLPHIN_HOME" : "workspace",
      message: "\(problem) (a workspace is a directory holding workspace.sqlite); \(advice). Nothing was read or created")
  }

  /// `arguments` (which begin with an option, `--workspace X status`) as a command line with
  /// the options that came first moved after the command (`dolphin status --workspace X`), or nil
  /// when no command follows options that it accepts.
  /// - Parameter group: the words of the command line before `arguments`, for options given
  ///   between a group and its subcommand (`task` for `task --workspace X list`); none by default.
  static func optionsMovedAfterCommand(_ arguments: [String], group: [String] = []) -> String? {
    // A command line to paste, so shown whole or not at all: not with a path-sized argument that
    // no system could take (the error says it cut short instead).
    guard arguments.allSatisfy({ $0.count <= Limits.shownPathLength }) else { return nil }
    for split in arguments.indices.dropFirst() {
      let rest = arguments[split...]
      let matches = Commands.all.filter {
        $0.spec.path.starts(with: group) && $0.spec.path.count > group.count
          && rest.starts(with: $0.spec.path.dropFirst(group.count))
      }
      guard let command = matches.max(by: { $0.spec.path.count < $1.spec.path.count }) else { continue }
      // The arguments before the command must all be options of that command (with their
      // values): then `split` is where the command really starts, not an option's value.
      var optionsOnly = command.spec
      optionsOnly.positionals = []
      optionsOnly.requiredPositionals = 0
      optionsOnly.variadic = false
      let leading = Array(arguments[..<split])
      guard (try? ArgumentParser.parse(leading, spec: optionsOnly)) != nil else { continue }
      let moved = command.spec.path + leading + rest.dropFirst(command.spec.path.count - group.count)
      return (["dolphin"] + moved.map { escapingLineBreaks(ShellWord.word($0)) }).joined(separator: " ")
    }
    return nil
  }

  /// The command words `dolphin help` was given (`["task", "add"]` for `help task add`), with
  /// the options every command takes left out: `--json` (the help as JSON), `--help`, and
  /// `--workspace DIR`, which help reads no workspace through.
  /// - Parameter arguments: the arguments after `help`.
  /// - Throws: ``CLIError/usage(_:)`` naming any other option: `help` takes command names.
  static func helpTopic(_ arguments: [String]) throws(CLIError) -> [String] {
    var words: [String] = []
    var i = 0
    while i < arguments.count {
      let arg = arguments[i]
      i += 1
      switch arg {
      case "--":
        words += arguments[i...]
        i = arguments.count
      case "--json", "--help", "-h": continue
      case "--workspace": i += 1  // and its value (none when it is the last word)
      case _ where arg.hasPrefix("--workspace="): continue
      case _ where arg.hasPrefix("-") && arg != "-":
        throw .usage(
          "`dolphin help` takes command names, not the option \(quotedValue(arg, cutAt: 60)); `dolphin help COMMAND` "
            + "or `dolphin COMMAND --help` shows a command's options, `dolphin --help` lists the commands")
      default: words.append(arg)
      }
    }
    return words
  }

  /// Runs one invocation.
  /// - Parameters:
  ///   - arguments: the arguments after the program name.
  ///   - console: streams and environment.
  /// - Returns: the process exit code (see ``ExitCode``).
  public static func run(_ arguments: [String], console: Console) async -> Int32 {
    // `dolphin mcp` owns stdout for JSON-RPC: its errors never print a JSON document there.
    // `--json=true` is refused (a flag takes no value), in JSON: the caller asked for it (s17).
    // Only before `--`: everything after it is text (review 28-a, 5: `search x -- --json` was
    // refused in JSON while the message said `--json` there was text).
    let wantsJSON =
      arguments.prefix { $0 != "--" }.contains { $0 == "--json" || $0.hasPrefix("--json=") } && arguments.first != "mcp"
    do {
      guard let first = arguments.first else {
        // No command is a usage error like any other (stderr, exit 2): the overview goes with it
        // to stderr, so that a script reading stdout gets nothing, while a person still sees
        // the commands. `dolphin --help` prints it on stdout and exits 0.
        console.printError(overview())
        throw CLIError.usage("no command given; name one of the commands above (`dolphin --help` prints this list on stdout)")
      }
      // `dolphin --json --help` (or `--json help task`) asks for help in JSON, as `--help --json`
      // does (review, s17: it was an unknown command '--json').
      if first == "--json", let next = arguments.dropFirst().first, ["--help", "-h", "help"].contains(next) {
        return await run(Array(arguments.dropFirst()) + ["--json"], console: console)
      }
      guard first != "--help", first != "-h", first != "help" else {
        if first == "help" {
          let words = try helpTopic(Array(arguments.dropFirst()))
          if !words.isEmpty {
            return await run(words + ["--help"] + (wantsJSON ? ["--json"] : []), console: console)
          }
        }
        if wantsJSON {
          console.print(String(decoding: JSONValue.object(["help": .string(overview())]).serialized(sortedKeys: true), as: UTF8.self))
        } else {
          console.print(overview())
        }
        return ExitCode.success
      }
      // `--version` is the `version` command, with its options checked as every command's are
      // (review 19-b, F11: `--version --json` printed text, and `version --bogus` exited 0).
      if first == "--version" {
        return await run(["version"] + arguments.dropFirst(), console: console)
      }
      // Longest command path that matches.
      let candidates = Commands.all.filter { spec in
        arguments.count >= spec.spec.path.count && Array(arguments.prefix(spec.spec.path.count)) == spec.spec.path
      }
      guard let command = candidates.max(by: { $0.spec.path.count < $1.spec.path.count }) else {
        let group = Commands.all.filter { $0.spec.path.first == first }
        if !group.isEmpty {
          let subs = group.compactMap { $0.spec.path.dropFirst().first }.joined(separator: ", ")
          let groupHelp = "dolphin \(first) <subcommand>\n\nSubcommands: \(subs)\n\nRun `dolphin \(first) <subcommand> --help` for details."
          // Options where the subcommand should be (`task --workspace W`): `--help` among them
          // asks for the group's help, as `task --help` does; without it a subcommand is missing.
          let startsWithOption = arguments.count > 1 && arguments[1].hasPrefix("-") && arguments[1] != "-"
          if startsWithOption, arguments.dropFirst().prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            // With --json, one document as every command's help gives (s17: text was printed).
            if wantsJSON {
              console.print(
                String(
                  decoding: JSONValue.object(["command": .string(first), "help": .string(groupHelp)]).serialized(sortedKeys: true),
                  as: UTF8.self))
            } else {
              console.print(groupHelp)
            }
            return ExitCode.success
          }
          if arguments.count == 1 || startsWithOption {
            // A missing subcommand is a usage error (stderr, exit 2), as a missing command is;
            // `dolphin task --workspace W` lacks one too, rather than naming an unknown one.
            console.printError(groupHelp)
            let moved = optionsMovedAfterCommand(Array(arguments.dropFirst()), group: [first]).map {
              "; options go after it: `\($0)`"
            }
            throw CLIError.usage(
              "`dolphin \(first)` needs a subcommand: one of \(subs)"
                + (arguments.count == 1 ? "" : moved ?? "; options go after it (`dolphin \(first) <subcommand> [options]`)"))
          }
          throw CLIError.usage(
            CommandSuggestion.unknownSubcommand(
              arguments[1], group: first, subcommands: group.compactMap { $0.spec.path.dropFirst().first }))
        }
        if first.hasPrefix("-"), first != "-" {
          // An option no command has (`-v`): no command to move it after (review 21-a, 19).
          let name = String(first.drop { $0 == "-" }.prefix { $0 != "=" })
          let shared = ["workspace", "json", "help", "yes", "h"]
          if !shared.contains(name), !Commands.all.contains(where: { $0.spec.options.contains { $0.name == name } }) {
            throw CLIError.usage(
              "unknown option \(quotedValue(first, cutAt: 60))"
                + (["-v", "-V", "--v", "-version"].contains(first) ? "; `dolphin --version` prints the version" : "")
                + "; run `dolphin --help` for the commands")
          }
          let example = optionsMovedAfterCommand(arguments).map { ": `\($0)`" } ?? " (`dolphin <command> \(shownValue(first)) …`)"
          throw CLIError.usage(
            "unknown command \(quotedValue(first, cutAt: 60)); options go after the command\(example); run `dolphin --help` for the list")
        }
        throw CLIError.usage(CommandSuggestion.unknownCommand(first, paths: Commands.all.map(\.spec.path)))
      }
      let rest = Array(arguments.dropFirst(command.spec.path.count))
      // A command that is also a group (`settings`, `activity`).
      let subcommands = Commands.all.map(\.spec).filter {
        $0.path.count == command.spec.path.count + 1 && $0.path.starts(with: command.spec.path)
      }
      // Such a command takes no word after it: one is a mistyped subcommand, not an unexpected
      // argument.
      if command.spec.positionals.isEmpty, let word = rest.first, !word.hasPrefix("-"), !subcommands.isEmpty {
        throw CLIError.usage(
          CommandSuggestion.unknownSubcommand(word, group: command.spec.name, subcommands: subcommands.compactMap(\.path.last)))
      }
      let parsed = try ArgumentParser.parse(rest, spec: command.spec)
      if parsed.has("help") {
        let help = ArgumentParser.help(command.spec, subcommands: subcommands)
        if parsed.has("json") {
          console.print(String(decoding: JSONValue.object(["command": .string(command.spec.name), "help": .string(help)]).serialized(sortedKeys: true), as: UTF8.self))
        } else {
          console.print(help)
        }
        return ExitCode.success
      }
      try ArgumentParser.requireOneStandardInputReader(parsed, spec: command.spec)
      if let w = parsed.value("workspace"), w.trimmingCharacters(in: .whitespaces).isEmpty {
        throw CLIError.invalidValue("--workspace needs a directory path, got an empty value", field: "workspace")
      }
      if let w = parsed.value("workspace"), command.spec.usesWorkspace {
        try Self.checkWorkspaceArgument(w, command: command.spec.name)
      }
      // An empty DOLPHIN_HOME is a mistake, not a reason to use another workspace; checked
      // before the command runs, so that nothing is read or created anywhere.
      if command.spec.usesWorkspace, parsed.value("workspace") == nil {
        do {
          _ = try WorkspaceLocation.validatedDefaultDirectory(
            environment: console.environment.isEmpty ? ProcessInfo.processInfo.environment : console.environment)
        } catch {
          throw CLIError.usage(error.message)
        }
      }
      // The demo's own directory, without --workspace, is not the default workspace: it checks it.
      if command.spec.usesWorkspace, command.spec.path != ["demo"] || parsed.value("workspace") != nil {
        try Self.requireWorkspaceNotAFile(
          option: parsed.value("workspace"),
          environment: console.environment.isEmpty ? ProcessInfo.processInfo.environment : console.environment)
      }
      let context = CommandContext(console: console, arguments: parsed, spec: command.spec)
      // The commands that messages suggest name the workspace the user named, so that pasted
      // as shown they act on it (review 24-a, 3): bound while the command runs and reports.
      let named = command.spec.usesWorkspace && parsed.value("workspace") != nil ? context.workspaceDirectory.path : nil
      return await SuggestedCommand.$workspace.withValue(named) {
        do {
          try await command.run(context)
        } catch {
          let failure = command.spec.advisingOnCredentials(in: command.spec.namingFlags(in: context.namingIDOwner(in: error)))
          return report(failure, wantsJSON: wantsJSON, console: console)
        }
        return ExitCode.success
      }
    } catch {
      return report(error, wantsJSON: wantsJSON, console: console)
    }
  }

  /// Prints `error` (to stderr, and as one JSON document on stdout when `wantsJSON`).
  /// - Returns: its exit code.
  static func report(_ error: any Error, wantsJSON: Bool, console: Console) -> Int32 {
    let (code, kind, classified) = classify(error)
    // One line per error, on stderr and in the JSON document alike, whatever the message quotes
    // (values the user gave are escaped where they are quoted; this catches any other). Bidi
    // controls (a right-to-left override in an argument) would reorder what the line shows: they
    // are shown as escapes. Stored text holds none (the sanitizer drops them), so only echoed
    // input changes.
    let message = TerminalText.escapingBidiControls(escapingLineBreaks(classified))
    if wantsJSON, !(error is ReportedFailure) {
      struct ErrorDocument: Encodable {
        struct Body: Encodable {
          var kind: String
          var message: String
          var exitCode: Int32
          /// The library's name of the field at fault, for a validation error (the message
          /// names the flag instead), and the option's name for a usage error about its value.
          var field: String?
          /// The plan that was not applied, for an unconfirmed deletion or erase, or an import
          /// refused for its conflicts.
          var plan: Nested?
          /// The run's document, for an `ask` whose call was denied or failed: its receipts
          /// show what executed before the failure.
          var run: Nested?
        }
        struct Nested: Encodable {
          var value: any Encodable
          func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
        }
        var error: Body
      }
      let plan = ((error as? UnconfirmedPlan)?.plan ?? (error as? RefusedPlan)?.plan).map { ErrorDocument.Nested(value: $0) }
      let run = (error as? FailedRun).map { ErrorDocument.Nested(value: $0.run) }
      var field: String?
      switch (error as? RefusedPlan)?.error ?? error {
      case let e as ValidationError: field = e.field
      case CLIError.invalidValue(_, let name): field = name
      case WorkspaceError.validation(let e): field = e.field
      case WorkspaceError.capacity(let what, _, _, _): field = what.field
      // The JSON path of the value at fault, e.g. `workspace.knowledge[0].revision`.
      case ExportDocumentError.malformed(_, let path, _) where !path.isEmpty: field = path
      case let e as FailedRun: field = e.field
      default: field = nil
      }
      try? console.printJSON(
        ErrorDocument(error: .init(kind: kind, message: message, exitCode: code, field: field, plan: plan, run: run)))
    }
    console.printError("dolphin: error: \(inert(message))")
    return code
  }

  /// The version of this build.
  public static let version = "0.1.0"

  static func overview() -> String {
    var lines = [
      "dolphin — local-first memory and continuity (Create State-inspired; nothing leaves this machine)",
      "",
      "Usage: dolphin <command> [arguments] [options]",
      "",
      "Commands:",
    ]
    for c in Commands.all {
      lines.append("  " + c.spec.name.padding(toLength: 20, withPad: " ", startingAt: 0) + c.spec.summary)
    }
    lines += [
      "",
      "Every command takes --help and --workspace DIR, and every command except `mcp` (whose stdout is the",
      "JSON-RPC stream) takes --json (one JSON document on stdout): a record under its type's key ({task},",
      "{item, supersededBy}, {handoff, active}, …), a list as {<plural>, count, total, truncated}, and a",
      "failure as {error: {kind, message, exitCode}}.",
      "Exit codes: 0 ok, 1 declined/aborted, 2 usage, 3 not found, 4 validation, 5 storage, 6 partial (export: records it could not read).",
    ]
    return lines.joined(separator: "\n")
  }
}

/// A runnable command: its spec and handler.
struct Command: Sendable {
  var spec: CommandSpec
  var run: @Sendable (CommandContext) async throws -> Void
}

/// What a command does with the workspace.
enum WorkspaceAccess: Sendable {
  /// Only reads. A missing workspace is an error (exit 3); nothing is created or imported.
  case read
  /// Changes existing records (delete, complete, restore, erase, reindex). A missing workspace
  /// is an error, unless the directory holds a legacy `workspace.json` to import first.
  case update
  /// Stores new records (capture, memory save, task add, handoff create, import, migrate,
  /// context --save, ask). Creates a missing workspace at its first write that succeeds
  /// (``SQLiteWorkspaceStore/Creation/atFirstWrite``): a refused one leaves no file behind.
  case create
}

/// What a handler gets: parsed arguments, the console, and lazy access to the workspace.
final class CommandContext {
  let console: Console
  let arguments: ParsedArguments
  let spec: CommandSpec
  var json: Bool { arguments.has("json") }
  /// What this invocation read from standard input (`the document` for `import -`, `--notes -`),
  /// once it has: no confirmation can be read from it then (``confirm(_:action:plan:)``).
  var standardInputHolds: String?
  /// The engine over the workspace this invocation opened last, if it opened one: what an error
  /// about an id is checked against once the command failed (``namingIDOwner(in:)``).
  private(set) var openedEngine: KnowledgeEngine?

  init(console: Console, arguments: ParsedArguments, spec: CommandSpec) {
    self.console = console
    self.arguments = arguments
    self.spec = spec
  }

  /// Prints, after a write's own report, the handoffs whose rule-built summary it rewrote
  /// (``Render/rewrittenSummaries(_:)``), each named with its focus as stored now; nothing when
  /// `ids` is empty. A handoff that can no longer be read (deleted meanwhile) is named by id alone.
  func printRewrittenSummaries(_ ids: [UUID], engine: KnowledgeEngine) {
    guard !ids.isEmpty else { return }
    let named = ids.prefix(Render.rewrittenSummariesNamed).map { id in (id: id, focus: (try? engine.handoff(id: id))?.focus) }
    let rest = ids.dropFirst(Render.rewrittenSummariesNamed).map { (id: $0, focus: String?.none) }
    for line in Render.rewrittenSummaries(named + rest) { console.print(line) }
  }

  /// The workspace directory for this invocation: `--workspace`, else the default one (a
  /// `DOLPHIN_HOME` set but empty was refused before the command ran).
  var workspaceDirectory: URL {
    if let w = arguments.value("workspace") {
      // Made absolute as text, never standardized: `link/../ws` is resolved as the kernel does
      // (`..` of where the link leads), not by dropping `link/..` (review, s14).
      let absolute = w.hasPrefix("/") ? w : FileManager.default.currentDirectoryPath + "/" + w
      return URL(fileURLWithPath: absolute, isDirectory: true)
    }
    return WorkspaceLocation.defaultDirectory(environment: console.environment.isEmpty ? ProcessInfo.processInfo.environment : console.environment)
  }

  /// `--workspace` when the user gave it; nil when the workspace is the default one.
  var workspaceOption: String? { arguments.value("workspace") == nil ? nil : "--workspace" }

  /// Opens the workspace for `access`, printing open warnings and read-only notices to stderr.
  ///
  /// Only ``WorkspaceAccess/create`` creates a missing workspace, and only when its first write
  /// succeeds (until then it reads as empty); the others fail with exit 3 and create nothing,
  /// so a mistyped `--workspace` is reported instead of silently giving an empty workspace. A
  /// database file without any schema (an interrupted first run) counts as no workspace for
  /// them, and is left as it is; another program's database is refused by every command
  /// (``WorkspaceError/notAWorkspace(file:found:)``, exit 5).
  /// A workspace path that is, or goes through, a symbolic link loop exits 4, one through a
  /// link to nothing 3, naming the link
  /// (``Commands/requireNoSymbolicLinkInTheWay(of:option:consequence:)``). Commands that write
  /// import a legacy `workspace.json` found in the directory as part of their first write.
  /// Nothing else is written: a search index built with another tokenizer version is left for
  /// the first operation that ranks (see ``engine(_:)``).
  ///
  /// `legacyFile`: what the command does itself with a legacy `workspace.json`
  /// (``WorkspaceOpening/afterOpen(store:directory:console:program:legacyFile:)``).
  func openStore(_ access: WorkspaceAccess, legacyFile: LegacyFileUse = .none) throws -> SQLiteWorkspaceStore {
    let directory = workspaceDirectory
    try Commands.requireNoSymbolicLinkInTheWay(
      of: directory.path, option: workspaceOption, consequence: "nothing was read or created")
    let legacy = directory.appendingPathComponent(KnowledgeEngine.legacyFileName)
    // Only a legacy file the first write can import makes a workspace where there is none: an
    // `erase --kind tasks` beside a damaged one created an empty workspace (review 27-a, 9).
    // Read and decoded at most once, and only where there is no database yet.
    lazy var legacyStatus = try? KnowledgeEngine.legacyFileStatus(in: directory, store: nil, now: Date())
    let hasLegacy =
      access != .read && FileManager.default.fileExists(atPath: legacy.path)
      && (FileManager.default.fileExists(atPath: directory.appendingPathComponent(SQLiteWorkspaceStore.fileName).path)
        || legacyStatus?.state == "pending")
    let store: SQLiteWorkspaceStore
    switch Result(catching: { () throws(WorkspaceError) in
      try SQLiteWorkspaceStore.open(
        directory: directory, creation: access == .create || hasLegacy ? .atFirstWrite : .never)
    }) {
    case .success(let s): store = s
    case .failure(.noWorkspace(let path)) where FileManager.default.fileExists(atPath: legacy.path):
      // Said only of a file the first write can import (review 27-a, 5: an empty or damaged
      // one was promised to be imported, and the migrate suggested failed).
      if let status = legacyStatus, status.state != "pending" {
        throw CLIError.notFound(
          "no workspace database at \(path) yet, and the legacy \(KnowledgeEngine.legacyFileName) the directory holds "
            + "cannot be imported: " + (status.reason ?? "?") + (status.reason?.hasSuffix(".") == true ? "" : ".")
            + " Nothing was created")
      }
      let migrate = SuggestedCommand("dolphin migrate \(legacy.standardizedFileURL.path)")
        .naming(workspace: directory.standardizedFileURL.path)
      throw CLIError.notFound(
        "no workspace database at \(path) yet: the directory holds a legacy \(KnowledgeEngine.legacyFileName), "
          + "which the first command that stores something imports (e.g. `\(migrate)`); nothing was created")
    case .failure(.noWorkspace(let path))
    where FileManager.default.fileExists(atPath: directory.appendingPathComponent(SQLiteWorkspaceStore.fileName).path):
      // A database file without any schema: a first run interrupted before its first step.
      throw CLIError.noWorkspaceYet(
        "no workspace at \(path) yet: its \(SQLiteWorkspaceStore.fileName) holds no schema (a first run still "
          + "creating it, in another process, or one that was interrupted leaves it so); nothing was read or written. The first command that stores something "
          + "(e.g. `\(command: "dolphin capture KIND TITLE")`) completes it")
    case .failure(let error) where SQLiteWorkspaceStore.openFailure(error, directory: directory) == .permissionDenied:
      // SQLite's "unable to open database file; nothing was written" says neither why nor what
      // to do, and a read writes nothing anyway: say what `doctor` says.
      let database = directory.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
      let advice = Commands.openAdvice(
        .permissionDenied, error: error, directory: directory.path, databasePath: database)
      throw WorkspaceError.fileSystem(
        path: database, message: "permission denied. " + advice.joined(separator: " "))
    case .failure(let error): throw error
    }
    for w in store.warnings { console.printDiagnostic("dolphin: warning: \(w)") }
    // A command that writes on a full disk fails with the same words at its write.
    if let reason = store.readOnlyReason, access == .read || !store.isOnFullDisk {
      console.printDiagnostic("dolphin: notice: \(store.databasePath) is read-only: \(reason)")
    }
    // A first run interrupted between schema steps is refused; an earlier build's workspace is
    // read as it is stored, with a notice.
    try WorkspaceOpening.checkPendingUpgrade(of: store, console: console, program: "dolphin")
    if access != .read {
      try WorkspaceOpening.afterOpen(
        store: store, directory: directory, console: console, legacyFile: legacyFile)
    }
    return store
  }

  /// An engine over the workspace opened by ``openStore(_:)``. When an operation that ranks
  /// finds the search index made by another tokenizer version, the engine rebuilds it (or
  /// searches in memory) and the notice goes to standard error
  /// (``WorkspaceOpening/searchIndexNotices(console:program:)``).
  func engine(_ access: WorkspaceAccess, legacyFile: LegacyFileUse = .none) throws -> KnowledgeEngine {
    engine(over: try openStore(access, legacyFile: legacyFile))
  }

  /// An engine for a command that plans a change, shows the plan and then applies it (erase,
  /// activity clear, the deletions, import): its reads see a legacy `workspace.json` waiting to
  /// be imported by the first write as imported (rehearsed and rolled back,
  /// ``SQLiteWorkspaceStore/readsIncludeWritePreamble``), so the plan is made over what the
  /// write will find, and the file is imported only by that write, once the plan is confirmed
  /// and applied. Importing it in the planned write over a plan that did not list its records
  /// failed every confirmed attempt as a change by "another process", and erase --yes erased
  /// records no plan had shown (review 18-c, C2); importing it before planning imported it for
  /// commands that then found no such record or were declined (review 18-d, M4).
  func engineForPlannedChange(_ access: WorkspaceAccess, legacyFile: LegacyFileUse = .none) throws -> KnowledgeEngine {
    let store = try openStore(access, legacyFile: legacyFile)
    store.readsIncludeWritePreamble = true
    return engine(over: store)
  }

  private func engine(over store: SQLiteWorkspaceStore) -> KnowledgeEngine {
    let engine = KnowledgeEngine(
      store: store,
      searchIndexObserver: WorkspaceOpening.searchIndexNotices(console: console, program: "dolphin"),
      searchIndexRebuildStarting: WorkspaceOpening.searchIndexRebuildStart(console: console, program: "dolphin"))
    openedEngine = engine
    return engine
  }

  /// Asks for confirmation of `plan` unless `--yes`.
  /// - Parameters:
  ///   - question: what the terminal prompt asks, e.g. `Apply this deletion?`.
  ///   - action: what is being confirmed, for the error without a terminal, e.g. `the deletion`.
  ///   - plan: what would change; a `--json` error document carries it.
  /// - Throws: ``UnconfirmedPlan`` (exit 1) when declined, or when there is no terminal to ask.
  func confirm(_ question: String, action: String, plan: some Encodable & Sendable) throws {
    if arguments.has("yes") { return }
    // Standard input held the input, not an answer: at a terminal too, nothing can be asked
    // (review 19-b, F14: `cat e.json | dolphin import - …` was told to run in a terminal).
    if let held = standardInputHolds {
      throw UnconfirmedPlan(
        message: "\(action) needs confirmation, and standard input held \(held), so no answer can be read from it: "
          + "pass --yes to apply it (or give the input as a file, to be asked at a terminal); nothing was changed",
        plan: plan)
    }
    guard console.isInteractive else {
      throw UnconfirmedPlan(
        message: "\(action) needs confirmation: run it in a terminal, or pass --yes; nothing was changed", plan: plan)
    }
    console.printError("\(question) [y/N] ")
    let answer = console.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
    guard answer == "y" || answer == "yes" else {
      throw UnconfirmedPlan(message: "\(action) was declined; nothing was changed", plan: plan)
    }
  }

  /// The value of the text option `--name`, or for `-` the text read from standard input, with
  /// the bounds and errors of `--content -` (``TextInput/read(_:field:limit:console:)``); nil
  /// when the option is absent. Empty standard input is refused: more likely a pipe from a
  /// command that failed than a wish for no text.
  /// - Parameters:
  ///   - name: the option without its dashes, e.g. `notes`.
  ///   - field: the library's field, named in errors (`notes`).
  ///   - limit: the field's bound in `Character`s.
  /// - Throws: what ``standardInputText(for:field:limit:)`` throws.
  ///   - trimmed: the library trims the field, so a final line break is dropped before the
  ///     bound is checked (``TextInput/read(_:field:limit:console:dropsFinalLineBreak:)``).
  func textOption(_ name: String, field: String, limit: Int, trimmed: Bool = false) throws -> String? {
    guard let value = arguments.value(name) else { return nil }
    return value == "-" ? try standardInputText(for: "--\(name)", field: field, limit: limit, trimmed: trimmed) : value
  }

  /// Text read from standard input for `option` (`--notes`), bounded as `--content -` reads it.
  /// - Throws: ``ValidationError`` (exit 4) naming the field for input over the bound, not
  ///   text, not UTF-8, or empty; ``CLIError/input(_:)`` when it cannot be read.
  func standardInputText(for option: String, field: String, limit: Int, trimmed: Bool = false) throws -> String {
    standardInputHolds = "the text of \(option)"
    let text = try TextInput.read(
      .standardInput, field: field, limit: limit, console: console, dropsFinalLineBreak: trimmed)
    guard !text.isEmpty else {
      throw ValidationError(
        field: field, message: "\(option) -: standard input was empty; pipe the text in, or give it in place of '-'; nothing was stored")
    }
    return text
  }

  /// Parses a UUID argument.
  func uuid(_ text: String, field: String) throws -> UUID {
    // White space around an id is no part of it, a final line break included (review 28-a,
    // 6: a pasted id ending in one was refused, spaces were not), as `handoff get` and the MCP
    // tools read ids.
    guard let id = UUID(uuidString: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw ValidationError(field: field, message: "\(field) \(quotedValue(text, cutAt: 60)) is not a UUID (expected e.g. 3F2504E0-4F89-11D3-9A0C-0305E82C3301)")
    }
    return id
  }

  /// Parses an integer option within `range`.
  /// - Throws: ``CLIError/invalidValue(_:field:)`` (exit 2) naming `name` for a value that is
  ///   not a whole number; ``ValidationError`` (exit 4) for one outside `range`.
  func integer(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
    guard let text = arguments.value(name) else { return value }
    guard let n = Int(text) else {
      // A whole number too large for Int is out of range, not malformed.
      if isWholeNumberText(text) {
        throw ValidationError(field: name, limit: range.upperBound, message: "--\(name) is \(shownWholeNumber(text)); it must be between \(range.lowerBound) and \(range.upperBound)")
      }
      throw CLIError.invalidValue("--\(name) must be a whole number, got \(quotedValue(text, cutAt: 60))", field: name)
    }
    guard range.contains(n) else {
      throw ValidationError(field: name, limit: range.upperBound, actual: n, message: "--\(name) is \(n); it must be between \(range.lowerBound) and \(range.upperBound)")
    }
    return n
  }

  /// The `--tag` filter, trimmed and lowercased as stored tags are.
  /// - Returns: nil when `--tag` was not given.
  /// - Throws: ``ValidationError`` from ``Limits/tagFilter(_:label:)``.
  func tagFilter() throws -> String? {
    try arguments.value("tag").map { raw throws(ValidationError) in
      try Limits.tagFilter(raw, label: "--tag")
    }
  }

  /// Parses an enumerated value (case-insensitively).
  /// - Parameters:
  ///   - text: the value the user gave.
  ///   - name: how the user gave it: `--priority` for an option, `kind` for a positional.
  ///   - field: the field a `--json` error names; by default `name` without its dashes.
  /// - Throws: ``CLIError/invalidValue(_:field:)`` naming `name`, the value and the allowed
  ///   values: a wrong choice is a usage error (exit 2) for every enumerated argument alike.
  func parseEnum<E: RawRepresentable & CaseIterable>(
    _ type: E.Type, _ text: String, name: String, field: String? = nil
  ) throws -> E where E.RawValue == String {
    if let v = E(rawValue: text) ?? E.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) { return v }
    throw CLIError.notOneOf(name, text, allowed: E.allCases.map(\.rawValue), field: field ?? CLIError.field(named: name))
  }

  /// The value of the enumerated option `--name` (matched case-insensitively), or `fallback`
  /// when the option is absent.
  /// - Throws: ``CLIError/invalidValue(_:field:)`` as ``parseEnum(_:_:name:field:)`` does.
  func choice(_ name: String, among allowed: [String], default fallback: String) throws -> String {
    guard let text = arguments.value(name) else { return fallback }
    guard let v = allowed.first(where: { $0 == text.lowercased() }) else {
      throw CLIError.notOneOf("--\(name)", text, allowed: allowed, field: name)
    }
    return v
  }
}
