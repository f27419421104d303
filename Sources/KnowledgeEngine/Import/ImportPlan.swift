import Foundation

/// What an import does with a record whose id is already in the workspace holding different
/// content. (Same id and same content is always a no-op.)
public enum ImportConflictPolicy: String, Sendable, Codable, CaseIterable {
  /// Import nothing and list the conflicting ids (the default).
  case refuse
  /// Keep the workspace's version; import everything else.
  case skip
  /// Overwrite the workspace's version with the file's.
  case replace
}

/// How an import will treat each record of an export, shown before anything is written.
///
/// Built by ``KnowledgeEngine/planImport(_:policy:source:)``; ``KnowledgeEngine/applyImport(_:policy:source:expecting:)``
/// recomputes it inside its transaction and refuses when the workspace changed since it was
/// shown.
public struct ImportPlan: Sendable, Equatable, Codable {
  /// One collection (`knowledge`, `memories`, `tasks`, …) of the document.
  public struct Collection: Sendable, Equatable, Codable {
    public var name: String
    /// Records whose id is not in the workspace (``olderThanKept`` of them are not imported).
    public var new: Int
    /// Records already present with identical content (no-ops).
    public var same: Int
    /// Records whose id is present with different content.
    public var conflicting: Int
    /// For digests, messages, receipts and checkpoints, of which a workspace keeps the newest
    /// (``KeptCollection``): this workspace's records the import removes because the newest kept,
    /// across the workspace's records and the file's, are newer (by date; at equal dates the
    /// file's, stored after, count as newer). For digests this counts the place of the digest
    /// the import stores at the end (``storesDigest``).
    public var pruned: Int
    /// For the same collections: the file's new records that are not imported because they are
    /// older than the newest the workspace keeps (review 19-b, F1: the workspace's own newest
    /// records were pruned to make room for them); 0 for the others.
    public var olderThanKept: Int = 0

    /// A collection's counts; see each property.
    public init(name: String, new: Int, same: Int, conflicting: Int, pruned: Int, olderThanKept: Int = 0) {
      self.name = name
      self.new = new
      self.same = same
      self.conflicting = conflicting
      self.pruned = pruned
      self.olderThanKept = olderThanKept
    }
  }

  /// A record whose id is in the workspace with different content.
  public struct Conflict: Sendable, Equatable, Codable {
    public var collection: String
    /// The record's id (`settings` and `activeHandoffID` are singletons and have none).
    public var id: UUID?
    /// The top-level fields that differ, e.g. `["content", "updatedAt"]`.
    public var differingFields: [String]
    /// For the settings, each that differs, from this workspace's value to the file's (what
    /// `replace` would change); nil for a record.
    public var settingChanges: [SettingChange]?

    /// Makes a conflict.
    /// - Parameters:
    ///   - collection: `knowledge`, `tasks`, …, or the singleton `settings` or `activeHandoffID`.
    ///   - id: the record's id; the file's active handoff for `activeHandoffID`; nil for `settings`.
    ///   - differingFields: the top-level fields that differ.
    ///   - settingChanges: for `settings`, the values that differ (this workspace's → the file's).
    public init(collection: String, id: UUID?, differingFields: [String], settingChanges: [SettingChange]? = nil) {
      self.collection = collection
      self.id = id
      self.differingFields = differingFields
      self.settingChanges = settingChanges
    }

    /// Whether this is a record's conflict, not one of the singletons `settings` and
    /// `activeHandoffID`, which have no id of their own.
    public var isRecord: Bool { collection != "settings" && collection != "activeHandoffID" }

    /// What differs, for a listing: `content and title differ`; for the settings, each with
    /// both values (`knowledgeItemLimit 10000 → 20000`, this workspace's → the file's).
    public var details: String {
      if let settingChanges, !settingChanges.isEmpty { return settingChanges.map(\.description).joined(separator: ", ") }
      return differenceDescription
    }

    /// The differing fields as a clause: `title differs`, `title and content differ`,
    /// `title, content and tags differ`; empty when none are named.
    public var differenceDescription: String {
      switch differingFields.count {
      case 0: return ""
      case 1: return "\(differingFields[0]) differs"
      default:
        return differingFields.dropLast().joined(separator: ", ") + " and \(differingFields[differingFields.count - 1]) differ"
      }
    }
  }

  /// A knowledge item, memory, task or handoff the import adds, named for the plan.
  public struct NewRecord: Sendable, Equatable, Codable {
    /// `knowledge`, `memories`, `tasks` or `handoffs`.
    public var collection: String
    public var id: UUID
    /// A knowledge item's or task's title, a handoff's focus, a memory's first line (as its
    /// mirror's title: at most 80 characters), as the import stores it.
    public var title: String

    /// Makes a named new record.
    /// - Parameters:
    ///   - collection: `knowledge`, `memories`, `tasks` or `handoffs`.
    ///   - id: the record's id.
    ///   - title: its title, focus or first line.
    public init(collection: String, id: UUID, title: String) {
      self.collection = collection
      self.id = id
      self.title = title
    }
  }

  /// The knowledge items, memories, tasks and handoffs an import adds to a workspace that
  /// already holds records (``newRecords``): how many, and the first of them by name.
  public struct NewRecords: Sendable, Equatable, Codable {
    /// How many there are in all.
    public var count: Int
    /// The first ``ImportPlan/newRecordsListed`` of them, in the order knowledge, memories,
    /// tasks, handoffs, each in document order; fewer than ``count`` when the bound cut it.
    public var records: [NewRecord]

