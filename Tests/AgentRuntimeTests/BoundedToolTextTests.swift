import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 19-a (3, 4): `knowledge_search`, `task_search`, `project_context` and
/// `project_review` cut their text at the output bound in the middle of a result (a task's
/// UUID cut in half, `…[truncated]`), never saying that the rest were in `structuredContent`;
/// `code_analyze` showed at most 50 findings and said nothing of the others. Each now shows
/// whole lines within the bound and ends a list it cut short with how many it left out.
@Suite("Tool text cut between results, counting what it left out")
struct BoundedToolTextTests {
  static func run(_ engine: KnowledgeEngine, _ tool: String, _ arguments: JSONValue = [:]) async throws -> ToolOutput {
    try await BoundedListingToolsTests.run(engine, tool, arguments)
  }

  /// Whether `text` is a UUID in upper case, as every rendering prints ids.
  static func isUUID(_ text: Substring) -> Bool {
    text.wholeMatch(of: /[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/) != nil
  }

  /// Checks what every bounded text must hold: within the bound, not cut at its end (a digest
  /// line cut to the digest's own line bound may end with the marker, when `linesMayBeCut`),
  /// and every id it shows whole: each `id ` followed by a hexadecimal digit is a complete UUID.
  static func expectWholeLines(
    _ text: String, linesMayBeCut: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(text.count <= Limits.renderedToolOutput, sourceLocation: sourceLocation)
    #expect(!text.hasSuffix(Truncation.marker), "\(text.suffix(300))", sourceLocation: sourceLocation)
    if !linesMayBeCut {
      #expect(!text.contains(Truncation.marker), "\(text.suffix(300))", sourceLocation: sourceLocation)
    }
    for part in text.components(separatedBy: "id ").dropFirst() {
      let next = part.prefix(36)
      if next.first?.isHexDigit == true {
        #expect(isUUID(next), "a cut id: \(next)", sourceLocation: sourceLocation)
      }
    }
  }

  /// The count on the text's last line, `… and N more of the M listed (not shown: …; structuredContent.FIELD holds every one)`.
  static func omitted(_ text: String, listed: Int, field: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
    let last = try #require(text.split(separator: "\n").last.map(String.init), sourceLocation: sourceLocation)
    let match = try #require(
      last.wholeMatch(of: /… and (\d+) more of the (\d+) listed \(not shown: the text is bounded; structuredContent\.(\w+) holds every one\)/),
      "last line: \(last)", sourceLocation: sourceLocation)
    #expect(Int(match.2) == listed, sourceLocation: sourceLocation)
    #expect(String(match.3) == field, sourceLocation: sourceLocation)
    return try #require(Int(match.1), sourceLocation: sourceLocation)
  }

  @Test("knowledge_search with limit 50 over long results: whole results, then how many more structuredContent.results holds")
  func knowledgeSearch() async throws {
    let engine = makeEngine()
    let body = String(repeating: "The API layer caches responses and invalidates them on writes. ", count: 7)
    for n in 1...50 {
      _ = try engine.capture(
        CaptureRequest(kind: .decision, title: "Cache invalidation decision number \(n) for the API layer", content: body))
    }
    let output = try await Self.run(engine, "knowledge_search", ["query": "cache invalidation", "limit": 50])
    #expect(output.structured["results"]?.array?.count == 50)
    let text = output.text
    #expect(text.hasPrefix("Search mode hybrid-lexical (hybrid-lexical-v1): 50 of 50 match(es)\n"))
    Self.expectWholeLines(text)
    let shown = text.split(separator: "\n").filter { $0.wholeMatch(of: /\d+\. decision .*/) != nil }
    let more = try Self.omitted(text, listed: 50, field: "results")
    #expect(shown.count + more == 50)
    #expect(more > 0 && shown.count > 10, "\(shown.count) shown")
    // Each result shown keeps its snippet with it.
    #expect(text.split(separator: "\n").filter { $0.hasPrefix("   ") }.count == shown.count)
  }

  @Test("task_search with limit 50 over long titles: no id cut in half; the rest are counted")
  func taskSearch() async throws {
    let engine = makeEngine()
    let padding = String(repeating: "with a long explanation of the context ", count: 6)
    for n in 1...60 { _ = try engine.addTask(title: "Deploy the service number \(n) \(padding)") }
    let output = try await Self.run(engine, "task_search", ["query": "deploy service", "limit": 50])
    #expect(output.structured["results"]?.array?.count == 50)
    Self.expectWholeLines(output.text)
    let rows = output.text.split(separator: "\n").filter { $0.hasPrefix("- [ ] ") }
    let more = try Self.omitted(output.text, listed: 50, field: "results")
    #expect(rows.count + more == 50 && more > 0)
    #expect(rows.allSatisfy { $0.hasSuffix(")") })
  }

