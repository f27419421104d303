import ContinuityKit

/// The SHA-256 fingerprint of synthetic items: `synth.py`'s `fingerprint(items)`.
///
/// Hashes, for each item, the UTF-8 of `title U+001F content U+001F tags U+000A`, the tags
/// joined by U+001E.
///
/// - Parameter items: The items, usually a prefix of ``synthItems(_:count:seed:)``.
/// - Returns: 64 lowercase hexadecimal digits, equal to what `python3 synth.py` prints.
/// - Complexity: O(*n*) in the total UTF-8 length of the items.
public func fingerprint(_ items: ArraySlice<SynthItem>) -> String {
  var hasher = SHA256()
  for item in items {
    hasher.update(item.title)
    hasher.update("\u{1F}")
    hasher.update(item.content)
    hasher.update("\u{1F}")
    hasher.update(item.tags.joined(separator: "\u{1E}"))
    hasher.update("\n")
  }
  return hasher.hexDigest()
}
