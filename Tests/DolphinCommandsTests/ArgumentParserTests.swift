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
        "unknown option '-sqlite' for `dolphin search`; options are spelled --name (see --help); "
          + "to pass text that starts with '-', put it after --, with options before --: `dolphin search -- -sqlite`")
    ) { try ArgumentParser.parse(["-sqlite"], spec: search) }
    #expect(try ArgumentParser.parse(["--kind", "fact", "--", "-sqlite"], spec: search).positionals == ["-sqlite"])
    let help = ArgumentParser.help(search)
    #expect(help.contains("--kind K                Only these kinds. Repeat the option for more."), "\(help)")
    #expect(!help.contains("K ..."))
  }

  /// Review 30-a, 10: `dolphin search "- dash"` (a pasted list line) was refused as an unknown
  /// option. No option has white space in its name: one dash and white space is text.
  @Test("text that starts with '-' and holds white space is text, for a command that takes text")
  func dashTextWithWhiteSpace() throws {
    let search = CommandSpec(
      path: ["search"], summary: "s", positionals: [("query", "")],
      options: [OptionSpec(name: "kind", value: "K", repeatable: true, help: "")])
    for text in ["- dash", "-O2 flags", "-sqlite wal", "-\titem", "- item\n- other", "-- x", "--- x"] {
      let parsed = try ArgumentParser.parse(["--kind", "fact", text], spec: search)
      #expect(parsed.positionals == [text])
      #expect(parsed.all("kind") == ["fact"])
    }
    // A dash and white space with nothing after it is no text (review 30-b: `memory save "- "`
    // stored "- "); nor is `--json ` an option of another name.
    #expect(throws: CLIError.self) { try ArgumentParser.parse(["x", "- "], spec: search) }
    #expect(throws: CLIError.self) { try ArgumentParser.parse(["x", "--kind "], spec: search) }
    // An option's inline value may hold white space: still the option.
    #expect(try ArgumentParser.parse(["x", "--kind=a b"], spec: search).all("kind") == ["a b"])
    // A command that takes no text refuses it as before.
    let bare = CommandSpec(path: ["status"], summary: "s", positionals: [], options: [])
    #expect(throws: CLIError.self) { try ArgumentParser.parse(["- dash"], spec: bare) }
    // End to end: a search for a pasted list line lists, exit 0.
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "dash notes", "--content", "- dash in a list"]).status == 0)
    let found = try cli.run(["search", "- dash", "--json"])
    #expect(found.status == 0, "\(found.stderr)")
    #expect(found.stdout.contains("\"dash notes\""), "\(found.stdout)")
  }

  /// A command line with text that starts with `-`, and the advice its refusal gives.
  struct DashText: CustomTestStringConvertible, Sendable {
    var testDescription: String { arguments.joined(separator: " ") }
    var arguments: [String]
    var advice: String
  }

  static let dashTexts = [
    // The review's repro: the kind given before the title was dropped from the line shown.
    DashText(
      arguments: ["fact", "-title", "--priority", "high"],
      advice: "put it after --, with options before --: `dolphin capture fact --priority high -- -title`"),
    DashText(
      arguments: ["--tags=a", "fact", "-title", "--tags", "b c"],
      advice: "put it after --, with options before --: `dolphin capture fact --tags=a --tags 'b c' -- -title`"),
    // A line that would not parse either (one word too many): the positionals before it, in order.
    DashText(
      arguments: ["fact", "-title", "words"],
      advice: "put it last, after -- (dolphin capture fact [options] -- -title)"),
    DashText(
      arguments: ["fact", "-title", "--bogus"],
      advice: "put it last, after -- (dolphin capture fact [options] -- -title)"),
  ]

  @Test("text that starts with '-' after other arguments: the line shown keeps them in order", arguments: dashTexts)
  func dashTextAfterArguments(_ c: DashText) {
    #expect(
      throws: CLIError.usage(
        "unknown option '-title' for `dolphin capture`; options are spelled --name (see --help); "
          + "to pass text that starts with '-', \(c.advice)")
    ) { try ArgumentParser.parse(c.arguments, spec: spec) }
  }

  /// The words of a POSIX shell line made of plain words and single-quoted ones (what
  /// ``ShellWord/word(_:)`` writes).
  static func shellWords(_ line: String) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quoted = false
    var escaped = false
    for c in line {
      if escaped {
        word.append(c)
        escaped = false
      } else if quoted {
        if c == "'" { quoted = false } else { word.append(c) }
      } else if c == "'" {
        quoted = true
        inWord = true
      } else if c == "\\" {
        escaped = true
        inWord = true
      } else if c == " " {
        if inWord { words.append(word) }
        word = ""
        inWord = false
      } else {
        word.append(c)
        inWord = true
      }
    }
    if inWord { words.append(word) }
    return words
  }

  /// A command line with text that starts with `-`, run as a user would.
  struct DashTextRun: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var arguments: [String]
    /// The exit status of the line the refusal shows, run as shown: past parsing.
    var status: Int32
    /// What the line then did: a listing (`knowledge list`) and what it shows, or the error.
    var listing: [String]
    var shows: String
  }

  static let dashTextRuns = [
    DashTextRun(
      testDescription: "capture fact -title", arguments: ["capture", "fact", "-title"], status: 0,
      listing: ["knowledge", "list"], shows: "fact       \"-title\""),
    // Past parsing, the value is checked: -5 is no limit (exit 4), but the name is there.
    DashTextRun(
      testDescription: "settings set knowledgeItemLimit -5", arguments: ["settings", "set", "knowledgeItemLimit", "-5"],
      status: 4, listing: [], shows: "knowledgeItemLimit is -5; it must be between 1 and 100000"),
    DashTextRun(
      testDescription: "memory save -xit --tags a", arguments: ["memory", "save", "-xit", "--tags", "a"], status: 0,
      listing: ["memory", "list"], shows: "-xit"),
    DashTextRun(
      testDescription: "capture with a quote", arguments: ["capture", "--priority", "high", "decision", "-don't"], status: 0,
      listing: ["knowledge", "list"], shows: "decision   \"-don't\""),
  ]

  @Test("the line shown for text that starts with '-' runs as shown and gets past parsing", arguments: dashTextRuns)
  func dashTextLineRuns(_ c: DashTextRun) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let refused = try cli.run(c.arguments)
    #expect(refused.status == 2, "\(refused.stderr)")
    let marker = "with options before --: `dolphin "
    let start = try #require(refused.stderr.range(of: marker), "\(refused.stderr)").upperBound
    let line = String(refused.stderr[start...].prefix { $0 != "`" })
    let words = Self.shellWords(line)
    #expect(words.contains(cli.workspace), "\(line)")
    let r = try runDolphin(words)
    #expect(r.status == c.status, "\(line): \(r.stderr)")
    #expect(!r.stderr.contains("needs <"), "\(r.stderr)")
    #expect(!r.stderr.contains("unknown option"), "\(r.stderr)")
    if c.listing.isEmpty {
      #expect(r.stderr.contains(c.shows), "\(r.stderr)")
    } else {
      let listed = try cli.run(c.listing)
      #expect(listed.stdout.contains(c.shows), "\(listed.stdout)")
    }
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
    // `--version` takes no arguments now (review 19-b, F11): a multi-byte option value instead.
    let code = await DolphinCLI.run(rawArguments: [Array("--version".utf8), Array("--workspace=é€😀".utf8)], console: console)
    #expect(code == ExitCode.success)
    #expect(DolphinCLI.escapingInvalidUTF8(Array("é€😀".utf8) + [0x80]) == #"é€😀\x80"#)
  }
}
