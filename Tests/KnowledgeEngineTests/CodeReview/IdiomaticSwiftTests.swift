import ContinuityKit
import Foundation
import Testing

@testable import KnowledgeEngine

/// Review 20-b, finding 13: the heuristic review was noisy on idiomatic Swift (SwiftUI views
/// tripped `deep_nesting`, trivial lines were `repeated_line`s, doc comments that mention
/// `TODO` were markers, a bare regex literal's `!` was a force unwrap) and did not say what it
/// does not check. Each source here is the kind of code a Swift project holds.
extension CodeReview {
  @Suite("Idiomatic Swift")
  struct IdiomaticSwiftTests {
    static func findings(_ source: String, _ rule: CodeRule) throws -> [CodeFinding] {
      try CodeAnalyzer.analyze(source: source, fileName: "Case.swift").findings.filter { $0.rule == rule }
    }

    static let swiftUIView = """
      import SwiftUI

      struct ContentView: View {
        @State private var items: [String] = []
        @State private var query = ""

        var body: some View {
          NavigationStack {
            List {
              Section("Items") {
                ForEach(items, id: \\.self) { item in
                  HStack {
                    VStack(alignment: .leading) {
                      Text(item)
                      Button("Delete") { items.removeAll { $0 == item } }
                    }
                    if item.hasPrefix(query) {
                      Image(systemName: "star")
                    }
                  }
                }
              }
            }
            .searchable(text: $query)
            .toolbar {
              ToolbarItem {
                Button("Add") { items.append("New") }
              }
            }
          }
        }
      }
      """

    @Test("a SwiftUI view hierarchy (struct › body › NavigationStack › List › ForEach › HStack …) is not deep nesting")
    func swiftUIViewIsNotDeep() throws {
      #expect(try Self.findings(Self.swiftUIView, .deepNesting).isEmpty)
    }

    @Test("deeply nested if/for/switch logic is still reported, inside a type, a method and a closure")
    func deepLogicIsReported() throws {
      let source = """
        extension Importer {
          func merge(_ batches: [[Record]]) {
            queue.async {
              for batch in batches {
                if !batch.isEmpty {
                  for record in batch {
                    switch record.kind {
                    case .note:
                      if record.isPinned {
                        pinned.append(record)
                      }
                    default:
                      break
                    }
                  }
                }
              }
            }
          }
        }
        """
      let found = try Self.findings(source, .deepNesting)
      #expect(found.map(\.line) == [9], "\(found)")
      #expect(found.first?.message == "Control flow nested 5 deep (only if/for/while/switch/do/catch bodies count); the threshold is 4")
    }

    @Test("else, catch, repeat and the while after a repeat body nest as the control flow does")
    func otherBodies() throws {
      let source = """
        func load() {
          do {
            for url in urls {
              if url.isFileURL {
                print(url)
              } else {
                repeat {
                  try step()
                } while more
                while more { if done { break } }
              }
            }
          } catch let error as DecodingError {
            report(error)
          }
        }
        """
      let found = try Self.findings(source, .deepNesting)
      // do › for › else › repeat is 4; `while more` after the repeat body opens nothing, but
      // the next line's `while` › `if` reaches 5.
      #expect(found.map(\.line) == [10], "\(found)")
      #expect(found.map(\.column) == [30], "\(found)")
    }

    @Test("argument labels and members named like keywords open no body")
    func keywordsAsLabels() throws {
      let source = """
        func f() {
          if a {
            if b {
              if c {
                if d {
                  cell.configure(for: item) { view in view.update() }
                  let plan = x.do { $0 }
                  queue.sync(for: 1) { work() }
                }
              }
            }
          }
        }
        """
      #expect(try Self.findings(source, .deepNesting).isEmpty)
    }

    @Test("trivial and structural repeated lines are skipped; duplicated logic is still reported")
    func repeatedLines() throws {
      let trivial = [
        "return result", "return Route(", "handler: { args, ctx in", "input: .object([", "i += 1",
        "let start = index", "try requireWritable()", "@discardableResult", "} catch {",
        "case .array(let items):", "#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)",
        ") -> [String] {", "}", "throw ValidationError(",
      ]
      var source = ""
      for line in trivial { source += String(repeating: line + "\n", count: 3) }
      let logic = "let rc = sqlite3_step(stmt)"
      source += String(repeating: "    " + logic + "\n", count: 3)
      let found = try Self.findings(source, .repeatedLine)
      #expect(found.map(\.snippet) == [logic], "\(found.map(\.snippet))")
      #expect(found.first?.occurrences == 3)
    }

