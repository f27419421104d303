/// What ``KnowledgeEngine/prepareSearchIndex()`` found, and did, about the tokenizer version of
/// the persisted search index.
public enum SearchIndexPreparation: Sendable, Equatable {
  /// The index holds terms of this build's ``Tokenizer/version``, or no document at all;
  /// nothing was done.
  case current
  /// The index was built with tokenizer version `from` (older, or unreadable); this call
  /// rebuilt it from the stored records, indexing `documents` knowledge items and memories.
  /// Only index rows were written; no record changed.
  case rebuilt(from: StoredTokenizerVersion, documents: Int)
  /// The index was current, but `documents` of its documents (knowledge items and memories)
  /// were listed as not matching their records — a schema upgrade rewrote stored tags (see
  /// `TagNormalizationStep` and `StoredTextCleanupStep`), or a dolphin from before a tokenizer
  /// upgrade wrote records into this build's index and left their terms to it; this call
  /// indexed them again. Only index rows were written; no record changed.
  case reindexed(documents: Int)
  /// The index was built by a newer dolphin, with tokenizer version `builtWith`; it was left as
  /// it is. Searches of this build index every record in memory instead.
  case newer(builtWith: Int)
  /// The index was built with tokenizer version `builtWith` (older, or unreadable) and was not
  /// rebuilt, because of `obstacle`. Searches still see every record: each indexes them in
  /// memory, which costs time in proportion to the workspace.
  case stale(builtWith: StoredTokenizerVersion, obstacle: Obstacle)

  /// Why a stale index was not rebuilt.
  public enum Obstacle: Sendable, Equatable {
    /// The workspace cannot be written here, for `reason`; a process that can write it
    /// rebuilds the index at its first search.
    case readOnly(reason: String)
    /// Another connection held the write lock for longer than this one waited
    /// (`waitedMilliseconds`): another process was in a long write, such as a rebuild of its
    /// own or a large import. The next search tries again.
    case busy(waitedMilliseconds: Int)
    /// The rebuild failed for `reason` (e.g. a full disk); nothing was changed.
    case failed(reason: String)
  }

  /// One line for the user (no final period), for a notice on standard error; nil for
  /// ``current``.
  public var notice: String? {
    let this = Tokenizer.version
    switch self {
    case .current:
      return nil
    case .rebuilt(let from, let documents):
      let was: String
      switch from {
      case .version(let n): was = "it was built with version \(n)"
      case .unreadable: was = "its recorded tokenizer version was unreadable: \(from)"
      }
      return
        "rebuilt the search index for tokenizer version \(this) (\(was)): re-indexed \(documents) "
        + "document(s) (knowledge items and memories); no record changed"
    case .reindexed(let documents):
      return
        "updated the search index after the workspace upgrade (schema step \(WorkspaceSchema.tagRewritingStepNames) "
        + "rewrote stored tags, or a dolphin from before the upgrade wrote records without their search terms): "
        + "re-indexed \(documents) document(s) (knowledge items and memories); no record changed"
    case .newer(let built):
      return
        "the search index was built by a newer dolphin (tokenizer version \(built); this build's is "
        + "\(this)); it is left as it is, and searches here index every record in memory instead, "
        + "which is slower. The newer dolphin searches it directly"
    case .stale(let built, let obstacle):
      let index: String
      switch built {
      case .version(let n):
        index = "the search index was built with tokenizer version \(n), not this build's \(this)"
      case .unreadable:
        index = "the search index records \(built) of its tokenizer, not this build's \(this)"
      }
      switch obstacle {
      case .readOnly(let reason):
        return
          "\(index), and cannot be rebuilt here (\(reason)); searches index every record in memory "
          + "instead, which is slower. A search run where the workspace can be written rebuilds it "
          + "(or `\(command: "dolphin reindex")`)"
      case .busy(let waited):
        let seconds = waited % 1000 == 0 ? "\(waited / 1000) s" : "\(waited) ms"
        return
          "\(index); it was not rebuilt now because another process (another dolphin, e.g. "
          + "rebuilding it or importing) held a long write for more than \(seconds). This search "
          + "indexed every record in memory instead (slower); the next search tries again"
      case .failed(let reason):
        return
          "\(index), and rebuilding it failed (\(reason)); nothing was changed. This search indexed "
          + "every record in memory instead (slower); the next search tries again (or `\(command: "dolphin reindex")`)"
      }
    }
  }
}
