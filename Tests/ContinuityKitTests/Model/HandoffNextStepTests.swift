import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Which next steps show nothing, the one judgement capture, import, doctor and step 0007 use.
@Suite("Blank next steps")
struct BlankNextStepTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var step: String
    var isBlank: Bool
    var testDescription: String { name }
  }

  static let cases = [
    Case(name: "empty", step: "", isBlank: true),
    Case(name: "spaces, tab and line break", step: " \t\n ", isBlank: true),
    Case(name: "no-break space", step: "\u{A0}", isBlank: true),
    Case(name: "Braille blank U+2800", step: "\u{2800}", isBlank: true),
    Case(name: "soft hyphens", step: "\u{AD}\u{AD}", isBlank: true),
    Case(name: "zero-width space", step: "\u{200B}", isBlank: true),
    Case(name: "byte order mark", step: "\u{FEFF}", isBlank: true),
    Case(name: "a control character", step: "\u{7}", isBlank: true),
    Case(name: "Hangul fillers", step: "\u{115F}\u{1160}\u{3164}", isBlank: true),
    Case(name: "combining grapheme joiner on a space", step: " \u{34F}", isBlank: true),
    Case(name: "a tag character", step: "\u{E0041}", isBlank: true),
    Case(name: "invisible characters around a Braille blank", step: " \u{2800}\u{200B} ", isBlank: true),
    Case(name: "a word", step: "Ship it", isBlank: false),
    Case(name: "a word holding a soft hyphen", step: "co\u{AD}op", isBlank: false),
    Case(name: "a role delimiter (made visible, not removed)", step: "<system>", isBlank: false),
    Case(name: "a digit", step: "0", isBlank: false),
    Case(name: "a Braille cell with dots", step: "\u{2801}", isBlank: false),
  ]

  @Test("a step shows nothing when, sanitized, it is only whitespace or invisible characters", arguments: cases)
  func judged(_ c: Case) {
    #expect(Handoff.isBlankNextStep(c.step) == c.isBlank)
    #expect(Handoff.visibleNextSteps(["a", c.step, "b"]) == (c.isBlank ? ["a", "b"] : ["a", c.step, "b"]))
  }
}
