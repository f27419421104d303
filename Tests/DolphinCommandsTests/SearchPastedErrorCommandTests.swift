import Foundation
import Testing
import TestSupport

/// Review 20-b: a pasted stack trace was refused (#8), camelCase parts could not be found (#2),
/// and field filters and Boolean operators were taken as words with nothing said (#17).
@Suite("search takes pasted errors, camelCase parts and other engines' syntax", .serialized)
struct SearchPastedErrorCommandTests {
  static let stackTrace =
    "Thread 1: Fatal error: Unexpectedly found nil while unwrapping an Optional value "
    + (0..<8).map { i in
      "frame #\(i): 0x0000000100\(String(format: "%04x", i)) MyApp`ViewController.viewDidLoad() at ViewController.swift:42"
    }.joined(separator: " ")

  @Test("a 792-character stack trace is searched by its start with a note; over 5,000 code points is refused")
  func pastedStackTrace() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "getUserProfile returns nil when token expired"]).status == 0)
    let found = try cli.run(["search", Self.stackTrace])
    #expect(found.status == 0, "\(found.stderr)")
    #expect(found.stdout.contains("of the query's 792 characters were searched (a query is searched by its first 500, cut between words), up to '…"), "\(found.stdout)")
    let json = try cli.json(["search", Self.stackTrace, "--json"])
    #expect((json["queryCutAt"] as? Int).map { $0 <= 500 } == true)
    #expect(json["queryCharacters"] as? Int == 792)
    #expect(try cli.json(["search", "nil", "--json"])["queryCutAt"] == nil)
    let tasks = try cli.run(["task", "search", Self.stackTrace])
    #expect(tasks.status == 0, "\(tasks.stderr)")
    let refused = try cli.run(["search", String(repeating: "x ", count: 2_501)])
    #expect(refused.status == 4)
    #expect(refused.stderr.contains("query is 5001 Unicode code points; the limit is 5000 Unicode code points"), "\(refused.stderr)")
  }

  @Test("profile, get user profile and maxRetryCount find camelCase and snake_case notes")
  func camelCaseParts() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "getUserProfile returns nil when token expired"]).status == 0)
    #expect(try cli.run(["capture", "fact", "max_retry_count defaults to 5"]).status == 0)
    #expect(try cli.run(["search", "profile"]).stdout.contains("getUserProfile returns nil"))
    #expect(try cli.run(["search", "get user profile"]).stdout.contains("1. "))
    let snake = try cli.run(["search", "maxRetryCount", "--explain"])
    #expect(snake.stdout.contains("max_retry_count defaults to 5"), "\(snake.stdout)")
    #expect(snake.stdout.contains("compound forms → max retri count"), "\(snake.stdout)")
  }

  @Test("tag:auth, title:sqlite and sqlite AND wal get a note, as quotes and -word do")
  func otherEnginesSyntax() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "SQLite WAL mode", "--content", "auth tokens live in sqlite"]).status == 0)
    let tag = try cli.run(["search", "tag:auth"])
    #expect(tag.stdout.contains("Note: 'tag:auth' filters nothing here: it is read as the words 'tag' and 'auth'"), "\(tag.stdout)")
    #expect(try cli.run(["search", "title:sqlite"]).stdout.contains("Note: 'title:sqlite' filters nothing here"))
    let and = try cli.run(["search", "sqlite AND wal"])
    #expect(and.stdout.contains("Note: 'AND' is not an operator here: it is read as the common word 'and'."), "\(and.stdout)")
    #expect(try cli.json(["search", "sqlite AND wal", "--json"])["unappliedOperators"] as? [String] == ["AND"])
  }

  /// Review (s22): `AND OR NOT` was noted only for 'OR', `wal AND OR NOT` for 'AND' and 'OR'.
  @Test("AND OR NOT and wal AND OR NOT name all three operators, in text and JSON")
  func everyCapitalOperatorIsNoted() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "SQLite WAL mode", "--content", "auth tokens live in sqlite"]).status == 0)
    let all = "'AND', 'OR', 'NOT' are not operators here: each is read as the common word it spells."
    let alone = try cli.run(["search", "AND OR NOT"])
    #expect(alone.status == 0, "\(alone.stderr)")
    #expect(alone.stdout.contains("No results: ") && alone.stdout.contains("; " + all), "\(alone.stdout)")
    let after = try cli.run(["search", "wal AND OR NOT"])
    #expect(after.stdout.contains("Note: " + all), "\(after.stdout)")
    #expect(after.stdout.contains("\"SQLite WAL mode\""), "\(after.stdout)")
    for query in ["AND OR NOT", "wal AND OR NOT"] {
      #expect(try cli.json(["search", query])["unappliedOperators"] as? [String] == ["AND", "OR", "NOT"], "\(query)")
    }
    let not = try cli.run(["search", "sqlite NOT wal"])
    #expect(not.stdout.contains("Note: 'NOT' is not an operator here: it is read as the common word 'not'."), "\(not.stdout)")
  }
}
