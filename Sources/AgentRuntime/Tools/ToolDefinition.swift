import ContinuityKit
import Foundation
import KnowledgeEngine

/// What a tool may do to the workspace.
public enum RiskClass: String, Sendable, Codable, CaseIterable {
  /// Reads only; runs without approval and cannot mutate the workspace.
  case readOnly
  /// Writes to the local workspace; an agent call needs the user's approval of that exact call.
  case localWrite
}

/// What a tool handler gets.
public struct ToolContext: Sendable {
  /// The engine. For `readOnly` tools its store refuses writes.
  public var engine: KnowledgeEngine
  /// Chat lines a handoff may copy (most recent last), supplied by the session.
  public var recentExcerpts: [String]
  /// How this call was approved, as its receipt records it (`user`, `user:--yes`,
  /// `mcp:elicitation`, `policy:allow`), or nil for a call that needs no approval (and for
  /// the checks run before one is asked).
  public var approval: String?

  public init(engine: KnowledgeEngine, recentExcerpts: [String] = [], approval: String? = nil) {
    self.engine = engine
    self.recentExcerpts = recentExcerpts
    self.approval = approval
  }

  /// Whether the call runs under a standing policy (`policy:…`) rather than an approval of
  /// this call by a person.
  public var isApprovedByPolicy: Bool { approval?.hasPrefix("policy:") ?? false }
}

/// A tool: canonical name, description, strict input schema, output schema, risk class,
/// output cap, and a handler that receives validated, normalized arguments.
public struct ToolDefinition: Sendable {
  /// The canonical name, e.g. `knowledge_search`.
  public var name: String
  /// A short human title.
  public var title: String
  public var description: String
  public var input: ToolSchema
  /// JSON Schema of the structured output (an object).
  public var outputSchema: JSONValue
  public var risk: RiskClass
  /// Whether repeating the same call has no further effect.
  public var isIdempotent: Bool
  /// Maximum characters of the text rendering (≤ ``Limits/renderedToolOutput``).
  public var outputCap: Int
  /// Whether the tool exists on this platform/configuration (capability gating).
  public var isAvailable: Bool
  /// Whether a call with these (normalized) arguments ranks records over the persisted search
  /// index. The executor then prepares the index first (``KnowledgeEngine/prepareSearchIndex()``),
  /// so that a stale one is rebuilt once instead of indexed in memory by every call.
  public var usesSearchIndex: @Sendable (JSONObject) -> Bool
  /// Checks what the input schema cannot express — arguments that are each valid but not
  /// together — over the normalized arguments, before anything runs (so that
  /// ``ToolExecutor/refusal(of:)`` sees it too): the error naming the argument, or nil.
  public var argumentConflict: @Sendable (JSONObject) -> ToolArgumentError?
  /// For a `localWrite` tool: the engine's own checks of the write that need no write —
  /// credential-looking text, ids that name no record (``KnowledgeEngine/checkCapture(_:)`` and
  /// its kin) — run by ``ToolExecutor`` with the normalized arguments on a store that refuses
  /// writes, before it asks for approval, so that nobody is asked to approve a call that cannot
  /// succeed. It throws what ``handler`` would throw for the same reason; nil checks nothing.
  public var preflight: (@Sendable (JSONObject, ToolContext) throws -> Void)?
  /// For a `localWrite` tool: what the call will change besides the records its arguments name
  /// — the rule-built summaries of handoffs that carry a task it completes, or an item it
  /// supersedes — one clause each (`rewrite the rule-built summary of handoff <id> "Focus"`),
  /// read by ``ToolExecutor`` after ``preflight`` on the same store that refuses writes, and
  /// shown with the approval request (``ApprovalRequest/alsoChanges``). Nil (or an error, which
  /// the handler will meet and report) says nothing more.
  public var alsoChanges: (@Sendable (JSONObject, ToolContext) throws -> [String])?
  /// For a `localWrite` tool: the answer to a call that will certainly change nothing — a task
  /// completed already, a handoff active already, no active handoff to clear — read by
  /// ``ToolExecutor`` after ``preflight`` on the same store that refuses writes, and sent
  /// without asking for approval: the output ``handler`` gives such a call ("nothing changed",
  /// no changed ids). Nil (or a nil answer) when the call may change something; an error it
  /// throws fails the call, as the handler's would.
  public var unchangedAnswer: (@Sendable (JSONObject, ToolContext) throws -> ToolOutput?)?
  /// For a `localWrite` tool whose arguments may name a record by something other than its
  /// exact id (`handoff_restore`'s `latest` or the start of an id): the normalized arguments
  /// with each such reference replaced by the id it names now. ``ToolExecutor`` reads it on a
  /// store that refuses writes before it asks for approval, runs ``handler`` with what it
  /// returned, and reads it again once the call is approved: when the reference names another
  /// record by then (a newer handoff became `latest` while the dialog was open), the call is
  /// refused (``AgentError/changedWhilePending(tool:change:)``) rather than run on a record the
  /// approval did not name (review 31-a, 1). It throws what ``handler`` would throw for a
  /// reference that names nothing; nil when every reference is an exact id.
  public var resolvingReferences: (@Sendable (JSONObject, ToolContext) throws -> JSONObject)?
  /// Runs the tool with normalized arguments (a JSON object).
  public var handler: @Sendable (JSONObject, ToolContext) async throws -> ToolOutput

