import Foundation
import Testing
import TestSupport

/// Regression (review, s13): once the client had closed its end of `dolphin mcp`'s output
/// (`… | dolphin mcp | head -c 10`), the server logged "Broken pipe" for every answer but kept
/// reading requests and running their tools: a `knowledge_capture` sent afterwards was stored
/// for a client that was gone. After the first failed send, nothing more is handled.
@Suite("dolphin mcp stops handling requests once its output is closed", .serialized)
struct MCPClosedOutputTests {
  @Test("a capture sent after the output broke is not run")
  func noWriteAfterBrokenOutput() throws {
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
    let script =
      "(echo \(quoted(initialize)); echo \(quoted(initialized)); sleep 1; echo \(quoted(ping)); sleep 1; "
      + "echo \(quoted(capture)); sleep 1) | \(quoted(dolphinExecutable().path)) mcp --writes allow "
      + "2>\(quoted(home.appending("stderr").path)) | head -c 10 >/dev/null"
    let run = try runProcess("/bin/sh", ["-c", script], environment: ["DOLPHIN_HOME": home.appending("ws").path])
    #expect(run.status == 0, "\(run.stderr)")
    let log = try String(contentsOf: home.appending("stderr"), encoding: .utf8)
    #expect(log.contains("no further message is handled"), "\(log)")
    #expect(log.components(separatedBy: "could not send a message").count == 2, "one failed send, then silence: \(log)")
    // Nothing was captured: the workspace was never even created by a write.
    let list = try runProcess(dolphinExecutable().path, ["knowledge", "list", "--json"], environment: ["DOLPHIN_HOME": home.appending("ws").path])
    #expect(!list.stdout.contains("written after the client vanished") && !list.stderr.contains("written after"), "\(list.stdout)")
  }
}
