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
      let note = engine.idOwnerNote(for: error, givenID: id, advice: commandAdvice(verb: spec.path.count == 2 ? spec.path[1] : nil, id: id))
    else { return error }
    return CLIError.notFound(error.localizedDescriptionForCLI + note)
  }

  /// How this CLI names what takes a record given to the subcommand `verb` (`get`, `delete`):
  /// the same subcommand of the record's type (`dolphin task delete <id>`) when there is one,
  /// else the command that shows it; for a memory's knowledge mirror given to `memory <verb>`,
  /// `dolphin memory <verb> <memory id>` (review 28-c, 12).
  private func commandAdvice(verb: String?, id: UUID) -> IDOwnerAdvice {
    // The same subcommand of each other record type, worded with the options given
    // (``sameVerbAdvice(_:id:)``), ahead: the advice closures are `Sendable`, this context is not.
    var sameVerb: [String: String] = [:]
    if let verb {
      for other in Commands.all where other.spec.path.count == 2 && other.spec.path[1] == verb && !other.spec.positionals.isEmpty {
        sameVerb[other.spec.path[0]] = sameVerbAdvice(other.spec, id: id)
      }
    }
    let sameVerbAdvice = sameVerb
    // Called while the command runs, so `\(command:)` names the workspace in effect.
    return IDOwnerAdvice(
      forRecord: { place in
        if let advice = sameVerbAdvice[place.type.rawValue] { return advice }
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

extension CommandContext {
  /// `give it to `dolphin knowledge edit ID --title 'New title'``: the command of the record's
  /// type with this command's verb, and the options given that it takes too, with their values,
  /// so that pasted as shown it does what was asked (review 28-d, 9: `task edit <knowledge id>
  /// --title x` advised `knowledge edit ID`, which then fails with "nothing to change"). An
  /// option it does not take is named as such, with where its options are listed; when none of
  /// the options given carries over, only that is said, since the bare command would fail.
  func sameVerbAdvice(_ target: CommandSpec, id: UUID) -> String {
    let takes = Dictionary(target.allOptions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var line = SuggestedCommand.StringInterpolation(literalCapacity: 64, interpolationCount: 4)
    line.appendLiteral("dolphin ")
    // One interpolation per word: each is shell-quoted as one word.
    line.appendInterpolation(target.path[0])
    line.appendLiteral(" ")
    line.appendInterpolation(target.path[1])
    line.appendLiteral(" ")
    line.appendInterpolation(id)
    var carried = 0
    var dropped: [String] = []
    // This command's own options, in its order (`--workspace` is added by the suggestion,
    // `--json` and `--help` are not what was asked).
    for option in spec.options + (spec.confirms ? [OptionSpec(name: "yes", value: nil, help: "")] : []) {
      let values = arguments.all(option.name)
      let given = option.value == nil ? arguments.has(option.name) : !values.isEmpty
      guard given else { continue }
      guard let theirs = takes[option.name], (theirs.value == nil) == (option.value == nil),
        values.count <= 1 || theirs.repeatable
      else {
        dropped.append("--" + option.name)
        continue
      }
      carried += 1
      if option.value == nil {
        line.appendLiteral(" --" + option.name)
      } else {
        for v in values {
          line.appendLiteral(" --" + option.name + " ")
          line.appendInterpolation(v)
        }
      }
    }
    let command = SuggestedCommand(stringInterpolation: line)
    let name = target.path.joined(separator: " ")
    guard !dropped.isEmpty else { return "give it to `\(command: command)`" }
    let list = dropped.joined(separator: ", ")
    let help: SuggestedCommand = "dolphin \(target.path[0]) \(target.path[1]) --help"
    let notTaken = "`\(name)` takes no \(list) (`\(command: help)` lists its options)"
    return carried > 0 ? "give it to `\(command: command)`; \(notTaken)" : notTaken
  }
}

extension Error {
  /// The message ``classify(_:)`` gives this error.
  fileprivate var localizedDescriptionForCLI: String { classify(self).message }
}
