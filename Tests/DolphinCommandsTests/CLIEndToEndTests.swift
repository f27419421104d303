import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Runs `dolphin` in a fresh workspace directory.
struct CLI {
  let dir = TemporaryDirectory("cli")
  var workspace: String { dir.appending("ws").path }

  func run(_ args: [String], stdin: String? = nil) throws -> ProcessResult {
    try runDolphin(args + ["--workspace", workspace], stdin: stdin)
  }

  func json(_ args: [String]) throws -> [String: Any] {
    let r = try run(args + ["--json"])
    #expect(r.status == 0, "\(args): \(r.stderr)")
    let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
    return try #require(obj as? [String: Any])
  }

  /// The record a single-record command's `--json` puts under its type's key (`item`, `task`,
  /// `memory`, `handoff`, `digest`: README, "JSON output").
  func record(_ key: String, _ args: [String]) throws -> [String: Any] {
    let obj = try json(args)
    return try #require(obj[key] as? [String: Any], "\(args): no \(key) among \(obj.keys.sorted())")
  }
}

@Suite("dolphin CLI end to end", .serialized)
struct CLIEndToEndTests {
  @Test("capture, list, get and delete real knowledge")
  func captureListGetDelete() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let a = try cli.json(["capture", "decision", "Use SQLite for the workspace", "--content", "WAL and single-row writes.", "--tags", "Storage,sqlite", "--priority", "high"])
    let item = try #require(a["item"] as? [String: Any])
    let id = try #require(item["id"] as? String)
    #expect(item["tags"] as? [String] == ["storage", "sqlite"])
    #expect(item["priority"] as? String == "high")
    let b = try cli.json(["capture", "fact", "SQLite 3.40 is installed", "--relates", "supports:\(id)"])
    let bid = try #require((b["item"] as? [String: Any])?["id"] as? String)

    let list = try cli.run(["knowledge", "list"])
    #expect(list.status == 0)
    #expect(list.stdout.hasPrefix("2 item(s) shown of 2 in the workspace\n"))
    #expect(list.stdout.contains("\(id)  decision   \"Use SQLite for the workspace\"  [storage, sqlite]"))

    let get = try cli.run(["knowledge", "get", id])
    #expect(get.stdout.contains("decision: Use SQLite for the workspace"))
    #expect(get.stdout.contains("WAL and single-row writes."))

