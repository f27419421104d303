import Foundation
import Testing
import TestSupport

/// A review found `dolphin import` checking each field's bound after sanitizing it, while
/// capture (and search) check the text as given: NFC composes `e` + U+0301 into `é`, one Unicode
/// scalar fewer, so text that capture refused for its Unicode scalars was imported. Import now
/// checks each field as given too, and the same text gets the same verdict on either path.
@Suite("import checks bounds on the text as given", .serialized)
struct ImportBoundsAsGivenTests {
  /// One bounded field: where it sits in an export, and how capture takes the same text.
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    /// `knowledge`, `tasks` or `handoffs`: the collection of `workspace` in the export.
    var collection: String
    /// The record's key, and the position in its list for a list of texts.
    var key: String
    var position: Int?
    /// The field as validation names it: `title`, `nextSteps[0]`.
    var field: String
    /// The field's bound in characters.
    var limit: Int
    /// The command that stores the same text at capture; it may write a file into the
    /// directory it is given.
    var capture: @Sendable (_ text: String, _ scratch: URL) throws -> [String]
    var description: String { name }
  }

  static let cases = [
    Case(name: "knowledge title", collection: "knowledge", key: "title", field: "title", limit: 300) { text, _ in
      ["capture", "decision", text]
    },
    Case(name: "knowledge content", collection: "knowledge", key: "content", field: "content", limit: 16_000) { text, scratch in
      // 320 kB: more than one argument may hold.
      let file = scratch.appendingPathComponent("content-\(text.unicodeScalars.count).txt")
      try Data(text.utf8).write(to: file)
      return ["capture", "decision", "Use SQLite", "--content-file", file.path]
    },
    Case(name: "task title", collection: "tasks", key: "title", field: "title", limit: 300) { text, _ in ["task", "add", text] },
    Case(name: "task notes", collection: "tasks", key: "notes", field: "notes", limit: 4_000) { text, _ in
      ["task", "add", "Write the README", "--notes", text]
    },
    Case(name: "handoff focus", collection: "handoffs", key: "focus", field: "focus", limit: 300) { text, _ in
      ["handoff", "create", "--focus", text]
    },
    Case(name: "handoff next step", collection: "handoffs", key: "nextSteps", position: 0, field: "nextSteps[0]", limit: 300) { text, _ in
      ["handoff", "create", "--focus", "Ship the beta", "--next", text]
    },
  ]

  /// `Cafe` with an acute accent on its `e` and as many more as make `scalars` Unicode scalars
  /// in all: 4 characters, one scalar fewer once NFC composes `e` + U+0301 into `é`.
  static func decomposed(scalars: Int) -> String {
    "Cafe" + String(repeating: "\u{301}", count: scalars - 4)
  }

  @Test("text one Unicode scalar over the bound as given, within it after NFC: capture and import both refuse it; at the bound both accept it", arguments: cases)
  func sameVerdict(_ c: Case) throws {
    let bound = 10 * c.limit
    let over = Self.decomposed(scalars: bound + 1)
    #expect(over.unicodeScalars.count == bound + 1 && over.count == 4)
    #expect(over.precomposedStringWithCanonicalMapping.unicodeScalars.count == bound, "NFC takes one scalar off")
    let said = "\(c.field) is 4 characters but \(bound + 1) Unicode scalars"

    // Capture refuses it.
    let target = CLI()
    defer { target.dir.remove() }
    let refused = try target.run(try c.capture(over, target.dir.url))
    #expect(refused.status == 4, "\(refused.stdout)\(refused.stderr)")
    #expect(refused.stderr.contains(" is 4 characters but \(bound + 1) Unicode scalars"), "\(refused.stderr)")

    // An export holding it in that field.
    let source = CLI()
    defer { source.dir.remove() }
    #expect(try source.run(["capture", "decision", "Use SQLite", "--content", "WAL mode, one file per workspace."]).status == 0)
    #expect(try source.run(["task", "add", "Write the README", "--notes", "Cover the install line."]).status == 0)
    #expect(try source.run(["handoff", "create", "--focus", "Ship the beta", "--summary", "Almost there.", "--next", "Tag v0.9"]).status == 0)
    let export = try source.run(["export"])
    try #require(export.status == 0, "\(export.stderr)")
    func file(_ text: String, _ name: String) throws -> (url: URL, id: String) {
      var document = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
      var workspace = try #require(document["workspace"] as? [String: Any])
      var records = try #require(workspace[c.collection] as? [[String: Any]])
      if let position = c.position {
        var list = try #require(records[0][c.key] as? [String])
        list[position] = text
        records[0][c.key] = list
      } else {
        records[0][c.key] = text
      }
      workspace[c.collection] = records
      document["workspace"] = workspace
      let url = source.dir.appending(name)
      try JSONSerialization.data(withJSONObject: document).write(to: url)
      return (url, try #require(records[0]["id"] as? String))
    }

    // Import refuses it as capture does, naming the record, the field, the limit and the size.
    let (overFile, id) = try file(over, "over.json")
    let imported = try target.run(["import", overFile.path, "--json"])
    #expect(imported.status == 4, "\(imported.stdout)\(imported.stderr)")
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any],
      "\(imported.stdout)")
    #expect(error["field"] as? String == "workspace.\(c.collection)[0].\(c.field)", "\(error)")
    let message = try #require(error["message"] as? String)
    #expect(
      message.hasPrefix("\(overFile.path): workspace.\(c.collection)[0] (id \(id)): \(said)"), "\(message)")
    #expect(
      message.hasSuffix(
        "the limit is \(c.limit) characters and at most \(bound) Unicode scalars in all (10 per character). Nothing was imported"),
      "\(message)")
    #expect(!FileManager.default.fileExists(atPath: target.workspace + "/workspace.sqlite"), "something was imported")

    // At the bound as given, both accept it.
    let within = Self.decomposed(scalars: bound)
    let (withinFile, _) = try file(within, "within.json")
    let accepted = try target.run(["import", withinFile.path])
    #expect(accepted.status == 0, "\(accepted.stdout)\(accepted.stderr)")
    let stored = try target.run(try c.capture(within, target.dir.url))
    #expect(stored.status == 0, "\(stored.stdout)\(stored.stderr)")
  }
}
