import DolphinCommands
import Foundation
import Testing
import TestSupport

/// A legacy `workspace.json` waiting in the workspace directory is imported only by the write that
/// applies a confirmed plan: a delete of an unknown id, a delete declined for want of --yes and a
/// declined erase import nothing, while the plan still counts the legacy records (review 18-d, M4).
@Suite("A refused, not-found or declined command imports no waiting legacy workspace.json", .serialized)
struct LegacyFileNotImportedByRefusalTests {
  static let legacyTask = "B8AEC375-9962-4D58-94C6-C0ED29E2F0C0"

  /// A directory (0700) holding only the v2 fixture as `workspace.json`.
  static func legacyOnly(_ dir: TemporaryDirectory) throws -> String {
    let ws = dir.appending("lw").path
    try FileManager.default.createDirectory(atPath: ws, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy/workspace-v2.json"),
      to: URL(fileURLWithPath: ws).appendingPathComponent("workspace.json"))
    return ws
  }

  static func contents(_ ws: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: ws)) ?? []).sorted()
  }

  @Test("knowledge delete of an unknown id: exit 3 and nothing created")
  func unknownID() async throws {
    let dir = TemporaryDirectory("legacy-refused")
    defer { dir.remove() }
    let ws = try Self.legacyOnly(dir)
    let console = Console()
    let code = await DolphinCLI.run(
      ["knowledge", "delete", "00000000-0000-0000-0000-000000000000", "--workspace", ws], console: console)
    #expect(code == 3, "\(console.standardError)")
    #expect(Self.contents(ws) == ["workspace.json"])
    #expect(!console.standardError.contains("imported legacy"), "\(console.standardError)")
  }

  @Test("task delete of a legacy task without --yes: declined, exit 1, nothing created; with --yes it applies")
  func declinedThenConfirmed() async throws {
    let dir = TemporaryDirectory("legacy-declined")
    defer { dir.remove() }
    let ws = try Self.legacyOnly(dir)
    let declined = Console()
    let code = await DolphinCLI.run(["task", "delete", Self.legacyTask, "--workspace", ws], console: declined)
    #expect(code == 1, "\(declined.standardError)")
    // The plan is made over the legacy records, which the workspace does not hold yet.
    #expect(declined.standardOutput.contains("Deletion plan: delete task \(Self.legacyTask)"), "\(declined.standardOutput)")
    #expect(Self.contents(ws) == ["workspace.json"])
    #expect(!declined.standardError.contains("imported legacy"), "\(declined.standardError)")

    // Confirmed, the write imports the file and applies the plan shown: the digest the import
    // stores is the one the plan named, so no change "by another process" is reported.
    let confirmed = Console()
    let ok = await DolphinCLI.run(["task", "delete", Self.legacyTask, "--yes", "--workspace", ws], console: confirmed)
    #expect(ok == 0, "\(confirmed.standardError)")
    #expect(confirmed.standardError.contains("notice: imported legacy workspace.json (schema v2)"), "\(confirmed.standardError)")
    #expect(Self.contents(ws).contains("workspace.sqlite"))
  }

  @Test("a declined erase of an existing workspace imports nothing; a confirmed one erases what its plan listed")
  func declinedErase() async throws {
    let dir = TemporaryDirectory("legacy-erase-declined")
    defer { dir.remove() }
    let (ws, _) = try await LegacyFileBeforePlanTests.workspace(dir)
    let no = Console(isInteractive: true, input: ["n"])
    let code = await DolphinCLI.run(["erase", "--kind", "tasks", "--workspace", ws], console: no)
    #expect(code == 1, "\(no.standardError)")
    #expect(no.standardOutput.contains("delete 3 task"), "\(no.standardOutput)")
    #expect(!Self.contents(ws).contains("legacy-backups"), "\(Self.contents(ws))")
    #expect(!no.standardError.contains("imported legacy"), "\(no.standardError)")
    let list = Console()
    _ = await DolphinCLI.run(["task", "list", "--json", "--workspace", ws], console: list)
    #expect(!list.standardOutput.contains(Self.legacyTask), "\(list.standardOutput)")

    // erase --kind all on a terminal: the plan names the backup the import will write, so the
    // plan confirmed is the one applied.
    let yes = Console(isInteractive: true, input: ["y"])
    let erased = await DolphinCLI.run(["erase", "--workspace", ws], console: yes)
    #expect(erased == 0, "\(yes.standardError)")
    #expect(!yes.standardError.contains("another process"), "\(yes.standardError)")
  }

  @Test("import --dry-run into a directory holding only a legacy workspace.json previews and writes nothing")
  func dryRun() async throws {
    let dir = TemporaryDirectory("legacy-dry-run")
    defer { dir.remove() }
    let ws = try Self.legacyOnly(dir)
    let other = dir.appending("other").path
    #expect(await DolphinCLI.run(["capture", "fact", "from elsewhere", "--workspace", other], console: Console()) == 0)
    let file = dir.appending("export.json").path
    #expect(await DolphinCLI.run(["export", "--output", file, "--workspace", other], console: Console()) == 0)
    let console = Console()
    let code = await DolphinCLI.run(["import", file, "--dry-run", "--on-conflict", "skip", "--workspace", ws], console: console)
    #expect(code == 0, "\(console.standardError)")
    #expect(console.standardOutput.contains("Dry run: nothing was written."), "\(console.standardOutput)")
    #expect(console.standardError.contains("is not imported yet; the import imports it first"), "\(console.standardError)")
    #expect(Self.contents(ws) == ["workspace.json"])
  }
}
