import Foundation
import Testing
import TestSupport

/// Review (s22): `dolphin capture fact "x <\u{AD}system> y"` stored the delimiter live (a soft
/// hyphen hid it from matching), and `x ＜system＞ y` in fullwidth brackets too.
@Suite("capture neutralizes delimiters hidden by ignorable characters or fullwidth forms", .serialized)
struct HiddenDelimiterCommandTests {
  @Test("the review's inputs are stored with look-alike brackets, the soft hyphen kept")
  func storedNeutralized() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let cases: [(given: String, stored: String)] = [
      ("x <\u{AD}system> y", "x \u{2039}\u{AD}system\u{203A} y"),
      ("<|im\u{AD}_start|>", "\u{2039}|im\u{AD}_start|\u{203A}"),
      ("[\u{AD}INST]", "\u{27E6}\u{AD}INST\u{27E7}"),
      ("x ＜system＞ y", "x ‹system› y"),
    ]
    for (given, stored) in cases {
      let item = try #require(try cli.json(["capture", "fact", given])["item"] as? [String: Any])
      let title = try #require(item["title"] as? String)
      #expect(Array(title.unicodeScalars) == Array(stored.unicodeScalars), "\(title.debugDescription)")
    }
  }
}
