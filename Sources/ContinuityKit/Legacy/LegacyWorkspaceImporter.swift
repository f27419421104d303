import Foundation

/// Reads the app's earlier JSON workspace files (schema v1–v4) and converts them to
/// schema v5, without touching any database.
///
/// The pipeline: parse the whole file as JSON (a syntax error fails the file with its line
/// and column) → read the `schemaVersion` header → decode the frozen ``WorkspaceV1``…``WorkspaceV4``
/// type of that version, collection by collection and element by element, quarantining each
/// record that fails validation → migrate v1 → v2 → v3 → v4 → ``AssistantWorkspace``.
/// The formats are documented in `Docs/LegacyFormats.md`.
///
/// The importer is pure: it reads `Data`, never the file system, and creates no ids or
/// timestamps, so the same bytes always give the same result. The caller stores the
/// workspace and the quarantined records in one transaction.
public enum LegacyWorkspaceImporter {
  /// The legacy JSON versions this build reads. Version 5 is the SQLite database.
  public static let supportedVersions: ClosedRange<Int> = SchemaVersion.oldestLegacy...4

  /// Decodes a legacy JSON workspace and converts it to schema v5.
  ///
  /// Records that fail validation — a bad UUID or date, an unknown enum value, a missing
  /// required field, an unknown field, text over a ``Limits`` bound, a duplicate id, or one
  /// record too many for a collection's bound — are not dropped: each is returned verbatim in
  /// ``LegacyImportResult/quarantined`` and named in ``LegacyImportResult/integrityProblems``.
  /// The first record with a given id wins; within a bound, the first records in file order.
  ///
  /// - Parameters:
  ///   - data: The file's bytes (UTF-8 JSON; a leading byte order mark is allowed).
  ///   - fileName: The name used in error messages, e.g. `workspace.json`.
  /// - Returns: The converted workspace, the quarantine and the problem report.
  /// - Throws: ``LegacyImportError/notJSON(file:line:column:byteOffset:detail:)`` when the
  ///   bytes are not one valid JSON value (e.g. a file cut off mid-record);
  ///   ``LegacyImportError/invalidVersion(file:found:)`` or
  ///   ``LegacyImportError/unsupportedVersion(file:found:)`` for a `schemaVersion` outside
  ///   ``supportedVersions``; ``LegacyImportError/notAWorkspace(file:detail:)`` when the JSON
  ///   is not shaped like a workspace of its version. Nothing is imported in any of these cases.
  /// - Complexity: O(n) in the size of the file.
  public static func decode(_ data: Data, fileName: String) throws(LegacyImportError)
    -> LegacyImportResult
  {
    let bytes = [UInt8](data)
    let root: LegacyJSONValue
    do {
      root = try LegacyJSONParser.parse(bytes)
    } catch {
      let (line, column) = LegacyJSONParser.location(of: error.byteOffset, in: bytes)
      throw .notJSON(
        file: fileName, line: line, column: column, byteOffset: error.byteOffset,
        detail: error.message)
    }
    let document = try LegacyDocument(root: root, file: fileName)
    var context = LegacyDecodingContext()
    let v4: WorkspaceV4
    switch document.version {
    case 1:
      let v1 = try WorkspaceV1(decoding: document, context: &context)
      v4 = WorkspaceV4(migrating: WorkspaceV3(migrating: WorkspaceV2(migrating: v1)))
    case 2:
      let v2 = try WorkspaceV2(decoding: document, context: &context)
      v4 = WorkspaceV4(migrating: WorkspaceV3(migrating: v2))
    case 3:
      v4 = WorkspaceV4(migrating: try WorkspaceV3(decoding: document, context: &context))
    default:
      v4 = try WorkspaceV4(decoding: document, context: &context)
    }
    let workspace = AssistantWorkspace(legacy: v4)
    for problem in referenceProblems(in: workspace) { context.report(problem) }
    return LegacyImportResult(
      sourceVersion: document.version, workspace: workspace, quarantined: context.quarantined,
      integrityProblems: context.integrityProblems)
  }

  /// Dangling references in a converted workspace: messages whose conversation is missing.
  ///
  /// In the v1–v4 formats a message is embedded in its conversation, and a quarantined
  /// conversation takes its messages with it, so a decoded file cannot produce one; the check
  /// runs anyway so the store is never handed a dangling id without a report.
  static func referenceProblems(in workspace: AssistantWorkspace) -> [String] {
    let conversationIDs = Set(workspace.conversations.map(\.id))
    return workspace.messages.enumerated().compactMap { index, message in
      conversationIDs.contains(message.conversationID)
        ? nil
        : "messages[\(index)] (id \(message.id.uuidString)) refers to conversation "
          + "\(message.conversationID.uuidString), which is not in the workspace"
    }
  }
}
