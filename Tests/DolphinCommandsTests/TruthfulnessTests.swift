import Foundation
import Testing
import TestSupport

/// Product output must never call lexical search semantic, embedding, vector or neural. A
/// sentence that says what the mode is NOT is allowed.
enum Truthfulness {
  static let words = ["semantic", "embedding", "vector", "neural"]

  /// Sentences (split on . ! ? and newlines) that use a forbidden word without a negation.
  static func violations(in text: String) -> [String] {
    let sentences = text.split(whereSeparator: { ".!?\n".contains($0) }).map(String.init)
    return sentences.filter { s in
      let lower = s.lowercased()
      guard words.contains(where: { lower.contains($0) }) else { return false }
      let negated = [" not ", "never", "n't", " no ", "neither", "nor ", "deferred", "instead of"].contains { lower.contains($0) }
      return !negated
    }
  }
}

@Suite("Truthful naming", .serialized)
struct TruthfulnessTests {
  @Test("the scanner flags a claim and allows a denial")
  func scanner() {
    #expect(Truthfulness.violations(in: "Semantic search over your notes.") == ["Semantic search over your notes"])
    #expect(Truthfulness.violations(in: "It matches words, not meanings: it is not semantic search.").isEmpty)
  }

  @Test("help, tool schemas, search output and the demo make no such claim")
  func cliOutputs() throws {
    let dir = TemporaryDirectory("truth")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    var texts: [String] = [try runDolphin(["--help"]).stdout]
    let overview = try runDolphin(["--help"]).stdout
    let commands = overview.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
    for words in commands {
      var path: [String] = [String(words[0])]
      if words.count > 1, let second = words.dropFirst().first, second.first?.isLowercase == true, !second.hasSuffix(".") { path.append(String(second)) }
      texts.append(try runDolphin(path + ["--help"]).stdout)
    }
    texts.append(try runDolphin(["tools", "--json"]).stdout)
    texts.append(try runDolphin(["demo", "--workspace", ws]).stdout)
    texts.append(try runDolphin(["search", "sqlite", "--json", "--workspace", ws]).stdout)
    texts.append(try runDolphin(["search", "sqlite", "--explain", "--workspace", ws]).stdout)
    texts.append(try runDolphin(["context", "--json", "--workspace", ws]).stdout)
    texts.append(try runDolphin(["insights", "--workspace", ws]).stdout)
    texts.append(try runDolphin(["analyze", repositoryRoot.appendingPathComponent("Sources/dolphin").path]).stdout)
    for t in texts {
      #expect(Truthfulness.violations(in: t).isEmpty, "\(Truthfulness.violations(in: t))")
    }
    #expect(texts.count > 20)
  }

  @Test("README, CHANGELOG and the docs make no such claim")
  func docs() throws {
    var files = ["README.md", "CHANGELOG.md"].map { repositoryRoot.appendingPathComponent($0) }
    let docs = repositoryRoot.appendingPathComponent("Docs")
    for name in (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? [] where name.hasSuffix(".md") {
      files.append(docs.appendingPathComponent(name))
    }
    for f in files {
      let text = try String(contentsOf: f, encoding: .utf8)
      #expect(Truthfulness.violations(in: text).isEmpty, "\(f.lastPathComponent): \(Truthfulness.violations(in: text))")
    }
  }
}
