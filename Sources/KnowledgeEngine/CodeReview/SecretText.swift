/// The text of the credentials one analysis (or one `dolphin analyze` run over several files)
/// found, so that no finding prints any of it again (review 29-b, 4: a line of a private key
/// block repeated elsewhere — the same base64 chunk in another literal, on a line a `todo`,
/// `force_try` or `repeated_line` finding reported, in the same file or another — was printed).
///
/// Two kinds of text are added (``CodeAnalyzer/withheldLines(_:_:_:)``):
/// - **A secret** (``addSecret(_:)``): a `hardcoded_secret` value without its delimiters, as
///   written and decoded (`\n`, `\u{70}`, `\"`: review 30-b, 3), and the words of a flagged
///   multi-line literal that look like key material. A line or a snippet is withheld when it
///   holds a *part* of one: ``window(forLength:)`` bytes in a row — half the secret's length,
///   at least ``shortestWindow`` (6) and at most ``longestWindow`` (8) bytes — including a run
///   that wraps from its end to its start (`NbT5hZq8` of `Zq8vLm3KpR7wXy2NbT5h`). So no line
///   printed holds more than 7 bytes in a row of a secret, nor more than 5 of one under 14
///   bytes (review 30-b, 3: a 20-byte secret was printed as 11 + 9 bytes).
/// - **A line of text** (``add(_:)``) of a multi-line literal bound to a credential-like name
///   or holding what the credential detector flags (a private key block): withheld when a line
///   holds ``runLength`` (12) bytes in a row of it, or the whole of a line of ``shortestText``
///   to 11 bytes. Such a line may hold prose or configuration beside the secret (`DB_HOST=
///   localhost`), so its parts are matched only where they look like key material (see
///   ``add(_:)``): a shorter window over all of it would withhold every line naming `localhost`.
///
/// A text shorter than ``shortestText`` (8) bytes is not matched elsewhere (it would match too
/// much ordinary code), though a copy of the same literal is still withheld. The comparison is
/// on bytes, case-sensitive. A line that merely shares a run with a credential's text (the
/// JSON key `"private_key_id"` of a service-account file, a word of a passphrase) is withheld
/// too: over-withholding costs a snippet, the other way costs the secret.
///
/// - Complexity: adding a text of n bytes costs O(n); ``occurs(in:)`` costs O(m) for m bytes
///   looked at (at most four set lookups per byte), plus O(m · s) for s short lines of text.
struct SecretText: Sendable {
  /// Bytes in a row of a line of text that withhold a line holding them: 12.
  static let runLength = 12
  /// The shortest text matched elsewhere, in bytes: 8 (a line of text shorter than
  /// ``runLength`` must occur whole).
  static let shortestText = 8
  /// The shortest part of a secret that withholds a line holding it, in bytes: 6.
  static let shortestWindow = 6
  /// The longest part of a secret needed to withhold a line holding it, in bytes: 8.
  static let longestWindow = 8

  /// The part of a secret of `length` bytes that withholds a line holding it: half its length,
  /// within ``shortestWindow``…``longestWindow`` (6 for a secret of up to 13 bytes, 7 for 14 or
  /// 15, 8 from 16 on).
  static func window(forLength length: Int) -> Int {
    min(longestWindow, max(shortestWindow, length / 2))
  }

  /// A run of ``runLength`` bytes, packed.
  private struct Run: Hashable, Sendable {
    var head: UInt64
    var tail: UInt32
  }

  /// Every run of ``runLength`` bytes of the lines of text of that length or more.
  private var runs = Set<Run>()
  /// The lines of text of ``shortestText`` to ``runLength`` − 1 bytes.
  private var shortTexts: [[UInt8]] = []
  /// The parts of the secrets, packed big-endian into the low bytes: element k holds the runs
  /// of ``shortestWindow`` + k bytes.
  private var parts = [Set<UInt64>](repeating: [], count: longestWindow - shortestWindow + 1)

  /// Whether no text was added (nothing is withheld by it).
  var isEmpty: Bool { runs.isEmpty && shortTexts.isEmpty && parts.allSatisfy(\.isEmpty) }

