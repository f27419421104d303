import Foundation
import Testing
import TestSupport

/// The same kind of mistake gets the same exit code from every command: a wrong choice for an
/// enumerated argument is a usage error (2), a missing input path or an id that no record has is
/// "not found" (3).
@Suite("Exit-code consistency", .serialized)
struct ExitCodeConsistencyTests {
  typealias Case = CLICase

  static let priorities = "low, normal, high, critical"
  static let kinds = "decision, goal, preference, fact, insight, context, code"

  /// Every enumerated option (and the enumerated `kind` positional) of every command.
  static let enumerated: [Case] = [
    Case(name: "capture kind", args: ["capture", "bogus", "t"], stderr: "kind 'bogus' is not one of: \(kinds)"),
    Case(name: "capture --priority", args: ["capture", "fact", "t", "--priority", "urgent"], stderr: "--priority 'urgent' is not one of: \(priorities)"),
    Case(name: "knowledge list --kind", args: ["knowledge", "list", "--kind", "bogus"], stderr: "--kind 'bogus' is not one of: \(kinds)"),
    Case(name: "search --kind", args: ["search", "x", "--kind", "bogus"], stderr: "--kind 'bogus' is not one of: \(kinds)"),
    Case(name: "task add --priority", args: ["task", "add", "t", "--priority", "urgent"], stderr: "--priority 'urgent' is not one of: \(priorities)"),
    Case(name: "task list --status", args: ["task", "list", "--status", "x"], stderr: "--status 'x' is not one of: open, completed, all"),
    Case(name: "task search --status", args: ["task", "search", "x", "--status", "x"], stderr: "--status 'x' is not one of: open, completed, all"),
    Case(name: "insights --min-priority", args: ["insights", "--min-priority", "bogus"], stderr: "--min-priority 'bogus' is not one of: \(priorities)"),
    Case(name: "export --format", args: ["export", "--format", "xml"], stderr: "--format 'xml' is not one of: json, markdown"),
    Case(name: "import --on-conflict", args: ["import", "/nonexistent/export.json", "--on-conflict", "bogus"], stderr: "--on-conflict 'bogus' is not one of: refuse, skip, replace"),
    Case(name: "erase --kind", args: ["erase", "--kind", "bogus"], stderr: "--kind 'bogus' is not one of: knowledge, memories, tasks, handoffs, digests, conversations, activity, all"),
    Case(name: "mcp --writes", args: ["mcp", "--writes", "sometimes"], stderr: "--writes 'sometimes' is not one of: ask, allow, deny"),
    Case(name: "analyze --format", args: ["analyze", ".", "--format", "xml"], stderr: "--format 'xml' is not one of: text, json, sarif"),
  ]

