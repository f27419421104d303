import ContinuityKit
import Foundation
import KnowledgeEngine

/// Who calls the tools a ``ToolExecutor`` runs, for the words its errors use to point a user to
/// what takes an id given for the wrong type of record (review 28-d, 4: `knowledge_get` given a
/// task's id, by an MCP client or by `ask`'s `/get`, said only "no knowledge item has the id …").
public enum ToolCaller: Sendable, Equatable {
  /// A client calling tools by name (an MCP client): the note names a tool call,
  /// `(it is a task's id; task_list {"status": "all", "offset": 7, "limit": 1} shows it)`.
  case toolClient
  /// `dolphin ask`, whose user types slash commands: the note names them,
  /// `` (it is a task's id; `dolphin task get <id>` shows it; `/done <id>` completes it and
  /// `/reopen <id>` reopens it) ``.
  case askCommands
}

extension ToolExecutor {
  /// The note a failure of `tool` adds when `error` says no record of the type it takes has the
  /// id of its `id` argument and a record of another type has it
  /// (``KnowledgeEngine/idOwnerNote(for:givenID:advice:)``), in ``caller``'s words; nil
  /// otherwise.
  func idOwnerNote(for error: any Error, tool: ToolDefinition, arguments: JSONObject) -> String? {
    guard let given = arguments["id"]?.string, let id = UUID(uuidString: given.trimmingCharacters(in: .whitespacesAndNewlines))
    else { return nil }
    let advice: IDOwnerAdvice =
      switch caller {
      case .toolClient: .tools(calledFrom: tool.name, in: registry)
      case .askCommands: .askCommands
      }
    return engine.idOwnerNote(for: error, givenID: id, advice: advice)
  }
}

extension IDOwnerAdvice {
  /// The tools' advice for an id given to `tool`: the tool of the record's type that does what
  /// `tool` does (`handoff_get` for a handoff's id given to `knowledge_get`), called with it;
  /// else the call that shows the record (``SearchTools/pointer(to:)``, as `knowledge_search`
  /// names it for an id), or that no tool shows such a record by its id.
  static func tools(calledFrom tool: String, in registry: ToolRegistry) -> IDOwnerAdvice {
    IDOwnerAdvice(forRecord: { place in
      let verb = tool.split(separator: "_", maxSplits: 1).dropFirst().first.map(String.init)
      if let verb, let same = try? registry.tool(named: "\(place.type.rawValue)_\(verb)"),
        case .object(let properties) = same.input, properties.contains(where: { $0.name == "id" })
      {
        return "give it to \(same.name) {\"id\": \"\(place.id.uuidString)\"}"
      }
      guard let (call, does) = SearchTools.pointer(to: place) else { return SearchTools.noToolShows(place.type) }
      return "\(call) \(does)"
    })
  }

  /// `ask`'s advice: the slash command that takes a record of the type (``AgentRequestRouter/commands``):
  /// `/get` for a knowledge item (and a memory's knowledge mirror), `/done` and `/reopen` for a
  /// task, `/restore` for a handoff; or that no command takes such a record. A task, which no
  /// slash command shows, is also pointed to `dolphin task get ID`, the command that shows it
  /// (review 29-b, 7: `/get <a task's id>` was pointed only to the commands that change it); so
  /// is a handoff to `dolphin handoff get ID`, since `/restore` marks it restored (review 30-b).
  static let askCommands = IDOwnerAdvice(forRecord: { place in
    let u = place.id.uuidString
    switch place.type {
    case .knowledge: return "`/get \(u)` shows it"
    case .memory:
      guard let mirror = place.mirrorID else { return "no ask command takes a legacy memory's id" }
      return "`/get \(mirror.uuidString)` shows its text (the memory's knowledge mirror)"
    case .task:
      return "`\(command: "dolphin task get \(place.id)")` shows it; `/done \(u)` completes it and `/reopen \(u)` reopens it"
    case .handoff:
      return "`\(command: "dolphin handoff get \(place.id)")` shows it; `/restore \(u)` restores it"
    case .digest, .receipt: return "no ask command takes \(place.type.possessiveID)"
    }
  })
}
