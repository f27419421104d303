@testable import ContinuityKit
import Foundation
import Testing

/// `CanonicalComposition.isInert` lets the sanitizer skip normalizing text that is NFC already
/// (s20). Each scalar it calls inert must be left alone by NFC, combine with nothing before it,
/// and end no canonical decomposition — checked here against this build's own normalization.
@Suite("NFC quick check")
struct CanonicalCompositionTests {
  /// Every scalar `isInert` accepts, up to its last range.
  static let inertScalars: [Unicode.Scalar] = (0...0x2ADB).compactMap { Unicode.Scalar(UInt32($0)) }
    .filter(CanonicalComposition.isInert)

  @Test("every inert scalar is its own NFC, of combining class 0")
  func ownNormalForm() {
    #expect(Self.inertScalars.count > 3_500)
    for scalar in Self.inertScalars {
      let text = String(Character(scalar))
      #expect(Array(CanonicalComposition.nfc(text).unicodeScalars) == [scalar], "U+\(String(scalar.value, radix: 16))")
      #expect(scalar.properties.canonicalCombiningClass == .notReordered, "U+\(String(scalar.value, radix: 16))")
    }
  }

  @Test("no canonical decomposition ends with an inert scalar, so none composes with what precedes it")
  func endsNoDecomposition() {
    var lastOfDecompositions = Set<UInt32>()
    for value in UInt32(0)...0x3_FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let decomposed = String(Character(scalar)).decomposedStringWithCanonicalMapping.unicodeScalars
      if decomposed.count > 1, let last = decomposed.last { lastOfDecompositions.insert(last.value) }
    }
    #expect(lastOfDecompositions.contains(0x301))  // é = e + U+0301: the check sees decompositions.
    let ending = Self.inertScalars.filter { lastOfDecompositions.contains($0.value) }
    #expect(ending.isEmpty, "\(ending.map { "U+" + String($0.value, radix: 16) })")
  }

  @Test("text of inert scalars comes out of the sanitizer unchanged; a mark after one is still composed")
  func sanitizerShortcut() {
    let text = "β-cells ≥ 0.7 – α ∼ μ → “quoted” Ωmega Ж"
    #expect(Array(Sanitizer.sanitizedScalars(of: text).unicodeScalars) == Array(text.unicodeScalars))
    #expect(Array(Sanitizer.sanitize("α\u{301} e\u{301}").unicodeScalars) == ["\u{3AC}", " ", "\u{E9}"])
    // U+2126 OHM SIGN is not inert: NFC makes it U+03A9.
    #expect(Array(Sanitizer.sanitize("5 \u{2126}").unicodeScalars) == ["5", " ", "\u{3A9}"])
  }

  @Test("the sanitizer's string building keeps every scalar")
  func stringFromScalars() {
    let scalars = Array("a é 👩‍🔬 ‹system› \u{10FFFD} 日本".unicodeScalars)
    #expect(Array(Sanitizer.string(scalars).unicodeScalars) == scalars)
    #expect(Sanitizer.string([]).isEmpty)
  }
}
