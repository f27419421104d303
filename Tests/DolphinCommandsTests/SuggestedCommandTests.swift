import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 24-a, 3 and 7: the commands that messages suggest left out the `--workspace` the user
/// gave, so that pasted as shown they acted on the default workspace (`dolphin migrate
/// W/workspace.json` imported a legacy file into `DOLPHIN_HOME`, `dolphin settings set
/// knowledgeItemLimit N` created it), and paths in them were not quoted for a shell. Each case
/// here runs the suggestion through a real `sh`, as a user pasting it would.
@Suite("suggested commands name the workspace and paste into a shell", .serialized)
struct SuggestedCommandTests {
  /// A workspace path a shell would split or expand unquoted: a space, a quote, a `$`.
  static func awkwardDirectory(_ dir: TemporaryDirectory) throws -> String {
    let parent = dir.appending("sp ace it's $HOME")
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    chmod(parent.path, 0o755)
    return parent.appendingPathComponent("ws").path
  }

  /// The first `dolphin …` command in `text` between backquotes, or after `after` up to the end
  /// of its line.
  static func suggestion(in text: String, after: String? = nil) throws -> String {
    if let after {
      let start = try #require(text.range(of: after), "no \(after) in: \(text)")
      return String(text[start.upperBound...].prefix { $0 != "\n" })
    }
    var rest = text[...]
    while let open = rest.firstIndex(of: "`") {
      let body = rest[rest.index(after: open)...]
      guard let close = body.firstIndex(of: "`") else { break }
      if body[..<close].hasPrefix("dolphin ") { return String(body[..<close]) }
      rest = body[body.index(after: close)...]
    }
    Issue.record("no `dolphin …` suggestion in: \(text)")
    return ""
  }

  /// Runs `command` (starting with `dolphin `) in `sh`, with this build's binary, `DOLPHIN_HOME`
  /// set to `home`.
  static func paste(_ command: String, home: String) throws -> ProcessResult {
    #expect(command.hasPrefix("dolphin "), "\(command)")
    let line = "\"$DOLPHIN\"" + command.dropFirst("dolphin".count)
    return try runProcess(
      "/bin/sh", ["-c", line], environment: ["DOLPHIN": dolphinExecutable().path, "DOLPHIN_HOME": home])
  }

  @Test("status on a folder holding a legacy workspace.json: the migrate hint imports into that folder")
  func legacyHint() throws {
    let dir = TemporaryDirectory("suggest-legacy")
    defer { dir.remove() }
    let ws = try Self.awkwardDirectory(dir)
    try FileManager.default.createDirectory(atPath: ws, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: MigrateCommandTests.fixtures.appendingPathComponent("workspace-v1.json"),
      to: URL(fileURLWithPath: ws + "/workspace.json"))
    let home = dir.appending("home").path
    let status = try runDolphin(["status", "--workspace", ws], environment: ["DOLPHIN_HOME": home])
    #expect(status.status == 3, "\(status.stderr)")
    let hint = try Self.suggestion(in: status.stderr)
    #expect(hint == "dolphin migrate \(ShellWord.quoted(ws + "/workspace.json")) --workspace \(ShellWord.quoted(ws))", "\(hint)")
    let migrated = try Self.paste(hint, home: home)
    #expect(migrated.status == 0, "\(migrated.stderr)")
    #expect(migrated.stdout.contains("Imported legacy schema v1"), "\(migrated.stdout)")
    #expect(!FileManager.default.fileExists(atPath: home), "the default workspace was not touched")
    let after = try runDolphin(["status", "--workspace", ws, "--json"], environment: ["DOLPHIN_HOME": home])
    #expect(after.status == 0, "\(after.stderr)")

    // Imported before: `--again` is suggested with the same workspace, and runs there.
    let twice = try Self.paste(hint, home: home)
    #expect(twice.stdout.contains("was imported before"), "\(twice.stdout)")
    let again = try Self.suggestion(in: twice.stdout)
    #expect(again == hint.replacingOccurrences(of: " --workspace ", with: " --again --workspace "), "\(again)")
    let reimported = try Self.paste(again, home: home)
    #expect(reimported.status == 0, "\(reimported.stderr)")
    #expect(reimported.stdout.hasPrefix("Imported again"), "\(reimported.stdout)")
    #expect(!FileManager.default.fileExists(atPath: home), "the default workspace was not touched")
  }

