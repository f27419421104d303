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

  @Test("The exact inputs of the review: stored neutralized, the soft hyphen kept")
  func reviewInputs() {
    #expect(Array(Sanitizer.sanitize("x <\u{AD}system> y").unicodeScalars) == Array("x \u{2039}\u{AD}system\u{203A} y".unicodeScalars))
    #expect(Array(Sanitizer.sanitize("<|im\u{AD}_start|>").unicodeScalars) == Array("\u{2039}|im\u{AD}_start|\u{203A}".unicodeScalars))
    #expect(Array(Sanitizer.sanitize("[\u{AD}INST]").unicodeScalars) == Array("\u{27E6}\u{AD}INST\u{27E7}".unicodeScalars))
    #expect(Sanitizer.sanitize("x ＜system＞ y") == "x ‹system› y")
  }
}
