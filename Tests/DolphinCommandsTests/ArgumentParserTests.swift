@testable import DolphinCommands
import ContinuityKit
import Foundation
import Testing
import TestSupport

@Suite("Argument parser")
struct ArgumentParserTests {
  let spec = CommandSpec(
    path: ["capture"], summary: "s", positionals: [("kind", ""), ("title", "")],
    options: [OptionSpec(name: "tags", value: "a,b", repeatable: true, help: ""), OptionSpec(name: "priority", value: "P", help: "")])

  @Test("options with separate and inline values, repeatable options, -- ends options")
  func parses() throws {
    let p = try ArgumentParser.parse(["fact", "--tags", "a,b", "--tags=c", "--priority=high", "--", "--not-an-option"], spec: CommandSpec(
      path: ["capture"], summary: "", positionals: [("kind", ""), ("title", "")], options: spec.options))
    #expect(p.positionals == ["fact", "--not-an-option"])
    #expect(p.all("tags") == ["a,b", "c"])
    #expect(p.value("priority") == "high")
  }

  @Test("text that starts with '-' is told how to pass it; help says how to repeat an option")
  func dashText() throws {
    let search = CommandSpec(
      path: ["search"], summary: "s", positionals: [("query", "")],
      options: [OptionSpec(name: "kind", value: "K", repeatable: true, help: "Only these kinds.")])
    #expect(
      throws: CLIError.usage(
        "unknown option '-sqlite wal' for `dolphin search`; options are spelled --name (see --help); "
          + "to pass text that starts with '-', put it last, after -- (dolphin search [options] -- '-sqlite wal')")
    ) { try ArgumentParser.parse(["-sqlite wal"], spec: search) }
    #expect(try ArgumentParser.parse(["--kind", "fact", "--", "-sqlite wal"], spec: search).positionals == ["-sqlite wal"])
    let help = ArgumentParser.help(search)
    #expect(help.contains("--kind K                Only these kinds. Repeat the option for more."), "\(help)")
    #expect(!help.contains("K ..."))
  }

  @Test("a non-repeatable option given twice is a usage error naming its field")
  func twice() {
    #expect(throws: CLIError.invalidValue("--priority was given more than once; it takes one value", field: "priority")) {
      try ArgumentParser.parse(["fact", "t", "--priority", "low", "--priority", "high"], spec: spec)
    }
  }

  @Test("an option missing its value names it")
  func missingValue() {
    #expect(throws: CLIError.invalidValue("--priority needs a value (P)", field: "priority")) {
      try ArgumentParser.parse(["fact", "t", "--priority"], spec: spec)
    }
  }

  @Test("an option followed by another option is missing its value, not given it")
  func optionAsValue() {
    let message = "--priority needs a value (P), but the next argument '--json' is an option; to give a value that begins with '-', write --priority=--json"
    #expect(throws: CLIError.invalidValue(message, field: "priority")) {
      try ArgumentParser.parse(["fact", "t", "--priority", "--json"], spec: spec)
    }
    #expect(throws: CLIError.self) { try ArgumentParser.parse(["fact", "t", "--tags", "--"], spec: spec) }
    #expect(throws: CLIError.self) { try ArgumentParser.parse(["fact", "t", "--tags", "-h"], spec: spec) }
  }

  @Test("--name=value still carries a value that begins with --, and '-' is a value")
  func inlineDashValue() throws {
    let p = try ArgumentParser.parse(["fact", "t", "--priority=--json", "--tags", "-"], spec: spec)
    #expect(p.value("priority") == "--json")
    #expect(p.all("tags") == ["-"])
    #expect(!p.has("json"))
  }

  @Test("extra positionals say to quote text")
  func extra() {
    #expect(throws: CLIError.self) { try ArgumentParser.parse(["fact", "two", "words"], spec: spec) }
  }

  @Test("a flag takes no value")
  func flagValue() {
    #expect(throws: CLIError.invalidValue("--json is a flag and takes no value", field: "json")) {
      try ArgumentParser.parse(["fact", "t", "--json=yes"], spec: spec)
    }
  }

  @Test("nearest suggestions need to be close")
  func nearest() {
    #expect(ArgumentParser.nearest("decison", in: ["decision", "goal"]) == "decision")
    #expect(ArgumentParser.nearest("foo", in: ["decision", "goal"]) == nil)
    #expect(ArgumentParser.editDistance("kitten", "sitting") == 3)
    // Equally close: the one with the same first letter wins, then the earlier one.
    #expect(ArgumentParser.nearest("tsk", in: ["ask", "task"]) == "task")
    #expect(ArgumentParser.nearest("tsk", in: ["task", "ask"]) == "task")
  }

  @Test("edit distance counts two swapped neighbours as one edit (Damerau–Levenshtein, optimal string alignment)")
  func transpositions() {
    #expect(ArgumentParser.editDistance("stauts", "status") == 1)
    #expect(ArgumentParser.editDistance("ca", "ac") == 1)
    #expect(ArgumentParser.editDistance("tsak", "task") == 1)
    // Optimal string alignment edits no substring twice: `ca` → `abc` is 3, not 2.
    #expect(ArgumentParser.editDistance("ca", "abc") == 3)
    #expect(ArgumentParser.editDistance("", "abc") == 3)
    #expect(ArgumentParser.nearest("tsak", in: ["ask", "task"]) == "task")
    #expect(NearestName.suggest("serach", in: ["search"], maximumDistance: 2) == "search")
    #expect(NearestName.suggest("knowlegdelist", in: ["knowledge"], maximumDistance: 2) == nil)
  }

  /// An option written after `--`, where everything is text.
  struct AfterOptionsEnd: CustomTestStringConvertible, Sendable {
    var testDescription: String { arguments.joined(separator: " ") }
    var arguments: [String]
    var message: String
  }

  static let afterOptionsEnd = [
    AfterOptionsEnd(
      arguments: ["--", "-handoff", "--workspace", "W"],
      message: "unexpected argument 'W' for `dolphin capture`; usage: dolphin capture <kind> [<title>] [options] "
        + "(quote text that contains spaces); everything after -- is taken as text, so options must come before --: "
        + "`dolphin capture --workspace W -- -handoff`"),
    AfterOptionsEnd(
      arguments: ["fact", "--", "-title", "--json"],
      message: "unexpected argument '--json' for `dolphin capture`; usage: dolphin capture <kind> [<title>] [options] "
        + "(quote text that contains spaces); everything after -- is taken as text, so options must come before --: "
        + "`dolphin capture fact --json -- -title`"),
    // What follows is not an option: only the usual advice.
    AfterOptionsEnd(
      arguments: ["fact", "--", "two", "words"],
      message: "unexpected argument 'words' for `dolphin capture`; usage: dolphin capture <kind> [<title>] [options] "
        + "(quote text that contains spaces)"),
    // No line that would parse: said without one.
    AfterOptionsEnd(
      arguments: ["fact", "--", "-title", "--bogus"],
      message: "unexpected argument '--bogus' for `dolphin capture`; usage: dolphin capture <kind> [<title>] [options] "
        + "(quote text that contains spaces); everything after -- is taken as text, so options must come before --"),
  ]

  @Test("an option after -- is taken as text, and the error says options go before --", arguments: afterOptionsEnd)
  func optionAfterOptionsEnd(_ c: AfterOptionsEnd) {
    var spec = spec
    spec.positionals = [("kind", ""), ("title", "")]
    spec.requiredPositionals = 1
    #expect(throws: CLIError.usage(c.message)) { try ArgumentParser.parse(c.arguments, spec: spec) }
  }

  @Test("search with an option after -- says to put it before --, with the line to run")
  func searchAfterOptionsEnd() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try runDolphin(["search", "--", "-handoff", "--workspace", cli.workspace])
    #expect(r.status == 2)
    #expect(
      r.stderr.contains(
        "; everything after -- is taken as text, so options must come before --: `dolphin search --workspace \(cli.workspace) -- -handoff`"),
      "\(r.stderr)")
  }

  @Test("a mistyped command is suggested by its first letter among equally close names")
  func mistypedCommand() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["tsk", "list"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("did you mean `task`?"), "\(r.stderr)")
  }

  @Test("help lists every option with its placeholder")
  func help() {
    let h = ArgumentParser.help(spec)
    #expect(h.contains("Usage: dolphin capture <kind> <title> [options]"))
    #expect(h.contains("  --tags a,b              Repeat the option for more."))
    #expect(h.contains("--workspace DIR"))
  }
}

