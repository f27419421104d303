import ContinuityKit
import Foundation

/// The knowledge items that already had a captured item's title (``CaptureResult/sameTitleIDs``).
public struct SameTitleItems: Sendable, Equatable, Codable {
  /// The first of them, newest change first (then by id), at most
  /// ``KnowledgeEngine/sameTitleListed``.
  public var ids: [UUID]
  /// How many there are in all.
  public var total: Int

  /// None.
  public static let none = SameTitleItems(ids: [], total: 0)

  public init(ids: [UUID], total: Int) {
    self.ids = ids
    self.total = total
  }
}

extension KnowledgeEngine {
  /// How many items of the same kind and title a capture names at most (the rest are counted).
  public static let sameTitleListed = 5

  /// A title as captures compare them: folded as the search tokenizer folds words
  /// (``Tokenizer/fold(_:)``: NFKC, full case folding, diacritics, Latin letters without a
  /// decomposition), with each run of white space made one space and none at either end. So
  /// `Use SQLite`, `use  sqlite` and `Üse SQLite` compare equal; punctuation still counts
  /// (`Use SQLite.` is another title).
  static func titleKey(_ title: String) -> String {
    Tokenizer.fold(title).split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The live knowledge items other than `item` of `item`'s kind whose title compares equal to
  /// its title (``titleKey(_:)``): stored, and superseded by no item (a superseded item is
  /// history, so one the capture itself supersedes is not named).
  ///
  /// Found through the persisted search index, never by reading every item: the postings of the
  /// title's rarest term in titles of that kind give the candidates (every title that compares
  /// equal holds that term), and only those are read and compared. Where the index cannot be
  /// used (built by another tokenizer version, documents listed for re-indexing) or the title has
  /// no term (only symbols), the stored titles of that kind equal to it apart from ASCII case
  /// are read instead (`title = ? COLLATE NOCASE`, through the `knowledge_header` index).
  /// - Parameters:
  ///   - item: the item just stored in `tx` (its own index entry is written).
  ///   - tx: the capture's transaction.
  /// - Returns: at most ``sameTitleListed`` ids, newest change first, and the total.
  /// - Complexity: one look-up per distinct title term, then one range scan of the postings of
  ///   the rarest one (its document frequency), one row read per candidate in a title of that
  ///   kind.
  static func sameTitle(as item: KnowledgeItem, in tx: WorkspaceTransaction) throws -> SameTitleItems {
    let key = titleKey(item.title)
    let kindCode = Int64(DocumentKind.knowledge(item.kind).orderIndex)
    let terms = Array(Set(Tokenizer.terms(item.title).map(\.term))).sorted()
    let notSuperseded =
      "NOT EXISTS (SELECT 1 FROM knowledge_relationship r WHERE r.target_id = k.id AND r.kind = 'supersedes')"
    var candidates: [(id: UUID, title: String, updatedAt: String)?] = []
    // A row whose id another program made malformed is left out: a notice never fails a capture
    // (`dolphin doctor` names such a row).
    func row(_ r: SQLRow) -> (id: UUID, title: String, updatedAt: String)? {
      UUID(uuidString: r.text(0)).map { ($0, r.text(1), r.text(2)) }
    }
    let usable = try LexicalIndexStore.tokenizerStatus(tx).isUsable && LexicalIndexStore.staleCount(tx) == 0
    if usable, !terms.isEmpty {
      let placeholders = Array(repeating: "?", count: terms.count).joined(separator: ", ")
      let rarest = try tx.db.first(
        "SELECT term_id FROM lexical_term WHERE term IN (\(placeholders)) ORDER BY document_frequency, term_id LIMIT 1",
        terms.map { .text($0) }
      ) { $0.int64(0) }
      // A term of the title missing from the index would mean no title holds it: none to find.
      let known = try tx.db.integer("SELECT count(*) FROM lexical_term WHERE term IN (\(placeholders))", terms.map { .text($0) })
      if let rarest, known == terms.count {
        candidates = try tx.db.all(
          Self.sameTitleCandidatesSQL,
          [.integer(rarest), .integer(kindCode), .text(item.id.uuidString)], row)
      }
    } else {
      candidates = try tx.db.all(
        """
        SELECT k.id, k.title, k.updated_at FROM knowledge k
        WHERE k.kind = ? AND k.title = ? COLLATE NOCASE AND k.id <> ? AND \(notSuperseded)
        """,
        [.text(item.kind.rawValue), .text(item.title), .text(item.id.uuidString)], row)
    }
    let matches = candidates.compactMap { $0 }.filter { titleKey($0.title) == key }
      .sorted { $0.updatedAt != $1.updatedAt ? $0.updatedAt > $1.updatedAt : $0.id.uuidString < $1.id.uuidString }
    return SameTitleItems(ids: matches.prefix(sameTitleListed).map(\.id), total: matches.count)
  }

  /// The candidates of ``sameTitle(as:in:)`` from the index: the live items of a kind (`?2`, its
  /// ``DocumentKind/orderIndex``) other than one id (`?3`) whose title holds a term (`?1`).
  /// Reads the term's postings by primary key, each candidate's row by row id, and its
  /// `supersedes` relationships through `knowledge_relationship_target` (`CROSS JOIN` keeps
  /// that order whatever SQLite's estimates: never a scan of the items).
  static let sameTitleCandidatesSQL = """
    SELECT k.id, k.title, k.updated_at FROM lexical_posting p CROSS JOIN knowledge k ON k.rowid = p.doc
    WHERE p.term_id = ?1 AND p.kind = ?2 AND p.title_frequency > 0 AND p.doc > 0 AND k.id <> ?3
      AND NOT EXISTS (SELECT 1 FROM knowledge_relationship r WHERE r.target_id = k.id AND r.kind = 'supersedes')
    """
}
