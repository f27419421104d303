import Foundation

/// Makes stored and retrieved text inert data. (Stub: replaced by the real implementation.)
public enum Sanitizer {
  /// NFC-normalizes, drops controls (except `\n`, `\t`), bidi overrides and zero-width
  /// characters, and swaps role/tool delimiters for visible look-alikes. Idempotent.
  public static func sanitize(_ text: String) -> String { text }

  /// True when `text` still holds a delimiter that a model could read as a control token.
  public static func containsLiveDelimiter(_ text: String) -> Bool { false }
}
