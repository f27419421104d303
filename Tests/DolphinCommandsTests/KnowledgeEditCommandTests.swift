import ContinuityKit
import Foundation
import Testing
import TestSupport

/// `dolphin knowledge edit` (s17): a typo in a title could only be fixed by deleting the item
/// and capturing it again, which gave it a new id and dropped its relationships.
@Suite("dolphin knowledge edit", .serialized)
struct KnowledgeEditCommandTests {
  static func id(_ cli: CLI, _ args: [String]) throws -> String {
    let item = try #require(try cli.json(args)["item"] as? [String: Any])
    return try #require(item["id"] as? String)
  }

  @Test("edits in place: text and JSON say what changed; search, list and get follow; a repeat is no change")
  func editsInPlace() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try Self.id(cli, ["capture", "decision", "Use Postgers for invoices", "--tags", "storage"])
    let text = try cli.run(["knowledge", "edit", id, "--title", "Use Postgres for invoices", "--add-tags", "billing", "--priority", "high"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout == "Edited decision \"Use Postgres for invoices\": title, tags, priority changed (revision 2).\nid: \(id)\n",
      "\(text.stdout)")
    let search = try cli.json(["search", "postgres"])
    #expect((search["results"] as? [[String: Any]])?.map { $0["id"] as? String } == [id], "\(search)")
    #expect(try cli.run(["knowledge", "list", "--tag", "billing"]).stdout.contains(id))

    let again = try cli.run(["knowledge", "edit", id, "--title", "Use Postgres for invoices"])
    #expect(again.status == 0)
    #expect(again.stdout == "No change: decision \"Use Postgres for invoices\" already holds what was given (still revision 2).\n")

    let piped = try cli.run(["knowledge", "edit", id, "--content", "-", "--json"], stdin: "Chosen for row-level locks.\n")
    #expect(piped.status == 0, "\(piped.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(piped.stdout.utf8)) as? [String: Any])
    #expect(json["changed"] as? [String] == ["content"])
    let item = try #require(json["item"] as? [String: Any])
    #expect(item["content"] as? String == "Chosen for row-level locks.\n" && item["revision"] as? Int == 3)
    #expect(try cli.record("item", ["knowledge", "get", id])["revision"] as? Int == 3)
  }

