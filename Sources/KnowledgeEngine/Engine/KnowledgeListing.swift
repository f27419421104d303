import ContinuityKit
import Foundation

/// The answer to one listing of knowledge items: a page of them, how many match the filters
/// and, when none does, why (see ``KnowledgeEngine/knowledgeListing(kinds:tag:limit:)``).
public struct KnowledgeListing: Sendable, Equatable {
  /// Why no knowledge item matches a listing's filters.
  public enum EmptyReason: String, Sendable, Codable, CaseIterable {
    /// The workspace holds no knowledge item at all.
    case noKnowledge
    /// No knowledge item carries the tag.
    case noItemWithTag
    /// Items carry the tag, but none of them is of the requested kinds.
    case noItemWithTagInKinds
    /// No knowledge item is of the requested kinds (no tag was given).
    case noItemInKinds
  }

  /// At most `limit` items, newest first.
  public var items: [KnowledgeItem]
  /// The number of items that match the filters (every item when there is none).
  public var total: Int
  /// The requested kinds, without repeats, in the order given (empty: all kinds).
  public var kinds: [KnowledgeKind]
  /// The tag filtered on, normalized as stored tags are; nil when there is none.
  public var tag: String?
  /// Why no item matches; nil when some item does.
  public var emptyReason: EmptyReason?
  /// How many matching items were skipped before ``items`` (0 unless a page was asked for).
  public var offset = 0

  /// Makes a listing.
  public init(
    items: [KnowledgeItem], total: Int, kinds: [KnowledgeKind], tag: String?,
    emptyReason: EmptyReason?
  ) {
    self.items = items
    self.total = total
    self.kinds = kinds
    self.tag = tag
    self.emptyReason = emptyReason
  }

  /// Whether items that match the filters come after ``items``: the limit left them out.
  public var isTruncated: Bool { offset + items.count < total }

  /// The offset of the next page (`offset + items.count`) while ``isTruncated``; nil on the
  /// last page.
  public var nextOffset: Int? { isTruncated ? offset + items.count : nil }

  /// Why no item matches, in words that name the tag and kinds filtered on, for a "No items:"
  /// line (lower case, no final period); nil when some item matches.
  public var emptyExplanation: String? {
    let tag = "'\(self.tag ?? "")'"
    let kinds = (self.kinds.count == 1 ? "kind " : "kinds ")
      + self.kinds.map(\.rawValue).joined(separator: ", ")
    return switch emptyReason {
    case nil: nil
    case .noKnowledge: "the workspace has no knowledge items yet"
    case .noItemWithTag: "no knowledge item carries the tag \(tag)"
    case .noItemWithTagInKinds: "no knowledge item of \(kinds) carries the tag \(tag) (items of other kinds do)"
    case .noItemInKinds: "no knowledge item is of \(kinds)"
    }
  }
}
