import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Review 19-a: `rm -rf` of the workspace (or a new workspace made at its path) while the server
/// ran left it writing into the deleted file — "Captured …" answered, the capture lost at exit —
/// and reading stale records. The server now opens the workspace at the path again, says so once
/// through its notice, and a write that was already running on the old file is refused.
@Suite("MCP on a workspace removed or replaced while the server runs", .serialized)
struct ReplacedWorkspaceTests {
  /// A workspace directory, the MCP workspace over it, and the notices it gave.
  struct Place {
    let dir = TemporaryDirectory("mcp-replaced-ws")
    let notices = Recorder()
    var ws: URL { dir.appending("ws") }
    let workspace: MCPWorkspace

    init() {
      let ws = dir.appending("ws")
      let notices = self.notices
      workspace = MCPWorkspace(path: ws.path, notice: { line in notices.record(line) }) {
        KnowledgeEngine(store: try SQLiteWorkspaceStore.open(directory: ws, creation: .atFirstWrite), environment: fixedEnvironment())
      }
    }

    var said: [String] { notices.all }

    /// Titles in the workspace at the path, read by a process of its own (as the CLI would).
    var titlesOnDisk: [String] {
      get throws {
        let store = try SQLiteWorkspaceStore.open(directory: ws, create: false)
        defer { store.closeConnection() }
        return try store.read { tx in try tx.listKnowledge().map(\.title) }.sorted()
      }
    }
  }

  static let context = FakeElicitation { MCPElicitationResult(action: .accept, content: ["approve": true]) }.context(canElicit: false)

  static func capture(_ provider: RegistryToolProvider, _ title: String) async -> MCPToolResult {
    await provider.callTool(name: "knowledge_capture", arguments: ["kind": "fact", "title": .string(title)], context: context)
  }

  @Test("deleted, then another workspace made at the path: reads and writes reach the new one; nothing is lost")
  func replacedByAnotherWorkspace() async throws {
    let place = Place()
    defer { place.dir.remove() }
    let provider = RegistryToolProvider(workspace: place.workspace, writes: .allow)
    #expect(await !Self.capture(provider, "Original one").isError)

    try FileManager.default.removeItem(at: place.ws)
    let other = try SQLiteWorkspaceStore.open(directory: place.ws)
    _ = try KnowledgeEngine(store: other).capture(CaptureRequest(kind: .fact, title: "CLI after reset"))
    other.closeConnection()

    let search = await provider.callTool(name: "knowledge_search", arguments: ["query": "after reset"], context: Self.context)
    #expect(search.text.contains("\"CLI after reset\""), "\(search.text)")
    let write = await Self.capture(provider, "MCP after reset")
    #expect(!write.isError, "\(write.text)")
    #expect(try place.titlesOnDisk == ["CLI after reset", "MCP after reset"])
    // Said once, naming the file, however many calls followed.
    #expect(place.said.count == 1)
    #expect(place.said.first?.hasPrefix(place.ws.appendingPathComponent("workspace.sqlite").path + " is another file than the one the server opened") == true)
  }

  @Test("deleted: reads say that no workspace exists yet; the next write creates it again with only what it writes")
  func deleted() async throws {
    let place = Place()
    defer { place.dir.remove() }
    let provider = RegistryToolProvider(workspace: place.workspace, writes: .allow)
    #expect(await !Self.capture(provider, "Original one").isError)
    try FileManager.default.removeItem(at: place.ws)

    let list = await provider.callTool(name: "task_list", arguments: [:], context: Self.context)
    #expect(list.text.hasPrefix("There is no workspace at \(place.ws.path) yet"), "\(list.text)")
    #expect(!FileManager.default.fileExists(atPath: place.ws.path), "a read created the workspace")
    #expect(place.said.count == 1)
    #expect(place.said.first?.contains("was deleted or moved away (or its directory was) while the server ran") == true)

    #expect(await !Self.capture(provider, "After the reset").isError)
    #expect(try place.titlesOnDisk == ["After the reset"])
    #expect(place.said.count == 1)
  }

  @Test("resources read what is at the path now")
  func resources() async throws {
    let place = Place()
    defer { place.dir.remove() }
    let provider = RegistryToolProvider(workspace: place.workspace, writes: .allow)
    #expect(await !Self.capture(provider, "Original one").isError)
    let resources = WorkspaceResourceProvider(workspace: place.workspace)
    #expect(try resources.listResources(cursor: nil).resources.contains { $0.title == "fact: Original one" })
    try FileManager.default.removeItem(at: place.ws)
    #expect(try !resources.listResources(cursor: nil).resources.contains { $0.title == "fact: Original one" })
    #expect(place.said.count == 1)
  }

  @Test("an engine taken before the workspace was replaced writes nothing: its write fails, saying to run it again")
  func writeAlreadyUnderway() throws {
    let place = Place()
    defer { place.dir.remove() }
    let engine = try place.workspace.engineForWriting()
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Original one"))
    try FileManager.default.removeItem(at: place.ws)
    let other = try SQLiteWorkspaceStore.open(directory: place.ws)
    other.closeConnection()
    #expect(throws: WorkspaceError.notAtPath(file: engine.store.databasePath, removed: false)) {
      _ = try engine.capture(CaptureRequest(kind: .fact, title: "Lost write"))
    }
    #expect(try place.titlesOnDisk == [])
  }
}
