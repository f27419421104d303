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

/// Regression (review 29a, 7): `dolphin mcp` exited 0 after its transport broke (stdout on
/// `/dev/full`, a closed stdout, a pipe whose reader left), so a supervisor could not tell that
/// from a clean shutdown. It now exits 5 (storage and I/O) and says why on its last line; a
/// clean end of input still exits 0.
@Suite("dolphin mcp exits 5 when its output fails, 0 after a clean end of input", .serialized)
struct MCPTransportFailureExitTests {
  static let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#

  func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

  /// Runs `echo PING | dolphin mcp REDIRECT` in bash and returns the exit status of `dolphin`
  /// (not of a later pipeline stage) and its standard error.
  func run(_ redirect: String, tail: String = "") throws -> (status: String, stderr: String) {
    let home = TemporaryDirectory("mcp-transport-exit")
    defer { home.remove() }
    let errors = home.appending("stderr").path
    let script =
      "echo \(quoted(Self.ping)) | \(quoted(dolphinExecutable().path)) mcp --workspace \(quoted(home.appending("ws").path)) "
      + "\(redirect) 2>\(quoted(errors)) \(tail); echo \"rc=${PIPESTATUS[1]}\""
    let result = try runProcess("/bin/bash", ["-c", script])
    let log = (try? String(contentsOf: URL(fileURLWithPath: errors), encoding: .utf8)) ?? ""
    return (result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), log)
  }

  @Test("standard output on /dev/full: exit 5, with the reason")
  func fullDevice() throws {
    let (status, log) = try run(">/dev/full")
    #expect(status == "rc=5", "\(log)")
    #expect(log.contains("dolphin: error: dolphin mcp stopped because its output failed"), "\(log)")
    #expect(log.contains("No space left on device"), "\(log)")
  }

  @Test("standard output closed: exit 5")
  func closedOutput() throws {
    let (status, log) = try run(">&-")
    #expect(status == "rc=5", "\(log)")
    #expect(log.contains("its output failed"), "\(log)")
  }

  @Test("the reader of the output pipe has gone (EPIPE): exit 5")
  func brokenPipe() throws {
    // `true` exits without reading, so the ping's answer meets a pipe with no reader.
    let home = TemporaryDirectory("mcp-transport-epipe")
    defer { home.remove() }
    let script =
      "(sleep 1; echo \(quoted(Self.ping))) | \(quoted(dolphinExecutable().path)) mcp --workspace "
      + "\(quoted(home.appending("ws").path)) 2>\(quoted(home.appending("stderr").path)) | true; "
      + "echo \"rc=${PIPESTATUS[1]}\""
    let result = try runProcess("/bin/bash", ["-c", script])
    let log = (try? String(contentsOf: home.appending("stderr"), encoding: .utf8)) ?? ""
    #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "rc=5", "\(log)")
    #expect(log.contains("its output failed"), "\(log)")
  }

  @Test("a clean end of input after every answer was written: exit 0, no error")
  func cleanShutdown() throws {
    let (status, log) = try run(">/dev/null")
    #expect(status == "rc=0", "\(log)")
    #expect(!log.contains("dolphin: error"), "\(log)")
  }
}
