import Foundation

/// What ``LegacyWorkspaceImporter/decode(_:fileName:)`` read from a legacy JSON workspace.
///
/// The store puts `workspace` and `quarantined` into the database in one transaction; the
/// caller shows `integrityProblems` to the user.
public struct LegacyImportResult: Sendable, Equatable {
  /// The `schemaVersion` of the file, 1…4 (1 for a file without the key).
  public var sourceVersion: Int
  /// Every valid record, converted to schema v5. Memories are not mirrored into knowledge
  /// (their `knowledgeID` is nil) and no digest is made: the importer creates no new records.
  public var workspace: AssistantWorkspace
  /// Records that failed validation, kept verbatim, in the order they were checked.
  public var quarantined: [QuarantinedRecord]
  /// One line per problem found, naming the collection, index and id: every quarantined
  /// record, duplicate ids, collections over their bound, and dangling references.
  public var integrityProblems: [String]

  /// Creates a result.
  public init(
    sourceVersion: Int, workspace: AssistantWorkspace, quarantined: [QuarantinedRecord],
    integrityProblems: [String]
  ) {
    self.sourceVersion = sourceVersion
    self.workspace = workspace
    self.quarantined = quarantined
    self.integrityProblems = integrityProblems
  }

  /// True when every record was imported and no problem was found.
  public var isClean: Bool { quarantined.isEmpty && integrityProblems.isEmpty }
}

/// One legacy record that failed validation, kept aside verbatim instead of being dropped.
public struct QuarantinedRecord: Codable, Sendable, Equatable {
  /// Where the record sat in the file: `memories`, `tasks`, `receipts`, `checkpoints`,
  /// `conversations`, `settings`, or `conversations[2].messages` for a message.
  public var collection: String
  /// 0-based position in that array; nil for `settings`, which is a single object.
  public var index: Int?
  /// Why the record was refused, e.g. `field 'role' has unknown value "wizard"; expected
  /// one of user, assistant, system, tool`.
  public var reason: String
  /// The original element as canonical JSON: no whitespace, object keys sorted by their
  /// UTF-8 bytes, numbers exactly as written, strings escaped minimally.
  public var rawJSON: String

  /// Creates a quarantined record.
  public init(collection: String, index: Int?, reason: String, rawJSON: String) {
    self.collection = collection
    self.index = index
    self.reason = reason
    self.rawJSON = rawJSON
  }
}
