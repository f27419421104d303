@testable import DolphinCommands
import Testing

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

  @Test("a non-repeatable option given twice is a usage error")
  func twice() {
    #expect(throws: CLIError.usage("--priority was given more than once; it takes one value")) {
      try ArgumentParser.parse(["fact", "t", "--priority", "low", "--priority", "high"], spec: spec)
    }
  }

  @Test("an option missing its value names it")
  func missingValue() {
    #expect(throws: CLIError.usage("--priority needs a value (P)")) {
      try ArgumentParser.parse(["fact", "t", "--priority"], spec: spec)
    }
  }

  @Test("an option followed by another option is missing its value, not given it")
  func optionAsValue() {
    let message = "--priority needs a value (P), but the next argument '--json' is an option; to give a value that begins with '-', write --priority=--json"
    #expect(throws: CLIError.usage(message)) {
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
    #expect(throws: CLIError.usage("--json is a flag and takes no value")) {
      try ArgumentParser.parse(["fact", "t", "--json=yes"], spec: spec)
    }
  }

  @Test("nearest suggestions need to be close")
  func nearest() {
    #expect(ArgumentParser.nearest("decison", in: ["decision", "goal"]) == "decision")
    #expect(ArgumentParser.nearest("foo", in: ["decision", "goal"]) == nil)
    #expect(ArgumentParser.editDistance("kitten", "sitting") == 3)
  }

  @Test("help lists every option with its placeholder")
  func help() {
    let h = ArgumentParser.help(spec)
    #expect(h.contains("Usage: dolphin capture <kind> <title> [options]"))
    #expect(h.contains("--tags a,b ..."))
    #expect(h.contains("--workspace DIR"))
  }
}