    @Test("a duplicated message string is logic, not a trivial line")
    func repeatedStringLine() throws {
      let line = #"    "1. Stop every dolphin process using this workspace.","#
      let found = try Self.findings(String(repeating: line + "\n", count: 3), .repeatedLine)
      #expect(found.count == 1)
    }

    @Test("TODO and FIXME count only as markers, not as mentions in backticks or prose")
    func todoMarkers() throws {
      let source = """
        /// Reports `TODO` or `FIXME` markers; see the `TODO:` rule.
        /// Read-only review: TODO/FIXME markers in comments.
        // TODO: handle the empty case
        let a = 1 // FIXME(ann) overflow
        /* TODO */
        /**
         * FIXME: this block
         */
        // Check the list. TODO: sort it
        let s = "// TODO: in a string"
        """
      let found = try Self.findings(source, .todo)
      #expect(found.map { "\($0.line):\($0.column)" } == ["3:4", "4:14", "5:4", "7:4", "9:20"], "\(found)")
    }

    @Test("a bare regex literal is not code: no force unwrap and no string opened by its quote")
    func bareRegexLiterals() throws {
      let source = """
        let r1 = /foo!bar/
        let r2 = /a+!/
        let r3 = #/x!y/#
        if line.contains(/"[a-z]+!/) { print(line) }
        let half = total / count
        let ratio = a/b/c
        let unapplied = values.reduce(1, /)
        let y = z!
        """
      let report = try CodeAnalyzer.analyze(source: source, fileName: "Case.swift")
      let unwraps = report.findings.filter { $0.rule == .forceUnwrap }
      #expect(unwraps.map { "\($0.line):\($0.column)" } == ["8:10"], "\(unwraps)")
      let lines = SwiftLexer.lex(source)
      #expect(lines[0].code == "let r1 = /       /")
      #expect(lines[4].code == "let half = total / count")
      #expect(lines[5].code == "let ratio = a/b/c")
    }

    @Test("an empty catch is reported; one with a comment or a statement is not")
    func emptyCatch() throws {
      let source = """
        func run() {
          do { try something() } catch { }
          do {
            try other()
          } catch let error as DecodingError {
          }
          do { try third() } catch {
            // Best effort: a missing cache is rebuilt on the next launch.
          }
          do { try fourth() } catch { log(error) }
        }
        """
      let found = try Self.findings(source, .emptyCatch)
      #expect(found.map { "\($0.line):\($0.column)" } == ["2:26", "5:5"], "\(found)")
      #expect(found.first?.severity == .warning)
    }

    @Test("a credential literal assigned to a credential-like name is reported, its line withheld")
    func hardcodedSecret() throws {
      let source = """
        class Manager {
          let password = "hunter2hunter2"
          static let apiKey: String = "k3J9xQ2mP8vL5nR7"
          let token = try await fetchToken()
          let passwordHint = "hunter2hunter2"
          let secret = "${SECRET}"
          enum CodingKeys: String { case accessToken = "access_token" }
          func label(_ kind: Kind) -> String {
            switch kind { case .apiToken: "API token for the service" }
          }
          func login() { connect(user: "ann", password: "S3cure-Passw0rd") }
          static let refreshToken = "refresh_token"
          let authToken = "X-Auth-Token"
        }
        """
      let found = try Self.findings(source, .hardcodedSecret)
      #expect(found.map { "\($0.line):\($0.column)" } == ["2:7", "3:14", "11:39"], "\(found)")
      for f in found {
        #expect(f.snippet.isEmpty && f.excerpt.isEmpty)
        #expect(!f.message.contains("hunter2") && !f.message.contains("k3J9"))
        #expect(f.severity == .warning)
      }
    }

