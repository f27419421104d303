import Foundation
import Testing
import TestSupport

/// `dolphin memory search --explain` shows what `dolphin search --explain` shows: each result's
/// score parts and how each query word matched (a review found the option missing).
@Suite("memory search --explain", .serialized)
struct MemorySearchCommandTests {
  @Test("memory search --explain prints the score parts and the query terms, as search --explain does")
  func explainShowsScorePartsAndTerms() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["memory", "save", "Prefers tabs over spaces"]).status == 0)
    let r = try cli.run(["memory", "search", "tabs", "--explain"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Prefers tabs over spaces"), "\(r.stdout)")
    #expect(r.stdout.contains("   score ") && r.stdout.contains(" = title "), "\(r.stdout)")
    #expect(r.stdout.contains("; matched stems: tab"), "\(r.stdout)")
    #expect(r.stdout.contains("\nquery terms (stemmed, with the words typed"), "\(r.stdout)")
    #expect(r.stdout.contains("term tab (tabs): exact"), "\(r.stdout)")
    // The same renderer as `search --explain`: its explanation lines for the memory are the same.
    let search = try cli.run(["search", "tabs", "--include-memories", "--explain"])
    let explanation = { (text: String) in
      text.split(separator: "\n").filter { $0.hasPrefix("term ") || $0.hasPrefix("query terms") }
    }
    #expect(explanation(r.stdout) == explanation(search.stdout), "\(r.stdout)\n---\n\(search.stdout)")
    // Without --explain, no score parts.
    let plain = try cli.run(["memory", "search", "tabs"])
    #expect(plain.status == 0 && !plain.stdout.contains("matched stems") && !plain.stdout.contains("query terms"))
    #expect(try cli.run(["memory", "search", "--help"]).stdout.contains("--explain"))
  }
}
