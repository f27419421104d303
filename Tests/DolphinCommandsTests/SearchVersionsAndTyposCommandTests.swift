import Foundation
import Testing
import TestSupport

/// Review, s21: `search "v2.3" --explain` called *Release v2.3.9 notes* an exact match of `v2.3`;
/// `stgaing` and `stagign` (one adjacent swap from *staging*) found nothing; and an empty answer
/// did not say which words were not found.
@Suite("search: longer numbers, transposed letters, the words not found", .serialized)
struct SearchVersionsAndTyposCommandTests {
  @Test("v2.3 finds v2.3.9 as a prefix match of a longer number, and v2.3 itself first once it exists")
  func longerVersion() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Release v2.3.9 notes"]).status == 0)
    let only = try cli.run(["search", "v2.3", "--explain"])
    #expect(only.status == 0, "\(only.stderr)")
    #expect(only.stdout.contains("\"Release v2.3.9 notes\""), "\(only.stdout)")
    #expect(
      only.stdout.contains(
        "term v2.3: absent; longer numbers starting with it (prefix matches, reduced weight) → v2.3.9\n"),
      "\(only.stdout)")
    #expect(only.stdout.contains("matched stems: v2.3.9 (prefix match of v2.3, reduced weight)\n"), "\(only.stdout)")
    #expect(!only.stdout.contains("term v2.3: exact"), "\(only.stdout)")
    #expect(only.stdout.contains("title 0.0000 + tags 0.0000 + content 0.0000 + fuzzy 0."), "\(only.stdout)")

    #expect(try cli.run(["capture", "fact", "Release v2.3 notes"]).status == 0)
    let both = try cli.run(["search", "v2.3", "--explain"])
    let lines = both.stdout.split(separator: "\n")
    #expect(lines.count > 3 && lines[1].hasSuffix("\"Release v2.3 notes\""), "\(both.stdout)")
    #expect(lines.count > 3 && lines[3].hasSuffix("\"Release v2.3.9 notes\""), "\(both.stdout)")
    #expect(
      both.stdout.contains("term v2.3: exact; longer numbers (prefix matches, reduced weight): v2.3.9\n"),
      "\(both.stdout)")
    let json = try cli.json(["search", "v2.3"])
    let term = try #require((json["terms"] as? [[String: Any]])?.first)
    #expect(term["match"] as? String == "exact")
    #expect(term["longerNumbers"] as? [String] == ["v2.3.9"])
  }

  @Test("stgaing and stagign find Staging server setup, as close spellings")
  func transpositions() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(
      try cli.run(["capture", "context", "Staging server setup", "--content", "the staging box"]).status == 0)
    #expect(try cli.run(["capture", "fact", "Lunch order", "--content", "soup"]).status == 0)
    for query in ["stgaing", "stagign"] {
      let r = try cli.run(["search", query, "--explain"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("1 shown of 1 match(es)"), "\(query): \(r.stdout)")
      #expect(r.stdout.contains("\"Staging server setup\""), "\(query): \(r.stdout)")
      #expect(r.stdout.contains(": absent; close spellings → stage\n"), "\(query): \(r.stdout)")
    }
  }

  @Test("an empty answer names the words not found, in text and in JSON; the reason code is kept")
  func wordsNotFound() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "context", "Staging server setup", "--content", "the staging box"]).status == 0)
    let one = try cli.run(["search", "qzxwv"])
    #expect(one.stdout.contains("No results: 'qzxwv' (or a close spelling of it) occurs in no knowledge item.\n"), "\(one.stdout)")
    let two = try cli.run(["search", "qzxwv plorbs"])
    #expect(
      two.stdout.contains(
        "No results: none of 'qzxwv', 'plorbs' (or a close spelling of one) occurs in any knowledge item.\n"),
      "\(two.stdout)")
    let json = try cli.json(["search", "qzxwv plorbs"])
    #expect(json["emptyReason"] as? String == "noTermMatched")
    #expect(json["unmatchedWords"] as? [String] == ["qzxwv", "plorbs"])
    // A word found beside one not found: results, and the JSON still names the other.
    let mixed = try cli.json(["search", "staging qzxwv"])
    #expect((mixed["results"] as? [Any])?.count == 1)
    #expect(mixed["emptyReason"] == nil)
    #expect(mixed["unmatchedWords"] as? [String] == ["qzxwv"])
    let found = try cli.json(["search", "staging"])
    #expect(found["unmatchedWords"] == nil)
  }
}
