import DolphinCommands
import Foundation
import Testing
import TestSupport

@Suite("Confirmation on a terminal")
struct ConfirmationTests {
  @Test("a declined deletion says so, changes nothing, and --json carries the plan")
  func declined() async throws {
    let dir = TemporaryDirectory("confirm")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let capture = Console()
    #expect(await DolphinCLI.run(["capture", "goal", "Ship 1.0", "--json", "--workspace", ws], console: capture) == 0)
    let id = try #require(
      ((try JSONSerialization.jsonObject(with: Data(capture.standardOutput.utf8)) as? [String: Any])?["item"] as? [String: Any])?["id"] as? String)
    let console = Console(isInteractive: true, input: ["n"])
    let code = await DolphinCLI.run(["knowledge", "delete", id, "--json", "--workspace", ws], console: console)
    #expect(code == ExitCode.aborted)
    #expect(console.standardError.contains("Apply this deletion? [y/N]"))
    #expect(console.standardError.contains("dolphin: error: the deletion was declined; nothing was changed"))
    let err = try #require((try JSONSerialization.jsonObject(with: Data(console.standardOutput.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect((err["plan"] as? [String: Any])?["targetID"] as? String == id)
    #expect(await DolphinCLI.run(["knowledge", "get", id, "--workspace", ws], console: Console()) == 0)
  }
}
