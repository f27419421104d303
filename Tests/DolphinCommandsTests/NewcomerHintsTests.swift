import Foundation
import Testing
import TestSupport

/// Review 20-b, #20: `capture task` said only which kinds exist, and commands that use no
/// workspace listed `--workspace` as if they did.
@Suite("Newcomer hints")
struct NewcomerHintsTests {
  @Test("capture task points to task add, as a usage error naming the kind; nothing is created", arguments: ["task", "Task", "todo"])
  func captureTask(_ kind: String) throws {
    let dir = TemporaryDirectory("capture-task")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let r = try runDolphin(["capture", kind, "Write tests", "--workspace", ws], stdin: "")
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("kind '\(kind)' is not one of: decision, goal, preference, fact, insight, context, code"), "\(r.stderr)")
    #expect(r.stderr.contains("tasks are added with `dolphin task add TITLE --workspace \(ws)`"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: ws + "/workspace.sqlite"))
    let json = try runDolphin(["capture", kind, "Write tests", "--workspace", ws, "--json"], stdin: "")
    let error = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((error["error"] as? [String: Any])?["field"] as? String == "kind", "\(json.stdout)")
  }

  @Test("commands that use no workspace say --workspace is ignored; the others describe it", arguments: [
    (["analyze", "--help"], true), (["tools", "--help"], true), (["limits", "--help"], true), (["version", "--help"], true),
    (["search", "--help"], false), (["status", "--help"], false),
  ])
  func workspaceHelp(_ args: [String], ignored: Bool) throws {
    let r = try runDolphin(args, stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("--workspace") }, "\(r.stdout)")
    #expect(line.contains("Accepted and ignored: this command reads and writes no workspace.") == ignored, "\(line)")
    #expect(line.contains("$DOLPHIN_HOME") == !ignored, "\(line)")
  }
}
