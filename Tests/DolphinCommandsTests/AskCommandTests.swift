import Foundation
import Testing
import TestSupport

/// `dolphin ask`: what a refused request leaves behind, and how `--json` reports failures.
@Suite("dolphin ask", .serialized)
struct AskCommandTests {
  typealias Case = CLICase

  /// Requests refused before anything runs, with their exit status and stderr.
  static let refused: [Case] = [
    Case(name: "an unknown command", args: ["ask", "/unknown foo"], status: 2, stderr: "dolphin: error: unknown command /unknown (commands: /search /get /capture /remember /context /review /insights /handoff /handoffs /restore /analyze /tasks /task /done /reopen /help; /help shows their usage)\n"),
    Case(
      name: "an incomplete command", args: ["ask", "/capture decision:", "--yes"], status: 2,
      stderr: "dolphin: error: /capture needs a title (usage: /capture <kind>: <title> [| <content>])\n"),
    Case(
      name: "a message of control characters only", args: ["ask", "\u{1B}\u{7}"], status: 4,
      stderr: "dolphin: error: message has nothing printable: all 2 character(s) given are control or invisible characters"),
    Case(
      name: "a message of a zero-width space only", args: ["ask", "\u{200B}"], status: 4,
      stderr: "dolphin: error: message has nothing printable: all 1 character(s) given are control or invisible characters"),
    // Regression cases from a review (s8/h5): an argument only of characters that show
    // nothing exited 4 after storing the chat message and a failed receipt.
    Case(
      name: "/search with a Braille blank", args: ["ask", "/search \u{2800}"], status: 2,
      stderr: "dolphin: error: /search needs words to search for (usage: "),
    Case(
      name: "/search with a soft hyphen", args: ["ask", "/search \u{AD}"], status: 2,
      stderr: "dolphin: error: /search needs words to search for (usage: "),
    Case(
      name: "/task with a Braille blank", args: ["ask", "/task \u{2800}", "--yes"], status: 2,
      stderr: "dolphin: error: /task needs a title (usage: "),
    Case(
      name: "/remember with soft hyphens", args: ["ask", "/remember \u{AD}\u{AD}", "--yes"], status: 2,
      stderr: "dolphin: error: /remember needs text (usage: "),
    Case(
      name: "/handoff with a Hangul filler", args: ["ask", "/handoff \u{3164}", "--yes"], status: 2,
      stderr: "dolphin: error: /handoff needs a focus (usage: "),
    Case(
      name: "/capture with a Braille blank title", args: ["ask", "/capture fact: \u{2800} | body", "--yes"], status: 2,
      stderr: "dolphin: error: /capture needs a title (usage: "),
    Case(name: "a credential", args: ["ask", "/capture decision: password=hunter22222 | Y", "--yes"], status: 4, stderr: "message looks like it holds a credential"),
    Case(name: "a model URL off the machine", args: ["ask", "hi", "--model-url", "http://example.com"], status: 2, stderr: "refused"),
  ]

  static func counts(_ ws: String) throws -> [String: Int] {
    let status = try runDolphin(["status", "--json", "--workspace", ws])
    let obj = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
    return try #require(obj?["counts"] as? [String: Int], "\(status.stdout)\(status.stderr)")
  }

  /// Review (s16): with no model configured, the route line read as if a model would answer.
  @Test("free text without a model: the route line says the answer is rendered deterministically")
  func routeWithoutModel() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.json(["capture", "decision", "Use SQLite for the workspace"])
    let r = try cli.run(["ask", "what database do we use?"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stderr.contains("route: modelAssistedRead — free text: read-only knowledge search for grounding, no writes "
        + "(no model configured: the answer is rendered deterministically from the search)"), "\(r.stderr)")
    #expect(r.stdout.hasPrefix("Deterministic answer (no model configured)"), "\(r.stdout)")
  }

  @Test("a refused request creates no workspace and shows no route or plan", arguments: refused)
  func refusedCreatesNoWorkspace(_ c: Case) throws {
    let dir = TemporaryDirectory("ask-refused")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let r = try runDolphin(c.args + ["--workspace", ws])
    #expect(r.status == c.status, "\(r.stderr)")
    #expect(r.stderr.contains(c.stderr), "\(r.stderr)")
    #expect(!r.stderr.contains("route:") && !r.stderr.contains("plan:"), "\(r.stderr)")
    #expect(r.stdout.isEmpty, "\(r.stdout)")
    #expect(!FileManager.default.fileExists(atPath: ws))
  }

