import ContinuityKit
import Foundation
import Testing

@testable import KnowledgeEngine

extension CodeReview {
  @Suite("SARIF")
  struct SARIFReportTests {
    func makeLog() throws -> (SARIFReport, [String: Any]) {
      let a = try CodeAnalyzer.analyze(
        source: "let x = y!\nlet z = try! f() // TODO: later\n", fileName: "Sources/App/A.swift")
      let b = try CodeAnalyzer.analyze(
        source: "n += step * 2\nn += step * 2\nn += step * 2\n", fileName: "My Dir/B.swift")
      let log = SARIFReport(
        reports: [a, b], notices: ["Big.swift: skipped, 250000 bytes is over the limit"])
      let object = try JSONSerialization.jsonObject(with: log.jsonData())
      return (log, try #require(object as? [String: Any]))
    }

    @Test("required SARIF 2.1.0 structure")
    func structure() throws {
      let (_, json) = try makeLog()
      #expect(json["version"] as? String == "2.1.0")
      #expect((json["$schema"] as? String)?.hasSuffix("sarif-schema-2.1.0.json") == true)
      let runs = try #require(json["runs"] as? [[String: Any]])
      #expect(runs.count == 1)
      let run = runs[0]
      let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
      #expect(driver["name"] as? String == "dolphin-analyze")
      #expect(driver["informationUri"] == nil)
      let rules = try #require(driver["rules"] as? [[String: Any]])
      let ruleIDs = rules.compactMap { $0["id"] as? String }
      #expect(ruleIDs == CodeRule.allCases.map(\.rawValue).sorted())
      for rule in rules {
        let short = rule["shortDescription"] as? [String: Any]
        #expect((short?["text"] as? String)?.isEmpty == false)
      }
      #expect(run["columnKind"] as? String == "utf16CodeUnits")

      let results = try #require(run["results"] as? [[String: Any]])
      #expect(results.count == 4)
      for result in results {
        let ruleID = try #require(result["ruleId"] as? String)
        let index = try #require(result["ruleIndex"] as? Int)
        #expect(ruleIDs[index] == ruleID)
        #expect(["warning", "note"].contains(result["level"] as? String))
        #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
        let locations = try #require(result["locations"] as? [[String: Any]])
        let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
        let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
        #expect(!uri.hasPrefix("/") && URL(string: uri) != nil)
        let region = try #require(physical["region"] as? [String: Any])
        #expect((region["startLine"] as? Int ?? 0) >= 1)
        #expect((region["startColumn"] as? Int ?? 0) >= 1)
      }
      let invocations = try #require(run["invocations"] as? [[String: Any]])
      #expect(invocations.first?["executionSuccessful"] as? Bool == true)
      let notifications = invocations.first?["toolExecutionNotifications"] as? [[String: Any]]
      #expect(notifications?.count == 1)
    }

    @Test("results carry the findings' rules, levels, places and URIs")
    func values() throws {
      let (log, _) = try makeLog()
      let results = log.runs[0].results
      #expect(results.map(\.ruleId) == ["force_unwrap", "force_try", "todo", "repeated_line"])
      #expect(results.map(\.level) == ["warning", "warning", "note", "note"])
      let places = results.map {
        let p = $0.locations[0].physicalLocation
        return "\(p.artifactLocation.uri):\(p.region.startLine):\(p.region.startColumn ?? 0)"
      }
      #expect(
        places == [
          "Sources/App/A.swift:1:10", "Sources/App/A.swift:2:9", "Sources/App/A.swift:2:21",
          "My%20Dir/B.swift:1:1",
        ])
      #expect(results[3].relatedLocations?.map(\.physicalLocation.region.startLine) == [2, 3])
      #expect(log.runs[0].properties.analysis == "heuristic")
      #expect(log.runs[0].properties.notChecked == CodeRule.notChecked)
      #expect(log.runs[0].tool.driver.rules.map(\.id) == CodeRule.allCases.map(\.rawValue).sorted())
    }