@Suite("Raw arguments")
struct RawArgumentTests {
  @Test("an argument that is not valid UTF-8 is refused, naming which one")
  func invalidUTF8() async {
    let console = Console()
    let code = await DolphinCLI.run(
      rawArguments: [Array("capture".utf8), Array("fact".utf8), Array("bad ".utf8) + [0xFF] + Array(" title".utf8)],
      console: console)
    #expect(code == ExitCode.usage)
    #expect(console.standardError.contains(#"argument 3 after `dolphin` (the title) is not valid UTF-8: 'bad \xFF title'"#))
    #expect(console.standardOutput.isEmpty)
  }

  @Test("an option's value is named by its option; --json gets a JSON error")
  func invalidOptionValue() async {
    let console = Console()
    let code = await DolphinCLI.run(
      rawArguments: ["capture", "fact", "t", "--content"].map { Array($0.utf8) } + [[0xC3, 0x28]] + [Array("--json".utf8)],
      console: console)
    #expect(code == ExitCode.usage)
    #expect(console.standardError.contains(#"argument 5 after `dolphin` (the value of --content) is not valid UTF-8: '\xC3('"#))
    #expect(console.standardOutput.contains(#""kind" : "usage""#))
  }

  struct InvalidArgumentCase: CustomStringConvertible, Sendable {
    var name: String
    var arguments: [[UInt8]]
    /// What the message says the argument is, and the `field` of the JSON error.
    var role: String
    var field: String?
    var description: String { name }
  }

