import ContinuityKit
import Foundation
import KnowledgeEngine

/// A tool call the router planned.
public struct PlannedCall: Sendable, Equatable {
  public var tool: String
  public var arguments: JSONValue

  public init(tool: String, arguments: JSONValue) {
    self.tool = tool
    self.arguments = arguments
  }
}

/// What the router decided for one user message. Inspectable: `kind` and `reason` say why.
public struct Route: Sendable, Equatable {
  public enum Kind: String, Sendable, Codable {
    /// No tool at all (greetings, thanks, small talk, unknown or malformed commands).
    case conversation
    /// An explicit command: a deterministic plan that finishes from the renderers, no model turn.
    case deterministic
    /// Free text: at most read-only tools (a knowledge search for grounding), then the model
    /// (or, with none configured, the deterministic renderer).
    case modelAssistedRead
  }

  public var kind: Kind
  public var plan: [PlannedCall]
  /// Why this route, for display (`/search command`, `greeting`, …).
  public var reason: String
  /// True for a `/command` the router could not run: an unknown name, a known one missing what
  /// it needs (a `/capture` without a kind or a one-line title), or one given words it takes
  /// none of (`/tasks open`). Nothing runs; a caller can treat it as a usage error.
  public var isMalformedCommand: Bool
  /// A fixed answer for a route that runs nothing and has one to give (`/help`: the commands);
  /// nil for every other route.
  public var answer: String?

  /// For a malformed command, what is wrong, without the route's `: no tool` (`unknown command
  /// /cap; did you mean /capture?` for the reason `unknown command /cap: no tool; did you mean
  /// /capture?`); nil for every other route.
  public var commandProblem: String? {
    guard isMalformedCommand else { return nil }
    // `: no tool` follows the problem, before any suggestion; what follows it (a suggestion, the
    // command names) never holds it, while the problem may quote the user's words (`/tasks
    // takes no arguments, and 'a: no tool' was given`), so the last one is the route's own.
    guard let marker = reason.range(of: Self.noToolMarker, options: .backwards) else { return reason }
    return reason.replacingCharacters(in: marker, with: "")
  }

  /// What every route that plans no tool says after why (`greeting or small talk: no tool`).
  static let noToolMarker = ": no tool"

  /// Makes a route.
  /// - Parameters:
  ///   - kind: the kind of route.
  ///   - plan: the tool calls, in order.
  ///   - reason: why, for display.
  ///   - isMalformedCommand: whether it is a `/command` that cannot run.
  ///   - answer: a fixed answer for a route that runs nothing (see ``answer``).
  public init(kind: Kind, plan: [PlannedCall], reason: String, isMalformedCommand: Bool = false, answer: String? = nil) {
    self.kind = kind
    self.plan = plan
    self.reason = reason
    self.isMalformedCommand = isMalformedCommand
    self.answer = answer
  }
}

/// The deterministic, inspectable router.
///
/// Rules, in order:
/// 1. Text starting with `/` is a command only when the word after `/` is exactly one of
///    ``commands`` (`/cap` and `/captures` are not `/capture`); a malformed command — unknown,
///    incomplete, or given words it does not take — becomes a `conversation` route that says
///    what is wrong and plans nothing.
/// 2. A message without a letter or a digit (only emoji, symbols or punctuation: `👍`, `?!`)
///    plans nothing and answers that there is nothing to act on and how to ask
///    (``nothingToActOn``).
///    Greetings, thanks and small talk (``smallTalk``, several languages) plan nothing.
/// 3. Any other text is `modelAssistedRead`: at most a `knowledge_search` (read-only) for
///    grounding. Free text never plans a write, a restore, a deletion, an analysis or a task
///    change, however it is phrased ("note that…?", "decided how to…?").
public struct AgentRequestRouter: Sendable {
  public init() {}

  /// The explicit commands and what they plan.
  public static let commands: [(name: String, usage: String)] = [
    ("search", "/search <words>"),
    ("get", "/get <uuid>"),
    ("capture", "/capture <kind>: <title> [| <content>]"),
    ("remember", "/remember <text>"),
    ("context", "/context"),
    ("review", "/review"),
    ("insights", "/insights"),
    ("handoff", "/handoff <focus>"),
    ("handoffs", "/handoffs"),
    ("restore", "/restore <uuid>"),
    ("analyze", "/analyze <swift code>"),
    ("tasks", "/tasks"),
    ("task", "/task [add] <title>"),
    ("done", "/done <uuid>"),
    ("reopen", "/reopen <uuid>"),
    ("help", "/help"),
  ]

  /// What an unknown command's message ends with: `(commands: /search /get … /help; /help
  /// shows their usage)`.
  public static var commandNames: String {
    "(commands: " + commands.map { "/" + $0.name }.joined(separator: " ") + "; /help shows their usage)"
  }

  /// What `/help` and `ask --help` say of `/analyze` and credentials: the message is refused
  /// before the analysis runs, so the file command is the way to check such code (review
  /// 28-c, 4).
  public static let analyzeCredentialNote =
    "/analyze refuses code that looks like it holds a credential (the message would stay in the chat log); "
    + "`dolphin analyze FILE` checks such code and reports hardcoded_secret without printing the line."

