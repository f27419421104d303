import Testing

@testable import KnowledgeEngine

struct SnippetTests {
  @Test func shortTextIsWholeOnOneLine() {
    #expect(Snippet.make(from: "  line one\n\tline\u{0007} two  ", around: nil, maximumLength: 200)
      == "line one line two")
  }

  @Test func bidiControlsAreRemoved() {
    #expect(Snippet.make(from: "abc\u{202E}def\u{202C}", around: nil, maximumLength: 200) == "abcdef")
  }

  @Test func longTextIsCutAroundTheMatchOnCharacterBoundaries() {
    let before = String(repeating: "word ", count: 100)
    let text = before + "👩‍👩‍👧 target here " + String(repeating: "more ", count: 100)
    let offset = before.utf8.count + "👩‍👩‍👧 ".utf8.count
    let snippet = Snippet.make(from: text, around: offset, maximumLength: 60)
    #expect(snippet.count <= 60)
    #expect(snippet.contains("target here"))
    #expect(snippet.hasPrefix("…"))
    #expect(snippet.hasSuffix("…"))
  }

  @Test func noMatchTakesTheStart() {
    let text = String(repeating: "abcde ", count: 100)
    let snippet = Snippet.make(from: text, around: nil, maximumLength: 20)
    #expect(snippet.hasPrefix("abcde"))
    #expect(snippet.hasSuffix("…"))
    #expect(snippet.count <= 20)
  }

  @Test func boundIsExactAtTheEdge() {
    let exact = String(repeating: "x", count: 20)
    #expect(Snippet.make(from: exact, around: nil, maximumLength: 20) == exact)
    let longer = exact + "y"
    #expect(Snippet.make(from: longer, around: nil, maximumLength: 20) == String(repeating: "x", count: 19) + "…")
  }

  @Test func textWithoutSpacesIsCutOnCharacters() {
    let text = String(repeating: "会議の記録", count: 100) + "東京" + String(repeating: "議事録", count: 100)
    let offset = String(repeating: "会議の記録", count: 100).utf8.count
    let snippet = Snippet.make(from: text, around: offset, maximumLength: 30)
    #expect(snippet.count == 30)
    #expect(snippet.contains("東京"))
    #expect(snippet.hasPrefix("…") && snippet.hasSuffix("…"))
  }
}