  static let invalidArgumentCases: [InvalidArgumentCase] = [
    InvalidArgumentCase(
      name: "a title", arguments: [Array("capture".utf8), Array("decision".utf8), Array("Caf".utf8) + [0xE9]],
      role: "argument 3 after `dolphin` (the title)", field: "title"),
    InvalidArgumentCase(
      name: "an option's value given with =",
      arguments: ["capture", "fact", "Menu", "--workspace", "/tmp/none"].map { Array($0.utf8) } + [Array("--content=caf".utf8) + [0xE9]],
      role: "argument 6 after `dolphin` (the value of --content)", field: "content"),
    InvalidArgumentCase(
      name: "a memory's text", arguments: [Array("memory".utf8), Array("save".utf8), [0xFF, 0x41]],
      role: "argument 3 after `dolphin` (the text)", field: "text"),
    InvalidArgumentCase(
      name: "a search query after --", arguments: [Array("search".utf8), Array("--json".utf8), Array("--".utf8), [0xC3, 0x28]],
      role: "argument 4 after `dolphin` (the query)", field: "query"),
    InvalidArgumentCase(
      name: "the second of several paths", arguments: [Array("analyze".utf8), Array("a.swift".utf8), Array("b".utf8) + [0xFF]],
      role: "argument 3 after `dolphin` (the path)", field: "path"),
    InvalidArgumentCase(
      name: "a command word", arguments: [Array("capt".utf8) + [0xFF]],
      role: "argument 1 after `dolphin` is not valid UTF-8", field: nil),
  ]

  /// Regression (review, s14): an argument that is not UTF-8 was named only by its position
  /// (`argument 3 after `dolphin``) where the parser knows what it is for.
  @Test("an argument that is not valid UTF-8 is named by what it is for", arguments: invalidArgumentCases)
  func invalidArgumentNamed(_ c: InvalidArgumentCase) async throws {
    let console = Console()
    let json = c.arguments.contains(Array("--json".utf8)) ? [] : [Array("--json".utf8)]
    let code = await DolphinCLI.run(rawArguments: c.arguments + json, console: console)
    #expect(code == ExitCode.usage)
    #expect(console.standardError.contains(c.role), "\(console.standardError)")
    let document = try JSONSerialization.jsonObject(with: Data(console.standardOutput.utf8)) as? [String: Any]
    let error = document?["error"] as? [String: Any]
    #expect(error?["field"] as? String == c.field, "\(console.standardOutput)")
  }

  @Test("valid UTF-8, multi-byte characters included, runs as usual")
  func validUTF8() async {
    let console = Console()
    let code = await DolphinCLI.run(rawArguments: [Array("--version".utf8), Array("é€😀".utf8)], console: console)
    #expect(code == ExitCode.success)
    #expect(DolphinCLI.escapingInvalidUTF8(Array("é€😀".utf8) + [0x80]) == #"é€😀\x80"#)
  }
}
