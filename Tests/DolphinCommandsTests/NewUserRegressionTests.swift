import Foundation
import Testing
import TestSupport

/// Problems a new user found by trying the CLI from the README; each stays fixed.
@Suite("New-user regressions", .serialized)
struct NewUserRegressionTests {
  typealias Case = CLICase

  static let cases: [Case] = [
    Case(name: "handoff focus with a credential", args: ["handoff", "create", "--focus", "password=hunter22222"], status: 4, stderr: "dolphin: error: --focus looks like it holds a credential"),
    Case(name: "handoff summary with a credential", args: ["handoff", "create", "--focus", "deploy", "--summary", "api_key: sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD"], status: 4, stderr: "dolphin: error: --summary looks like it holds a credential"),
    Case(name: "handoff step with a credential", args: ["handoff", "create", "--focus", "deploy", "--next", "use ghp_abcdefghijklmnopqrstuvwxyz0123456789"], status: 4, stderr: "dolphin: error: --next #1 looks like it holds a credential"),
    Case(name: "ask with a credential", args: ["ask", "/capture decision: password=hunter22222 | Y", "--yes"], status: 4, stderr: "message looks like it holds a credential"),
    Case(name: "empty --workspace", args: ["status", "--workspace", ""], status: 2, stderr: "--workspace needs a directory path"),
    Case(name: "a write without approval", args: ["ask", "/capture decision: X | Y"], status: 1, stderr: "knowledge_capture was denied"),
    Case(name: "restore of an unknown handoff", args: ["ask", "/restore 00000000-0000-0000-0000-000000000000", "--yes"], status: 3, stderr: "handoff_restore failed: no handoff has the id"),
    Case(name: "a bad kind through ask", args: ["ask", "/capture bogus: X | Y", "--yes"], status: 4, stderr: "knowledge_capture failed: arguments.kind 'bogus' is not one of"),
    Case(name: "a model URL off the machine", args: ["ask", "hi", "--model-url", "http://example.com"], status: 2, stderr: "refused"),
    Case(name: "analyze a missing path", args: ["analyze", "/nonexistent/dolphin-path"], status: 3, stderr: "/nonexistent/dolphin-path: no such file or directory"),
    Case(name: "an unknown ask command", args: ["ask", "/unknown foo"], status: 2, stderr: "dolphin: error: unknown command /unknown"),
    Case(name: "an incomplete ask command", args: ["ask", "/capture decision:"], status: 2, stderr: "dolphin: error: /capture needs a title (usage: /capture <kind>: <title> [| <content>])"),
  ]

  @Test("refusals and failures have the documented exit codes", arguments: cases)
  func exits(_ c: Case) throws {
    let dir = TemporaryDirectory("nu")
    defer { dir.remove() }
    let args = c.args.contains("--workspace") ? c.args : c.args + ["--workspace", dir.appending("ws").path]
    let r = try runDolphin(args)
    #expect(r.status == c.status, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stderr.contains(c.stderr), "\(r.stderr)")
  }