  /// The commands, one usage per line (what `/help` answers and an unknown command lists).
  public static var commandList: String {
    commands.map { "  " + $0.usage }.joined(separator: "\n")
  }

  /// Whole messages (after trimming, lowercasing, and dropping trailing punctuation and emoji)
  /// that are greetings, thanks or small talk.
  public static let smallTalk: Set<String> = [
    "hi", "hello", "hey", "hey there", "hello there", "hiya", "yo", "good morning", "good afternoon", "good evening",
    "good night", "thanks", "thank you", "thanks a lot", "thank you very much", "thx", "ty", "cheers", "ok", "okay",
    "cool", "great", "nice", "bye", "goodbye", "see you", "how are you", "how are you doing", "what's up", "whats up",
    "sup", "hallo", "guten morgen", "guten tag", "danke", "danke schön", "danke schon", "tschüss", "bonjour", "salut",
    "merci", "merci beaucoup", "au revoir", "hola", "buenos días", "buenos dias", "gracias", "adiós", "adios", "ciao",
    "grazie", "buongiorno", "olá", "ola", "obrigado", "obrigada", "привет", "спасибо", "здравствуйте", "こんにちは",
    "ありがとう", "おはよう", "你好", "谢谢", "안녕하세요", "감사합니다", "merhaba", "teşekkürler", "hej", "tack", "dank je", "hoi",
  ]

  /// Routes one user message.
  public func route(_ text: String) -> Route {
    let trimmed = Sanitizer.sanitize(text).trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { return Route(kind: .conversation, plan: [], reason: "empty message") }
    if trimmed.hasPrefix("/") { return command(trimmed) }
    // Review 29-b, 7: `👍` was answered "No tool was run (greeting or small talk: no tool)".
    if !trimmed.unicodeScalars.contains(where: Self.isWordScalar) {
      return Route(
        kind: .conversation, plan: [], reason: "no words to act on (only emoji, symbols or punctuation)\(Route.noToolMarker)",
        answer: Self.nothingToActOn)
    }
    if Self.isSmallTalk(trimmed) { return Route(kind: .conversation, plan: [], reason: "greeting or small talk: no tool") }
    // A long message is searched by its start, cut between words as the search cuts a long
    // query, and the route says so (review 28-d, 9: it was cut mid-word at 500 characters, and
    // the fragment, `he` of `hello`, was then reported as a word).
    let query = HybridLexicalRanker.searchedPart(of: trimmed)
    let cut =
      query.count < trimmed.count
      ? "; the message is \(trimmed.count) characters, and only its first \(query.count) are searched (a query is "
        + "searched by its first \(Limits.query), cut between words)"
      : ""
    return Route(
      kind: .modelAssistedRead,
      plan: [PlannedCall(tool: "knowledge_search", arguments: .object(["query": .string(query), "limit": 8]))],
      reason: "free text: read-only knowledge search for grounding, no writes" + cut)
  }

  /// What a message without a letter or a digit is answered (only emoji, symbols or
  /// punctuation): there is nothing to act on, and how to ask.
  public static let nothingToActOn =
    "Nothing to act on: the message holds no words, only emoji, symbols or punctuation. Ask in words "
    + "(a question, or words to search your knowledge for), or send /help for the commands."

  /// Whether `u` makes a word: a letter (alphabetic) or a digit (any numeric scalar).
  static func isWordScalar(_ u: Unicode.Scalar) -> Bool { u.properties.isAlphabetic || u.properties.numericType != nil }

  static func isSmallTalk(_ text: String) -> Bool {
    var t = text.lowercased()
    while let last = t.unicodeScalars.last, !isWordScalar(last) { t.unicodeScalars.removeLast() }
    while let first = t.unicodeScalars.first, !isWordScalar(first) { t.unicodeScalars.removeFirst() }
    t = t.trimmingCharacters(in: .whitespaces)
    // Only emoji or punctuation: nothing to search for (``route(_:)`` answers such a message first).
    if t.isEmpty { return true }
    if smallTalk.contains(t) { return true }
    // "hi dolphin", "thanks!" with a name: greeting word followed by at most one more word.
    let words = t.split(separator: " ")
    if words.count == 2, smallTalk.contains(String(words[0])) { return true }
    return false
  }

