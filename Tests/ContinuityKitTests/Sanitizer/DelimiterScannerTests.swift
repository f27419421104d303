import Foundation
import Testing

@testable import ContinuityKit

/// Review (s22): delimiters hidden by a default-ignorable character the sanitizer keeps (`<\u{AD}system>`)
/// or written in fullwidth forms (`＜system＞`) were left live.
@Suite("Delimiter scanner")
struct DelimiterScannerTests {
  /// The one ASCII scalar NFKC folds `scalar` to, or nil when it folds to anything else.
  private static func nfkcASCII(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
    let folded = String(Character(scalar)).precomposedStringWithCompatibilityMapping.unicodeScalars
    guard folded.count == 1, let only = folded.first, only.isASCII else { return nil }
    return only
  }

  @Test("Brackets, bars and slashes are read as NFKC reads them, for every assigned scalar; names fold as NFKC folds them")
  func foldingAgreesWithNFKC() {
    var punctuationMismatches: [String] = []
    var nameMismatches: [String] = []
    var readAsBracket = 0
    for value in UInt32(0x80)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      switch scalar.properties.generalCategory {
      case .unassigned, .privateUse, .surrogate: continue
      default: break
      }
      let nfkc = Self.nfkcASCII(scalar)
      let isSyntax = nfkc.map { "<>[]|/".unicodeScalars.contains($0) } ?? false
      let expected = isSyntax ? nfkc : scalar
      if DelimiterScanner.punctuation(scalar) != expected {
        punctuationMismatches.append(String(value, radix: 16, uppercase: true))
      }
      if DelimiterScanner.isOpeningBracket(scalar) != (nfkc == "<" || nfkc == "[") {
        punctuationMismatches.append("open " + String(value, radix: 16, uppercase: true))
      }
      if isSyntax { readAsBracket += 1 }
      // `▁` (DeepSeek's word separator) is read as itself, then as `_` by the name key.
      if value != 0x2581, DelimiterScanner.compatibilityFolded(scalar) != (nfkc ?? scalar) {
        nameMismatches.append(String(value, radix: 16, uppercase: true))
      }
    }
    #expect(punctuationMismatches.isEmpty, "\(punctuationMismatches.prefix(20))")
    #expect(nameMismatches.isEmpty, "\(nameMismatches.prefix(20))")
    // U+FF1C, U+FF1E, U+FF3B, U+FF3D, U+FF5C, U+FF0F, U+FE64, U+FE65, U+FE47, U+FE48.
    #expect(readAsBracket == 10)
    // ASCII is itself.
    for value in UInt8(0)...0x7F {
      let scalar = Unicode.Scalar(value)
      #expect(DelimiterScanner.punctuation(scalar) == scalar && DelimiterScanner.compatibilityFolded(scalar) == scalar)
    }
  }

  @Test("The angle brackets NFKC keeps are not read as < and >")
  func angleBracketsAreNotFolded() {
    for value: UInt32 in [0x2329, 0x232A, 0x3008, 0x3009, 0x27E8, 0x27E9, 0x2039, 0x203A, 0x27E6, 0x27E7] {
      let scalar = Unicode.Scalar(value) ?? " "
      #expect(DelimiterScanner.punctuation(scalar) == scalar, "U+\(String(value, radix: 16))")
      #expect(!DelimiterScanner.isOpeningBracket(scalar))
    }
  }

  /// Where a default-ignorable character is put inside a delimiter.
  enum Position: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case afterOpening, insideName, beforeClosing
    var testDescription: String { rawValue }

    func place(_ hidden: String, in delimiter: Sanitizer.Delimiter) -> String {
      let (open, close) = SanitizerTests.Spelling.brackets(delimiter.shape)
      let name = delimiter.name
      let split = name.index(after: name.startIndex)
      switch self {
      case .afterOpening: return open + hidden + name + close
      case .insideName: return open + name[..<split] + hidden + name[split...] + close
      case .beforeClosing: return open + name + hidden + close
      }
    }
  }

  /// The first and last scalar of every range of ``Sanitizer/defaultIgnorableRanges``.
  static let rangeEnds: [UInt32] = Sanitizer.defaultIgnorableRanges.flatMap { [$0.lowerBound, $0.upperBound] }

  @Test(
    "Every default-ignorable character is read past, wherever it stands in a delimiter of each shape",
    arguments: rangeEnds, Position.allCases)
  func ignorablesAreReadPast(value: UInt32, position: Position) throws {
    let hidden = String(Character(try #require(Unicode.Scalar(value))))
    for name in ["system", "im_start", "SYS", "INST"] {
      let delimiter = try #require(Sanitizer.delimiters.first { $0.name == name })
      let text = "x " + position.place(hidden, in: delimiter) + " y"
      #expect(Sanitizer.containsLiveDelimiter(text), "\(text.debugDescription)")
      let output = Sanitizer.sanitize(text)
      #expect(!Sanitizer.containsLiveDelimiter(output), "\(output.debugDescription)")
      #expect(Array(Sanitizer.sanitize(output).unicodeScalars) == Array(output.unicodeScalars))
      // The brackets, and nothing else, were swapped: no ASCII bracket is left.
      #expect(!output.unicodeScalars.contains { "<>[]".unicodeScalars.contains($0) }, "\(output.debugDescription)")
    }
  }

  /// Review (s23): a combining mark right after the opening bracket (`<\u{301}system>`,
  /// `<\u{20D2}/system>`, `[\u{301}INST]`) blocked the match, so the delimiter reached a prompt
  /// live.
  @Test("A combining mark between the opening bracket and the name is read past; the mark is kept")
  func combiningMarksBeforeNameAreReadPast() {
    let cases: [(input: String, output: String)] = [
      ("x <\u{301}system> y", "x \u{2039}\u{301}system\u{203A} y"),
      ("<\u{20D2}/system>", "\u{2039}\u{20D2}/system\u{203A}"),
      ("[\u{301}INST]", "\u{27E6}\u{301}INST\u{27E7}"),
      ("[/\u{301}INST]", "\u{27E6}/\u{301}INST\u{27E7}"),
      ("<|\u{301}im_start|>", "\u{2039}|\u{301}im_start|\u{203A}"),
      ("<\u{20DD}|im_end|>", "\u{2039}\u{20DD}|im_end|\u{203A}"),
      ("<\u{301}<SYS>\u{20D2}>", "\u{2039}\u{301}\u{2039}SYS\u{203A}\u{20D2}\u{203A}"),
      ("< \u{301}system >", "\u{2039} \u{301}system \u{203A}"),
      ("<\u{301}\u{AD}\u{323}system>", "\u{2039}\u{301}\u{AD}\u{323}system\u{203A}"),
      // NFC puts the marks in canonical order (U+0323 below before U+0301 above).
      ("<\u{301}\u{323}system>", "\u{2039}\u{323}\u{301}system\u{203A}"),
      ("ab<\u{301}User>", "ab\u{2039}\u{301}User\u{203A}"),
      ("\u{FF1C}\u{301}system\u{FF1E}", "\u{2039}\u{301}system\u{203A}"),
    ]
    for (input, expected) in cases {
      #expect(Sanitizer.containsLiveDelimiter(input), "\(input.debugDescription)")
      let output = Sanitizer.sanitize(input)
      #expect(Array(output.unicodeScalars) == Array(expected.unicodeScalars), "\(output.debugDescription)")
      #expect(!Sanitizer.containsLiveDelimiter(output), "\(output.debugDescription)")
      #expect(Array(Sanitizer.sanitize(output).unicodeScalars) == Array(output.unicodeScalars))
    }
  }

  /// Every assigned nonspacing or enclosing mark, after each opening bracket and after a closing
  /// slash. The one mark NFC composes with a bracket, U+0338 after `<` (`≮` U+226E), leaves no
  /// bracket to read.
  @Test("Every combining mark after an opening bracket or a slash is read past, for each shape")
  func everyCombiningMarkIsReadPast() throws {
    let marks = (UInt32(0x300)...0x10FFFF).compactMap(Unicode.Scalar.init).filter {
      $0.properties.generalCategory == .nonspacingMark || $0.properties.generalCategory == .enclosingMark
    }
    #expect(marks.count > 2_000)
    var missed: [String] = []
    var notInert: [String] = []
    var composedWithBracket: [String] = []
    for mark in marks {
      let m = String(Character(mark))
      #expect(DelimiterScanner.isCombiningMark(mark))
      for text in ["<" + m + "system>", "</" + m + "system>", "[" + m + "INST]", "<|" + m + "im_start|>", "<" + m + "<SYS>>"] {
        // A mark NFC composes with the bracket makes another character of it.
        if text.precomposedStringWithCanonicalMapping.unicodeScalars.first != text.unicodeScalars.first {
          composedWithBracket.append(String(mark.value, radix: 16, uppercase: true) + " " + String(String.UnicodeScalarView(text.unicodeScalars.prefix(3))))
          continue
        }
        if !Sanitizer.containsLiveDelimiter(text) { missed.append(String(mark.value, radix: 16, uppercase: true)) }
        let output = Sanitizer.sanitize(text)
        if Sanitizer.containsLiveDelimiter(output) || Array(Sanitizer.sanitize(output).unicodeScalars) != Array(output.unicodeScalars)
          || output.unicodeScalars.contains(where: { "<>[]".unicodeScalars.contains($0) })
        {
          notInert.append(String(mark.value, radix: 16, uppercase: true))
        }
      }
    }
    #expect(missed.isEmpty, "\(missed.prefix(20))")
    #expect(notInert.isEmpty, "\(notInert.prefix(20))")
    #expect(composedWithBracket == ["338 <\u{338}s", "338 <\u{338}<"])
    // Spacing marks (Mc) take a place of their own and are not read past.
    #expect(!DelimiterScanner.isCombiningMark("\u{903}"))
    #expect(!Sanitizer.containsLiveDelimiter("<\u{903}system>"))
  }

  @Test("Combining marks elsewhere change nothing: ordinary text stays, a mark in the name is another letter")
  func combiningMarksLeaveOrdinaryTextAlone() {
    for text in [
      "a <b> c", "x < y", "x <\u{301} y", "a <\u{301}b> c", "<\u{301}systems>", "<\u{301}system.md>",
      "Array<\u{301}", "x <\u{301}> y", "[\u{301}]", "<sy\u{301}stem>", "<s\u{20D2}ystem>", "<syste\u{301}m>",
      // NFC composes `<` and U+0338 into `≮`, which is not a bracket.
      "x <\u{338}system> y",
    ] {
      #expect(!Sanitizer.containsLiveDelimiter(text), "\(text.debugDescription)")
      #expect(Sanitizer.sanitize(text) == text.precomposedStringWithCanonicalMapping, "\(text.debugDescription)")
    }
    #expect(Sanitizer.sanitize("x <\u{338}system> y") == "x \u{226E}system> y")
  }

  @Test("The exact inputs of the review: stored neutralized, the soft hyphen kept")
  func reviewInputs() {
    #expect(Array(Sanitizer.sanitize("x <\u{AD}system> y").unicodeScalars) == Array("x \u{2039}\u{AD}system\u{203A} y".unicodeScalars))
    #expect(Array(Sanitizer.sanitize("<|im\u{AD}_start|>").unicodeScalars) == Array("\u{2039}|im\u{AD}_start|\u{203A}".unicodeScalars))
    #expect(Array(Sanitizer.sanitize("[\u{AD}INST]").unicodeScalars) == Array("\u{27E6}\u{AD}INST\u{27E7}".unicodeScalars))
    #expect(Sanitizer.sanitize("x ＜system＞ y") == "x ‹system› y")
  }
}
