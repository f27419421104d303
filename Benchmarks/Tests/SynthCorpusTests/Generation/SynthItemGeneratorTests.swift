import Testing

@testable import SynthCorpus

struct SynthItemGeneratorTests {
  /// A small corpus built in memory.
  static let source = SynthSource(
    docs: (0..<40).map { index in
      (
        id: "\(index)",
        title: "Title number\(index % 7) about protein\(index % 3) and cells",
        text: (0..<(1 + index % 5)).map { "Sentence \($0) of document \(index) mentions cells." }
          .joined(separator: " ")
      )
    })

  @Test func prefixProperty() {
    let long = synthItems(Self.source, count: 60)
    let short = synthItems(Self.source, count: 25)
    #expect(Array(long.prefix(25)) == short)
    #expect(fingerprint(long.prefix(25)) == fingerprint(short[...]))
  }

  @Test func itemsKeepTheirBounds() {
    for item in synthItems(Self.source, count: 300) {
      let length = item.content.unicodeScalarCount
      #expect((200...2000).contains(length))
      #expect(item.title.unicodeScalarCount <= 200)
      #expect(item.tags.count <= 8)
      #expect(Set(item.tags).count == item.tags.count)
    }
  }

  @Test func seedsGiveDifferentStreams() {
    #expect(
      synthItems(Self.source, count: 5, seed: 1) != synthItems(Self.source, count: 5, seed: 2))
  }

  /// Cuts an over-long content to its target as `synth.py` does.
  struct CutCase: CustomTestStringConvertible, Sendable {
    var name: String
    var content: String
    var target: Int
    var expected: String
    var testDescription: String { name }
  }

  static let cutCases: [CutCase] = [
    CutCase(
      name: "last space at 200 or later: cut there",
      content: String(repeating: "a", count: 205) + " bbbbbbbb", target: 210,
      expected: String(repeating: "a", count: 205)),
    CutCase(
      name: "last space before 200: cut mid-word",
      content: String(repeating: "a", count: 150) + " " + String(repeating: "b", count: 100),
      target: 220,
      expected: String(repeating: "a", count: 150) + " " + String(repeating: "b", count: 69)),
    CutCase(
      name: "no space at all",
      content: String(repeating: "c", count: 300), target: 250,
      expected: String(repeating: "c", count: 250)),
    CutCase(
      name: "a space just past the target is not seen",
      content: String(repeating: "d", count: 201) + " x" + String(repeating: "e", count: 10) + " z",
      target: 213,
      expected: String(repeating: "d", count: 201)),
    CutCase(
      name: "decomposed accents count as two scalars",
      content: String(repeating: "e\u{301}", count: 110) + " " + String(repeating: "f", count: 10),
      target: 225,
      expected: String(repeating: "e\u{301}", count: 110)),
  ]

  @Test(arguments: cutCases)
  func cut(_ testCase: CutCase) {
    let result = SynthItemGenerator.cut(
      testCase.content, scalarCount: testCase.content.unicodeScalarCount, to: testCase.target)
    #expect(Array(result.unicodeScalars) == Array(testCase.expected.unicodeScalars))
  }
}
