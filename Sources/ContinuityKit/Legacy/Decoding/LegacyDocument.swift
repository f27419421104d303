/// The top level of a legacy workspace file: its members and its version header.
///
/// Structural problems here fail the whole file (``LegacyImportError/notAWorkspace(file:detail:)``):
/// a file whose collections cannot be found is not imported at all rather than imported as
/// an empty workspace.
struct LegacyDocument {
  /// The file name used in messages.
  let file: String
  /// The `schemaVersion` header: 1 when the key is missing.
  let version: Int
  /// Top-level names in file order, for deterministic messages.
  private let names: [String]
  private let members: [String: LegacyJSONValue]

  /// Reads the version header of `root`.
  ///
  /// - Throws: ``LegacyImportError/notAWorkspace(file:detail:)`` when `root` is not an object
  ///   or repeats a key; ``LegacyImportError/invalidVersion(file:found:)`` or
  ///   ``LegacyImportError/unsupportedVersion(file:found:)`` for a bad `schemaVersion`.
  init(root: LegacyJSONValue, file: String) throws(LegacyImportError) {
    guard case .object(let list) = root else {
      throw .notAWorkspace(
        file: file,
        detail: "the top level is \(root.kindDescription); a workspace file is one JSON object "
          + "with keys such as \"conversations\" and \"memories\"")
    }
    var members: [String: LegacyJSONValue] = [:]
    for member in list {
      guard members[member.name] == nil else {
        throw .notAWorkspace(
          file: file,
          detail: "the top-level key \"\(member.name)\" appears twice, so it is unclear which "
            + "one holds the data; remove the stale copy")
      }
      members[member.name] = member.value
    }
    self.file = file
    self.names = list.map(\.name)
    self.members = members
    self.version = try Self.version(members["schemaVersion"], file: file)
  }

  /// The header rule: no key → 1; a whole number or a string of ASCII digits → that number,
  /// which must be in ``LegacyWorkspaceImporter/supportedVersions``.
  private static func version(_ raw: LegacyJSONValue?, file: String) throws(LegacyImportError)
    -> Int
  {
    let digits: String
    switch raw {
    case nil: return 1
    case .number(let text)?: digits = text
    case .string(let text)? where !text.isEmpty && text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }):
      digits = text
    case let other?: throw .invalidVersion(file: file, found: other.canonicalText)
    }
    guard let version = Int(digits) else {
      throw .invalidVersion(file: file, found: raw?.canonicalText ?? digits)
    }
    guard LegacyWorkspaceImporter.supportedVersions.contains(version) else {
      throw .unsupportedVersion(file: file, found: version)
    }
    return version
  }

  /// Fails when the file has a top-level key that version `version` does not define.
  func requireOnlyKeys(_ keys: [String]) throws(LegacyImportError) {
    for name in names where !keys.contains(name) {
      throw .notAWorkspace(
        file: file,
        detail: "the top-level key \"\(name)\" is not part of a version-\(version) workspace, "
          + "which has only " + keys.map { "\"\($0)\"" }.joined(separator: ", ")
          + "; if the file is a later version, its schemaVersion is wrong")
    }
  }

  /// The elements of the required top-level array `key`.
  func array(_ key: String) throws(LegacyImportError) -> [LegacyJSONValue] {
    switch members[key] {
    case .array(let elements)?: return elements
    case nil:
      throw .notAWorkspace(
        file: file,
        detail: "a version-\(version) workspace has a \"\(key)\" array and this file has none; "
          + "if the file is an earlier version, its schemaVersion is wrong")
    case let other?:
      throw .notAWorkspace(
        file: file,
        detail: "\"\(key)\" is \(other.kindDescription) (\(other.excerpt())); "
          + "a version-\(version) workspace stores it as an array")
    }
  }

  /// The value of an optional top-level key; nil when missing or `null`.
  func optionalValue(_ key: String) -> LegacyJSONValue? {
    guard let value = members[key], value != .null else { return nil }
    return value
  }
}
