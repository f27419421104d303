/// Truncation of derived text (digests, rendered tool output, prompt evidence) to a bound
/// counted in `Character`s, with a visible marker.
///
/// Cuts fall on `Character` (extended grapheme cluster) boundaries, so an emoji, a letter
/// with its combining marks or a Hangul syllable spelled in jamo is kept whole or dropped
/// whole, and the result is valid text that survives JSON encoding unchanged. As input bounds
/// do (``Limits/check(_:_:limit:)``), the result also holds at most
/// ``Limits/unicodeScalarLimit(forCharacters:)`` of the bound in Unicode scalars, so a few
/// characters carrying thousands of combining marks cannot make it any size.
public enum Truncation {
  /// Appended to text that was cut: 12 `Character`s, starting with `…` U+2026.
  public static let marker = "…[truncated]"

  /// Returns `text` cut to at most `limit` `Character`s (and at most
  /// ``Limits/unicodeScalarLimit(forCharacters:)`` of `limit` Unicode scalars), marker included.
  ///
  /// When `text` fits, it is returned unchanged. Otherwise the result is the longest prefix
  /// of whole `Character`s that, with ``marker`` appended, still counts at most `limit`
  /// `Character`s (and Unicode scalars within the bound) and ends with the marker as its own
  /// `Character`s. (A prefix ending in a prepended concatenation mark such as U+0600 would fuse
  /// with the marker's `…` into one `Character`; that mark is dropped too.) When `limit` is
  /// smaller than the marker, the result is the first `limit` `Character`s of the marker, and
  /// empty for `limit <= 0`.
  ///
  /// - Parameters:
  ///   - text: The text to bound.
  ///   - limit: The most `Character`s the result may have, e.g. ``Limits/renderedToolOutput``.
  /// - Returns: `text` itself, or a prefix of it followed by ``marker``.
  /// - Complexity: O(`limit`) characters: text longer than the limit is never counted to its
  ///   end (a single character is read whole, however many scalars it holds).
  public static func truncate(_ text: String, to limit: Int) -> String {
    let limit = max(0, limit)
    let scalarBudget = Limits.unicodeScalarLimit(forCharacters: limit)
    // nil: fewer than `limit` characters.
    let fitsCharacters =
      text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex).map { $0 == text.endIndex } ?? true
    if fitsCharacters, text.utf8.count <= scalarBudget || text.unicodeScalars.count <= scalarBudget {
      return text
    }

    let markerCount = marker.count
    guard limit > markerCount else { return String(marker.prefix(limit)) }

    // The most whole characters that leave room for the marker, in characters and in scalars.
    let markerScalars = marker.unicodeScalars.count
    var kept = 0
    var scalars = 0
    for character in text {
      let n = character.unicodeScalars.count
      guard kept < limit - markerCount, scalars + n + markerScalars <= scalarBudget else { break }
      kept += 1
      scalars += n
    }
    while kept > 0 {
      let result = String(text.prefix(kept)) + marker
      // Counting is exact: the prefix's own clusters cannot change by appending, so a
      // shortfall means its last cluster fused with the marker's first.
      if result.count == kept + markerCount { return result }
      kept -= 1
    }
    return marker
  }
}
