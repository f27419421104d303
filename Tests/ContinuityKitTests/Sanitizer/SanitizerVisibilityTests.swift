import ContinuityKit
import Testing

/// Text made only of characters that show nothing is judged invisible everywhere, not only the
/// characters the sanitizer drops: a review (s8/h3) found a soft hyphen alone stored as a title.
@Suite("Sanitizer visibility")
struct SanitizerVisibilityTests {
  struct InvisibleCase: CustomTestStringConvertible, Sendable {
    var scalar: UInt32
    var name: String
    var text: String { String(Unicode.Scalar(scalar).map(Character.init) ?? " ") }
    var testDescription: String { "U+\(String(scalar, radix: 16, uppercase: true)) \(name)" }
  }

  // Kept by the sanitizer (they have a use inside text) but showing nothing on their own.
  static let keptButInvisible = [
    InvisibleCase(scalar: 0x00AD, name: "soft hyphen"),
    InvisibleCase(scalar: 0x034F, name: "combining grapheme joiner"),
    InvisibleCase(scalar: 0x115F, name: "Hangul choseong filler"),
    InvisibleCase(scalar: 0x1160, name: "Hangul jungseong filler"),
    InvisibleCase(scalar: 0x3164, name: "Hangul filler"),
    InvisibleCase(scalar: 0xFFA0, name: "halfwidth Hangul filler"),
    InvisibleCase(scalar: 0x17B4, name: "Khmer vowel inherent AQ"),
    InvisibleCase(scalar: 0x17B5, name: "Khmer vowel inherent AA"),
    InvisibleCase(scalar: 0x2800, name: "Braille pattern blank"),
    InvisibleCase(scalar: 0x180B, name: "Mongolian free variation selector one"),
    InvisibleCase(scalar: 0x1BCA0, name: "shorthand format letter overlap"),
    InvisibleCase(scalar: 0x1D173, name: "musical symbol begin beam"),
    InvisibleCase(scalar: 0xFFF0, name: "unassigned default-ignorable"),
  ]

  // Already dropped by the sanitizer: still refused.
  static let dropped = [
    InvisibleCase(scalar: 0x200B, name: "zero-width space"),
    InvisibleCase(scalar: 0x2060, name: "word joiner"),
    InvisibleCase(scalar: 0x180E, name: "Mongolian vowel separator"),
    InvisibleCase(scalar: 0xFE0F, name: "variation selector 16"),
    InvisibleCase(scalar: 0x202E, name: "right-to-left override"),
  ]

  @Test("shows nothing alone, with spaces or repeated, and a title of it is refused as having nothing printable",
    arguments: keptButInvisible + dropped)
  func invisibleAlone(_ c: InvisibleCase) throws {
    #expect(Sanitizer.isInvisible(try #require(Unicode.Scalar(c.scalar))))
    for text in [c.text, " \(c.text) ", c.text + c.text + "\n"] {
      #expect(Sanitizer.showsNothing(Limits.sanitized(text, trimming: true)), "\(text.unicodeScalars.map(\.value))")
      #expect(Limits.lostToSanitizer(text, sanitized: Limits.sanitized(text, trimming: true)))
      let error = #expect(throws: ValidationError.self) {
        _ = try Limits.sanitizedInput("title", text, limit: Limits.title, trimming: true)
      }
      // White space given beside them is named too (s16).
      let kinds = text.unicodeScalars.contains(where: \.properties.isWhitespace) ? "white space, control or invisible" : "control or invisible"
      #expect(error?.message.hasPrefix("title has nothing printable: all \(text.count) character(s) given are \(kinds) characters") == true, "\(String(describing: error))")
    }
  }

  @Test("kept inside visible text, which stays visible", arguments: keptButInvisible)
  func keptInsideText(_ c: InvisibleCase) throws {
    let text = "co\(c.text)operate"
    #expect(!Sanitizer.showsNothing(text))
    #expect(try Limits.sanitizedInput("title", text, limit: Limits.title, trimming: true) == Sanitizer.sanitize(text))
  }

  /// Review (s22): the table written out is Unicode's Default_Ignorable_Code_Point, as this
  /// build's standard library has it, scalar for scalar.
  @Test("the default-ignorable ranges are DerivedCoreProperties.txt's Default_Ignorable_Code_Point")
  func defaultIgnorableRanges() {
    let ranges = Sanitizer.defaultIgnorableRanges
    #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound })
    #expect(ranges.reduce(0) { $0 + $1.count } == 4_174)
    var mismatches: [UInt32] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      if Sanitizer.isDefaultIgnorable(scalar) != scalar.properties.isDefaultIgnorableCodePoint { mismatches.append(value) }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(20).map { String($0, radix: 16) })")
    // The characters the review named, each default-ignorable and so invisible alone.
    let named: [UInt32] = [
      0x00AD, 0x034F, 0xFE00, 0xFE0F, 0xE0100, 0xE01EF, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5, 0x180B,
      0x180F, 0x1D173, 0x1D17A, 0xE0000, 0xE007F, 0x200B, 0x2060, 0xFEFF, 0x202E,
    ]
    for value in named {
      let scalar = Unicode.Scalar(value) ?? " "
      #expect(Sanitizer.isDefaultIgnorable(scalar) && Sanitizer.isInvisible(scalar), "U+\(String(value, radix: 16))")
    }
    for value: UInt32 in [0x20, 0x41, 0xAC, 0xAE, 0x2800, 0x3000, 0xFFF9, 0x13430, 0x110BD] {
      #expect(!Sanitizer.isDefaultIgnorable(Unicode.Scalar(value) ?? "x"), "U+\(String(value, radix: 16))")
    }
  }

  @Test("visible text, White_Space and the empty string are judged as before")
  func ordinaryText() {
    #expect(!Sanitizer.showsNothing("a"))
    #expect(!Sanitizer.showsNothing("한"))
    #expect(!Sanitizer.showsNothing("\u{1100}\u{1160}"))  // a syllable written with a filler shows its consonant
    #expect(!Sanitizer.showsNothing("👨‍👩‍👧"))
    #expect(!Sanitizer.showsNothing("⠁"))  // a Braille cell with a dot
    #expect(Sanitizer.showsNothing(""))
    #expect(Sanitizer.showsNothing(" \t\n\u{3000}"))
    #expect(!Sanitizer.isInvisible(" "))
    // Delimiter matching reads past a combining mark after a bracket (s23), but a mark shows:
    // an accent or a circle drawn on what stands before it, or on nothing.
    for mark: Unicode.Scalar in ["\u{301}", "\u{20D2}", "\u{20DD}"] {
      #expect(!Sanitizer.isInvisible(mark))
      #expect(!Sanitizer.showsNothing(String(Character(mark))))
    }
    // Whitespace only is blank, not invisible: capture names it as white space, not as invisible.
    #expect(!Limits.lostToSanitizer("  ", sanitized: ""))
  }
}
