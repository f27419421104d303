import Foundation
import Testing
import TestSupport

/// Review 19-b (F6): a tag holding a comma could be stored through MCP and `import`, while the
/// command line, which takes and shows tags as a comma-separated list, could neither tell it from
/// two tags (`tags: a,b, keep`) nor remove it (`--remove-tags a,b` asked for `a` and `b`). Every
/// path that stores a tag refuses one now; one stored by an earlier build stays readable, editable
/// and findable by `--tag`, and `doctor` names it with a fix.
@Suite("Tags holding a comma", .serialized)
struct TagCommaCommandTests {
  static func sqlite(_ cli: CLI, _ sql: String) throws -> String {
    let r = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql])
    #expect(r.status == 0, "\(r.stderr)")
    return r.stdout.trimmingCharacters(in: .newlines)
  }

  static func id(_ obj: [String: Any]) throws -> String {
    try #require((obj["item"] as? [String: Any])?["id"] as? String)
  }

  @Test("an import writing a tag with a comma is refused, naming the file, the JSON path, the tag and the fix")
  func importRefuses() throws {
    let source = CLI()
    defer { source.dir.remove() }
    let id = try Self.id(source.json(["capture", "fact", "Seed", "--tags", "keep"]))
    let export = try source.run(["export"])
    var document = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
    var workspace = try #require(document["workspace"] as? [String: Any])
    var knowledge = try #require(workspace["knowledge"] as? [[String: Any]])
    knowledge[0]["tags"] = ["a,b", "keep"]
    workspace["knowledge"] = knowledge
    document["workspace"] = workspace
    let file = source.dir.appending("comma.json").path
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: file))

    let empty = CLI()
    defer { empty.dir.remove() }
    let r = try empty.run(["import", file])
    #expect(r.status == 4, "\(r.stdout)\(r.stderr)")
    #expect(
      r.stderr.contains(
        "\(file): workspace.knowledge[0] (id \(id)): tags[0] 'a,b' contains a comma (at character 2); a tag holds no "
          + "comma"), "\(r.stderr)")
    #expect(r.stderr.contains("Nothing was imported"), "\(r.stderr)")
    #expect(r.stderr.contains("a comma in a tag becoming `-`"), "\(r.stderr)")
    let json = try empty.run(["import", file, "--json"])
    let error = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any]
    #expect(error?["field"] as? String == "workspace.knowledge[0].tags[0]", "\(json.stdout)")
    #expect(!FileManager.default.fileExists(atPath: empty.workspace))
  }

  @Test("a tag an earlier build stored with a comma: editable, found by --tag, named by doctor with a fix that keeps it")
  func storedCommaTag() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let tagged = try Self.id(cli.json(["capture", "fact", "Build server is ci-3", "--tags", "keep"]))
    // Two tags without a comma in either: not a candidate, though its JSON holds a comma.
    _ = try Self.id(cli.json(["capture", "fact", "Other", "--tags", "x,y"]))
    _ = try Self.sqlite(cli, "UPDATE knowledge SET tags = json_array('a,b', 'keep') WHERE id = '\(tagged)'")
    // As an earlier build stored it: with its tag filter rows and index entry.
    #expect(try cli.run(["reindex"]).status == 0)

    // Edited around: the stored tag does not block a change to something else.
    let edit = try cli.run(["knowledge", "edit", tagged, "--priority", "high"])
    #expect(edit.status == 0, "\(edit.stderr)")
    // A filter is one tag: it still finds the stored one.
    let filter = try cli.run(["knowledge", "list", "--tag", "a,b"])
    #expect(filter.status == 0 && filter.stdout.contains(tagged), "\(filter.stdout)\(filter.stderr)")

    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5, "\(doctor.stdout)")
    #expect(
      doctor.stdout.contains("Importable text: 1 stored value(s) hold a NUL or a tag with a control character or a comma"),
      "\(doctor.stdout)")
    #expect(doctor.stdout.contains("  - knowledge \(tagged): tags[0] 'a,b' contains a comma (at character 2)"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("a comma becomes `-`"), "\(doctor.stdout)")

    let report = try JSONSerialization.jsonObject(with: Data(cli.run(["doctor", "--json"]).stdout.utf8)) as? [String: Any]
    let records = try #require((report?["refusedText"] as? [String: Any])?["records"] as? [[String: Any]])
    #expect(records.count == 1 && records.first?["field"] as? String == "tags[0]", "\(records)")
    _ = try Self.sqlite(cli, try #require(records.first?["fixStatement"] as? String))
    #expect(try Self.sqlite(cli, "SELECT tags FROM knowledge WHERE id = '\(tagged)'") == #"["a-b","keep"]"#)
    #expect(try cli.run(["reindex"]).status == 0)
    let after = try cli.run(["doctor"])
    #expect(after.status == 0, "\(after.stdout)")
    #expect(after.stdout.hasSuffix("Doctor: healthy.\n"), "\(after.stdout)")
    #expect(try cli.run(["knowledge", "get", tagged]).stdout.contains("tags:      a-b, keep"))
  }

  @Test("the command line still reads --tags a,b as two tags")
  func commandLineSplits() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let item = try cli.json(["capture", "fact", "Two tags", "--tags", "a,b"])
    #expect((item["item"] as? [String: Any])?["tags"] as? [String] == ["a", "b"])
  }
}