  /// A workspace whose digest does not fit the bound: 8 decisions with long titles, 12 high
  /// tasks with long titles, each citing 8 knowledge items.
  static func crowdedEngine() throws -> KnowledgeEngine {
    let engine = makeEngine()
    let long = String(repeating: "and the reasoning behind it ", count: 10)
    let decisions = try (1...8).map {
      try engine.capture(CaptureRequest(kind: .decision, title: "Decision \($0) \(long)")).item.id
    }
    for n in 1...12 {
      _ = try engine.addTask(title: "Open task \(n) \(long)", priority: .high, knowledgeIDs: decisions)
    }
    return engine
  }

  @Test("project_context: every section keeps its heading and says how many lines the text left out, and that the digest left out")
  func projectContext() async throws {
    let output = try await Self.run(try Self.crowdedEngine(), "project_context")
    let text = output.text
    Self.expectWholeLines(text, linesMayBeCut: true)
    let sections = try #require(output.structured["sections"])
    // Every section that has lines keeps its heading, however long the ones before it.
    for (name, heading) in [("decisions", "Decisions:"), ("openTasks", "Open tasks:"), ("priorities", "Priorities:")] {
      #expect(sections[name]?.array?.isEmpty == false)
      #expect(text.contains("\n\(heading)\n"), "\(heading) missing")
    }
    // Open tasks: the digest shows 10 of 12 (2 left out); the text shows fewer still.
    let openTasks = try #require(text.split(separator: "\n").first { $0.hasPrefix("  … and ") && $0.contains("open tasks") })
    #expect(
      openTasks.wholeMatch(
        of: /\ \ … and \d+ more open tasks \(\d+ not shown as the text is bounded, structuredContent\.sections\.openTasks holds them; 2 left out by the digest\)/
      ) != nil, "\(openTasks)")
    #expect(text.contains("structuredContent.sections.priorities holds"), "\(text.suffix(500))")
  }

  @Test("project_review: the same, and the insights after the sections")
  func projectReview() async throws {
    let output = try await Self.run(try Self.crowdedEngine(), "project_review")
    Self.expectWholeLines(output.text, linesMayBeCut: true)
    #expect(output.text.contains("\nOpen tasks:\n"))
    #expect(output.text.contains("structuredContent.openTasks holds them; 2 left out by the digest)"), "\(output.text.suffix(800))")
  }

  @Test("a text that fits is unchanged: every line, no count")
  func fits() async throws {
    let engine = makeEngine()
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite"))
    let search = try await Self.run(engine, "knowledge_search", ["query": "sqlite"])
    #expect(!search.text.contains("more of the"))
    let context = try await Self.run(engine, "project_context")
    let id = try #require(engine.listKnowledge().first).id.uuidString
    #expect(context.text.hasSuffix("\nDecisions:\n" + EvidenceLine.render(evidenceIDs: [UUID(uuidString: id)!], text: "Use SQLite")), "\(context.text)")
  }

  @Test("code_analyze lists every finding that fits (60, not 50) and counts the rest past the bound and past the report's cap")
  func codeAnalyze() async throws {
    let sixty = (0..<60).map { "let x\($0) = y\($0)!" }.joined(separator: "\n") + "\n"
    let output = try await Self.run(makeEngine(), "code_analyze", ["code": .string(sixty)])
    let lines = output.text.split(separator: "\n")
    #expect(
      lines.first.map(String.init)
        == "Heuristic code analysis (not a compiler): 60 finding(s). "
        + CodeRule.checkedLine(CodeRule.allCases) + ". " + CodeRule.notCheckedLine)
    #expect(lines.count == 61, "\(output.text.suffix(300))")
    #expect(lines.last?.hasPrefix("60:") == true)

    let many = (0..<3_000).map { "let x\($0) = y\($0)!" }.joined(separator: "\n") + "\n"
    let big = try await Self.run(makeEngine(), "code_analyze", ["code": .string(many)])
    #expect(big.structured["findings"]?.array?.count == Limits.codeAnalysisFindings)
    let total = try #require(big.structured["totalFindings"]?.int)
    Self.expectWholeLines(big.text)
    let shown = big.text.split(separator: "\n").dropFirst().filter { $0.first?.isNumber == true }.count
    let last = try #require(big.text.split(separator: "\n").last.map(String.init))
    let match = try #require(
      last.wholeMatch(
        of: /… and (\d+) more finding\(s\) \(not shown: the text is bounded; structuredContent\.findings holds (\d+) of them; the report lists only the first (\d+) of the (\d+), and structuredContent\.counts counts each rule's findings\)/
      ), "\(last)")
    #expect(Int(match.1) == total - shown)
    #expect(Int(match.2) == Limits.codeAnalysisFindings - shown)
    #expect(Int(match.3) == Limits.codeAnalysisFindings)
    #expect(Int(match.4) == total)
  }
}