  @Test("a refused request stores nothing in an existing workspace: no message, conversation, receipt or checkpoint", arguments: refused)
  func refusedStoresNothing(_ c: Case) throws {
    let dir = TemporaryDirectory("ask-refused-existing")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["capture", "fact", "Seed", "--workspace", ws]).status == 0)
    let before = try Self.counts(ws)
    let r = try runDolphin(c.args + ["--workspace", ws])
    #expect(r.status == c.status, "\(r.stderr)")
    let after = try Self.counts(ws)
    #expect(after == before)
    for table in ["conversation", "message", "receipt", "checkpoint"] { #expect(after[table] == 0, "\(table): \(after)") }
  }

  @Test("--json: a refused request prints the shared error document, with no run in it")
  func jsonUsageError() throws {
    let dir = TemporaryDirectory("ask-json-usage")
    defer { dir.remove() }
    let r = try runDolphin(["ask", "/captur decision: X", "--json", "--workspace", dir.appending("ws").path])
    #expect(r.status == 2, "\(r.stderr)")
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
    #expect(Set(doc.keys) == ["error"], "\(r.stdout)")
    let error = try #require(doc["error"] as? [String: Any])
    #expect(error["kind"] as? String == "usage")
    #expect(error["exitCode"] as? Int == 2)
    #expect(error["message"] as? String == "unknown command /captur; did you mean /capture? (commands: /search /get /capture /remember /context /review /insights /handoff /handoffs /restore /analyze /tasks /task /done /reopen /help; /help shows their usage)")
    #expect(error["run"] == nil)
  }

  /// A run whose call did not succeed, with the error kind, exit code and receipt outcome.
  struct FailedCall: CustomStringConvertible, Sendable {
    var name: String
    var args: [String]
    var kind: String
    var status: Int32
    var message: String
    var outcome: String
    /// The argument the call was refused for, named in `error.field` (review 19-b, F8).
    var field: String? = nil
    var description: String { name }
  }

  static let failedCalls: [FailedCall] = [
    FailedCall(
      name: "a write without approval", args: ["ask", "/capture decision: X | Y"], kind: "aborted", status: 1,
      message: "knowledge_capture was denied: approval needed: run in a terminal or pass --yes", outcome: "denied"),
    FailedCall(
      name: "a restore of an unknown handoff", args: ["ask", "/restore 00000000-0000-0000-0000-000000000000", "--yes"],
      kind: "notFound", status: 3,
      message: "handoff_restore failed: no handoff has the id 00000000-0000-0000-0000-000000000000", outcome: "failed"),
    FailedCall(
      name: "a bad kind", args: ["ask", "/capture bogus: X | Y", "--yes"], kind: "validation", status: 4,
      message: "knowledge_capture failed: arguments.kind 'bogus' is not one of", outcome: "failed", field: "arguments.kind"),
    FailedCall(
      name: "a title over its bound", args: ["ask", "/capture decision: \(String(repeating: "t", count: 301))", "--yes"],
      kind: "validation", status: 4,
      message: "knowledge_capture failed: arguments.title is 301 characters; the limit is 300 characters", outcome: "failed",
      field: "arguments.title"),
  ]

  @Test("--json: a run whose call failed prints the error document, with the run and its receipts under error.run", arguments: failedCalls)
  func jsonFailedRun(_ c: FailedCall) throws {
    let dir = TemporaryDirectory("ask-json-failed")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    // Where the workspace exists, the run is recorded with its receipts.
    #expect(try runDolphin(["capture", "fact", "Seed", "--workspace", ws]).status == 0)
    let r = try runDolphin(c.args + ["--json", "--workspace", ws])
    #expect(r.status == c.status, "\(r.stderr)")
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
    #expect(Set(doc.keys) == ["error"], "\(r.stdout)")
    let error = try #require(doc["error"] as? [String: Any])
    #expect(error["kind"] as? String == c.kind)
    #expect(error["exitCode"] as? Int == Int(c.status))
    #expect((error["message"] as? String)?.hasPrefix(c.message) == true, "\(error)")
    #expect(error["field"] as? String == c.field, "\(error)")
    let run = try #require(error["run"] as? [String: Any], "\(error)")
    #expect(run["route"] as? String == "deterministic")
    let receipts = try #require(run["receipts"] as? [[String: Any]])
    #expect(receipts.map { $0["outcome"] as? String } == [c.outcome])
    // The receipt in the document is the one stored.
    let activity = try runDolphin(["activity", "--json", "--workspace", ws])
    let stored = try JSONSerialization.jsonObject(with: Data(activity.stdout.utf8)) as? [String: Any]
    let storedIDs = (stored?["receipts"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
    #expect(storedIDs == receipts.compactMap { $0["id"] as? String })
    #expect(run["recorded"] as? Bool == true)
  }

  // Regression (s9/h2): a run whose call failed created a missing workspace (or completed a
  // 0-byte workspace.sqlite) to store the chat messages and the failed receipt.
  @Test("a run whose call does not succeed on a missing workspace creates nothing and says so", arguments: failedCalls)
  func failedRunOnMissingWorkspace(_ c: FailedCall) throws {
    let dir = TemporaryDirectory("ask-failed-missing")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let note = "; nothing was recorded and no workspace was created: there is none at \(ws) yet, and a run whose call does not succeed does not create one"
    let text = try runDolphin(c.args + ["--receipts", "--workspace", ws])
    #expect(text.status == c.status, "\(text.stderr)")
    #expect(text.stdout.contains("Receipts (1, not stored):"), "\(text.stdout)")
    #expect(text.stderr.contains("dolphin: error: \(c.message)"), "\(text.stderr)")
    #expect(text.stderr.hasSuffix(note + "\n"), "\(text.stderr)")
    #expect(!FileManager.default.fileExists(atPath: ws))

    let json = try runDolphin(c.args + ["--json", "--workspace", ws])
    #expect(json.status == c.status, "\(json.stderr)")
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
    let error = try #require(doc["error"] as? [String: Any])
    #expect(error["kind"] as? String == c.kind)
    #expect((error["message"] as? String)?.hasSuffix(note) == true, "\(error)")
    let run = try #require(error["run"] as? [String: Any], "\(error)")
    #expect(run["recorded"] as? Bool == false)
    #expect((run["receipts"] as? [[String: Any]])?.map { $0["outcome"] as? String } == [c.outcome])
    #expect(!FileManager.default.fileExists(atPath: ws))

    // A 0-byte workspace.sqlite (an interrupted first run) is no workspace yet either.
    try FileManager.default.createDirectory(atPath: ws, withIntermediateDirectories: false)
    let db = ws + "/workspace.sqlite"
    #expect(FileManager.default.createFile(atPath: db, contents: Data()))
    let blank = try runDolphin(c.args + ["--workspace", ws])
    #expect(blank.status == c.status, "\(blank.stderr)")
    #expect(blank.stderr.hasSuffix(note + "\n"), "\(blank.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: ws) == ["workspace.sqlite"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)).isEmpty)
  }

  @Test("a run whose write succeeds on a missing workspace creates it and records the run", arguments: [
    ["ask", "/capture decision: Adopt SQLite | WAL", "--yes"], ["ask", "/task add Buy milk", "--yes"],
  ])
  func successfulRunOnMissingWorkspace(_ args: [String]) throws {
    let dir = TemporaryDirectory("ask-ok-missing")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let r = try runDolphin(args + ["--workspace", ws])
    #expect(r.status == 0, "\(r.stderr)")
    let counts = try Self.counts(ws)
    #expect(counts["conversation"] == 1 && counts["message"] == 2, "\(counts)")
  }

  @Test("--json: a successful run still prints the run document itself")
  func jsonSuccess() throws {
    let dir = TemporaryDirectory("ask-json-ok")
    defer { dir.remove() }
    let r = try runDolphin(["ask", "/capture decision: Adopt SQLite | WAL", "--yes", "--json", "--workspace", dir.appending("ws").path])
    #expect(r.status == 0, "\(r.stderr)")
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
    #expect(doc["error"] == nil)
    #expect(doc["route"] as? String == "deterministic")
    #expect((doc["receipts"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["succeeded"])
  }

  // Review 18-b (B7, B13): `ask hello` on a mistyped --workspace created it; `/help` was unknown.
  @Test("free text, small talk and /help on a missing workspace answer, record nothing and create nothing")
  func readsCreateNothing() throws {
    let dir = TemporaryDirectory("ask-read-missing")
    defer { dir.remove() }
    let ws = dir.appending("nx").path
    for message in ["hello", "what did we decide about storage?", "/help", "/search storage"] {
      let r = try runDolphin(["ask", message, "--workspace", ws])
      #expect(r.status == 0, "\(message): \(r.stderr)")
      #expect(
        r.stderr.contains("dolphin: notice: nothing was recorded: there is no workspace at \(ws) yet"), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: ws), "\(message) created the workspace")
    }
    let help = try runDolphin(["ask", "/help", "--workspace", ws])
    #expect(help.stdout.contains("/task [add] <title>"), "\(help.stdout)")
    #expect(help.stdout.contains("/reopen <uuid>"), "\(help.stdout)")
    let json = try runDolphin(["ask", "hello", "--json", "--workspace", ws])
    #expect(json.stdout.contains(#""recorded" : false"#), "\(json.stdout)")
    // A write that succeeds creates it, with the chat of that run.
    let task = try runDolphin(["ask", "/task add Buy milk", "--yes", "--workspace", ws])
    #expect(task.status == 0, "\(task.stderr)")
    let list = try runDolphin(["task", "list", "--json", "--workspace", ws])
    #expect(list.stdout.contains(#""title" : "Buy milk""#), "\(list.stdout)")
    let usage = try runDolphin(["ask", "--help"])
    #expect(usage.stdout.contains("/task [add] <title>") && usage.stdout.contains("/help"), "\(usage.stdout)")
  }
}
