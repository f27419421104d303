import ContinuityKit
@testable import DolphinCommands
import Foundation
import Testing
import TestSupport

/// Error messages name the flag the user typed, not the library's field.
@Suite("Flag naming in errors", .serialized)
struct FlagNamingTests {
  let spec = CommandSpec(
    path: ["handoff", "create"], summary: "",
    fieldFlags: [FieldFlag("nextSteps", "--next", numbered: true), FieldFlag("knowledgeIDs", "--knowledge")])

  @Test("indexed fields become the flag, numbered from 1 when the values map one to one")
  func labels() {
    #expect(spec.flagLabel(for: "nextSteps[1]") == "--next #2")
    #expect(spec.flagLabel(for: "nextSteps") == "--next")
    #expect(spec.flagLabel(for: "knowledgeIDs[0]") == "--knowledge")
    #expect(spec.flagLabel(for: "taskIDs[0]") == nil)
    #expect(spec.flagLabel(for: "nextSteps[x]") == nil)
  }

  @Test("only the message changes; the library's field is kept")
  func keepsField() throws {
    let original = ValidationError(field: "knowledgeIDs[0]", message: "knowledgeIDs[0]: no knowledge item has the id X")
    let renamed = try #require(spec.namingFlags(in: WorkspaceError.validation(original)) as? WorkspaceError)
    #expect(renamed == .validation(ValidationError(field: "knowledgeIDs[0]", message: "--knowledge: no knowledge item has the id X")))
    // A message that does not begin with its field is left alone.
    let other = ValidationError(field: "nextSteps[0]", message: "the steps are wrong")
    #expect(spec.namingFlag(in: other) == other)
  }

  typealias Case = CLICase

  static let unknownID = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"

  static let cases: [Case] = [
    Case(name: "task add --knowledge", args: ["task", "add", "t", "--knowledge", unknownID], status: 3, stderr: "dolphin: error: --knowledge: no knowledge item has the id \(unknownID)"),
    Case(name: "task add --knowledge malformed", args: ["task", "add", "t", "--knowledge", "42"], stderr: "dolphin: error: --knowledge '42' is not a UUID"),
    Case(name: "handoff create --task", args: ["handoff", "create", "--focus", "f", "--task", unknownID], status: 3, stderr: "dolphin: error: --task: no task has the id \(unknownID)"),
    Case(name: "handoff create second --next empty", args: ["handoff", "create", "--focus", "f", "--next", "ok", "--next", " "], stderr: "dolphin: error: --next #2 has nothing printable: all 1 character(s) given are white space, and a value is required; nothing was stored"),
    Case(name: "handoff create --next too long", args: ["handoff", "create", "--focus", "f", "--next", String(repeating: "s", count: 301)], stderr: "dolphin: error: --next #1 is 301 characters; the limit is 300 characters"),
    Case(name: "capture --relates unknown", args: ["capture", "fact", "t", "--relates", "supports:\(unknownID)"], status: 3, stderr: "dolphin: error: --relates: no knowledge item has the id \(unknownID)"),
    Case(name: "capture --relates malformed", args: ["capture", "fact", "t", "--relates", "supports"], stderr: "dolphin: error: --relates 'supports' must be KIND:UUID"),
    Case(name: "capture --relates bad id", args: ["capture", "fact", "t", "--relates", "supports:42"], stderr: "dolphin: error: --relates id '42' is not a UUID"),
    Case(
      name: "capture --relates with a comma-separated list", args: ["capture", "fact", "t", "--relates", "supports:A,relatesTo:B"],
      stderr: "dolphin: error: --relates 'supports:A,relatesTo:B' holds more than one relationship: --relates takes one KIND:UUID; repeat --relates for each relationship"),
    Case(
      name: "capture --relates with two well-formed relationships", args: ["capture", "fact", "t", "--relates", "supports:\(unknownID), relatesTo:\(unknownID)"],
      stderr: "--relates takes one KIND:UUID; repeat --relates for each relationship"),
  ]

  /// An id that no record has exits 3 ("not found", as `knowledge get` does); a malformed or
  /// over-long value exits 4.
  @Test("messages name the flag", arguments: cases)
  func messages(_ c: Case) throws {
    let dir = TemporaryDirectory("flags")
    defer { dir.remove() }
    let r = try runDolphin(c.args + ["--workspace", dir.appending("ws").path])
    #expect(r.status == (c.status ?? 4), "\(r.stderr)")
    #expect(r.stderr.contains(c.stderr), "\(r.stderr)")
    for fieldName in ["knowledgeIDs[", "taskIDs[", "nextSteps[", "relationships[", "relates["] {
      #expect(!r.stderr.contains(fieldName), "\(r.stderr)")
    }
  }

  @Test("--json keeps the library's field beside a message that names the flag")
  func jsonField() throws {
    let dir = TemporaryDirectory("flags-json")
    defer { dir.remove() }
    let r = try runDolphin(["task", "add", "t", "--knowledge", Self.unknownID, "--json", "--workspace", dir.appending("ws").path])
    let err = try #require((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(err["field"] as? String == "knowledgeIDs[0]")
    #expect(err["kind"] as? String == "notFound")
    #expect(err["exitCode"] as? Int == 3)
    #expect(r.status == 3)
    #expect((err["message"] as? String)?.hasPrefix("--knowledge: no knowledge item has the id") == true)
  }

  @Test("--help says that --relates takes one relationship and repeats")
  func relatesHelp() throws {
    let r = try runDolphin(["capture", "--help"])
    #expect(r.status == 0)
    let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("--relates KIND:UUID") })
    #expect(line.contains("One relationship to an existing item (repeat for each, at most 32)"), "\(line)")
  }
}

/// Review 21-a, 16: `--remove-tags: … give it to one of addTags and removeTags` named the
/// library's fields in a CLI message.
@Suite("Flag naming inside a message")
struct FlagNamingInsideMessageTests {
  @Test("camelCase fields later in the message become flags; ordinary words and longer names stay")
  func camelCaseFieldsRenamed() throws {
    var spec = CommandSpec(path: ["knowledge", "edit"], summary: "")
    spec.fieldFlags = [FieldFlag("addTags", "--add-tags"), FieldFlag("removeTags", "--remove-tags"), FieldFlag("content", "--content")]
    let e = ValidationError(
      field: "removeTags",
      message: "removeTags: the tag 'x' is also to be added; give it to one of addTags and removeTags; the content is kept; "
        + "removeTagsAll and xaddTags stay")
    let renamed = spec.namingFlag(in: e)
    #expect(
      renamed.message
        == "--remove-tags: the tag 'x' is also to be added; give it to one of --add-tags and --remove-tags; the content is kept; "
        + "removeTagsAll and xaddTags stay")
    #expect(renamed.field == "removeTags")
  }

  @Test("knowledge edit --add-tags x --remove-tags x names the flags")
  func endToEnd() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try #require((try cli.json(["capture", "fact", "Tagged"])["item"] as? [String: Any])?["id"] as? String)
    let r = try cli.run(["knowledge", "edit", id, "--add-tags", "x", "--remove-tags", "x"])
    #expect(r.status == 4)
    #expect(r.stderr.contains("give it to one of --add-tags and --remove-tags; nothing was changed"), "\(r.stderr)")
  }
}
