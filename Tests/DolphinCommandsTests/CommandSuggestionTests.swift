@testable import DolphinCommands
import Testing

/// The "did you mean" of an unknown command word, over the real command list.
@Suite("Unknown-command suggestions")
struct CommandSuggestionTests {
  static let paths = Commands.all.map(\.spec.path)

  /// A synonym naming a command that does not exist would be skipped silently; each must name one.
  @Test("every synonym names a command that exists, and is what an unknown word is offered", arguments: CommandSuggestion.synonyms.map(\.word))
  func synonymsNameRealCommands(_ word: String) throws {
    let synonym = try #require(CommandSuggestion.synonyms.first { $0.word == word })
    #expect(Self.paths.contains(synonym.command.split(separator: " ").map(String.init)), "\(synonym.command)")
    let message = CommandSuggestion.unknownCommand(word, paths: Self.paths)
    #expect(message.contains("did you mean `\(synonym.command)`, \(synonym.does)?"), "\(message)")
  }

  @Test("case, a group's subcommand alone, a near miss within 2 edits, and otherwise the list")
  func orderOfSuggestions() {
    #expect(CommandSuggestion.unknownCommand("Search", paths: Self.paths).contains("did you mean `search`?"))
    #expect(CommandSuggestion.unknownCommand("list", paths: Self.paths).contains("`knowledge list`"))
    #expect(CommandSuggestion.unknownCommand("stauts", paths: Self.paths).contains("did you mean `status`?"))
    let far = CommandSuggestion.unknownCommand("xyzzyplugh", paths: Self.paths)
    #expect(far.contains("the commands are ") && !far.contains("did you mean"), "\(far)")
  }
}
