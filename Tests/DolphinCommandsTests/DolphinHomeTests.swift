import Foundation
import Testing
import TestSupport

/// `DOLPHIN_HOME` set to an empty value is a mistake to report, not a reason to fall back to
/// another workspace silently.
@Suite("DOLPHIN_HOME", .serialized)
struct DolphinHomeTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let value: String
    var testDescription: String { name }
  }

  static let empties = [Case(name: "empty", value: ""), Case(name: "only spaces", value: "   ")]

  @Test("an empty DOLPHIN_HOME is a usage error (exit 2) naming it, for commands that read and that write", arguments: empties)
  func emptyIsRefused(_ c: Case) throws {
    let dir = TemporaryDirectory("dolphin-home")
    defer { dir.remove() }
    // Where the fallbacks point: nothing may be read or created there.
    let env = ["DOLPHIN_HOME": c.value, "XDG_DATA_HOME": dir.appending("xdg").path, "HOME": dir.appending("home").path]
    for args in [["knowledge", "list"], ["capture", "fact", "Kept nowhere"], ["status"], ["doctor"], ["demo"], ["mcp"]] {
      let r = try runDolphin(args, environment: env)
      #expect(r.status == 2, "\(args): \(r.stdout)\(r.stderr)")
      #expect(r.stderr.contains("DOLPHIN_HOME is set but empty"), "\(args): \(r.stderr)")
      #expect(r.stderr.contains("--workspace"), "\(args): \(r.stderr)")
    }
    let json = try runDolphin(["knowledge", "list", "--json"], environment: env)
    #expect(json.status == 2)
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(error["kind"] as? String == "usage")
    #expect(!FileManager.default.fileExists(atPath: dir.appending("xdg").path))
    #expect(!FileManager.default.fileExists(atPath: dir.appending("home").path))
  }

  @Test("--workspace overrides an empty DOLPHIN_HOME; commands that use no workspace ignore it")
  func workspaceOverrides() throws {
    let dir = TemporaryDirectory("dolphin-home")
    defer { dir.remove() }
    let env = ["DOLPHIN_HOME": ""]
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["capture", "fact", "Kept here", "--workspace", ws], environment: env).status == 0)
    let list = try runDolphin(["knowledge", "list", "--workspace", ws], environment: env)
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("Kept here"))
    #expect(try runDolphin(["tools"], environment: env).status == 0)
    let swift = dir.appending("a.swift")
    try "let x = 1\n".write(to: swift, atomically: true, encoding: .utf8)
    #expect(try runDolphin(["analyze", swift.path], environment: env).status == 0)
    #expect(try runDolphin(["--version"], environment: env).status == 0)
  }
}
