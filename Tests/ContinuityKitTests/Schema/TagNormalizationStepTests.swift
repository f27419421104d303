import ContinuityKit
import Foundation
import Testing

/// The stored form schema step 0006 gives tag lists, tag by tag.
@Suite("Tag normalization step")
struct TagNormalizationStepTests {
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var stored: [String]
    var normalized: [String]
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(name: "already normal", stored: ["storage", "sqlite"], normalized: ["storage", "sqlite"]),
    Case(name: "case and spaces", stored: [" Storage ", "SQLite"], normalized: ["storage", "sqlite"]),
    Case(name: "duplicates merge, first seen first", stored: ["b", "A", "a ", "B"], normalized: ["b", "a"]),
    Case(name: "Unicode form", stored: ["Cafe\u{301}", "café"], normalized: ["café"]),
    Case(name: "invisible characters", stored: ["a\u{200B}b", "ab", "\u{200B}"], normalized: ["ab"]),
    Case(name: "line breaks and tabs fold to one space", stored: ["Line\r\nBreak", "tab\t\tbed"], normalized: ["line break", "tab bed"]),
    Case(name: "role delimiters made inert, as at capture", stored: ["<system>"], normalized: ["‹system›"]),
    Case(name: "a long tag is kept whole", stored: [String(repeating: "X", count: 60)], normalized: [String(repeating: "x", count: 60)]),
  ]

  @Test("normalized form", arguments: cases)
  func normalized(_ c: Case) {
    #expect(TagNormalizationStep.normalized(c.stored) == c.normalized)
    // A second pass changes nothing, so the step never rewrites what it wrote.
    #expect(TagNormalizationStep.normalized(c.normalized) == c.normalized)
  }

  @Test("a tag list captured today is already in the stored form")
  func captureAgrees() throws {
    let given = [" Storage ", "SQLITE", "sqlite", "a\u{200B}b", "Cafe\u{301}"]
    #expect(TagNormalizationStep.normalized(given) == (try Limits.normalizedTags(given)))
  }
}