  @Test("search review: an id as a query points to knowledge get; a tag matches without accents; migrated memories are hinted")
  func searchReview() throws {
    let dir = TemporaryDirectory("nu-search")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let id = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
    #expect(try runDolphin(["capture", "fact", "Hauptstraße renovation", "--tags", "Café", "--workspace", ws]).status == 0)
    let byID = try runDolphin(["search", id, "--workspace", ws])
    #expect(byID.stdout.contains("To look up a record by its id: dolphin knowledge get \(id)"), "\(byID.stdout)")
    let tagged = try runDolphin(["search", "renovation", "--tag", "cafe", "--workspace", ws])
    #expect(tagged.stdout.contains("1 shown of 1 match(es)"), "\(tagged.stdout)")
    #expect(try runDolphin(["knowledge", "list", "--tag", "CAFE", "--workspace", ws]).stdout.contains("Hauptstraße renovation"))
    let legacy = dir.appending("legacy.json")
    try Data(#"{"conversations":[],"memories":[{"id":"\#(id)","text":"legacy \u001b[31mnewline\u001b[0m memo","createdAt":"2025-01-06T09:20:00Z"}]}"#.utf8).write(to: legacy)
    #expect(try runDolphin(["migrate", legacy.path, "--workspace", ws]).status == 0)
    let onlyMemories = try runDolphin(["search", "newline", "--workspace", ws])
    #expect(onlyMemories.stdout.contains("(add --include-memories, or use dolphin memory search)"), "\(onlyMemories.stdout)")
    let memory = try runDolphin(["search", "newline", "--include-memories", "--workspace", ws])
    #expect(memory.stdout.contains("memory (legacy)  score "), "\(memory.stdout)")
    #expect(memory.stdout.contains("legacy newline memo"), "\(memory.stdout)")
    // A word longer than 64 characters matches on its first 64, and --explain says so.
    let long = String(repeating: "a", count: 64)
    #expect(try runDolphin(["capture", "fact", "Long token", "--content", long + "bbbbbb is a hash", "--workspace", ws]).status == 0)
    let explained = try runDolphin(["search", long + "zzzzzz", "--explain", "--workspace", ws])
    #expect(explained.stdout.contains("exact (on its first 64 characters; longer words are cut there)"), "\(explained.stdout)")
  }

  @Test("a refused ask stores nothing, not even the chat message")
  func refusedAskStoresNothing() throws {
    let dir = TemporaryDirectory("nu2")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    _ = try runDolphin(["ask", "/capture decision: password=hunter22222 | Y", "--yes", "--workspace", ws])
    let status = try runDolphin(["status", "--json", "--workspace", ws])
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
    #expect((obj["counts"] as? [String: Any])?["message"] as? Int == 0)
    #expect((obj["counts"] as? [String: Any])?["knowledge"] as? Int == 0)
  }

  @Test("an over-long ask is refused before any route or plan is printed")
  func overLongAskShowsNoPlan() throws {
    let dir = TemporaryDirectory("nu3")
    defer { dir.remove() }
    let r = try runDolphin(["ask", String(repeating: "search ", count: 2_400), "--workspace", dir.appending("ws").path])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr.contains("message is 16800 characters; the limit is 16000"), "\(r.stderr)")
    #expect(!r.stderr.contains("route:") && !r.stderr.contains("plan:"), "\(r.stderr)")
  }

  @Test("--allow-credentials lets the user store a handoff deliberately")
  func allowCredentials() throws {
    let dir = TemporaryDirectory("nu3")
    defer { dir.remove() }
    let r = try runDolphin(["handoff", "create", "--focus", "password=hunter22222", "--allow-credentials", "--workspace", dir.appending("ws").path])
    #expect(r.status == 0, "\(r.stderr)")
  }

  @Test("deleting an item scrubs its title from rule-generated handoff summaries, on disk too")
  func deletionScrubsSummaries() throws {
    let dir = TemporaryDirectory("nu4")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let c = try runDolphin(["capture", "decision", "Secret project codename Bluebird", "--json", "--workspace", ws])
    let id = try #require(((try JSONSerialization.jsonObject(with: Data(c.stdout.utf8)) as? [String: Any])?["item"] as? [String: Any])?["id"] as? String)
    let h = try runDolphin(["handoff", "create", "--focus", "carry", "--knowledge", id, "--workspace", ws])
    #expect(h.stdout.contains("Bluebird"))
    let d = try runDolphin(["knowledge", "delete", id, "--yes", "--workspace", ws])
    #expect(d.stdout.contains("rebuild its rule-generated summary without it"))
    let list = try runDolphin(["handoff", "list", "--json", "--workspace", ws])
    #expect(!list.stdout.contains("Bluebird"))
    #expect(list.stdout.contains("(0 knowledge items, 0 tasks): none were selected."), "\(list.stdout)")
    for name in (try FileManager.default.contentsOfDirectory(atPath: ws)) {
      let data = try Data(contentsOf: URL(fileURLWithPath: ws).appendingPathComponent(name))
      #expect(data.range(of: Data("Bluebird".utf8)) == nil, "\(name)")
    }
  }

  @Test("deleting a record never rewrites a hand-written summary; a generated one is rebuilt from what stays")
  func deletionKeepsWrittenSummaries() throws {
    let dir = TemporaryDirectory("nu5")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    func id(_ args: [String]) throws -> String {
      let r = try runDolphin(args + ["--json", "--workspace", ws])
      let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
      return try #require(((obj["item"] as? [String: Any]) ?? obj)["id"] as? String, "\(r.stdout)")
    }
    let a = try id(["capture", "decision", "a"])
    let keep = try id(["capture", "fact", "Use SQLite"])
    let decision = try id(["capture", "decision", "Use SQLite"])
    let task = try id(["task", "add", "Bench Use SQLite"])
    #expect(try runDolphin(["handoff", "create", "--focus", "written", "--summary", "Migrate the database and update the readme", "--knowledge", a, "--workspace", ws]).status == 0)
    #expect(try runDolphin(["handoff", "create", "--focus", "generated", "--knowledge", keep, "--knowledge", decision, "--task", task, "--workspace", ws]).status == 0)
    #expect(try runDolphin(["knowledge", "delete", a, "--yes", "--workspace", ws]).stdout.contains("(its summary, written by hand, is kept as written)"))
    #expect(try runDolphin(["knowledge", "delete", decision, "--yes", "--workspace", ws]).status == 0)
    #expect(try runDolphin(["task", "delete", task, "--yes", "--workspace", ws]).status == 0)
    let list = try runDolphin(["handoff", "list", "--json", "--workspace", ws]).stdout
    let handoffs = try #require((try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String: Any])?["handoffs"] as? [[String: Any]])
    let summaries = Dictionary(uniqueKeysWithValues: handoffs.map { ($0["focus"] as? String ?? "", $0["summary"] as? String ?? "") })
    #expect(summaries["written"] == "Migrate the database and update the readme")
    // The fact of the same title stays named; the deleted decision and task are gone.
    #expect(summaries["generated"]?.hasSuffix(#"(1 knowledge item, 0 tasks): Knowledge: fact "Use SQLite"."#) == true, "\(summaries)")
  }