    /// Makes a list of new records.
    /// - Parameters:
    ///   - count: how many there are in all.
    ///   - records: the first of them.
    public init(count: Int, records: [NewRecord]) {
      self.count = count
      self.records = records
    }
  }

  /// The most new records ``newRecords`` names.
  public static let newRecordsListed = 100

  /// How messages name the document: the path as the user gave it, or `stdin`.
  public var source: String
  public var policy: ImportConflictPolicy
  /// True when the workspace held no record before: the import is then a lossless restore.
  public var intoEmptyWorkspace: Bool
  /// Per collection, in document order.
  public var collections: [Collection]
  /// `new` (never set in this workspace: the file's are adopted; ``settingChanges`` lists what
  /// changes), `same` or `conflicting` (set here and different, or — under
  /// ``ImportConflictPolicy/skip`` into a workspace that holds records — never set and different:
  /// `skip` keeps the settings the workspace shows, defaults included).
  public var settings: String
  /// For ``settings`` `new`, each setting the import changes, from the value this workspace shows
  /// (its default) to the file's, in the order of ``Settings``'s fields; nil otherwise (a
  /// conflict lists its changes in ``conflicts``).
  public var settingChanges: [SettingChange]? = nil
  /// `none` (the document names no active handoff: this workspace's marker, if any, is left
  /// unchanged), `new`, `same` or `conflicting`.
  public var activeHandoff: String
  /// Quarantined records: new ones are added; identical ones are not duplicated.
  public var quarantineNew: Int
  public var quarantineSame: Int
  /// How many records of the file's `unreadable` section (records its export could not decode,
  /// ``WorkspaceExport/unreadable``) are kept aside in the quarantine rather than imported;
  /// counted in ``quarantineNew`` or ``quarantineSame`` too. 0 when the file has none.
  public var unreadableKeptAside: Int = 0
  /// Every conflict, in document order.
  public var conflicts: [Conflict]
  /// Imported records whose text looks like a credential: they are imported all the same (an
  /// import never drops data) and flagged by `dolphin status` and `dolphin doctor`.
  public var credentials: CredentialFlagReport
  /// Whether one digest will be stored at the end (a merge that adds or replaces records; a
  /// restore into an empty workspace keeps the exported digests exactly). False under
  /// ``ImportConflictPolicy/refuse`` when anything conflicts: then nothing is imported.
  public var storesDigest: Bool
  /// How many next steps of the handoffs the import writes show nothing (empty, whitespace, or
  /// only invisible characters, which capture never stores but earlier imports could) and are
  /// dropped from them; 0 when none is, and under ``ImportConflictPolicy/refuse`` when anything
  /// conflicts (nothing is imported).
  public var droppedNextSteps: Int
  /// How many repeated entries the reference lists of the records the import writes held, each
  /// kept once at its first place as capture keeps it: an id listed again in a task's
  /// `knowledgeIDs` or a handoff's `knowledgeIDs` or `taskIDs`, and a knowledge item's
  /// relationship listed again (same kind, same target). No dolphin command stores a repeat;
  /// earlier imports did. 0 when there are none, and under ``ImportConflictPolicy/refuse`` when
  /// anything conflicts (nothing is imported). A restore that drops some is not called lossless.
  public var droppedRepeatedIDs: Int = 0
  /// When the workspace already holds records (not ``intoEmptyWorkspace``): the knowledge
  /// items, memories, tasks and handoffs of the file that it does not hold, which the import
  /// adds — among them any record deleted here since the file was exported, which comes back,
  /// since a deletion leaves no trace to tell it from a record never held (review 19-c,
  /// finding 9). Nil into an empty workspace (a restore adds everything), and when there are
  /// none.
  public var newRecords: NewRecords? = nil

  /// Whether any record conflicts.
  public var hasConflicts: Bool { !conflicts.isEmpty }

  /// Records the import will write under ``policy`` (a new record older than the newest kept,
  /// ``Collection/olderThanKept``, is not written).
  public var recordsToWrite: Int {
    collections.reduce(0) { $0 + $1.new - $1.olderThanKept + (policy == .replace ? $1.conflicting : 0) } + quarantineNew
      + (settings == "new" || (settings == "conflicting" && policy == .replace) ? 1 : 0)
  }
}

/// What an import did.
public struct ImportReport: Sendable, Equatable, Codable {
  public var plan: ImportPlan
  /// Records written per collection (new, plus replaced under `replace`).
  public var written: [String: Int]
  /// Conflicting records left as they were (under `skip`). The settings and the active-handoff
  /// marker, which are no records, are not counted: see ``keptSettings`` and
  /// ``keptActiveHandoff``.
  public var skipped: Int
  /// The digest stored at the end, if any.
  public var digestID: UUID?
  /// The settings the import changed by adopting the file's (``ImportPlan/settings`` `new`, or
  /// `conflicting` under `replace`), in the order of ``Settings``'s fields; empty when it kept
  /// the workspace's. They count as no record in ``written``.
  public var settingsChanged: [SettingChange] = []
  /// Whether this workspace's settings were kept although the file's differ (under `skip`).
  public var keptSettings: Bool = false
  /// Whether this workspace's active handoff was kept although the file marks another one
  /// active (under `skip`).
  public var keptActiveHandoff: Bool = false
}
