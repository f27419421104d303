import ContinuityKit

/// The tokenizer version the persisted search index records (`meta.lexicalTokenizerVersion`).
public enum StoredTokenizerVersion: Sendable, Equatable, CustomStringConvertible {
  /// A version number (an absent value means 1: every index written before the key existed
  /// was version 1's).
  case version(Int)
  /// The stored text is not a version number (`abc`, `2.0`, ` 2`, a number of more than
  /// ``StoredTokenizerVersion/maximumDigits`` digits): nothing is known about the index's terms.
  case unreadable(String)

  /// The most digits a readable version has. Versions go up by one per tokenizer change, so a
  /// longer number is damage, not a build from the far future.
  public static let maximumDigits = 6

  /// Reads the stored text: ASCII digits without sign, spaces or a leading zero, at most
  /// ``maximumDigits`` of them, make a version; nil (no value stored) is version 1; anything
  /// else is unreadable.
  public init(stored: String?) {
    guard let stored else {
      self = .version(1)
      return
    }
    let digits = stored.utf8
    guard (1...Self.maximumDigits).contains(digits.count), digits.first != UInt8(ascii: "0"),
      digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let number = Int(stored)
    else {
      self = .unreadable(stored)
      return
    }
    self = .version(number)
  }

  /// `version 1`, or `an unreadable version ('abc')` with the stored text made printable and
  /// cut to 40 characters.
  public var description: String {
    switch self {
    case .version(let n): return "version \(n)"
    case .unreadable(let text):
      let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
      return "an unreadable version ('\(Limits.escaped(cut))')"
    }
  }
}

/// How the persisted search index's tokenizer version compares with this build's
/// ``Tokenizer/version``.
public enum SearchIndexTokenizerStatus: Sendable, Equatable {
  /// The index was built with this build's version, or holds no document (no version can make
  /// an empty index stale).
  case current
  /// The index was built with an older version, or its version is unreadable: its terms may not
  /// be the ones queries now produce. This build rebuilds it (``KnowledgeEngine/prepareSearchIndex()``).
  case stale(StoredTokenizerVersion)
  /// The index was built by a newer dolphin (its tokenizer version is higher). This build
  /// leaves it alone — a rebuild would be undone by the newer build, back and forth — and its
  /// searches index the records in memory instead.
  case newer(Int)

  /// Whether searches of this build may rank against the persisted index.
  public var isUsable: Bool { self == .current }
}
