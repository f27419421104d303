import Foundation

/// Unicode Normalization Form C (UAX #15) that never loses text.
///
/// Foundation's `precomposedStringWithCanonicalMapping` on Linux cuts a long run of combining
/// marks that decompose (`a` followed by 100 × U+0344 comes back as 62 scalars instead of 200),
/// silently dropping part of the run. The standard library's own normalizer
/// (`String._nfcCodeUnits`) gets such runs right. Foundation's result is kept whenever it is
/// canonically equivalent to the input (Swift's `==` on `String` compares by canonical
/// equivalence), so ordinary text normalizes exactly as before; only where Foundation lost marks
/// is the standard library's result used (and where the comparison itself cannot tell, as for
/// very long runs of marks that canonical ordering moves). Known limit: in a run of dozens of
/// marks of different combining classes (Tibetan U+0F73 repeated), the standard library keeps
/// every mark but not always in canonical order; no text is lost either way.
package enum CanonicalComposition {
  /// `text` in NFC, canonically equivalent to `text`.
  /// - Complexity: O(*n*) in the length of `text` (one normalization, one comparison; a second
  ///   normalization only where the first lost marks).
  package static func nfc(_ text: String) -> String {
    let composed = text.precomposedStringWithCanonicalMapping
    if composed == text { return composed }
    return String(decoding: text._nfcCodeUnits, as: UTF8.self)
  }

  /// Whether text made only of such scalars is in NFC already, so that ``nfc(_:)`` would return
  /// it unchanged: `scalar` has the NFC quick-check value Yes and combining class 0, and is not
  /// the second of any canonical composition (UAX #15, section 9, "Detecting Normalization
  /// Forms"). True for ASCII, Latin up to U+02FF, most of Greek and Cyrillic, and the general
  /// punctuation, letterlike, arrow and mathematical symbols of U+2002…U+2ADB (``inertRanges``);
  /// false for everything else, which ``nfc(_:)`` decides.
  /// - Complexity: O(1).
  package static func isInert(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x300 { return true }
    guard value <= 0x2ADB else { return false }
    return inertRanges.contains { $0.contains(value) }
  }

  /// The ranges above U+02FF of ``isInert(_:)``: assigned characters of Unicode 14 whose NFC
  /// quick check is Yes, whose combining class is 0 and that no canonical decomposition ends
  /// with. Left out: U+0374, U+037E, U+0387 (NFC replaces them), the combining marks U+0483…
  /// U+0489, U+20D0…U+20FF, and U+2126, U+212A, U+212B, U+2329, U+232A (NFC replaces them).
  /// Unicode's normalization stability policy keeps these answers for characters already
  /// assigned (a later version adds no composition with them); the tests check each against
  /// this build's normalization.
  static let inertRanges: [ClosedRange<UInt32>] = [
    0x0370...0x0373, 0x0375...0x0377, 0x037A...0x037D, 0x037F...0x037F, 0x0384...0x0386, 0x0388...0x038A,
    0x038C...0x038C, 0x038E...0x03A1, 0x03A3...0x0482, 0x048A...0x052F,
    0x2002...0x2064, 0x2066...0x2071, 0x2074...0x208E, 0x2090...0x209C, 0x20A0...0x20C0, 0x2100...0x2125,
    0x2127...0x2129, 0x212C...0x218B, 0x2190...0x2328, 0x232B...0x2426, 0x2460...0x2ADB,
  ]
}
