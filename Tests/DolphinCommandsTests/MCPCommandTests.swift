import ContinuityKit
import Foundation
import Testing
import TestSupport

/// One run of the `dolphin mcp` binary: the lines it was sent, and what it wrote.
struct MCPRun {
  var status: Int32
  /// Every stdout line, parsed (the run fails its checks if any line is not JSON-RPC).
  var messages: [JSONValue]
  var stdoutLines: [String]
  var stderr: String

  /// Runs `dolphin mcp ARGS --workspace WS` with `lines` on stdin (closed afterwards).
  init(workspace: String, _ arguments: [String] = [], lines: [String]) throws {
    let result = try runDolphin(
      ["mcp"] + arguments + ["--workspace", workspace],
      stdin: lines.joined(separator: "\n") + "\n")
    status = result.status
    stderr = result.stderr
    stdoutLines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    messages = []
    // Every byte of stdout belongs to a JSON-RPC message: newline-terminated lines, each one
    // JSON object with "jsonrpc": "2.0".
    #expect(result.stdout.isEmpty || result.stdout.hasSuffix("\n"), "stdout ends with a newline")
    if stdoutLines.last == "" { stdoutLines.removeLast() }
    for line in stdoutLines {
      let message = try JSONValue(parsing: line)
      #expect(message["jsonrpc"] == "2.0", "not a JSON-RPC message on stdout: \(line)")
      messages.append(message)
    }
  }

  /// The response whose id has the JSON text `id` (`1`, `"007"`, `null`).
  func response(_ id: String) -> JSONValue? {
    messages.first { $0["id"].map { $0.jsonString() } == id }
  }

  /// All responses with id `null`.
  var nullIDResponses: [JSONValue] { messages.filter { $0["id"] == .null } }
}

/// The first two lines of a session: initialize, then notifications/initialized.
let initializeLines = [
  #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
  #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
]

@Suite("dolphin mcp over stdio (the binary, raw protocol)", .serialized)
struct MCPCommandTests {
  /// A raw line, what it must get, and the ping after it.
  struct RawCase: CustomStringConvertible, Sendable {
    var name: String
    var line: String
    /// The JSON text of the id the answer must carry; nil when no answer is expected.
    var answerID: String?
    /// The error code expected, or nil for a result.
    var errorCode: Int?
    var description: String { name }
  }

