/// A synthetic knowledge item: a SciFact title, a run of sentences, and 0 to 8 tags.
public struct SynthItem: Sendable, Equatable {
  /// The source document's title, cut to at most 200 Unicode scalars.
  public var title: String

  /// Sentences from the source document (and following documents when it runs out), 200 to
  /// 2,000 Unicode scalars, cut at a space where possible.
  public var content: String

  /// Distinct vocabulary words, most of them occurring in the title or content.
  public var tags: [String]

  /// Creates an item.
  public init(title: String, content: String, tags: [String]) {
    self.title = title
    self.content = content
    self.tags = tags
  }
}
