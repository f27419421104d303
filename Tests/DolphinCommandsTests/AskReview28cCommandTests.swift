import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 28-c, findings 1, 2, 4, 5, 9, 10 and 11, as reproduced through the built binary.
@Suite("dolphin ask, activity and doctor (review 28-c)", .serialized)
struct AskReview28cCommandTests {
  static let key = FakeSecrets.aws

  static func counts(_ cli: CLI) throws -> [String: Int] {
    try #require(try cli.json(["status"])["counts"] as? [String: Int])
  }

  // MARK: 1. A credential in an answer

  @Test("an answer quoting an item kept with --allow-credentials: printed, stored withheld, said so; deleting the item leaves none")
  func answerQuotingACredential() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let item = try cli.record(
      "item", ["capture", "fact", "Staging deploy key", "--content", "aws key \(Self.key)", "--allow-credentials"])
    let id = try #require(item["id"] as? String)

    let asked = try cli.run(["ask", "staging deploy key"])
    #expect(asked.status == 0, "\(asked.stderr)")
    #expect(asked.stdout.contains("aws key \(Self.key)"), "the user who asked sees it: \(asked.stdout)")
    #expect(
      asked.stderr.contains(
        "dolphin: notice: the answer quotes text that looks like a credential (AWS access key id at line 4, column 12); it "
          + "is shown above, and the copy kept in the chat log withholds it. Rotate any real secret\n"),
      "\(asked.stderr)")
    let json = try cli.json(["ask", "staging deploy key"])
    #expect(json["storedAnswerWithheld"] as? Bool == true, "\(json)")
    #expect((json["answer"] as? String)?.contains(Self.key) == true)
    #expect(try cli.json(["ask", "/tasks"])["storedAnswerWithheld"] as? Bool == false)

    // The user removes the secret, as doctor advises: nothing holds it any more.
    #expect(try cli.run(["knowledge", "delete", id, "--yes"]).status == 0)
    let doctor = try cli.json(["doctor"])
    let credentials = try #require(doctor["credentials"] as? [String: Any])
    #expect(credentials["count"] as? Int == 0, "\(credentials)")
    #expect(!(try cli.run(["export"]).stdout.contains(Self.key)))
  }

  /// A chat message stored whole by an earlier dolphin (or imported): doctor names its origin
  /// and the command that removes it, and that command does.
  @Test("doctor's advice for a chat message holding a credential names activity clear, which removes it")
  func doctorAdviceForAMessage() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Deploys happen on Tuesdays"]).status == 0)
    let messageID = UUID()
    do {
      let store = try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: cli.workspace))
      try store.write { tx in
        let conversation = Conversation(id: UUID(), title: "dolphin ask", createdAt: Date())
        try tx.insertConversation(conversation)
        try tx.appendMessage(
          ChatMessage(
            id: messageID, conversationID: conversation.id, role: .assistant,
            text: "Deterministic answer (no model configured): the knowledge search found:\n   aws key \(Self.key)",
            createdAt: Date()))
      }
    }
    let doctor = try cli.run(["doctor"])
    #expect(doctor.stdout.contains("  - message \(messageID.uuidString) text: AWS access key id at line 2, column 12\n"), "\(doctor.stdout)")
    let advice = cli.naming(
      "1 stored record(s) hold text that looks like a credential. Rotate any real secret, then remove them: 1 chat "
        + "message(s) (an `ask` answer that quoted one, stored whole by an earlier dolphin, or kept by a migration or "
        + "import: `dolphin activity clear` removes every chat message (with the receipts and run checkpoints), "
        + "`dolphin erase --kind conversations` every conversation with its messages; no delete command takes a "
        + "message's id). `dolphin erase` removes everything.\n")
    #expect(doctor.stdout.contains(advice), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("knowledge delete"), "\(doctor.stdout)")
    let json = try #require(try cli.run(["doctor", "--json"]).stdout.data(using: .utf8))
    let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    #expect((report["credentials"] as? [String: Any])?["countByType"] as? [String: Int] == ["message": 1], "\(report)")

    // Following the advice removes it, from the records and from the files.
    let cleared = try cli.run(["activity", "clear", "--yes"])
    #expect(cleared.status == 0, "\(cleared.stderr)")
    let after = try cli.run(["doctor"])
    #expect(after.stdout.contains("Credentials: none found in stored text"), "\(after.stdout)")
    #expect(filesContaining(Self.key, under: URL(fileURLWithPath: cli.workspace)).isEmpty)
  }

  @Test("doctor's advice names each type's own command")
  func doctorAdviceByType() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Key", "--content", "aws key \(Self.key)", "--allow-credentials"]).status == 0)
    #expect(try cli.run(["task", "add", "Rotate \(FakeSecrets.gitHub)", "--allow-credentials"]).status == 0)
    let doctor = try cli.run(["doctor"])
    #expect(
      doctor.stdout.contains(
        cli.naming(
          "2 stored record(s) hold text that looks like a credential. Rotate any real secret, then remove them: 1 "
            + "knowledge item(s) (stored with --allow-credentials, or kept by a migration or import: `dolphin knowledge "
            + "delete ID`); 1 task(s) (stored with --allow-credentials, or kept by a migration or import: `dolphin task "
            + "delete ID`). `dolphin erase` removes everything.")),
      "\(doctor.stdout)")
  }

  // MARK: 2 and 10. The model URL

  @Test("a model URL path holding CR/LF or a space is refused, naming the option or the variable; nothing is sent")
  func modelURLPath() throws {
    let server = try TinyHTTPServer(reply: #"{"choices":[{"message":{"content":"pong"}}]}"#)
    defer { server.stop() }
    let cli = CLI()
    defer { cli.dir.remove() }
    let injected = "http://127.0.0.1:\(server.port)/x\r\nX-Injected: 1\r\n\r\n"
    let r = try cli.run(["ask", "seed", "--model-url", injected])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(
      r.stderr.hasPrefix(
        "dolphin: error: --model-url 'http://127.0.0.1:\(server.port)/x\\r\\nX-Injected: 1\\r\\n\\r\\n' refused: its path "
          + "holds a carriage return (U+000D) at character 3 of the path"),
      "\(r.stderr)")
    let spaced = try runDolphin(
      ["ask", "seed", "--workspace", cli.workspace], environment: ["DOLPHIN_MODEL_URL": "http://127.0.0.1:\(server.port)/a b"])
    #expect(spaced.status == 2, "\(spaced.stderr)")
    #expect(
      spaced.stderr.contains("DOLPHIN_MODEL_URL 'http://127.0.0.1:\(server.port)/a b' refused: its path holds a space (U+0020)"),
      "\(spaced.stderr)")
    #expect(server.lastRequest == nil)
    #expect(!FileManager.default.fileExists(atPath: cli.workspace))
  }

  @Test("a bad DOLPHIN_MODEL_URL: named, with README's range, and only when the message would use a model")
  func badEnvironmentURL() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let env = ["DOLPHIN_MODEL_URL": "http://evil.com"]
    let tasks = try runDolphin(["ask", "/tasks", "--workspace", cli.workspace], environment: env)
    #expect(tasks.status == 0, "a command that consults no model runs: \(tasks.stderr)")
    let free = try runDolphin(["ask", "wal readers", "--workspace", cli.workspace, "--json"], environment: env)
    #expect(free.status == 2, "\(free.stderr)")
    #expect(
      free.stderr
        == "dolphin: error: DOLPHIN_MODEL_URL 'http://evil.com' refused: the host must be a loopback address; only "
        + "http://HOST[:PORT][/PATH] with HOST in 127.0.0.0/8 (e.g. 127.0.0.1), localhost or [::1] is allowed\n",
      "\(free.stderr)")
    // An explicit option is checked whatever the message.
    let option = try cli.run(["ask", "/tasks", "--model-url", "http://evil.com"])
    #expect(option.status == 2 && option.stderr.contains("--model-url 'http://evil.com' refused"), "\(option.stderr)")
    // An empty --model-url is refused; an empty variable is no model.
    let empty = try cli.run(["ask", "seed", "--model-url", ""])
    #expect(empty.status == 2, "\(empty.stderr)")
    #expect(
      empty.stderr
        == "dolphin: error: --model-url needs a loopback URL (it was given an empty string); omit it to answer without a model\n",
      "\(empty.stderr)")
    let unset = try runDolphin(["ask", "seed", "--workspace", cli.workspace], environment: ["DOLPHIN_MODEL_URL": ""])
    #expect(unset.status == 0, "\(unset.stderr)")
    #expect(unset.stdout.hasPrefix("Deterministic answer (no model configured)"), "\(unset.stdout)")
  }

  // MARK: 4. /analyze and credentials

  @Test("/analyze of code holding a credential: the refusal names `dolphin analyze FILE`, which reports it without printing it")
  func analyzeRefusal() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let code = #"let apiKey = "\#(FakeSecrets.stripe)""#
    let r = try cli.run(["ask", "/analyze \(code)"])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(
      r.stderr
        == "dolphin: error: message looks like it holds a credential (Stripe live key at line 1, column 24); nothing was "
        + "stored or run: code sent with /analyze stays in the chat log and is copied into handoffs, so code that holds "
        + "a credential is not analyzed here. Save the code to a file and run `dolphin analyze FILE`: it reports "
        + "hardcoded_secret without printing the line. Remove the secret\n",
      "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: cli.workspace))
    // Following the advice.
    let file = cli.dir.appending("Keys.swift")
    try (code + "\n").write(to: file, atomically: true, encoding: .utf8)
    let analyzed = try runDolphin(["analyze", file.path])
    #expect(analyzed.stdout.contains("hardcoded_secret"), "\(analyzed.stdout)\(analyzed.stderr)")
    #expect(!analyzed.stdout.contains(FakeSecrets.stripe) && !analyzed.stderr.contains(FakeSecrets.stripe))
    // And the help says so, beside /remember among the writes that ask.
    let help = try runDolphin(["ask", "--help"])
    #expect(help.stdout.contains("/analyze refuses code that looks like it holds a credential"), "\(help.stdout)")
    #expect(help.stdout.contains("Each local write (capture, remember, handoff, restore, task changes)"), "\(help.stdout)")
    let slashHelp = try cli.run(["ask", "/help"])
    #expect(slashHelp.stdout.contains("`dolphin analyze FILE` checks such code"), "\(slashHelp.stdout)")
  }

  // MARK: 5. ask -

  @Test("`ask -` reads the message from standard input, bounded and checked as other `-` inputs")
  func messageFromStandardInput() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["ask", "-", "--yes"], stdin: "/task from stdin\n")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("route: deterministic — /task command"), "\(r.stderr)")
    let tasks = try #require(try cli.json(["task", "list"])["tasks"] as? [[String: Any]])
    #expect(tasks.map { $0["title"] as? String } == ["from stdin"], "\(tasks)")

    // A write needs --yes: standard input held the message, not an answer.
    let asked = try cli.run(["ask", "-"], stdin: "/task needs yes")
    #expect(asked.status == 1, "\(asked.stderr)")
    #expect(
      asked.stderr.contains(
        "task_add was denied: approval needed: standard input held the message, so no answer can be read from it; pass --yes"),
      "\(asked.stderr)")

    let empty = try cli.run(["ask", "-"], stdin: "")
    #expect(empty.status == 4, "\(empty.stderr)")
    #expect(empty.stderr.contains("`dolphin ask -`: standard input was empty"), "\(empty.stderr)")
    let nul = try cli.run(["ask", "-"], stdin: "hello\u{0}world")
    #expect(nul.status == 4, "\(nul.stderr)")
    #expect(nul.stderr.contains("message from standard input is not text: it holds a NUL byte"), "\(nul.stderr)")
    let long = try cli.run(["ask", "-"], stdin: String(repeating: "x", count: Limits.content + 1))
    #expect(long.status == 4, "\(long.stderr)")
    #expect(long.stderr.contains("the limit is \(Limits.content) characters"), "\(long.stderr)")
    let counts = try Self.counts(cli)
    #expect(counts["message"] == 4 && counts["receipt"] == 2, "only the two runs: \(counts)")
  }

  // MARK: 9. activity

  @Test("activity text shows why a call was denied or failed")
  func activityReasons() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Seed"]).status == 0)
    #expect(try cli.run(["ask", "/task no terminal"]).status == 1)
    #expect(try cli.run(["ask", "/capture nonsense: x", "--yes"]).status == 4)
    #expect(try cli.run(["ask", "/tasks"]).status == 0)
    let r = try cli.run(["activity", "--limit", "3"])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(r.stdout)")
    #expect(
      lines[1].contains(#"{"priority":"normal","title":"no terminal"} — approval needed: run in a terminal or pass --yes"#),
      "\(lines[1])")
    #expect(lines[2].contains(#"{"kind":"nonsense","title":"x"} — arguments.kind 'nonsense' is not one of"#), "\(lines[2])")
    #expect(!lines[3].contains(" — "), "a call that succeeded shows no reason: \(lines[3])")
  }

  // MARK: 11. Parsing

  @Test(
    "incomplete or over-full commands: a usage error, exit 2, nothing recorded",
    arguments: [
      ("/capture : no kind", "/capture needs a kind (usage: /capture <kind>: <title> [| <content>])"),
      ("/context please delete everything", "/context takes no arguments, and 'please delete everything' was given (usage: /context)"),
      ("/tasks open", "/tasks takes no arguments, and 'open' was given (usage: /tasks)"),
      (
        "/capture fact: A\n/remember B",
        "/capture needs a title on one line; put more lines after ` | ` as the content (usage: /capture <kind>: <title> [| <content>])"
      ),
    ])
  func parsing(_ message: String, _ problem: String) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Seed"]).status == 0)
    let r = try cli.run(["ask", message, "--yes"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr == "dolphin: error: \(problem)\n", "\(r.stderr)")
    let counts = try Self.counts(cli)
    #expect(counts["message"] == 0 && counts["receipt"] == 0 && counts["knowledge"] == 1, "\(counts)")
  }
}
