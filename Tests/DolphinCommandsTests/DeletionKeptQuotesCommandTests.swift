import Foundation
import Testing
import TestSupport

/// Review 19-c, finding 2, as reproduced: after `ask` quoted an item and `/handoff` copied the
/// chat, `knowledge delete` said "nothing else refers to it".
@Suite("dolphin knowledge delete: the plan names kept text that quotes the item", .serialized)
struct DeletionKeptQuotesCommandTests {
  @Test("the plan names the chat message and handoff excerpt that quote the item, and points to activity clear")
  func planNamesQuotes() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let captured = try cli.json([
      "capture", "fact", "Staging DB host is db-staging.internal", "--content", "Root login via bastion only.",
    ])
    let id = try #require((captured["item"] as? [String: Any])?["id"] as? String)
    #expect(try cli.run(["ask", "staging db host"]).status == 0)
    #expect(try cli.run(["ask", "/handoff staging work", "--yes"]).status == 0)

    let r = try cli.run(["knowledge", "delete", id, "--yes"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!r.stdout.contains("nothing else refers to it"), "\(r.stdout)")
    #expect(
      r.stdout.contains(
        "\n  no other record changes\n  Kept as they are, and still quoting its id or title (a case-insensitive text match): "
          + "1 chat message(s), the chat excerpts of 1 handoff(s); `dolphin activity clear --workspace \(cli.workspace)` removes chat and activity.\n"),
      "\(r.stdout)")

    // What the plan said is so: the export still holds the title twice until activity is cleared.
    #expect(try cli.run(["export"]).stdout.components(separatedBy: "db-staging.internal").count - 1 == 2)
    #expect(try cli.run(["activity", "clear", "--yes"]).status == 0)
    #expect(!(try cli.run(["export"]).stdout.contains("db-staging.internal")))
  }

  @Test("--json: the plan carries keptQuotes by collection; an item nobody quotes keeps 'nothing else refers to it'")
  func jsonAndNoQuotes() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let quoted = try #require((try cli.json(["capture", "fact", "Deploys happen on Tuesdays"])["item"] as? [String: Any])?["id"] as? String)
    let quiet = try #require((try cli.json(["capture", "fact", "Nobody asked about this"])["item"] as? [String: Any])?["id"] as? String)
    #expect(try cli.run(["ask", "/get \(quoted)"]).status == 0)

    let report = try cli.json(["knowledge", "delete", quoted, "--yes"])
    let plan = try #require(report["plan"] as? [String: Any])
    let kept = try #require(plan["keptQuotes"] as? [[String: Any]])
    #expect(kept.map { $0["collection"] as? String } == ["messages", "receipts"], "\(kept)")

    let r = try cli.run(["knowledge", "delete", quiet, "--yes"])
    #expect(r.stdout.contains("\n  nothing else refers to it\n"), "\(r.stdout)")
    #expect(!r.stdout.contains("Kept"), "\(r.stdout)")
  }

  /// Review 24-a, 5, as reproduced: one MCP session searched for both titles; the plan for the
  /// title holding quotes said "nothing else refers to it", the other listed the receipt.
  @Test("a title holding quotes is found in the MCP receipt that searched for it, as a plain one is")
  func quotedTitleInMCPReceipt() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let quoted = try #require((try cli.json(["capture", "fact", #"Use "strict" mode"#])["item"] as? [String: Any])?["id"] as? String)
    let plain = try #require((try cli.json(["capture", "fact", "Plain strict mode"])["item"] as? [String: Any])?["id"] as? String)
    let run = try MCPRun(
      workspace: cli.workspace,
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"Use \"strict\" mode"}}}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"Plain strict mode"}}}"#,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    for id in [quoted, plain] {
      let r = try cli.run(["knowledge", "delete", id, "--yes"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(!r.stdout.contains("nothing else refers to it"), "\(r.stdout)")
      #expect(
        r.stdout.contains("Kept as they are, and still quoting its id or title (a case-insensitive text match): 1 activity receipt(s)"),
        "\(r.stdout)")
    }
  }
}
