import Foundation
import Testing

@testable import KnowledgeEngine

extension CodeReview {
  /// Review 28-b, 1: a `hardcoded_secret` finding withheld its own line, but a `todo`,
  /// `long_line`, `force_try` (…) on the same line printed it, secret and all, as its snippet and
  /// excerpt, in text, JSON and SARIF.
  @Suite("withheld secret lines")
  struct WithheldSecretLineTests {
    /// The secrets in ``source``; none may appear in any finding.
    static let secrets = [
      "Xk9#mQ2vLp8Rz4Tw", "AKx9f8e7d6c5b4a3q2w1e9r8t7y6u5i4o3p2", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
      "Zq7pW3rVt9Lm2Xc", "Hv8kD2nQw6Rt1Ys", "Pp0oIi9uYy8tRr7e",
    ]

    /// A configuration file as found in the wild: credentials beside markers, forced
    /// operations, a long line, one split over two lines, one copied further down, one repeated.
    static let source = """
      let password = "Xk9#mQ2vLp8Rz4Tw" // TODO rotate this
      let apiKey = "AKx9f8e7d6c5b4a3q2w1e9r8t7y6u5i4o3p2" ; let somethingElseThatMakesThisLineVeryLongIndeedForTheLongLineRule = 1234567
      let token = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"; let t = try! x()
      let dbPassword = "Zq7pW3rVt9Lm2Xc"; let n = opt!; let m = any as! Int
      connect(host: "db.internal", password:
        "Hv8kD2nQw6Rt1Ys")  // FIXME: move it to the keychain
      print("Xk9#mQ2vLp8Rz4Tw") // TODO: remove the debug line
      setUp(service: "billing", apiToken: "Pp0oIi9uYy8tRr7e", retries: 3)
      setUp(service: "billing", apiToken: "Pp0oIi9uYy8tRr7e", retries: 3)
      setUp(service: "billing", apiToken: "Pp0oIi9uYy8tRr7e", retries: 3)
      let fine = try! loadDefaults() // TODO: keep this one
      """

    static func report(_ rules: Set<CodeRule> = Set(CodeRule.allCases)) throws -> CodeAnalysisReport {
      try CodeAnalyzer.analyze(source: source, fileName: "Config.swift", options: CodeAnalysisOptions(rules: rules))
    }

    @Test("no finding on a line holding a credential prints that line, and each says why it is missing")
    func otherFindingsOnASecretLine() throws {
      let report = try Self.report()
      let others = report.findings.filter { $0.rule != .hardcodedSecret && $0.line <= 10 }
      // Every rule the review named fires on a secret line; each is kept, its line withheld.
      #expect(
        Set(others.map(\.rule)) == [.todo, .longLine, .forceTry, .forceUnwrap, .forceCast, .repeatedLine],
        "\(report.findings.map { "\($0.rule.rawValue)@\($0.line)" })")
      #expect(others.map(\.line).contains(6), "the FIXME on the literal's line of a split assignment")
      #expect(others.map(\.line).contains(7), "the TODO on a line printing the same literal")
      for finding in others {
        #expect(finding.snippet.isEmpty && finding.excerpt.isEmpty, "\(finding)")
        #expect(finding.message.hasSuffix("(\(CodeAnalyzer.withheldLineNote))"), "\(finding.message)")
      }
      let repeated = try #require(report.findings.first { $0.rule == .repeatedLine })
      #expect(repeated.line == 8 && repeated.relatedLines == [8, 9, 10])
      // A line without a credential is shown as before.
      let fine = report.findings.filter { $0.line == 11 }
      #expect(fine.map(\.rule) == [.forceTry, .todo])
      #expect(fine.allSatisfy { $0.snippet == "let fine = try! loadDefaults() // TODO: keep this one" }, "\(fine)")
      #expect(fine.allSatisfy { !$0.message.contains(CodeAnalyzer.withheldLineNote) })
    }

    @Test("no secret reaches the report's JSON or SARIF")
    func noSecretInJSONOrSARIF() throws {
      let report = try Self.report()
      let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
      let sarif = String(decoding: try SARIFReport(reports: [report]).jsonData(), as: UTF8.self)
      for secret in Self.secrets {
        #expect(!json.contains(secret), "JSON holds \(secret)")
        #expect(!sarif.contains(secret), "SARIF holds \(secret)")
      }
      // A withheld region has no snippet and no end column, as a finding whose excerpt is not known.
      let log = try JSONDecoder().decode(SARIFReport.self, from: try SARIFReport(reports: [report]).jsonData())
      let first = try #require(log.runs.first?.results.first { $0.ruleId == "todo" })
      #expect(first.locations.first?.physicalLocation.region.snippet == nil)
      #expect(first.message.text == "TODO marker in a comment (\(CodeAnalyzer.withheldLineNote))")
    }

