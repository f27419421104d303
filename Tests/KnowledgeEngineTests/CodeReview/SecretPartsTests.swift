import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

extension CodeReview {
  /// Review 30-b, 3: `analyze` withheld a line holding 12 bytes in a row of a flagged secret,
  /// so the secret was printed in pieces of 11 bytes or less (11 + 9 on one line, 11 in another
  /// file, a wrap-around); an escaped literal was compared as written, so its decoded value
  /// elsewhere was printed; and `hardcoded_secret` missed a value with an escaped quote, a raw
  /// literal and a dictionary literal's value.
  @Suite("secret parts and spellings")
  struct SecretPartsTests {
    /// Analyzes `files` (name, source) together, as `dolphin analyze a.swift b.swift` does.
    static func analyze(_ files: [(String, String)]) throws -> PathAnalysis {
      let dir = TemporaryDirectory("secret-parts")
      defer { dir.remove() }
      for (name, source) in files { try Data(source.utf8).write(to: dir.appending(name)) }
      return CodeAnalyzer.analyze(paths: files.map { dir.appending($0.0).path })
    }

    /// The report of the file named `name` (its last path component).
    static func report(_ name: String, in analysis: PathAnalysis) throws -> CodeAnalysisReport {
      try #require(analysis.reports.first { URL(fileURLWithPath: $0.fileName).lastPathComponent == name })
    }

    /// The reports as `--json` and SARIF print them.
    static func printed(_ analysis: PathAnalysis) throws -> (json: String, sarif: String) {
      let json = String(decoding: try JSONEncoder().encode(analysis.reports), as: UTF8.self)
      let sarif = String(decoding: try SARIFReport(reports: analysis.reports).jsonData(), as: UTF8.self)
      return (json, sarif)
    }

    /// Each finding on `lines` of `report` is there, its snippet and excerpt withheld and said so.
    static func expectWithheld(_ report: CodeAnalysisReport, lines: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
      for line in lines {
        let found = report.findings.filter { $0.line == line }
        #expect(!found.isEmpty, "a finding on line \(line)", sourceLocation: sourceLocation)
        for finding in found {
          #expect(finding.snippet.isEmpty && finding.excerpt.isEmpty, "\(finding)", sourceLocation: sourceLocation)
          if finding.rule != .hardcodedSecret {
            #expect(finding.message.hasSuffix("(\(CodeAnalyzer.withheldLineNote))"), "\(finding.message)", sourceLocation: sourceLocation)
          }
        }
      }
    }

    @Test("a secret found again in pieces shorter than 12 bytes, or wrapping around, is withheld (the reviewer's files)")
    func piecesOfASecret() throws {
      let a = """
        import Foundation
        // TODO: rotate Zq8vLm3KpR7wXy2N before release
        let password = "Zq8vLm3KpR7wXy2NbT5h"
        func f() {
          let x = try! load("Zq8vLm3KpR7wXy2NbT5h")  // TODO fix
          // TODO: old one was Zq8vLm3KpR7 and tail wXy2NbT5h
          let y = dict["k"]!
          if a { if b { if c { if d { if e { print("Zq8vLm3KpR7wX") } } } } }
        }
        """
      let b = """
        // TODO remember Zq8vLm3KpR7wXy2NbT5h here
        // TODO partial Zq8vLm3KpR7 only
        let z = try! q()  // NbT5hZq8vLm3 wrap-around
        let fine = try! h() // TODO: Zq8vL is five bytes of it
        """
      let analysis = try Self.analyze([("a.swift", a), ("b.swift", b)])
      let reportA = try Self.report("a.swift", in: analysis)
      let reportB = try Self.report("b.swift", in: analysis)
      Self.expectWithheld(reportA, lines: [2, 3, 5, 6, 8])
      Self.expectWithheld(reportB, lines: [1, 2, 3])
      // A line holding none of it, or under 6 bytes of it, is shown.
      #expect(reportA.findings.filter { $0.line == 7 }.map(\.snippet) == [#"let y = dict["k"]!"#])
      let fine = reportB.findings.filter { $0.line == 4 }
      #expect(fine.count == 2 && fine.allSatisfy { $0.snippet == "let fine = try! h() // TODO: Zq8vL is five bytes of it" }, "\(fine)")
      let (json, sarif) = try Self.printed(analysis)
      for piece in ["Zq8vLm3KpR7", "wXy2NbT5h", "NbT5hZq8vLm3", "Zq8vLm3KpR7wX"] {
        #expect(!json.contains(piece), "JSON holds \(piece)")
        #expect(!sarif.contains(piece), "SARIF holds \(piece)")
      }
    }

