import ContinuityKit
import Foundation
import Testing

@Suite("Truncation")
struct TruncationTests {
  /// A grapheme cluster that a careless cut would split.
  struct Cluster: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    var testDescription: String { name }
  }

  static let clusters: [Cluster] = [
    Cluster(name: "fox emoji", text: "🦊"),
    Cluster(name: "family ZWJ sequence", text: "👨‍👩‍👧‍👦"),
    Cluster(name: "e + combining acute", text: "e\u{0301}"),
    Cluster(name: "NFD Hangul syllable", text: "\u{1100}\u{1161}\u{11A8}"),
    Cluster(name: "regional-indicator flag", text: "🇫🇷"),
    Cluster(name: "subdivision flag with tags", text: "🏴󠁧󠁢󠁳󠁣󠁴󠁿"),
    Cluster(name: "CRLF", text: "\r\n"),
  ]

  static let limit = 40
  static let markerCount = Truncation.marker.count

  /// Where the cluster sits: its offset in `Character`s, counted from the cut point
  /// `limit - marker.count`; the last one puts it right before the limit.
  static let offsets: [Int] = [-2, -1, 0, 1, markerCount - 1]

  @Test("Never splits a grapheme cluster at the cut", arguments: clusters, offsets)
  func keepsClustersWhole(cluster: Cluster, offset: Int) throws {
    let leading = Self.limit - Self.markerCount + offset
    let text = String(repeating: "a", count: leading) + cluster.text + "tail that does not fit"
    let result = Truncation.truncate(text, to: Self.limit)

    #expect(result.count <= Self.limit)
    #expect(Array(result.suffix(Self.markerCount)) == Array(Truncation.marker))
    // The part before the marker is a prefix of whole Characters, scalar for scalar.
    let kept = result.count - Self.markerCount
    let expectedPrefix = String(text.prefix(kept))
    #expect(
      Array(result.unicodeScalars.dropLast(Truncation.marker.unicodeScalars.count))
        == Array(expectedPrefix.unicodeScalars))
    // The cluster is either entirely in or entirely out.
    let keptScalars = result.unicodeScalars.count - Truncation.marker.unicodeScalars.count
    let clusterStart = leading
    let clusterEnd = leading + cluster.text.unicodeScalars.count
    #expect(keptScalars <= clusterStart || keptScalars >= clusterEnd)
    // The longest prefix that fits was kept.
    #expect(kept == Self.limit - Self.markerCount)

    // Valid text that survives JSON unchanged.
    let json = try JSONEncoder().encode([result])
    let decoded = try JSONDecoder().decode([String].self, from: json)
    #expect(decoded.map { Array($0.unicodeScalars) } == [Array(result.unicodeScalars)])
  }

  @Test("The famous example: a fox right before the limit")
  func foxBeforeLimit() {
    let limit = 20
    let text = String(repeating: "a", count: limit - 1) + "🦊" + "tail"
    let result = Truncation.truncate(text, to: limit)
    #expect(result == String(repeating: "a", count: limit - Self.markerCount) + Truncation.marker)
    #expect(result.count == limit)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let limit: Int
    let expected: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "fits", text: "hello", limit: 10, expected: "hello"),
    Case(name: "exactly at the limit", text: "hello", limit: 5, expected: "hello"),
    Case(name: "empty", text: "", limit: 0, expected: ""),
    Case(name: "emoji counted as one", text: "👨‍👩‍👧‍👦🦊", limit: 2, expected: "👨‍👩‍👧‍👦🦊"),
    Case(
      name: "cut", text: String(repeating: "b", count: 30), limit: 20,
      expected: "bbbbbbbb" + Truncation.marker),
    Case(
      name: "limit equal to the marker", text: String(repeating: "b", count: 30), limit: 12,
      expected: Truncation.marker),
    Case(
      name: "limit below the marker", text: String(repeating: "b", count: 30), limit: 5,
      expected: "…[tru"),
    Case(name: "zero limit", text: "b", limit: 0, expected: ""),
    Case(name: "negative limit", text: "b", limit: -3, expected: ""),
    Case(
      // U+0600 is a prepended concatenation mark: before "…" it would fuse into one cluster,
      // so it is dropped with the text it would have introduced.
      name: "prepend mark at the cut", text: "aaa\u{0600}\nmore text than fits", limit: 16,
      expected: "aaa" + Truncation.marker),
  ]

  @Test("Exact results", arguments: cases)
  func truncates(_ testCase: Case) {
    let result = Truncation.truncate(testCase.text, to: testCase.limit)
    #expect(
      Array(result.unicodeScalars) == Array(testCase.expected.unicodeScalars),
      "\(result.debugDescription)")
    #expect(result.count <= max(testCase.limit, 0))
  }

  @Test("A few characters carrying thousands of combining marks are cut to the Unicode scalar bound")
  func combiningMarksAreBoundedInScalars() {
    let heavy = "a" + String(repeating: "\u{301}", count: 1_000)  // 1 Character, 1,001 scalars
    let text = "ok " + String(repeating: heavy, count: 50)  // 53 Characters
    let result = Truncation.truncate(text, to: 100)
    #expect(result.hasSuffix(Truncation.marker))
    #expect(result.count <= 100)
    #expect(result.unicodeScalars.count <= Limits.unicodeScalarLimit(forCharacters: 100))
    // Whole characters only: the first heavy one does not fit in 1,000 scalars with the marker.
    #expect(result == "ok " + Truncation.marker)
    // Ordinary text within the character limit comes back unchanged.
    let flags = String(repeating: "🇫🇷", count: 100)
    #expect(Truncation.truncate(flags, to: 100) == flags)
  }

  @Test("Truncated text stays sanitized")
  func truncationKeepsTextInert() {
    let text = Sanitizer.sanitize(String(repeating: "<system> ", count: 100))
    let result = Truncation.truncate(text, to: 50)
    #expect(!Sanitizer.containsLiveDelimiter(result))
    #expect(result.count == 50)
  }
}
