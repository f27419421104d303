@testable import ContinuityKit
import Foundation
import Testing

/// The shortcuts of s20 (an export's import check reads every stored text) must answer as the
/// Foundation calls they skip: trimming that leaves text with nothing to trim as it is, and the
/// tag check that passes printable ASCII at once.
@Suite("Limits' trimming and tag-check shortcuts")
struct LimitsShortcutTests {
  /// Texts with and without white space at either end, of every kind Foundation trims.
  static let texts: [String] = [
    "", " ", "\n", "\r\n", "\t \u{A0}", "\u{3000}", "\u{2028}", "\u{85}",
    "word", " word", "word ", "\nword\n", "\u{A0}word", "word\u{2029}", "\u{3000}word\u{3000}",
    "two words", "e\u{301}", "\u{301}starts with a mark", "ends with a joiner\u{200D}", "\u{200B}zero width\u{200B}",
    "👩‍🔬", " 👩‍🔬 ", "\u{FEFF}bom", "tab\tinside", "x\u{0B}", "\u{0C}y",
  ]

  @Test("trimmedWhitespace gives trimmingCharacters(in: .whitespacesAndNewlines), scalar for scalar", arguments: texts)
  func trimming(text: String) {
    let expected = text.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(Array(Limits.trimmedWhitespace(text).unicodeScalars) == Array(expected.unicodeScalars))
    // checkNotEmpty and sanitized(_:trimming:) are built on it.
    #expect((try? Limits.checkNotEmpty("title", text)) != nil ? !expected.isEmpty : expected.isEmpty)
  }

  /// `checkTagCharacters` as it was before its ASCII shortcut, for comparison.
  static func referenceTagCheck(_ tag: String) -> String? {
    let trimmed = tag.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.contains(where: \.isNewline) { return "a line break" }
    if trimmed.contains("\t") { return "a tab" }
    if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "a control character" }
    return nil
  }

  @Test("checkTagCharacters refuses exactly what it refused before its shortcut, for every ASCII byte anywhere in a tag")
  func tagCharacters() {
    for byte in UInt8(0)...UInt8(0x7F) {
      let c = String(UnicodeScalar(byte))
      for tag in ["a\(c)b", "\(c)ab", "ab\(c)", c, " \(c) ", "é\(c)"] {
        let reference = Self.referenceTagCheck(tag)
        var refused: String?
        do throws(ValidationError) { try Limits.checkTagCharacters("tags[0]", tag) } catch { refused = error.message }
        #expect((refused == nil) == (reference == nil), "byte \(byte) in \(Array(tag.unicodeScalars))")
        if let reference, let refused { #expect(refused.contains("contains \(reference);"), "\(refused)") }
      }
    }
  }
}
