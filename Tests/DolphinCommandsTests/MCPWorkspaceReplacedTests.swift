import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 19-a (`/tmp/r19a/repro/workspace_replaced.py`): with `dolphin mcp` running, the user
/// reset the workspace (`rm -rf`, then `dolphin capture` made a new one there). The server kept
/// its connection to the deleted file: its next capture was answered "Captured …" and lost at
/// exit, its search found only that capture, and stderr said nothing. Now the server opens what
/// is at the path, says so once on stderr, and every capture ends up in the workspace there.
@Suite("dolphin mcp when its workspace is deleted or replaced", .serialized)
struct MCPWorkspaceReplacedTests {
  /// A `dolphin mcp` process that is sent one line at a time and answers before the next.
  final class Server {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    var buffered = Data()
    var nextID = 0

    init(workspace: String) throws {
      process.executableURL = dolphinExecutable()
      process.arguments = ["mcp", "--workspace", workspace, "--writes", "allow"]
      process.standardInput = input
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      for line in initializeLines { send(line) }
      _ = try response("0")
    }

    func send(_ line: String) {
      input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Reads stdout until the response with the JSON id `id` arrives.
    func response(_ id: String) throws -> JSONValue {
      while true {
        while let newline = buffered.firstIndex(of: 0x0A) {
          let line = buffered[buffered.startIndex..<newline]
          buffered = Data(buffered[(newline + 1)...])
          let message = try JSONValue(parsing: String(decoding: line, as: UTF8.self))
          if message["id"].map({ $0.jsonString() }) == id { return message }
        }
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { throw CocoaError(.fileReadUnknown) }
        buffered.append(chunk)
      }
    }

    /// Calls `tool` and returns its result.
    func call(_ tool: String, _ arguments: JSONObject) throws -> JSONValue {
      nextID += 1
      let request: JSONValue = [
        "jsonrpc": "2.0", "id": .integer(nextID), "method": "tools/call",
        "params": ["name": .string(tool), "arguments": .object(arguments)],
      ]
      send(request.jsonString())
      return try #require(try response("\(nextID)")["result"])
    }

    /// Closes stdin, waits for the exit, and returns stderr.
    func finish() -> String {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
      return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
  }

  static func text(_ result: JSONValue) -> String { result["content"]?.array?.first?["text"]?.string ?? "" }

  /// The titles `dolphin knowledge list --json` finds at `workspace`.
  static func titles(_ workspace: String) throws -> [String] {
    let run = try runDolphin(["knowledge", "list", "--json", "--workspace", workspace])
    let listed = try JSONValue(parsing: run.stdout)
    return (listed["items"]?.array ?? listed.array ?? []).compactMap { $0["title"]?.string }.sorted()
  }

  @Test("rm -rf, then dolphin capture makes a new workspace there: the server's next capture lands in it, its search finds both")
  func resetByTheCLI() throws {
    let directory = TemporaryDirectory("mcp-replaced")
    defer { directory.remove() }
    let workspace = directory.appending("ws").path
    let server = try Server(workspace: workspace)
    #expect(try Self.text(server.call("knowledge_capture", ["kind": "fact", "title": "original one"])).hasPrefix("Captured fact"))

    try FileManager.default.removeItem(atPath: workspace)
    #expect(try runDolphin(["capture", "fact", "cli after reset", "--workspace", workspace]).status == 0)

    let capture = try server.call("knowledge_capture", ["kind": "fact", "title": "mcp after reset"])
    #expect(capture["isError"] == false, "\(capture)")
    let search = Self.text(try server.call("knowledge_search", ["query": "after reset"]))
    #expect(search.contains("\"cli after reset\"") && search.contains("\"mcp after reset\""), "\(search)")
    let stderr = server.finish()
    #expect(try Self.titles(workspace) == ["cli after reset", "mcp after reset"])
    let notices = stderr.split(separator: "\n").filter { $0.contains("while the server ran") }
    #expect(notices.count == 1, "\(stderr)")
    #expect(notices.first?.hasPrefix("dolphin mcp: notice: \(workspace)/workspace.sqlite is another file than the one the server opened") == true)
  }

  @Test("rm -rf alone: reads say no workspace exists yet; the next capture creates it again and is kept")
  func deletedOnly() throws {
    let directory = TemporaryDirectory("mcp-deleted")
    defer { directory.remove() }
    let workspace = directory.appending("ws").path
    let server = try Server(workspace: workspace)
    _ = try server.call("knowledge_capture", ["kind": "fact", "title": "original one"])
    try FileManager.default.removeItem(atPath: workspace)

    let search = Self.text(try server.call("knowledge_search", ["query": "original"]))
    #expect(search.hasPrefix("There is no workspace at \(workspace) yet"), "\(search)")
    #expect(!FileManager.default.fileExists(atPath: workspace))
    let capture = try server.call("knowledge_capture", ["kind": "fact", "title": "after rm"])
    #expect(capture["isError"] == false, "\(capture)")
    let stderr = server.finish()
    #expect(try Self.titles(workspace) == ["after rm"])
    #expect(stderr.contains("\(workspace)/workspace.sqlite was deleted or moved away (or its directory was) while the server ran"), "\(stderr)")
  }
}
