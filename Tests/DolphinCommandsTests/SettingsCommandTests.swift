import ContinuityKit
import Foundation
import Testing
import TestSupport

/// A new user's review (s16): knowledgeItemLimit was a hidden cap. Its errors gave no numbers,
/// no command changed it, and an import that changed only it reported "Imported 0 record(s).".
@Suite("dolphin settings and the knowledge item limit", .serialized)
struct SettingsCommandTests {
  static func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
  }

  static func limit(_ cli: CLI) throws -> Int? {
    (try cli.json(["settings", "show"])["settings"] as? [String: Any])?["knowledgeItemLimit"] as? Int
  }

  @Test("settings and settings show list every setting with its value and the items held, in text and JSON")
  func show() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "One"]).status == 0)
    let text = try cli.run(["settings", "show"])
    #expect(text.status == 0, "\(text.stderr)")
    let lines = text.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "Settings of \(cli.workspace):", "\(text.stdout)")
    #expect(
      lines.contains(
        "  knowledgeItemLimit     10000      the most knowledge items the workspace holds: default 10000, 1…100000; "
          + "it holds 1 now"), "\(text.stdout)")
    for (name, value) in [("assistantName", "\"Dolphin\""), ("responseStyle", "balanced"), ("calendarAccessEnabled", "false")] {
      #expect(lines.contains { $0.hasPrefix("  " + name.padding(toLength: 23, withPad: " ", startingAt: 0) + value + " ") }, "\(name): \(text.stdout)")
    }
    #expect(
      lines.last == "Change the limit with `dolphin settings set knowledgeItemLimit N --workspace \(cli.workspace)`.", "\(text.stdout)")
    // `dolphin settings` alone is `settings show`.
    #expect(try cli.run(["settings"]).stdout == text.stdout)

    let json = try cli.json(["settings", "show"])
    let settings = try #require(json["settings"] as? [String: Any])
    #expect(settings["knowledgeItemLimit"] as? Int == 10_000)
    #expect(settings["assistantName"] as? String == "Dolphin")
    #expect(settings["responseStyle"] as? String == "balanced")
    #expect(settings["calendarAccessEnabled"] as? Bool == false)
    #expect(json["knowledgeItems"] as? Int == 1)
    #expect(json["settable"] as? [String] == ["knowledgeItemLimit"])
  }

  @Test("settings set knowledgeItemLimit changes it, says from what to what, and status shows it; the same value changes nothing")
  func set() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "One"]).status == 0)
    let r = try cli.run(["settings", "set", "knowledgeItemLimit", "20000"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "Changed knowledgeItemLimit 10000 → 20000 (the workspace holds 1 knowledge item(s)).\n")
    #expect(try Self.limit(cli) == 20_000)
    #expect(try cli.run(["status"]).stdout.contains("Knowledge: 1 of 20000 (knowledgeItemLimit; see `dolphin settings --workspace \(cli.workspace)`)"))

    let json = try cli.json(["settings", "set", "knowledgeItemLimit", "30000"])
    // Numbers, as `settings show --json` gives the setting (review, s16: they were strings).
    let change = try #require((json["changes"] as? [[String: Any]])?.first)
    #expect(change["name"] as? String == "knowledgeItemLimit")
    #expect(change["from"] as? Int == 20_000 && change["to"] as? Int == 30_000)
    #expect(!(change["from"] is String) && !(change["to"] is String))
    #expect((json["settings"] as? [String: Any])?["knowledgeItemLimit"] as? Int == 30_000)
    #expect(json["knowledgeItems"] as? Int == 1)

    let same = try cli.run(["settings", "set", "knowledgeitemlimit", "30000"])
    #expect(same.status == 0, "\(same.stderr)")
    #expect(same.stdout == "knowledgeItemLimit is already 30000; nothing was changed.\n")
    #expect((try cli.json(["settings", "set", "knowledgeItemLimit", "30000"])["changes"] as? [Any])?.isEmpty == true)
  }

  @Test("settings set on a directory with no workspace yet creates it with the setting")
  func setCreates() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["settings", "show"]).status == 3)
    let r = try cli.run(["settings", "set", "knowledgeItemLimit", "50000"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try Self.limit(cli) == 50_000)
  }

  @Test("settings set to the value in effect on a directory with no workspace creates nothing, and says so")
  func setSameCreatesNothing() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for args in [["knowledgeItemLimit", "10000"], ["knowledgeitemlimit", "10000"]] {
      let r = try cli.run(["settings", "set"] + args)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == "knowledgeItemLimit is already 10000; nothing was changed; no workspace was created at \(cli.workspace).\n")
      #expect(!FileManager.default.fileExists(atPath: cli.workspace + "/workspace.sqlite"))
      #expect(regularFiles(under: cli.dir.url).isEmpty, "\(regularFiles(under: cli.dir.url))")
    }
    let json = try cli.json(["settings", "set", "knowledgeItemLimit", "10000"])
    #expect((json["changes"] as? [Any])?.isEmpty == true)
    #expect(json["knowledgeItems"] as? Int == 0)
    #expect(regularFiles(under: cli.dir.url).isEmpty)
    #expect(try cli.run(["settings", "show"]).status == 3)
    // A value out of range is still refused, and creates nothing either.
    #expect(try cli.run(["settings", "set", "knowledgeItemLimit", "0"]).status == 4)
    #expect(regularFiles(under: cli.dir.url).isEmpty)
  }

  /// A `settings` command line that must be refused, and what the refusal says.
  struct Refusal: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var args: [String]
    var status: Int32
    var field: String?
    var message: String
  }

  static let refusals: [Refusal] = [
    Refusal(
      testDescription: "zero", args: ["knowledgeItemLimit", "0"], status: 4, field: "knowledgeItemLimit",
      message: "knowledgeItemLimit is 0; it must be between 1 and 100000. Nothing was changed"),
    Refusal(
      testDescription: "over the maximum", args: ["knowledgeItemLimit", "100001"], status: 4, field: "knowledgeItemLimit",
      message: "knowledgeItemLimit is 100001; it must be between 1 and 100000. Nothing was changed"),
    Refusal(
      testDescription: "below the items held", args: ["knowledgeItemLimit", "1"], status: 4, field: "knowledgeItemLimit",
      message: "knowledgeItemLimit 1 is below the 2 knowledge items the workspace holds; set it to at least 2 "
        + "(at most 100000), or delete items first (`dolphin knowledge delete ID --workspace {WS}`). Nothing was changed"),
    Refusal(
      testDescription: "too large for an integer", args: ["knowledgeItemLimit", "99999999999999999999999"], status: 4,
      field: "knowledgeItemLimit",
      message: "knowledgeItemLimit is 99999999999999999999999; it must be between 1 and 100000. Nothing was changed"),
    Refusal(
      testDescription: "too large for an integer, and long", args: ["knowledgeItemLimit", String(repeating: "9", count: 70)],
      status: 4, field: "knowledgeItemLimit",
      message: "knowledgeItemLimit is '\(String(repeating: "9", count: 60))…' (70 characters); it must be between 1 and "
        + "100000. Nothing was changed"),
    Refusal(
      testDescription: "not a whole number", args: ["knowledgeItemLimit", "20k"], status: 2, field: "knowledgeItemLimit",
      message: "knowledgeItemLimit must be a whole number (1…100000), got '20k'"),
    Refusal(
      testDescription: "a fraction", args: ["knowledgeItemLimit", "1.5"], status: 2, field: "knowledgeItemLimit",
      message: "knowledgeItemLimit must be a whole number (1…100000), got '1.5'"),
    Refusal(
      testDescription: "an unknown setting", args: ["knowledgeLimit", "20000"], status: 2, field: "name",
      message: "unknown setting 'knowledgeLimit'; the settings are assistantName, responseStyle, calendarAccessEnabled, "
        + "knowledgeItemLimit, of which `dolphin settings set` changes knowledgeItemLimit"),
    Refusal(
      testDescription: "a misspelt setting", args: ["knowledgeItemLimt", "20000"], status: 2, field: "name",
      message: "unknown setting 'knowledgeItemLimt'; the settings are assistantName, responseStyle, calendarAccessEnabled, "
        + "knowledgeItemLimit, of which `dolphin settings set` changes knowledgeItemLimit; did you mean knowledgeItemLimit?"),
    Refusal(
      testDescription: "an app setting", args: ["assistantName", "Flipper"], status: 2, field: "name",
      message: "assistantName is a Dolphin app setting, which `dolphin settings show` shows but the command line does not "
        + "change; `dolphin settings set` changes knowledgeItemLimit"),
  ]

  @Test("settings set refuses what is not a valid limit, naming the field, the bound and the value; nothing changes", arguments: refusals)
  func refusal(_ c: Refusal) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "One"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Two"]).status == 0)
    let r = try cli.run(["settings", "set"] + c.args)
    #expect(r.status == c.status, "\(r.stderr)")
    #expect(r.stderr == "dolphin: error: \(c.message.replacingOccurrences(of: "{WS}", with: cli.workspace))\n", "\(r.stderr)")
    let json = try cli.run(["settings", "set"] + c.args + ["--json"])
    let error = try #require(try Self.object(json.stdout)["error"] as? [String: Any])
    #expect(error["field"] as? String == c.field)
    #expect(error["exitCode"] as? Int == Int(c.status))
    #expect(try Self.limit(cli) == 10_000)
  }

  @Test("a whole number too large for an integer is shown alike by settings set and by a numeric option, short or long")
  func outOfRangeShownAlike() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "One"]).status == 0)
    for value in ["99999999999999999999999", "5000000000", String(repeating: "9", count: 70)] {
      let setting = try cli.run(["settings", "set", "knowledgeItemLimit", value])
      let option = try cli.run(["search", "one", "--limit", value])
      #expect(setting.status == 4 && option.status == 4, "\(setting.stderr)\(option.stderr)")
      func shown(_ stderr: String, after prefix: String) -> Substring? {
        guard let start = stderr.range(of: prefix)?.upperBound, let end = stderr[start...].range(of: "; it must be")?.lowerBound
        else { return nil }
        return stderr[start..<end]
      }
      let fromSetting = try #require(shown(setting.stderr, after: "knowledgeItemLimit is "), "\(setting.stderr)")
      let fromOption = try #require(shown(option.stderr, after: "--limit is "), "\(option.stderr)")
      #expect(fromSetting == fromOption)
      #expect(fromSetting.hasPrefix("'") == (value.count > 60), "\(fromSetting)")
    }
  }

  @Test("an unknown settings subcommand is named as one, with the subcommands")
  func unknownSubcommand() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["settings", "sett", "knowledgeItemLimit", "5"])
    #expect(r.status == 2)
    #expect(
      r.stderr == "dolphin: error: unknown subcommand 'sett' for `dolphin settings` (subcommands: show, set); did you mean `settings set`?\n",
      "\(r.stderr)")
  }

  @Test("a capture, memory save or import past the limit says how many are held, the total it would make and the limit")
  func fullWorkspace() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["settings", "set", "knowledgeItemLimit", "2"]).status == 0)
    #expect(try cli.run(["capture", "fact", "One"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Two"]).status == 0)
    let full =
      "dolphin: error: the workspace holds 2 knowledge items, the most its knowledgeItemLimit setting allows (2); "
      + "adding 1 would make 3. Delete some (`dolphin knowledge delete ID --workspace \(cli.workspace)`) or raise the limit with "
      + "`dolphin settings set knowledgeItemLimit N --workspace \(cli.workspace)` (at least 3, at most 100000)\n"
    for args in [["capture", "fact", "Three"], ["memory", "save", "A memory is mirrored as knowledge"]] {
      let r = try cli.run(args)
      #expect(r.status == 4, "\(args): \(r.stderr)")
      #expect(r.stderr == full, "\(args): \(r.stderr)")
      let json = try cli.run(args + ["--json"])
      let error = try #require(try Self.object(json.stdout)["error"] as? [String: Any])
      #expect(error["field"] as? String == "knowledge")
      #expect(error["kind"] as? String == "validation")
    }
    #expect(try cli.json(["memory", "list"])["total"] as? Int == 0)

    // An import of three more items into the full workspace (keeping its settings).
    let other = CLI()
    defer { other.dir.remove() }
    for title in ["Four", "Five", "Six"] { #expect(try other.run(["capture", "fact", title]).status == 0) }
    let export = try other.run(["export"])
    let file = other.dir.appending("three.json")
    try Data(export.stdout.utf8).write(to: file)
    let imported = try cli.run(["import", file.path, "--on-conflict", "skip"])
    #expect(imported.status == 4, "\(imported.stderr)")
    // Named after the file and ending "Nothing was imported", as other import refusals (review, s16).
    #expect(
      imported.stderr.hasSuffix(
        "dolphin: error: \(file.path): the workspace holds 2 knowledge items, the most its knowledgeItemLimit setting "
          + "allows (2); adding 3 would make 5. Delete some (`dolphin knowledge delete ID --workspace \(cli.workspace)`) or raise "
          + "the limit with `dolphin settings set knowledgeItemLimit N --workspace \(cli.workspace)` (at least 5, at most 100000). "
          + "Nothing was imported\n"),
      "\(imported.stderr)")
    let importJSON = try cli.run(["import", file.path, "--on-conflict", "skip", "--json"])
    let importError = try #require(try Self.object(importJSON.stdout)["error"] as? [String: Any])
    #expect(importError["field"] as? String == "knowledge")
    #expect(importError["kind"] as? String == "validation")
    #expect(importError["exitCode"] as? Int == 4)

    // Raised as the message says, the capture goes through.
    #expect(try cli.run(["settings", "set", "knowledgeItemLimit", "3"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Three"]).status == 0)
  }

  @Test("an import that only changes the settings says which it changed, in text and JSON")
  func importReportsSettings() throws {
    let source = CLI()
    defer { source.dir.remove() }
    #expect(try source.run(["capture", "decision", "Use SQLite"]).status == 0)
    #expect(try source.run(["settings", "set", "knowledgeItemLimit", "10000"]).status == 0)
    let before = source.dir.appending("before.json")
    try Data(try source.run(["export"]).stdout.utf8).write(to: before)
    #expect(try source.run(["settings", "set", "knowledgeItemLimit", "20000"]).status == 0)
    let after = source.dir.appending("after.json")
    try Data(try source.run(["export"]).stdout.utf8).write(to: after)

    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["import", before.path]).status == 0)
    let r = try cli.run(["import", after.path, "--on-conflict", "replace", "--yes"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.hasSuffix("\nImported 0 record(s); settings changed: knowledgeItemLimit 10000 → 20000.\n"), "\(r.stdout)")
    #expect(try Self.limit(cli) == 20_000)

    let json = try cli.run(["import", before.path, "--on-conflict", "replace", "--json", "--yes"])
    #expect(json.status == 0, "\(json.stderr)")
    let report = try Self.object(json.stdout)
    let changed = try #require(report["settingsChanged"] as? [[String: Any]])
    #expect(changed.count == 1)
    #expect(changed.first?["name"] as? String == "knowledgeItemLimit")
    #expect(changed.first?["from"] as? Int == 20_000 && changed.first?["to"] as? Int == 10_000)
    #expect(!(changed.first?["from"] is String))
    #expect((report["written"] as? [String: Int])?.values.reduce(0, +) == 0)
    #expect(try Self.limit(cli) == 10_000)

    // Kept under skip: nothing to report.
    let skipped = try cli.run(["import", after.path, "--on-conflict", "skip"])
    #expect(skipped.stdout.contains("Imported 0 record(s); kept this workspace's settings.\n"), "\(skipped.stdout)")
    #expect(!skipped.stdout.contains("settings changed"))
  }

  @Test("an import whose file's knowledgeItemLimit is below the items held, bringing none, says what helps: not importing fewer; skip where it keeps this workspace's settings")
  func importedLimitBelowItemsHeld() throws {
    // A file with no knowledge items and knowledgeItemLimit 2.
    let source = CLI()
    defer { source.dir.remove() }
    #expect(try source.run(["settings", "set", "knowledgeItemLimit", "2"]).status == 0)
    let file = source.dir.appending("limit2.json")
    try Data(try source.run(["export"]).stdout.utf8).write(to: file)

    let cli = CLI()
    defer { cli.dir.remove() }
    for title in ["One", "Two", "Three"] { #expect(try cli.run(["capture", "fact", title]).status == 0) }

    // No settings stored here: the file's are adopted under refuse and replace, and skip keeps
    // the settings the workspace shows, its defaults (review 20-a, #5).
    for policy in ["refuse", "replace"] {
      let r = try cli.run(["import", file.path, "--on-conflict", policy, "--yes"])
      #expect(r.status == 4, "\(r.stderr)")
      #expect(
        r.stderr == "dolphin: error: \(file.path): workspace.settings.knowledgeItemLimit is 2, which this import would adopt "
          + "(this workspace stores no settings of its own, so an import adopts the file's unless --on-conflict skip), "
          + "but the workspace would then hold 3 knowledge items (3 already here and 0 new from the file); raise "
          + "knowledgeItemLimit in the file to at least 3 (at most 100000) or pass --on-conflict skip to keep this "
          + "workspace's settings (knowledgeItemLimit 10000). Nothing was imported\n", "\(r.stderr)")
    }
    let skipDefaults = try cli.run(["import", file.path, "--on-conflict", "skip"])
    #expect(skipDefaults.status == 0, "\(skipDefaults.stderr)")
    #expect(try Self.limit(cli) == 10_000)

    // Settings stored here: replace is refused, and skip, as the advice says, keeps them.
    #expect(try cli.run(["settings", "set", "knowledgeItemLimit", "20000"]).status == 0)
    let replace = try cli.run(["import", file.path, "--on-conflict", "replace", "--yes"])
    #expect(replace.status == 4, "\(replace.stderr)")
    #expect(
      replace.stderr == "dolphin: error: \(file.path): workspace.settings.knowledgeItemLimit is 2, which this import would "
        + "adopt, but the workspace would then hold 3 knowledge items (3 already here and 0 new from the file); raise "
        + "knowledgeItemLimit in the file to at least 3 (at most 100000) or pass --on-conflict skip to keep this "
        + "workspace's settings (knowledgeItemLimit 20000). Nothing was imported\n", "\(replace.stderr)")
    #expect(!replace.stderr.contains("import fewer"))
    let skip = try cli.run(["import", file.path, "--on-conflict", "skip"])
    #expect(skip.status == 0, "\(skip.stderr)")
    #expect(try Self.limit(cli) == 20_000)
    #expect(try cli.json(["settings", "show"])["knowledgeItems"] as? Int == 3)
  }

  @Test("an import refused for its settings alone words it for settings, with both values, not as a record with an id")
  func settingsConflict() throws {
    let source = CLI()
    defer { source.dir.remove() }
    #expect(try source.run(["settings", "set", "knowledgeItemLimit", "20000"]).status == 0)
    let file = source.dir.appending("limit.json")
    try Data(try source.run(["export"]).stdout.utf8).write(to: file)

    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["settings", "set", "knowledgeItemLimit", "10001"]).status == 0)
    let r = try cli.run(["import", file.path])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stdout.contains("\n    - settings (knowledgeItemLimit 10001 → 20000)\n"), "\(r.stdout)")
    let message =
      "\(file.path): the file's settings differ from this workspace's: knowledgeItemLimit 10001 → 20000 (this workspace's "
      + "→ the file's). Nothing was imported. Use --on-conflict skip to keep this workspace's settings, or --on-conflict "
      + "replace to take the file's"
    #expect(r.stderr == "dolphin: error: \(message)\n", "\(r.stderr)")
    #expect(!r.stderr.contains("record(s)"))

    let json = try cli.run(["import", file.path, "--json"])
    let document = try Self.object(json.stdout)
    let error = try #require(document["error"] as? [String: Any])
    #expect(error["message"] as? String == message)
    let conflict = try #require(((error["plan"] as? [String: Any])?["conflicts"] as? [[String: Any]])?.first)
    #expect(conflict["collection"] as? String == "settings")
    let change = try #require((conflict["settingChanges"] as? [[String: Any]])?.first)
    #expect(change["name"] as? String == "knowledgeItemLimit")
    #expect(change["from"] as? Int == 10_001 && change["to"] as? Int == 20_000)
    #expect(try Self.limit(cli) == 10_001)

    // With a record in conflict too: both, each in its own words.
    let id = try #require((try source.json(["capture", "fact", "Shared"])["item"] as? [String: Any])?["id"] as? String)
    try Data(try source.run(["export"]).stdout.utf8).write(to: file)
    #expect(try cli.run(["import", file.path, "--on-conflict", "skip"]).status == 0)
    let edited = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"Shared\"", with: "\"Shared, edited\"")
    try Data(edited.utf8).write(to: file)
    let both = try cli.run(["import", file.path])
    #expect(both.status == 4, "\(both.stderr)")
    #expect(
      both.stderr == "dolphin: error: \(file.path): 1 record(s) have the same id as a record in this workspace, with different content: knowledge "
        + "\(id) (title differs); the file's settings differ from this workspace's: knowledgeItemLimit 10001 → 20000 (this "
        + "workspace's → the file's). Nothing was imported. Use --on-conflict skip to keep this workspace's versions and "
        + "settings, or --on-conflict replace to take the file's\n", "\(both.stderr)")
  }

  @Test("help: settings set explains the limit; capture and memory save name the command that raises it; the overview lists it")
  func help() throws {
    let set = try runDolphin(["settings", "set", "--help"])
    #expect(set.status == 0)
    #expect(set.stdout.contains("Usage: dolphin settings set <name> <value> [options]"), "\(set.stdout)")
    #expect(set.stdout.contains("dolphin settings set knowledgeItemLimit 20000"))
    #expect(set.stdout.contains("at most 100000"))
    for command in [["capture"], ["memory", "save"]] {
      let help = try runDolphin(command + ["--help"])
      #expect(help.stdout.contains("`dolphin settings set knowledgeItemLimit N`"), "\(command): \(help.stdout)")
    }
    // `settings` is also the group of show and set: its usage names them (review, s16).
    let group = try runDolphin(["settings", "--help"])
    #expect(group.status == 0)
    #expect(
      group.stdout.contains(
        "\nUsage: dolphin settings [options]\n       dolphin settings show [options]\n"
          + "       dolphin settings set <name> <value> [options]\n\nSubcommands:\n"
          + "  show                    Show the workspace settings and the knowledge items held.\n"
          + "  set                     Change a workspace setting (knowledgeItemLimit).\n"), "\(group.stdout)")
    let activity = try runDolphin(["activity", "--help"])
    #expect(activity.stdout.contains("Usage: dolphin activity [options]\n       dolphin activity clear [options]\n"), "\(activity.stdout)")
    let json = try Self.object(try runDolphin(["settings", "--help", "--json"]).stdout)
    #expect((json["help"] as? String)?.contains("dolphin settings set <name> <value> [options]") == true)
    let overview = try runDolphin(["--help"])
    #expect(overview.stdout.contains("\n  settings set        Change a workspace setting (knowledgeItemLimit).\n"), "\(overview.stdout)")
  }
}

@Suite(
  "dolphin settings on a workspace that cannot be written", .serialized,
  .enabled(if: Unwritable.method != nil, Comment(rawValue: Unwritable.unavailable)))
struct SettingsReadOnlyTests {
  @Test("settings show works; settings set fails as other writes do, and no file changes")
  func readOnly() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Kept"]).status == 0)
    let before = try Unwritable.snapshot(cli.workspace)
    let show = try Unwritable.run(["settings", "show"], in: cli.workspace)
    #expect(show.status == 0, "\(show.stderr)")
    #expect(show.stdout.contains("knowledgeItemLimit     10000"), "\(show.stdout)")
    let set = try Unwritable.run(["settings", "set", "knowledgeItemLimit", "20000"], in: cli.workspace)
    #expect(set.status == 5, "\(set.stderr)")
    #expect(set.stderr.contains("is open read-only ("), "\(set.stderr)")
    #expect(set.stderr.contains("nothing was written"), "\(set.stderr)")
    #expect(try Unwritable.snapshot(cli.workspace) == before)
  }
}
