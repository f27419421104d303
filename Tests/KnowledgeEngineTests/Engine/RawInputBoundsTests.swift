import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Bounds are checked on the text as given, before the sanitizer drops control characters,
/// and text that loses everything to the sanitizer is refused instead of stored empty.
@Suite("Raw input bounds at capture")
struct RawInputBoundsTests {
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var store: @Sendable (KnowledgeEngine) throws -> Void
    var message: String
    var description: String { name }
  }

  static let controls20k = String(repeating: "\u{1}", count: 20_000)
  static let controls = String(repeating: "\u{1}\u{200B}", count: 50)

  static let cases: [Case] = [
    Case(
      name: "content of 20,000 control characters", store: { e in
        _ = try e.capture(CaptureRequest(kind: .fact, title: "t", content: controls20k))
      }, message: "content is 20000 characters; the limit is 16000 characters"),
    Case(
      name: "content of only control and invisible characters", store: { e in
        _ = try e.capture(CaptureRequest(kind: .fact, title: "t", content: controls))
      }, message: "content has nothing printable: all 100 character(s) given are control or invisible"),
    Case(
      name: "title of only control characters", store: { e in
        _ = try e.capture(CaptureRequest(kind: .fact, title: "\u{1}\u{2}"))
      }, message: "title has nothing printable"),
    Case(
      name: "memory of 20,000 control characters", store: { e in _ = try e.saveMemory(text: controls20k) },
      message: "text is 20000 characters; the limit is 16000 characters"),
    Case(
      name: "memory of only control characters", store: { e in _ = try e.saveMemory(text: controls) },
      message: "text has nothing printable"),
    Case(
      name: "task notes over the limit as given", store: { e in
        _ = try e.addTask(title: "t", notes: String(repeating: "\u{7}", count: 4_001))
      }, message: "notes is 4001 characters; the limit is 4000 characters"),
    Case(
      name: "task notes of only control characters", store: { e in
        _ = try e.addTask(title: "t", notes: controls)
      }, message: "notes has nothing printable"),
    Case(
      name: "handoff summary of only control characters", store: { e in
        _ = try e.createHandoff(HandoffRequest(focus: "f", summary: controls))
      }, message: "summary has nothing printable"),
    // Review (s16): white space alone was stored as given in content and notes, and taken as
    // "no summary" in a handoff, while invisible characters were refused: one rule now.
    Case(
      name: "content of only white space", store: { e in
        _ = try e.capture(CaptureRequest(kind: .fact, title: "t", content: "   "))
      }, message: "content has nothing printable: all 3 character(s) given are white space; give text, or an empty value for none; nothing was stored"),
    Case(
      name: "content of a line break", store: { e in
        _ = try e.capture(CaptureRequest(kind: .fact, title: "t", content: "\n"))
      }, message: "content has nothing printable: all 1 character(s) given are white space"),
    Case(
      name: "task notes of only white space", store: { e in
        _ = try e.addTask(title: "t", notes: " \t ")
      }, message: "notes has nothing printable: all 3 character(s) given are white space"),
    Case(
      name: "handoff summary of only white space", store: { e in
        _ = try e.createHandoff(HandoffRequest(focus: "f", summary: "  \n "))
      }, message: "summary has nothing printable: all 4 character(s) given are white space; give text, or an empty value for none; no handoff was stored (leave the summary out to have one built by rules)"),
    // s17: a required field given only white space said "must not be empty", while the tools
    // said "nothing printable" for the same text: one wording, naming what was given.
    Case(
      name: "title of only white space", store: { e in
        _ = try e.capture(CaptureRequest(kind: .fact, title: " \t "))
      }, message: "title has nothing printable: all 3 character(s) given are white space, and a value is required; nothing was stored"),
    Case(
      name: "memory of only white space", store: { e in _ = try e.saveMemory(text: "\n\n") },
      message: "text has nothing printable: all 2 character(s) given are white space, and a value is required"),
    Case(
      name: "task title of only white space", store: { e in _ = try e.addTask(title: "  ") },
      message: "title has nothing printable: all 2 character(s) given are white space, and a value is required"),
    Case(
      name: "handoff focus of only white space", store: { e in
        _ = try e.createHandoff(HandoffRequest(focus: "\u{3000}"))
      }, message: "focus has nothing printable: all 1 character(s) given are white space, and a value is required"),
    Case(
      name: "handoff next step of only white space", store: { e in
        _ = try e.createHandoff(HandoffRequest(focus: "f", nextSteps: ["ok", " "]))
      }, message: "nextSteps[1] has nothing printable: all 1 character(s) given are white space, and a value is required"),
    Case(
      name: "empty title", store: { e in _ = try e.capture(CaptureRequest(kind: .fact, title: "")) },
      message: "title must not be empty"),
    Case(
      name: "handoff focus over the limit as given", store: { e in
        _ = try e.createHandoff(HandoffRequest(focus: String(repeating: "\u{1}", count: 301) + "f"))
      }, message: "focus is 302 characters; the limit is 300 characters"),
  ]

  @Test("refused, naming the field, with nothing stored", arguments: cases)
  func refused(_ c: Case) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "kept", content: "already stored"))
    do {
      try c.store(engine)
      Issue.record("\(c.name) was accepted")
    } catch let WorkspaceError.validation(e) {
      #expect(e.message.contains(c.message), "\(e.message)")
    }
    let items = try engine.listKnowledge()
    #expect(items.map(\.title) == ["kept"] && items[0].content == "already stored")
    #expect(try engine.listMemories().isEmpty && engine.listTasks().isEmpty && engine.listHandoffs().handoffs.isEmpty)
  }

  @Test("text with some printable characters is stored without the controls; an empty content or summary means none")
  func printableSurvives() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let a = try engine.capture(CaptureRequest(kind: .fact, title: "t\u{1}", content: "\u{1}ok\u{200B}"))
    #expect(a.item.title == "t" && a.item.content == "ok")
    let b = try engine.capture(CaptureRequest(kind: .fact, title: "u", content: ""))
    #expect(b.item.content == "")
    let c = try engine.capture(CaptureRequest(kind: .fact, title: "v", content: "  two spaces, then text\n"))
    #expect(c.item.content == "  two spaces, then text\n", "content keeps its white space around text")
    let h = try engine.createHandoff(HandoffRequest(focus: "f", summary: ""))
    #expect(!h.handoff.summary.isEmpty, "an empty summary asks for one built by rules")
  }
}
