import ContinuityKit

/// A small, strict command-line parser: declared options only, `--name value` or
/// `--name=value`, repeatable options, `--` to end options, and errors that name the option
/// and suggest the nearest valid one. In the `--name value` form the value may not begin with
/// `--` (nor be `-h`): that is taken as a forgotten value; `--name=--value` carries it.
struct OptionSpec: Sendable {
  var name: String
  /// nil for a flag; the value's placeholder (e.g. `KIND`) otherwise.
  var value: String?
  var repeatable = false
  var help: String
  /// Whether the value `-` reads the text from standard input (`--content -`, `--notes -`). A
  /// command reads standard input once: two such values are a usage error
  /// (``ArgumentParser/requireOneStandardInputReader(_:spec:)``).
  var readsStandardInput = false
}

struct CommandSpec: Sendable {
  /// e.g. `["knowledge", "list"]`.
  var path: [String]
  var summary: String
  /// Positional arguments, e.g. `[("kind", "…"), ("title", "…")]`.
  var positionals: [(name: String, help: String)] = []
  /// How many positionals are required (the rest are optional).
  var requiredPositionals: Int? = nil
  var options: [OptionSpec] = []
  /// Whether `--yes` is accepted.
  var confirms = false
  /// Whether the last positional may repeat (`dolphin analyze <path>...`).
  var variadic = false
  /// Extra help text (examples, exit codes).
  var discussion: String = ""
  /// Why `--json` does not apply to this command, when it does not (`dolphin mcp`, whose
  /// stdout is the JSON-RPC stream); such a command neither lists nor accepts it.
  var noJSONReason: String? = nil
  /// Library fields that come from this command's flags, so error messages name the flag
  /// (see ``FieldFlag``).
  var fieldFlags: [FieldFlag] = []
  /// Whether the command reads or writes a workspace. When it does and no `--workspace` is
  /// given, a `DOLPHIN_HOME` set but empty is refused before the command runs
  /// (``WorkspaceLocation/validatedDefaultDirectory(environment:)``). False only for commands
  /// that never touch one (`tools`, `analyze`).
  var usesWorkspace = true
  /// What `--workspace` means for this command when its default is not the default workspace
  /// (`demo` uses a directory of its own); nil for the shared help.
  var workspaceHelp: String? = nil

  var name: String { path.joined(separator: " ") }

  static let globalOptions: [OptionSpec] = [
    OptionSpec(name: "workspace", value: "DIR", help: "Workspace directory (default: $DOLPHIN_HOME, else $XDG_DATA_HOME/dolphin, else ~/.local/share/dolphin)."),
    OptionSpec(name: "json", value: nil, help: "Print exactly one JSON document on stdout; notices go to stderr."),
    OptionSpec(name: "help", value: nil, help: "Show this help."),
  ]

  var allOptions: [OptionSpec] {
    var globals = noJSONReason == nil ? Self.globalOptions : Self.globalOptions.filter { $0.name != "json" }
    if let i = globals.firstIndex(where: { $0.name == "workspace" }) {
      if let workspaceHelp {
        globals[i].help = workspaceHelp
      } else if !usesWorkspace {
        // Accepted, so a script may pass it to every command, but said to do nothing here.
        globals[i].help = "Accepted and ignored: this command reads and writes no workspace."
      }
    }
    return options + (confirms ? [OptionSpec(name: "yes", value: nil, help: "Apply without asking (for scripts).")] : []) + globals
  }
}

struct ParsedArguments: Sendable {
  var positionals: [String] = []
  var values: [String: [String]] = [:]
  var flags: Set<String> = []

  func value(_ name: String) -> String? { values[name]?.last }
  func all(_ name: String) -> [String] { values[name] ?? [] }
  func has(_ name: String) -> Bool { flags.contains(name) }
}

