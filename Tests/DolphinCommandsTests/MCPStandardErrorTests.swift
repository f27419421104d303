import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 19-a (5, `/tmp/r19a/repro/stderr_echo.py`): `dolphin mcp` wrote a 1 MB reply to an
/// unknown request id to standard error whole, and the client's `protocolVersion` with its raw
/// ESC and NUL bytes. Standard error now grows with events, not with what the client sends.
@Suite("dolphin mcp's standard error is bounded and inert", .serialized)
struct MCPStandardErrorTests {
  @Test("a 1 MB stray reply and an escape-laden protocolVersion: a few short lines, no control byte, every request answered")
  func boundedAndEscaped() throws {
    let directory = TemporaryDirectory("mcp-stderr")
    defer { directory.remove() }
    let initialize: JSONValue = [
      "jsonrpc": "2.0", "id": 0, "method": "initialize",
      "params": ["protocolVersion": "\u{1B}[2J\u{1B}[31mRED\u{0}", "capabilities": [:], "clientInfo": ["name": "t", "version": "1"]],
    ]
    let run = try MCPRun(
      workspace: directory.appending("ws").path,
      lines: [
        initialize.jsonString(),
        #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        #"{"jsonrpc":"2.0","id":999,"result":{"pad":"\#(String(repeating: "x", count: 1_000_000))"}}"#,
        #"{"jsonrpc":"2.0","id":"ping","method":"ping"}"#,
      ])
    #expect(run.status == 0)
    #expect(run.response(#""ping""#)?["result"] == [:])
    #expect(run.stderr.utf8.count < 4_000, "\(run.stderr.utf8.count) bytes on stderr")
    #expect(!run.stderr.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
    #expect(run.stderr.contains(#"the client asked for MCP revision \u{1B}[2J\u{1B}[31mRED\u{0}; answering with 2025-11-25"#), "\(run.stderr)")
    let stray = try #require(run.stderr.split(separator: "\n").first { $0.contains("unknown request id 999") })
    #expect(stray.count <= 1_000 && stray.hasSuffix(Truncation.marker))
  }
}
