import Foundation
import Testing
import TestSupport

/// Review 20-a, #5 and #10: the import plan shows each setting a file's settings change, `skip`
/// keeps the settings a workspace shows, and a file naming no active handoff is said to leave the
/// marker unchanged; #12: a UTF-16 file is named as such.
@Suite("dolphin import: the plan's settings and active handoff", .serialized)
struct ImportPlanSettingsCommandTests {
  /// A workspace with a record and an active handoff, never `settings set`, and its export with
  /// `knowledgeItemLimit` 50 and `responseStyle` detailed, written to `setA.json`.
  static func fixture() throws -> (CLI, String, String) {
    let cli = CLI()
    _ = try cli.json(["capture", "decision", "Use SQLite for the workspace", "--content", "WAL."])
    let handoff = try #require(
      (try cli.json(["handoff", "create", "--focus", "Release prep"])["handoff"] as? [String: Any])?["id"] as? String)
    let export = cli.dir.appending("e1.json").path
    #expect(try cli.run(["export", "--output", export]).status == 0)
    var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export))) as? [String: Any])
    var workspace = try #require(document["workspace"] as? [String: Any])
    var settings = try #require(workspace["settings"] as? [String: Any])
    settings["knowledgeItemLimit"] = 50
    settings["responseStyle"] = "detailed"
    workspace["settings"] = settings
    workspace.removeValue(forKey: "activeHandoffID")
    document["workspace"] = workspace
    let changed = cli.dir.appending("setA.json").path
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: changed))
    #expect(try cli.run(["handoff", "restore", handoff]).status == 0)
    return (cli, changed, handoff)
  }

  @Test("the plan lists each setting that changes, from → to, in text and --json; skip keeps the settings shown")
  func planNamesSettingChangesAndSkipKeepsThem() throws {
    let (cli, file, handoff) = try Self.fixture()
    defer { cli.dir.remove() }
    let dry = try cli.run(["import", file, "--dry-run", "--on-conflict", "refuse"])
    #expect(dry.stdout.contains(
      "settings: new, adopted (responseStyle balanced → detailed, knowledgeItemLimit 10000 → 50); "
        + "active handoff: unchanged (the file names none)"), "\(dry.stdout)\(dry.stderr)")
    let json = try cli.json(["import", file, "--dry-run"])
    let plan = try #require((json["plan"] as? [String: Any]) ?? json)
    #expect(plan["settings"] as? String == "new", "\(plan)")
    let changes = try #require(plan["settingChanges"] as? [[String: Any]], "\(plan)")
    #expect(changes.compactMap { $0["name"] as? String } == ["responseStyle", "knowledgeItemLimit"])

    // skip: the workspace's settings (defaults) are kept, and said to be.
    let skip = try cli.run(["import", file, "--on-conflict", "skip"])
    #expect(skip.status == 0, "\(skip.stderr)")
    #expect(skip.stdout.contains("the workspace settings differ"), "\(skip.stdout)")
    let shown = try cli.run(["settings"])
    #expect(shown.stdout.contains("10000") && shown.stdout.contains("balanced"), "\(shown.stdout)")
    // The marker stays.
    #expect(try cli.run(["handoff", "list"]).stdout.contains(handoff))
  }

  @Test("a UTF-16 export is named as UTF-16, not by its first NUL byte")
  func utf16IsNamed() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let path = cli.dir.appending("u16.json").path
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in "{\"format\": 1}".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let r = try cli.run(["import", path])
    #expect(r.status == 4)
    #expect(r.stderr.contains("is saved as UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8"), "\(r.stderr)")
  }
}
