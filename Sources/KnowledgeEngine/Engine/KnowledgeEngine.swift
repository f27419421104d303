import Foundation

/// Operations over a workspace: capture, lookup, deletion plans, memories, tasks, digests and
/// search. Every mutation is one store transaction, including its derived index rows and any
/// automatic digest.
public final class KnowledgeEngine: Sendable {
  /// The store every operation reads and writes.
  public let store: any WorkspaceStore
  /// Injected clock and id source.
  public let environment: Environment
  /// Told what ``prepareSearchIndex()`` found whenever the search index is not
  /// ``SearchIndexPreparation/current`` — it was rebuilt, or could not be and searches index in
  /// memory — so a host can say so (the `dolphin` CLI prints a notice on standard error). It is
  /// called by the operations that rank, each time they find the index unusable; a host that
  /// prints should print each notice once.
  public let searchIndexObserver: (@Sendable (SearchIndexPreparation) -> Void)?
  /// Told, before ``prepareSearchIndex()`` starts rebuilding a stale index, the tokenizer
  /// version the index was built with — so a host can say that a one-time rebuild is under way
  /// (seconds for tens of thousands of records) rather than stay silent until it ends. The
  /// outcome still goes to ``searchIndexObserver``.
  public let searchIndexRebuildStarting: (@Sendable (StoredTokenizerVersion) -> Void)?
  /// Posting lists of recent searches, valid while the database is unchanged.
  let postingCache = PostingCache()

  /// - Parameters:
  ///   - store: a file or in-memory store.
  ///   - environment: time and ids (`.live` by default; tests inject fixed ones).
  ///   - searchIndexObserver: see ``searchIndexObserver``.
  ///   - searchIndexRebuildStarting: see ``searchIndexRebuildStarting``.
  public init(
    store: any WorkspaceStore, environment: Environment = .live,
    searchIndexObserver: (@Sendable (SearchIndexPreparation) -> Void)? = nil,
    searchIndexRebuildStarting: (@Sendable (StoredTokenizerVersion) -> Void)? = nil
  ) {
    self.store = store
    self.environment = environment
    self.searchIndexObserver = searchIndexObserver
    self.searchIndexRebuildStarting = searchIndexRebuildStarting
  }
}

/// A knowledge item to capture, before validation and sanitizing.
public struct CaptureRequest: Sendable, Equatable {
  public var kind: KnowledgeKind
  public var title: String
  public var content: String
  public var tags: [String]
  public var relationships: [KnowledgeRelationship]
  public var priority: Priority
  public var source: KnowledgeSource
  /// Store text that looks like a credential (see ``CredentialDetector``) instead of refusing
  /// it. Only a person's explicit choice may set this — the CLI's `--allow-credentials` flag.
  /// Agent and MCP paths must never set it, whatever their arguments say: a model or a client
  /// cannot consent on the user's behalf.
  public var allowCredentials: Bool

  public init(
    kind: KnowledgeKind, title: String, content: String = "", tags: [String] = [],
    relationships: [KnowledgeRelationship] = [], priority: Priority = .normal,
    source: KnowledgeSource = .user, allowCredentials: Bool = false
  ) {
    self.kind = kind
    self.title = title
    self.content = content
    self.tags = tags
    self.relationships = relationships
    self.priority = priority
    self.source = source
    self.allowCredentials = allowCredentials
  }
}

/// What a capture stored.
public struct CaptureResult: Sendable, Equatable {
  /// The stored item, as sanitized and normalized.
  public var item: KnowledgeItem
  /// The digest stored automatically because the knowledge count reached a multiple of five.
  public var digest: Digest?
  /// The handoffs whose rule-built summary the capture rewrote, in listing order (newest
  /// first): those carrying an item it supersedes, which the summary now marks `(superseded)`.
  /// Empty when it rewrote none. They are records the capture changed, so an agent call's
  /// receipt names them in `changedIDs`.
  public var rebuiltHandoffIDs: [UUID] = []
  /// The live items of the same kind that already had this title, compared with case,
  /// diacritics and white space folded (``KnowledgeEngine/titleKey(_:)``): at most
  /// ``KnowledgeEngine/sameTitleListed`` ids, newest change first, and how many in all. Only
  /// ``KnowledgeEngine/capture(_:)`` looks; the capture is stored either way.
  public var sameTitle: SameTitleItems = .none
}
