import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

@Suite("dolphin export, import and erase", .serialized)
struct DataRightsCommandTests {
  func fileMode(_ path: String) -> mode_t {
    var st = stat()
    stat(path, &st)
    return st.st_mode & 0o777
  }

  /// A workspace with a few records of each kind the CLI can create.
  func seed(_ cli: CLI) throws {
    _ = try cli.json(["capture", "decision", "Use SQLite for the workspace", "--content", "WAL mode.", "--tags", "storage"])
    _ = try cli.json(["memory", "save", "Prefers tabs over spaces"])
    _ = try cli.record("task", ["task", "add", "Write the README", "--notes", "Cover export."])
  }

  @Test("export --output writes a 0600 file atomically and refuses to overwrite without --force")
  func exportToFile() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try seed(cli)
    let out = cli.dir.appending("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let path = out.appendingPathComponent("export.json").path
    let r = try cli.run(["export", "--output", path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Exported to \(path) (json, "))
    #expect(r.stdout.contains("2 knowledge, 1 memories, 1 tasks"))
    #expect(fileMode(path) == 0o600)
    #expect(regularFiles(under: out) == ["export.json"], "no temporary file is left")
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    let again = try cli.run(["export", "--output", path, "--format", "markdown"])
    #expect(again.status == 4)
    #expect(again.stderr.contains("\(path) already exists; nothing was written (pass --force to replace it)"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    let forced = try cli.run(["export", "--output", path, "--format", "markdown", "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    let md = try String(contentsOfFile: path, encoding: .utf8)
    #expect(md.hasPrefix("# Dolphin workspace export"))
    #expect(md.contains("### Decision: Use SQLite for the workspace"))
    #expect(fileMode(path) == 0o600)
    #expect(regularFiles(under: out) == ["export.json"])
    // A directory is named as one, with or without --force, instead of "already exists"
    // followed by a failed replacement.
    for force in [[], ["--force"]] {
      let onDirectory = try cli.run(["export", "--output", out.path] + force)
      #expect(onDirectory.status == 4)
      #expect(onDirectory.stderr.contains("\(out.path) is a directory; nothing was written (give --output a file path)"))
    }
    #expect(regularFiles(under: out) == ["export.json"])
  }

  @Test("export --output with a trailing slash names a directory and never writes the path without it")
  func exportOutputTrailingSlash() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try seed(cli)
    let missing = cli.dir.appending("missing").path
    let r = try cli.run(["export", "--output", missing + "/"])
    #expect(r.status == 3, "\(r.stderr)")
    #expect(r.stderr.contains("--output: the directory \(missing)/ does not exist; nothing was written"))
    #expect(!FileManager.default.fileExists(atPath: missing))

    let afile = cli.dir.appending("afile").path
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: afile))
    for force in [[], ["--force"]] {
      let onFile = try cli.run(["export", "--output", afile + "/"] + force)
      #expect(onFile.status == 4, "\(onFile.stderr)")
      #expect(onFile.stderr.contains("\(afile) is not a directory; nothing was written"))
      #expect(try String(contentsOfFile: afile, encoding: .utf8) == "keep me")
    }

    let dir = cli.dir.appending("out")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let onDirectory = try cli.run(["export", "--output", dir.path + "/", "--force"])
    #expect(onDirectory.status == 4)
    #expect(onDirectory.stderr.contains("is a directory; nothing was written (give --output a file path)"))
    #expect(regularFiles(under: dir).isEmpty)
    // Review 18-d: a link to a directory was called a directory.
    let dirLink = cli.dir.appending("outlink").path
    try FileManager.default.createSymbolicLink(atPath: dirLink, withDestinationPath: dir.path)
    let onLink = try cli.run(["export", "--output", dirLink, "--force"])
    #expect(onLink.status == 4)
    #expect(onLink.stderr.contains("\(dirLink) is a symbolic link to a directory; nothing was written"), "\(onLink.stderr)")
    #expect(regularFiles(under: dir).isEmpty)

    let empty = try cli.run(["export", "--output", ""])
    #expect(empty.status == 2)
    #expect(empty.stderr.contains("--output needs a file path"))
  }