  @Test("relationships: --relates adds, --unrelate removes; a supersede cycle names the fix")
  func relationships() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let old = try Self.id(cli, ["capture", "decision", "Ship weekly"])
    let new = try Self.id(cli, ["capture", "decision", "Ship daily"])
    #expect(try cli.run(["knowledge", "edit", new, "--relates", "supersedes:\(old)"]).status == 0)
    let cycle = try cli.run(["knowledge", "edit", old, "--relates", "supersedes:\(new)"])
    #expect(cycle.status == 4)
    #expect(cycle.stderr.hasPrefix("dolphin: error: --relates: knowledge item \(old) cannot supersede \(new)"), "\(cycle.stderr)")
    let unrelated = try cli.json(["knowledge", "edit", new, "--unrelate", old])
    #expect((unrelated["item"] as? [String: Any])?["relationships"] as? [Any] != nil)
    #expect(((unrelated["item"] as? [String: Any])?["relationships"] as? [Any])?.isEmpty == true)
    let none = try cli.run(["knowledge", "edit", new, "--unrelate", old])
    #expect(none.status == 4)
    #expect(none.stderr == "dolphin: error: --unrelate: the item has no relationship to \(old); nothing was changed\n")
  }

  /// A refused edit: its arguments after the id, the exit status and the error line.
  struct Refusal: CustomStringConvertible, Sendable {
    var args: [String]
    var status: Int32
    var stderr: String
    var description: String { args.joined(separator: " ") }
  }

  static let refusals: [Refusal] = [
    Refusal(
      args: [], status: 2,
      stderr: "knowledge edit: nothing to change; give at least one of --title, --content, --content-file, --kind, --priority, "
        + "--tags, --add-tags, --remove-tags, --relates, --unrelate"),
    Refusal(
      args: ["--title", "  "], status: 4,
      stderr: "--title has nothing printable: all 2 character(s) given are white space, and a value is required; nothing was stored"),
    Refusal(
      args: ["--title", String(repeating: "t", count: 301)], status: 4, stderr: "--title is 301 characters; the limit is 300 characters"),
    Refusal(args: ["--kind", "note"], status: 2, stderr: "--kind 'note' is not one of"),
    Refusal(args: ["--priority", "urgent"], status: 2, stderr: "--priority 'urgent' is not one of"),
    Refusal(
      args: ["--remove-tags", "nope"], status: 4,
      stderr: "--remove-tags: the item has no tag 'nope' (its tags: storage); nothing was changed"),
    Refusal(args: ["--content", "x", "--content-file", "/tmp/x"], status: 2, stderr: "give --content or --content-file, not both"),
    Refusal(args: ["--unrelate", "42"], status: 4, stderr: "--unrelate '42' is not a UUID"),
    Refusal(args: ["--relates", "supports"], status: 4, stderr: "--relates 'supports' must be KIND:UUID"),
    // Review 18-b (B12): named `--tags has 17 tags`, without what was held and added.
    Refusal(
      args: ["--add-tags", (1...16).map { "t\($0)" }.joined(separator: ",")], status: 4,
      stderr: "--add-tags would make 17 tags (1 held + 16 added); the limit is 16; nothing was changed"),
    Refusal(
      args: ["--relates", "likes:3F2504E0-4F89-11D3-9A0C-0305E82C3301"], status: 2,
      stderr: "--relates kind 'likes' is not one of: supports, contradicts, dependsOn, supersedes, relatesTo"),
    Refusal(
      args: ["--content", "password=hunter22222"], status: 4,
      stderr: "--content looks like it holds a credential (password or secret assignment at line 1, column 1)"),
  ]

  @Test("refused with the flag named; the stored item is unchanged", arguments: refusals)
  func refused(_ r: Refusal) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try Self.id(cli, ["capture", "fact", "Build host", "--content", "SQLite 3.40", "--tags", "storage"])
    let before = try cli.run(["knowledge", "get", id, "--json"]).stdout
    let result = try cli.run(["knowledge", "edit", id] + r.args)
    #expect(result.status == r.status, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("dolphin: error: " + r.stderr), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(try cli.run(["knowledge", "get", id, "--json"]).stdout == before)
  }

  /// Review (s17, C3): `cat missing | dolphin knowledge edit ID --content -` removed the body.
  @Test("empty standard input or an empty file is refused, not taken as removing the content")
  func emptyInput() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try Self.id(cli, ["capture", "fact", "Build host", "--content", "SQLite 3.40"])
    let piped = try cli.run(["knowledge", "edit", id, "--content", "-"], stdin: "")
    #expect(piped.status == 4)
    #expect(
      piped.stderr == "dolphin: error: --content -: standard input was empty; to remove the content, give --content ''; nothing was changed\n",
      "\(piped.stderr)")
    let file = cli.dir.appending("empty.txt").path
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    let fromFile = try cli.run(["knowledge", "edit", id, "--content-file", file])
    #expect(fromFile.status == 4 && fromFile.stderr.contains("is an empty file; to remove the content, give --content ''"), "\(fromFile.stderr)")
    #expect((try cli.record("item", ["knowledge", "get", id]))["content"] as? String == "SQLite 3.40")
    let removed = try cli.json(["knowledge", "edit", id, "--content", ""])
    #expect(removed["changed"] as? [String] == ["content"])
  }

  @Test("an unknown id is not found (exit 3); a malformed one is refused")
  func unknownID() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.run(["capture", "fact", "One"])
    let unknown = try cli.run(["knowledge", "edit", "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "--title", "x"])
    #expect(unknown.status == 3)
    #expect(unknown.stderr == "dolphin: error: no knowledge item has the id 3F2504E0-4F89-11D3-9A0C-0305E82C3301\n")
    let malformed = try cli.run(["knowledge", "edit", "3F25", "--title", "x"])
    #expect(malformed.status == 4, "\(malformed.stderr)")
  }
}

/// Review 21-a, 8: `false | dolphin capture … --content -` stored an empty body with exit 0,
/// while every other `-` refuses empty standard input.
@Suite("capture refuses an empty body read from standard input or a file")
struct CaptureEmptyInputTests {
  @Test("empty stdin and an empty file are refused and store nothing; --content '' and no --content still capture")
  func emptyInputRefused() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Seed"]).status == 0)
    let piped = try cli.run(["capture", "fact", "Release notes", "--content", "-"], stdin: "")
    #expect(piped.status == 4)
    #expect(
      piped.stderr
        == "dolphin: error: --content -: standard input was empty; pipe the text in, or leave out the option to capture the title alone; nothing was stored\n",
      "\(piped.stderr)")
    let file = cli.dir.appending("empty.txt").path
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    let fromFile = try cli.run(["capture", "fact", "Release notes", "--content-file", file])
    #expect(fromFile.status == 4 && fromFile.stderr.contains("is an empty file; pipe the text in"), "\(fromFile.stderr)")
    #expect(try cli.json(["knowledge", "list"])["total"] as? Int == 1)
    // Said plainly, an empty body is a choice: the title alone.
    #expect(try cli.run(["capture", "fact", "Title only", "--content", ""]).status == 0)
    #expect(try cli.run(["capture", "fact", "Title only too"]).status == 0)
    let piped2 = try cli.run(["capture", "fact", "Piped notes", "--content", "-"], stdin: "from the pipe\n")
    #expect(piped2.status == 0, "\(piped2.stderr)")
    #expect(try cli.json(["knowledge", "list"])["total"] as? Int == 4)
  }
}

