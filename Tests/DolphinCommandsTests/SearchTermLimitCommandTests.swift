import Foundation
import Testing
import TestSupport

/// `dolphin search` and `task search` say which words of a long query were not searched
/// (more than 64 distinct words), with and without results (review, s13).
@Suite("search names the words past the 64-term limit", .serialized)
struct SearchTermLimitCommandTests {
  static let filler = (0..<63).map { "w\($0)" }.joined(separator: " ")

  @Test("a note line when something is found, the No results line when not, and the JSON field")
  func namedInEveryOutput() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Database choice", "--content", "We use postgres"]).status == 0)
    let found = try cli.run(["search", "database " + Self.filler + " postgres"])
    #expect(found.status == 0)
    #expect(
      found.stdout.contains("Note: only the first 64 distinct words were searched, not 'postgres'.\n1. "),
      "\(found.stdout)")
    let none = try cli.run(["search", Self.filler + " w63 postgres"])
    #expect(
      none.stdout.contains(
        "No results: none of 'w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7' and 56 more (or a close spelling of "
          + "one) occurs in any knowledge item; only the first 64 distinct words were searched, not 'postgres'."),
      "\(none.stdout)")
    let json = try cli.json(["search", Self.filler + " w63 postgres", "--json"])
    #expect(json["wordsPastTermLimit"] as? [String] == ["postgres"])
    let short = try cli.json(["search", "postgres", "--json"])
    #expect(short["wordsPastTermLimit"] == nil)

    // The pointer belongs to the reason, not to the words not searched (second review, s13).
    let memories = try cli.run(["memory", "search", "database " + Self.filler + " w63 postgres"])
    #expect(
      memories.stdout.contains(
        "No results: the words match only knowledge items, not legacy memories (dolphin search --workspace \(cli.workspace) finds them); "
          + "only the first 64 distinct words were searched, not 'w63', 'postgres'."),
      "\(memories.stdout)")

    #expect(try cli.run(["task", "add", "Upgrade postgres"]).status == 0)
    let tasks = try cli.run(["task", "search", "upgrade " + Self.filler + " postgres"])
    #expect(tasks.stdout.contains("Note: only the first 64 distinct words were searched, not 'postgres'."), "\(tasks.stdout)")
  }

  /// Review 19-c, finding 8: quotes and a leading `-` were read as text without a word.
  @Test("search, task search and the MCP/agent search tool say quotes and -word are read as text")
  func operatorsReadAsText() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Redis cache sizing"]).status == 0)
    #expect(try cli.run(["task", "add", "Resize the redis cache"]).status == 0)
    let search = try cli.run(["search", "redis -cache"])
    #expect(
      search.stdout.contains("Note: '-cache' excludes nothing here: it is read as the word 'cache'.\n1. "),
      "\(search.stdout)")
    #expect(try cli.json(["search", "\"redis cache\""])["unappliedOperators"] as? [String] == ["\""])
    let tasks = try cli.run(["task", "search", "\"resize\" -cache"])
    #expect(
      tasks.stdout.contains(
        "Note: quotes are not a phrase operator here: words are searched one by one (they rank higher where "
          + "they stand together); '-cache' excludes nothing here: it is read as the word 'cache'."),
      "\(tasks.stdout)")
    #expect(try cli.json(["task", "search", "redis -cache"])["unappliedOperators"] as? [String] == ["-cache"])
    #expect(!(try cli.run(["search", "redis cache"]).stdout.contains("Note:")))
  }
}
