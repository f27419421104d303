import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing

extension CodeReview {
  @Suite("CodeFinding decoding")
  struct CodeFindingTests {
    /// `Fixtures/analyze-json-before-excerpt.json`: `dolphin analyze Old.swift --json` as a build
    /// from before findings carried an excerpt wrote it (today's output without the `excerpt`
    /// keys, the only change since).
    static func oldDocument() throws -> Data {
      let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/analyze-json-before-excerpt.json")
      return try Data(contentsOf: url)
    }

    @Test("an analyze --json document from before excerpts decodes, each finding with an empty excerpt")
    func oldDocumentDecodes() throws {
      let data = try Self.oldDocument()
      #expect(!String(decoding: data, as: UTF8.self).contains("excerpt"))
      let analysis = try JSONDecoder().decode(PathAnalysis.self, from: data)
      let report = try #require(analysis.reports.first)
      #expect(analysis.nonSwiftCount == 0, "not counted before; the key is absent")
      #expect(report.fileName == "Old.swift")
      #expect(report.findings.map(\.rule) == [.forceTry, .todo, .forceUnwrap, .forceCast])
      #expect(report.findings.map(\.snippet).first == "let a = try! load()   // TODO: handle")
      #expect(report.findings.map(\.column) == [9, 26, 14, 11])
      #expect(report.findings.allSatisfy { $0.excerpt.isEmpty })
      // The same source analyzed now, with the old report's rules and threshold (rules and a
      // default have been added since), differs only by the excerpts.
      let source = "let a = try! load()   // TODO: handle\n    let b = c!\nlet x = y as! Int\n"
      let oldOptions = CodeAnalysisOptions(
        rules: report.options.rules, nestingThreshold: report.options.nestingThreshold)
      var now = try CodeAnalyzer.analyze(source: source, fileName: "Old.swift", options: oldOptions)
      #expect(now.findings.allSatisfy { !$0.excerpt.isEmpty })
      for i in now.findings.indices { now.findings[i].excerpt = "" }
      #expect(now == report)
    }

    @Test("a SARIF log from an old report has regions without snippets, never a snippet its columns contradict")
    func oldReportToSARIF() throws {
      let analysis = try JSONDecoder().decode(PathAnalysis.self, from: try Self.oldDocument())
      let log = try JSONSerialization.jsonObject(with: SARIFReport(reports: analysis.reports).jsonData()) as? [String: Any]
      let results = try #require(((log?["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
      #expect(results.count == 4)
      for result in results {
        let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] != nil && region["startColumn"] != nil)
        #expect(region["snippet"] == nil && region["endColumn"] == nil, "\(region)")
      }
    }

    @Test("a present excerpt is kept, and one of the wrong type is still an error")
    func presentExcerpt() throws {
      let finding = #"{"column":9,"excerpt":"try! f()","line":1,"message":"m","rule":"force_try","severity":"warning","snippet":"let a = try! f()","utf16Column":9}"#
      #expect(try JSONDecoder().decode(CodeFinding.self, from: Data(finding.utf8)).excerpt == "try! f()")
      let wrong = finding.replacingOccurrences(of: #""excerpt":"try! f()""#, with: #""excerpt":7"#)
      #expect(throws: DecodingError.self) { try JSONDecoder().decode(CodeFinding.self, from: Data(wrong.utf8)) }
      let noSnippet = finding.replacingOccurrences(of: #""snippet":"let a = try! f()","#, with: "")
      #expect(throws: DecodingError.self) { try JSONDecoder().decode(CodeFinding.self, from: Data(noSnippet.utf8)) }
    }
  }
}
