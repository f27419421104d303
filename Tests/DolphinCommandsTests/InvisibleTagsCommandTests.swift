import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Regression cases from a review (s8/h5): a tag made only of characters that show nothing (the
/// Braille blank U+2800, soft hyphens, a Hangul filler) was stored and listed as a blank tag,
/// while a whitespace-only or zero-width-space-only tag was dropped. Each is now dropped the
/// same way, whichever way it arrives: `capture --tags`, the MCP `knowledge_capture` tool, or
/// an import file.
@Suite("Invisible-only tags", .serialized)
struct InvisibleTagsCommandTests {
  struct TagsCase: CustomTestStringConvertible, Sendable {
    var name: String
    var tags: String
    var stored: [String]
    var testDescription: String { name }
  }

  static let cases = [
    TagsCase(name: "Braille blank", tags: "\u{2800}", stored: []),
    TagsCase(name: "soft hyphens, two tags", tags: "\u{AD}\u{AD},\u{AD}", stored: []),
    TagsCase(name: "Hangul filler beside a real tag", tags: "Real,\u{3164}", stored: ["real"]),
    TagsCase(name: "whitespace only (as before)", tags: "   ", stored: []),
    TagsCase(name: "zero-width space only (as before)", tags: "\u{200B}", stored: []),
  ]

  @Test("capture --tags drops invisible-only tags as it drops whitespace-only ones", arguments: cases)
  func captureDropsInvisibleTags(_ c: TagsCase) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let captured = try cli.json(["capture", "fact", "Tagged", "--tags", c.tags])
    #expect((captured["item"] as? [String: Any])?["tags"] as? [String] == c.stored)
    let memory = try cli.json(["memory", "save", "Remembered", "--tags", c.tags])
    #expect((memory["memory"] as? [String: Any])?["tags"] as? [String] == c.stored, "\(memory)")
    let list = try cli.json(["knowledge", "list"])
    let items = try #require(list["items"] as? [[String: Any]])
    #expect(items.count == 2)
    for item in items { #expect(item["tags"] as? [String] == c.stored, "\(item)") }
  }

  @Test("the MCP knowledge_capture tool drops invisible-only tags")
  func mcpDropsInvisibleTags() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let call =
      #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"Via MCP","tags":["\u2800","\u00ad\u00ad","Kept"]}}}"#
    let mcp = try cli.run(["mcp", "--writes", "allow"], stdin: (initializeLines + [call]).joined(separator: "\n") + "\n")
    #expect(mcp.status == 0, "\(mcp.stdout)\(mcp.stderr)")
    let list = try cli.json(["knowledge", "list"])
    let items = try #require(list["items"] as? [[String: Any]])
    #expect(items.count == 1, "\(mcp.stdout)")
    #expect(items.first?["tags"] as? [String] == ["kept"])
  }

  @Test("an import drops invisible-only tags of knowledge items; the file stays importable")
  func importDropsInvisibleTags() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let export = DataRightsCommandTests.exportWithKnowledge()
      .replacingOccurrences(of: "\"tags\": []", with: "\"tags\": [\"\\u2800\", \"\\u00ad\\u00ad\", \"Kept\"]")
    let file = cli.dir.appending("tags.json")
    try Data(export.utf8).write(to: file)
    let imported = try cli.run(["import", file.path])
    #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
    let item = try cli.record("item", ["knowledge", "get", "3F2504E0-4F89-11D3-9A0C-0305E82C3301"])
    #expect(item["tags"] as? [String] == ["kept"])
  }
}