    @Test("an escaped literal's decoded value, and a raw copy of it, are withheld (the reviewer's files)")
    func escapedSpellings() throws {
      let a = #"""
        let password = "Pa\"ss\\w0rd!Xy7Qk"
        let loginSecret = "line1Ab9Kq\nline2Zr4Wp"
        """#
      let b = #"""
        let p = #"Pa"ss\w0rd!Xy7Qk"#  // TODO same password, raw
        // TODO old: line1Ab9Kq line2Zr4Wp
        """#
      let analysis = try Self.analyze([("a.swift", a), ("b.swift", b)])
      #expect(try Self.report("a.swift", in: analysis).findings.map(\.rule) == [.hardcodedSecret, .hardcodedSecret])
      Self.expectWithheld(try Self.report("b.swift", in: analysis), lines: [1, 2])
      let (json, sarif) = try Self.printed(analysis)
      for piece in ["w0rd!Xy7Qk", "line1Ab9Kq", "line2Zr4Wp"] {
        #expect(!json.contains(piece) && !sarif.contains(piece), "\(piece)")
      }
    }

    @Test("a \\u{…} escape is compared decoded, in the secret and in the line looked at")
    func unicodeEscapes() throws {
      let source = #"""
        let password = "Zq8vLm3K\u{70}R7wXy2NbT5h"
        // TODO Zq8vLm3KpR7wXy2NbT5h decoded
        let apiToken = "Q\u{7A}8\u{76}L\u{6D}3\u{4B}p\u{52}7\u{77}"
        // TODO Qz8vLm3KpR7w decoded, no run of it spelled alike
        let copy = "\u{5A}q8vLm3KpR7" // TODO the first secret, its first letter escaped
        let fine = try! h() // TODO: keep this one
        """#
      let analysis = try Self.analyze([("a.swift", source)])
      let report = try Self.report("a.swift", in: analysis)
      #expect(report.findings.filter { $0.rule == .hardcodedSecret }.map(\.line) == [1, 3])
      Self.expectWithheld(report, lines: [2, 4, 5])
      #expect(report.findings.filter { $0.line == 6 }.allSatisfy { $0.snippet == "let fine = try! h() // TODO: keep this one" })
      let (json, _) = try Self.printed(analysis)
      #expect(!json.contains("Zq8vLm3KpR7") && !json.contains("Qz8vLm3KpR7w") && !json.contains("q8vLm3KpR7"))
    }

    @Test("a literal the detector flags on its own is withheld where it recurs; a JSON-RPC line beside it is not")
    func flaggedOneLineLiteral() throws {
      let a = #"""
        let s = "token=Tk9Lo8Ik7Uj6Yh5Tg4Rf"
        let request = #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"content":"password=Hu7nTe4rXy9"}}}"#
        """#
      let b = #"""
        // TODO Tk9Lo8Ik7Uj6Yh5Tg4Rf
        // TODO old Hu7nTe4r
        let other = #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact"}}}"# // TODO
        """#
      let analysis = try Self.analyze([("a.swift", a), ("b.swift", b)])
      let reportB = try Self.report("b.swift", in: analysis)
      Self.expectWithheld(reportB, lines: [1, 2])
      // A request sharing all but the credential with the flagged one is shown.
      let other = reportB.findings.filter { $0.line == 3 }
      #expect(!other.isEmpty && other.allSatisfy { $0.snippet.hasPrefix(#"let other = #"{"jsonrpc":"2.0","id":2"#) }, "\(other)")
    }

    @Test("hardcoded_secret sees an escaped quote, a raw literal, a dictionary literal's value and a subscript's")
    func otherSpellingsOfAnAssignment() throws {
      let source = #"""
        let password = "Pa\"ss\\w0rd!Xy7Qk"
        let privateKey = #"Rw3Ex6Tc9Yv2Ub5In8Om"#
        let config = ["password": "Pw4Rt7Yu1Io3Pa6Sd9Fg"]
        let multi = [
          "user": "ann",
          "api_key": "Ak3Lp9Qz7Wx2Vb5NmR8t",
        ]
        env["API_TOKEN"] = "Tk9Lo8Ik7Uj6Yh5Tg4Rf"
        let secret = ##"Qq1Ww2Ee3Rr4Tt5Yy6"##
        """#
      let found = try IdiomaticSwiftTests.findings(source, .hardcodedSecret)
      #expect(found.map(\.line) == [1, 2, 3, 6, 8, 9], "\(found)")
      #expect(found.map { $0.message.split(separator: "`")[1] } == ["password", "privateKey", "password", "api_key", "API_TOKEN", "secret"])
      #expect(found.allSatisfy { $0.snippet.isEmpty && $0.excerpt.isEmpty })
      // Reported at the key's text, inside its quotes.
      #expect(found[2].column == 16 && found[3].column == 4, "\(found)")
    }

    @Test("ordinary code with credential words in dictionaries, subscripts and raw strings is not flagged nor withheld")
    func ordinaryCodeStaysQuiet() throws {
      let source = ##"""
        let form = ["password": passwordField.text]
        let keys = ["password": "password", "token": "access_token", "apiKey": "X-API-Key"]
        let labels = ["Enter your password": "Pw4Rt7Yu1Io3Pa6Sd9Fg"]
        let params = ["password": ""]
        let p2 = ["password": "<password>"]
        let p3 = ["password": "\(pw)"]
        let p4 = ["password": "${PASSWORD}", "secret": "your-secret-here"]
        let p5 = ["password": "not a secret"]
        request["password"] = passwordField.text
        let map = ["tokenCount": "Pw4Rt7Yu1Io3Pa6Sd9Fg"]
        let arr = ["password", "Pw4Rt7Yu1Io3Pa6Sd9Fg"]
        let v = switch k { case "password": "Pw4Rt7Yu1Io3Pa6Sd9Fg"; default: "" }
        let w = [flag ? "password" : "Pw4Rt7Yu1Io3Pa6Sd9Fg"]
        let raw = #"\#(pw)"#
        let password = #"\(notInterpolated)"#
        let apiToken = "ghp_\(suffix)"
        let q = try! f() // TODO: password, token, passwordField.text
        """##
      let report = try CodeAnalyzer.analyze(source: source, fileName: "Case.swift")
      #expect(report.count(of: .hardcodedSecret) == 0, "\(report.findings.filter { $0.rule == .hardcodedSecret })")
      #expect(!report.findings.contains { $0.message.contains(CodeAnalyzer.withheldLineNote) }, "\(report.findings)")
      #expect(report.findings.filter { $0.line == 17 }.map(\.snippet) == Array(repeating: "let q = try! f() // TODO: password, token, passwordField.text", count: 2))
    }

    @Test("what counts as a part of a secret found again")
    func secretParts() {
      #expect((0...40).map(SecretText.window(forLength:)).enumerated().allSatisfy { length, window in
        window == (length < 14 ? 6 : length < 16 ? 7 : 8)
      })
      var text = SecretText()
      text.addSecret(Array("Zq8vLm3KpR7wXy2NbT5h".utf8))
      #expect(text.occurs(in: "// TODO partial Zq8vLm3K only"), "8 bytes in a row")
      #expect(text.occurs(in: "// wXy2NbT5"), "8 bytes of its end")
      #expect(text.occurs(in: "// NbT5hZq8"), "wrapping from its end to its start")
      #expect(!text.occurs(in: "// Zq8vLm3 and wXy2NbT"), "7 bytes in a row are not")
      #expect(!text.occurs(in: "let fine = try! loadDefaults()"))
      var short = SecretText()
      short.addSecret(Array("Sh0rtPw9Q".utf8))
      #expect(short.occurs(in: "x Sh0rtP"), "6 bytes of a secret under 14 bytes")
      #expect(!short.occurs(in: "x Sh0rt"))
      short.addSecret(Array("Ab1Cd2E".utf8))
      #expect(!short.occurs(in: "x Ab1Cd2E"), "a secret under 8 bytes is not matched elsewhere")
      // A line of text around a secret: 12 bytes in a row, and 8 of a word that looks like key material.
      var line = SecretText()
      line.add(Array("DB_HOST=localhost DB_PASSWORD=Sup3rS3cretX".utf8))
      #expect(line.occurs(in: "// Sup3rS3c"), "8 bytes of Sup3rS3cretX")
      #expect(line.occurs(in: "host: DB_HOST=localhost"), "12 bytes of the line")
      #expect(!line.occurs(in: "connect(to: localhost)"), "localhost is no key material")
      // Formed from other secrets' texts, as the files of one run are.
      var all = SecretText()
      all.formUnion(text)
      all.formUnion(line)
      #expect(all.occurs(in: "NbT5hZq8") && all.occurs(in: "Sup3rS3c") && !all.occurs(in: "localhost:8080"))
    }

    @Test("escapes decode as Swift reads them; a whole one-line literal's body is found")
    func escapes() {
      let decoded = { (s: String, pounds: Int?) in String(decoding: SwiftStringEscapes.decoded(Array(s.utf8), pounds: pounds), as: UTF8.self) }
      #expect(decoded(#"a\nb\t\"c\\d\u{70}\u{1F600}\0"#, 0) == "a\nb\t\"c\\dp\u{1F600}\0")
      #expect(decoded(#"a\#nb\n"#, 1) == "a\nb\\n", "in #\"…\"#, only \\# escapes")
      #expect(decoded(###"a\#nb\n\##u{70}"###, nil) == "a\nb\np", "any number of #s in a line of source")
      #expect(decoded(#"\u{110000}\q\u{}"#, 0) == #"\u{110000}\q\u{}"#, "not a scalar, not an escape: as written")
      let body = { (s: String) -> String? in
        let bytes = Array(s.utf8)
        return SwiftStringEscapes.body(of: 0..<bytes.count, in: bytes).map { String(decoding: bytes[$0.range], as: UTF8.self) }
      }
      #expect(body(#""abc""#) == "abc")
      #expect(body(###"##"a"#b"##"###) == ##"a"#b"##)
      #expect(body(#""Pa\"ss\\""#) == #"Pa\"ss\\"#)
      #expect(body(#""""#) == "")
      #expect(body(#""abc\"#) == nil, "a piece of an interpolated literal")
      #expect(body(#""abc\""#) == nil, "its closing quote escaped")
      #expect(body("\"\"\"\nabc\n\"\"\"") == nil, "multi-line")
      #expect(body(#"#"abc""#) == nil, "unterminated")
    }
  }
}
