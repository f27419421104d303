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
}
