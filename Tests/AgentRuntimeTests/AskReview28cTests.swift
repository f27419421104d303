import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

@testable import AgentRuntime

/// Review 28-c, 1: an answer that quoted a credential — the renderer quoting an item stored with
/// `--allow-credentials`, or a model's reply — was stored whole in the chat log, where doctor
/// then found it; the user's message is checked before it is stored, the answer was not.
@Suite("An answer quoting a credential is stored withheld")
struct StoredAnswerCredentialTests {
  static let key = FakeSecrets.aws

  @Test("the deterministic answer quoting an item kept with --allow-credentials: shown whole, stored withheld")
  func rendererAnswer() async throws {
    let engine = makeEngine()
    _ = try engine.capture(
      CaptureRequest(kind: .fact, title: "Staging deploy key", content: "aws key \(Self.key)", allowCredentials: true))
    let reply = try await AssistantSession(engine: engine).ask("staging deploy key", approver: StaticApprovalPolicy.allow)
    #expect(reply.run.answer.contains(Self.key), "the user who asked sees it: \(reply.run.answer)")
    #expect(reply.storedAnswerWithheld?.kind == .awsAccessKeyID, "\(String(describing: reply.storedAnswerWithheld))")
    let stored = try engine.store.read { try $0.listMessages(conversationID: reply.assistantMessage.conversationID) }
    #expect(stored.count == 2)
    #expect(!stored.contains { $0.text.contains(Self.key) }, "\(stored.map(\.text))")
    let answer = try #require(stored.last?.text)
    #expect(answer.contains("aws key [withheld: looks like a credential (AWS access key id)]"), "\(answer)")
    #expect(answer.hasSuffix(
      "\n[stored copy: text that looks like a credential was withheld; it was shown only when answered]"), "\(answer)")
    // Only the item the user kept deliberately holds it; the chat log does not.
    let flags = try engine.store.read { try $0.credentialFlags() }
    #expect(flags.count == 1 && flags.flags.map(\.recordType) == ["knowledge"], "\(flags)")
    #expect(flags.countByType == ["knowledge": 1])
  }

  @Test("a model's reply holding credentials: stored withheld, the rest of it kept")
  func modelAnswer() async throws {
    let engine = makeEngine()
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "WAL readers never block the writer"))
    let generator = ScriptedGenerator(answer: "Your key is \(Self.key) and \(FakeSecrets.gitHub). WAL readers are fine.")
    let reply = try await AssistantSession(engine: engine, generator: generator)
      .ask("WAL readers", approver: StaticApprovalPolicy.allow)
    #expect(reply.run.answerSource == .model)
    #expect(reply.run.answer.contains(Self.key) && reply.run.answer.contains(FakeSecrets.gitHub))
    let text = reply.assistantMessage.text
    #expect(!text.contains(Self.key) && !text.contains(FakeSecrets.gitHub), "\(text)")
    #expect(text.contains("WAL readers are fine."), "\(text)")
    #expect(text.contains("[withheld: looks like a credential (GitHub token)]"), "\(text)")
    #expect(CredentialDetector.firstFinding(in: text) == nil)
    // A handoff copies the stored answer, withheld.
    _ = try await AssistantSession(engine: engine).ask("/handoff Wrap up", approver: StaticApprovalPolicy.allow)
    let handoff = try #require(try engine.store.read { try $0.listHandoffs() }.first)
    #expect(!handoff.recentExcerpts.joined().contains(Self.key), "\(handoff.recentExcerpts)")
    #expect(try engine.store.read { try $0.credentialFlags() }.count == 0)
  }

  @Test("an answer without a credential is stored as shown")
  func plainAnswer() async throws {
    let engine = makeEngine()
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Staging host is db-staging.internal"))
    let reply = try await AssistantSession(engine: engine).ask("staging host", approver: StaticApprovalPolicy.allow)
    #expect(reply.storedAnswerWithheld == nil)
    #expect(reply.assistantMessage.text == reply.run.answer)
  }

  @Test("a stored answer stays within the message bound, its note whole")
  func boundedStoredAnswer() {
    let long = String(repeating: "x", count: Limits.content) + " \(Self.key)"
    let stored = AssistantSession.storedAnswer("\(Self.key) " + long)
    #expect(stored.text.count <= Limits.content, "\(stored.text.count)")
    #expect(stored.text.hasSuffix("it was shown only when answered]"))
    #expect(CredentialDetector.firstFinding(in: stored.text) == nil)
  }
}