  public init(
    name: String, title: String, description: String, input: ToolSchema, outputSchema: JSONValue,
    risk: RiskClass, isIdempotent: Bool, outputCap: Int = Limits.renderedToolOutput, isAvailable: Bool = true,
    usesSearchIndex: @escaping @Sendable (JSONObject) -> Bool = { _ in false },
    argumentConflict: @escaping @Sendable (JSONObject) -> ToolArgumentError? = { _ in nil },
    preflight: (@Sendable (JSONObject, ToolContext) throws -> Void)? = nil,
    alsoChanges: (@Sendable (JSONObject, ToolContext) throws -> [String])? = nil,
    unchangedAnswer: (@Sendable (JSONObject, ToolContext) throws -> ToolOutput?)? = nil,
    resolvingReferences: (@Sendable (JSONObject, ToolContext) throws -> JSONObject)? = nil,
    handler: @escaping @Sendable (JSONObject, ToolContext) async throws -> ToolOutput
  ) {
    self.name = name
    self.title = title
    self.description = description
    self.input = input
    self.outputSchema = outputSchema
    self.risk = risk
    self.isIdempotent = isIdempotent
    self.outputCap = min(outputCap, Limits.renderedToolOutput)
    self.isAvailable = isAvailable
    self.usesSearchIndex = usesSearchIndex
    self.argumentConflict = argumentConflict
    self.preflight = preflight
    self.alsoChanges = alsoChanges
    self.unchangedAnswer = unchangedAnswer
    self.resolvingReferences = resolvingReferences
    self.handler = handler
  }

  /// The input JSON Schema.
  public var inputSchema: JSONValue { input.jsonSchema }

  /// Validates and normalizes `arguments` (absent or null counts as `{}`), then checks them
  /// together (``argumentConflict``).
  /// - Throws: ``ToolArgumentError``.
  public func normalize(_ arguments: JSONValue?) throws(ToolArgumentError) -> JSONObject {
    let given = arguments.flatMap { $0.isNull ? nil : $0 } ?? .object(JSONObject())
    guard case .object(let o) = try input.validate(given, path: "arguments") else {
      throw ToolArgumentError(field: "arguments", message: "arguments must be an object")
    }
    if let conflict = argumentConflict(o) { throw conflict }
    return o
  }

