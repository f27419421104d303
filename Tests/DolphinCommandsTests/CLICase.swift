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
