import Foundation
import Testing
import TestSupport

/// Regression (review, s13): with `--tag`, or with `--kind`, a search whose words matched only a
/// legacy memory said "the words match only items of other kinds" (`noMatchInKinds`); without
/// them it said, correctly, that only legacy memories match.
@Suite("empty searches name legacy memories as what matched, also with --tag or --kind", .serialized)
struct OnlyMemoriesMatchCommandTests {
  @Test("--tag, --kind and neither all say only legacy memories match; another kind is still named as such")
  func onlyMemories() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let saved = try cli.json(["memory", "save", "Vacuum the database monthly", "--json"])
    let mirror = try #require((saved["mirror"] as? [String: Any])?["id"] as? String)
    #expect(try cli.run(["capture", "fact", "Other note", "--content", "unrelated", "--tags", "ops"]).status == 0)
    #expect(try cli.run(["capture", "decision", "Monthly review", "--content", "budget"]).status == 0)
    // The memory without its knowledge mirror: only the memory itself holds its words.
    #expect(try cli.run(["knowledge", "delete", mirror, "--yes"]).status == 0)

    let memoriesOnly = "No results: the words match only legacy memories, which this search leaves out"
    let plain = try cli.run(["search", "vacuum"])
    #expect(plain.stdout.contains(memoriesOnly + " (add --include-memories, or use dolphin memory search --workspace \(cli.workspace))."), "\(plain.stdout)")
    let tagged = try cli.run(["search", "vacuum", "--tag", "ops"])
    #expect(tagged.stdout.contains(memoriesOnly + " (dolphin memory search --workspace \(cli.workspace) finds them)."), "\(tagged.stdout)")
    let kind = try cli.json(["search", "vacuum", "--kind", "fact", "--json"])
    #expect(kind["emptyReason"] as? String == "onlyMemoriesMatch")
    // A decision matches `monthly`: with --kind fact, other kinds matched, and it says so.
    let other = try cli.json(["search", "monthly", "--kind", "fact", "--json"])
    #expect(other["emptyReason"] as? String == "noMatchInKinds")
    #expect(try cli.run(["memory", "search", "vacuum"]).stdout.contains("1 shown of 1"))
  }
}