  /// Adds a line of text around a credential (a line of a flagged multi-line literal): its
  /// runs of ``runLength`` bytes (or itself, from ``shortestText`` to 11 bytes), and each word
  /// of it that looks like key material as a secret (``addSecret(_:)``): a run of at least
  /// ``shortestText`` letters, digits, `+`, `/`, `_`, `-`, `.` and `~` (base64, base64url and
  /// token characters) with at least 2 letters and 2 digits — a line of a key block's base64,
  /// `Sup3rS3cret` in `DB_PASSWORD=Sup3rS3cret`, but not `localhost` or `-----BEGIN`. One under
  /// ``shortestText`` bytes is ignored.
  mutating func add(_ text: some Collection<UInt8>) {
    let bytes = Array(text)
    guard bytes.count >= Self.shortestText else { return }
    var start = 0
    while start < bytes.count {
      guard Self.isKeyMaterial(bytes[start]) else {
        start += 1
        continue
      }
      var end = start
      while end < bytes.count, Self.isKeyMaterial(bytes[end]) { end += 1 }
      let word = bytes[start..<end]
      if word.count >= Self.shortestText, word.count(where: Self.isDigit) >= 2,
        word.count(where: Self.isLetter) >= 2
      {
        addSecret(word)
      }
      start = end
    }
    guard bytes.count >= Self.runLength else {
      if !shortTexts.contains(bytes) { shortTexts.append(bytes) }
      return
    }
    bytes.withUnsafeBufferPointer { b in
      for start in 0...(b.count - Self.runLength) { runs.insert(Self.run(b, at: start)) }
    }
  }

  /// Adds a secret: its every run of ``window(forLength:)`` bytes, those that wrap from its
  /// end to its start included. One under ``shortestText`` bytes is ignored.
  mutating func addSecret(_ text: some Collection<UInt8>) {
    let bytes = Array(text)
    guard bytes.count >= Self.shortestText else { return }
    let window = Self.window(forLength: bytes.count)
    // The secret followed by its first window − 1 bytes: its runs, then the wrapping ones.
    let cyclic = bytes + bytes.prefix(window - 1)
    var packed: UInt64 = 0
    for (i, byte) in cyclic.enumerated() {
      packed = (packed << 8 | UInt64(byte)) & Self.mask(window)
      if i >= window - 1 { parts[window - Self.shortestWindow].insert(packed) }
    }
  }

  /// Adds every text of `other`.
  mutating func formUnion(_ other: SecretText) {
    runs.formUnion(other.runs)
    for text in other.shortTexts where !shortTexts.contains(text) { shortTexts.append(text) }
    for k in parts.indices { parts[k].formUnion(other.parts[k]) }
  }

  /// Whether `bytes` hold a part of a secret (``addSecret(_:)``), or ``runLength`` bytes in a
  /// row of a line of text, or the whole of a short one (``add(_:)``).
  func occurs(in bytes: some Collection<UInt8>) -> Bool {
    guard !isEmpty, bytes.count >= Self.shortestWindow else { return false }
    let array = Array(bytes)
    return array.withUnsafeBufferPointer { b in
      for (k, set) in parts.enumerated() where !set.isEmpty {
        let window = Self.shortestWindow + k
        var packed: UInt64 = 0
        for i in 0..<b.count {
          packed = (packed << 8 | UInt64(b[i])) & Self.mask(window)
          if i >= window - 1, set.contains(packed) { return true }
        }
      }
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

  /// Whether `text`'s UTF-8 bytes hold an added text (``occurs(in:)``), as written or with
  /// its string escapes decoded (``SwiftStringEscapes/decoded(_:)``: `Zq8v\u{4C}m3K` holds
  /// `Zq8vLm3K`).
  func occurs(in text: String) -> Bool {
    occurs(in: text.utf8) || text.utf8.contains(ASCII.backslash) && occurs(in: SwiftStringEscapes.decoded(text.utf8))
  }

  private static func mask(_ window: Int) -> UInt64 {
    window >= 8 ? .max : (1 << (8 * UInt64(window))) - 1
  }

  private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
  private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
  /// Letters, digits, `+`, `/`, `_`, `-`, `.`, `~`.
  private static func isKeyMaterial(_ b: UInt8) -> Bool {
    isDigit(b) || isLetter(b) || b == 0x2B || b == 0x2F || b == 0x5F || b == 0x2D || b == 0x2E || b == 0x7E
  }

  private static func run(_ b: UnsafeBufferPointer<UInt8>, at start: Int) -> Run {
    var head: UInt64 = 0
    for i in 0..<8 { head = head << 8 | UInt64(b[start + i]) }
    var tail: UInt32 = 0
    for i in 8..<12 { tail = tail << 8 | UInt32(b[start + i]) }
    return Run(head: head, tail: tail)
  }
}
