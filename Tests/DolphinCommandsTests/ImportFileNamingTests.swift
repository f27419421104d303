import Foundation
import Testing
import TestSupport

/// Every error of `dolphin import` and `dolphin migrate` names the file the same way: the path
/// as the user gave it (`exports/x.json`, relative to where the command ran), or `stdin`.
@Suite("Import errors name the file as given", .serialized)
struct ImportFileNamingTests {
  static let id = "3F2504E0-4F89-11D3-9A0C-0305E82C3302"

  /// A file `import` or `migrate` refuses, and what its message says after the name.
  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var command: String
    /// The file's bytes; nil makes a directory of that name, and no entry a missing file.
    var contents: Data??
    var status: Int32
    /// The expected message with `{file}` for the name as given.
    var message: String
  }

  static func text(_ s: String) -> Data?? { .some(.some(Data(s.utf8))) }

  static let cases: [Case] = [
    // Regression (s9/h2): these two, checked while planning, named the file by its base name
    // (`x.json: …`) while the other errors named the path.
    Case(
      testDescription: "import, a record over a bound", command: "import",
      contents: text(WorkspaceCreationTests.exportDocument(title: String(repeating: "t", count: 301))), status: 4,
      message: "{file}: workspace.knowledge[0] (id \(id)): title is 301 characters; the limit is 300 characters. Nothing was imported"),
    Case(
      testDescription: "import, a conflict", command: "import",
      contents: text(WorkspaceCreationTests.exportDocument(title: "Changed")), status: 4,
      message: "{file}: 1 record(s) have the same id as a record in this workspace, with different content: knowledge \(id) (title differs)"),
    Case(
      testDescription: "import, not valid JSON", command: "import", contents: text("{"), status: 4,
      message: "{file}: not valid JSON at line 1, column 2 (byte 1)"),
    Case(
      testDescription: "import, empty", command: "import", contents: text(""), status: 4,
      message: "{file} is empty; expected a dolphin export"),
    Case(
      testDescription: "import, not an object", command: "import", contents: text("[]"), status: 4,
      message: "{file}: expected a JSON object (a dolphin export), got an array. Nothing was imported"),
    // These named it in quotes after other words (`import document from 'x' is not text`).
    Case(
      testDescription: "import, a NUL byte", command: "import", contents: .some(.some(Data([0x7B, 0x00]))), status: 4,
      message: "{file} is not text: it holds a NUL byte (at byte 1). Nothing was imported"),
    Case(
      testDescription: "import, a directory", command: "import", contents: .some(nil), status: 4,
      message: "{file} is a directory, not a file; name the export file. Nothing was imported"),
    Case(
      testDescription: "import, missing", command: "import", contents: nil, status: 3,
      message: "{file}: no such file or directory. Nothing was imported"),
    // Regression (second review): this one did not say that nothing was imported.
    Case(
      testDescription: "import, not an export", command: "import", contents: text(#"{"not": "export"}"#), status: 4,
      message: "{file} is not a dolphin export: it has no \"format\": \"dolphin-export\" field. Import reads files written by `dolphin export --format json`. Nothing was imported"),
    // Review 18-c (C12): a legacy file given to import was not pointed to `migrate`.
    Case(
      testDescription: "import, a legacy workspace file", command: "import",
      contents: text(#"{"schemaVersion": 4, "conversations": [], "memories": []}"#), status: 4,
      message: "{file} is not a dolphin export: it has no \"format\": \"dolphin-export\" field; it looks like a legacy "
        + "workspace file (schemaVersion, conversations, memories, settings), which `dolphin migrate` imports. "
        + "Import reads files written by `dolphin export --format json`. Nothing was imported"),
    // An encoding error is not a cut-off file: the advice says what to do about the encoding.
    Case(
      testDescription: "migrate, a Latin-1 byte in a string", command: "migrate",
      contents: .some(.some(Data(#"{"memories": [{"text": "caf"#.utf8) + [0xE9] + Data(#""}]}"#.utf8))), status: 4,
      message: "{file} is not valid JSON: at line 1, column 24 (byte 23), the string starting here is not valid UTF-8. "
        + "Nothing was imported and the file was not changed. Legacy workspace files are UTF-8: if it was saved in "
        + "another encoding (Latin-1, UTF-16), save it as UTF-8 and migrate that copy."),
    // `migrate` named it by its base name when decoding, by its absolute path otherwise.
    Case(
      testDescription: "migrate, not valid JSON", command: "migrate", contents: text("{"), status: 4,
      message: "{file} is not valid JSON: at line 1, column 2 (byte 1)"),
    Case(
      testDescription: "migrate, a newer version", command: "migrate", contents: text(#"{"schemaVersion": 9}"#), status: 4,
      message: "{file} declares schemaVersion 9"),
    Case(
      testDescription: "migrate, a NUL byte", command: "migrate", contents: .some(.some(Data([0x7B, 0x00]))), status: 4,
      message: "{file} is not text: it holds a NUL byte (at byte 1). Nothing was imported"),
    Case(
      testDescription: "migrate, a directory", command: "migrate", contents: .some(nil), status: 4,
      message: "{file} is a directory, not a file; name the workspace JSON file. Nothing was imported"),
    Case(
      testDescription: "migrate, missing", command: "migrate", contents: nil, status: 3,
      message: "{file}: no such file or directory. Nothing was imported"),
  ]

  @Test("a relative path is named as given, in text and in --json", arguments: cases)
  func relativePath(_ c: Case) throws {
    let dir = TemporaryDirectory("import-naming")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    // The conflict needs the record in the workspace first.
    let seed = dir.appending("seed.json")
    try Data(WorkspaceCreationTests.exportDocument(title: "Original").utf8).write(to: seed)
    #expect(try runDolphin(["import", seed.path, "--workspace", ws]).status == 0)
    try FileManager.default.createDirectory(at: dir.appending("exports"), withIntermediateDirectories: false)
    let given = "exports/x.json"
    switch c.contents {
    case .some(.some(let data)): try data.write(to: dir.appending(given))
    case .some(nil): try FileManager.default.createDirectory(at: dir.appending(given), withIntermediateDirectories: false)
    case nil: break
    }
    let expected = c.message.replacingOccurrences(of: "{file}", with: given)
    let r = try runDolphin([c.command, given, "--workspace", ws], currentDirectory: dir.url)
    #expect(r.status == c.status, "\(r.stderr)")
    let line = try #require(r.stderr.split(separator: "\n").last.map(String.init))
    #expect(line.hasPrefix("dolphin: error: "), "\(r.stderr)")
    #expect(line.contains(expected), "\(line)")
    #expect(!line.contains(dir.path), "the absolute path: \(line)")
    let json = try runDolphin([c.command, given, "--json", "--workspace", ws], currentDirectory: dir.url)
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let message = try #require((document?["error"] as? [String: Any])?["message"] as? String, "\(json.stdout)")
    #expect(message.contains(expected), "\(message)")
  }

  @Test("a document on standard input is `stdin` in every message", arguments: [
    ("{", "stdin: not valid JSON"), ("[]", "stdin: expected a JSON object"), ("{\u{0}", "stdin is not text: it holds a NUL byte"),
    (WorkspaceCreationTests.exportDocument(title: String(repeating: "t", count: 301)), "stdin: workspace.knowledge[0]"),
  ])
  func standardInput(_ input: String, _ expected: String) throws {
    let dir = TemporaryDirectory("import-naming-stdin")
    defer { dir.remove() }
    let r = try runDolphin(["import", "-", "--workspace", dir.appending("ws").path], stdin: input)
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr.hasPrefix("dolphin: error: \(expected)"), "\(r.stderr)")
  }

  @Test("the plan names the file as given too")
  func planNamesThePath() throws {
    let dir = TemporaryDirectory("import-naming-plan")
    defer { dir.remove() }
    try FileManager.default.createDirectory(at: dir.appending("exports"), withIntermediateDirectories: false)
    try Data(WorkspaceCreationTests.exportDocument(title: "Original").utf8).write(to: dir.appending("exports/x.json"))
    let r = try runDolphin(["import", "exports/x.json", "--dry-run", "--workspace", "ws"], currentDirectory: dir.url)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("Import plan for exports/x.json (on conflict: refuse"), "\(r.stdout)")
  }
}