    /// Review 21-a F1: `password2` was not a credential's name, while prose assigned to
    /// `token` or `authToken` was reported as a secret.
    @Test("hardcoded_secret follows the key-name rule: affixes count, descriptors and prose values do not")
    func hardcodedSecretKeyNames() throws {
      let source = """
        enum Config {
          static let password2 = "Tr0ub4dor&3"
          static let REDIS_PASSWORD_PROD = "Tr0ub4dor3"
          static let githubTokenCI: String = "abcdef1234567890abcd"
          static let defaultPassword = "changeme"
          static let pwd = "Tr0ub4dor3"
          static let token = "not a secret"
          static let authToken = "hello world"
          static let password = "Enter your password"
          static let passwordMinLength = "twelve-chars"
          static let tokenizer = "wordpiece-v2"
          static let tokenType = "mac-sha256"
          static let maskToken = "[MASK]"
          static let keyFile = "/etc/harbor/api.key"
        }
        """
      let found = try Self.findings(source, .hardcodedSecret)
      #expect(found.map { "\($0.line):\($0.column)" } == ["2:14", "3:14", "4:14", "5:14", "6:14"], "\(found)")
      #expect(found.allSatisfy { $0.snippet.isEmpty && !$0.message.contains("Tr0ub4dor") })
    }

    /// Review 25-b, 6: the `:` of a conditional assigns nothing to the branch before it.
    @Test("a conditional's branch named like a credential is no hard-coded secret; an assignment beside it still is")
    func hardcodedSecretTernary() throws {
      let source = """
        func header(useToken: Bool, token: String) -> String {
          let header = useToken ? token : "anonymous"
          let split = useToken
            ? token
            : "anonymous"
          let optional = session?.token ?? "anonymous"
          return header + split + optional
        }
        """
      let found = try Self.findings(source, .hardcodedSecret)
      // Nothing here assigns a literal to a credential's name.
      #expect(found.isEmpty, "\(found)")
      // Review 26-b, 2: the literal of a conditional assigned to a credential's name is still judged.
      let fallback = try Self.findings(
        """
        let apiKey = useEnv ? envToken : "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
        let password = c ? envPassword : "Pr0d-S3cret!x9Q"
        let label = c ? token : "anonymous"
        """, .hardcodedSecret)
      #expect(fallback.map { "\($0.line):\($0.column)" } == ["1:5", "2:5"], "\(fallback)")
      let assigned = try Self.findings(#"connect(user: "ann", password: "S3cure-Passw0rd") ? 1 : 2"#, .hardcodedSecret)
      #expect(assigned.map { "\($0.line):\($0.column)" } == ["1:22"], "\(assigned)")
    }

    @Test("the rules-checked line names every rule that ran and what is not checked")
    func rulesChecked() {
      #expect(
        CodeRule.checkedLine(CodeRule.allCases)
          == "Rules checked: todo, force_try, force_unwrap, force_cast, long_line, deep_nesting, "
          + "repeated_line, empty_catch, hardcoded_secret")
      #expect(CodeRule.checkedLine([.todo, .forceTry]) == "Rules checked: todo, force_try")
      #expect(CodeRule.notCheckedLine.contains("SQL or shell commands built from input"))
    }

    @Test("a path analysis lists the rules it ran, in JSON too, and decodes without them")
    func pathAnalysisListsRules() throws {
      let analysis = PathAnalysis(reports: [], skipped: [], ignoredCount: 0, rulesChecked: [.todo])
      let data = try JSONEncoder().encode(analysis)
      let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
      #expect(object?["rulesChecked"] as? [String] == ["todo"])
      #expect(object?["notChecked"] as? String == CodeRule.notChecked)
      let old = try JSONDecoder().decode(
        PathAnalysis.self, from: Data(#"{"reports":[],"skipped":[],"ignoredCount":0}"#.utf8))
      #expect(old.rulesChecked == CodeRule.allCases)
    }

    @Test("CredentialDetector.isCredentialKey reads names as its assignment rule does")
    func credentialKeyNames() {
      for name in ["password", "dbPassword", "client_secret", "GITHUB_TOKEN", "apiKey", "privateKey"] {
        #expect(CredentialDetector.isCredentialKey(name), "\(name)")
      }
      for name in ["tokens", "passwordHash", "key", "secretary", "name"] {
        #expect(!CredentialDetector.isCredentialKey(name), "\(name)")
      }
    }
  }
}
