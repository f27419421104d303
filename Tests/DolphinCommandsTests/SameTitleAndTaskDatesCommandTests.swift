import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Through the built binary: `dolphin capture` notes items of its kind that already have the
/// title, and tasks show, list and export the date of their last change.
@Suite("capture notes same titles; tasks show when they changed", .serialized)
struct SameTitleAndTaskDatesCommandTests {
  static func itemID(_ obj: [String: Any]) throws -> String {
    try #require((obj["item"] as? [String: Any])?["id"] as? String)
  }

  @Test("a second fact of the same title is stored, with one note line after its id; --json carries sameTitle")
  func captureNotesSameTitle() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let first = try Self.itemID(try cli.json(["capture", "fact", "Staging database runs PostgreSQL 16"]))
    let json = try cli.json(["capture", "fact", "staging database runs postgresql 16"])
    #expect(json["sameTitle"] as? [String] == [first], "\(json)")
    #expect(json["sameTitleTotal"] as? Int == 1, "\(json)")

    let text = try cli.run(["capture", "fact", "Staging  Database runs PostgreSQL 16"])
    #expect(text.status == 0, "\(text.stderr)")
    let lines = text.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(text.stdout)")
    #expect(lines[0] == "Captured fact \"Staging  Database runs PostgreSQL 16\"")
    #expect(lines[1].hasPrefix("id: "))
    let second = try Self.itemID(json)
    // Newest change first: the one captured second, then the first.
    #expect(
      lines[2]
        == "note: 2 facts already have this title: \(second), \(first) (see one with: dolphin knowledge get \(second) "
        + "--workspace \(cli.workspace); change it in place with: dolphin knowledge edit \(second) --workspace \(cli.workspace))",
      "\(lines[2])")
    #expect(text.stderr.isEmpty, "\(text.stderr)")
    #expect(try cli.json(["knowledge", "list"])["total"] as? Int == 3, "all three stored")

    // None: an empty list, and no note line.
    let other = try cli.json(["capture", "decision", "Staging database runs PostgreSQL 16"])
    #expect(other["sameTitle"] as? [String] == [], "another kind: \(other)")
    #expect(other["sameTitleTotal"] as? Int == 0)
    let plain = try cli.run(["capture", "goal", "Move staging to PostgreSQL 17"])
    #expect(!plain.stdout.contains("note:"), "\(plain.stdout)")
  }

  @Test("one earlier item: the note reads in the singular; more than five: five ids and how many more")
  func noteWording() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let first = try Self.itemID(try cli.json(["capture", "code", "Retry wrapper for HTTP calls"]))
    let one = try cli.run(["capture", "code", "Retry wrapper for HTTP calls"])
    #expect(
      one.stdout.contains(
        "\nnote: 1 code item already has this title: \(first) (see it with: dolphin knowledge get \(first) --workspace "
          + "\(cli.workspace); change it in place with: dolphin knowledge edit \(first) --workspace \(cli.workspace))\n"),
      "\(one.stdout)")
    for _ in 1...5 { #expect(try cli.run(["capture", "code", "Retry wrapper for HTTP calls"]).status == 0) }
    let many = try cli.run(["capture", "code", "Retry wrapper for HTTP calls"])
    let note = try #require(many.stdout.split(separator: "\n").first { $0.hasPrefix("note: ") }, "\(many.stdout)")
    #expect(note.hasPrefix("note: 7 code items already have this title: "), "\(note)")
    #expect(note.contains(" and 2 more (see one with: dolphin knowledge get "), "\(note)")
    #expect(!note.contains(first), "the oldest is among those counted, not listed: \(note)")
    let json = try cli.json(["capture", "code", "Retry wrapper for HTTP calls"])
    #expect((json["sameTitle"] as? [String])?.count == 5 && json["sameTitleTotal"] as? Int == 8, "\(json)")
  }

  @Test("task get shows when the task last changed; task list --json and export carry updatedAt")
  func taskDates() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let added = try cli.record("task", ["task", "add", "Write the migration guide"])
    let id = try #require(added["id"] as? String)
    let createdAt = try #require(added["createdAt"] as? String)
    #expect(added["updatedAt"] as? String == createdAt)
    let get = try cli.run(["task", "get", id])
    #expect(get.stdout.contains("\ncreated:   \(createdAt)\nupdated:   \(createdAt)\n"), "\(get.stdout)")

    #expect(try cli.run(["task", "edit", id, "--notes", "Cover WAL mode"]).status == 0)
    let edited = try cli.record("task", ["task", "get", id])
    let updatedAt = try #require(edited["updatedAt"] as? String)
    #expect(updatedAt > createdAt, "\(updatedAt) after \(createdAt)")
    #expect(edited["createdAt"] as? String == createdAt)
    #expect(try cli.run(["task", "get", id]).stdout.contains("\nupdated:   \(updatedAt)\n"))

    let listed = try #require((try cli.json(["task", "list"])["tasks"] as? [[String: Any]])?.first)
    #expect(listed["updatedAt"] as? String == updatedAt, "\(listed)")
    let exportRun = try cli.run(["export"])
    #expect(exportRun.status == 0, "\(exportRun.stderr)")
    let export = try #require(try JSONSerialization.jsonObject(with: Data(exportRun.stdout.utf8)) as? [String: Any])
    let exported = try #require(((export["workspace"] as? [String: Any])?["tasks"] as? [[String: Any]])?.first)
    #expect(exported["updatedAt"] as? String == updatedAt, "\(exported)")
  }

  @Test("the restore brief lists a task edited since the handoff as updated")
  func briefShowsEditedTask() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let task = try #require(try cli.record("task", ["task", "add", "Review the backup script"])["id"] as? String)
    let handoff = try #require(
      (try cli.json(["handoff", "create", "--focus", "Backups", "--task", task])["handoff"] as? [String: Any])?["id"]
        as? String)
    // Dates are kept to the millisecond: wait past the handoff's so the edit is dated after it.
    usleep(5_000)
    #expect(try cli.run(["task", "edit", task, "--priority", "critical"]).status == 0)
    let text = try cli.run(["handoff", "restore", handoff])
    #expect(text.stdout.contains("Tasks added, completed or updated since this handoff (1 of 1):"), "\(text.stdout)")
    #expect(text.stdout.contains("  - \(task)  task [open] (updated since): \"Review the backup script\""), "\(text.stdout)")
  }
}