/// Review 21-a, 12: UTF-16 input (PowerShell's `>` writes it) was named as such only by `import`;
/// `--content-file`, `--content -`, `migrate` and `analyze` called it binary or "a NUL byte".
@Suite("UTF-16 input is named as UTF-16 on every input path")
struct UTF16InputTests {
  static func utf16(_ text: String) -> Data {
    var data = Data([0xFF, 0xFE])
    for unit in text.utf16 { data.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
    return data
  }

  @Test("capture --content-file and --content -, migrate and analyze")
  func everyPath() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let text = cli.dir.appending("u16.txt").path
    try Self.utf16("Hi there\n").write(to: URL(fileURLWithPath: text))
    let file = try cli.run(["capture", "fact", "u", "--content-file", text])
    #expect(file.status == 4)
    #expect(file.stderr.contains("is saved as UTF-16 (it starts with a UTF-16 byte order mark); give UTF-8 text"), "\(file.stderr)")
    let piped = try runProcess(
      "/bin/sh", ["-c", "cat '\(text)' | '\(dolphinExecutable().path)' capture fact u --content - --workspace '\(cli.workspace)'"])
    #expect(piped.status == 4)
    #expect(piped.stderr.contains("content from standard input is saved as UTF-16"), "\(piped.stderr)")
    let legacy = cli.dir.appending("legacy.json").path
    try Self.utf16(#"{"schemaVersion": 1, "memories": []}"#).write(to: URL(fileURLWithPath: legacy))
    let migrate = try cli.run(["migrate", legacy])
    #expect(migrate.status == 4)
    #expect(migrate.stderr.contains("is saved as UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8"), "\(migrate.stderr)")
    let source = cli.dir.appending("u16.swift").path
    try Self.utf16("let x = y!\n").write(to: URL(fileURLWithPath: source))
    let analyze = try runDolphin(["analyze", source])
    #expect(analyze.stdout.contains("saved as UTF-16") || analyze.stderr.contains("saved as UTF-16"), "\(analyze.stdout)\(analyze.stderr)")
    #expect(!(analyze.stdout + analyze.stderr).contains("taken for a binary file"))
    #expect(!(try cli.run(["knowledge", "list", "--json"]).stdout.contains("\"title\" : \"u\"")), "nothing was captured")
  }
}

/// Review 21-a, 14: deleting the item every digest cites deleted the whole digest history with
/// only a line per digest to say so; after an edit, the one remedy offered was erasing them all.
@Suite("Digests quoting an item: the plan and the edit say what it means")
struct DigestQuotingTests {
  @Test("the plan counts the digests it deletes against those stored; the edit names context --save")
  func wholeHistoryNamed() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require((try cli.json(["capture", "decision", "Use SQLite WAL mode"])["item"] as? [String: Any])?["id"] as? String)
    for _ in 0..<3 { #expect(try cli.run(["context", "--save"]).status == 0) }
    let plan = try cli.run(["knowledge", "delete", k])
    #expect(plan.stdout.contains("That is 3 of the 3 stored digest(s): the whole digest history."), "\(plan.stdout)")
    let edit = try cli.run(["knowledge", "edit", k, "--title", "Use SQLite WAL mode for the workspace"])
    #expect(edit.status == 0, "\(edit.stderr)")
    #expect(edit.stderr.contains("`dolphin context --save --workspace \(cli.workspace)` stores one with the new text"), "\(edit.stderr)")
  }
}

/// Review 21-a, 9: `--remove-tags cafe` left `café`, a tag `--tag cafe` still selected.
@Suite("--remove-tags removes what --tag selects")
struct RemoveTagsFoldingTests {
  @Test("cafe removes café and cafe; a tag nothing matches is refused; case is folded at capture, and said in help")
  func foldedRemoval() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let item = try #require(try cli.json(["capture", "fact", "accents", "--tags", "café,cafe,Café,SQLite"])["item"] as? [String: Any])
    #expect(item["tags"] as? [String] == ["café", "cafe", "sqlite"])
    let id = try #require(item["id"] as? String)
    let edited = try cli.json(["knowledge", "edit", id, "--remove-tags", "cafe"])
    #expect((edited["item"] as? [String: Any])?["tags"] as? [String] == ["sqlite"], "\(edited)")
    #expect(try cli.json(["knowledge", "list", "--tag", "cafe"])["total"] as? Int == 0)
    let missing = try cli.run(["knowledge", "edit", id, "--remove-tags", "tea"])
    #expect(missing.status == 4 && missing.stderr.contains("the item has no tag 'tea'"), "\(missing.stderr)")
    #expect(try runDolphin(["capture", "--help"]).stdout.contains("stored trimmed and lowercased"))
  }
}
