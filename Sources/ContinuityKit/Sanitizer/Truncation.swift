/// Truncation of derived text on `Character` boundaries. (Stub.)
public enum Truncation {
  /// Appended to text that was cut.
  public static let marker = "…[truncated]"

  /// Returns `text` unchanged when it has at most `limit` characters; otherwise a prefix that,
  /// with ``marker`` appended, has at most `limit` characters.
  public static func truncate(_ text: String, to limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(max(0, limit - marker.count))) + marker
  }
}
