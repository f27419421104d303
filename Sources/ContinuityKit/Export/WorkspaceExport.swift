import Foundation

/// The lossless, versioned JSON export of a workspace (`dolphin export`), documented in
/// `Docs/ExportFormat.md`.
///
/// ```json
/// {"format": "dolphin-export", "formatVersion": 1, "schemaVersion": 5,
///  "exportedAt": "2026-11-29T18:19:32.123Z", "generator": "dolphin 0.1.0",
///  "workspace": { …AssistantWorkspace… }, "quarantine": [ … ]}
/// ```
///
/// Format version 1 carries schema-v5 records exactly as ``AssistantWorkspace`` encodes them
/// (sorted keys, ISO-8601 UTC dates with milliseconds). When the shape changes, the version goes
/// up and version 1 becomes a frozen type read through a migration step, never edited.
public struct WorkspaceExport: Codable, Sendable, Equatable {
  /// The value of ``format``.
  public static let formatName = "dolphin-export"
  /// The version this build writes and the newest it reads.
  public static let currentFormatVersion = 1

  /// Always ``formatName``.
  public var format: String
  /// ``currentFormatVersion`` when written by this build.
  public var formatVersion: Int
  /// The workspace schema of the records (5).
  public var schemaVersion: Int
  /// When the export was made (UTC).
  public var exportedAt: Date
  /// What wrote the file, e.g. `dolphin 0.1.0`. Informational.
  public var generator: String
  /// Every record the user owns, the settings and the active handoff.
  public var workspace: AssistantWorkspace
  /// Records that imports kept aside verbatim because they failed validation.
  public var quarantine: [WorkspaceTransaction.QuarantineEntry]
  /// Stored records the export could not decode, carried as stored (``UnreadableRecord``); nil
  /// (and absent from the JSON) when every record was read, so a sound workspace's export is
  /// unchanged. ``unreadableRecords`` reads it as a list.
  public var unreadable: [UnreadableRecord]?

  /// A document of this build's format.
  /// - Parameter unreadable: records that could not be decoded (``unreadable``; empty gives nil).
  public init(
    exportedAt: Date, generator: String, workspace: AssistantWorkspace,
    quarantine: [WorkspaceTransaction.QuarantineEntry], unreadable: [UnreadableRecord] = []
  ) {
    self.format = Self.formatName
    self.formatVersion = Self.currentFormatVersion
    self.schemaVersion = SchemaVersion.current
    self.exportedAt = exportedAt
    self.generator = generator
    self.workspace = workspace
    self.quarantine = quarantine
    self.unreadable = unreadable.isEmpty ? nil : unreadable
  }

  /// The document as pretty-printed JSON with sorted keys (deterministic for equal values).
  public func jsonData() throws -> Data {
    try StableJSON.encoder(pretty: true).encode(self)
  }