  /// Sixth review (s15): `--output DIR/missing/..` spun forever (a URL's last component `..`
  /// is never removed); a relative path was standardized as text, so `link/..` went elsewhere
  /// than the kernel's; a legal name of 250 bytes failed (its temporary name was too long); a
  /// directory every user may write was accepted as the file's own directory, but refused when
  /// spelled `dir/.`.
  @Test("export --output: `missing/..` is not found at once, relative paths go where the kernel puts them, long names work, open directories are refused however spelled")
  func exportOutputPathSpelling() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try seed(cli)
    let base = cli.dir.path
    let endsUp = try cli.run(["export", "--output", base + "/nox/.."])
    #expect(endsUp.status == 4, "\(endsUp.stderr)")
    #expect(endsUp.stderr.contains("names a directory (it ends in `..`); nothing was written"), "\(endsUp.stderr)")
    let through = try cli.run(["export", "--output", base + "/nox/../z.json"])
    #expect(through.status == 3, "\(through.stderr)")
    #expect(
      through.stderr.contains("--output: the directory \(base)/nox/.. does not exist; nothing was written (create it first, with \(base)/nox on the way)"),
      "\(through.stderr)")
    #expect(!FileManager.default.fileExists(atPath: base + "/z.json"))

    // Relative: `nox/..` is not dropped as text, and `lnk/..` is the parent of where it leads.
    let relative = try runDolphin(["export", "--output", "nox/../z.json", "--workspace", cli.workspace], currentDirectory: cli.dir.url)
    #expect(relative.status == 3, "\(relative.stderr)")
    #expect(!FileManager.default.fileExists(atPath: base + "/z.json"))
    try FileManager.default.createDirectory(atPath: base + "/a/b", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: base + "/lnk", withDestinationPath: base + "/a/b")
    let viaLink = try runDolphin(["export", "--output", "lnk/../z.json", "--workspace", cli.workspace], currentDirectory: cli.dir.url)
    #expect(viaLink.status == 0, "\(viaLink.stderr)")
    #expect(FileManager.default.fileExists(atPath: base + "/a/z.json"), "where the kernel puts lnk/../z.json")
    #expect(!FileManager.default.fileExists(atPath: base + "/z.json"))

    // 245 bytes: legal, and its temporary file's name must stay under 255 bytes too.
    let long = String(repeating: "é", count: 120) + ".json"
    let longPath = base + "/a/" + long
    let longExport = try cli.run(["export", "--output", longPath])
    #expect(longExport.status == 0, "\(longExport.stderr)")
    #expect(fileMode(longPath) == 0o600)
    #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/a").sorted() == [long, "b", "z.json"].sorted())

    // A directory every user may write, without the sticky bit, as the file's own directory.
    let open = base + "/open"
    try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
    chmod(open, 0o777)
    for spelled in [open + "/e.json", open + "/./e.json", open + "//e.json"] {
      let r = try cli.run(["export", "--output", spelled])
      #expect(r.status == 4, "\(spelled): \(r.stderr)")
      #expect(r.stderr.contains("--output: \(open) (mode 777) may be written by every user and has no sticky bit"), "\(spelled): \(r.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: open).isEmpty)
    chmod(open, 0o1777)
    let sticky = try cli.run(["export", "--output", open + "/e.json"])
    #expect(sticky.status == 0, "\(sticky.stderr)")
  }

  @Test("export --output: a file as a directory and a dangling link are exit 4; - is stdout")
  func exportOutputPathMistakes() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try seed(cli)
    let afile = cli.dir.appending("afile").path
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: afile))
    for path in [afile + "/x.json", afile + "/sub/x.json"] {
      let r = try cli.run(["export", "--output", path])
      #expect(r.status == 4, "\(path): \(r.stderr)")
      #expect(r.stderr.contains("--output \(path): \(afile) is not a directory; nothing was written"), "\(r.stderr)")
    }
    #expect(try String(contentsOfFile: afile, encoding: .utf8) == "keep me")

    // A dangling link is a name that exists: kept with or without --force (review 18-c, C1:
    // --force replaces only a regular file).
    let link = cli.dir.appending("link.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: cli.dir.appending("nowhere").path)
    for force in [[], ["--force"]] {
      let refused = try cli.run(["export", "--output", link] + force)
      #expect(refused.status == 4, "\(refused.stderr)")
      #expect(refused.stderr.contains("--output \(link) is a symbolic link to nothing (a dangling link); nothing was written"))
      #expect(!refused.stderr.contains("pass --force"), "\(refused.stderr)")
      #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != nil, "the link is kept")
    }

    // `-` is stdout, as with no --output; no file named `-` is written where the process runs.
    let dash = try cli.run(["export", "--output", "-"])
    #expect(dash.status == 0, "\(dash.stderr)")
    let doc = try JSONSerialization.jsonObject(with: Data(dash.stdout.utf8)) as? [String: Any]
    #expect(doc?["workspace"] != nil, "\(dash.stdout.prefix(200))")
    #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"))
    let help = try cli.run(["export", "--help"])
    #expect(help.stdout.contains("- means stdout"))
  }

  @Test("export → import into a new workspace → export again gives the same workspace")
  func roundTrip() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try seed(cli)
    let first = try cli.run(["export"])
    #expect(first.status == 0)
    let file = cli.dir.appending("export.json")
    try Data(first.stdout.utf8).write(to: file)
    let other = cli.dir.appending("other").path
    let imported = try runDolphin(["import", file.path, "--workspace", other])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout.contains("Import plan for \(file.path) (on conflict: refuse; empty workspace: lossless restore)"))
    #expect(imported.stdout.contains("Imported 4 record(s) (2 knowledge, 1 memories, 1 tasks)."))
    let second = try runDolphin(["export", "--workspace", other])
    func workspace(_ text: String) throws -> Data {
      let obj = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
      return try JSONSerialization.data(withJSONObject: try #require(obj?["workspace"]), options: [.sortedKeys])
    }
    #expect(try workspace(first.stdout) == workspace(second.stdout))
  }

  @Test("import conflicts: refused with the ids (exit 4) unless --on-conflict says otherwise; --dry-run writes nothing")
  func importConflicts() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try seed(cli)
    let export = try cli.run(["export"])
    let item = try #require(
      ((try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])?["workspace"] as? [String: Any])?["knowledge"]
        as? [[String: Any]])
    let decision = try #require(item.first { $0["kind"] as? String == "decision" }?["id"] as? String)
    let changed = export.stdout.replacingOccurrences(of: "\"WAL mode.\"", with: "\"Changed elsewhere.\"")
    let file = cli.dir.appending("theirs.json")
    try Data(changed.utf8).write(to: file)

    let refused = try cli.run(["import", file.path])
    #expect(refused.status == 4)
    #expect(refused.stdout.contains("    - knowledge \(decision) (content differs)"))
    #expect(refused.stderr.contains("\(file.path): 1 record(s) have the same id as a record in this workspace, with different content: knowledge \(decision) (content differs)"))
    #expect(try cli.record("item", ["knowledge", "get", decision])["content"] as? String == "WAL mode.")

    let dry = try cli.run(["import", file.path, "--on-conflict", "replace", "--dry-run"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains("On conflict: replace — the file's versions overwrite these records."))
    #expect(dry.stdout.contains("Dry run: nothing was written."))
    #expect(try cli.record("item", ["knowledge", "get", decision])["content"] as? String == "WAL mode.")

    let skipped = try cli.run(["import", file.path, "--on-conflict", "skip"])
    #expect(skipped.status == 0, "\(skipped.stderr)")
    #expect(skipped.stdout.contains("kept this workspace's version of 1 conflicting record(s)"))
    #expect(try cli.record("item", ["knowledge", "get", decision])["content"] as? String == "WAL mode.")

    let replaced = try cli.run(["import", file.path, "--on-conflict", "replace", "--yes"])
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(try cli.record("item", ["knowledge", "get", decision])["content"] as? String == "Changed elsewhere.")

    let same = try cli.run(["import", file.path])
    #expect(same.status == 0)
    #expect(same.stdout.contains("Imported 0 record(s)."))
  }

  struct BadFile: CustomStringConvertible, Sendable {
    var name: String
    var text: String
    var stderr: String
    var description: String { name }
  }

  /// An otherwise valid export holding one knowledge item with `kind` and `id`.
  static func exportWithKnowledge(kind: String = "fact", id: String = "3F2504E0-4F89-11D3-9A0C-0305E82C3301") -> String {
    """
    {"format": "dolphin-export", "formatVersion": 1, "schemaVersion": 5, "exportedAt": "2026-11-29T18:19:32.123Z",
     "generator": "test", "quarantine": [],
     "workspace": {"schemaVersion": 5, "checkpoints": [], "conversations": [], "digests": [], "handoffs": [],
      "memories": [], "messages": [], "receipts": [], "tasks": [],
      "settings": {"assistantName": "Dolphin", "calendarAccessEnabled": false, "knowledgeItemLimit": 10000, "responseStyle": "balanced"},
      "knowledge": [{"content": "", "createdAt": "2026-11-29T18:19:32.123Z", "id": "\(id)", "kind": "\(kind)",
        "priority": "normal", "relationships": [], "revision": 1, "source": "user", "tags": [], "title": "t",
        "updatedAt": "2026-11-29T18:19:32.123Z"}]}}
    """
  }

  static let badFiles: [BadFile] = [
    BadFile(
      name: "newer format version",
      text: "{\"format\": \"dolphin-export\", \"formatVersion\": 7, \"schemaVersion\": 9, \"workspace\": {}}",
      stderr: "bad.json has export format version 7, newer than this build reads (1); upgrade dolphin to import it. Nothing was imported"),
    BadFile(
      name: "truncated JSON", text: "{\"format\": \"dolphin-export\", \"formatVer",
      stderr: "bad.json: not valid JSON at line 1, column 40 (byte 39): the JSON text ends too early"),
    BadFile(name: "an empty file", text: "", stderr: "bad.json is empty; expected a dolphin export (JSON"),
    BadFile(
      name: "an unknown kind", text: Self.exportWithKnowledge(kind: "bogus"),
      stderr: "bad.json: workspace.knowledge[0].kind: 'bogus' is not one of decision, goal, preference, fact, insight, context, code. Nothing was imported"),
    BadFile(
      name: "a malformed id", text: Self.exportWithKnowledge(id: "xyz"),
      stderr: "bad.json: workspace.knowledge[0].id: 'xyz' is not a UUID (expected e.g. 3F2504E0-4F89-11D3-9A0C-0305E82C3301). Nothing was imported"),
    BadFile(
      name: "a legacy workspace file", text: "{\"schemaVersion\": 4, \"memories\": []}",
      stderr: "bad.json is not a dolphin export: it has no \"format\": \"dolphin-export\" field"),
    BadFile(
      name: "a fractional revision", text: Self.exportWithKnowledge().replacingOccurrences(of: "\"revision\": 1", with: "\"revision\": 1.5"),
      stderr: "bad.json: workspace.knowledge[0].revision: expected a whole number, got 1.5. Nothing was imported"),
    BadFile(
      name: "a revision too large for any whole number",
      text: Self.exportWithKnowledge().replacingOccurrences(of: "\"revision\": 1", with: "\"revision\": 99999999999999999999"),
      stderr: "bad.json: workspace.knowledge[0].revision: 99999999999999999999 is out of range; a revision is between 1 and 1000000. Nothing was imported"),
    BadFile(
      name: "a revision beyond Double's range",
      text: Self.exportWithKnowledge().replacingOccurrences(of: "\"revision\": 1", with: "\"revision\": 1e400"),
      stderr: "bad.json: workspace.knowledge[0].revision: expected a whole number, got 1e400. Nothing was imported"),
    BadFile(
      name: "a fractional schema version",
      text: Self.exportWithKnowledge().replacingOccurrences(of: "\"schemaVersion\": 5, \"exportedAt\"", with: "\"schemaVersion\": 5.5, \"exportedAt\""),
      stderr: "bad.json: schemaVersion: expected a whole number, got 5.5. Nothing was imported"),
    BadFile(
      name: "a negative revision", text: Self.exportWithKnowledge().replacingOccurrences(of: "\"revision\": 1", with: "\"revision\": -1"),
      stderr: "bad.json: workspace.knowledge[0] (id 3F2504E0-4F89-11D3-9A0C-0305E82C3301): revision is -1; it must be between 1 and 1000000. Nothing was imported"),
    BadFile(
      name: "a title over the limit", text: Self.exportWithKnowledge().replacingOccurrences(of: "\"title\": \"t\"", with: "\"title\": \"\(String(repeating: "t", count: 301))\""),
      stderr: "bad.json: workspace.knowledge[0] (id 3F2504E0-4F89-11D3-9A0C-0305E82C3301): title is 301 characters; the limit is 300 characters. Nothing was imported"),
    BadFile(
      name: "a duplicate id",
      text: Self.exportWithKnowledge().replacingOccurrences(of: "\"knowledge\": [", with: "\"knowledge\": [\(Self.knowledgeItem), "),
      stderr: "bad.json: workspace.knowledge[1]: duplicate id 3F2504E0-4F89-11D3-9A0C-0305E82C3301 (also at workspace.knowledge[0]). Nothing was imported"),
    BadFile(
      name: "a NUL in a title", text: Self.exportWithKnowledge().replacingOccurrences(of: "\"title\": \"t\"", with: "\"title\": \"a\\u0000b\""),
      stderr: "bad.json: workspace.knowledge[0] (id 3F2504E0-4F89-11D3-9A0C-0305E82C3301): title contains a NUL character (U+0000) at character 2; NUL is not text, remove it. Nothing was imported"),
    BadFile(
      name: "a tag with a line break", text: Self.exportWithKnowledge().replacingOccurrences(of: "\"tags\": []", with: "\"tags\": [\"x\\ny\"]"),
      stderr: "bad.json: workspace.knowledge[0] (id 3F2504E0-4F89-11D3-9A0C-0305E82C3301): tags[0] 'x\\ny' contains a line break; a tag is one line without tabs or control characters. Nothing was imported"),
    BadFile(name: "an array", text: "[]", stderr: "bad.json: expected a JSON object (a dolphin export), got an array. Nothing was imported"),
    BadFile(name: "null", text: "null", stderr: "bad.json: expected a JSON object (a dolphin export), got null. Nothing was imported"),
  ]

  /// The knowledge item of ``exportWithKnowledge(kind:id:)``.
  static let knowledgeItem = """
    {"content": "", "createdAt": "2026-11-29T18:19:32.123Z", "id": "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "kind": "fact",
     "priority": "normal", "relationships": [], "revision": 1, "source": "user", "tags": [], "title": "t",
     "updatedAt": "2026-11-29T18:19:32.123Z"}
    """

  @Test("a newer or malformed file is refused (exit 4) and nothing is written", arguments: badFiles)
  func refusedFiles(_ c: BadFile) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let file = cli.dir.appending("bad.json")
    try Data(c.text.utf8).write(to: file)
    let r = try cli.run(["import", file.path])
    #expect(r.status == 4)
    #expect(r.stderr.contains(c.stderr), "\(r.stderr)")
    // Refused before the workspace is opened: not even an empty one was created.
    #expect(try cli.run(["status"]).status == 3)
    #expect(!FileManager.default.fileExists(atPath: cli.workspace))
  }

  @Test("a --json import refusal names the JSON path at fault as its field")
  func importErrorFieldInJSON() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let file = cli.dir.appending("bad.json")
    try Data(Self.exportWithKnowledge().replacingOccurrences(of: "\"revision\": 1", with: "\"revision\": 1e400").utf8).write(to: file)
    let r = try cli.run(["import", file.path, "--json"])
    #expect(r.status == 4)
    let error = try #require((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(error["kind"] as? String == "exportDocument")
    #expect(error["field"] as? String == "workspace.knowledge[0].revision")
    #expect(error["message"] as? String == "\(file.path): workspace.knowledge[0].revision: expected a whole number, got 1e400. Nothing was imported")
    // A refusal of the whole document has no field.
    try Data("{\"schemaVersion\": 4, \"memories\": []}".utf8).write(to: file)
    let whole = try cli.run(["import", file.path, "--json"])
    let wholeError = try #require((try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(wholeError["kind"] as? String == "exportDocument")
    #expect(wholeError["field"] == nil)
  }

  @Test("import /dev/null names the path as given, and what it is")
  func importDevNull() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["import", "/dev/null"])
    #expect(r.status == 4)
    #expect(r.stderr.contains("/dev/null is a character device, not a regular file"), "\(r.stderr)")
    #expect(!r.stderr.contains(" null is"))
  }

  @Test("an unconfirmed erase or deletion with --json carries its plan in the error document")
  func unconfirmedPlanInJSON() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try seed(cli)
    let erase = try cli.run(["erase", "--kind", "knowledge", "--json"])
    #expect(erase.status == 1)
    let eraseError = try #require((try JSONSerialization.jsonObject(with: Data(erase.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(eraseError["kind"] as? String == "aborted")
    #expect(eraseError["exitCode"] as? Int == 1)
    let erasePlan = try #require(eraseError["plan"] as? [String: Any])
    #expect(erasePlan["target"] as? String == "knowledge")
    let steps = erasePlan["steps"] as? [[String: Any]] ?? []
    #expect(steps.contains { $0["action"] as? String == "deleteKnowledge" && $0["count"] as? Int == 2 })

    let items = try cli.json(["knowledge", "list"])["items"] as? [[String: Any]] ?? []
    let id = try #require(items.first { $0["title"] as? String == "Use SQLite for the workspace" }?["id"] as? String)
    let delete = try cli.run(["knowledge", "delete", id, "--json"])
    #expect(delete.status == 1)
    let deleteError = try #require((try JSONSerialization.jsonObject(with: Data(delete.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    let deletePlan = try #require(deleteError["plan"] as? [String: Any])
    #expect(deletePlan["targetID"] as? String == id)
    #expect(deletePlan["target"] as? String == "knowledge")
    #expect(deletePlan["targetTitle"] as? String == "Use SQLite for the workspace")
    #expect(try cli.json(["knowledge", "list"])["total"] as? Int == 2, "nothing was changed")

    // Other errors carry no plan.
    let other = try cli.run(["knowledge", "get", "nope", "--json"])
    let otherError = try #require((try JSONSerialization.jsonObject(with: Data(other.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(otherError["plan"] == nil)
  }

  @Test("erase needs confirmation; with --yes it removes, compacts and verifies")
  func erase() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try seed(cli)
    let declined = try cli.run(["erase", "--kind", "knowledge"])
    #expect(declined.status == 1)
    #expect(declined.stdout.contains("Erase plan (knowledge):"))
    #expect(declined.stdout.contains("delete 2 knowledge item(s)"))
    #expect(declined.stderr.contains("dolphin: error: erasing this data needs confirmation: run it in a terminal, or pass --yes; nothing was changed"))
    #expect(!declined.stderr.contains("undone. needs"))
    #expect(try cli.json(["knowledge", "list"])["total"] as? Int == 2)

    let erased = try cli.run(["erase", "--kind", "knowledge", "--yes"])
    #expect(erased.status == 0, "\(erased.stderr)")
    #expect(erased.stdout.contains("Verified: read "))
    #expect(erased.stdout.contains("none of the 2 erased record id(s) remains on disk. WAL 0 bytes, 0 free page(s)."))
    #expect(try cli.json(["knowledge", "list"])["total"] as? Int == 0)
    #expect((try cli.json(["memory", "list"])["memories"] as? [Any])?.count == 1)

    let all = try cli.json(["erase", "--yes"])
    let verification = try #require(all["verification"] as? [String: Any])
    #expect((verification["leakedIDs"] as? [Any])?.isEmpty == true)
    #expect((try cli.json(["status"])["counts"] as? [String: Int])?.values.allSatisfy { $0 == 0 } == true)
    #expect(filesContaining("Prefers tabs", under: URL(fileURLWithPath: cli.workspace)).isEmpty)
  }

  /// The legacy v4 fixture as the workspace's `workspace.json`, which the first write imports
  /// (keeping a backup in `legacy-backups`).
  static func placeLegacyWorkspace(in cli: CLI) throws {
    try FileManager.default.createDirectory(atPath: cli.workspace, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Tests/ContinuityKitTests/Fixtures/legacy/workspace-v4.json"),
      to: URL(fileURLWithPath: cli.workspace).appendingPathComponent("workspace.json"))
  }

  @Test("activity clear removes chat and run activity after confirmation")
  func activityClear() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try Self.placeLegacyWorkspace(in: cli)
    let r = try cli.run(["activity", "clear", "--yes"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Clear chat & run activity plan:"))
    #expect(r.stdout.contains("delete 5 chat message(s)"))
    #expect(r.stdout.contains("Note: legacy backups kept on purpose still hold copies of some erased records"))
    let counts = try #require(try cli.json(["status"])["counts"] as? [String: Int])
    #expect(counts["message"] == 0 && counts["receipt"] == 0 && counts["checkpoint"] == 0)
    #expect(counts["conversation"] == 2)
  }

  /// Review (s16): after a migration, `erase --kind memories` said "none of the 1 erased record
  /// id(s) remains on disk" beside a note that a kept backup still holds it, and its plan, shown
  /// before the confirmation, never mentioned the backup.
  @Test("a partial erase names the legacy backups it keeps before confirming, and its verification does not claim them clean")
  func partialEraseNamesKeptBackups() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    try Self.placeLegacyWorkspace(in: cli)
    _ = try cli.json(["capture", "fact", "Imports the legacy file first"])
    let declined = try cli.run(["erase", "--kind", "memories"])
    #expect(declined.status == 1)
    #expect(declined.stdout.contains("  Kept on purpose: \(cli.workspace)/legacy-backups/"), "\(declined.stdout)")
    #expect(declined.stdout.contains("they may hold records this erase removes, and `dolphin erase --kind all --workspace \(cli.workspace)` removes them"))
    let declinedJSON = try cli.run(["erase", "--kind", "memories", "--json"])
    let error = try #require((try JSONSerialization.jsonObject(with: Data(declinedJSON.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    let plan = try #require(error["plan"] as? [String: Any])
    let kept = plan["keptFiles"] as? [String] ?? []
    #expect(kept.contains { $0.hasPrefix("\(cli.workspace)/legacy-backups/") } && kept.contains("\(cli.workspace)/workspace.json"), "\(plan)")

    let erased = try cli.run(["erase", "--kind", "memories", "--yes"])
    #expect(erased.status == 0, "\(erased.stderr)")
    #expect(erased.stdout.contains("remains on disk outside the legacy backups kept on purpose. WAL"), "\(erased.stdout)")
    #expect(!erased.stdout.contains("remains on disk. WAL"), "\(erased.stdout)")
    #expect(erased.stdout.contains("Note: legacy backups kept on purpose still hold copies of some erased records"))

    // `all` removes them, and then has nothing to keep.
    let all = try cli.run(["erase", "--yes"])
    #expect(!all.stdout.contains("Kept on purpose"), "\(all.stdout)")
    #expect(all.stdout.contains("remains on disk. WAL") || all.stdout.contains("remains on disk, but"), "\(all.stdout)")
  }

  @Test("erase --kind conversations counts the records it removed, not the handoffs it only scrubbed")
  func eraseConversationsCountsTruthfully() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    // One conversation, four messages (two asks), and a handoff that copies excerpts of them. The
    // workspace exists first: a chat that only reads does not create one.
    #expect(try cli.run(["task", "add", "Seed the workspace"]).status == 0)
    #expect(try cli.run(["ask", "hello there"]).status == 0)
    #expect(try cli.run(["ask", "/handoff Wrap up", "--yes"]).status == 0)
    let report = try cli.json(["erase", "--kind", "conversations", "--yes"])
    let removed = try #require(report["removed"] as? [String: Int])
    #expect(removed == ["deleteConversations": 1, "deleteMessages": 4])
    #expect(report["changed"] as? [String: Int] == ["scrubExcerpts": 1])
    let verification = try #require(report["verification"] as? [String: Any])
    #expect(verification["idsChecked"] as? Int == 5)

    // The text summary says the same numbers.
    #expect(try cli.run(["ask", "hello again"]).status == 0)
    #expect(try cli.run(["ask", "/handoff Again", "--yes"]).status == 0)
    let text = try cli.run(["erase", "--kind", "conversations", "--yes"])
    #expect(text.status == 0, "\(text.stderr)")
    // The handoffs made earlier hold no excerpts any more; the new one does.
    #expect(text.stdout.contains(
        "Erased 5 record(s) (1 conversation(s), 4 chat message(s)); kept but changed: removed the chat excerpts from 1 handoff(s)."), "\(text.stdout)")
    #expect(text.stdout.contains("none of the 5 erased record id(s) remains on disk"), "\(text.stdout)")
  }

  @Test("erase reports every record it kept but changed, with the counts found in the database")
  func eraseReportsKeptButChangedRecords() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require((try cli.json(["capture", "decision", "Use SQLite"])["item"] as? [String: Any])?["id"] as? String)
    _ = try cli.json(["memory", "save", "Prefers tabs over spaces"])
    let t = try #require(try cli.record("task", ["task", "add", "Write the README", "--knowledge", k])["id"] as? String)
    _ = try cli.record("task", ["task", "add", "Unlinked task"])
    _ = try cli.json(["handoff", "create", "--focus", "One", "--knowledge", k, "--task", t])
    _ = try cli.json(["handoff", "create", "--focus", "Two", "--knowledge", k])
    _ = try cli.json(["handoff", "create", "--focus", "Three"])

    /// Records that reference knowledge (tasks, handoffs) or a mirror (memories), read from the database.
    func referencing() throws -> (tasks: Int, handoffs: Int, memories: Int, handoffsWithTasks: Int) {
      let store = try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: cli.workspace))
      let ws = try store.read { try $0.snapshot() }
      return (
        ws.tasks.filter { !$0.knowledgeIDs.isEmpty }.count, ws.handoffs.filter { !$0.knowledgeIDs.isEmpty }.count,
        ws.memories.filter { $0.knowledgeID != nil }.count, ws.handoffs.filter { !$0.taskIDs.isEmpty }.count
      )
    }
    let before = try referencing()
    #expect(before.tasks == 1 && before.handoffs == 2 && before.memories == 1 && before.handoffsWithTasks == 1)
    let report = try cli.json(["erase", "--kind", "knowledge", "--yes"])
    #expect(report["removed"] as? [String: Int] == ["deleteKnowledge": 2])
    #expect(
      report["changed"] as? [String: Int]
        == ["unlinkTasks": before.tasks, "unlinkHandoffs": before.handoffs, "clearMemoryLinks": before.memories])
    let after = try referencing()
    #expect(after.tasks == 0 && after.handoffs == 0 && after.memories == 0)
    #expect(try cli.json(["status"])["counts"] as? [String: Int] != nil)

    // The text line names the same changes; tasks then unlink the handoff that carries one.
    let text = try cli.run(["erase", "--kind", "tasks", "--yes"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout.contains(
        "Erased 2 record(s) (2 task(s)); kept but changed: removed the erased references from 1 handoff(s)."),
      "\(text.stdout)")
    #expect(try referencing().handoffsWithTasks == 0)

    // `all` empties the search index, a record kept but changed.
    let all = try cli.json(["erase", "--kind", "all", "--yes"])
    let changed = try #require(all["changed"] as? [String: Int])
    let plan = try #require((all["plan"] as? [String: Any])?["steps"] as? [[String: Any]])
    let planned = Dictionary(uniqueKeysWithValues: plan.compactMap { s in (s["action"] as? String).map { ($0, s["count"] as? Int ?? -1) } })
    let removed = try #require(all["removed"] as? [String: Int])
    #expect(removed.merging(changed) { a, _ in a } == planned, "every planned step is reported, removed or changed")
    #expect(changed["clearSearchIndex"] == 1)
  }
}
