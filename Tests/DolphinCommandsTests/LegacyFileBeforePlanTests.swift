import DolphinCommands
import Foundation
import Testing
import TestSupport

/// A legacy `workspace.json` waiting in an existing workspace is imported before a command plans
/// a change, so the plan shown is the one applied (review 18-c, C2: an interactive erase or
/// delete failed every time as a change by "another process", and `erase --yes` erased records
/// its plan had not listed).
@Suite("A waiting legacy workspace.json is imported before erase, delete and import plan", .serialized)
struct LegacyFileBeforePlanTests {
  /// A workspace holding one captured fact (its id is returned) and the v2 fixture as a waiting
  /// `workspace.json`.
  static func workspace(_ dir: TemporaryDirectory) async throws -> (ws: String, id: String) {
    let ws = dir.appending("ws").path
    let capture = Console()
    #expect(await DolphinCLI.run(["capture", "fact", "keep me", "--json", "--workspace", ws], console: capture) == 0)
    let item = (try JSONSerialization.jsonObject(with: Data(capture.standardOutput.utf8)) as? [String: Any])?["item"]
    let id = try #require((item as? [String: Any])?["id"] as? String)
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy/workspace-v2.json"),
      to: URL(fileURLWithPath: ws).appendingPathComponent("workspace.json"))
    return (ws, id)
  }

  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var args: [String]
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(name: "erase", args: ["erase"]),
    Case(name: "erase --kind tasks", args: ["erase", "--kind", "tasks"]),
    Case(name: "knowledge delete", args: ["knowledge", "delete", "{id}"]),
    Case(name: "activity clear", args: ["activity", "clear"]),
  ]

  @Test("confirmed on a terminal, the command imports the legacy file first, says so, and applies its plan", arguments: cases)
  func confirmedOnATerminal(_ c: Case) async throws {
    let dir = TemporaryDirectory("legacy-plan")
    defer { dir.remove() }
    let (ws, id) = try await Self.workspace(dir)
    let console = Console(isInteractive: true, input: ["y"])
    let code = await DolphinCLI.run(
      c.args.map { $0.replacingOccurrences(of: "{id}", with: id) } + ["--workspace", ws], console: console)
    #expect(code == 0, "\(console.standardError)")
    #expect(console.standardError.contains("notice: imported legacy workspace.json (schema v2)"), "\(console.standardError)")
    #expect(!console.standardError.contains("another process"), "\(console.standardError)")
    // A second run finds nothing waiting: no import, no notice.
    let again = Console(isInteractive: true, input: ["y"])
    _ = await DolphinCLI.run(["erase", "--kind", "tasks", "--workspace", ws], console: again)
    #expect(!again.standardError.contains("imported legacy"), "\(again.standardError)")
  }

  @Test("erase --yes erases what its plan listed, legacy records included, with no notice of another process")
  func eraseYesMatchesItsPlan() async throws {
    let dir = TemporaryDirectory("legacy-plan-yes")
    defer { dir.remove() }
    let (ws, _) = try await Self.workspace(dir)
    let console = Console()
    let code = await DolphinCLI.run(["erase", "--yes", "--json", "--workspace", ws], console: console)
    #expect(code == 0, "\(console.standardError)")
    #expect(!console.standardError.contains("another process"), "\(console.standardError)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(console.standardOutput.utf8)) as? [String: Any])
    let removed = try #require(report["removed"] as? [String: Int])
    // The v2 fixture's tasks were imported before the plan was made, so the plan erased them.
    #expect(removed["deleteTasks"] == 3, "\(removed)")
    #expect(removed["deleteMemories"] == 2, "\(removed)")
    #expect(removed["deleteConversations"] == 2, "\(removed)")
    // What was erased is what the plan listed.
    let plan = try #require(report["plan"] as? [String: Any])
    let steps = try #require(plan["steps"] as? [[String: Any]])
    for step in steps where removed[step["action"] as? String ?? ""] != nil {
      #expect(removed[step["action"] as? String ?? ""] == step["count"] as? Int, "\(step)")
    }
    #expect(console.standardOutput.contains("\"deleteTasks\""))
  }

  @Test("import into a workspace with a waiting legacy file imports that first and then the document")
  func importAfterLegacy() async throws {
    let dir = TemporaryDirectory("legacy-plan-import")
    defer { dir.remove() }
    let (ws, _) = try await Self.workspace(dir)
    let other = dir.appending("other").path
    #expect(await DolphinCLI.run(["capture", "fact", "from elsewhere", "--workspace", other], console: Console()) == 0)
    let file = dir.appending("export.json").path
    #expect(await DolphinCLI.run(["export", "--output", file, "--workspace", other], console: Console()) == 0)
    let console = Console()
    // The legacy file's settings differ from the export's: the import's own plan shows that conflict.
    let code = await DolphinCLI.run(["import", file, "--on-conflict", "skip", "--workspace", ws], console: console)
    #expect(code == 0, "\(console.standardError)")
    #expect(console.standardError.contains("notice: imported legacy workspace.json (schema v2)"), "\(console.standardError)")
    #expect(!console.standardError.contains("another process"), "\(console.standardError)")
  }
}
