/// What ``KnowledgeEngine/prepareSearchIndex()`` found, and did, about the tokenizer version of
/// the persisted search index.
public enum SearchIndexPreparation: Sendable, Equatable {
  /// The index holds terms of this build's ``Tokenizer/version``, or no document at all;
  /// nothing was done.
  case current
  /// The index was built with tokenizer version `from`; this call rebuilt it from the stored
  /// records in one write transaction, indexing `documents` knowledge items and memories. Only
  /// index rows were written; no record changed.
  case rebuilt(from: Int, documents: Int)
  /// The index was built with tokenizer version `builtWith` and could not be rebuilt, for
  /// `reason` (the workspace is read-only, or the write failed). Searches still see every
  /// record: each indexes them in memory, which costs time in proportion to the workspace,
  /// until a process that can write the workspace rebuilds the index.
  case stale(builtWith: Int, reason: String)

  /// One line for the user (no final period), for a notice on standard error; nil for
  /// ``current``.
  public var notice: String? {
    switch self {
    case .current:
      return nil
    case .rebuilt(let from, let documents):
      return
        "rebuilt the search index for tokenizer version \(Tokenizer.version) (it was built with "
        + "version \(from)): re-indexed \(documents) document(s) (knowledge items and memories); "
        + "no record changed"
    case .stale(let builtWith, let reason):
      return
        "the search index was built with tokenizer version \(builtWith), not this build's "
        + "\(Tokenizer.version), and cannot be rebuilt here (\(reason)); searches index every "
        + "record in memory instead, which is slower. Any dolphin command run where the "
        + "workspace can be written rebuilds it (or `dolphin reindex`)"
    }
  }
}