  static let rawCases: [RawCase] = [
    RawCase(name: "string id \"1\"", line: #"{"jsonrpc":"2.0","id":"1","method":"ping"}"#, answerID: #""1""#),
    RawCase(
      name: "string id \"007\"", line: #"{"jsonrpc":"2.0","id":"007","method":"tools/list"}"#,
      answerID: #""007""#),
    RawCase(
      name: "id 9007199254740993", line: #"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#,
      answerID: "9007199254740993"),
    RawCase(name: "malformed JSON", line: #"{"jsonrpc":"2.0","id":5,"method":"#, answerID: "null", errorCode: -32700),
    RawCase(name: "not JSON", line: "\u{7F}garbage", answerID: "null", errorCode: -32700),
    // Review 19-a (9): the id is readable, so the parse error carries it.
    RawCase(
      name: "text after the message", line: #"{"jsonrpc":"2.0","id":89,"method":"ping"} x"#, answerID: "89",
      errorCode: -32700),
    // Review 22 (4): these two were answered with id null although the id reads before the flaw.
    RawCase(
      name: "nested 100 deep",
      line: #"{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":"#
        + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}}",
      answerID: #""deep""#, errorCode: -32700),
    RawCase(
      name: "a 4,200,123-byte line",
      line: #"{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":""#
        + String(repeating: "x", count: 4_200_123 - 112) + #""}}}"#,
      answerID: #""big""#, errorCode: -32600),
    RawCase(
      name: "no jsonrpc member", line: #"{"id":99,"method":"tools/list"}"#, answerID: "99", errorCode: -32600),
    RawCase(
      name: "jsonrpc 1.0", line: #"{"jsonrpc":"1.0","id":98,"method":"ping"}"#, answerID: "98", errorCode: -32600),
    RawCase(name: "no method", line: #"{"jsonrpc":"2.0","id":97}"#, answerID: "97", errorCode: -32600),
    RawCase(
      name: "numeric method", line: #"{"jsonrpc":"2.0","id":96,"method":42}"#, answerID: "96", errorCode: -32600),
    RawCase(name: "empty batch", line: "[]", answerID: "null", errorCode: -32600),
    RawCase(
      name: "a batch", line: #"[{"jsonrpc":"2.0","id":95,"method":"ping"}]"#, answerID: "null", errorCode: -32600),
    RawCase(
      name: "params null", line: #"{"jsonrpc":"2.0","id":94,"method":"tools/list","params":null}"#,
      answerID: "94"),
    RawCase(
      name: "server/discover probe", line: #"{"jsonrpc":"2.0","id":93,"method":"server/discover","params":{}}"#,
      answerID: "93", errorCode: -32601),
    RawCase(
      name: "unknown method", line: #"{"jsonrpc":"2.0","id":92,"method":"logging/setLevel","params":{"level":"info"}}"#,
      answerID: "92", errorCode: -32601),
    RawCase(
      name: "a notification", line: #"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#,
      answerID: nil),
    RawCase(
      name: "unknown tool", line: #"{"jsonrpc":"2.0","id":91,"method":"tools/call","params":{"name":"nope"}}"#,
      answerID: "91", errorCode: -32602),
    RawCase(
      name: "tools/call with array arguments",
      line: #"{"jsonrpc":"2.0","id":90,"method":"tools/call","params":{"name":"knowledge_search","arguments":[]}}"#,
      answerID: "90", errorCode: -32602),
  ]

  @Test("Each raw line gets the specified answer, and the ping after it is answered", arguments: rawCases)
  func rawLine(_ c: RawCase) throws {
    let dir = TemporaryDirectory("mcp-raw")
    defer { dir.remove() }
    let run = try MCPRun(
      workspace: dir.appending("ws").path,
      lines: initializeLines + [c.line, #"{"jsonrpc":"2.0","id":"after","method":"ping"}"#])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.response(#""after""#)?["result"] == [:], "the ping after \(c.name) is answered")
    guard let id = c.answerID else {
      #expect(run.messages.count == 2, "a notification gets no answer: \(run.stdoutLines)")
      return
    }
    let answer = try #require(run.response(id), "no answer with id \(id): \(run.stdoutLines)")
    #expect(answer["error"]?["code"]?.int == c.errorCode, "\(answer)")
    if c.errorCode == nil { #expect(answer["result"] != nil) }
    // The id comes back with its exact JSON type and digits.
    if id != "null" {
      #expect(
        run.stdoutLines.contains { $0.contains("\"id\":\(id),") || $0.contains("\"id\":\(id)}") },
        "\(run.stdoutLines)")
    }
    #expect(run.messages.count == 3, "one answer per request: \(run.stdoutLines)")
  }

  @Test("initialize with an unknown future revision and nested experimental capabilities")
  func futureRevision() throws {
    let dir = TemporaryDirectory("mcp-raw")
    defer { dir.remove() }
    let run = try MCPRun(
      workspace: dir.appending("ws").path,
      lines: [
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-12-31","capabilities":{"experimental":{"x":{"deep":[1,{"y":null}]}},"somethingNew":{"a":true},"elicitation":{}},"clientInfo":{"name":"future","version":"9"}}}"#,
        #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
      ])
    let result = try #require(run.response("1")?["result"])
    #expect(result["protocolVersion"] == "2025-11-25")
    #expect(result["serverInfo"]?["name"] == "dolphin")
    #expect(result["capabilities"]?["tools"] != nil)
    #expect(run.response("2")?["result"] == [:])
  }

  @Test("A client asking for 2025-03-26 gets it, without titles or structuredContent")
  func olderRevision() throws {
    let dir = TemporaryDirectory("mcp-raw")
    defer { dir.remove() }
    let run = try MCPRun(
      workspace: dir.appending("ws").path,
      lines: [
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}"#,
        #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"x"}}}"#,
      ])
    #expect(run.response("1")?["result"]?["protocolVersion"] == "2025-03-26")
    let tools = try #require(run.response("2")?["result"]?["tools"]?.array)
    #expect(!tools.isEmpty && tools.allSatisfy { $0["title"] == nil && $0["outputSchema"] == nil })
    let call = try #require(run.response("3")?["result"])
    #expect(call["structuredContent"] == nil && call["isError"] == false)
  }

  @Test("A missing workspace is created by the first write, not by a read; tools leave receipts with the request ids")
  func missingWorkspace() throws {
    let dir = TemporaryDirectory("mcp-ws")
    defer { dir.remove() }
    let ws = dir.appending("nested/not/yet").path
    let search = #"{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"made"}}}"#
    let read = try MCPRun(workspace: ws, ["--writes", "allow"], lines: initializeLines + [search])
    let empty = try #require(read.response("9007199254740993")?["result"])
    #expect(empty["isError"] == false)
    #expect(empty["structuredContent"]?["total"] == 0)
    #expect(empty["structuredContent"]?["workspace"]?["exists"] == false, "\(empty)")
    #expect(empty["content"]?.array?.first?["text"]?.string?.hasPrefix("There is no workspace at \(ws) yet") == true, "\(empty)")
    #expect(!FileManager.default.fileExists(atPath: dir.appending("nested").path), "a read created the workspace")
    // Sent in separate runs: two calls sent together may run concurrently.
    let run = try MCPRun(
      workspace: ws, ["--writes", "allow"],
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":"007","method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"Made over MCP"}}}"#
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let capture = try #require(run.response(#""007""#)?["result"])
    #expect(capture["isError"] == false)
    #expect(FileManager.default.fileExists(atPath: ws + "/workspace.sqlite"))
    let found = try MCPRun(workspace: ws, lines: initializeLines + [search])
    #expect(found.response("9007199254740993")?["result"]?["structuredContent"]?["total"] == 1, "\(found.stdoutLines)")
    #expect(found.response("9007199254740993")?["result"]?["structuredContent"]?["workspace"] == nil)
    let activity = try runDolphin(["activity", "--json", "--workspace", ws])
    let receipts = try #require(try JSONValue(parsing: activity.stdout)["receipts"]?.array)
    #expect(receipts.compactMap { $0["callID"]?.string }.sorted() == [#""007""#, "9007199254740993"])
    #expect(
      receipts.first { $0["tool"] == "knowledge_capture" }?["approval"] == "policy:allow")
  }

  @Test("A call refused for its arguments does not create a missing workspace; it gets a tool error naming the field, no receipt")
  func refusedCallCreatesNothing() throws {
    let dir = TemporaryDirectory("mcp-ws")
    defer { dir.remove() }
    let ws = dir.appending("not/yet").path
    let refused = [
      #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"decison","title":"x"}}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"x","extra":1}}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"task_add","arguments":{}}}"#,
      // Each argument valid alone, not together: the engine's rule, checked before anything runs.
      #"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"colour","kinds":["fact"],"includeMemories":true}}}"#,
    ]
    let run = try MCPRun(workspace: ws, ["--writes", "allow"], lines: initializeLines + refused)
    #expect(run.status == 0, "\(run.stderr)")
    for (id, field) in [
      ("1", "arguments.kind"), ("2", "arguments.extra"), ("3", "arguments.title"), ("8", "arguments.includeMemories"),
    ] {
      let result = try #require(run.response(id)?["result"], "\(run.stdoutLines)")
      #expect(result["isError"] == true)
      #expect(result.toolErrorDetails?["error"]?["kind"] == "invalidArguments", "\(result)")
      #expect(result.toolErrorDetails?["error"]?["field"] == .string(field), "\(result)")
      #expect(result.toolErrorDetails.map { $0["receipt"] == nil } == true, "\(result)")
      let text = result["content"]?.array?.first?["text"]?.string ?? ""
      #expect(text.contains("was not run: invalid arguments"), "\(text)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appending("not").path), "nothing created")

    // Where the workspace exists, a refused call leaves its receipt as before. (The workspace
    // is made first, by the CLI: two calls sent together may run concurrently, so a capture in
    // the same run would not reliably exist before the refused call is checked.)
    #expect(try runDolphin(["capture", "fact", "Made before", "--workspace", ws]).status == 0)
    let again = try MCPRun(workspace: ws, ["--writes", "allow"], lines: initializeLines + [refused[0]])
    #expect(again.response("1")?["result"]?.toolErrorDetails?["receipt"]?["outcome"] == "failed", "\(again.stdoutLines)")
    let activity = try runDolphin(["activity", "--json", "--workspace", ws])
    let receipts = try #require(try JSONValue(parsing: activity.stdout)["receipts"]?.array)
    #expect(receipts.compactMap { $0["callID"]?.string }.sorted() == ["1"])
  }

  // Regression (s9/h2): a call that ran and failed (an unknown id, text the engine refuses) or
  // was denied created the missing workspace to store its receipt.
  @Test("A call that fails or is denied does not create a missing workspace either; its error names no receipt")
  func failedCallCreatesNothing() throws {
    let dir = TemporaryDirectory("mcp-ws-failed")
    defer { dir.remove() }
    let ws = dir.appending("not/yet").path
    let id = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    let failing = [
      #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_get","arguments":{"id":"\#(id)"}}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"task_complete","arguments":{"id":"\#(id)"}}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"x","content":"password=hunter22222"}}}"#,
      #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"x","relationships":[{"kind":"supports","targetID":"\#(id)"}]}}}"#,
    ]
    let run = try MCPRun(workspace: ws, ["--writes", "allow"], lines: initializeLines + failing)
    #expect(run.status == 0, "\(run.stderr)")
    for n in 1...4 {
      let result = try #require(run.response("\(n)")?["result"], "\(run.stdoutLines)")
      #expect(result["isError"] == true, "\(n): \(result)")
      #expect(result.toolErrorDetails.map { $0["receipt"] == nil } == true, "\(n): \(result)")
    }
    // Denied by the server's policy.
    let denied = try MCPRun(
      workspace: ws, ["--writes", "deny"],
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"task_add","arguments":{"title":"x"}}}"#
      ])
    #expect(denied.response("5")?["result"]?.toolErrorDetails?["error"]?["kind"] == "denied", "\(denied.stdoutLines)")
    #expect(denied.response("5")?["result"]?.toolErrorDetails.map { $0["receipt"] == nil } == true, "\(denied.stdoutLines)")
    #expect(!FileManager.default.fileExists(atPath: dir.appending("not").path), "nothing created")
  }

  // Regression (s9/h2): starting the server on a 0-byte workspace.sqlite (a first run
  // interrupted before its first schema step) added the schema before any call.
  @Test("A 0-byte workspace.sqlite stays 0 bytes through startup, reads and refused calls; the first call that succeeds completes it")
  func emptyDatabaseFile() throws {
    let dir = TemporaryDirectory("mcp-blank")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: false)
    let db = ws.appendingPathComponent("workspace.sqlite")
    try Data().write(to: db)
    let refused = try MCPRun(
      workspace: ws.path, ["--writes", "allow"],
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"decison","title":"x"}}}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"resources/list"}"#,
      ])
    #expect(refused.status == 0, "\(refused.stderr)")
    #expect(refused.response("1")?["result"]?["isError"] == true, "\(refused.stdoutLines)")
    #expect(refused.response("2")?["result"]?["resources"] != nil, "\(refused.stdoutLines)")
    #expect(try Data(contentsOf: db).isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: ws.path) == ["workspace.sqlite"])
    let capture = try MCPRun(
      workspace: ws.path, ["--writes", "allow"],
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"First"}}}"#
      ])
    #expect(capture.response("1")?["result"]?["isError"] == false, "\(capture.stdoutLines)")
    let list = try runDolphin(["knowledge", "list", "--workspace", ws.path])
    #expect(list.status == 0 && list.stdout.contains("First"), "\(list.stderr)")
  }

  // Since review s17 (F13) a read no longer creates the workspace (it stored its receipt, which
  // imported the legacy file): reads answer from the legacy file and say so; a write imports it.
  @Test("A legacy workspace: reads answer from it and say so; the first write imports it, its notice on stderr; stdout stays JSON-RPC")
  func legacyWorkspace() throws {
    let dir = TemporaryDirectory("mcp-legacy")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true)
    let fixture = repositoryRoot.appendingPathComponent(
      "Tests/ContinuityKitTests/Fixtures/legacy/workspace-v3.json")
    try FileManager.default.copyItem(at: fixture, to: ws.appendingPathComponent("workspace.json"))
    let run = try MCPRun(
      workspace: ws.path, ["--verbose"],
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"SwiftData","includeMemories":true}}}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"resources/list"}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
      ])
    #expect(run.status == 0)
    #expect(!run.stderr.contains("imported legacy"), "\(run.stderr)")
    #expect(run.stderr.contains("dolphin mcp: tools/call knowledge_search id 1: succeeded, approval notRequired"))
    let search = try #require(run.response("1")?["result"]?["structuredContent"])
    #expect((search["total"]?.int ?? 0) > 0, "the legacy records are searchable: \(search)")
    #expect(
      search["workspace"]?["notice"]
        == .string(
          "There is no workspace database at \(ws.path) yet: what is read comes from the legacy workspace.json "
            + "in that directory, which the first write that succeeds imports."), "\(search)")
    let resources = try #require(run.response("2")?["result"]?["resources"]?.array)
    #expect(resources.first?["uri"] == "dolphin://digest/current")
    #expect(run.response("3")?["result"] == [:])
    #expect(run.messages.count == 4)
    #expect(!FileManager.default.fileExists(atPath: ws.appendingPathComponent("workspace.sqlite").path))

    let write = try MCPRun(
      workspace: ws.path, ["--writes", "allow"],
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"task_add","arguments":{"title":"After the import"}}}"#
      ])
    #expect(write.response("1")?["result"]?["isError"] == false, "\(write.stdoutLines)")
    #expect(write.stderr.contains("notice: imported legacy workspace.json (schema v3)"), "\(write.stderr)")
    #expect(FileManager.default.fileExists(atPath: ws.appendingPathComponent("workspace.sqlite").path))
  }

  @Test("A corrupt workspace: the server starts, calls are structured errors, the file is untouched")
  func corruptWorkspace() throws {
    let dir = TemporaryDirectory("mcp-corrupt")
    defer { dir.remove() }
    let ws = dir.appending("ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true)
    let garbage = Data(repeating: 0x5A, count: 8192)
    let db = ws.appendingPathComponent("workspace.sqlite")
    try garbage.write(to: db)
    let run = try MCPRun(
      workspace: ws.path, ["--verbose"],
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"x"}}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"dolphin://digest/current"}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"restore_session","arguments":{"handoff_id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301"}}}"#,
        #"{"jsonrpc":"2.0","id":5,"method":"ping"}"#,
      ])
    #expect(run.status == 0)
    #expect(run.response("0")?["result"]?["protocolVersion"] == "2025-11-25")
    #expect((run.response("1")?["result"]?["tools"]?.array?.count ?? 0) > 0)
    let call = try #require(run.response("2")?["result"])
    #expect(call["isError"] == true)
    #expect(call.toolErrorDetails?["error"]?["kind"] == "workspaceUnavailable")
    #expect(call["content"]?.array?.first?["text"]?.string?.contains("dolphin doctor") == true)
    for id in ["3", "4"] {
      let error = try #require(run.response(id)?["error"], "\(id): \(run.stdoutLines)")
      #expect(error["code"] == -32603)
      #expect(error["data"]?["workspace"] == .string(ws.path))
    }
    #expect(run.response("5")?["result"] == [:])
    #expect(run.stderr.contains("dolphin mcp: warning: the Dolphin workspace at \(ws.path) cannot be used"))
    #expect(try Data(contentsOf: db) == garbage)
  }

  @Test("A newer-schema workspace opens read-only: reads work, writes are tool errors")
  func newerSchema() throws {
    let dir = TemporaryDirectory("mcp-newer")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["capture", "fact", "Written before the upgrade", "--workspace", ws]).status == 0)
    let bump = try runProcess(
      "/usr/bin/env", ["sqlite3", ws + "/workspace.sqlite", "PRAGMA user_version = 99;"])
    try #require(bump.status == 0, "sqlite3 is needed to fake a newer schema: \(bump.stderr)")
    let run = try MCPRun(
      workspace: ws, ["--writes", "allow"],
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"upgrade"}}}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"Refused"}}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
      ])
    #expect(run.status == 0)
    #expect(run.stderr.contains("is read-only (schema 99 is newer than this build's"))
    #expect(run.response("1")?["result"]?["structuredContent"]?["total"] == 1)
    let write = try #require(run.response("2")?["result"])
    #expect(write["isError"] == true)
    #expect(write["content"]?.array?.first?["text"]?.string?.contains("read-only") == true, "\(write)")
    #expect(run.response("3")?["result"] == [:])
  }

  @Test("--verbose logs every call to stderr; stdout holds only JSON-RPC")
  func verbose() throws {
    let dir = TemporaryDirectory("mcp-verbose")
    defer { dir.remove() }
    let run = try MCPRun(
      workspace: dir.appending("ws").path, ["--verbose"],
      lines: initializeLines + [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"Refused: no way to ask"}}}"#,
        #"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"anything"}}}"#,
        "not json at all",
      ])
    #expect(run.status == 0)
    #expect(run.stderr.contains("dolphin mcp: dolphin "))
    #expect(run.stderr.contains("--writes ask; serving MCP on stdio"))
    #expect(run.stderr.contains(#"tools/call knowledge_capture id 1: denied"#))
    #expect(run.stderr.contains(#"tools/call knowledge_search id "x": succeeded, approval notRequired"#))
    #expect(run.stderr.contains("standard input closed; stopping"))
    let refused = try #require(run.response("1")?["result"])
    #expect(refused["content"]?.array?.first?["text"]?.string?.contains("dolphin mcp --writes allow") == true)
    #expect(run.nullIDResponses.first?["error"]?["code"] == -32700)
    #expect(run.messages.count == 4)
  }

  @Test("Help is truthful: --json is neither listed nor accepted")
  func helpOmitsJSON() throws {
    let help = try runDolphin(["mcp", "--help"])
    #expect(help.status == 0)
    #expect(!help.stdout.contains("--json"), "\(help.stdout)")
    #expect(help.stdout.contains("--workspace DIR"))
    let refused = try runDolphin(["mcp", "--json"], stdin: "")
    #expect(refused.status == 2)
    #expect(refused.stdout.isEmpty)
    #expect(refused.stderr.contains("`dolphin mcp` writes only JSON-RPC to stdout; --json does not apply"))
    let overview = try runDolphin(["--help"])
    #expect(overview.stdout.contains("every command except `mcp` (whose stdout is the"))
    #expect(try runDolphin(["capture", "--help"]).stdout.contains("--json"))
  }

  @Test("Usage errors print nothing on stdout, --json included")
  func usageErrors() throws {
    let dir = TemporaryDirectory("mcp-usage")
    defer { dir.remove() }
    for args in [["--writes", "sometimes"], ["--json"], ["--bogus"]] {
      let r = try runDolphin(["mcp"] + args + ["--workspace", dir.appending("ws").path], stdin: "")
      #expect(r.stdout.isEmpty, "\(args): \(r.stdout)")
      #expect(r.status != 0)
      #expect(r.stderr.hasPrefix("dolphin: error: "), "\(args): \(r.stderr)")
    }
  }
}
