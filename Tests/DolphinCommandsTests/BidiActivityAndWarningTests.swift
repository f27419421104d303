import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `dolphin activity` printed an MCP call's id and arguments as the client sent them, and
/// warnings printed a workspace path as given: a right-to-left override (U+202E) in either
/// reordered the rest of the line on the screen. They now show bidi controls as escapes, as
/// error messages do; `--json` keeps the exact values.
@Suite("Bidi controls in activity receipts and warnings", .serialized)
struct BidiActivityAndWarningTests {
  @Test("activity shows an MCP call id and arguments holding bidi controls as escapes; --json keeps them")
  func activityEscapesBidi() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "seed"]).status == 0)
    let call =
      #"{"jsonrpc":"2.0","id":"call\u202Eevil","method":"tools/call","params":{"name":"knowledge_get","arguments":{"id":"txt.\u202Eexe"}}}"#
    // A refused call keeps its arguments as sent (a successful one stores them sanitized).
    let run = try MCPRun(workspace: cli.workspace, lines: initializeLines + [call])
    #expect(run.status == 0, "\(run.stderr)")

    let activity = try cli.run(["activity"])
    #expect(activity.status == 0, "\(activity.stderr)")
    #expect(!activity.stdout.unicodeScalars.contains(where: { $0.properties.isBidiControl }), "\(activity.stdout.debugDescription)")
    #expect(activity.stdout.contains(#"call "call\u{202E}evil" "#), "\(activity.stdout)")
    #expect(activity.stdout.contains(#"{"id":"txt.\u{202E}exe"}"#), "\(activity.stdout)")

    let json = try cli.json(["activity"])
    let receipt = try #require((json["receipts"] as? [[String: Any]])?.last)
    #expect(receipt["callID"] as? String == "\"call\u{202E}evil\"")
    #expect((receipt["arguments"] as? String)?.contains("txt.\u{202E}exe") == true, "\(receipt)")
  }

  @Test("the open-directory warning shows a workspace path holding bidi controls as escapes")
  func warningEscapesBidi() throws {
    let dir = TemporaryDirectory("bidi-warning")
    defer { dir.remove() }
    let workspace = dir.appending("ws\u{202E}txt").path
    try FileManager.default.createDirectory(atPath: workspace, withIntermediateDirectories: true)
    chmod(workspace, 0o755)
    let r = try runDolphin(["capture", "fact", "hi", "--workspace", workspace])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains(#"dolphin: warning: workspace directory "#), "\(r.stderr)")
    #expect(r.stderr.contains(#"ws\u{202E}txt is accessible by other users"#), "\(r.stderr.debugDescription)")
    #expect(!r.stderr.unicodeScalars.contains(where: { $0.properties.isBidiControl }), "\(r.stderr.debugDescription)")
  }
}