  @Test("a wrong choice is a usage error naming the option, the value and the choices", arguments: enumerated)
  func wrongChoice(_ c: Case) throws {
    let dir = TemporaryDirectory("enum")
    defer { dir.remove() }
    let r = try runDolphin(c.args + ["--workspace", dir.appending("ws").path], stdin: "")
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains(c.stderr), "\(r.stderr)")
    #expect(r.stdout.isEmpty)
  }

  /// A bad option value given with `--json`, and the field its error document must name.
  struct FieldCase: CustomStringConvertible, Sendable {
    var name: String
    var args: [String]
    var field: String
    var description: String { name }
  }

  static let fieldCases: [FieldCase] = [
    FieldCase(name: "--limit not a number", args: ["knowledge", "list", "--limit", "abc"], field: "limit"),
    FieldCase(name: "search --limit a fraction", args: ["search", "x", "--limit", "1.5"], field: "limit"),
    FieldCase(name: "memory search --limit not a number", args: ["memory", "search", "x", "--limit", "ten"], field: "limit"),
    FieldCase(name: "--limit without its value", args: ["knowledge", "list", "--limit"], field: "limit"),
    FieldCase(name: "--priority twice", args: ["capture", "fact", "t", "--priority", "low", "--priority", "high"], field: "priority"),
    FieldCase(name: "--priority not a choice", args: ["capture", "fact", "t", "--priority", "urgent"], field: "priority"),
    FieldCase(name: "kind positional not a choice", args: ["capture", "bogus", "t"], field: "kind"),
    FieldCase(name: "--status not a choice", args: ["task", "list", "--status", "x"], field: "status"),
    FieldCase(name: "a flag given a value", args: ["knowledge", "list", "--json=yes"], field: "json"),
  ]

  @Test("a bad option value is a usage error whose JSON document names the field, as validation errors do", arguments: fieldCases)
  func usageErrorNamesField(_ c: FieldCase) throws {
    let dir = TemporaryDirectory("field")
    defer { dir.remove() }
    let r = try runDolphin(c.args + ["--json", "--workspace", dir.appending("ws").path], stdin: "")
    #expect(r.status == 2, "\(r.stderr)")
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any],
      "\(r.stdout)")
    #expect(error["kind"] as? String == "usage")
    #expect(error["exitCode"] as? Int == 2)
    #expect(error["field"] as? String == c.field, "\(error)")
    // The range error of the same option names the same field.
    if c.field == "limit" {
      let range = try runDolphin(["knowledge", "list", "--limit", "0", "--json", "--workspace", dir.appending("ws").path])
      let rangeError = (try JSONSerialization.jsonObject(with: Data(range.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any]
      #expect(rangeError?["field"] as? String == "limit", "\(range.stdout)")
    }
  }

  /// A bad `--relates` value: its kind, its id or its shape.
  static let badRelates: [Case] = [
    Case(
      name: "kind not a choice", args: ["likes:3F2504E0-4F89-11D3-9A0C-0305E82C3301"], status: 2,
      stderr: "--relates kind 'likes' is not one of: supports, contradicts, dependsOn, supersedes, relatesTo"),
    Case(name: "id not a UUID", args: ["relatesTo:nonsense"], status: 4, stderr: "--relates id 'nonsense' is not a UUID"),
    Case(name: "no colon", args: ["supports"], status: 4, stderr: "--relates 'supports' must be KIND:UUID"),
  ]

  // Review 18-b (B13) made every bad `--relates` value exit 4; review 19-b (F8): a kind outside
  // the choices is a usage error (2) as every other value outside an option's choices is
  // (`--priority urgent`, `capture factoid`), while a malformed id or shape stays 4, as a
  // malformed id is everywhere. Each names `relationships[i]`.
  @Test("a bad --relates kind exits 2, a bad id or shape 4, naming relationships[0], for capture and knowledge edit", arguments: badRelates)
  func badRelatesValue(_ c: Case) throws {
    let dir = TemporaryDirectory("relates")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let captured = try runDolphin(["capture", "fact", "Target", "--json", "--workspace", ws])
    let id = try #require(((try JSONSerialization.jsonObject(with: Data(captured.stdout.utf8)) as? [String: Any])?["item"] as? [String: Any])?["id"] as? String, "\(captured.stdout)")
    for command in [["capture", "fact", "t"], ["knowledge", "edit", id]] {
      let r = try runDolphin(command + ["--relates"] + c.args + ["--workspace", ws])
      #expect(r.status == c.status, "\(command): \(r.stderr)")
      #expect(r.stderr.contains(c.stderr), "\(r.stderr)")
      let json = try runDolphin(command + ["--relates"] + c.args + ["--json", "--workspace", ws])
      let error = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any]
      #expect(error?["field"] as? String == "relationships[0]", "\(json.stdout)")
      #expect(error?["exitCode"] as? Int == c.status.map(Int.init), "\(json.stdout)")
      #expect(error?["kind"] as? String == (c.status == 2 ? "usage" : "validation"), "\(json.stdout)")
    }
  }

  /// Review 19-b (F8): text that is not UTF-8 exited 2 as an argument and 4 from standard input or
  /// a file. The rule, as README's exit-code table states it: an argument that is not UTF-8 is a
  /// command line dolphin cannot read, a usage error (2, with the argument's `field`); text read
  /// from standard input or a file is input data refused, a validation error (4), as every other
  /// refused input file is.
  @Test("text that is not UTF-8: as an argument exit 2 (usage), from standard input or a file exit 4 (validation)")
  func notUTF8ByChannel() throws {
    let dir = TemporaryDirectory("utf8-channel")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let dolphin = dolphinExecutable().path
    let file = dir.appending("latin1.txt")
    try Data([0x61, 0xFF, 0x62]).write(to: file)
    let cases: [(String, Int32, String, String)] = [
      (#"'\#(dolphin)' capture fact "$(printf 'a\377b')" --json --workspace '\#(ws)'"#, 2, "usage", "title"),
      (#"printf 'a\377b' | '\#(dolphin)' capture fact t --content - --json --workspace '\#(ws)'"#, 4, "validation", "content"),
      ("'\(dolphin)' capture fact t --content-file '\(file.path)' --json --workspace '\(ws)'", 4, "validation", "content"),
      (#"printf 'a\377b' | '\#(dolphin)' task add t --notes - --json --workspace '\#(ws)'"#, 4, "validation", "notes"),
    ]
    for (command, status, kind, field) in cases {
      let r = try runProcess("/bin/sh", ["-c", command])
      #expect(r.status == status, "\(command): \(r.stderr)")
      let error = (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any]
      #expect(error?["kind"] as? String == kind && error?["field"] as? String == field, "\(command): \(r.stdout)")
      #expect((error?["message"] as? String)?.contains("UTF-8") == true, "\(r.stdout)")
    }
    #expect(!FileManager.default.fileExists(atPath: ws))
  }

  @Test("an empty file path for import or migrate is a usage error (exit 2), not a missing file")
  func emptyImportPath() throws {
    let dir = TemporaryDirectory("empty-path")
    defer { dir.remove() }
    for command in ["import", "migrate"] {
      let r = try runDolphin([command, "", "--workspace", dir.appending("ws").path])
      #expect(r.status == 2, "\(command): \(r.stderr)")
      #expect(r.stderr.contains("\(command): the file path is empty"), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir.appending("ws").path))
    }
  }

  /// An empty string where a file path goes, and what the error says.
  struct EmptyPath: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var args: [String]
    var stderr: String
    /// The field the `--json` error names, for an option.
    var field: String?
  }

  static let emptyPaths = [
    EmptyPath(
      testDescription: "capture --content-file", args: ["capture", "fact", "t", "--content-file", ""],
      stderr: "--content-file needs a file path (it was given an empty string)", field: "content-file"),
    EmptyPath(
      testDescription: "capture --content-file=", args: ["capture", "fact", "t", "--content-file="],
      stderr: "--content-file needs a file path (it was given an empty string)", field: "content-file"),
    EmptyPath(
      testDescription: "export --output", args: ["export", "--output", ""],
      stderr: "--output needs a file path (it was given an empty string)", field: "output"),
    EmptyPath(testDescription: "analyze", args: ["analyze", "", "."], stderr: "analyze: a path is empty", field: nil),
  ]

  @Test("an empty file path given to an option or argument is a usage error (exit 2) naming it, not a missing file", arguments: emptyPaths)
  func emptyPath(_ c: EmptyPath) throws {
    let dir = TemporaryDirectory("empty-path")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let r = try runDolphin(c.args + ["--workspace", ws])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr == "dolphin: error: \(c.stderr)\n" || r.stderr.hasPrefix("dolphin: error: \(c.stderr)"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: ws))
    let j = try runDolphin(c.args + ["--json", "--workspace", ws])
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any],
      "\(j.stdout)")
    #expect(error["kind"] as? String == "usage")
    #expect(error["field"] as? String == c.field, "\(error)")
  }

  @Test("choices are matched case-insensitively everywhere")
  func caseInsensitive() throws {
    let dir = TemporaryDirectory("enum-case")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    // Reading commands do not create a workspace: make one first.
    #expect(try runDolphin(["task", "add", "Write the README", "--workspace", ws]).status == 0)
    for args in [["task", "list", "--status", "OPEN"], ["task", "search", "x", "--status", "Completed"], ["export", "--format", "JSON"]] {
      let r = try runDolphin(args + ["--workspace", ws])
      #expect(r.status == 0, "\(args): \(r.stderr)")
    }
  }

  static let missing: [Case] = [
    Case(name: "import", args: ["import", "/nonexistent/export.json"], stderr: "/nonexistent/export.json: no such file or directory. Nothing was imported"),
    Case(name: "migrate", args: ["migrate", "/nonexistent/workspace.json"], stderr: "/nonexistent/workspace.json: no such file or directory. Nothing was imported"),
    Case(name: "capture --content-file", args: ["capture", "fact", "t", "--content-file", "/nonexistent/body.txt"], stderr: "--content-file: /nonexistent/body.txt: no such file or directory"),
    Case(name: "analyze", args: ["analyze", "/nonexistent/Sources"], stderr: "/nonexistent/Sources: no such file or directory"),
    Case(
      name: "export --output in a missing directory", args: ["export", "--output", "/nonexistent/dir/x.json"],
      stderr: "--output: the directory /nonexistent/dir does not exist; nothing was written"),
  ]

  @Test("a missing input path is 'not found' (exit 3)", arguments: missing)
  func missingPath(_ c: Case) throws {
    let dir = TemporaryDirectory("missing")
    defer { dir.remove() }
    let r = try runDolphin(c.args + ["--workspace", dir.appending("ws").path])
    #expect(r.status == 3, "\(r.stderr)")
    #expect(r.stderr.contains(c.stderr), "\(r.stderr)")
  }

  @Test("a directory where a file is expected is refused input (exit 4) by import and migrate alike")
  func directoryAsInputFile() throws {
    let dir = TemporaryDirectory("dir-input")
    defer { dir.remove() }
    let folder = dir.appending("folder")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for command in ["import", "migrate"] {
      let r = try runDolphin([command, folder.path, "--workspace", dir.appending("ws").path])
      #expect(r.status == 4, "\(command): \(r.stderr)")
      #expect(r.stderr.contains("is a directory, not a file"), "\(command): \(r.stderr)")
    }
  }

  @Test("--json error documents carry the same exit codes")
  func jsonErrors() throws {
    let dir = TemporaryDirectory("enum-json")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    for (args, code, kind) in [
      (["export", "--format", "xml"], 2, "usage"), (["import", "/nonexistent/export.json"], 3, "notFound"),
    ] {
      let r = try runDolphin(args + ["--json", "--workspace", ws])
      let err = try #require((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
      #expect(r.status == Int32(code))
      #expect(err["exitCode"] as? Int == code)
      #expect(err["kind"] as? String == kind)
    }
  }

  static let badID = "bad\nid"
  static let notUUID = "'bad\\nid' is not a UUID"

  /// A value with a line break, quoted into the error: it is escaped (`'bad\nid'`), so the error
  /// stays one line and cannot fake a second one.
  static let lineBreaks: [Case] = [
    Case(name: "task reopen", args: ["task", "reopen", badID], status: 4, stderr: notUUID),
    Case(name: "task complete", args: ["task", "complete", badID], status: 4, stderr: notUUID),
    Case(name: "task delete", args: ["task", "delete", badID, "--yes"], status: 4, stderr: notUUID),
    Case(name: "knowledge get", args: ["knowledge", "get", badID], status: 4, stderr: notUUID),
    Case(name: "knowledge delete", args: ["knowledge", "delete", badID, "--yes"], status: 4, stderr: notUUID),
    Case(name: "handoff get", args: ["handoff", "get", badID], status: 4, stderr: notUUID),
    Case(name: "handoff restore", args: ["handoff", "restore", badID], status: 4, stderr: notUUID),
    Case(name: "handoff delete", args: ["handoff", "delete", badID, "--yes"], status: 4, stderr: notUUID),
    Case(name: "memory delete", args: ["memory", "delete", badID, "--yes"], status: 4, stderr: notUUID),
    Case(name: "handoff create --knowledge", args: ["handoff", "create", "--focus", "f", "--knowledge", badID], status: 4, stderr: notUUID),
    Case(name: "knowledge list --kind", args: ["knowledge", "list", "--kind", "fa\nct"], status: 2, stderr: "--kind 'fa\\nct' is not one of"),
    Case(name: "capture kind", args: ["capture", "fa\nct", "t"], status: 2, stderr: "kind 'fa\\nct' is not one of"),
    Case(name: "export --format", args: ["export", "--format", "js\non"], status: 2, stderr: "--format 'js\\non' is not one of"),
    Case(name: "unknown option", args: ["knowledge", "list", "--li\nmit", "3"], status: 2, stderr: "unknown option '--li\\nmit'"),
    Case(name: "unknown command", args: ["kno\nwledge", "list"], status: 2, stderr: "unknown command 'kno\\nwledge'"),
    Case(name: "unknown subcommand", args: ["task", "re\nopen"], status: 2, stderr: "unknown subcommand 're\\nopen'"),
    Case(name: "export --output", args: ["export", "--output", "x\ny/"], status: 3, stderr: "the directory x\\ny/ does not exist"),
  ]

  @Test("a value with a line break is escaped in the error, which stays one line", arguments: lineBreaks)
  func lineBreakInValue(_ c: Case) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["task", "add", "Make the workspace"]).status == 0)
    let r = try cli.run(c.args)
    #expect(r.status == c.status, "\(r.stderr)")
    #expect(r.stderr.contains(c.stderr), "\(r.stderr)")
    #expect(r.stderr.hasPrefix("dolphin: error: ") && r.stderr.filter(\.isNewline).count == 1, "one line: \(r.stderr)")

    // The --json document is valid, and its message is the same one-line text.
    let j = try cli.run(c.args + ["--json"])
    let err = try #require((try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(err["message"] as? String == String(r.stderr.dropFirst("dolphin: error: ".count).dropLast()))
    #expect(err["exitCode"] as? Int == c.status.map(Int.init))
  }

  static let unknownID = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"

  /// Every way to name a record by id, whether as the command's subject or as a reference.
  static let unknownIDs: [Case] = [
    Case(name: "knowledge get", args: ["knowledge", "get", unknownID], stderr: "no knowledge item has the id \(unknownID)"),
    Case(name: "task add --knowledge", args: ["task", "add", "t", "--knowledge", unknownID], stderr: "--knowledge: no knowledge item has the id \(unknownID)"),
    Case(
      name: "handoff create --knowledge", args: ["handoff", "create", "--focus", "f", "--knowledge", unknownID],
      stderr: "--knowledge: no knowledge item has the id \(unknownID)"),
    Case(name: "handoff create --task", args: ["handoff", "create", "--focus", "f", "--task", unknownID], stderr: "--task: no task has the id \(unknownID)"),
    Case(
      name: "capture --relates", args: ["capture", "fact", "t", "--relates", "supports:\(unknownID)"],
      stderr: "--relates: no knowledge item has the id \(unknownID)"),
  ]

  @Test("an id that no record has is 'not found' (exit 3), as the subject or as a reference", arguments: unknownIDs)
  func unknownRecordID(_ c: Case) throws {
    let dir = TemporaryDirectory("unknown-id")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["task", "add", "An existing workspace", "--workspace", ws]).status == 0)
    let r = try runDolphin(c.args + ["--workspace", ws])
    #expect(r.status == 3, "\(r.stderr)")
    #expect(r.stderr.contains(c.stderr), "\(r.stderr)")
    let json = try runDolphin(c.args + ["--json", "--workspace", ws])
    let err = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(json.status == 3)
    #expect(err["kind"] as? String == "notFound")
    #expect(err["exitCode"] as? Int == 3)
  }
}
