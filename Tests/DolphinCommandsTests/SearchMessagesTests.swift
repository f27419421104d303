import Foundation
import Testing
import TestSupport

/// Review 18-a (A4, A7, A8): search filters, empty-result wording, the id hint, and demo.
@Suite("Search messages and filters", .serialized)
struct SearchMessagesTests {
  @Test("--include-memories with --tag is refused as with --kind (exit 2), naming both options")
  func tagWithMemoriesRefused() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.run(["memory", "save", "grafana dashboards", "--tags", "db"])
    let r = try cli.run(["search", "grafana", "--include-memories", "--tag", "db"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("--tag and --include-memories cannot be combined"), "\(r.stderr)")
    // Review 26-a, #3: memories do carry tags (the one saved above is listed with it).
    #expect(r.stderr.contains("--tag filters knowledge items only"), "\(r.stderr)")
    #expect(!r.stderr.contains("no tags"), "\(r.stderr)")
    let saved = try cli.json(["memory", "list"])
    #expect(((saved["memories"] as? [[String: Any]])?.first?["tags"] as? [String]) == ["db"], "\(saved)")
    #expect(r.stdout.isEmpty)
    let kind = try cli.run(["search", "grafana", "--include-memories", "--kind", "fact"])
    #expect(kind.status == 2 && kind.stderr.contains("--kind and --include-memories cannot be combined"))
  }

  @Test("a workspace with no knowledge says so, as knowledge list does (text and JSON)")
  func emptyWorkspace() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.run(["task", "add", "Only a task"])
    let r = try cli.run(["search", "grafana"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.contains("No results: the workspace holds no knowledge item to search; `dolphin capture KIND TITLE --workspace \(cli.workspace)` adds one."),
      "\(r.stdout)")
    let json = try cli.json(["search", "grafana"])
    #expect(json["emptyReason"] as? String == "noRecords")
    #expect(json["scope"] as? String == "knowledge")
    let memories = try cli.run(["memory", "search", "grafana"])
    #expect(memories.stdout.contains("No results: the workspace holds no memory to search; `dolphin memory save TEXT --workspace \(cli.workspace)` adds one."), "\(memories.stdout)")
  }

  @Test("a plain search names knowledge items only; with --include-memories it names memories too")
  func wordingFollowsScope() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.run(["capture", "fact", "Grafana runs on port 3000"])
    let plain = try cli.run(["search", "zzyzx"])
    #expect(plain.stdout.contains("No results: 'zzyzx' (or a close spelling of it) occurs in no knowledge item."), "\(plain.stdout)")
    #expect(!plain.stdout.contains("or memory"))
    let both = try cli.run(["search", "zzyzx", "--include-memories"])
    #expect(both.stdout.contains("occurs in no knowledge item or memory."), "\(both.stdout)")
  }

  @Test("searching a record's id points to the command for its type, or says no record has it")
  func idHint() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let task = try #require(try cli.record("task", ["task", "add", "Write the plan"])["id"] as? String)
    let item = try #require((try cli.json(["capture", "fact", "Grafana"])["item"] as? [String: Any])?["id"] as? String)
    let t = try cli.run(["search", task])
    #expect(t.stdout.contains("\(task) is a task's id; search matches words, not ids: dolphin task get \(task) --workspace \(cli.workspace) shows it"), "\(t.stdout)")
    #expect(!t.stdout.contains("knowledge get"))
    let k = try cli.run(["search", item])
    #expect(k.stdout.contains("To look up a record by its id: dolphin knowledge get \(item)"), "\(k.stdout)")
    let none = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    let n = try cli.run(["search", none])
    #expect(n.stdout.contains("No record in this workspace has the id \(none); search matches words, not ids"), "\(n.stdout)")
    // Review 18-d, M2: `memory search` sent every id to `knowledge get`; `task search` said nothing.
    let m = try cli.run(["memory", "search", task])
    #expect(m.stdout.contains("\(task) is a task's id"), "\(m.stdout)")
    #expect(!m.stdout.contains("knowledge get"), "\(m.stdout)")
    let ts = try cli.run(["task", "search", item])
    #expect(ts.stdout.contains("To look up a record by its id: dolphin knowledge get \(item)"), "\(ts.stdout)")
    let tn = try cli.run(["task", "search", none])
    #expect(tn.stdout.contains("No record in this workspace has the id \(none)"), "\(tn.stdout)")
  }

  @Test("demo --help describes its own default workspace, not the shared one")
  func demoHelp() throws {
    let r = try runDolphin(["demo", "--help"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("<default workspace>/../dolphin-demo, never the default workspace itself"), "\(r.stdout)")
    #expect(!r.stdout.contains("default: $DOLPHIN_HOME"), "\(r.stdout)")
    // Other commands keep the shared help.
    #expect(try runDolphin(["status", "--help"]).stdout.contains("default: $DOLPHIN_HOME"))
  }
}
