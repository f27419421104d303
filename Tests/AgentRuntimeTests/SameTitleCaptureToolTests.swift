import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// `knowledge_capture` names the items of its kind that already had the title, in its text and
/// its structured output (`sameTitle`, `sameTitleTotal`), and stores the item all the same.
@Suite("knowledge_capture: items with the same title")
struct SameTitleCaptureToolTests {
  @Test("the text and the structured output name the earlier item; none gives an empty list; both validate")
  func namesEarlierItem() async throws {
    let engine = makeEngine()
    let first = try await BoundedListingToolsTests.run(
      engine, "knowledge_capture", ["kind": "preference", "title": "Tabs for indentation"])
    #expect(first.structured["sameTitle"] == [])
    #expect(first.structured["sameTitleTotal"] == 0)
    #expect(!first.text.contains("already had this title"), "\(first.text)")
    let firstID = try #require(first.structured["item"]?["id"]?.string)

    let second = try await BoundedListingToolsTests.run(
      engine, "knowledge_capture", ["kind": "preference", "title": "tabs for  INDENTATION"])
    #expect(second.structured["sameTitle"] == [.string(firstID)])
    #expect(second.structured["sameTitleTotal"] == 1)
    #expect(
      second.text.contains(" 1 other preference item(s) already had this title: \(firstID) (knowledge_get shows them)."),
      "\(second.text)")
    #expect(try engine.listKnowledge(kinds: [.preference]).count == 2, "stored all the same")
    for output in [first, second] {
      #expect(OutputSchemaTests.problems(output.structured, try ToolRegistry.standard.tool(named: "knowledge_capture").outputSchema) == [])
    }
  }
}
