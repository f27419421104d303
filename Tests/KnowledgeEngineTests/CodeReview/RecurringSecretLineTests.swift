import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

extension CodeReview {
  /// Review 29-b, 4: a flagged multi-line secret's lines were withheld, but when one of them
  /// occurred again elsewhere — the same base64 chunk on another line, reported by `todo`,
  /// `force_try`, `long_line` or `repeated_line`, in the same file or another one analyzed with
  /// it — that finding printed it.
  @Suite("recurring secret lines")
  struct RecurringSecretLineTests {
    /// Lines of the key block and of the token literal; none may be printed by any finding.
    static let keyLine = "MIIEowIBAAKCAQEAx7Zq9Lm3Pk2Wv8Rt5Ys1Nb6Hc4Jd0Fg2Ke7Qw3Xz9Aa"
    static let secondKeyLine = "Qk7Vb2Lp9Xc3Mq6Wd1Yf4Hs8Jk2Zt8wQ1mNp4Rk7Vb2Lp9Xc3Mq6Wd1Yf4Hs"
    static let tokenTail = "blob QQQQ9876zz"

    /// A key block bound to `privateKey`, a raw multi-line token bound to `apiKey`, and their
    /// lines again further down: in a literal with a TODO, beside a `try!`, three times (a
    /// `repeated_line`), inside a longer line (a `long_line`), and a short key line (`AbCdEf12`).
    static let source = """
      let privateKey = \"\"\"
      -----BEGIN RSA PRIVATE KEY-----
      \(keyLine)
      \(secondKeyLine)
      AbCdEf12
      -----END RSA PRIVATE KEY-----
      \"\"\"
      let apiKey = #\"\"\"
        ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789
        second line of the token \(tokenTail)
        \"\"\"#
      let copy = "\(secondKeyLine)" // TODO remove
      let again = "second line of the token \(tokenTail)"; let x = try! f()
      register(chunk: "\(keyLine)", into: table, retries: 3)
      register(chunk: "\(keyLine)", into: table, retries: 3)
      register(chunk: "\(keyLine)", into: table, retries: 3)
      let part = "prefix-\(String(keyLine.prefix(20)))" + padding + "\(String(repeating: "p", count: 90))"
      let short = "AbCdEf12" // TODO short line of the key
      let fine = try! loadDefaults() // TODO: keep this one
      """

    static let secrets = [keyLine, secondKeyLine, tokenTail, String(keyLine.prefix(20)), "AbCdEf12"]

    static func expectNoSecret(in report: CodeAnalysisReport, _ comment: Comment? = nil) throws {
      let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
      let sarif = String(decoding: try SARIFReport(reports: [report]).jsonData(), as: UTF8.self)
      for secret in secrets {
        #expect(!json.contains(secret), "JSON holds \(secret) \(comment?.description ?? "")")
        #expect(!sarif.contains(secret), "SARIF holds \(secret) \(comment?.description ?? "")")
      }
    }

    @Test("a line of a flagged multi-line secret found again in the file is withheld, whichever rule reports it")
    func recurringInTheSameFile() throws {
      let report = try CodeAnalyzer.analyze(source: Self.source, fileName: "Keys.swift", options: CodeAnalysisOptions())
      #expect(report.findings.filter { $0.rule == .hardcodedSecret }.map(\.line) == [1, 8])
      try Self.expectNoSecret(in: report)
      // Each recurrence is still reported, its line withheld and said so.
      for (rule, line) in [(CodeRule.todo, 12), (.forceTry, 13), (.repeatedLine, 14), (.longLine, 17), (.todo, 18)] {
        let finding = try #require(report.findings.first { $0.rule == rule && $0.line == line }, "\(rule) at \(line)")
        #expect(finding.snippet.isEmpty && finding.excerpt.isEmpty, "\(finding)")
        #expect(finding.message.hasSuffix("(\(CodeAnalyzer.withheldLineNote))"), "\(finding.message)")
      }
      // A line holding none of it is shown.
      let fine = report.findings.filter { $0.line == 19 }
      #expect(!fine.isEmpty && fine.allSatisfy { $0.snippet == "let fine = try! loadDefaults() // TODO: keep this one" }, "\(fine)")
    }

    @Test("the same holds when hardcoded_secret is not among the rules run")
    func recurringWithoutTheRule() throws {
      let rules = Set(CodeRule.allCases).subtracting([.hardcodedSecret])
      let report = try CodeAnalyzer.analyze(source: Self.source, fileName: "Keys.swift", options: CodeAnalysisOptions(rules: rules))
      #expect(report.count(of: .hardcodedSecret) == 0 && report.count(of: .todo) == 3)
      try Self.expectNoSecret(in: report)
    }

    @Test("a line of a secret found in one file is withheld in every other file of the run")
    func recurringInAnotherFile() throws {
      let dir = TemporaryDirectory("recurring-secret")
      defer { dir.remove() }
      try Data(Self.source.utf8).write(to: dir.appending("A.swift"))
      let other = """
        let chunk = "\(Self.keyLine)" // TODO remove
        let t = "second line of the token \(Self.tokenTail)"; let y = try! g()
        let fine = try! h() // TODO: keep this one
        """
      try Data(other.utf8).write(to: dir.appending("B.swift"))
      let analysis = CodeAnalyzer.analyze(paths: [dir.url.path])
      #expect(analysis.reports.map { URL(fileURLWithPath: $0.fileName).lastPathComponent } == ["A.swift", "B.swift"])
      for report in analysis.reports { try Self.expectNoSecret(in: report, "\(report.fileName)") }
      let b = try #require(analysis.reports.last)
      #expect(b.count(of: .hardcodedSecret) == 0, "nothing in B.swift is assigned to a credential-like name")
      for finding in b.findings where finding.line < 3 {
        #expect(finding.snippet.isEmpty && finding.message.hasSuffix("(\(CodeAnalyzer.withheldLineNote))"), "\(finding)")
      }
      #expect(b.findings.filter { $0.line == 3 }.allSatisfy { $0.snippet == "let fine = try! h() // TODO: keep this one" })
      // Analyzed alone, B.swift holds no credential the analysis can see: its lines are shown.
      let alone = try CodeAnalyzer.analyze(source: other, fileName: "B.swift")
      #expect(alone.findings.contains { $0.snippet.contains(Self.keyLine) })
    }

    @Test("what counts as a secret's text found again")
    func secretText() {
      var text = SecretText()
      text.add(Array("short".utf8))
      #expect(text.isEmpty, "under 8 bytes: not matched elsewhere")
      text.add(Array("AbCdEf12".utf8))
      text.add(Array(Self.keyLine.utf8))
      #expect(text.occurs(in: "x = \"AbCdEf12\""))
      // Key material (letters and digits): parts of it count (review 30-b, 3), 6 bytes of a
      // line of 8, 8 of a longer one.
      #expect(text.occurs(in: "x = \"AbCdEf\""))
      #expect(!text.occurs(in: "x = \"AbCdE\""))
      #expect(text.occurs(in: "let p = \"" + Self.keyLine.dropFirst(30).prefix(8) + "\""), "8 bytes in a row")
      #expect(!text.occurs(in: "let p = \"" + Self.keyLine.dropFirst(30).prefix(7) + "\""), "7 bytes are not")
      #expect(!text.occurs(in: "let fine = try! loadDefaults()"))
      // Prose around it: 12 bytes in a row.
      text.add(Array("second line of the token".utf8))
      #expect(text.occurs(in: "// the line of the token"), "12 bytes in a row")
      #expect(!text.occurs(in: "// fetch the token"), "11 bytes are not")
    }
  }
}
