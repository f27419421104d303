import ContinuityKit
import MCPServer
import Testing

/// Review 19-a (5): a reply to an unknown request id was copied to standard error whole (one
/// 1 MB line), the client's `protocolVersion` was logged with its ESC and NUL bytes raw
/// (terminal escape injection when run by hand with `--verbose`), and a client that never read
/// standard error could fill the pipe and block the server with stray replies. Every line is
/// now bounded and escaped, and a session logs only its first ignored messages.
@Suite("The server's diagnostic lines")
struct MCPServerLogTests {
  @Test("logLine escapes every control and bidirectional control and cuts at logLineLimit characters")
  func logLine() {
    #expect(MCPServer.logLine("plain line") == "plain line")
    #expect(MCPServer.logLine("a\u{1B}[2Jb\u{0}c\nd\te\u{202E}f") == #"a\u{1B}[2Jb\u{0}c\nd\te\u{202E}f"#)
    let long = MCPServer.logLine(String(repeating: "x", count: 1_000_000))
    #expect(long.count == MCPServer.logLineLimit)
    #expect(long.hasSuffix(Truncation.marker))
    // Escaping cannot take a line past the bound either.
    let escapes = MCPServer.logLine(String(repeating: "\u{1B}", count: 900))
    #expect(escapes.count == MCPServer.logLineLimit && escapes.hasSuffix(Truncation.marker))
  }

  @Test("a 1 MB reply to an unknown request id is logged as its first characters, on one bounded line")
  func largeStrayReply() async throws {
    let client = TestClient()
    try await client.initialize()
    let pad = String(repeating: "x", count: 1_000_000)
    client.send(#"{"jsonrpc":"2.0","id":999,"result":{"pad":"\#(pad)"}}"#)
    try await client.expectPing()
    let lines = client.logs.all.filter { $0.contains("unknown request id 999") }
    #expect(lines.count == 1)
    let line = try #require(lines.first)
    #expect(line.count <= MCPServer.logLineLimit)
    #expect(line.hasPrefix(#"dolphin mcp: ignored a response to an unknown request id 999: {"jsonrpc":"2.0","id":999,"result":{"pad":"xxx"#))
    #expect(line.hasSuffix(Truncation.marker))
  }

  @Test("the revision a client asked for is logged with its controls escaped, and cut")
  func protocolVersionEscaped() async throws {
    let client = TestClient()
    try await client.initialize(version: "\u{1B}[2J\u{1B}[31mRED\u{0}")
    let line = try #require(client.logs.all.first { $0.contains("asked for MCP revision") })
    #expect(line == #"dolphin mcp: the client asked for MCP revision \u{1B}[2J\u{1B}[31mRED\u{0}; answering with 2025-11-25"#)
    #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })

    let long = TestClient()
    try await long.initialize(version: String(repeating: "9", count: 100_000))
    let longLine = try #require(long.logs.all.first { $0.contains("asked for MCP revision") })
    #expect(longLine.count < 200, "\(longLine.count) characters")
    #expect(longLine.hasSuffix("; answering with 2025-11-25"))
  }

  @Test("a session logs its first 100 ignored messages, then says further ones go unlogged; it keeps answering")
  func ignoredMessagesCapped() async throws {
    let client = TestClient()
    try await client.initialize()
    for id in 1...150 { client.send(#"{"jsonrpc":"2.0","id":\#(10_000 + id),"result":{}}"#) }
    client.send("   ")
    try await client.expectPing()
    let logs = client.logs.all
    #expect(logs.filter { $0.contains("ignored a response to an unknown request id") }.count == 100)
    #expect(logs.filter { $0.contains("further ignored messages of this session are not logged") }.count == 1)
    #expect(!logs.contains { $0.contains("blank line") })
  }
}