/// Review 28-c, 4: `/analyze` code holding a credential was refused with advice to store it with
/// --allow-credentials; the refusal now names `dolphin analyze FILE`.
@Suite("/analyze and credentials")
struct AnalyzeCredentialRefusalTests {
  @Test("the refusal for /analyze advises `dolphin analyze FILE`; other messages keep theirs")
  func analyzeRefusal() async throws {
    let engine = makeEngine()
    let session = try AssistantSession(engine: engine)
    let error = await #expect(throws: ValidationError.self) {
      _ = try await session.ask(#"/analyze let apiKey = "\#(FakeSecrets.stripe)""#, approver: StaticApprovalPolicy.allow)
    }
    let message = error?.message ?? ""
    #expect(
      message.hasPrefix(
        "message looks like it holds a credential (Stripe live key at line 1, column 24); nothing was stored or run: code "
          + "sent with /analyze stays in the chat log and is copied into handoffs, so code that holds a credential is not "
          + "analyzed here. Save the code to a file and run `dolphin analyze FILE`: it reports hardcoded_secret without "
          + "printing the line."),
      "\(message)")
    #expect(!message.contains("allow-credentials"))
    #expect(try engine.store.read { try $0.counts() }["message"] == 0)
    #expect(AssistantSession.isAnalyzeCommand("/analyze let x = 1"))
    #expect(!AssistantSession.isAnalyzeCommand("analyze this code"))
    #expect(AgentRequestRouter().route("/help").answer?.contains(AgentRequestRouter.analyzeCredentialNote) == true)
  }
}

/// Review 28-c, 11: inconsistent verdicts and silently ignored words in `ask` commands.
@Suite("ask command parsing (review 28-c, 11)")
struct CommandParsingReview28cTests {
  @Test(
    "an incomplete or over-full command is malformed: nothing runs",
    arguments: [
      ("/capture : no kind", "/capture needs a kind (usage: /capture <kind>: <title> [| <content>])"),
      ("/capture \u{2800}: no kind", "/capture needs a kind (usage: /capture <kind>: <title> [| <content>])"),
      ("/capture no colon", "/capture needs a kind and a title (usage: /capture <kind>: <title> [| <content>])"),
      (
        "/capture fact: A\n/remember B",
        "/capture needs a title on one line; put more lines after ` | ` as the content (usage: /capture <kind>: <title> [| <content>])"
      ),
      ("/context please delete everything", "/context takes no arguments, and 'please delete everything' was given (usage: /context)"),
      ("/tasks open", "/tasks takes no arguments, and 'open' was given (usage: /tasks)"),
      ("/review all", "/review takes no arguments, and 'all' was given (usage: /review)"),
      ("/insights now", "/insights takes no arguments, and 'now' was given (usage: /insights)"),
      ("/handoffs latest", "/handoffs takes no arguments, and 'latest' was given (usage: /handoffs)"),
      ("/help capture", "/help takes no arguments, and 'capture' was given (usage: /help)"),
      ("/tasks a\nb", "/tasks takes no arguments, and 'a b' was given (usage: /tasks)"),
      ("/tasks a: no tool b", "/tasks takes no arguments, and 'a: no tool b' was given (usage: /tasks)"),
    ])
  func malformed(_ message: String, _ problem: String) async throws {
    let route = AgentRequestRouter().route(message)
    #expect(route.isMalformedCommand && route.plan.isEmpty, "\(route)")
    #expect(route.commandProblem == problem, "\(route.commandProblem ?? "nil")")
    let engine = makeEngine()
    await #expect(throws: ValidationError.self) {
      _ = try await AssistantSession(engine: engine).ask(message, approver: StaticApprovalPolicy.allow)
    }
    let counts = try engine.store.read { try $0.counts() }
    #expect(counts["message"] == 0 && counts["receipt"] == 0, "\(counts)")
  }

  @Test("a title on one line with a multi-line body after | is a capture; commands without words still run")
  func wellFormed() {
    let r = AgentRequestRouter().route("/capture fact: A | line one\nline two")
    #expect(r.plan.first?.arguments == .object(["kind": "fact", "title": "A", "content": "line one\nline two"]))
    for command in ["/context", "/review", "/insights", "/handoffs", "/tasks", "/context  "] {
      #expect(!AgentRequestRouter().route(command).isMalformedCommand, "\(command)")
    }
    #expect(AgentRequestRouter().route("/help").answer != nil)
  }
}