  @Test("the default workspace's hints name no workspace, but those about its legacy file do")
  func defaultWorkspaceHint() throws {
    let dir = TemporaryDirectory("suggest-default")
    defer { dir.remove() }
    let home = try Self.awkwardDirectory(dir)
    let none = try runDolphin(["status"], environment: ["DOLPHIN_HOME": home])
    #expect(none.status == 3, "\(none.stderr)")
    #expect(try Self.suggestion(in: none.stderr) == "dolphin capture KIND TITLE")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: MigrateCommandTests.fixtures.appendingPathComponent("workspace-v1.json"),
      to: URL(fileURLWithPath: home + "/workspace.json"))
    let status = try runDolphin(["status"], environment: ["DOLPHIN_HOME": home])
    #expect(status.status == 3, "\(status.stderr)")
    // A command about a file in the workspace directory names that workspace: pasted in a shell
    // without DOLPHIN_HOME it imported into the default one (review 27-a, 1).
    #expect(
      try Self.suggestion(in: status.stderr)
        == "dolphin migrate \(ShellWord.quoted(home + "/workspace.json")) --workspace \(ShellWord.quoted(home))")
  }

  @Test("at the knowledge limit, the settings hint raises the limit of the workspace that is full")
  func knowledgeLimitHint() throws {
    let dir = TemporaryDirectory("suggest-limit")
    defer { dir.remove() }
    let ws = try Self.awkwardDirectory(dir)
    let home = dir.appending("home").path
    func run(_ args: [String]) throws -> ProcessResult {
      try runDolphin(args + ["--workspace", ws], environment: ["DOLPHIN_HOME": home])
    }
    #expect(try run(["capture", "fact", "One"]).status == 0)
    #expect(try run(["settings", "set", "knowledgeItemLimit", "1"]).status == 0)
    let full = try run(["capture", "fact", "Two"])
    #expect(full.status == 4, "\(full.stderr)")
    #expect(full.stderr.contains("`dolphin knowledge delete ID --workspace \(ShellWord.quoted(ws))`"), "\(full.stderr)")
    let raise = try Self.suggestion(in: full.stderr.components(separatedBy: " or raise the limit with ").last ?? "")
    #expect(raise == "dolphin settings set knowledgeItemLimit N --workspace \(ShellWord.quoted(ws))", "\(raise)")
    let raised = try Self.paste(raise.replacingOccurrences(of: " N ", with: " 5 "), home: home)
    #expect(raised.status == 0, "\(raised.stderr)")
    #expect(try run(["capture", "fact", "Two"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: home), "the default workspace was not created")
  }

  @Test("handoff create's restore line restores from the workspace it was created in")
  func handoffRestoreHint() throws {
    let dir = TemporaryDirectory("suggest-handoff")
    defer { dir.remove() }
    let ws = try Self.awkwardDirectory(dir)
    let home = dir.appending("home").path
    let created = try runDolphin(
      ["handoff", "create", "--focus", "Ship it", "--workspace", ws], environment: ["DOLPHIN_HOME": home])
    #expect(created.status == 0, "\(created.stderr)")
    let restore = try Self.suggestion(in: created.stdout, after: "Restore it later with: ")
    #expect(restore.hasSuffix(" --workspace \(ShellWord.quoted(ws))"), "\(restore)")
    let restored = try Self.paste(restore, home: home)
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(restored.stdout.contains("Ship it"), "\(restored.stdout)")
    #expect(!FileManager.default.fileExists(atPath: home))
  }

  @Test("status and doctor point to doctor and reindex for the workspace they read")
  func statusAndDoctorHints() throws {
    let dir = TemporaryDirectory("suggest-status")
    defer { dir.remove() }
    let ws = try Self.awkwardDirectory(dir)
    let home = dir.appending("home").path
    #expect(try runDolphin(["capture", "fact", "One", "--workspace", ws], environment: ["DOLPHIN_HOME": home]).status == 0)
    let status = try runDolphin(["status", "--workspace", ws], environment: ["DOLPHIN_HOME": home])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(
      status.stdout.contains("Integrity: references ok (run `dolphin doctor --workspace \(ShellWord.quoted(ws))` for a full check)"),
      "\(status.stdout)")
    let doctor = try Self.paste(try Self.suggestion(in: status.stdout), home: home)
    #expect(doctor.status == 0, "\(doctor.stderr)")
    #expect(doctor.stdout.contains(ws), "\(doctor.stdout)")
    #expect(!FileManager.default.fileExists(atPath: home))
  }

  @Test("the demo's Try line and its refusal quote the demo's directory")
  func demoHints() throws {
    let dir = TemporaryDirectory("suggest-demo")
    defer { dir.remove() }
    let parent = try Self.awkwardDirectory(dir)
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    let home = parent + "/home"
    let demoDirectory = parent + "/dolphin-demo"
    let demo = try runDolphin(["demo"], environment: ["DOLPHIN_HOME": home])
    #expect(demo.status == 0, "\(demo.stderr)")
    let tryLine = try Self.suggestion(in: demo.stdout, after: "Try: ")
    #expect(tryLine == "dolphin search \"handoff\" --workspace \(ShellWord.quoted(demoDirectory))", "\(tryLine)")
    let searched = try Self.paste(tryLine, home: home)
    #expect(searched.status == 0, "\(searched.stderr)")
    #expect(searched.stdout.contains("handoff"), "\(searched.stdout)")

    // Records of the user's in the demo's directory: the export that keeps them names it.
    #expect(try runDolphin(["capture", "fact", "Mine", "--workspace", demoDirectory]).status == 0)
    let refused = try runDolphin(["demo"], environment: ["DOLPHIN_HOME": home])
    #expect(refused.status == 4, "\(refused.stderr)")
    #expect(
      refused.stderr.contains("`dolphin export --output FILE --workspace \(ShellWord.quoted(demoDirectory))`"), "\(refused.stderr)")
    #expect(refused.stderr.contains("remove \(ShellWord.quoted(demoDirectory)) to start the demo afresh"), "\(refused.stderr)")
  }

  @Test("an MCP server's tool errors name its workspace, given or from DOLPHIN_HOME")
  func mcpHints() throws {
    let dir = TemporaryDirectory("suggest-mcp")
    defer { dir.remove() }
    let ws = try Self.awkwardDirectory(dir)
    #expect(try runDolphin(["capture", "fact", "One", "--workspace", ws]).status == 0)
    #expect(try runDolphin(["settings", "set", "knowledgeItemLimit", "1", "--workspace", ws]).status == 0)
    let call =
      #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"Two"}}}"#
    let hint = "`dolphin settings set knowledgeItemLimit N --workspace \(ShellWord.quoted(ws))`"
    let run = try MCPRun(workspace: ws, ["--writes", "allow"], lines: initializeLines + [call])
    let text = run.response("1")?["result"]?["content"]?.array?.first?["text"]?.string ?? ""
    #expect(text.contains(hint), "\(text)")
    // The same server started on DOLPHIN_HOME, as a client's configuration may do it.
    let home = try runDolphin(
      ["mcp", "--writes", "allow"], stdin: (initializeLines + [call]).joined(separator: "\n") + "\n",
      environment: ["DOLPHIN_HOME": ws])
    let answer = try #require(
      try home.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }.first { $0["id"] == 1 }, "\(home.stdout)")
    #expect(answer["result"]?["content"]?.array?.first?["text"]?.string?.contains(hint) == true, "\(answer)")
  }
}
