@testable import ContinuityKit
import Foundation
import Testing

/// `Sanitizer.sanitize` returns plain ASCII text (printable, tabs and line feeds, no `<` or `[`)
/// without running its steps (s15: an export's import check sanitizes every stored text again).
/// The shortcut must give what the steps give, scalar for scalar.
@Suite("Sanitizer's plain-ASCII shortcut")
struct SanitizerShortcutTests {
  /// A deterministic generator (SplitMix64), so a failure names a reproducible seed.
  struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  @Test("on 20,000 random ASCII texts, controls and brackets included, the shortcut and the steps agree")
  func agreesWithTheSteps() {
    var rng = SplitMix64(state: 15)
    // Weighted toward what matters: delimiters, escapes, CR/LF, DEL and the other controls.
    let pieces = ["<", "[", "]", ">", "|", "/", "system", "INST", "im_end", "\r", "\n", "\r\n", "\t", "\u{1B}", "\u{7F}", "\u{0B}", " ", "a", "Z", "0"]
    var shortcuts = 0
    for _ in 0..<20_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...24, using: &rng) {
        if Bool.random(using: &rng) {
          text += pieces.randomElement(using: &rng)!
        } else {
          text.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &rng)))
        }
      }
      let fast = Sanitizer.sanitize(text)
      let slow = Sanitizer.sanitizedScalars(of: text)
      #expect(Array(fast.unicodeScalars) == Array(slow.unicodeScalars), "\(Array(text.unicodeScalars))")
      if fast == text && !text.unicodeScalars.contains(where: { $0 == "<" || $0 == "[" }) { shortcuts += 1 }
    }
    #expect(shortcuts > 1_000, "the shortcut was taken \(shortcuts) times")
  }

  @Test("text the shortcut must not take is sanitized: a CR, a control, a delimiter, a non-ASCII letter")
  func notTaken() {
    #expect(Sanitizer.sanitize("a\r\nb") == "a\nb")
    #expect(Sanitizer.sanitize("a\u{7}b") == "ab")
    #expect(Sanitizer.sanitize("see <system> here") == "see ‹system› here")
    #expect(Array(Sanitizer.sanitize("e\u{301}").unicodeScalars) == ["\u{E9}"])
    #expect(Sanitizer.sanitize("plain text, with tabs\tand\nlines") == "plain text, with tabs\tand\nlines")
  }
}
