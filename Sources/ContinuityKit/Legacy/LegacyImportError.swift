/// Why a legacy JSON workspace file could not be imported at all.
///
/// Each case means *nothing* was imported: the importer never turns a file it cannot read
/// into an empty or partial workspace. (Individual bad records do not fail the file; they
/// are returned in ``LegacyImportResult/quarantined``.) The importer never writes, so the
/// file itself is unchanged.
public enum LegacyImportError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file is not valid JSON, for example because it was cut off mid-record.
  ///
  /// - `line`, `column`: 1-based; the column counts characters, not bytes. For a file that
  ///   ends early this is where the input ended.
  /// - `byteOffset`: 0-based UTF-8 offset of the same place (the file length when it ended early).
  /// - `detail`: what the parser found and expected there.
  case notJSON(file: String, line: Int, column: Int, byteOffset: Int, detail: String)

  /// `schemaVersion` is a whole number this build does not read as a legacy file: anything
  /// outside 1…4. Version 5 is the SQLite database schema, never a legacy JSON file.
  case unsupportedVersion(file: String, found: Int)

  /// `schemaVersion` is present but is neither a whole number nor a string of digits
  /// (e.g. `true`, `1.5`, `"v2"`); `found` is its JSON text.
  case invalidVersion(file: String, found: String)

  /// The file is JSON but not a workspace of its version: the top level is not an object,
  /// a key appears twice, a collection is missing or has the wrong type, or there is a
  /// top-level key the version does not define. `detail` names the key and the problem.
  case notAWorkspace(file: String, detail: String)

  /// A message that says what is wrong, with which value, and how to fix it.
  public var description: String {
    switch self {
    case .notJSON(let file, let line, let column, let byteOffset, let detail):
      // The advice fits the problem (review 18-c, C12: an encoding error was told the file may
      // be cut off).
      let advice =
        detail.hasPrefix("the input is empty")
        // Nothing to fix in 0 bytes (review 27-a, 11).
        ? "An empty file is what an interrupted save can leave; import an intact copy or backup instead."
        : detail.hasPrefix("the input ends")
        ? "If the file was cut off (an interrupted copy or a full disk), import an intact copy or backup instead."
        : detail.contains("not valid UTF-8")
          ? "Legacy workspace files are UTF-8: if it was saved in another encoding (Latin-1, UTF-16), "
            + "save it as UTF-8 and migrate that copy."
          : "Fix the JSON at that place in a copy of the file, or import an intact copy or backup instead."
      return
        "\(file) is not valid JSON: at line \(line), column \(column) (byte \(byteOffset)), "
        + "\(detail). Nothing was imported and the file was not changed. \(advice)"
    case .unsupportedVersion(let file, let found) where found == SchemaVersion.current:
      return
        "\(file) declares schemaVersion \(found), but this build reads legacy JSON workspaces "
        + "of versions \(LegacyWorkspaceImporter.supportedVersions.lowerBound)–"
        + "\(LegacyWorkspaceImporter.supportedVersions.upperBound) only. Schema v5 is the "
        + "SQLite database (workspace.sqlite), not a JSON file; to bring in a v5 export, use "
        + "the export import (`dolphin import` on the command line), not the legacy migration. "
        + "Nothing was imported."
    case .unsupportedVersion(let file, let found):
      let hint =
        found > SchemaVersion.current
        // No dolphin reads a legacy JSON file past version 4 (review 27-a, 11: "update this app").
        ? "It was written by a newer Dolphin than this build knows, so this build cannot import it."
        : "Versions below 1 never existed; check the file's schemaVersion."
      return
        "\(file) declares schemaVersion \(found), but this build reads legacy JSON workspaces "
        + "of versions \(LegacyWorkspaceImporter.supportedVersions.lowerBound)–"
        + "\(LegacyWorkspaceImporter.supportedVersions.upperBound) only. \(hint) "
        + "Nothing was imported."
    case .invalidVersion(let file, let found):
      return
        "\(file) has schemaVersion \(found), which is not a version number. Expected a whole "
        + "number from 1 to 4 (\"1\" as a string is accepted too), or no schemaVersion key "
        + "for a version-1 file. Nothing was imported."
    case .notAWorkspace(let file, let detail):
      return
        "\(file) is not a Dolphin legacy workspace: \(detail). Nothing was imported and the "
        + "file was not changed."
    }
  }
}
