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
  /// those named the record that has the id), by ``RecordType/heldIDNote(_:expected:)``.
  /// Any other error, or an id no record has, is returned as it is.
  /// - Parameter error: what the command threw.
  func namingIDOwner(in error: any Error) -> any Error {
    guard case WorkspaceError.notFound(let type, let text) = error, let id = UUID(uuidString: text),
      let given = arguments.positionals.first,
      UUID(uuidString: given.trimmingCharacters(in: .whitespacesAndNewlines)) == id,
      let engine = openedEngine, let place = try? engine.recordLocation(of: id),
      place.type.noun != type, !(place.type == .memory && type == "memory")
    else { return error }
    let verb = spec.path.count == 2 ? spec.path[1] : nil
    // A memory command given the id of a memory's knowledge mirror (the id `knowledge list`
    // shows): the memory it mirrors is what the command is about (review 28-c, 12).
    if type == "memory", let memory = place.mirroredMemoryID, let verb,
      Commands.all.contains(where: { $0.spec.path == ["memory", verb] && !$0.spec.positionals.isEmpty })
    {
      return CLIError.notFound(
        error.localizedDescriptionForCLI
          + " (it is the id of the knowledge item mirroring memory \(memory.uuidString); give that memory's id: "
          + "`\(command: "dolphin memory \(verb) \(memory.uuidString)")`)")
    }
    let same = verb.flatMap { verb in
      Commands.all.first { $0.spec.path == [place.type.rawValue, verb] && !$0.spec.positionals.isEmpty }
    }
    let advice: String
    if let same, same.spec.path.count == 2 {
      // One interpolation per word: each is shell-quoted as one word.
      advice = "give it to `\(command: "dolphin \(same.spec.path[0]) \(same.spec.path[1]) \(id.uuidString)")`"
    } else {
      let (shown, does) = SearchCommands.pointer(to: place)
      advice = "`\(shown)` \(does)"
    }
    return CLIError.notFound(error.localizedDescriptionForCLI + place.type.heldIDNote(advice))
  }
}

extension Error {
  /// The message ``classify(_:)`` gives this error.
  fileprivate var localizedDescriptionForCLI: String { classify(self).message }
}
