import Foundation
import Testing
import TestSupport

/// Problems a second new-user review found after the first round of fixes; each stays fixed.
@Suite("Second review regressions")
struct SecondReviewRegressionTests {
  @Test("export refuses an --output inside the workspace it exports, even with --force and through a symlink")
  func exportIntoOwnWorkspace() throws {
    let dir = TemporaryDirectory("export-self")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["capture", "fact", "Kept safe", "--workspace", ws]).status == 0)
    let db = ws + "/workspace.sqlite"
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    try FileManager.default.createSymbolicLink(atPath: dir.appending("link").path, withDestinationPath: ws)
    for output in [db, ws + "/workspace.sqlite-wal", ws + "/new-export.json", dir.appending("link").path + "/workspace.sqlite"] {
      let r = try runDolphin(["export", "--output", output, "--force", "--workspace", ws])
      #expect(r.status == 2, "\(output): \(r.stderr)")
      #expect(r.stderr.contains("is inside the workspace being exported"), "\(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: ws + "/new-export.json"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    let list = try runDolphin(["knowledge", "list", "--workspace", ws])
    #expect(list.status == 0)
    #expect(list.stdout.contains("Kept safe"))
    // Beside the workspace is fine.
    #expect(try runDolphin(["export", "--output", dir.appending("export.json").path, "--workspace", ws]).status == 0)
  }

  @Test("the demo refuses the default workspace spelled through a symlink")
  func demoThroughSymlink() throws {
    let dir = TemporaryDirectory("demo-link")
    defer { dir.remove() }
    let home = dir.appending("home").path
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: dir.appending("alias").path, withDestinationPath: home)
    let r = try runDolphin(["demo", "--workspace", dir.appending("alias").path + "/dolphin"], environment: ["DOLPHIN_HOME": home + "/dolphin"])
    #expect(r.status == 4, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("is your default workspace"))
    #expect(!FileManager.default.fileExists(atPath: home + "/dolphin"))
  }

  @Test("an import refused by validation creates no workspace")
  func refusedImportCreatesNothing() throws {
    let dir = TemporaryDirectory("import-refused")
    defer { dir.remove() }
    let source = dir.appending("source").path
    #expect(try runDolphin(["capture", "fact", "Target", "--workspace", source]).status == 0)
    let target = try #require(try JSONSerialization.jsonObject(with: Data(runDolphin(["knowledge", "list", "--json", "--workspace", source]).stdout.utf8)) as? [String: Any])
    let targetID = try #require((target["items"] as? [[String: Any]])?.first?["id"] as? String)
    #expect(try runDolphin(["capture", "fact", "Referrer", "--relates", "supports:\(targetID)", "--workspace", source]).status == 0)
    let export = dir.appending("export.json").path
    #expect(try runDolphin(["export", "--output", export, "--workspace", source]).status == 0)
    // Drop the target: the referrer's relationship now dangles.
    var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export))) as? [String: Any])
    var workspace = try #require(document["workspace"] as? [String: Any])
    let knowledge = try #require(workspace["knowledge"] as? [[String: Any]])
    workspace["knowledge"] = knowledge.filter { ($0["id"] as? String) != targetID }
    document["workspace"] = workspace
    let edited = dir.appending("edited.json").path
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: edited))

    let fresh = dir.appending("fresh").path
    let r = try runDolphin(["import", edited, "--workspace", fresh])
    #expect(r.status == 4, "\(r.stdout)\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: fresh))
    // The untouched export still restores into a new workspace.
    #expect(try runDolphin(["import", export, "--workspace", fresh]).status == 0)
    #expect(try runDolphin(["knowledge", "list", "--workspace", fresh]).stdout.contains("Referrer"))
  }
}