    @Test("the lines stay withheld when hardcoded_secret is not among the rules run")
    func withheldWithoutTheRule() throws {
      let report = try Self.report(Set(CodeRule.allCases).subtracting([.hardcodedSecret]))
      #expect(report.count(of: .hardcodedSecret) == 0)
      #expect(!report.findings.isEmpty)
      let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
      for secret in Self.secrets { #expect(!json.contains(secret), "JSON holds \(secret)") }
    }

    /// Review 28-d, 1: the value of a flagged secret was printed again from a raw string, from
    /// inside a longer literal, and from a multi-line literal; a private key block in a
    /// multi-line literal was printed by `long_line`.
    @Test("a secret's value is withheld wherever it stands, and so is a multi-line literal holding a credential")
    func valueWithheldEverywhere() throws {
      let key = "sk-live-ABCDEFGHIJKLMNOPQRSTUVWX1234567890abcd"
      let body = "MIIEowIBAAKCAQEA" + String(repeating: "Q", count: 140)
      let source = """
        let apiKey = "\(key)"
        func f() { print("Authorization: Bearer \(key)") } // TODO remove
        let m = #"\(key)"# // TODO raw
        let config = \"\"\"
          api_key: \(key)\(String(repeating: " ", count: 10))\(String(repeating: "x", count: 80))
          \"\"\"
        let privateKey = \"\"\"
        -----BEGIN RSA PRIVATE KEY-----
        \(body)
        -----END RSA PRIVATE KEY-----
        \"\"\"
        let fine = 1 // TODO keep this one
        """
      let report = try CodeAnalyzer.analyze(source: source, fileName: "Keys.swift", options: CodeAnalysisOptions())
      #expect(report.count(of: .hardcodedSecret) >= 1)
      #expect(report.count(of: .todo) == 3 && report.count(of: .longLine) >= 2, "\(report.findings.map(\.rule))")
      let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
      let sarif = String(decoding: try SARIFReport(reports: [report]).jsonData(), as: UTF8.self)
      for secret in [key, "MIIEowIBAAKCAQEAQQQQ"] {
        #expect(!json.contains(secret), "JSON holds \(secret)")
        #expect(!sarif.contains(secret), "SARIF holds \(secret)")
      }
      // A line holding no credential is still shown.
      #expect(report.findings.contains { $0.rule == .todo && $0.snippet.contains("keep this one") })
    }

    /// Review 28-d, 1: a multi-line literal bound to a credential-like name got no
    /// `hardcoded_secret` finding (a private key block's words end in its name's, `privateKey`,
    /// which read as the name of a field), and a one-line multi-line literal's value was printed
    /// again from another line.
    @Test("a multi-line literal bound to a credential-like name is checked like a one-line literal")
    func multiLineLiterals() throws {
      let body = "MIIEowIBAAKCAQEA" + String(repeating: "Q", count: 140)
      let source = """
        let privateKey = \"\"\"
        -----BEGIN RSA PRIVATE KEY-----
        \(body)
        -----END RSA PRIVATE KEY-----
        \"\"\"
        struct Config {
          static let password = \"\"\"
            hunter2Xq9zLm
            \"\"\"
          let apiKey = #\"\"\"
            Zt8wQ1mNp4Rk7Vb2
            \"\"\"#
        }
        print("hunter2Xq9zLm") // TODO: drop the debug print
        let passwordPrompt = \"\"\"
          Enter your password
          \"\"\"
        let secretHint = \"\"\"
          hunter2Xq9zLm
          \"\"\"
        let banner = \"\"\"
          Welcome aboard, here is a longer line of text to show
          \"\"\"
        let token = \"\"\"
          token
          \"\"\"
        let fine = 1 // TODO: keep this one
        """
      let report = try CodeAnalyzer.analyze(source: source, fileName: "Keys.swift", options: CodeAnalysisOptions())
      let secrets = report.findings.filter { $0.rule == .hardcodedSecret }
      #expect(secrets.map(\.line) == [1, 7, 10], "\(secrets.map { "\($0.line): \($0.message)" })")
      #expect(secrets.first?.message.contains("private key") == true, "\(secrets.first?.message ?? "")")
      #expect(secrets.count == 3 && secrets[1].message.contains("in `password`") && secrets[2].message.contains("in `apiKey`"))
      let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
      let sarif = String(decoding: try SARIFReport(reports: [report]).jsonData(), as: UTF8.self)
      for secret in ["MIIEowIBAAKCAQEAQQQQ", "hunter2Xq9zLm", "Zt8wQ1mNp4Rk7Vb2"] {
        #expect(!json.contains(secret), "JSON holds \(secret)")
        #expect(!sarif.contains(secret), "SARIF holds \(secret)")
      }
      // The key block's long line and the debug print of the password are reported, their lines withheld.
      let long = try #require(report.findings.first { $0.rule == .longLine && $0.line == 3 })
      #expect(long.snippet.isEmpty && long.message.hasSuffix("(\(CodeAnalyzer.withheldLineNote))"))
      let debug = try #require(report.findings.first { $0.rule == .todo && $0.line == 14 })
      #expect(debug.snippet.isEmpty, "\(debug)")
      // Prose, a hint's name, a value that spells the name and a line without a credential are left alone.
      #expect(report.findings.contains { $0.rule == .todo && $0.snippet.contains("keep this one") })
    }
  }
}
