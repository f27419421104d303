import ContinuityKit
import Foundation
import MCPServer
import Testing

@Suite("StdioTransport")
struct StdioTransportTests {
  /// A pipe's two descriptors.
  struct Pipe {
    let read: Int32
    let write: Int32

    init() throws {
      var fds: [Int32] = [0, 0]
      try #require(pipe(&fds) == 0)
      read = fds[0]
      write = fds[1]
    }
  }

  private func writeAll(_ text: String, to descriptor: Int32) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = Foundation.write(
          descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }

  private func readAll(_ descriptor: Int32) -> String {
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes {
        Foundation.read(descriptor, $0.baseAddress, $0.count)
      }
      if count <= 0 { break }
      output.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: output, as: UTF8.self)
  }

  @Test("A session over pipes: every output byte belongs to a JSON-RPC line")
  func sessionOverPipes() async throws {
    let input = try Pipe()
    let output = try Pipe()
    let transport = StdioTransport(
      input: input.read, output: output.write, maximumMessageBytes: 256)
    let logs = Recorder()
    let server = MCPServer(
      configuration: .init(
        version: "1.0", limits: JSONRPCLimits(maximumMessageBytes: 256), log: { logs.record($0) }),
      tools: FakeTools())
    let serving = Task { await server.run(transport: transport) }

    writeAll(
      [
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{}}}"#,
        #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        #"{"jsonrpc":"2.0","id":"007","method":"ping"}"#,
        "not json",
        #"{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":""#
          + String(repeating: "x", count: 300) + #""}}"#,
        #"{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"echo","arguments":{"n":1e400}}}"#,
      ].joined(separator: "\n") + "\n", to: input.write)
    close(input.write)
    await serving.value
    close(output.write)
    let lines = readAll(output.read).split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    close(input.read)
    close(output.read)

    #expect(lines.count == 6)
    #expect(lines.last == "")  // the output ends with a newline
    for line in lines.dropLast() {
      let value = try JSONValue(parsing: line)
      #expect(value["jsonrpc"] == "2.0")
    }
    #expect(
      lines[0].hasPrefix(
        #"{"id":1,"jsonrpc":"2.0","result":{"capabilities":{"tools":{"listChanged":false}},"protocolVersion":"2025-11-25""#
      ))
    #expect(lines[1] == #"{"id":"007","jsonrpc":"2.0","result":{}}"#)
    #expect(try JSONValue(parsing: lines[2]).errorCode == -32700)
    #expect(try JSONValue(parsing: lines[3]).errorCode == -32600)
    // The oversized line's id is read from its first bytes (review 22, 4: it was null).
    #expect(try JSONValue(parsing: lines[3])["id"] == 2)
    #expect(
      lines[4].hasPrefix(
        #"{"id":9007199254740993,"jsonrpc":"2.0","result":{"content":[{"text":"{\"n\":1e400}","type":"text"}]"#
      ))
    #expect(
      logs.all.contains(
        "dolphin mcp: the client asked for MCP revision 2099-01-01; answering with 2025-11-25"))
  }

  @Test(
    "Writing after the reader has gone fails with a transport error instead of killing the process")
  func brokenPipe() async throws {
    let output = try Pipe()
    close(output.read)
    let transport = StdioTransport(input: output.write, output: output.write)
    await #expect(throws: MCPServerError.self) {
      try await transport.send(Array("{}".utf8))
    }
    close(output.write)
  }
}
