import ContinuityKit

/// One command line a test runs and expects to be refused: its arguments, what stderr must
/// contain and, when the test checks it, the exit status. Shared by the table-driven CLI tests.
struct CLICase: CustomStringConvertible, Sendable {
  var name: String
  var args: [String]
  /// The expected exit status; nil when the suite checks one status for every case.
  var status: Int32?
  var stderr: String

  init(name: String, args: [String], status: Int32? = nil, stderr: String) {
    self.name = name
    self.args = args
    self.status = status
    self.stderr = stderr
  }

  var description: String { name }
}

/// `text` with ` --workspace W` (W as one shell word) added to each `` `dolphin …` `` command
/// between backquotes, as the command line suggests commands for a workspace the user named
/// (review 24-a, 3): the expected text of a hint printed by a command run with `--workspace`.
func namingWorkspace(_ text: String, _ workspace: String) -> String {
  var out = ""
  var rest = text[...]
  while let open = rest.firstIndex(of: "`") {
    let body = rest[rest.index(after: open)...]
    guard let close = body.firstIndex(of: "`") else { break }
    let command = body[..<close]
    out += rest[..<open] + "`" + command
    if command.hasPrefix("dolphin "), !command.contains("--workspace") { out += " --workspace " + ShellWord.word(workspace) }
    out += "`"
    rest = body[body.index(after: close)...]
  }
  return out + rest
}

extension CLI {
  /// `text` as a command run on this workspace suggests its commands (``namingWorkspace(_:_:)``).
  func naming(_ text: String) -> String { namingWorkspace(text, workspace) }
}
