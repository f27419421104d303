import Foundation
import Testing
import TestSupport

/// Regression (review, s13): once the client had closed its end of `dolphin mcp`'s output
/// (`… | dolphin mcp | head -c 10`), the server logged "Broken pipe" for every answer but kept
/// reading requests and running their tools: a `knowledge_capture` sent afterwards was stored
/// for a client that was gone. Once a send fails, or the output reports the closed pipe before
/// the next message is handled, nothing more is handled.
@Suite("dolphin mcp stops handling requests once its output is closed", .serialized)
struct MCPClosedOutputTests {
  @Test(
    "a capture sent after the output broke is not run, whether or not an answer failed first",
    arguments: [true, false])
  func noWriteAfterBrokenOutput(pingFirst: Bool) throws {
    let home = TemporaryDirectory("mcp-closed-output")
    defer { home.remove() }
    let initialize =
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
    let initialized = #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
    // The ping's answer is the first write after `head` has gone: it fails with EPIPE.
    let ping = #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#
    let capture =
      #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"written after the client vanished"}}}"#
    func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    // Without the ping, no answer fails before the capture arrives (second review, s13): the
    // server sees the closed pipe before handling it.
    let first = pingFirst ? "echo \(quoted(ping)); sleep 1; " : ""
    let script =
      "(echo \(quoted(initialize)); echo \(quoted(initialized)); sleep 1; \(first)"
      + "echo \(quoted(capture)); sleep 1) | \(quoted(dolphinExecutable().path)) mcp --writes allow "
      + "2>\(quoted(home.appending("stderr").path)) | head -c 10 >/dev/null"
    let run = try runProcess("/bin/sh", ["-c", script], environment: ["DOLPHIN_HOME": home.appending("ws").path])
    #expect(run.status == 0, "\(run.stderr)")
    let log = try String(contentsOf: home.appending("stderr"), encoding: .utf8)
    #expect(log.components(separatedBy: "no further message is handled").count == 2, "said once: \(log)")
    #expect(log.components(separatedBy: "could not send a message").count <= 2, "at most one failed send: \(log)")
    // Nothing was captured: the workspace was never even created by a write.
    let list = try runProcess(dolphinExecutable().path, ["knowledge", "list", "--json"], environment: ["DOLPHIN_HOME": home.appending("ws").path])
    #expect(!list.stdout.contains("written after the client vanished") && !list.stderr.contains("written after"), "\(list.stdout)")
  }
}
