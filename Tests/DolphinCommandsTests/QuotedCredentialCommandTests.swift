import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 24-a, findings 1 and 2, as reproduced with the binaries: credentials in escaped JSON
/// text (`PASSWORD=\"…\"`) were kept in receipts and missed by `status` and `doctor`.
@Suite("dolphin: quoted credentials in receipts and digests", .serialized)
struct QuotedCredentialCommandTests {
  static let secrets = ["Tr0ub4dor", "sk9f8e7d6c5b4a3", FakeSecrets.gitHub, "hunter2xyz99"]

  /// `/tmp/r24/repro1.py`, plus a key and an id: one `dolphin mcp` session with writes allowed.
  @Test("refused MCP calls keep no secret in activity, export, status or doctor; status finds none to flag")
  func mcpReceiptsKeepNoSecret() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "seed"]).status == 0)
    let calls = [
      #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"db creds","content":"PASSWORD=\"Tr0ub4dor&3\""}}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"task_add","arguments":{"title":"rotate","notes":"{\"api_key\": \"sk9f8e7d6c5b4a3\"}"}}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"x","kinds":["\#(FakeSecrets.gitHub)"]}}}"#,
      #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"x","\#(FakeSecrets.gitHub)":1}}}"#,
      #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"knowledge_get","arguments":{"id":"password=hunter2xyz99"}}}"#,
    ]
    let run = try MCPRun(workspace: cli.workspace, ["--writes", "allow"], lines: initializeLines + calls)
    #expect(run.status == 0, "\(run.stderr)")
    for n in 1...5 {
      let result = try #require(run.response("\(n)")?["result"], "\(run.stdoutLines)")
      #expect(result["isError"] == true, "\(n): \(result)")
    }
    let activity = try cli.run(["activity"])
    #expect(activity.status == 0)
    #expect(activity.stdout.components(separatedBy: "[withheld: looks like a credential (").count - 1 >= 5, "\(activity.stdout)")
    for output in [activity.stdout, try cli.run(["activity", "--json"]).stdout, try cli.run(["export"]).stdout,
                   try cli.run(["export", "--format", "markdown"]).stdout] {
      for secret in Self.secrets { #expect(!output.contains(secret), "\(secret) in \(output)") }
    }
    #expect(try cli.run(["status"]).stdout.contains("Credentials: none found in stored text"))
  }

  /// Review 24-a, 2: a digest quoting a quoted key, and receipts an import brings in.
  @Test("status and doctor flag a digest quoting a quoted key, and an imported receipt's arguments and message; the import plan lists them")
  func digestAndImportedReceiptsFlagged() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let id = try #require(
      (try cli.json(["capture", "context", "Deploy notes", "--content", #"api_key = "sk9f8e7d6c5b4a3zz""#, "--allow-credentials"])[
        "item"] as? [String: Any])?["id"] as? String)
    #expect(try cli.run(["context", "--save"]).status == 0)
    #expect(try cli.run(["knowledge", "edit", id, "--content", "rotated; see vault"]).status == 0)
    let exported = try cli.run(["export"])
    var document = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
    var workspace = try #require(document["workspace"] as? [String: Any])
    let digests = try #require(workspace["digests"] as? [[String: Any]])
    #expect(digests.count == 1)
    let digestID = try #require(digests.first?["id"] as? String)
    let status = try cli.run(["status"])
    #expect(status.stdout.contains("Credentials: 1 record(s) hold text that looks like a credential:"), "\(status.stdout)")
    #expect(status.stdout.contains("  - digest \(digestID) sections: password or secret assignment"), "\(status.stdout)")
    #expect(try cli.run(["doctor"]).stdout.contains("digest \(digestID) sections: password or secret assignment"))

    // An export whose receipt holds a quoted secret in its arguments, and a token in its message.
    let receiptID = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    let messageID = "3F2504E0-4F89-11D3-9A0C-0305E82C3302"
    func receipt(_ id: String, arguments: String, message: String) -> [String: Any] {
      [
        "id": id, "callID": "c", "tool": "task_add", "risk": "localWrite", "arguments": arguments, "outcome": "failed",
        "changedIDs": [String](), "startedAt": "2026-12-01T10:00:00.000Z", "finishedAt": "2026-12-01T10:00:00.000Z",
        "message": message,
      ]
    }
    workspace["receipts"] = [
      receipt(receiptID, arguments: #"{"notes":"{\"api_key\": \"sk9f8e7d6c5b4a3\"}","title":"rotate"}"#, message: "failed"),
      receipt(messageID, arguments: #"{"kinds":["fact"]}"#, message: "arguments.kinds[0] '\(FakeSecrets.gitHub)' is not one of: fact"),
    ]
    document["workspace"] = workspace
    let file = cli.dir.appending("with-receipts.json")
    try JSONSerialization.data(withJSONObject: document).write(to: file)

    let other = cli.dir.appending("other").path
    let imported = try runDolphin(["import", file.path, "--workspace", other])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout.contains("3 record(s) hold text that looks like a credential"), "\(imported.stdout)")
    for line in ["receipt \(receiptID) arguments: password or secret assignment", "receipt \(messageID) message: GitHub token",
                 "digest \(digestID) sections: password or secret assignment"] {
      #expect(imported.stdout.contains(line), "\(line) in \(imported.stdout)")
      #expect(try runDolphin(["status", "--workspace", other]).stdout.contains(line), "\(line)")
      #expect(try runDolphin(["doctor", "--workspace", other]).stdout.contains(line), "\(line)")
    }
  }
}
