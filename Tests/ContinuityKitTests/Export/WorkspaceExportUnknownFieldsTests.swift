import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Regression (review, s14): a member an import document does not define — `"evil": "x"` in a
/// knowledge record, a mistyped `"priorty"` — was dropped without a word. The format has readers
/// ignore such fields (Docs/ExportFormat.md, "Versions"), so import still goes on, but
/// ``WorkspaceExport/unknownFields(in:)`` names each so that `dolphin import` can warn.
@Suite("Export document unknown fields")
struct WorkspaceExportUnknownFieldsTests {
  static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

  /// A document with every record type and every optional field set, as an export writes it.
  static func fullDocument() throws -> Data {
    let decision = KnowledgeItem(
      id: sequentialID(1), kind: .decision, title: "Use SQLite for the workspace", content: "WAL.",
      source: .legacyMemory, tags: ["storage"], relationships: [.init(kind: .supports, targetID: sequentialID(2))],
      priority: .high, createdAt: t0, updatedAt: t0, revision: 2, memoryID: sequentialID(3))
    let line = DigestLine(text: "Use SQLite for the workspace", evidenceIDs: [sequentialID(1)], evidenceTotal: 3)
    let workspace = AssistantWorkspace(
      knowledge: [decision],
      memories: [MemoryItem(id: sequentialID(3), text: "Use SQLite", tags: ["storage"], createdAt: t0, knowledgeID: sequentialID(1))],
      tasks: [
        TaskItem(
          id: sequentialID(4), title: "Write the README", notes: "Export.", status: .completed, priority: .high,
          createdAt: t0, completedAt: t0, knowledgeIDs: [sequentialID(1)])
      ],
      handoffs: [
        Handoff(
          id: sequentialID(5), focus: "Export format", summary: "Versioned JSON.", nextSteps: ["Test it"],
          knowledgeIDs: [sequentialID(1)], taskIDs: [sequentialID(4)], recentExcerpts: ["user: how?"], createdAt: t0,
          restoredAt: t0)
      ],
      digests: [
        Digest(
          id: sequentialID(6), createdAt: t0, trigger: .captureThreshold(count: 5),
          sections: DigestSections(
            decisions: [line], preferences: [line], goals: [line], openTasks: [line], recentContext: [line],
            priorities: [line], questions: [line],
            omitted: DigestOmissions(
              decisions: 1, preferences: 2, goals: 3, openTasks: 4, recentContext: 5, priorities: 6, questions: 7)),
          algorithm: "rule-based-digest", algorithmVersion: "1")
      ],
      conversations: [Conversation(id: sequentialID(7), title: "Restore", createdAt: t0)],
      messages: [ChatMessage(id: sequentialID(8), conversationID: sequentialID(7), role: .user, text: "Hi", createdAt: t0)],
      settings: Settings(assistantName: "Flipper", responseStyle: .concise, calendarAccessEnabled: true, knowledgeItemLimit: 20_000),
      receipts: [
        ActivityReceipt(
          id: sequentialID(9), callID: "call-1", tool: "knowledge_search", risk: "readOnly", arguments: "{}",
          outcome: .succeeded, changedIDs: [sequentialID(1)], startedAt: t0, finishedAt: t0, approval: "notRequired",
          message: "1 result")
      ],
      checkpoints: [RunCheckpoint(id: sequentialID(10), runID: sequentialID(11), step: 1, state: "finished", note: "done", createdAt: t0)],
      activeHandoffID: sequentialID(5))
    let export = WorkspaceExport(
      exportedAt: t0, generator: "dolphin test", workspace: workspace,
      quarantine: [
        .init(sourceFile: "workspace.json", collection: "memories", recordIndex: 3, reason: "text is empty", raw: "{}", quarantinedAt: t0)
      ])
    return try export.jsonData()
  }

  @Test("every field an export writes is known: a full document has no unknown field")
  func exportHasNone() throws {
    let data = try Self.fullDocument()
    // Each optional field is present, so a field added to a record but not to the format's
    // list of fields shows here.
    let text = String(decoding: data, as: UTF8.self)
    for optional in ["memoryID", "knowledgeID", "completedAt", "restoredAt", "approval", "activeHandoffID", "count"] {
      #expect(text.contains("\"\(optional)\""), "\(optional) missing from the full document")
    }
    #expect(WorkspaceExport.unknownFields(in: data) == [])
  }

  @Test("members the format does not define are named by their JSON path, in document order")
  func unknownNamed() throws {
    var root = try JSONValue(parsing: Self.fullDocument())
    guard case .object(var top) = root, case .object(var workspace)? = top["workspace"],
      case .array(var knowledge)? = workspace["knowledge"], case .object(var item) = knowledge[0],
      case .array(var relationships)? = item["relationships"], case .object(var relationship) = relationships[0],
      case .object(var settings)? = workspace["settings"]
    else {
      Issue.record("unexpected document shape")
      return
    }
    item["evil"] = "x"
    item["priorty"] = "high"
    relationship["weight"] = 2
    relationships[0] = .object(relationship)
    item["relationships"] = .array(relationships)
    knowledge[0] = .object(item)
    workspace["knowledge"] = .array(knowledge)
    settings["theme"] = ["dark": true]
    workspace["settings"] = .object(settings)
    top["workspace"] = .object(workspace)
    top["note for\nreviewers"] = "hello"
    root = .object(top)
    let data = Data(root.serialized())
    #expect(
      WorkspaceExport.unknownFields(in: data) == [
        "workspace.knowledge[0].relationships[0].weight", "workspace.knowledge[0].evil",
        "workspace.knowledge[0].priorty", "workspace.settings.theme", #"["note for\nreviewers"]"#,
      ])
    // The format has readers ignore them: the document still decodes.
    #expect(throws: Never.self) { try WorkspaceExport.decode(data, fileName: "e.json") }
  }

  /// Regression (review, s14): Foundation refused a lone surrogate escape with only "The given
  /// data was not valid JSON."
  @Test("a lone surrogate escape is refused naming its line, column and the escape")
  func loneSurrogateLocated() throws {
    let text = String(decoding: try WorkspaceExportTests.sample.jsonData(), as: UTF8.self)
      .replacingOccurrences(of: #""title" : "Use SQLite""#, with: #""title" : "Use SQLite \ud800""#)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let line = try #require(lines.firstIndex { $0.contains(#"\ud800"#) })
    let column = try #require(lines[line].utf8.firstIndex(of: UInt8(ascii: "\\")))
    let columnNumber = lines[line].utf8.distance(from: lines[line].utf8.startIndex, to: column) + 1
    let byte = try #require(text.utf8.firstIndex(of: UInt8(ascii: "\\")))
    let byteOffset = text.utf8.distance(from: text.utf8.startIndex, to: byte)
    #expect(throws: ExportDocumentError.malformed(
      file: "e.json", path: "",
      message: #"not valid JSON at line \#(line + 1), column \#(columnNumber) (byte \#(byteOffset)): \ud800 is a UTF-16 surrogate escape without its partner; pair \uD8xx with \uDCxx"#
    )) {
      try WorkspaceExport.decode(Data(text.utf8), fileName: "e.json")
    }
  }
}