  func command(_ text: String) -> Route {
    let body = text.dropFirst()
    let word = String(body.prefix { !$0.isWhitespace })
    var rest = body.dropFirst(word.count).trimmingCharacters(in: .whitespacesAndNewlines)
    // An argument of characters that show nothing (a Braille blank, a soft hyphen) is as
    // missing as a blank one: the command is incomplete, not a call that fails later.
    if Sanitizer.showsNothing(rest) { rest = "" }
    let name = word.lowercased()
    guard Self.commands.contains(where: { $0.name == name }) else {
      // The suggestion ends the sentence, as the CLI's do (`unknown command 'serch'; did you
      // mean `search`?`): a `?` followed by `: no tool` would not read as one.
      // Review 18-b (B13): the error listed none of the commands, and `/help` was unknown.
      let hint = NearestName.suggest(name, in: Self.commands.map(\.name)).map { "; did you mean /\($0)?" } ?? ""
      return Route(
        kind: .conversation, plan: [],
        reason: "unknown command /\(word)\(Route.noToolMarker)\(hint) \(Self.commandNames)",
        isMalformedCommand: true)
    }
    func plan(_ tool: String, _ args: JSONObject) -> Route {
      Route(kind: .deterministic, plan: [PlannedCall(tool: tool, arguments: .object(args))], reason: "/\(name) command")
    }
    func needs(_ what: String) -> Route {
      let usage = Self.commands.first { $0.name == name }?.usage ?? "/\(name)"
      return Route(
        kind: .conversation, plan: [], reason: "/\(name) needs \(what) (usage: \(usage)): no tool", isMalformedCommand: true)
    }
    // A command that takes no argument refuses words after it rather than dropping them:
    // `/tasks open` listed every task, `/context please delete everything` ran as `/context`
    // (review 28-c, 11). Every such command answers alike.
    func takesNothing() -> Route? {
      guard !rest.isEmpty else { return nil }
      let usage = Self.commands.first { $0.name == name }?.usage ?? "/\(name)"
      let given = Truncation.truncate(TerminalText.singleLine(rest), to: 60)
      return Route(
        kind: .conversation, plan: [],
        reason: "/\(name) takes no arguments, and '\(given)' was given (usage: \(usage))\(Route.noToolMarker)",
        isMalformedCommand: true)
    }
    switch name {
    case "search": return rest.isEmpty ? needs("words to search for") : plan("knowledge_search", ["query": .string(rest)])
    case "get": return rest.isEmpty ? needs("an id") : plan("knowledge_get", ["id": .string(rest)])
    case "capture":
      guard let colon = rest.firstIndex(of: ":") else { return needs("a kind and a title") }
      let kind = rest[..<colon].trimmingCharacters(in: .whitespaces)
      // `/capture : x` lacks its kind as `/capture x` does: the same usage verdict, not a call
      // that fails in the tool and leaves a failed receipt (review 28-c, 11).
      if Sanitizer.showsNothing(kind) { return needs("a kind") }
      let after = rest[rest.index(after: colon)...]
      let parts = after.split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
      guard let title = parts.first, !Sanitizer.showsNothing(title) else { return needs("a title") }
      // The title is one line; the content follows ` | ` (review 28-c, 11: a second line was
      // stored in the title, `Captured fact "A\n/remember B"`).
      if title.contains(where: \.isNewline) {
        return needs("a title on one line; put more lines after ` | ` as the content")
      }
      var args: JSONObject = ["kind": .string(kind), "title": .string(title)]
      if parts.count > 1 { args["content"] = .string(parts[1]) }
      return plan("knowledge_capture", args)
    case "remember": return rest.isEmpty ? needs("text") : plan("memory_save", ["text": .string(rest)])
    case "context": return takesNothing() ?? plan("project_context", [:])
    case "review": return takesNothing() ?? plan("project_review", [:])
    case "insights": return takesNothing() ?? plan("continuity_insights", [:])
    case "handoff": return rest.isEmpty ? needs("a focus") : plan("handoff_create", ["focus": .string(rest)])
    case "handoffs": return takesNothing() ?? plan("handoff_list", [:])
    case "restore": return rest.isEmpty ? needs("a handoff id") : plan("handoff_restore", ["id": .string(rest)])
    case "analyze": return rest.isEmpty ? needs("Swift code") : plan("code_analyze", ["code": .string(rest)])
    case "tasks": return takesNothing() ?? plan("task_list", [:])
    case "task":
      // `/task add Buy milk` is the CLI's `task add` habit: the `add` is not part of the title.
      var title = rest
      if title == "add" || (title.hasPrefix("add") && title.dropFirst(3).first?.isWhitespace == true) {
        title = title.dropFirst(3).trimmingCharacters(in: .whitespacesAndNewlines)
      }
      if Sanitizer.showsNothing(title) { return needs("a title") }
      // One line, as `/capture` takes its title (review 28-c, 11): a second line would be stored
      // in the task's title.
      if title.contains(where: \.isNewline) { return needs("a title on one line") }
      return plan("task_add", ["title": .string(title)])
    case "help":
      if let refused = takesNothing() { return refused }
      return Route(
        kind: .conversation, plan: [], reason: "/help command\(Route.noToolMarker)",
        answer: "Commands (each runs one tool; writes ask for approval first):\n" + Self.commandList
          + "\nAny other text only reads: a knowledge search for grounding."
          + "\n" + Self.analyzeCredentialNote)
    case "done": return rest.isEmpty ? needs("a task id") : plan("task_complete", ["id": .string(rest)])
    case "reopen": return rest.isEmpty ? needs("a task id") : plan("task_reopen", ["id": .string(rest)])
    default: return needs("arguments")
    }
  }
}
