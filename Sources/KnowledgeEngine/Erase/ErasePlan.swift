import Foundation

/// What `dolphin erase --kind` removes.
public enum EraseScope: String, Sendable, Codable, CaseIterable {
  /// Every knowledge item (legacy-memory mirrors included) with its tags, relationships and
  /// index rows; references to them in tasks, handoffs and memories; digests citing them.
  case knowledge
  /// Every legacy memory and its knowledge mirror (with the mirror's cascade); digests citing
  /// them.
  case memories
  /// Every task; its references in handoffs; digests citing tasks.
  case tasks
  /// Every handoff and the active-handoff marker; digests citing handoffs.
  case handoffs
  /// Every stored digest.
  case digests
  /// Every conversation and chat message, and the chat excerpts copied into handoffs.
  case conversations
  /// Every activity receipt and run checkpoint.
  case activity
  /// Everything: all records, settings, the search index, the quarantine, legacy-import
  /// records, the legacy backup files and a legacy `workspace.json` in the workspace directory.
  case all
}

/// What an erase will remove, shown to the user before it is applied.
///
/// Built by ``KnowledgeEngine/planErase(_:)`` or ``KnowledgeEngine/planClearChatAndActivity()``;
/// `KnowledgeEngine.apply(_:)` recomputes it inside its transaction and refuses when the
/// workspace changed since it was shown.
public struct ErasePlan: Sendable, Equatable, Codable {
  /// One change, e.g. `deleteKnowledge` × 12.
  public struct Step: Sendable, Equatable, Codable {
    /// `deleteKnowledge`, `deleteMemories`, `deleteMirrors`, `deleteTasks`, `deleteHandoffs`,
    /// `deleteDigests`, `deleteConversations`, `deleteMessages`, `deleteReceipts`,
    /// `deleteCheckpoints`, `deleteQuarantine`, `deleteLegacyImports`, `unlinkTasks`,
    /// `unlinkHandoffs`, `removeRelationships`, `clearMemoryLinks`, `clearActiveHandoff`,
    /// `scrubExcerpts`, `resetSettings`, `clearSearchIndex`; `clearEraseMarker` (finishing an
    /// interrupted erase: ``KnowledgeEngine/planFinishInterruptedErase()``).
    public var action: String
    /// How many records it touches.
    public var count: Int
    /// A human-readable line, e.g. `delete 12 knowledge items with their tags, …`.
    public var detail: String
  }

  /// `knowledge` … `all` (an ``EraseScope``), `chatAndActivity`, or `finishInterrupted`
  /// (removing only the files an interrupted `all` left: ``KnowledgeEngine/planFinishInterruptedErase()``).
  public var target: String
  /// Changes in a stable order; steps that touch nothing are left out.
  public var steps: [Step]
  /// Files removed (zeroed, then unlinked): legacy backups and a legacy `workspace.json`.
  public var files: [String]
  /// Legacy files a partial erase keeps on purpose (legacy backups, a legacy `workspace.json`):
  /// copies of what was migrated, which may hold records this erase removes; `all` removes
  /// them (then they are in ``files``). Empty for `all` and for clearing chat and activity.
  public var keptFiles: [String] = []
  /// Kept records that may hold copies of erased text — chat messages (an assistant's answer
  /// quotes what it found), activity receipts (a call's arguments) and the chat excerpts copied
  /// into handoffs — as `(collection, count)` pairs, e.g. `("messages", 4)`; empty when this
  /// erase removes them too or there are none. Said before the erase is confirmed (review, s17:
  /// erasing knowledge left its title and content in chat messages, and the plan said nothing).
  public var keptCopies: [KeptCopies] = []

  /// Kept records of one collection that may quote erased text.
  public struct KeptCopies: Sendable, Equatable, Codable {
    /// `messages`, `receipts`, `handoffExcerpts` (handoffs holding chat excerpts) or
    /// `conversations` (their titles).
    public var collection: String
    public var count: Int
  }

  /// For `all` while an earlier erase of everything was interrupted before it removed its files
  /// (``KnowledgeEngine/interruptedEraseFiles()``): how many records this erase removes, every
  /// one of them stored since that erase (which removed all records before it was stopped) —
  /// said before the erase is confirmed, since finishing the interrupted erase alone
  /// (``KnowledgeEngine/planFinishInterruptedErase()``) would keep them (review 29-b, 3). nil when
  /// no erase was interrupted, or for another target.
  public var storedSinceInterruptedErase: Int? = nil

  /// True when there is nothing to remove.
  public var isEmpty: Bool { steps.isEmpty && files.isEmpty }
}

/// How the erase was checked on disk afterwards.
public struct EraseVerification: Sendable, Equatable, Codable {
  /// Files read under the workspace directory (database, `-wal`, `-shm`, anything else).
  public var filesScanned: [String]
  public var bytesScanned: Int
  /// How many erased record ids were looked for.
  public var idsChecked: Int
  /// Erased ids still found in some file's bytes without being referenced by a live record
  /// (at most 20). Empty when the erase is verified.
  public var leakedIDs: [UUID]
  /// The files the leaked ids were found in.
  public var filesWithLeaks: [String]
  /// Size of the `-wal` file after compaction, in bytes.
  public var walBytes: Int64
  /// Legacy files kept on purpose by a partial erase (legacy backups, a legacy
  /// `workspace.json`) that still hold some erased records; `erase --kind all` removes them.
  public var retainedCopies: [String]
  /// SQLite free-list pages after compaction.
  public var freePages: Int
  /// Caveats, e.g. another process keeping the WAL open.
  public var notes: [String]
  /// How many erased ids are still on disk because a record that was kept mentions them: an
  /// activity receipt's changed ids, a chat message, a chat excerpt copied into a handoff, or
  /// any text that quotes the id. These are not leaks of erased records but mentions in other
  /// records; erasing those records (or `all`) removes them.
  public var mentionedByKeptRecords: Int = 0
  /// Files and directories under the workspace directory that could not be read (a directory
  /// that cannot be listed, a file that cannot be opened or read, past the depth bound): what
  /// is in them was not checked, so the erase is not verified (review, s17: a workspace
  /// directory that could not be listed read as "no files to scan", exit 0).
  public var unscanned: [String] = []

  /// True when no erased id survives outside live records in any file under the workspace
  /// directory, and every file was read — or nothing with an id was erased, so there was
  /// nothing to look for.
  public var passed: Bool { leakedIDs.isEmpty && (unscanned.isEmpty || idsChecked == 0) }
}

/// What an erase did.
public struct EraseReport: Sendable, Equatable, Codable {
  public var plan: ErasePlan
  /// Records removed, by action (`deleteKnowledge` …). Every removed record with an id is one
  /// of the ``EraseVerification/idsChecked`` ids; quarantined records and legacy-import
  /// records (`all` only) have none.
  public var removed: [String: Int]
  /// Records kept but changed, by plan action, with the plan's counts: `unlinkTasks`,
  /// `unlinkHandoffs` (tasks and handoffs whose references to erased records were removed),
  /// `clearMemoryLinks`, `removeRelationships` (relationships of kept items that pointed at
  /// erased ones), `scrubExcerpts` (handoffs whose copied chat excerpts were removed),
  /// `clearActiveHandoff`, `resetSettings` and `clearSearchIndex`. These records stay, so they
  /// are not counted in ``removed``; together the two hold every step of ``plan``.
  public var changed: [String: Int]
  /// Files removed.
  public var removedFiles: [String]
  public var verification: EraseVerification
}
