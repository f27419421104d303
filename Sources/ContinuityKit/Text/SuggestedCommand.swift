import Foundation

/// A `dolphin` command line that a message suggests the user run, written so that it pastes
/// into a POSIX shell as shown and acts on the workspace the message is about.
///
/// Built from a string literal: its literal parts are kept as written (`dolphin settings set
/// knowledgeItemLimit N`, placeholders such as `ID`, `FILE` or `…` included), each interpolated
/// value becomes one shell word (``ShellWord/word(_:)``: `'/tmp/my notes/workspace.json'`), and
/// when ``workspace`` names a workspace, ` --workspace DIR` (quoted alike) ends the line:
///
/// ```swift
/// "(e.g. `\(command: "dolphin migrate \(legacyPath)")`)"
/// // (e.g. `dolphin migrate '/tmp/sp ace/workspace.json' --workspace '/tmp/sp ace'`)
/// ```
///
/// Without it, a hint printed by `dolphin status --workspace W` (`dolphin migrate
/// W/workspace.json`, `dolphin settings set knowledgeItemLimit N`) acted, pasted as shown, on
/// the default workspace, or created one (review 24-a, 3 and 7).
package struct SuggestedCommand: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable {
  /// The workspace directory that suggested commands name with `--workspace`, or nil when
  /// they act on the default one (`DOLPHIN_HOME` and its fallbacks) as given.
  ///
  /// The command line binds it, for the time a command runs and reports, to the directory of a
  /// `--workspace` the user gave, and `dolphin mcp` to its workspace whatever the user gave: a
  /// client's user reads the hints in another shell, whose `DOLPHIN_HOME` may differ.
  @TaskLocal package static var workspace: String?

  /// The words as written and quoted, without the workspace.
  private var words: String

  package init(stringLiteral value: String) { words = value }

  package init(stringInterpolation: StringInterpolation) { words = stringInterpolation.words }

  /// Builds a command line: literal parts as written, interpolated values as shell words.
  package struct StringInterpolation: StringInterpolationProtocol {
    var words = ""

    package init(literalCapacity: Int, interpolationCount: Int) {
      words.reserveCapacity(literalCapacity + 16 * interpolationCount)
    }

    /// Words as written by the message: command names, options and placeholders.
    package mutating func appendLiteral(_ literal: String) { words += literal }

    /// A value (a path, a title) as one shell word, quoted when it holds anything a shell reads
    /// specially (``ShellWord/word(_:)``).
    package mutating func appendInterpolation(_ value: String) { words += ShellWord.word(value) }

    /// An id, as ``UUID/uuidString`` spells it (no character in it needs quoting).
    package mutating func appendInterpolation(_ id: UUID) { words += id.uuidString }

    /// A number, in decimal digits.
    package mutating func appendInterpolation(_ number: Int) { words += String(number) }
  }

  /// The command line, ending with ` --workspace DIR` when ``workspace`` is set.
  package var description: String {
    guard let directory = Self.workspace else { return words }
    return words + " --workspace " + ShellWord.word(directory)
  }

  /// The command line for `directory`'s workspace, whatever ``workspace`` is bound to: for a
  /// message about a workspace that is not the one the command runs on (the demo's own).
  package func naming(workspace directory: String) -> String {
    words + " --workspace " + ShellWord.word(directory)
  }
}

extension DefaultStringInterpolation {
  /// `command`'s line, with the `--workspace` in effect (``SuggestedCommand/description``):
  /// "raise it with `\(command: "dolphin settings set knowledgeItemLimit N")`".
  package mutating func appendInterpolation(command: SuggestedCommand) {
    appendLiteral(command.description)
  }
}
