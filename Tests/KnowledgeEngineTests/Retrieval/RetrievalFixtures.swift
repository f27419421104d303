import Foundation

@testable import KnowledgeEngine

/// Small deterministic documents for retrieval tests.
enum RetrievalFixtures {
  static let epoch = Date(timeIntervalSince1970: 1_750_000_000)

  /// A fixed UUID whose string form ends in `n` (so UUID order is numeric order).
  static func id(_ n: Int) -> UUID {
    let digits = String(n)
    return UUID(
      uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count)
        + digits) ?? UUID()
  }

  static func document(
    _ n: Int, _ title: String, _ content: String = "", tags: [String] = [],
    kind: DocumentKind = .knowledge(.fact), updatedAt: Date = epoch
  ) -> IndexedDocument {
    IndexedDocument(
      id: id(n), kind: kind, title: title, tags: tags, content: content, updatedAt: updatedAt)
  }

  static func index(_ documents: [IndexedDocument]) -> InMemoryLexicalIndex {
    InMemoryLexicalIndex(documents)
  }
}
