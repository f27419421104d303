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
      advice = sameVerbAdvice(same.spec, id: id)
    } else {
      let (shown, does) = SearchCommands.pointer(to: place)
      advice = "`\(shown)` \(does)"
    }
    return CLIError.notFound(error.localizedDescriptionForCLI + place.type.heldIDNote(advice))
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