enum ArgumentParser {
  /// Whether `arg`, which starts with `-`, is text rather than an option: the part an option's
  /// name would be (before an `=`, after the dashes) holds white space followed by more text.
  static func isDashText(_ arg: String) -> Bool {
    let name = arg.drop { $0 == "-" }.prefix { $0 != "=" || !arg.hasPrefix("--") }
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.unicodeScalars.contains(where: { $0.properties.isWhitespace })
      || (!trimmed.isEmpty && name.first.map { $0.isWhitespace } == true)
  }

  /// Parses `arguments` (after the command path) against `spec`.
  /// - Throws: ``CLIError/usage(_:)`` naming the offending argument, or
  ///   ``CLIError/invalidValue(_:field:)`` for an option's value (missing, repeated, or given to
  ///   a flag).
  static func parse(_ arguments: [String], spec: CommandSpec) throws(CLIError) -> ParsedArguments {
    var out = ParsedArguments()
    let options = spec.allOptions
    var i = 0
    var optionsEnded = false
    // Where `--` was, and how many positionals came before it.
    var optionsEnd: (index: Int, positionals: Int)?
    while i < arguments.count {
      let arg = arguments[i]
      i += 1
      if optionsEnded || !arg.hasPrefix("-") || arg == "-" {
        out.positionals.append(arg)
        continue
      }
      // `- item`, `-O2 flags`, `-- x` (a pasted list line, a quoted phrase): no option has white
      // space in its name, so dashes followed by a name holding white space between words are
      // text for a command that takes text (review 30-a, 10; 30-b). `--name=a b` is still an
      // option with its value; `- ` alone is no text (nothing follows the space).
      if !spec.positionals.isEmpty, Self.isDashText(arg) {
        out.positionals.append(arg)
        continue
      }
      if arg == "--" {
        optionsEnded = true
        optionsEnd = (i - 1, out.positionals.count)
        continue
      }
      if arg == "-h" {
        out.flags.insert("help")
        continue
      }
      guard arg.hasPrefix("--") else {
        // `-sqlite wal` is more likely text than a misspelled option when the command takes text.
        let textHint = spec.positionals.isEmpty ? "" : "; " + dashTextAdvice(arguments, at: i - 1, spec: spec)
        throw .usage(
          "unknown option \(quotedValue(arg, cutAt: 60)) for `dolphin \(spec.name)`; options are spelled --name (see --help)"
            + textHint)
      }
      var name = String(arg.dropFirst(2))
      var inlineValue: String?
      if let eq = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: eq)...])
        name = String(name[..<eq])
      }
      if name == "json", let reason = spec.noJSONReason { throw .usage(reason) }
      guard let opt = options.first(where: { $0.name == name }) else {
        let suggestion = nearest(name, in: options.map(\.name)).map { "; did you mean --\($0)?" } ?? ""
        throw .usage("unknown option \(quotedValue("--" + name, cutAt: 60)) for `dolphin \(spec.name)`\(suggestion)")
      }
      if let placeholder = opt.value {
        let v: String
        if let inlineValue {
          v = inlineValue
        } else {
          guard i < arguments.count else { throw .invalidValue("--\(name) needs a value (\(placeholder))", field: name) }
          let next = arguments[i]
          // `--content --json` is a forgotten value, not the text "--json": refuse rather than
          // swallow the next option. `--name=value` still carries any value.
          if next.hasPrefix("--") || next == "-h" {
            throw .invalidValue(
              "--\(name) needs a value (\(placeholder)), but the next argument \(quotedValue(next, cutAt: 60)) is an option; "
                + "to give a value that begins with '-', write --\(name)=\(next)", field: name)
          }
          v = next
          i += 1
        }
        if !opt.repeatable, out.values[name] != nil {
          throw .invalidValue("--\(name) was given more than once; it takes one value", field: name)
        }
        out.values[name, default: []].append(v)
      } else {
        if inlineValue != nil { throw .invalidValue("--\(name) is a flag and takes no value", field: name) }
        out.flags.insert(name)
      }
    }
    if out.has("help") { return out }
    let required = spec.requiredPositionals ?? spec.positionals.count
    if out.positionals.count < required {
      let missing = spec.positionals[out.positionals.count].name
      throw .usage("`dolphin \(spec.name)` needs <\(missing)>; usage: \(usageLine(spec))")
    }
    if !spec.variadic, out.positionals.count > spec.positionals.count {
      let extra = out.positionals[spec.positionals.count]
      var message =
        "unexpected argument \(quotedValue(extra, cutAt: 60)) for `dolphin \(spec.name)`; usage: \(usageLine(spec)) (quote text that contains spaces)"
      // Extra text after `--`, where `--workspace W` is text, not an option: say so when an
      // argument there is spelled as an option (`-handoff` may well be text; `--json` hardly).
      if let optionsEnd, spec.positionals.count >= optionsEnd.positionals,
        let firstOption = arguments[(optionsEnd.index + 1)...].firstIndex(where: { $0.hasPrefix("--") && $0.count > 2 })
      {
        message += "; everything after -- is taken as text, so options must come before --"
        message += optionsBeforeEnd(arguments, optionsEnd: optionsEnd.index, firstOption: firstOption, spec: spec).map { ": `\($0)`" } ?? ""
      }
      throw .usage(message)
    }
    return out
  }

  /// Refuses a command line that gives `-` (standard input) to more than one option that reads
  /// it (``OptionSpec/readsStandardInput``): standard input holds one text, read once, and
  /// the second option would get nothing (`handoff create --focus - --summary -`).
  /// - Throws: ``CLIError/usage(_:)`` naming the options.
  static func requireOneStandardInputReader(_ parsed: ParsedArguments, spec: CommandSpec) throws(CLIError) {
    let readers = spec.allOptions.filter(\.readsStandardInput).flatMap { option in
      parsed.all(option.name).filter { $0 == "-" }.map { _ in "--\(option.name) -" }
    }
    guard readers.count > 1 else { return }
    throw .usage(
      "\(readers.joined(separator: " and ")) each ask for standard input, which holds one text and is read once: give "
        + "`-` to one option only, and the others their text as arguments")
  }

  /// `arguments` as a command line with the arguments after `--` from the first one spelled as
  /// an option moved before `--` (`dolphin search --workspace W -- -handoff` for `search --
  /// -handoff --workspace W`), or nil when that line would not parse either, or holds an
  /// argument longer than a path can be.
  /// - Parameters:
  ///   - optionsEnd: the index of `--` in `arguments`.
  ///   - firstOption: the index in `arguments` of the first argument after `--` spelled as an option.
  static func optionsBeforeEnd(_ arguments: [String], optionsEnd: Int, firstOption: Int, spec: CommandSpec) -> String? {
    let moved =
      Array(arguments[..<optionsEnd]) + Array(arguments[firstOption...]) + ["--"]
      + Array(arguments[(optionsEnd + 1)..<firstOption])
    guard moved.allSatisfy({ $0.count <= Limits.shownPathLength }), (try? parse(moved, spec: spec)) != nil else { return nil }
    return (["dolphin"] + spec.path + moved.map { escapingLineBreaks(ShellWord.word($0)) }).joined(separator: " ")
  }

  /// How to pass the argument at `index`, text that starts with `-`, after `--`: the command
  /// line with the positionals in the order given and the options before `--` (`dolphin capture
  /// fact --workspace W -- -title` for `capture fact -title --workspace W`), when that line
  /// parses; otherwise the positionals given before it with `[options]` (`dolphin capture fact
  /// [options] -- '-title'`).
  /// - Parameters:
  ///   - arguments: the arguments after the command path, none of them `--`.
  ///   - index: the index in `arguments` of the text that starts with `-`.
  static func dashTextAdvice(_ arguments: [String], at index: Int, spec: CommandSpec) -> String {
    let options = spec.allOptions
    var before: [String] = []
    var after: [String] = []
    var given: [String] = []
    var i = 0
    var optionsEnded = false
    while i < arguments.count {
      let arg = arguments[i]
      i += 1
      if i - 1 == index {
        after.append(arg)
      } else if optionsEnded || !arg.hasPrefix("--") && arg != "-h" {
        // Text, and an argument after the one at `index` that starts with a single `-` (more
        // such text: `-5`), goes where it stands among the positionals.
        if i - 1 < index { before.append(arg) } else { after.append(arg) }
      } else if arg == "--" {
        optionsEnded = true
      } else {
        given.append(arg)
        let name = String(arg.dropFirst(2))
        if !name.contains("="), options.first(where: { $0.name == name })?.value != nil, i < arguments.count {
          given.append(arguments[i])
          i += 1
        }
      }
    }
    let line = before + given + ["--"] + after
    if line.allSatisfy({ $0.count <= Limits.shownPathLength }), (try? parse(line, spec: spec)) != nil {
      let words = ["dolphin"] + spec.path + line.map { escapingLineBreaks(ShellWord.word($0)) }
      return "to pass text that starts with '-', put it after --, with options before --: `\(words.joined(separator: " "))`"
    }
    let words =
      ["dolphin"] + spec.path + before.map { shownValue(ShellWord.word($0)) }
      + ["[options]", "--", shownValue(ShellWord.word(arguments[index]))]
    return "to pass text that starts with '-', put it last, after -- (\(words.joined(separator: " ")))"
  }

  static func usageLine(_ spec: CommandSpec) -> String {
    let required = spec.requiredPositionals ?? spec.positionals.count
    var pos = spec.positionals.enumerated().map { i, p in i < required ? "<\(p.name)>" : "[<\(p.name)>]" }
    if spec.variadic, let last = pos.popLast() { pos.append(last + "...") }
    return (["dolphin", spec.name] + pos + ["[options]"]).joined(separator: " ")
  }

  /// Help text for a command.
  /// - Parameter subcommands: for a command that is also a group (`settings`, `activity`), its
  ///   subcommands, whose usage lines follow its own and which are listed with their summaries.
  static func help(_ spec: CommandSpec, subcommands: [CommandSpec] = []) -> String {
    var lines = ["\(spec.summary)", "", "Usage: \(usageLine(spec))"]
    lines += subcommands.map { "       " + usageLine($0) }
    if !subcommands.isEmpty {
      lines += ["", "Subcommands:"]
      for s in subcommands {
        lines.append("  " + (s.path.last ?? s.name).padding(toLength: 24, withPad: " ", startingAt: 0) + s.summary)
      }
    }
    if !spec.positionals.isEmpty {
      lines += ["", "Arguments:"]
      for p in spec.positionals { lines.append("  <\(p.name)>".padding(toLength: 26, withPad: " ", startingAt: 0) + p.help) }
    }
    lines += ["", "Options:"]
    for o in spec.allOptions {
      let head = "  --\(o.name)" + (o.value.map { " \($0)" } ?? "")
      // "--kind K ..." read as "--kind decision fact"; say how repetition is written instead.
      let help = o.repeatable && !o.help.lowercased().contains("repeat")
        ? (o.help.isEmpty ? "" : o.help + " ") + "Repeat the option for more." : o.help
      lines.append(head.count < 26 ? head.padding(toLength: 26, withPad: " ", startingAt: 0) + help : head + "\n" + String(repeating: " ", count: 26) + help)
    }
    if !spec.discussion.isEmpty { lines += ["", spec.discussion] }
    return lines.joined(separator: "\n")
  }

  /// The closest valid name, if close enough (see ``NearestName``).
  static func nearest(_ word: String, in candidates: [String]) -> String? {
    NearestName.suggest(word, in: candidates)
  }

  static func editDistance(_ a: String, _ b: String) -> Int { NearestName.editDistance(a, b) }
}