    // Deleting the target shows the relationship it removes, then applies it.
    let del = try cli.run(["knowledge", "delete", id, "--yes"])
    #expect(del.status == 0, "\(del.stderr)")
    #expect(del.stdout.contains("Deletion plan: delete knowledge \(id) \"Use SQLite for the workspace\""))
    #expect(del.stdout.contains("remove relationship supports from \(bid) \"SQLite 3.40 is installed\""))
    let after = try cli.record("item", ["knowledge", "get", bid])
    #expect((after["relationships"] as? [Any])?.isEmpty == true)
    #expect(try cli.run(["knowledge", "get", id]).status == 3)
  }

  @Test("deletion without a terminal and without --yes changes nothing (exit 1)")
  func deletionNeedsConfirmation() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let a = try cli.json(["capture", "goal", "Ship 1.0"])
    let id = try #require((a["item"] as? [String: Any])?["id"] as? String)
    let r = try cli.run(["knowledge", "delete", id])
    #expect(r.status == 1)
    #expect(r.stderr.contains("dolphin: error: the deletion needs confirmation: run it in a terminal, or pass --yes; nothing was changed"))
    #expect(try cli.run(["knowledge", "get", id]).status == 0)
  }

  typealias ExitCase = CLICase

  static let exitCases: [ExitCase] = [
    ExitCase(name: "unknown command", args: ["captrue"], status: 2, stderr: "unknown command 'captrue'; did you mean `capture`?"),
    ExitCase(name: "unknown option", args: ["knowledge", "list", "--kinds", "fact"], status: 2, stderr: "unknown option '--kinds' for `dolphin knowledge list`; did you mean --kind?"),
    ExitCase(name: "missing argument", args: ["capture", "fact"], status: 2, stderr: "`dolphin capture` needs <title>"),
    ExitCase(name: "bad kind", args: ["capture", "decison", "x"], status: 2, stderr: "kind 'decison' is not one of: decision, goal, preference, fact, insight, context, code (did you mean 'decision'?)"),
    ExitCase(name: "title over the bound", args: ["capture", "fact", String(repeating: "x", count: 301)], status: 4, stderr: "title is 301 characters; the limit is 300 characters"),
    ExitCase(name: "malformed id", args: ["knowledge", "get", "1234"], status: 4, stderr: "id '1234' is not a UUID"),
    // A long value is quoted cut, and says so: an ellipsis and its full length.
    ExitCase(
      name: "malformed id of 10,000 characters", args: ["knowledge", "get", String(repeating: "a", count: 10_000)],
      status: 4, stderr: "id '" + String(repeating: "a", count: 60) + "…' (10000 characters) is not a UUID (expected e.g."),
    ExitCase(
      name: "malformed id of one character with 600 combining marks",
      args: ["knowledge", "get", "x" + String(repeating: "\u{301}", count: 600)],
      status: 4, stderr: "id 'x…' (1 character of 601 Unicode scalars) is not a UUID"),
    ExitCase(
      name: "long bad priority", args: ["task", "add", "t", "--priority", String(repeating: "u", count: 100)],
      status: 2, stderr: "--priority '" + String(repeating: "u", count: 40) + "…' (100 characters) is not one of:"),
    ExitCase(name: "unknown id", args: ["knowledge", "get", "3F2504E0-4F89-11D3-9A0C-0305E82C3301"], status: 3, stderr: "no knowledge item has the id 3F2504E0-4F89-11D3-9A0C-0305E82C3301"),
    ExitCase(name: "dangling relationship", args: ["capture", "fact", "x", "--relates", "supports:3F2504E0-4F89-11D3-9A0C-0305E82C3301"], status: 3, stderr: "--relates: no knowledge item has the id 3F2504E0-4F89-11D3-9A0C-0305E82C3301"),
    ExitCase(name: "bad relationship kind", args: ["capture", "fact", "x", "--relates", "likes:3F2504E0-4F89-11D3-9A0C-0305E82C3301"], status: 2, stderr: "--relates kind 'likes' is not one of: supports, contradicts, dependsOn, supersedes, relatesTo"),
    ExitCase(name: "limit out of range", args: ["knowledge", "list", "--limit", "0"], status: 4, stderr: "--limit is 0; it must be between 1 and 100000"),
    ExitCase(name: "limit beyond Int", args: ["search", "plan", "--limit", "99999999999999999999"], status: 4, stderr: "--limit is 99999999999999999999; it must be between 1 and 50"),
    ExitCase(name: "handoff list limit zero", args: ["handoff", "list", "--limit", "0"], status: 4, stderr: "--limit is 0; it must be between 1 and 200"),
    ExitCase(name: "handoff list limit over the bound", args: ["handoff", "list", "--limit", "201"], status: 4, stderr: "--limit is 201; it must be between 1 and 200"),
    ExitCase(name: "handoff list limit not a number", args: ["handoff", "list", "--limit", "ten"], status: 2, stderr: "--limit must be a whole number, got 'ten'"),
    // Long values the user typed are quoted cut, with the cut shown, like ids and choices.
    ExitCase(
      name: "long non-number limit", args: ["search", "x", "--limit", String(repeating: "a", count: 10_000)],
      status: 2, stderr: "--limit must be a whole number, got '" + String(repeating: "a", count: 60) + "…' (10000 characters)"),
    ExitCase(
      name: "limit of 500 digits", args: ["search", "x", "--limit", String(repeating: "9", count: 500)],
      status: 4, stderr: "--limit is '" + String(repeating: "9", count: 60) + "…' (500 characters); it must be between 1 and 50"),
    ExitCase(
      name: "long unknown command", args: [String(repeating: "z", count: 500)],
      status: 2, stderr: "unknown command '" + String(repeating: "z", count: 60) + "…' (500 characters)"),
    ExitCase(
      name: "long unknown option", args: ["search", "x", "--" + String(repeating: "o", count: 500)],
      status: 2, stderr: "unknown option '--" + String(repeating: "o", count: 58) + "…' (502 characters)"),
    ExitCase(name: "empty tag filter", args: ["search", "plan", "--tag", " "], status: 4, stderr: "--tag must not be empty"),
    ExitCase(name: "tag filter over the bound", args: ["knowledge", "list", "--tag", String(repeating: "t", count: 49)], status: 4, stderr: "--tag is 49 characters; the limit is 48 characters"),
    ExitCase(name: "missing content file", args: ["capture", "fact", "x", "--content-file", "/nonexistent/file"], status: 3, stderr: "--content-file: /nonexistent/file: no such file or directory"),
  ]

  /// A first argument that is not a command, and the whole error line it gets.
  struct UnknownCommand: CustomTestStringConvertible, Sendable {
    var testDescription: String { args.joined(separator: " ") }
    var args: [String]
    var message: String
  }

  static let unknownCommands = [
    UnknownCommand(args: ["Search"], message: "unknown command 'Search'; did you mean `search`? Run `dolphin --help` for the list"),
    // Nothing close: the commands are listed (review, s16: `digest` got no hint at all).
    UnknownCommand(
      args: ["zzzz"],
      message: "unknown command 'zzzz'; the commands are demo, capture, search, reindex, knowledge, memory, task, context, "
        + "review, insights, handoff, status, doctor, settings, migrate, quarantine, export, import, erase, activity, "
        + "analyze, ask, tools, mcp, limits, version; run `dolphin --help` for what each does"),
    // A word for a command that has another name.
    UnknownCommand(
      args: ["digest"],
      message: "unknown command 'digest'; did you mean `context`, which shows the rule-based project digest? Run `dolphin --help` for the list"),
    UnknownCommand(
      args: ["config"],
      message: "unknown command 'config'; did you mean `settings`, which shows and changes the workspace settings? Run `dolphin --help` for the list"),
    // Two letters swapped are one edit (Damerau–Levenshtein).
    UnknownCommand(args: ["stauts"], message: "unknown command 'stauts'; did you mean `status`? Run `dolphin --help` for the list"),
    UnknownCommand(args: ["tsak", "list"], message: "unknown command 'tsak'; did you mean `task`? Run `dolphin --help` for the list"),
    // A subcommand typed without its group.
    UnknownCommand(
      args: ["list"],
      message: "unknown command 'list'; did you mean `knowledge list`, `memory list`, `task list` or `handoff list`? Run `dolphin --help` for the list"),
    UnknownCommand(
      args: ["restore", "3F2504E0-4F89-11D3-9A0C-0305E82C3301"],
      message: "unknown command 'restore'; did you mean `handoff restore`? Run `dolphin --help` for the list"),
    // A group that is a command too: a word after it is a subcommand, mistyped.
    UnknownCommand(
      args: ["activity", "claer"],
      message: "unknown subcommand 'claer' for `dolphin activity` (subcommands: clear); did you mean `activity clear`?"),
    UnknownCommand(
      args: ["--workspace", "X", "status"],
      message: "unknown command '--workspace'; options go after the command: `dolphin status --workspace X`; run `dolphin --help` for the list"),
    UnknownCommand(
      args: ["--limit", "3", "knowledge", "list"],
      message: "unknown command '--limit'; options go after the command: `dolphin knowledge list --limit 3`; run `dolphin --help` for the list"),
    UnknownCommand(
      args: ["--workspace", "my ws", "search", "two words"],
      message: "unknown command '--workspace'; options go after the command: `dolphin search --workspace 'my ws' 'two words'`; run `dolphin --help` for the list"),
    // `status` is the option's value here: the command comes after it.
    UnknownCommand(
      args: ["--workspace", "status", "status"],
      message: "unknown command '--workspace'; options go after the command: `dolphin status --workspace status`; run `dolphin --help` for the list"),
    UnknownCommand(
      args: ["--workspace"],
      message: "unknown command '--workspace'; options go after the command (`dolphin <command> --workspace …`); run `dolphin --help` for the list"),
    // No command has it: nothing to move after a command (review 21-a, 19).
    UnknownCommand(args: ["-v"], message: "unknown option '-v'; `dolphin --version` prints the version; run `dolphin --help` for the commands"),
    UnknownCommand(args: ["--frobnicate", "status"], message: "unknown option '--frobnicate'; run `dolphin --help` for the commands"),
  ]

  @Test("an unknown command gets one well-punctuated line; options put before the command are shown after it", arguments: unknownCommands)
  func unknownCommand(_ c: UnknownCommand) throws {
    let r = try runDolphin(c.args)
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr == "dolphin: error: \(c.message)\n", "\(r.stderr)")
    #expect(r.stdout.isEmpty)
  }

  /// A command line that names no command (or a group without its subcommand), the help it
  /// must print on stderr and the error line that ends it.
  struct MissingCommand: CustomStringConvertible, Sendable {
    var args: [String]
    var help: String
    var message: String
    var description: String { "dolphin " + args.joined(separator: " ") }
  }

  static let missingCommands = [
    MissingCommand(
      args: [], help: "Usage: dolphin <command> [arguments] [options]",
      message: "no command given; name one of the commands above (`dolphin --help` prints this list on stdout)"),
    MissingCommand(
      args: ["task"], help: "dolphin task <subcommand>\n\nSubcommands: add, list, get, edit, search, complete, reopen, delete",
      message: "`dolphin task` needs a subcommand: one of add, list, get, edit, search, complete, reopen, delete"),
    // An option where the subcommand should be is no unknown subcommand '--workspace' (review, s16).
    MissingCommand(
      args: ["task", "--workspace", "W"], help: "dolphin task <subcommand>\n\nSubcommands: add, list, get, edit, search, complete, reopen, delete",
      message: "`dolphin task` needs a subcommand: one of add, list, get, edit, search, complete, reopen, delete; options go after it "
        + "(`dolphin task <subcommand> [options]`)"),
    MissingCommand(
      args: ["knowledge", "--json"], help: "dolphin knowledge <subcommand>\n\nSubcommands: list, get, edit, delete",
      message: "`dolphin knowledge` needs a subcommand: one of list, get, edit, delete; options go after it "
        + "(`dolphin knowledge <subcommand> [options]`)"),
    MissingCommand(
      args: ["handoff", "--workspace=W"],
      help: "dolphin handoff <subcommand>\n\nSubcommands: create, list, get, restore, deactivate, delete",
      message: "`dolphin handoff` needs a subcommand: one of create, list, get, restore, deactivate, delete; options go "
        + "after it (`dolphin handoff <subcommand> [options]`)"),
    // With the subcommand after the options, the line to run.
    MissingCommand(
      args: ["memory", "--workspace", "W", "list", "--limit", "3"],
      help: "dolphin memory <subcommand>\n\nSubcommands: save, list, search, delete",
      message: "`dolphin memory` needs a subcommand: one of save, list, search, delete; options go after it: "
        + "`dolphin memory list --workspace W --limit 3`"),
  ]

  // A review found `dolphin` alone printing its help on stdout with exit 2: a script reading
  // stdout took the help for a command's output. A missing command is a usage error like the
  // others; asking for help is not.
  @Test("no command is a usage error: the help and the error on stderr, nothing on stdout, exit 2", arguments: missingCommands)
  func missingCommand(_ c: MissingCommand) throws {
    let r = try runDolphin(c.args)
    #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.isEmpty || c.args.contains("--json"), "\(r.stdout)")
    #expect(r.stderr.contains(c.help), "\(r.stderr)")
    #expect(r.stderr.hasSuffix("\ndolphin: error: \(c.message)\n"), "\(r.stderr)")
    if c.args.contains("--json") {
      let document = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
      #expect((document?["error"] as? [String: Any])?["message"] as? String == c.message)
    }
    // Asked for, the same help goes to stdout with exit 0.
    let help = try runDolphin(c.args + ["--help"])
    #expect(help.status == 0, "\(help.stderr)")
    #expect(help.stderr.isEmpty, "\(help.stderr)")
    if c.args.contains("--json") {
      let document = try JSONSerialization.jsonObject(with: Data(help.stdout.utf8)) as? [String: Any]
      #expect((document?["help"] as? String)?.contains(c.help) == true, "\(help.stdout)")
    } else {
      #expect(help.stdout.contains(c.help), "\(help.stdout)")
    }
  }

  @Test("help takes command names: --workspace, --json and --help after it are no unknown command; other options are refused as options")
  func helpOptions() throws {
    let overview = try runDolphin(["--help"])
    #expect(overview.status == 0)
    // The review's repro: "unknown command '--workspace'; options go after the command".
    for args in [["help", "--workspace", "W"], ["help", "--workspace=W"], ["help", "-h"], ["help", "--workspace"]] {
      let r = try runDolphin(args)
      #expect(r.status == 0, "\(args): \(r.stderr)")
      #expect(r.stdout == overview.stdout, "\(args)")
      #expect(r.stderr.isEmpty, "\(args): \(r.stderr)")
    }
    let json = try runDolphin(["help", "--json", "--workspace", "W"])
    #expect(json.status == 0, "\(json.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((document["help"] as? String)?.hasPrefix("dolphin — local-first memory") == true)
    // Command names around the options: that command's help, as `COMMAND --help` prints it.
    let add = try runDolphin(["task", "add", "--help"])
    #expect(try runDolphin(["help", "--workspace", "W", "task", "add"]).stdout == add.stdout)
    #expect(try runDolphin(["help", "task", "add", "--workspace", "W"]).stdout == add.stdout)
    let addJSON = try runDolphin(["help", "task", "add", "--json"])
    #expect(addJSON.status == 0, "\(addJSON.stderr)")
    #expect((try JSONSerialization.jsonObject(with: Data(addJSON.stdout.utf8)) as? [String: Any])?["command"] as? String == "task add")
    let refused = try runDolphin(["help", "--limit", "3"])
    #expect(refused.status == 2)
    #expect(
      refused.stderr == "dolphin: error: `dolphin help` takes command names, not the option '--limit'; `dolphin help COMMAND` "
        + "or `dolphin COMMAND --help` shows a command's options, `dolphin --help` lists the commands\n", "\(refused.stderr)")
  }

  @Test("errors name the problem and use the documented exit codes", arguments: exitCases)
  func exitCodes(_ c: ExitCase) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["task", "add", "An existing workspace"]).status == 0)
    let r = try cli.run(c.args)
    #expect(r.status == c.status, "\(r.stderr)")
    #expect(r.stderr.contains(c.stderr), "\(r.stderr)")
    #expect(r.stdout.isEmpty)
  }

  @Test("a query of only common words that no item holds says so, in text and JSON, not that the words were dropped")
  func commonWordsEmptyReason() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Build cache", "--content", "Keep builds fast"]).status == 0)
    let text = try cli.run(["search", "the and of"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout.contains(
        "No results: the query has only common words such as the, and, of (searched only when a query has no other "
          + "word), and none of them occurs in any knowledge item; add a word that names what you are "
          + "looking for."),
      "\(text.stdout)")
    #expect(try cli.json(["search", "the and of"])["emptyReason"] as? String == "noCommonWordMatched")
    // They are searched: an item that holds one is found.
    #expect(try cli.run(["capture", "fact", "Speed of reads"]).status == 0)
    let found = try cli.json(["search", "the and of"])
    #expect((found["results"] as? [Any])?.count == 1)
    #expect(found["emptyReason"] == nil)
  }

  @Test("common words left out beside words no item holds: the reason says they were not searched and names the others")
  func commonWordsLeftOutEmptyReason() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "The build cache", "--content", "Keep the builds fast"]).status == 0)
    let text = try cli.run(["search", "the foo"])
    #expect(text.status == 0, "\(text.stderr)")
    // `the` occurs (in both fields): saying that no query word occurs anywhere would be untrue.
    #expect(
      text.stdout.contains(
        "No results: the common word 'the' was not searched (common words are searched only when a query has no "
          + "other word), and 'foo' (or a close spelling of it) occurs in no knowledge item.\n"),
      "\(text.stdout)")
    #expect(!text.stdout.contains("no query word"), "\(text.stdout)")
    let json = try cli.json(["search", "the foo"])
    #expect(json["emptyReason"] as? String == "noOtherWordMatched")
    #expect(json["unsearchedCommonWords"] as? [String] == ["the"])
    // Several of each, named as typed, once each, in query order.
    let several = try cli.run(["search", "The zorblat of the quuxive"])
    #expect(
      several.stdout.contains(
        "No results: the common words 'The', 'of' were not searched (common words are searched only when a query has "
          + "no other word), and none of 'zorblat', 'quuxive' (or a close spelling of one) occurs in any knowledge "
          + "item.\n"),
      "\(several.stdout)")
    // A query with a word that is found carries the words it left out, and no reason.
    let found = try cli.json(["search", "the cache"])
    #expect((found["results"] as? [Any])?.count == 1)
    #expect(found["emptyReason"] == nil)
    #expect(found["unsearchedCommonWords"] as? [String] == ["the"])
  }

  @Test("search --tag that removes every match says why, in text and JSON")
  func tagFilterEmptyReason() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "decision", "Deploy on Fridays is forbidden", "--tags", "ops"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Rotate the signing keys yearly", "--tags", "security"]).status == 0)
    let text = try cli.run(["search", "deploy", "--tag", "security"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("No results: the words match only items without this tag."), "\(text.stdout)")
    let json = try cli.json(["search", "deploy", "--tag", "Security"])
    #expect(json["emptyReason"] as? String == "noMatchWithTag")
    #expect(json["tag"] as? String == "security")
    let found = try cli.json(["search", "deploy", "--tag", " OPS "])
    #expect((found["results"] as? [Any])?.count == 1)
  }

  @Test("search --tag that no item carries says so, as knowledge list --tag does (review 23-a, 6)")
  func tagNoItemCarries() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(
      try cli.run(["capture", "decision", "Deploy to staging every Friday", "--tags", "deploy,staging"]).status == 0)
    let text = try cli.run(["search", "staging", "--tag", "stagign"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.hasSuffix("No results: no knowledge item carries the tag 'stagign'.\n"), "\(text.stdout)")
    let list = try cli.run(["knowledge", "list", "--tag", "stagign"])
    #expect(list.stdout.contains("No items: no knowledge item carries the tag 'stagign'."), "\(list.stdout)")
    let json = try cli.json(["search", "staging", "--tag", "Stagign"])
    #expect(json["emptyReason"] as? String == "noItemWithTag")
    #expect(json["tag"] as? String == "stagign")
    // Without a tag filter there is no tag member.
    #expect(try cli.json(["search", "staging"])["tag"] == nil)
  }

  @Test("--tag agrees with stored tags: an imported ' Spaced '/'UPPER' and a captured zero-width-space tag are found")
  func tagFilterMatchesImportedAndSanitizedTags() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let export = DataRightsCommandTests.exportWithKnowledge()
      .replacingOccurrences(of: "\"tags\": []", with: "\"tags\": [\" Spaced \", \"UPPER\"]")
      .replacingOccurrences(of: "\"title\": \"t\"", with: "\"title\": \"Spot check\"")
    let file = cli.dir.appending("tags.json")
    try Data(export.utf8).write(to: file)
    let imported = try cli.run(["import", file.path])
    #expect(imported.status == 0, "\(imported.stderr)")
    let item = try cli.record("item", ["knowledge", "get", "3F2504E0-4F89-11D3-9A0C-0305E82C3301"])
    #expect(item["tags"] as? [String] == ["spaced", "upper"])
    let listed = try cli.json(["knowledge", "list", "--tag", "UPPER"])
    #expect((listed["items"] as? [Any])?.count == 1)
    let searched = try cli.json(["search", "spot", "--tag", "UPPER"])
    #expect((searched["results"] as? [Any])?.count == 1)
    #expect(try cli.run(["import", file.path]).stdout.contains("Imported 0 record(s)."), "the same file again is `same`")

    #expect(try cli.run(["capture", "fact", "Zero width", "--tags", "a\u{200B}b"]).status == 0)
    let zeroWidth = try cli.json(["knowledge", "list", "--tag", "a\u{200B}b"])
    #expect((zeroWidth["items"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Zero width"])
    let invisibleOnly = try cli.run(["knowledge", "list", "--tag", "\u{200B}"])
    #expect(invisibleOnly.status == 4)
    #expect(invisibleOnly.stderr.contains("--tag must not be empty"), "\(invisibleOnly.stderr)")
  }

  @Test("knowledge list --tag that matches nothing says why, naming the tag, in text and JSON")
  func listTagEmptyReason() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "decision", "Deploy on Fridays is forbidden", "--tags", "ops"]).status == 0)
    let text = try cli.run(["knowledge", "list", "--tag", "NoSuchTag"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout == "0 item(s) shown of 0 matching\nNo items: no knowledge item carries the tag 'nosuchtag'.\n")
    let kinds = try cli.run(["knowledge", "list", "--tag", "ops", "--kind", "fact"])
    #expect(kinds.stdout.contains("No items: no knowledge item of kind fact carries the tag 'ops' (items of other kinds do).\n"))
    let json = try cli.json(["knowledge", "list", "--tag", "nosuchtag"])
    #expect(Set(json.keys) == ["items", "count", "total", "truncated", "emptyReason"])
    #expect((json["items"] as? [Any])?.isEmpty == true)
    #expect(json["count"] as? Int == 0 && json["total"] as? Int == 0)
    #expect(json["emptyReason"] as? String == "noItemWithTag")
    // A list that finds something keeps the shape it had, with no reason.
    let found = try cli.json(["knowledge", "list", "--tag", " OPS "])
    #expect(Set(found.keys) == ["items", "count", "total", "truncated"])
    #expect((found["items"] as? [[String: Any]])?.first?["title"] as? String == "Deploy on Fridays is forbidden")
    let listed = try cli.run(["knowledge", "list", "--tag", "ops"])
    #expect(!listed.stdout.contains("No items"))
  }

  @Test("knowledge list in a workspace with no knowledge says so and how to add some")
  func listEmptyWorkspace() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["task", "add", "Not knowledge"]).status == 0)
    let text = try cli.run(["knowledge", "list"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout == "0 item(s) shown of 0 in the workspace\nNo items: the workspace has no knowledge items yet; `dolphin capture KIND TITLE --workspace \(cli.workspace)` adds one.\n")
    let tagged = try cli.run(["knowledge", "list", "--tag", "a,b"])
    #expect(tagged.stdout == "0 item(s) shown of 0 matching\nNo items: the workspace has no knowledge items yet; `dolphin capture KIND TITLE --workspace \(cli.workspace)` adds one.\n")
    let json = try cli.json(["knowledge", "list"])
    #expect((json["items"] as? [Any])?.isEmpty == true && json["total"] as? Int == 0)
    #expect(json["emptyReason"] as? String == "noKnowledge")
  }

  /// A command whose empty result the tag caused, or did not, and the line that explains it.
  struct TagHintCase: CustomStringConvertible, Sendable {
    var name: String
    var args: [String]
    var line: String
    var description: String { name }
  }

  static let tagHintCases: [TagHintCase] = [
    TagHintCase(
      name: "search --tag a,b", args: ["search", "deploy", "--tag", "ops,infra"],
      line: "No results: no knowledge item carries the tag 'ops,infra' (--tag takes one tag; 'ops,infra' was read as a single tag)."),
    TagHintCase(
      name: "knowledge list --tag A,B", args: ["knowledge", "list", "--tag", "Ops,Infra"],
      line: "No items: no knowledge item carries the tag 'ops,infra' (--tag takes one tag; 'ops,infra' was read as a single tag)."),
    TagHintCase(
      name: "knowledge list --kind --tag a,b", args: ["knowledge", "list", "--kind", "fact", "--tag", "ops,infra"],
      line: "No items: no knowledge item carries the tag 'ops,infra' (--tag takes one tag; 'ops,infra' was read as a single tag)."),
    TagHintCase(
      name: "search --tag without a comma", args: ["search", "deploy", "--tag", "nosuchtag"],
      line: "No results: no knowledge item carries the tag 'nosuchtag'."),
    TagHintCase(
      name: "knowledge list --tag without a comma", args: ["knowledge", "list", "--tag", "nosuchtag"],
      line: "No items: no knowledge item carries the tag 'nosuchtag'."),
    TagHintCase(
      name: "search --tag a,b whose words match nothing either: the tag first, then the words",
      args: ["search", "zyxwvut", "--tag", "ops,infra"],
      line:
        "No results: no knowledge item carries the tag 'ops,infra' (--tag takes one tag; 'ops,infra' was read as a single tag); 'zyxwvut' (or a close spelling of it) occurs in no knowledge item."
    ),
    TagHintCase(
      name: "search --tag that some item carries, whose words match nothing: the words are the cause",
      args: ["search", "zyxwvut", "--tag", "ops"],
      line: "No results: 'zyxwvut' (or a close spelling of it) occurs in no knowledge item."),
  ]

  @Test("an empty result filtered by a --tag with a comma says --tag takes one tag", arguments: tagHintCases)
  func commaTagHint(_ c: TagHintCase) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "decision", "Deploy on Fridays is forbidden", "--tags", "ops,infra"]).status == 0)
    // Both parts are stored tags, yet `ops,infra` is one tag: matching does not change.
    let r = try cli.run(c.args)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.split(separator: "\n").map(String.init).contains(c.line), "\(r.stdout)")
    #expect(r.stdout.contains("--tag takes one tag") == c.line.contains("--tag takes one tag"), "\(r.stdout)")
    let json = try cli.json(c.args)
    #expect(json["emptyReason"] is String)
    #expect((json["items"] ?? json["results"]) as? [Any] != nil)
    #expect(((json["items"] ?? json["results"]) as? [Any])?.isEmpty == true)
  }

  @Test("search --explain says how each query term matched, word forms and typos named")
  func explainNamesVariants() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Diagnosis notes"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Diagnostic checklist"]).status == 0)
    let r = try cli.run(["search", "diagnosis handof", "--explain"])
    #expect(r.status == 0, "\(r.stderr)")
    // The stem, then the word typed.
    #expect(r.stdout.contains("term diagnosi (diagnosis): exact; word forms: diagnost"))
    #expect(r.stdout.contains("term handof: no match"))
    #expect(r.stdout.contains("matched stems: diagnost"))
    // A word the workspace lacks is searched through its close spellings, named as such.
    let absent = try cli.run(["search", "diagnostik", "--explain"])
    #expect(absent.stdout.contains("term diagnostik: absent; close spellings → "), "\(absent.stdout)")
    #expect(!absent.stdout.contains("common words not searched"), "\(absent.stdout)")
    // The common words left out are named beside the terms.
    let common = try cli.run(["search", "The diagnosis of the", "--explain"])
    #expect(common.stdout.contains("common words not searched: The, of"), "\(common.stdout)")
  }

  @Test("search --explain names other British or American spellings, and both typed are one term")
  func explainNamesSpellings() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Tumor registry export"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Colour contrast audit"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Color palette chosen"]).status == 0)
    let absent = try cli.run(["search", "tumour", "--explain"])
    #expect(absent.status == 0, "\(absent.stderr)")
    #expect(absent.stdout.contains("term tumour: absent; other spellings → tumor"), "\(absent.stdout)")
    let both = try cli.run(["search", "colour color", "--explain"])
    #expect(both.stdout.contains("term colour (colour, color): exact; other spellings: color"), "\(both.stdout)")
    #expect(both.stdout.contains("2 shown of 2"), "\(both.stdout)")
    let json = try cli.run(["search", "randomised colour", "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let terms = object?["terms"] as? [[String: Any]]
    #expect(terms?.first?["words"] as? [String] == ["randomised"])
    #expect(terms?.last?["spellings"] as? [String] == ["color"])
    #expect(terms?.last?["numberForms"] as? [String] == [])
  }

  @Test("search --explain names the other number of an irregular noun as such, not as a spelling")
  func explainNamesNumber() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Knockout mice cohort"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Mouse husbandry checklist"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Sensitivity analyses"]).status == 0)
    let exact = try cli.run(["search", "mouse", "--explain"])
    #expect(exact.stdout.contains("term mous (mouse): exact; other number: mice"), "\(exact.stdout)")
    #expect(exact.stdout.contains("2 shown of 2"), "\(exact.stdout)")
    let absent = try cli.run(["search", "analysis", "--explain"])
    #expect(absent.stdout.contains("term analysi (analysis): absent; other number → analys"), "\(absent.stdout)")
    let json = try cli.run(["search", "mouse", "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let terms = object?["terms"] as? [[String: Any]]
    #expect(terms?.first?["spellings"] as? [String] == ["mice"])
    #expect(terms?.first?["numberForms"] as? [String] == ["mice"])
  }

  @Test("search --explain shows the query words as typed; matching still folds them")
  func explainShowsWordsAsTyped() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Colour contrast audit", "--content", "TNF-alpha levels"]).status == 0)
    let r = try cli.run(["search", "COLOURS TNF-α", "--explain"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("1 shown of 1"), "\(r.stdout)")
    #expect(r.stdout.contains("term colour (COLOURS): exact"), "\(r.stdout)")
    #expect(r.stdout.contains("term tnf (TNF): exact"), "\(r.stdout)")
    #expect(r.stdout.contains("term alpha (α): exact"), "\(r.stdout)")
    #expect(!r.stdout.contains("(colours)"), "\(r.stdout)")
    // A word typed as its term is not repeated.
    let plain = try cli.run(["search", "audit", "--explain"])
    #expect(plain.stdout.contains("term audit: exact\n"), "\(plain.stdout)")
    // JSON keeps `words` (the folded forms that are matched) and adds `typedWords`.
    let json = try cli.json(["search", "COLOURS TNF-α"])
    let terms = try #require(json["terms"] as? [[String: Any]])
    #expect(terms.map { $0["term"] as? String } == ["colour", "tnf", "alpha"])
    #expect(terms.map { $0["words"] as? [String] } == [["colours"], ["tnf"], ["alpha"]])
    #expect(terms.map { $0["typedWords"] as? [String] } == [["COLOURS"], ["TNF"], ["α"]])
  }

  @Test("search --explain says a word was cut at 64 characters however its term matched")
  func explainSaysCutForEveryMatch() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let stored = String(repeating: "a", count: 64)
    #expect(try cli.run(["capture", "fact", "Long token", "--content", stored + " is a hash"]).status == 0)
    let note = "(on its first 64 characters; longer words are cut there)"
    /// The explain line of the query term `term`.
    func line(_ query: String, _ term: String) throws -> String {
      let r = try cli.run(["search", query, "--explain"])
      #expect(r.status == 0, "\(r.stderr)")
      return r.stdout.split(separator: "\n").first { $0.hasPrefix("term \(term)") }.map(String.init) ?? r.stdout
    }
    // Absent from the workspace, matched through close spellings.
    let typo = String(repeating: "a", count: 63) + "b"
    let fuzzy = try line(typo + "cccccc", typo)
    #expect(fuzzy.hasSuffix(": absent \(note); close spellings → \(stored)"), "\(fuzzy)")
    // Absent, and nothing close.
    let unknown = String(repeating: "q", count: 64)
    let none = try line(unknown + "qq", unknown)
    #expect(none.hasSuffix(": no match \(note)"), "\(none)")
    // Exact, as before; and a word of exactly 64 is whole, whatever the match.
    let exact = try line(stored + "zz", stored)
    #expect(exact.hasSuffix(": exact \(note)"), "\(exact)")
    let whole = try line(unknown, unknown)
    #expect(whole == "term \(unknown): no match", "\(whole)")
  }

  @Test("--json prints exactly one JSON document, also for errors")
  func jsonErrors() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["knowledge", "get", "nope", "--json"])
    #expect(r.status == 4)
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let err = try #require(obj["error"] as? [String: Any])
    #expect(err["kind"] as? String == "validation")
    #expect(err["exitCode"] as? Int == 4)
  }

  @Test("stored terminal escape sequences are printed inert")
  func escapesAreInert() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let evil = "Title \u{1B}]0;pwned\u{07} and \u{1B}[31mred\u{1B}[0m \u{9B}2J"
    let r = try cli.run(["capture", "fact", evil])
    #expect(r.status == 0, "\(r.stderr)")
    let list = try cli.run(["knowledge", "list"])
    #expect(!list.stdout.contains("\u{1B}"))
    #expect(!list.stdout.contains("\u{9B}"))
    #expect(!list.stdout.contains("\u{07}"))
  }

  @Test("content from stdin and from a file")
  func contentSources() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let a = try cli.run(["capture", "context", "Standup", "--content", "-", "--json"], stdin: "from stdin\nline 2")
    #expect(a.stdout.contains("from stdin\\nline 2"))
    let file = cli.dir.appending("c.txt")
    try "from a file".write(to: file, atomically: true, encoding: .utf8)
    let b = try cli.run(["capture", "context", "Notes", "--content-file", file.path, "--json"])
    #expect(b.stdout.contains("\"content\" : \"from a file\""))
  }

  @Test("memories mirror into knowledge with their provenance; deleting shows the mirror")
  func memories() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let s = try cli.json(["memory", "save", "Prefers SwiftUI over UIKit", "--tags", "ui"])
    let mirror = try #require(s["mirror"] as? [String: Any])
    let memory = try #require(s["memory"] as? [String: Any])
    #expect(mirror["source"] as? String == "legacyMemory")
    #expect(mirror["memoryID"] as? String == memory["id"] as? String)
    #expect(memory["knowledgeID"] as? String == mirror["id"] as? String)
    let list = try cli.run(["knowledge", "list"])
    #expect(list.stdout.contains("\"Prefers SwiftUI over UIKit\"  [ui]  (legacy memory)"))
    let mid = try #require(memory["id"] as? String)
    let del = try cli.run(["memory", "delete", mid, "--yes"])
    #expect(del.stdout.contains("delete its knowledge mirror \(mirror["id"] as? String ?? "?") \"Prefers SwiftUI over UIKit\""), "\(del.stdout)")
    #expect(try cli.json(["knowledge", "list"])["total"] as? Int == 0)
  }

  @Test("tasks: add, complete, reopen, list and delete")
  func tasks() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let t = try cli.record("task", ["task", "add", "Write the README", "--priority", "high"])
    let id = try #require(t["id"] as? String)
    #expect(try cli.record("task", ["task", "complete", id])["status"] as? String == "completed")
    #expect(try cli.record("task", ["task", "reopen", id])["status"] as? String == "open")
    let list = try cli.run(["task", "list", "--status", "open"])
    #expect(list.stdout.contains("[ ] \(id)  \"Write the README\" (high)"))
    #expect(try cli.json(["task", "list", "--status", "open"])["count"] as? Int == 1)
    #expect(try cli.json(["task", "list", "--status", "open"])["total"] as? Int == 1)
    let found = try cli.json(["task", "search", "readme", "--limit", "1"])
    #expect(found["total"] as? Int == 1 && found["truncated"] as? Bool == false)
    // Named as `search --json` names it (review, s13: task search had no algorithmVersion).
    #expect(found["mode"] as? String == "hybrid-lexical" && found["algorithmVersion"] as? String == "hybrid-lexical-v1")
    #expect(try cli.run(["task", "search", "readme"]).stdout.hasPrefix("mode: hybrid-lexical (hybrid-lexical-v1) · 1 shown of 1 matching task(s)\n"))
    #expect(try cli.run(["task", "delete", id, "--yes"]).status == 0)
    #expect(try cli.json(["task", "list"])["tasks"] as? [Any] != nil)
    #expect((try cli.json(["task", "list"])["tasks"] as? [Any])?.count == 0)
    #expect(try cli.json(["task", "list"])["count"] as? Int == 0)
  }

  @Test("completing a completed task changes nothing and says so: exit 0, the first completion time, alreadyCompleted")
  func completeTwice() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try #require(try cli.record("task", ["task", "add", "Write the README"])["id"] as? String)
    let first = try cli.json(["task", "complete", id])
    #expect((first["task"] as? [String: Any])?["status"] as? String == "completed")
    #expect(first["alreadyCompleted"] as? Bool == false)
    let completedAt = try #require((first["task"] as? [String: Any])?["completedAt"] as? String)

    let again = try cli.run(["task", "complete", id])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout == "[x] \(id)  \"Write the README\"\nTask already completed at \(completedAt); nothing changed.\n")
    let json = try cli.json(["task", "complete", id])
    #expect(json["alreadyCompleted"] as? Bool == true)
    let task = try #require(json["task"] as? [String: Any])
    #expect(task["completedAt"] as? String == completedAt, "the completion time is kept")
    #expect(task["id"] as? String == id && task["status"] as? String == "completed" && task["title"] as? String == "Write the README")
    #expect(!(try cli.run(["task", "reopen", id]).stdout.contains("already")))
    #expect(!(try cli.run(["task", "complete", id]).stdout.contains("already")), "a reopened task is completed again")
  }

  @Test("reopening an open task changes nothing and says so: exit 0, alreadyOpen")
  func reopenOpen() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try #require(try cli.record("task", ["task", "add", "Write the README"])["id"] as? String)
    let again = try cli.run(["task", "reopen", id])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout == "[ ] \(id)  \"Write the README\"\nTask already open; nothing changed.\n")
    let json = try cli.json(["task", "reopen", id])
    #expect(json["alreadyOpen"] as? Bool == true)
    let task = try #require(json["task"] as? [String: Any])
    #expect(task["id"] as? String == id && task["status"] as? String == "open" && task["title"] as? String == "Write the README")
    _ = try cli.json(["task", "complete", id])
    let reopened = try cli.json(["task", "reopen", id])
    #expect(reopened["alreadyOpen"] as? Bool == false)
    #expect((reopened["task"] as? [String: Any])?["status"] as? String == "open")
    #expect(try cli.run(["task", "reopen", id]).stdout.contains("already open"), "a reopened task is open")
  }

  @Test("memory list --limit says how many are shown of how many, in text and JSON")
  func memoryListShownOfTotal() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for i in 1...4 { #expect(try cli.run(["memory", "save", "Memory number \(i)"]).status == 0) }
    let text = try cli.run(["memory", "list", "--limit", "3"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout.hasPrefix("3 memory(ies) shown of 4 in the workspace (the first 3; 1 left out, --limit N lists up to 10000)\n"),
      "\(text.stdout)")
    #expect(text.stdout.split(separator: "\n").count == 4)
    #expect(try cli.run(["memory", "list"]).stdout.hasPrefix("4 memory(ies) shown of 4 in the workspace\n"))
    let json = try cli.json(["memory", "list", "--limit", "3"])
    #expect((json["memories"] as? [Any])?.count == 3)
    #expect(json["count"] as? Int == 3)
    #expect(json["total"] as? Int == 4)
  }

  @Test("every fifth capture stores a digest, the fourth does not")
  func autoDigest() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for i in 1...4 {
      let r = try cli.json(["capture", "fact", "Fact \(i)"])
      #expect(r["digestID"] == nil)
    }
    let fifth = try cli.json(["capture", "fact", "Fact 5"])
    #expect(fifth["digestID"] as? String != nil)
    let status = try cli.json(["status"])
    #expect((status["counts"] as? [String: Any])?["digest"] as? Int == 1)
  }

  @Test("status and doctor on a healthy workspace")
  func statusAndDoctor() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.run(["capture", "fact", "x"])
    let s = try cli.run(["status"])
    #expect(s.stdout.contains("Schema:    v5"))
    #expect(s.stdout.contains("Knowledge: 1 of 10000"))
    let d = try cli.run(["doctor"])
    #expect(d.status == 0)
    #expect(d.stdout.contains("PRAGMA integrity_check: ok"))
  }

  @Test("doctor on a damaged database explains recovery and leaves the file alone")
  func doctorDamaged() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try FileManager.default.createDirectory(atPath: cli.workspace, withIntermediateDirectories: true)
    let db = URL(fileURLWithPath: cli.workspace).appendingPathComponent("workspace.sqlite")
    let junk = Data("this is not sqlite".utf8) + Data(repeating: 7, count: 5000)
    try junk.write(to: db)
    let d = try cli.run(["doctor"])
    #expect(d.status == 5)
    #expect(d.stdout.contains("file is not a database"))
    #expect(d.stdout.contains(".recover"))
    let c = try cli.run(["capture", "fact", "x"])
    #expect(c.status == 5)
    #expect(c.stderr.contains(db.path))
    #expect(try Data(contentsOf: db) == junk)
  }

  @Test("the demo runs the main job on its own workspace and does not duplicate on a second run")
  func demoIsIdempotent() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let demoDir = cli.dir.appending("demo").path
    let first = try runDolphin(["demo", "--workspace", demoDir])
    #expect(first.status == 0, "\(first.stderr)")
    let out = first.stdout
    #expect(out.contains("Demo workspace: \(demoDir)"))
    #expect(out.contains("1. Captured 7 knowledge item(s) (0 already present)"))
    #expect(out.contains("3. Heuristic code analysis of "))
    #expect(out.contains("4. dolphin search \"sqlite storage\" — mode hybrid-lexical (hybrid-lexical-v1)"))
    #expect(out.contains("  decision  \"Store each workspace in one SQLite database\""))
    #expect(out.contains("5. Project digest (rule-based, every line with its evidence ids):"))
    #expect(out.contains("6. Created handoff "))
    #expect(out.contains("7. Restored in a fresh process"))
    #expect(out.contains("Restoring only marked this handoff active. Nothing was re-run"))
    // Every evidence id the digest shows resolves to a stored record.
    let list = try runDolphin(["knowledge", "list", "--json", "--workspace", demoDir])
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
    let ids = Set((obj["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
    let tasks = try runDolphin(["task", "list", "--json", "--workspace", demoDir])
    let taskIDs = Set(((try JSONSerialization.jsonObject(with: Data(tasks.stdout.utf8)) as? [String: Any])?["tasks"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
    let digestSection = out.components(separatedBy: "5. Project digest")[1].components(separatedBy: "6. ")[0]
    let cited = digestSection.matches(of: /[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/).map { String($0.output) }
    #expect(!cited.isEmpty)
    #expect(cited.allSatisfy { ids.contains($0) || taskIDs.contains($0) })
    let second = try runDolphin(["demo", "--workspace", demoDir])
    #expect(second.stdout.contains("1. Captured 0 knowledge item(s) (7 already present)"))
    #expect(second.stdout.contains("6. Handoff already present"))
    // The same sources give the same figures: the stored review is left as it is.
    #expect(!second.stdout.contains("Revised the stored review"))
    let again = try #require(try JSONSerialization.jsonObject(with: Data(runDolphin(["knowledge", "list", "--json", "--workspace", demoDir]).stdout.utf8)) as? [String: Any])
    #expect(again["total"] as? Int == obj["total"] as? Int)
  }

  /// Review 28-c, 7: three tasks added in one millisecond were listed, and carried by the
  /// handoff, in the order of their random ids; the review item was stored unannounced.
  @Test("two fresh demos print the same, ids, dates and paths aside, and name the review item they store")
  func demoIsDeterministic() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    func run(_ name: String) throws -> String {
      let dir = cli.dir.appending(name).path
      let r = try runDolphin(["demo", "--workspace", dir])
      #expect(r.status == 0, "\(r.stderr)")
      return r.stdout.replacingOccurrences(of: dir, with: "DIR")
        .replacing(/[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/, with: "ID")
        .replacing(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/, with: "DATE")
        .replacing(/\d+ (second|minute|hour|day)s? ago/, with: "AGO")
    }
    let runs = try (1...3).map { try run("demo\($0)") }
    #expect(runs[0] == runs[1] && runs[1] == runs[2], "\(runs[0])\n---\n\(runs[1])\n---\n\(runs[2])")
    let tasks = try #require(runs[0].components(separatedBy: "2. Tasks (3 added):\n").last)
    let lines = tasks.split(separator: "\n").prefix(3).map(String.init)
    #expect(lines.count == 3 && lines[0].contains("Benchmark hybrid-lexical search") && lines[1].contains("Register dolphin mcp")
      && lines[2].contains("Review the threat model"), "\(lines)")
    if runs[0].contains("3. Heuristic code analysis of ") {
      #expect(runs[0].contains("   Stored the review: ID  code       \"Heuristic review of"), "\(runs[0])")
    }
  }

  @Test("the demo refuses to write into the user's default workspace")
  func demoRefusesOwnWorkspace() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let home = cli.dir.appending("home").path
    let own = home + "/dolphin"
    let r = try runDolphin(["demo", "--workspace", own], environment: ["DOLPHIN_HOME": own])
    #expect(r.status == 4)
    #expect(r.stderr.contains("is your default workspace"))
    #expect(r.stderr.contains(home + "/dolphin-demo"))
    #expect(!FileManager.default.fileExists(atPath: own + "/workspace.sqlite"))
  }

  @Test("the demo refuses a workspace holding the user's records and leaves them, and their active handoff, as they were")
  func demoRefusesUserWorkspace() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require((try cli.json(["capture", "decision", "Keep my notes here"])["item"] as? [String: Any])?["id"] as? String)
    let h = try #require((try cli.json(["handoff", "create", "--focus", "My own session", "--knowledge", k])["handoff"] as? [String: Any])?["id"] as? String)
    #expect(try cli.run(["handoff", "restore", h]).status == 0)
    func snapshot() throws -> AssistantWorkspace {
      try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: cli.workspace)).read { tx in try tx.snapshot() }
    }
    let before = try snapshot()
    let home = cli.dir.appending("home").path
    let r = try runDolphin(["demo", "--workspace", cli.workspace], environment: ["DOLPHIN_HOME": home + "/dolphin"])
    #expect(r.status == 4, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.isEmpty)
    #expect(
      r.stderr == "dolphin: error: --workspace \(cli.workspace): it holds records the demo did not write "
        + "(knowledge 1, handoff 1; e.g. knowledge item 'Keep my notes here'); the demo needs an empty or new workspace (or one only an earlier demo wrote to), "
        + "so that its records and its active handoff never mix with yours. Nothing was written. "
        + "Omit --workspace to use \(home)/dolphin-demo, or name a new directory\n")
    let status = try cli.json(["status"])
    #expect(status["activeHandoffID"] as? String == h)
    #expect((status["counts"] as? [String: Any])?["knowledge"] as? Int == 1)
    #expect(try snapshot() == before)
    // A directory holding a legacy workspace.json is the user's too.
    let legacy = cli.dir.appending("legacy")
    try FileManager.default.createDirectory(atPath: legacy.path, withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: legacy.appendingPathComponent("workspace.json"))
    let l = try runDolphin(["demo", "--workspace", legacy.path, "--json"])
    #expect(l.status == 4)
    #expect(l.stderr.contains("--workspace \(legacy.path): it holds a legacy workspace.json; the demo needs an empty or new workspace"))
    #expect(!FileManager.default.fileExists(atPath: legacy.appendingPathComponent("workspace.sqlite").path))
  }

  @Test("the demo's refusal counts only the records it did not write and names the first")
  func demoRefusalCountsForeignRecordsOnly() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let demoDir = cli.dir.appending("demo").path
    let first = try runDolphin(["demo", "--workspace", demoDir])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(try runDolphin(["task", "add", "mine", "--workspace", demoDir]).status == 0)
    let second = try runDolphin(["demo", "--workspace", demoDir])
    #expect(second.status == 4)
    #expect(second.stderr.contains("it holds records the demo did not write (task 1; e.g. task 'mine'); "), "\(second.stderr)")
    #expect(!second.stderr.contains("knowledge"))
  }

  @Test("the demo refuses a non-empty directory that holds no workspace, and creates nothing there")
  func demoRefusesNonEmptyDirectory() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let tree = cli.dir.appending("tree")
    try FileManager.default.createDirectory(at: tree.appendingPathComponent("Sources"), withIntermediateDirectories: true)
    try Data("# readme".utf8).write(to: tree.appendingPathComponent("README.md"))
    let r = try runDolphin(["demo", "--workspace", tree.path])
    #expect(r.status == 4)
    #expect(
      r.stderr.contains(
        "--workspace \(tree.path): it is a directory that is not empty and holds no workspace (2 entries, e.g. 'README.md'); "
          + "the demo needs an empty or new workspace"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: tree.appendingPathComponent("workspace.sqlite").path))
    // An empty directory is fine.
    let empty = cli.dir.appending("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let ok = try runDolphin(["demo", "--workspace", empty.path])
    #expect(ok.status == 0, "\(ok.stderr)")
  }

  @Test("`dolphin demo` with no arguments uses its own workspace beside the default one, and runs twice")
  func demoOwnWorkspaceTwice() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let home = cli.dir.appending("home").path
    let env = ["DOLPHIN_HOME": home + "/dolphin"]
    let first = try runDolphin(["demo"], environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.hasPrefix("Demo workspace: \(home)/dolphin-demo\n"))
    // Reads leave nothing behind, so the demo's own records alone let it run again.
    #expect(try runDolphin(["search", "handoff", "--workspace", home + "/dolphin-demo"]).status == 0)
    let second = try runDolphin(["demo"], environment: env)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.contains("1. Captured 0 knowledge item(s) (7 already present)"))
    let third = try runDolphin(["demo", "--workspace", home + "/dolphin-demo"], environment: env)
    #expect(third.status == 0, "\(third.stderr)")
    #expect(!FileManager.default.fileExists(atPath: home + "/dolphin"))
  }

  /// Review 23-a, 4: the demo's own workspace was let through whatever it held, so a second
  /// `dolphin demo` made the demo's handoff active again over the user's "My own work".
  @Test("`dolphin demo` refuses its own workspace once it holds records of the user's, and leaves them and their active handoff")
  func demoOwnWorkspaceWithUserRecords() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let home = cli.dir.appending("home").path
    let env = ["DOLPHIN_HOME": home + "/ws"]
    let w = home + "/dolphin-demo"
    #expect(try runDolphin(["demo"], environment: env).status == 0)
    let created = try runDolphin(["handoff", "create", "--focus", "My own work", "--activate", "--workspace", w, "--json"])
    let mine = try #require(
      ((try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])?["handoff"] as? [String: Any])?["id"]
        as? String, "\(created.stderr)")
    #expect(try runDolphin(["task", "add", "my own task", "--workspace", w]).status == 0)
    #expect(try runDolphin(["capture", "fact", "mine", "--workspace", w]).status == 0)
    func snapshot() throws -> AssistantWorkspace {
      try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: w)).read { tx in try tx.snapshot() }
    }
    let before = try snapshot()
    for arguments in [["demo"], ["demo", "--workspace", w]] {
      let r = try runDolphin(arguments, environment: env)
      #expect(r.status == 4, "\(arguments): \(r.stdout)\(r.stderr)")
      #expect(r.stdout.isEmpty, "\(r.stdout)")
      #expect(
        r.stderr == "dolphin: error: the demo's workspace \(w): it holds records the demo did not write (knowledge 1, task 1, "
          + "handoff 1; e.g. knowledge item 'mine'); the demo needs an empty or new workspace (or one only an earlier demo "
          + "wrote to), so that its records and its active handoff never mix with yours. Nothing was written. Name a new "
          + "directory with --workspace DIR, or, once your records there are kept elsewhere (`dolphin export --output FILE "
          + "--workspace \(w)`), remove \(w) to start the demo afresh\n", "\(r.stderr)")
    }
    #expect(try snapshot() == before)
    #expect(before.activeHandoffID?.uuidString == mine)
  }

  @Test("`dolphin demo` with DOLPHIN_HOME ending in /. or /.. still puts its workspace beside it, not inside")
  func demoBesideAStandardizedHome() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let home = cli.dir.appending("home").path
    try FileManager.default.createDirectory(atPath: home + "/dolphin/sub", withIntermediateDirectories: true)
    for (given, beside) in [(home + "/dolphin/.", home), (home + "/dolphin/sub/..", home)] {
      let r = try runDolphin(["demo"], environment: ["DOLPHIN_HOME": given])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.hasPrefix("Demo workspace: \(beside)/dolphin-demo\n"), "\(given): \(r.stdout.prefix(200))")
    }
    #expect(!FileManager.default.fileExists(atPath: home + "/dolphin/dolphin-demo"))
  }

  @Test("two concurrent loops of 200 captures keep all 400 and a clean database, the first two racing to create it")
  func concurrentCaptures() async throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    // No workspace yet: the loops' first captures both create it (one of them used to fail
    // with "cannot create: File exists").
    let ws = cli.workspace
    try await withThrowingTaskGroup(of: [String].self) { group in
      for loop in 0..<2 {
        group.addTask {
          // Each failed capture as `i: status: stderr`, so a failure says why.
          var failures: [String] = []
          for i in 0..<200 {
            let r = try runDolphin(["capture", "fact", "loop \(loop) capture \(i)", "--workspace", ws])
            if r.status != 0 { failures.append("\(i): \(r.status): \(r.stderr)") }
          }
          return failures
        }
      }
      for try await failures in group { #expect(failures.isEmpty, "\(failures)") }
    }
    let list = try cli.json(["knowledge", "list", "--limit", "1000"])
    let titles = Set((list["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String })
    #expect(titles.count == 400)
    #expect(try cli.run(["doctor"]).stdout.contains("PRAGMA integrity_check: ok"))
    #expect((try cli.json(["status"])["counts"] as? [String: Any])?["digest"] as? Int == 50)
  }
}

@Suite("dolphin migrate", .serialized)
struct MigrateCommandTests {
  static let fixtures = repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy")

  @Test("migrate imports a legacy file once and reports what it did")
  func migrate() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let file = Self.fixtures.appendingPathComponent("workspace-v4.json")
    let r = try cli.run(["migrate", file.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Imported legacy schema v4 from \(file.path):"))
    let again = try cli.run(["migrate", file.path])
    #expect(again.stdout.contains("was imported before on ") && again.stdout.contains("; nothing changed."), "\(again.stdout)")
    let refused = try cli.run(["migrate", Self.fixtures.appendingPathComponent("workspace-v99.json").path])
    #expect(refused.status == 4)
    #expect(refused.stderr.contains("99"))
  }

  /// Review (s16): the quarantined settings were named `settings[-]` by migrate and
  /// `settings[-1]` by quarantine; the settings are one record without a place in a list.
  @Test("quarantined legacy settings are named alike by migrate and quarantine, without an index")
  func quarantinedSettingsNamed() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    var legacy = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("workspace-v1.json"))) as? [String: Any])
    legacy["settings"] = ["assistantName": "", "responseStyle": "loud", "calendarAccessEnabled": false]
    let file = cli.dir.appending("badsettings.json")
    try JSONSerialization.data(withJSONObject: legacy).write(to: file)
    let r = try cli.run(["migrate", file.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("  quarantined settings: "), "\(r.stdout)")
    #expect(!r.stdout.contains("settings[-"), "\(r.stdout)")
    let q = try cli.run(["quarantine"])
    #expect(q.stdout.contains("badsettings.json settings: "), "\(q.stdout)")
    #expect(!q.stdout.contains("settings[-"), "\(q.stdout)")
  }

  /// Review 28-c, 13: `quarantine` printed every entry, and --json every raw record whole, with
  /// `truncated` always false.
  @Test("quarantine lists the latest 50 by default, --limit N the latest N, in file order, and says how many it left out")
  func quarantineIsBounded() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let memories = (0..<60).map { i -> [String: Any] in
      ["id": "not-a-uuid-\(i)", "text": "bad \(i)", "createdAt": "2025-01-06T09:20:00Z"]
    }
    let file = cli.dir.appending("legacy.json")
    try JSONSerialization.data(withJSONObject: ["conversations": [], "memories": memories]).write(to: file)
    #expect(try cli.run(["migrate", file.path]).status == 0)
    let text = try cli.run(["quarantine"])
    #expect(
      text.stdout.hasPrefix("50 of 60 quarantined record(s) shown (the latest 50; 10 earlier left out, --limit N lists up to 100000)"),
      "\(text.stdout)")
    // The latest kept (review 28-d, 2: what the last import set aside was left out), in file order.
    #expect(text.stdout.contains("legacy.json memories[59]:") && !text.stdout.contains("legacy.json memories[9]:"), "\(text.stdout)")
    let tenth = try #require(text.stdout.range(of: "legacy.json memories[10]:"))
    let last = try #require(text.stdout.range(of: "legacy.json memories[59]:"))
    #expect(tenth.lowerBound < last.lowerBound)
    let json = try cli.json(["quarantine", "--limit", "5"])
    #expect(json["count"] as? Int == 5 && json["total"] as? Int == 60 && json["truncated"] as? Bool == true, "\(json)")
    #expect((json["quarantined"] as? [Any])?.count == 5)
    let all = try cli.json(["quarantine", "--limit", "100"])
    #expect(all["count"] as? Int == 60 && all["truncated"] as? Bool == false, "\(all)")
    let bad = try cli.run(["quarantine", "--limit", "0"])
    #expect(bad.status == 4 && bad.stderr.contains("--limit is 0; it must be between 1 and 100000"), "\(bad.stderr)")
  }

  @Test("a workspace.json in the workspace directory is imported by the first command that writes, with a notice on stderr")
  func autoImport() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try FileManager.default.createDirectory(atPath: cli.workspace, withIntermediateDirectories: true)
    let legacy = URL(fileURLWithPath: cli.workspace).appendingPathComponent("workspace.json")
    try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("workspace-v3.json"), to: legacy)
    let original = try Data(contentsOf: legacy)
    // A command that only reads creates nothing, and says how the legacy file gets imported.
    let read = try cli.run(["memory", "list"])
    #expect(read.status == 3)
    #expect(read.stderr.contains("holds a legacy workspace.json, which the first command that stores something imports"), "\(read.stderr)")
    #expect(!FileManager.default.fileExists(atPath: cli.workspace + "/workspace.sqlite"))
    let r = try cli.run(["task", "add", "Check the imported memories"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("dolphin: notice: imported legacy workspace.json (schema v3)"))
    let obj = try cli.json(["memory", "list"])
    #expect((obj["memories"] as? [Any])?.isEmpty == false)
    #expect(try Data(contentsOf: legacy) == original)
    let second = try cli.run(["status"])
    #expect(!second.stderr.contains("imported legacy"))
  }
}