  @Test("erase says when erased ids are still mentioned by kept records instead of claiming none remains")
  func eraseNamesMentionsInKeptRecords() throws {
    let dir = TemporaryDirectory("nu6")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["ask", "/capture decision: Adopt Rust | parser", "--yes", "--workspace", ws]).status == 0)
    let erase = try runDolphin(["erase", "--kind", "knowledge", "--yes", "--workspace", ws])
    #expect(erase.status == 0, "\(erase.stderr)")
    #expect(erase.stdout.contains("no erased record remains on disk, but 1 of the 1 erased id(s) are still mentioned by records you kept"), "\(erase.stdout)")
    #expect(!erase.stdout.contains("none of the 1 erased record id(s) remains on disk"))
    // Erasing the activity that mentions it leaves nothing.
    let activity = try runDolphin(["erase", "--kind", "all", "--yes", "--workspace", ws])
    #expect(activity.stdout.contains("Verified:"), "\(activity.stdout)")
  }

  @Test("an option left without its value does not swallow the next option")
  func optionValueIsNotAnOption() throws {
    let dir = TemporaryDirectory("nu5")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let r = try runDolphin(["capture", "fact", "t", "--content", "--json", "--workspace", ws])
    #expect(r.status == 2, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stderr.contains("--content needs a value (TEXT), but the next argument '--json' is an option"))
    #expect(r.stderr.contains("write --content=--json"))
    #expect(!FileManager.default.fileExists(atPath: ws), "nothing was opened or stored")

    // `--workspace --json` must not create a directory named `--json` where dolphin runs.
    let sh = try runProcess(
      "/bin/sh", ["-c", "cd \"$1\" && \"$2\" capture fact t4 --workspace --json", "sh", dir.path, dolphinExecutable().path])
    #expect(sh.status == 2, "\(sh.stderr)")
    #expect(sh.stderr.contains("--workspace needs a value (DIR)"))
    #expect(!FileManager.default.fileExists(atPath: dir.appending("--json").path))

    // The inline form is how a value that begins with -- is given on purpose.
    let inline = try runDolphin(["capture", "fact", "t", "--content=--json", "--json", "--workspace", ws])
    #expect(inline.status == 0, "\(inline.stderr)")
    #expect(inline.stdout.contains("\"content\" : \"--json\""))
  }

  @Test("an argument that is not valid UTF-8 is refused, not repaired and stored")
  func invalidUTF8Argument() throws {
    let dir = TemporaryDirectory("nu6")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    // Process takes Swift strings, which cannot hold invalid UTF-8: let the shell make the byte.
    let r = try runProcess(
      "/bin/sh", ["-c", #""$1" capture fact "$(printf 'bad \377 title')" --workspace "$2""#, "sh", dolphinExecutable().path, ws])
    #expect(r.status == 2, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stderr.contains(#"argument 3 after `dolphin` is not valid UTF-8: 'bad \xFF title'"#), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: ws), "nothing was opened or stored")
  }

  @Test("--help --json prints one JSON document")
  func helpJSON() throws {
    for args in [["--help", "--json"], ["capture", "--help", "--json"]] {
      let r = try runDolphin(args)
      #expect(r.status == 0)
      #expect((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) != nil, "\(args)")
    }
  }

  @Test("arguments echoed in errors cannot drive the terminal")
  func escapesInErrors() throws {
    let r = try runDolphin(["unknown\u{1B}[31m"])
    #expect(r.status == 2)
    #expect(!r.stderr.contains("\u{1B}"))
    #expect(r.stderr.contains("␛[31m"))
  }
}
