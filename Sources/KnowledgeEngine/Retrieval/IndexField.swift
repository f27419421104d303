/// A searchable field of a document. Ranking weighs them title > tags > content.
public enum IndexField: Int, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
  /// The item's title (legacy memories have none).
  case title = 0
  /// The item's tags, each tokenized separately (no phrase crosses two tags).
  case tags = 1
  /// The item's body text (a memory's text).
  case content = 2

  /// `title`, `tags` or `content`.
  public var description: String {
    switch self {
    case .title: "title"
    case .tags: "tags"
    case .content: "content"
    }
  }
}

/// One value per ``IndexField``: term frequencies, field lengths, weights, score parts.
public struct FieldValues<Value>: CustomStringConvertible {
  /// The value for ``IndexField/title``.
  public var title: Value
  /// The value for ``IndexField/tags``.
  public var tags: Value
  /// The value for ``IndexField/content``.
  public var content: Value

  /// Makes a value per field.
  public init(title: Value, tags: Value, content: Value) {
    self.title = title
    self.tags = tags
    self.content = content
  }

  /// The value for `field`.
  @inlinable
  public subscript(field: IndexField) -> Value {
    get {
      switch field {
      case .title: title
      case .tags: tags
      case .content: content
      }
    }
    set {
      switch field {
      case .title: title = newValue
      case .tags: tags = newValue
      case .content: content = newValue
      }
    }
  }

  /// `title: …, tags: …, content: …`.
  public var description: String { "title: \(title), tags: \(tags), content: \(content)" }
}

extension FieldValues: Sendable where Value: Sendable {}
extension FieldValues: Equatable where Value: Equatable {}
extension FieldValues: Hashable where Value: Hashable {}
extension FieldValues: Codable where Value: Codable {}

extension FieldValues where Value: AdditiveArithmetic {
  /// All fields zero.
  public static var zero: Self { Self(title: .zero, tags: .zero, content: .zero) }

  /// The sum over the three fields.
  public var sum: Value { title + tags + content }
}

/// Per-field counts (term frequencies, lengths in terms). Each fits an `Int32`: a field holds
/// at most ``Limits/content`` (16,000) characters, so at most that many terms.
public typealias FieldCounts = FieldValues<Int32>
