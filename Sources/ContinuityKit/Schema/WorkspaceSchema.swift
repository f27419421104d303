/// The database schema as named, append-only migration steps.
///
/// Each step runs in its own transaction and is recorded in `schema_migration`; once shipped, a
/// step is never edited. `PRAGMA user_version` holds the data-model version
/// (``SchemaVersion/current``). A database with a newer `user_version`, or with a recorded step
/// this build does not know, is newer than this build and is opened read-only.
package enum WorkspaceSchema {
  /// One named migration step: SQL, then, for a step that rewrites data, Swift code run on
  /// the same connection inside the step's transaction.
  package struct Step: Sendable {
    package let name: String
    package let sql: String
    package let apply: (@Sendable (SQLiteConnection) throws(WorkspaceError) -> Void)?
    /// Whether reading needs the step applied. False for a step whose absence every read path
    /// tolerates (it only brings stored data to a newer form, or adds what only writes use): a
    /// workspace that cannot be written is then still read, as it is, until a writable open
    /// applies the step.
    package let isNeededForReading: Bool

    package init(
      name: String, sql: String, isNeededForReading: Bool = true,
      apply: (@Sendable (SQLiteConnection) throws(WorkspaceError) -> Void)? = nil
    ) {
      self.name = name
      self.sql = sql
      self.isNeededForReading = isNeededForReading
      self.apply = apply
    }
  }

  /// The steps in order. Append only.
  package static let steps: [Step] = [
    Step(name: "0001-schema-v5-records", sql: recordsV5),
    Step(name: "0002-lexical-index", sql: lexicalIndex),
    // Tag rows are keyed (tag, row id); deleting or rewriting one item's tags by row id must
    // not scan every tag row of the workspace.
    Step(name: "0003-knowledge-tag-rowid-index", sql: "CREATE INDEX knowledge_tag_rowid ON knowledge_tag(knowledge_rowid);"),
    // The digest and the insights read every item's id, kind, title, priority, dates and tags
    // but not its content, which sits between those columns in the row: a covering index lets
    // that scan skip the content pages (about 5x less to read at 10,000 items). It keeps the
    // (kind, updated_at) prefix of the index it replaces.
    Step(name: "0004-knowledge-header-covering-index", sql: knowledgeHeaderIndex),
    // `status` and `doctor` look for memory mirrors whose memory is gone; without an index
    // that read every item (about 0.2 s at 100,000). Only mirrors carry a memory id, so a
    // partial index stays as small as the mirrors are few.
    Step(
      name: "0005-knowledge-memory-mirror-index",
      sql: "CREATE INDEX knowledge_memory_mirror ON knowledge(memory_id) WHERE memory_id IS NOT NULL;"),
    // Tags stored before every write path normalized them (an older import) are brought to
    // today's form, so a tag filter finds them; see TagNormalizationStep.
    Step(
      name: TagNormalizationStep.name, sql: TagNormalizationStep.sql,
      // Reads take stored tags as they are, and treat a missing `lexical_stale` as empty.
      isNeededForReading: false,
      apply: { conn throws(WorkspaceError) in try TagNormalizationStep.apply(conn) }),
    // Workspaces that ran 0006 before tags that show nothing were dropped still hold them, and
    // earlier imports stored handoff next steps that show nothing; see StoredTextCleanupStep.
    Step(
      name: StoredTextCleanupStep.name, sql: StoredTextCleanupStep.sql,
      // Reads take stored tags and next steps as they are (doctor reports blank next steps).
      isNeededForReading: false,
      apply: { conn throws(WorkspaceError) in try StoredTextCleanupStep.apply(conn) }),
    // Retention keeps the newest digests, messages, receipts and checkpoints by date
    // (``KeptCollection``): once a collection is at its bound, every insert finds the oldest by
    // that date. Without an index that sorted the whole table (8–12 ms per receipt at 10,000);
    // an index on the date column (SQLite appends the rowid to each entry, so it also orders
    // `date, rowid`) reads the oldest directly. Reads only gain speed from it.
    Step(name: "0008-activity-date-indexes", sql: activityDateIndexes, isNeededForReading: false),
    // Tasks record when they last changed, backfilled with completedAt ?? createdAt; see
    // TaskUpdatedAtStep.
    Step(
      name: TaskUpdatedAtStep.name, sql: TaskUpdatedAtStep.sql,
      // Reads take a task without the column as dated by completedAt ?? createdAt.
      isNeededForReading: false,
      apply: { conn throws(WorkspaceError) in try TaskUpdatedAtStep.apply(conn) }),
  ]

  /// The steps that rewrite stored tags (and so list documents for the search index to index
  /// again), as messages name them: `0006-… or 0007-…`.
  package static let tagRewritingStepNames = "\(TagNormalizationStep.name) or \(StoredTextCleanupStep.name)"

  static let activityDateIndexes = """
    CREATE INDEX IF NOT EXISTS digest_created ON digest(created_at);
    CREATE INDEX IF NOT EXISTS message_created ON message(created_at);
    CREATE INDEX IF NOT EXISTS receipt_started ON receipt(started_at);
    CREATE INDEX IF NOT EXISTS checkpoint_created ON checkpoint(created_at);
    """

  static let knowledgeHeaderIndex = """
    DROP INDEX knowledge_kind;
    CREATE INDEX knowledge_header ON knowledge(kind, updated_at, id, title, priority, created_at, tags);
    """

  static let recordsV5 = """
    CREATE TABLE meta (
      key TEXT PRIMARY KEY NOT NULL,
      value TEXT NOT NULL
    );
    CREATE TABLE knowledge (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      title TEXT NOT NULL,
      content TEXT NOT NULL,
      source TEXT NOT NULL,
      tags TEXT NOT NULL,
      priority TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      revision INTEGER NOT NULL,
      memory_id TEXT
    );
    CREATE INDEX knowledge_kind ON knowledge(kind, updated_at);
    CREATE INDEX knowledge_updated ON knowledge(updated_at);
    CREATE TABLE knowledge_tag (
      tag TEXT NOT NULL,
      knowledge_rowid INTEGER NOT NULL,
      PRIMARY KEY (tag, knowledge_rowid)
    ) WITHOUT ROWID;
    CREATE TABLE knowledge_relationship (
      source_id TEXT NOT NULL,
      ordinal INTEGER NOT NULL,
      kind TEXT NOT NULL,
      target_id TEXT NOT NULL,
      PRIMARY KEY (source_id, ordinal)
    ) WITHOUT ROWID;
    CREATE INDEX knowledge_relationship_target ON knowledge_relationship(target_id);
    CREATE TABLE memory (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      text TEXT NOT NULL,
      tags TEXT NOT NULL,
      created_at TEXT NOT NULL,
      knowledge_id TEXT
    );
    CREATE TABLE task (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      title TEXT NOT NULL,
      notes TEXT NOT NULL,
      status TEXT NOT NULL,
      priority TEXT NOT NULL,
      created_at TEXT NOT NULL,
      completed_at TEXT,
      knowledge_ids TEXT NOT NULL
    );
    CREATE TABLE handoff (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      focus TEXT NOT NULL,
      summary TEXT NOT NULL,
      next_steps TEXT NOT NULL,
      knowledge_ids TEXT NOT NULL,
      task_ids TEXT NOT NULL,
      recent_excerpts TEXT NOT NULL,
      created_at TEXT NOT NULL,
      restored_at TEXT
    );
    CREATE TABLE digest (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      trigger TEXT NOT NULL,
      sections TEXT NOT NULL,
      algorithm TEXT NOT NULL,
      algorithm_version TEXT NOT NULL
    );
    CREATE TABLE digest_evidence (
      evidence_id TEXT NOT NULL,
      digest_id TEXT NOT NULL,
      PRIMARY KEY (evidence_id, digest_id)
    ) WITHOUT ROWID;
    CREATE TABLE conversation (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      title TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE TABLE message (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      conversation_id TEXT NOT NULL,
      role TEXT NOT NULL,
      text TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX message_conversation ON message(conversation_id, rowid);
    CREATE TABLE receipt (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      call_id TEXT NOT NULL,
      tool TEXT NOT NULL,
      risk TEXT NOT NULL,
      arguments TEXT NOT NULL,
      outcome TEXT NOT NULL,
      changed_ids TEXT NOT NULL,
      started_at TEXT NOT NULL,
      finished_at TEXT NOT NULL,
      approval TEXT,
      message TEXT NOT NULL
    );
    CREATE TABLE checkpoint (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      run_id TEXT NOT NULL,
      step INTEGER NOT NULL,
      state TEXT NOT NULL,
      note TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE TABLE quarantine (
      rowid INTEGER PRIMARY KEY,
      source_file TEXT NOT NULL,
      collection TEXT NOT NULL,
      record_index INTEGER NOT NULL,
      reason TEXT NOT NULL,
      raw TEXT NOT NULL,
      quarantined_at TEXT NOT NULL
    );
    CREATE TABLE legacy_import (
      sha256 TEXT PRIMARY KEY NOT NULL,
      file_name TEXT NOT NULL,
      backup_path TEXT NOT NULL,
      source_version INTEGER NOT NULL,
      imported_at TEXT NOT NULL
    );
    """

  /// The persisted inverted index for `hybrid-lexical-v1` (KnowledgeEngine's
  /// `HybridLexicalRanker`), written in the same transaction as the records it indexes.
  ///
  /// A document key (`doc`) is the knowledge row id, or the negated memory row id for a legacy
  /// memory. A posting carries its document's kind and field lengths so a term's postings are
  /// read with one range scan; `lexical_document.terms` lists the document's term ids (8-byte
  /// little-endian integers) so removal needs no extra index.
  static let lexicalIndex = """
    CREATE TABLE lexical_stats (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      document_count INTEGER NOT NULL,
      title_length INTEGER NOT NULL,
      tags_length INTEGER NOT NULL,
      content_length INTEGER NOT NULL
    );
    INSERT INTO lexical_stats(id, document_count, title_length, tags_length, content_length) VALUES (1, 0, 0, 0, 0);
    CREATE TABLE lexical_document (
      doc INTEGER PRIMARY KEY,
      kind INTEGER NOT NULL,
      title_length INTEGER NOT NULL,
      tags_length INTEGER NOT NULL,
      content_length INTEGER NOT NULL,
      terms BLOB NOT NULL
    );
    CREATE TABLE lexical_term (
      term_id INTEGER PRIMARY KEY,
      term TEXT NOT NULL UNIQUE,
      document_frequency INTEGER NOT NULL
    );
    CREATE TABLE lexical_posting (
      term_id INTEGER NOT NULL,
      doc INTEGER NOT NULL,
      kind INTEGER NOT NULL,
      title_length INTEGER NOT NULL,
      tags_length INTEGER NOT NULL,
      content_length INTEGER NOT NULL,
      title_frequency INTEGER NOT NULL,
      tags_frequency INTEGER NOT NULL,
      content_frequency INTEGER NOT NULL,
      positions BLOB NOT NULL,
      PRIMARY KEY (term_id, doc)
    ) WITHOUT ROWID;
    CREATE TABLE lexical_trigram (
      trigram TEXT NOT NULL,
      term_id INTEGER NOT NULL,
      PRIMARY KEY (trigram, term_id)
    ) WITHOUT ROWID;
    """
}
