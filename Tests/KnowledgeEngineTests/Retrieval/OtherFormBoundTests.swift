import Foundation
import Testing

@testable import KnowledgeEngine

/// Regression (review, s13): another spelling or number of the word typed was scored with its
/// own IDF, so a *rarer* form outranked the word as typed by far more than its weight (0.9)
/// meant to hold it below: `color` put "Colour guide" (0.788) above "Color guide" (0.420), and
/// `mouse` put "Mice study" first. Such a form now weighs at most 0.9 × idf(word typed), as
/// compound forms already did. Word forms (`deploy` / *deployment*) keep their own IDF up to
/// twice the word typed's (``ReviewEighteenRankingTests``): a rarer form is evidence of its own,
/// and their weight is half or less.
struct OtherFormBoundTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  @Test("the spelling typed outranks the other spelling, also when the other is rarer")
  func spellingTypedFirst() throws {
    let workspace = try Workspace([
      Item(title: "Colour guide", content: "x"),
      Item(title: "Color guide", content: "x"),
      Item(title: "Color swatches", content: "y"),
    ])
    let response = try workspace.search("color")
    #expect(Set(response.results.prefix(2).map(\.id)) == Set(workspace.ids([1, 2])))
    #expect(response.results.last?.id == workspace.ids([0])[0])
    // Same note but for the spelling: exactly the spelling weight (0.9) of the typed form's
    // field score.
    let colour = try #require(response.results.first { $0.id == workspace.ids([0])[0] })
    let color = try #require(response.results.first { $0.id == workspace.ids([1])[0] })
    let ratio = colour.scoreParts.title / color.scoreParts.title
    #expect(abs(ratio - 0.9) < 1e-9, "\(ratio)")
    // Typed the other way round, the other note is first: the bound follows the word typed.
    #expect(try workspace.search("colour").results.first?.id == workspace.ids([0])[0])
  }

  @Test("six notes titled Color outrank one that says colour once in its body")
  func titlesBeatRareSpellingInBody() throws {
    let titles = ["palette", "tokens", "contrast", "naming", "themes", "audit"].map {
      Item(title: "Color \($0)", content: "notes")
    }
    let workspace = try Workspace(titles + [Item(title: "Standup", content: "Someone said colour once.")])
    let response = try workspace.search("color")
    #expect(response.results.count == 7)
    #expect(response.results.last?.id == workspace.ids([6])[0])
  }

  @Test("the number typed outranks the other number of an irregular noun")
  func numberTypedFirst() throws {
    let workspace = try Workspace([
      Item(title: "Mice study", content: "x"),
      Item(title: "Mouse study", content: "x"),
      Item(title: "Mouse diet", content: "y"),
    ])
    let response = try workspace.search("mouse")
    #expect(response.results.last?.id == workspace.ids([0])[0], "\(response.results.map(\.title))")
  }

  @Test("seven notes titled Deploy outrank a word form in one note's body (the review's case)")
  func wordFormBelowExactTitles() throws {
    let titles = ["freeze", "rollback", "owners", "window", "checklist", "keys", "metrics"].map {
      Item(title: "Deploy \($0)")
    }
    let workspace = try Workspace(titles + [Item(title: "Lunch notes", content: "A deployment came up briefly at lunch.")])
    let response = try workspace.search("deploy", limit: 10)
    #expect(response.results.count == 8)
    #expect(response.results.last?.id == workspace.ids([7])[0], "\(response.results.map(\.title))")
    let last = try #require(response.results.last)
    #expect(last.scoreParts.fuzzy > 0 && last.scoreParts.fuzzy < response.results[0].score)
  }

  @Test("a form no more informative than the word typed keeps its weight")
  func commonerFormUnchanged() throws {
    // `tumour` is typed and rare; `tumor` is commoner: its IDF is lower, nothing to bound.
    let workspace = try Workspace([
      Item(title: "Tumour board", content: "weekly"),
      Item(title: "Tumor registry", content: "monthly"),
      Item(title: "Tumor samples", content: "daily"),
    ])
    let response = try workspace.search("tumour")
    let board = try #require(response.results.first)
    #expect(board.id == workspace.ids([0])[0])
    let registry = try #require(response.results.first { $0.id == workspace.ids([1])[0] })
    let statistics = Double(3)
    func idf(_ df: Double) -> Double { log(1 + (statistics - df + 0.5) / (df + 0.5)) }
    // Unbounded: 0.9 × idf(tumor) per unit of title evidence, against 1 × idf(tumour).
    let expected = 0.9 * idf(2) / idf(1)
    #expect(abs(registry.scoreParts.title / board.scoreParts.title - expected) < 1e-9)
  }
}
