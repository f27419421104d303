import ContinuityKit
import Foundation
import KnowledgeEngine

extension CommandContext {
  /// `error` with what record has the id when it says that no record of the type the command
  /// takes has the id the user gave (``WorkspaceError/notFound(recordType:id:)``) and another
  /// type of record has it: `no knowledge item has the id … (it is a task's id; give it to
  /// `dolphin task delete …`)`, naming the same subcommand of that record's type when there is
  /// one, else the command that shows the record (``SearchCommands/pointer(to:)``). Said as
  /// `search` and `handoff create --knowledge` say it (review 28-a, 2; review 28-b, 10: only
  /// those named the record that has the id), by ``KnowledgeEngine/idOwnerNote(for:givenID:advice:)``,
  /// which words the note for the MCP tools and `ask` too (review 28-d, 4).
  /// Any other error, or an id no record has, is returned as it is.
  /// - Parameter error: what the command threw.
  func namingIDOwner(in error: any Error) -> any Error {
    guard let given = arguments.positionals.first, let id = UUID(uuidString: given.trimmingCharacters(in: .whitespacesAndNewlines)),
      let engine = openedEngine,
      let note = engine.idOwnerNote(for: error, givenID: id, advice: Self.commandAdvice(verb: spec.path.count == 2 ? spec.path[1] : nil))
    else { return error }
    return CLIError.notFound(error.localizedDescriptionForCLI + note)
  }

  /// How this CLI names what takes a record given to the subcommand `verb` (`get`, `delete`):
  /// the same subcommand of the record's type (`dolphin task delete <id>`) when there is one,
  /// else the command that shows it; for a memory's knowledge mirror given to `memory <verb>`,
  /// `dolphin memory <verb> <memory id>` (review 28-c, 12).
  private static func commandAdvice(verb: String?) -> IDOwnerAdvice {
    // Called while the command runs, so `\(command:)` names the workspace in effect.
    IDOwnerAdvice(
      forRecord: { place in
        let same = verb.flatMap { verb in
          Commands.all.first { $0.spec.path == [place.type.rawValue, verb] && !$0.spec.positionals.isEmpty }
        }
        if let same, same.spec.path.count == 2 {
          // One interpolation per word: each is shell-quoted as one word.
          return "give it to `\(command: "dolphin \(same.spec.path[0]) \(same.spec.path[1]) \(place.id.uuidString)")`"
        }
        let (shown, does) = SearchCommands.pointer(to: place)
        return "`\(shown)` \(does)"
      },
      forMirroredMemory: { memory in
        guard let verb, Commands.all.contains(where: { $0.spec.path == ["memory", verb] && !$0.spec.positionals.isEmpty })
        else { return nil }
        return "`\(command: "dolphin memory \(verb) \(memory.uuidString)")`"
      })
  }
}

extension Error {
  /// The message ``classify(_:)`` gives this error.
  fileprivate var localizedDescriptionForCLI: String { classify(self).message }
}
