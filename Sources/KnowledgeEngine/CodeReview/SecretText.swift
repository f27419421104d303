/// The text of the credentials one analysis (or one `dolphin analyze` run over several files)
/// found, so that no finding prints any of it again: a line or a snippet is withheld when it
/// holds ``runLength`` bytes in a row of one of the texts, or the whole of a text of
/// ``shortestText`` to ``runLength`` − 1 bytes (review 29-b, 4: a line of a private key block
/// repeated elsewhere — the same base64 chunk in another literal, on a line a `todo`,
/// `force_try` or `repeated_line` finding reported, in the same file or another — was printed).
///
/// The texts are what the analysis flags as credentials (``CodeAnalyzer/withheldLines(_:_:_:)``):
/// a `hardcoded_secret` value without its delimiters, and each line of text, trimmed, of a
/// multi-line literal bound to a credential-like name or holding what the credential detector
/// flags (a private key block). A text shorter than ``shortestText`` bytes is not matched
/// elsewhere (it would match too much ordinary code), though a copy of the same literal is
/// still withheld. A line that merely shares 12 bytes with a credential's text (the JSON key
/// `"private_key_id"` of a service-account file) is withheld too: over-withholding costs a
/// snippet, the other way costs the secret.
///
/// - Complexity: adding a text of n bytes costs O(n); ``occurs(in:)`` costs O(m) for m bytes
///   looked at (one set lookup per byte), plus O(m · s) for s short texts.
struct SecretText: Sendable {
  /// Bytes in a row of a credential's text that withhold a line holding them: 12.
  static let runLength = 12
  /// The shortest text matched elsewhere, in bytes: 8 (shorter than ``runLength``, it must
  /// occur whole).
  static let shortestText = 8

  /// A run of ``runLength`` bytes, packed.
  private struct Run: Hashable, Sendable {
    var head: UInt64
    var tail: UInt32
  }

  /// Every run of ``runLength`` bytes of the texts of that length or more.
  private var runs = Set<Run>()
  /// The texts of ``shortestText`` to ``runLength`` − 1 bytes.
  private var shortTexts: [[UInt8]] = []

  /// Whether no text was added (nothing is withheld by it).
  var isEmpty: Bool { runs.isEmpty && shortTexts.isEmpty }

  /// Adds a credential's text; one under ``shortestText`` bytes is ignored.
  mutating func add(_ text: some Collection<UInt8>) {
    let bytes = Array(text)
    guard bytes.count >= Self.shortestText else { return }
    guard bytes.count >= Self.runLength else {
      if !shortTexts.contains(bytes) { shortTexts.append(bytes) }
      return
    }
    bytes.withUnsafeBufferPointer { b in
      for start in 0...(b.count - Self.runLength) { runs.insert(Self.run(b, at: start)) }
    }
  }

  /// Adds every text of `other`.
  mutating func formUnion(_ other: SecretText) {
    runs.formUnion(other.runs)
    for text in other.shortTexts where !shortTexts.contains(text) { shortTexts.append(text) }
  }

  /// Whether `bytes` hold ``runLength`` bytes in a row of an added text, or a whole short one.
  func occurs(in bytes: some Collection<UInt8>) -> Bool {
    guard !isEmpty, bytes.count >= Self.shortestText else { return false }
    let array = Array(bytes)
    return array.withUnsafeBufferPointer { b in
      if !runs.isEmpty, b.count >= Self.runLength {
        for start in 0...(b.count - Self.runLength) where runs.contains(Self.run(b, at: start)) { return true }
      }
      for text in shortTexts where b.count >= text.count {
        for start in 0...(b.count - text.count)
        where b[start] == text[0] && b[start..<(start + text.count)].elementsEqual(text) {
          return true
        }
      }
      return false
    }
  }

  /// Whether `text`'s UTF-8 bytes hold an added text (``occurs(in:)``).
  func occurs(in text: String) -> Bool { occurs(in: text.utf8) }

  private static func run(_ b: UnsafeBufferPointer<UInt8>, at start: Int) -> Run {
    var head: UInt64 = 0
    for i in 0..<8 { head = head << 8 | UInt64(b[start + i]) }
    var tail: UInt32 = 0
    for i in 8..<12 { tail = tail << 8 | UInt32(b[start + i]) }
    return Run(head: head, tail: tail)
  }
}