  /// The argument error that `error`, thrown by the engine while the tool ran, amounts to: a
  /// ``ValidationError`` (bare or in ``WorkspaceError/validation(_:)``) whose field is one of
  /// this tool's arguments (`tag`, or an element of one such as `tags[2]`), becomes a
  /// ``ToolArgumentError`` with field `arguments.<field>` and the engine's message. Nil for
  /// anything else, and for a missing record or refused credential, which callers tell apart by
  /// their own flags (``ToolCallResult/failedOnMissingRecord``, the credential advice).
  /// - Parameter error: what the tool's handler threw.
  /// - Returns: the argument error, or nil when `error` is not about one of the arguments.
  public func argumentError(from error: any Error) -> ToolArgumentError? {
    let validation: ValidationError
    switch error {
    case let v as ValidationError: validation = v
    case WorkspaceError.validation(let v): validation = v
    default: return nil
    }
    guard validation.missingRecord == nil, validation.credential == nil,
      case .object(let properties) = input
    else { return nil }
    // `tags[2]` and `relationships[0].targetID` belong to the arguments `tags` and `relationships`.
    let argument = validation.field.prefix { $0 != "[" && $0 != "." }
    guard properties.contains(where: { $0.name == argument }) else { return nil }
    return ToolArgumentError(arguments: validation)
  }

  /// The argument, spelled as the caller gave it, that holds the id a missing-record error
  /// names (review 22, 5: `relationships[0]: no knowledge item has the id …` named the
  /// engine's field, not the argument, and carried no field): for a ``ValidationError`` (bare
  /// or in ``WorkspaceError/validation(_:)``) marked ``ValidationError/missingRecord`` whose
  /// field belongs to one of this tool's arguments, the path of the first value of that
  /// argument in `given` that is the missing id — `arguments.relationships[0].targetID`,
  /// `arguments.knowledgeIDs[2]` — found in the arguments as sent (before duplicates were
  /// dropped, so the index is the caller's own), with the engine's message under that name.
  /// - Parameters:
  ///   - error: what the tool's handler or preflight threw.
  ///   - given: the call's arguments as sent.
  /// - Returns: the field and message, or nil when `error` is no missing record of an argument,
  ///   or the id cannot be found among the arguments given.
  /// - Complexity: O(n) in the size of the named argument.
  public func missingRecordArgument(from error: any Error, given: JSONValue?) -> ToolArgumentError? {
    let validation: ValidationError
    switch error {
    case let v as ValidationError: validation = v
    case WorkspaceError.validation(let v): validation = v
    default: return nil
    }
    guard let missing = validation.missingRecord, let id = UUID(uuidString: missing.id),
      case .object(let properties) = input, case .object(let arguments)? = given
    else { return nil }
    let argument = String(validation.field.prefix { $0 != "[" && $0 != "." })
    guard properties.contains(where: { $0.name == argument }), let value = arguments[argument],
      let path = Self.path(of: id, in: value, at: "arguments.\(argument)")
    else { return nil }
    // `relationships[0]: no knowledge item has the id …` → `<path>: no knowledge item has the id …`.
    let detail =
      validation.message.hasPrefix(validation.field + ":")
      ? String(validation.message.dropFirst(validation.field.count)) : ": " + validation.message
    return ToolArgumentError(field: path, message: path + detail)
  }

  /// The path below `prefix` of the first string in `value` that spells `id` (any case), in
  /// array order and an object's key order; nil when none does.
  private static func path(of id: UUID, in value: JSONValue, at prefix: String) -> String? {
    switch value {
    case .string(let text): return UUID(uuidString: text) == id ? prefix : nil
    case .array(let elements):
      for (i, element) in elements.enumerated() {
        if let found = path(of: id, in: element, at: "\(prefix)[\(i)]") { return found }
      }
      return nil
    case .object(let members):
      for key in members.keys {
        if let member = members[key], let found = path(of: id, in: member, at: "\(prefix).\(key)") { return found }
      }
      return nil
    default: return nil
    }
  }
}