/// Review 28-c, 2: a model URL's path was written into the request line as given; a CR/LF in it
/// added headers to the request.
@Suite("Model URL paths a request line cannot carry")
struct ModelURLPathTests {
  @Test(
    "a path with a space, a line break or another control, a non-ASCII character or a bare % is refused, naming it",
    arguments: [
      ("http://127.0.0.1:18432/x\r\nX-Injected: 1\r\n\r\n", "its path holds a carriage return (U+000D) at character 3 of the path"),
      ("http://127.0.0.1:18432/a b", "its path holds a space (U+0020) at character 3 of the path"),
      ("http://127.0.0.1:18432/a\tb", "its path holds a tab (U+0009) at character 3 of the path"),
      ("http://127.0.0.1:18432/a\nb", "its path holds a line feed (U+000A) at character 3 of the path"),
      ("http://127.0.0.1:18432/a\u{7F}", "its path holds a control character (U+007F) at character 3 of the path"),
      ("http://127.0.0.1:18432/v1\u{85}", "its path holds a control character (U+0085) at character 4 of the path"),
      ("http://127.0.0.1:18432/caf\u{E9}", "its path holds the non-ASCII character U+00E9"),
      ("http://127.0.0.1:18432/a\u{202E}b", "its path holds the non-ASCII character U+202E"),
      ("http://127.0.0.1:18432/a\"b", #"its path holds '"' (U+0022) at character 3 of the path"#),
      ("http://127.0.0.1:18432/a%2", "its path holds a '%' that does not start a %XX escape at character 3 of the path"),
    ])
  func refused(_ url: String, _ why: String) {
    do {
      _ = try LoopbackURLValidator.validate(url, name: "--model-url")
      Issue.record("accepted \(url.debugDescription)")
    } catch {
      let message = error.description
      #expect(message.hasPrefix("--model-url '"), "\(message)")
      #expect(message.contains(why), "\(message)")
      #expect(message.hasSuffix(LoopbackURLValidator.allowedForm), "\(message)")
      // The URL is quoted with its controls escaped: the message is one line, control-free.
      #expect(!message.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(message.debugDescription)")
    }
  }

  @Test("paths of URL path characters and %XX escapes are accepted; 127.0.0.0/8 as README says")
  func accepted() throws {
    #expect(try LoopbackURLValidator.validate("http://127.0.0.1:8080/v1").basePath == "/v1")
    #expect(try LoopbackURLValidator.validate("http://127.0.0.1:8080/my%20models/v1/").basePath == "/my%20models/v1")
    #expect(try LoopbackURLValidator.validate("http://127.0.0.1:8080/a-b_c.d~e!$&'()*+,;=:@").basePath == "/a-b_c.d~e!$&'()*+,;=:@")
    #expect(try LoopbackURLValidator.validate("http://127.0.0.2:8080").address == "127.0.0.2")
    #expect(LoopbackURLValidator.allowedForm.contains("127.0.0.0/8") && LoopbackURLValidator.allowedForm.contains("[::1]"))
  }

  @Test("a refusal names the source it is given, by default `model URL`")
  func named() {
    #expect(throws: AgentError.model(
      "DOLPHIN_MODEL_URL 'http://evil.com' refused: the host must be a loopback address; \(LoopbackURLValidator.allowedForm)")
    ) { try LoopbackURLValidator.validate("http://evil.com", name: "DOLPHIN_MODEL_URL") }
    #expect(throws: AgentError.model("model URL 'ftp://x' refused: the scheme must be http; \(LoopbackURLValidator.allowedForm)")) {
      try LoopbackURLValidator.validate("ftp://x")
    }
  }

  @Test("the HTTP client itself refuses such a path before it connects: the server receives nothing")
  func clientNeverWritesItRaw() throws {
    let server = try TinyHTTPServer(reply: #"{"choices":[{"message":{"content":"pong"}}]}"#)
    defer { server.stop() }
    let endpoint = try LoopbackURLValidator.validate("http://127.0.0.1:\(server.port)")
    do {
      _ = try LoopbackHTTP.post(endpoint, path: "/x\r\nX-Injected: 1\r\n\r\n/v1/chat/completions", body: Array("{}".utf8), timeoutSeconds: 5)
      Issue.record("the path was sent")
    } catch {
      #expect("\(error)".contains("the request path holds a carriage return (U+000D) at character 3"), "\(error)")
      #expect("\(error)".hasSuffix("nothing was sent to the model"), "\(error)")
    }
    #expect(server.lastRequest == nil)
    // A clean path still goes through.
    let response = try LoopbackHTTP.post(endpoint, path: "/v1/chat/completions", body: Array("{}".utf8), timeoutSeconds: 5)
    #expect(response.status == 200)
    #expect(server.lastRequest?.hasPrefix("POST /v1/chat/completions HTTP/1.1\r\n") == true)
  }
}
