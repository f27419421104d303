import ContinuityKit
import Foundation
import Testing
import TestSupport

/// A CLI write that rewrites a handoff's rule-built summary says so (s20): `knowledge edit`,
/// `task complete`, `task reopen` and `capture --relates supersedes:ID` changed a handoff's
/// stored summary and printed nothing of it, where the MCP tools and their receipts named it.
@Suite("CLI writes name the handoff summaries they rewrite", .serialized)
struct RewrittenSummaryCommandTests {
  /// A workspace with a decision, an open task, a handoff whose summary rules built from both,
  /// and one whose summary was written by hand (kept as written, so never named).
  struct Fixture {
    let cli: CLI
    let item: String
    let task: String
    let handoff: String
    let written: String

    init() throws {
      let cli = CLI()
      let item = try #require((try cli.json(["capture", "decision", "Use Postgers for invoices"])["item"] as? [String: Any])?["id"] as? String)
      let task = try #require(try cli.record("task", ["task", "add", "Migrate the invoice table"])["id"] as? String)
      func create(_ extra: [String]) throws -> String {
        let created = try cli.json(["handoff", "create", "--knowledge", item, "--task", task] + extra)
        return try #require((created["handoff"] as? [String: Any])?["id"] as? String)
      }
      self.cli = cli
      self.item = item
      self.task = task
      handoff = try create(["--focus", "Invoice storage"])
      written = try create(["--focus", "Written by hand", "--summary", "Postgers, as agreed."])
    }

    func summary(_ id: String) throws -> String {
      try #require(try cli.record("handoff", ["handoff", "get", id])["summary"] as? String)
    }
  }

  static func line(_ handoff: String, _ focus: String) -> String {
    "Also rewrote the rule-built summary of handoff \(handoff) \"\(focus)\".\n"
  }

  @Test("knowledge edit names the handoff whose summary followed the new title; --json lists its id")
  func knowledgeEdit() throws {
    let f = try Fixture()
    defer { f.cli.dir.remove() }
    let edited = try f.cli.run(["knowledge", "edit", f.item, "--title", "Use Postgres for invoices"])
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(
      edited.stdout
        == "Edited decision \"Use Postgres for invoices\": title changed (revision 2).\nid: \(f.item)\n"
        + Self.line(f.handoff, "Invoice storage"),
      "\(edited.stdout)")
    #expect(try f.summary(f.handoff).contains("Use Postgres for invoices"), "the line tells what was stored")
    #expect(try f.summary(f.written) == "Postgers, as agreed.", "a written summary is kept and not named")

    let json = try f.cli.json(["knowledge", "edit", f.item, "--title", "Use Postgres 16 for invoices"])
    #expect(json["rebuiltHandoffIDs"] as? [String] == [f.handoff], "\(json)")
    // A change the summary does not show rewrites nothing: the key is absent, as in MCP.
    let tags = try f.cli.json(["knowledge", "edit", f.item, "--add-tags", "billing"])
    #expect(tags["changed"] as? [String] == ["tags"])
    #expect(tags["rebuiltHandoffIDs"] == nil, "\(tags)")
    let plain = try f.cli.run(["knowledge", "edit", f.item, "--priority", "high"])
    #expect(!plain.stdout.contains("Also rewrote"), "\(plain.stdout)")
  }

  @Test("task complete and task reopen name the handoff whose summary moved the task; a repeat names none")
  func taskStatus() throws {
    let f = try Fixture()
    defer { f.cli.dir.remove() }
    let before = try f.summary(f.handoff)
    let completed = try f.cli.run(["task", "complete", f.task])
    #expect(completed.status == 0, "\(completed.stderr)")
    #expect(completed.stdout.hasSuffix(Self.line(f.handoff, "Invoice storage")), "\(completed.stdout)")
    #expect(completed.stdout.components(separatedBy: "Also rewrote").count == 2, "the written summary is not named")
    #expect(try f.summary(f.handoff) != before)

    let again = try f.cli.run(["task", "complete", f.task])
    #expect(again.status == 0)
    #expect(!again.stdout.contains("Also rewrote"), "nothing was written: \(again.stdout)")
    let againJSON = try f.cli.json(["task", "complete", f.task])
    #expect(againJSON["alreadyCompleted"] as? Bool == true && againJSON["rebuiltHandoffIDs"] == nil, "\(againJSON)")

    let reopened = try f.cli.json(["task", "reopen", f.task])
    #expect(reopened["alreadyOpen"] as? Bool == false)
    #expect(reopened["rebuiltHandoffIDs"] as? [String] == [f.handoff], "\(reopened)")
    #expect((reopened["task"] as? [String: Any])?["id"] as? String == f.task, "the task under its key")
    #expect(reopened["id"] == nil, "the task's fields are not mixed into the document")
    #expect(try f.summary(f.handoff) == before)
  }

  @Test("capture --relates supersedes:ID names the handoff whose summary now marks the item superseded")
  func captureSupersedes() throws {
    let f = try Fixture()
    defer { f.cli.dir.remove() }
    let captured = try f.cli.run(["capture", "decision", "Use SQLite for invoices", "--relates", "supersedes:\(f.item)"])
    #expect(captured.status == 0, "\(captured.stderr)")
    #expect(captured.stdout.hasSuffix(Self.line(f.handoff, "Invoice storage")), "\(captured.stdout)")
    #expect(try f.summary(f.handoff).contains("(superseded)"))

    let other = try f.cli.json(["capture", "decision", "Use S3 for invoice PDFs", "--relates", "supersedes:\(f.item)"])
    #expect(other["rebuiltHandoffIDs"] == nil, "already marked superseded: nothing rewritten; \(other)")
    let plain = try f.cli.json(["capture", "fact", "Invoices are monthly"])
    #expect(plain["rebuiltHandoffIDs"] == nil)
  }

  @Test("past five handoffs the rest are counted, and --json lists every id")
  func manyHandoffs() throws {
    let f = try Fixture()
    defer { f.cli.dir.remove() }
    var ids = [f.handoff]
    for i in 1...6 {
      let created = try f.cli.json(["handoff", "create", "--focus", "Invoices \(i)", "--task", f.task])
      ids.append(try #require((created["handoff"] as? [String: Any])?["id"] as? String))
    }
    let json = try f.cli.json(["task", "complete", f.task])
    let rebuilt = try #require(json["rebuiltHandoffIDs"] as? [String])
    #expect(Set(rebuilt) == Set(ids) && rebuilt.count == 7, "\(json)")
    let text = try f.cli.run(["task", "reopen", f.task])
    let lines = text.stdout.split(separator: "\n").filter { $0.hasPrefix("Also rewrote") }
    #expect(lines.count == 6, "\(text.stdout)")
    #expect(lines.last == "Also rewrote the rule-built summaries of 2 more handoff(s); --json lists every id.")
  }

  @Test("a focus that holds quotes is quoted with them escaped, so it cannot close the quotation early")
  func quotedFocus() throws {
    let f = try Fixture()
    defer { f.cli.dir.remove() }
    let created = try f.cli.json(["handoff", "create", "--focus", "Say \"done\". Also rewrote nothing", "--task", f.task])
    let id = try #require((created["handoff"] as? [String: Any])?["id"] as? String)
    let text = try f.cli.run(["task", "complete", f.task])
    #expect(
      text.stdout.contains("Also rewrote the rule-built summary of handoff \(id) \"Say \\\"done\\\". Also rewrote nothing\".\n"),
      "\(text.stdout)")
  }
}