    /// The text SARIF 2.1.0 says a text region denotes (§3.30.2 and §3.30.5–3.30.8): line
    /// `startLine` (lines end at `\r\n` or `\n`), from `startColumn` (absent: 1) up to, not
    /// including, `endColumn` (absent: one past the line's last character, its terminator
    /// excluded), counted in UTF-16 code units (`columnKind` `utf16CodeUnits`).
    static func text(of region: SARIFReport.Region, in source: String) throws -> String {
      // By scalars: `\r\n` is one Character, which a split on "\n" would not see.
      let lines = source.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        Array(String(String.UnicodeScalarView(line.last == "\r" ? line.dropLast() : line)).utf16)
      }
      let line = try #require(lines.indices.contains(region.startLine - 1) ? lines[region.startLine - 1] : nil)
      let start = (region.startColumn ?? 1) - 1
      let end = (region.endColumn ?? line.count + 1) - 1
      try #require(0 <= start && start <= end && end <= line.count, "columns \(start + 1)..<\(end + 1) of a \(line.count)-unit line")
      return String(decoding: line[start..<end], as: UTF16.self)
    }

    /// Sources whose findings sit after indentation, tabs, non-BMP characters, before trailing
    /// blanks and CRLF, and on lines longer than the snippet bound.
    static let regionSources: [String] = [
      "    let x = y!   \n",
      "\tlet z = try! f() // TODO: later\r\nlet c = v as! Int\r\n",
      "let e = \"😀👨‍👩‍👧\"; q!.b\n",
      "let s = [" + String(repeating: "a!, ", count: 60) + "]\n",
      "  n += step * 2\n  n += step * 2\n  n += step * 2\n",
      "func f() {\n if a {\n  if b {\n   if c {\n    if d {\n     if e {  \n     }\n    }\n   }\n  }\n }\n}\n",
    ]

    @Test("each region's snippet is exactly the source text its columns denote", arguments: regionSources)
    func snippetMatchesRegion(_ source: String) throws {
      let report = try CodeAnalyzer.analyze(source: source, fileName: "R.swift")
      #expect(!report.findings.isEmpty)
      let log = SARIFReport(reports: [report])
      for result in log.runs[0].results {
        let region = result.locations[0].physicalLocation.region
        let snippet = try #require(region.snippet?.text, "\(result.ruleId) at \(region.startLine)")
        #expect(!snippet.isEmpty)
        #expect(try Self.text(of: region, in: source) == snippet, "\(result.ruleId) at \(region.startLine):\(region.startColumn ?? 1)")
        #expect(snippet.count <= CodeFinding.snippetLimit)
        #expect(!snippet.hasSuffix(Truncation.marker))
      }
    }

    @Test("a finding's region runs from its column, untrimmed, to the end of its line or the snippet bound")
    func regionColumns() throws {
      let report = try CodeAnalyzer.analyze(source: "\tlet z = try! f()   \r\n", fileName: "R.swift")
      let region = try #require(SARIFReport(reports: [report]).runs[0].results.first?.locations[0].physicalLocation.region)
      #expect(region.startLine == 1)
      #expect(region.startColumn == 10)
      #expect(region.endColumn == 21)
      #expect(region.snippet?.text == "try! f()   ")
      // The display snippet stays the trimmed line; the excerpt is the region's text.
      #expect(report.findings.first?.snippet == "let z = try! f()")
      #expect(report.findings.first?.excerpt == "try! f()   ")
      let long = try CodeAnalyzer.analyze(source: String(repeating: "x", count: 300) + "\n", fileName: "L.swift")
      let longRegion = try #require(SARIFReport(reports: [long]).runs[0].results.first?.locations[0].physicalLocation.region)
      #expect(longRegion.startColumn == 121)
      #expect(longRegion.endColumn == 241)
      #expect(longRegion.snippet?.text == String(repeating: "x", count: 120))
    }

    @Test("same input, byte-identical output")
    func deterministic() throws {
      let (first, _) = try makeLog()
      let (second, _) = try makeLog()
      #expect(try first.jsonData() == second.jsonData())
      let decoded = try JSONDecoder().decode(SARIFReport.self, from: first.jsonData())
      #expect(decoded == first)
    }
  }
}