  /// Reads an export: checks the header first (format name, then version), then decodes the
  /// records.
  /// - Parameters:
  ///   - data: the file's bytes (UTF-8 JSON).
  ///   - fileName: for messages.
  /// - Throws: ``ExportDocumentError`` naming the file and, for a malformed record, its path in
  ///   the document (e.g. `workspace.knowledge[3].kind`), the value given and what is allowed;
  ///   ``ExportDocumentError/empty(file:)`` for a file with nothing but whitespace;
  ///   ``ExportDocumentError/notUTF8(file:byteOffset:byte:)`` for bytes that are not UTF-8;
  ///   `malformed`
  ///   for a header string holding a NUL (U+0000), which is refused rather than dropped (a NUL
  ///   in a record is refused by the import only on a record it writes), for an
  ///   object holding the same key twice (which value counts would be a guess), and for a lone
  ///   UTF-16 surrogate escape (`"\ud800"`, which no Unicode text holds), located by line and
  ///   column.
  public static func decode(_ data: Data, fileName: String) throws(ExportDocumentError) -> WorkspaceExport {
    struct Header: Decodable {
      var format: String?
      var formatVersion: Int?
      var schemaVersion: Int?
    }
    if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { throw .empty(file: fileName) }
    // Before any JSON decoding: Foundation's error for such a byte names neither it nor where.
    if let offset = UTF8Validation.firstInvalidByteOffset(in: data) {
      throw .notUTF8(file: fileName, byteOffset: offset, byte: data[data.startIndex + offset])
    }
    if let refusal = loneSurrogateRefusal(in: data) { throw .malformed(file: fileName, path: "", message: refusal) }
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: data)
    } catch let error as DecodingError {
      if case .typeMismatch(_, let context) = error, context.codingPath.isEmpty {
        let given = value(at: [], in: data).map(describe) ?? "something else"
        throw .malformed(file: fileName, path: "", message: "expected a JSON object (a dolphin export), got \(given)")
      }
      if case .valueNotFound(_, let context) = error, context.codingPath.isEmpty {
        throw .malformed(file: fileName, path: "", message: "expected a JSON object (a dolphin export), got null")
      }
      if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
        if let found = numberMismatch(Header.self, in: data, decoder: JSONDecoder()) {
          throw .malformed(file: fileName, path: found.path, message: found.message)
        }
        throw .malformed(file: fileName, path: "", message: invalidJSONMessage(data, context))
      }
      throw .malformed(file: fileName, path: codingPath(error), message: message(error, in: data))
    } catch {
      throw .malformed(file: fileName, path: "", message: "\(error)")
    }
    // A header key given twice (review 28-b, 8: `"formatVersion": 99, "formatVersion": 1` was called
    // a newer format, and upgrading would not help): which value counts is a guess, so that is
    // what a refused version says. Parsed only when the header is refused: an intact file pays
    // nothing. (Another program's JSON is no export whatever keys it repeats.)
    func refusingHeader(_ refusal: ExportDocumentError) -> ExportDocumentError {
      duplicateKeyRefusal(in: data).map { .malformed(file: fileName, path: "", message: $0) } ?? refusal
    }
    guard header.format == formatName else {
      throw .notAnExport(
        file: fileName,
        reason: header.format.map { "its format is '\($0)', not '\(formatName)'" }
          ?? (looksLikeLegacyWorkspace(data)
            // A legacy workspace file, which `migrate` reads (review 18-c, C12).
            ? "it has no \"format\": \"\(formatName)\" field; it looks like a legacy workspace file "
              + "(schemaVersion, conversations, memories, settings), which `dolphin migrate` imports"
            : "it has no \"format\": \"\(formatName)\" field"))
    }
    guard let version = header.formatVersion else {
      throw refusingHeader(.malformed(file: fileName, path: "formatVersion", message: "missing"))
    }
    guard version <= currentFormatVersion else {
      throw refusingHeader(.newerFormatVersion(file: fileName, found: version, supported: currentFormatVersion))
    }
    guard version >= 1 else {
      throw refusingHeader(
        .malformed(file: fileName, path: "formatVersion", message: "\(version) is not a format version (1 or later)"))
    }
    guard header.schemaVersion == SchemaVersion.current else {
      throw refusingHeader(
        .malformed(
          file: fileName, path: "schemaVersion",
          message:
            "is \(header.schemaVersion.map(String.init) ?? "missing"); format version 1 carries schema \(SchemaVersion.current)"))
    }
    let document: WorkspaceExport
    do {
      document = try StableJSON.decoder().decode(WorkspaceExport.self, from: data)
    } catch let error as DecodingError {
      if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
        let found = numberMismatch(WorkspaceExport.self, in: data, decoder: StableJSON.decoder())
      {
        throw .malformed(file: fileName, path: found.path, message: found.message)
      }
      throw .malformed(file: fileName, path: codingPath(error), message: message(error, in: data))
    } catch {
      throw .malformed(file: fileName, path: "", message: "\(error)")
    }
    if let refusal = strictRefusal(in: data) { throw .malformed(file: fileName, path: "", message: refusal) }
    guard document.workspace.schemaVersion == SchemaVersion.current else {
      throw .malformed(
        file: fileName, path: "workspace.schemaVersion",
        message: "is \(document.workspace.schemaVersion); expected \(SchemaVersion.current)")
    }
    return document
  }

  /// Whether `data` is a JSON object holding a key of a legacy workspace file
  /// (`schemaVersion`, `conversations`, `memories`, `settings`): what `dolphin migrate` reads.
  static func looksLikeLegacyWorkspace(_ data: Data) -> Bool {
    guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return false }
    return ["schemaVersion", "conversations", "memories", "settings"].contains { object[$0] != nil }
  }
}

/// Why an export file cannot be imported. Nothing is written when one is thrown.
public enum ExportDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file is empty (or holds only whitespace).
  case empty(file: String)
  /// The file is not UTF-8 text: `byte` at `byteOffset` (0-based) is the first that is not part
  /// of well-formed UTF-8 (a file saved in another encoding, or damaged).
  case notUTF8(file: String, byteOffset: Int, byte: UInt8)
  /// The file is JSON but not a dolphin export (wrong or missing `format`).
  case notAnExport(file: String, reason: String)
  /// The file was written by a newer dolphin (`formatVersion` greater than this build reads).
  case newerFormatVersion(file: String, found: Int, supported: Int)
  /// The JSON or one of its records is malformed; `path` locates it, e.g.
  /// `workspace.tasks[2].status`.
  case malformed(file: String, path: String, message: String)

  public var description: String {
    switch self {
    case .empty(let file):
      return "\(file) is empty; expected a dolphin export (JSON, as `dolphin export --format json` writes). Nothing was imported"
    case .notUTF8(let file, let offset, let byte):
      return
        "\(file) is not UTF-8 text: the byte 0x\(String(byte, radix: 16, uppercase: true)) at byte offset \(offset) "
        + "(counting from 0) is not valid UTF-8. An export is UTF-8 JSON, as `dolphin export --format json` writes it; "
        + "was the file saved in another encoding, or damaged? Nothing was imported"
    case .notAnExport(let file, let reason):
      return "\(file) is not a dolphin export: \(reason). Import reads files written by `dolphin export --format json`. Nothing was imported"
    case .newerFormatVersion(let file, let found, let supported):
      return
        "\(file) has export format version \(found), newer than this build reads (\(supported)); "
        + "upgrade dolphin to import it. Nothing was imported"
    case .malformed(let file, let path, let message):
      return "\(file): \(path.isEmpty ? "" : path + ": ")\(message). Nothing was imported"
    }
  }
}
