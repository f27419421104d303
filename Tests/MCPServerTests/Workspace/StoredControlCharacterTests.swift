import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Regression (open point, s22): a knowledge item whose stored text held control characters
/// (written by another program, or before a sanitizer rule existed) came out of `knowledge_get`
/// with them silently dropped from the text — `Bell title` for `Bell<BEL> title` — so the text
/// showed a record other than the one stored, while `dolphin knowledge get` shows them. The text
/// now shows them as the CLI does (escapes in the title, pictures in the content), and
/// `structuredContent` carries the stored strings exactly.
@Suite("Stored control characters over MCP: shown, never dropped")
struct StoredControlCharacterTests {
  static let title = "Bell\u{7} title\u{1B}[1m"
  static let content = "Body\u{7} text\u{1B}[31m red\nsecond line"

  /// A fixture holding one fact whose title and content hold BEL and ESC, written straight to
  /// the store (capture would drop them).
  static func fixture() throws -> (WorkspaceFixture, KnowledgeItem) {
    let fixture = WorkspaceFixture()
    var item = try fixture.capture(.fact, "Bell title", content: "Body text")
    item.title = title
    item.content = content
    try fixture.engine.store.write { tx in _ = try tx.updateKnowledge(item) }
    return (fixture, item)
  }

  /// Whether `text` holds a control character other than `\n` and `\t`.
  static func holdsControl(_ text: String) -> Bool {
    text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
  }

  @Test("knowledge_get over the server: the text shows BEL and ESC as the CLI does, structuredContent holds them exactly")
  func knowledgeGet() async throws {
    let (fixture, item) = try Self.fixture()
    let session = WorkspaceServerTests.Session(fixture: fixture)
    _ = try await session.initialize("{}")
    session.send(
      #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_get","arguments":{"id":"\#(item.id.uuidString)"}}}"#)
    let line = try #require(await session.transport.nextOutbound(timeout: testOutboundWait))
    // JSON's own escapes on the wire.
    #expect(line.contains(#"Bell\u0007 title\u001b[1m"#), "\(line)")
    let answer = try JSONValue(parsing: line)
    let result = try #require(answer["result"])
    #expect(result["isError"] == false)
    let stored = try #require(result["structuredContent"]?["item"])
    #expect(stored["title"]?.string == Self.title)
    #expect(stored["content"]?.string == Self.content)
    let text = try #require(result["content"]?.array?.first?["text"]?.string)
    // The title as `dolphin knowledge get` prints it (`fact: Bell\u{7} title\u{1B}[1m`), the
    // content with control pictures, its second line indented.
    #expect(text.contains(#"fact: Bell\u{7} title\u{1B}[1m"#), "\(text)")
    #expect(text.contains("content:\n  Body\u{2407} text\u{241B}[31m red\n  second line"), "\(text)")
    #expect(!Self.holdsControl(text), "\(text.debugDescription)")
    session.transport.finishInbound()
    await session.serving.value
  }

  @Test("knowledge_search quotes the title with escapes; project_context shows a digest line's controls as pictures")
  func searchAndContext() async throws {
    let (fixture, _) = try Self.fixture()
    var decision = try fixture.capture(.decision, "Adopt SQLite", content: "fine")
    decision.title = "Adopt\u{7} SQLite"
    try fixture.engine.store.write { tx in _ = try tx.updateKnowledge(decision) }
    let provider = RegistryToolProvider(workspace: fixture.workspace)
    let context = FakeElicitation { MCPElicitationResult(action: .decline) }.context(canElicit: false)
    let found = await provider.callTool(name: "knowledge_search", arguments: ["query": "bell"], context: context)
    #expect(!found.isError, "\(found.text)")
    #expect(found.text.contains(#""Bell\u{7} title\u{1B}[1m""#), "\(found.text)")
    #expect(!Self.holdsControl(found.text), "\(found.text.debugDescription)")
    #expect(found.structuredContent?["results"]?.array?.first?["title"]?.string == Self.title)
    let digest = await provider.callTool(name: "project_context", arguments: [:], context: context)
    #expect(!digest.isError, "\(digest.text)")
    #expect(digest.text.contains("Adopt\u{2407} SQLite"), "\(digest.text)")
    #expect(!Self.holdsControl(digest.text), "\(digest.text.debugDescription)")
  }

  @Test("resources: a knowledge item's title and description show escapes, the digest pictures, the JSON the stored text")
  func resources() throws {
    let (fixture, item) = try Self.fixture()
    let provider = WorkspaceResourceProvider(workspace: fixture.workspace)
    let listed = try #require(try provider.listResources(cursor: nil).resources.first { $0.uri.hasSuffix(item.id.uuidString) })
    #expect(listed.title == #"fact: Bell\u{7} title\u{1B}[1m"#)
    #expect(listed.description == #"Body\u{7} text\u{1B}[31m red"#)
    let json = try #require(try provider.readResource(uri: WorkspaceResourceProvider.knowledgeURI(item.id)).first?.text)
    let read = try JSONValue(parsing: json)
    #expect(read["title"]?.string == Self.title)
    #expect(read["content"]?.string == Self.content)
    // A fact is no digest line: a decision with a BEL in its title is.
    var decision = try fixture.capture(.decision, "Adopt SQLite", content: "fine")
    decision.title = "Adopt\u{7} SQLite"
    try fixture.engine.store.write { tx in _ = try tx.updateKnowledge(decision) }
    let digest = try #require(try provider.readResource(uri: WorkspaceResourceProvider.digestURI).first?.text)
    #expect(digest.contains("Adopt\u{2407} SQLite"), "\(digest)")
    #expect(!Self.holdsControl(digest), "\(digest.debugDescription)")
  }
}
