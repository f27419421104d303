import Foundation

/// The members of an export document that format version 1 does not define.
///
/// `Docs/ExportFormat.md` has readers of version 1 ignore fields they do not know, so that a
/// later build may add one that an older reader can safely drop without a new format version.
/// Ignored silently, a mistyped field (`"priorty": "high"`) or one added by another tool would
/// pass unnoticed and lose its value: ``unknownFields(in:)`` names each, so that `dolphin
/// import` can warn while still importing what the format defines.
extension WorkspaceExport {
  /// Where a value sits in a format-version-1 document, and so which members it may hold.
  indirect enum FieldShape: Sendable {
    /// A string, number, boolean, null or id: nothing inside it to check.
    case value
    /// An object with these members (each with its own shape).
    case object([String: FieldShape])
    /// An array whose every element has this shape.
    case array(FieldShape)

    /// An object whose named members all are ``value``s.
    static func record(_ names: String...) -> FieldShape {
      .object(Dictionary(uniqueKeysWithValues: names.map { ($0, FieldShape.value) }))
    }
  }

  /// The shape of a format-version-1 document: every member `Docs/ExportFormat.md` lists, as
  /// ``AssistantWorkspace`` and its records encode them. `WorkspaceExportUnknownFieldsTests`
  /// checks it against a document whose every optional field is set, so that a field added to a
  /// record without being added here fails a test instead of drawing warnings.
  static let documentShape: FieldShape = {
    let line = FieldShape.record("text", "evidenceIDs", "evidenceTotal", "evidenceTruncated")
    var sectionMembers = Dictionary(
      uniqueKeysWithValues: DigestOmissions.sectionNames.map { ($0, FieldShape.array(line)) })
    sectionMembers["omitted"] = .object(Dictionary(uniqueKeysWithValues: DigestOmissions.sectionNames.map { ($0, .value) }))
    let sections = FieldShape.object(sectionMembers)
    let knowledge = FieldShape.object([
      "id": .value, "kind": .value, "title": .value, "content": .value, "source": .value, "tags": .value,
      "relationships": .array(.record("kind", "targetID")), "priority": .value, "createdAt": .value,
      "updatedAt": .value, "revision": .value, "memoryID": .value,
    ])
    let digest = FieldShape.object([
      "id": .value, "createdAt": .value, "trigger": .record("kind", "count"), "sections": sections,
      "algorithm": .value, "algorithmVersion": .value,
    ])
    let workspace = FieldShape.object([
      "schemaVersion": .value,
      "knowledge": .array(knowledge),
      "memories": .array(.record("id", "text", "tags", "createdAt", "knowledgeID")),
      "tasks": .array(
        .record("id", "title", "notes", "status", "priority", "createdAt", "completedAt", "updatedAt", "knowledgeIDs")),
      "handoffs": .array(
        .record(
          "id", "focus", "summary", "nextSteps", "knowledgeIDs", "taskIDs", "recentExcerpts", "createdAt",
          "restoredAt")),
      "digests": .array(digest),
      "conversations": .array(.record("id", "title", "createdAt", "updatedAt")),
      "messages": .array(.record("id", "conversationID", "role", "text", "createdAt")),
      "settings": .record("assistantName", "responseStyle", "calendarAccessEnabled", "knowledgeItemLimit"),
      "receipts": .array(
        .record(
          "id", "callID", "tool", "risk", "arguments", "outcome", "changedIDs", "startedAt", "finishedAt",
          "approval", "message")),
      "checkpoints": .array(.record("id", "runID", "step", "state", "note", "createdAt")),
      "activeHandoffID": .value,
    ])
    return .object([
      "format": .value, "formatVersion": .value, "schemaVersion": .value, "exportedAt": .value,
      "generator": .value, "workspace": workspace,
      "quarantine": .array(.record("sourceFile", "collection", "recordIndex", "reason", "raw", "quarantinedAt")),
      // `columns` holds the stored row's own column names: not checked.
      "unreadable": .array(.record("table", "collection", "id", "reason", "columns")),
    ])
  }()

  /// The JSON paths of the members of `data` that format version 1 does not define, in document
  /// order: `workspace.knowledge[0].evil`, `workspace.settings.theme`. A key that is not a plain
  /// name is written in brackets and quotes, escaped to one line (`workspace["my key"]`), and cut
  /// after 60 characters. Only the unknown member is named, not what it holds; members whose
  /// value has the wrong type are left to the decoder, which refuses them.
  ///
  /// - Parameter data: an export document, UTF-8 JSON (one that ``decode(_:fileName:)`` accepts).
  /// - Returns: the paths; empty when every member is known or `data` is not JSON.
  /// - Complexity: O(n) in the size of `data` (one parse, one walk).
  public static func unknownFields(in data: Data) -> [String] {
    guard let root = try? JSONParser(options: .init(maximumDepth: 1_000, maximumBytes: data.count)).parse(data)
    else { return [] }
    var found: [String] = []
    func walk(_ value: JSONValue, _ shape: FieldShape, _ path: String) {
      switch (shape, value) {
      case (.object(let fields), .object(let members)):
        for key in members.keys {
          let memberPath = path + member(key, first: path.isEmpty)
          guard let field = fields[key] else {
            found.append(memberPath)
            continue
          }
          if let inner = members[key] { walk(inner, field, memberPath) }
        }
      case (.array(let element), .array(let items)):
        for (i, item) in items.enumerated() { walk(item, element, path + "[\(i)]") }
      default:
        return
      }
    }
    walk(root, documentShape, "")
    return found
  }

  /// `key` as one step of a JSON path: `.key` (`key` first), or `["my key"]` for a key that is
  /// not letters, digits, `_` and `-`, escaped to one line (``TerminalText/quoted(_:)``) and cut
  /// after 60 characters.
  private static func member(_ key: String, first: Bool) -> String {
    let plain = !key.isEmpty
      && key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    if plain { return first ? key : "." + key }
    let shown = key.count > 60 ? String(key.prefix(60)) + "…" : key
    return "[" + TerminalText.quoted(shown) + "]"
  }
}
