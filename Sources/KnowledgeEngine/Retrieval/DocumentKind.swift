import Foundation

/// What a searchable document is: a typed knowledge item or a legacy memory.
///
/// Ordered as the ranking tie-break needs: ``KnowledgeKind``'s declaration order (`decision`
/// first), then `memory` after every kind. Encoded as its ``name`` (`"decision"`, …,
/// `"memory"`).
public enum DocumentKind: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// A knowledge item of this kind.
  case knowledge(KnowledgeKind)
  /// A legacy memory (labeled so wherever it is shown).
  case memory

  /// Every document kind in tie-break order: the seven knowledge kinds, then `memory`.
  public static let allCases: [DocumentKind] =
    KnowledgeKind.allCases.map { .knowledge($0) } + [.memory]

  /// Position in the tie-break order: 0 (`decision`) … 6 (`code`), 7 (`memory`).
  public var orderIndex: Int {
    switch self {
    case .knowledge(let kind): kind.orderIndex
    case .memory: KnowledgeKind.allCases.count
    }
  }

  /// The kind's raw name, or `memory`.
  public var name: String {
    switch self {
    case .knowledge(let kind): kind.rawValue
    case .memory: "memory"
    }
  }

  /// The kind named `name` (`decision` … `code`, `memory`), or nil.
  public init?(name: String) {
    if name == "memory" {
      self = .memory
    } else if let kind = KnowledgeKind(rawValue: name) {
      self = .knowledge(kind)
    } else {
      return nil
    }
  }

  /// The kind at `orderIndex` (0…7), or nil.
  public init?(orderIndex: Int) {
    guard Self.allCases.indices.contains(orderIndex) else { return nil }
    self = Self.allCases[orderIndex]
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.orderIndex < rhs.orderIndex }

  /// Same as ``name``.
  public var description: String { name }

  /// Decodes a ``name``.
  ///
  /// - Throws: `DecodingError.dataCorrupted` for any other string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    guard let kind = DocumentKind(name: name) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "unknown document kind \(name.debugDescription); expected one of "
          + Self.allCases.map(\.name).joined(separator: ", "))
    }
    self = kind
  }

  /// Encodes the ``name``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}
