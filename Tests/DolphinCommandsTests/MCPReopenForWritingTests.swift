import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A running `dolphin mcp` that opened its workspace read-only because the database could not
/// be written stayed read-only after the user fixed the permissions (`chmod 600`); a call that
/// writes now checks again and, once the files can be written, opens the workspace for writing.
/// That must hold also when a read had left the `-wal` and `-shm` files read-only: the server's
/// read-only connection then maps the WAL index read-only, and SQLite shares that mapping with
/// every later connection of the process to the file unless it is closed first.
@Suite(
  "dolphin mcp after the database is made writable again", .serialized,
  .enabled(
    if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
    "as root, needs setpriv to run dolphin as another user (root is never denied a write)"))
struct MCPReopenForWritingTests {
  /// `dolphin ARGS` as a user whom `chmod` can deny writes: uid 65534 when this is root.
  /// A workspace in `directory` (given to uid 65534 when running as root) holding one note,
  /// its database then made read-only (0400).
  /// - Returns: the workspace directory and its database file.
  static func readOnlyWorkspace(in directory: TemporaryDirectory) throws -> (workspace: String, db: String) {
    if getuid() == 0 { chown(directory.path, 65534, 65534) }
    let workspace = directory.appending("ws").path
    let db = workspace + "/workspace.sqlite"
    let (executable, arguments) = command(["capture", "fact", "First note", "--workspace", workspace])
    #expect(try runProcess(executable, arguments).status == 0)
    chmod(db, 0o400)
    return (workspace, db)
  }

  static func command(_ args: [String]) -> (executable: String, arguments: [String]) {
    let dolphin = dolphinExecutable().path
    guard getuid() == 0 else { return (dolphin, args) }
    return ("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", dolphin] + args)
  }

  /// A `dolphin mcp` process that is sent one line at a time and answers before the next.
  final class Server {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    var buffered = Data()

    init(_ args: [String]) throws {
      let (executable, arguments) = MCPReopenForWritingTests.command(args)
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      process.standardInput = input
      process.standardOutput = output
      process.standardError = errors
      try process.run()
    }

    func send(_ line: String) {
      input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Reads stdout until the response with the JSON id `id` arrives.
    func response(_ id: String) throws -> JSONValue {
      while true {
        while let newline = buffered.firstIndex(of: 0x0A) {
          let line = buffered[buffered.startIndex..<newline]
          buffered = Data(buffered[(newline + 1)...])
          let message = try JSONValue(parsing: String(decoding: line, as: UTF8.self))
          if message["id"].map({ $0.jsonString() }) == id { return message }
        }
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { throw CocoaError(.fileReadUnknown) }
        buffered.append(chunk)
      }
    }

    /// Closes stdin, waits for the exit, and returns stderr.
    func finish() -> String {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
      return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
  }

  static func capture(_ id: Int, _ title: String) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"\#(title)"}}}"#
  }

  /// How the workspace came to be read-only before the server started.
  struct Scenario: CustomTestStringConvertible, Sendable {
    var testDescription: String
    /// A read (`dolphin status`) after `chmod 400`, as this user: it leaves the `-wal` and
    /// `-shm` files at 0400, which the server's read-only connection then opens read-only.
    var readWhileReadOnly: Bool
  }

  static let scenarios = [
    Scenario(testDescription: "only the database made read-only", readWhileReadOnly: false),
    Scenario(testDescription: "a read while it was read-only left its -wal and -shm at 0400", readWhileReadOnly: true),
  ]

  @Test(
    "a write after chmod 600 reopens the workspace for writing and succeeds; before it, the write fails as read-only",
    arguments: scenarios)
  func writesAfterChmod(_ scenario: Scenario) throws {
    let directory = TemporaryDirectory("mcp-reopen")
    defer { directory.remove() }
    let (workspace, db) = try Self.readOnlyWorkspace(in: directory)
    defer { chmod(db, 0o600) }
    if scenario.readWhileReadOnly {
      let (reader, readArguments) = Self.command(["status", "--workspace", workspace])
      #expect(try runProcess(reader, readArguments).status == 0)
      for suffix in ["-wal", "-shm"] {
        var st = stat()
        #expect(stat(db + suffix, &st) == 0 && st.st_mode & 0o777 == 0o400, "\(suffix)")
      }
    }

    let server = try Server(["mcp", "--writes", "allow", "--workspace", workspace])
    defer { if server.process.isRunning { server.process.terminate() } }
    for line in initializeLines { server.send(line) }
    _ = try server.response("0")
    server.send(Self.capture(1, "Refused while read-only"))
    let refused = try #require(try server.response("1")["result"])
    #expect(refused["isError"] == true, "\(refused)")
    let refusal = refused["content"]?.array?.first?["text"]?.string ?? ""
    #expect(refusal.contains("read-only"), "\(refused)")
    // The database is what is read-only, whatever it left its side files as.
    #expect(refusal.contains("may not write the workspace database") && !refusal.contains("side files"), "\(refusal)")

    chmod(db, 0o600)
    server.send(Self.capture(2, "Written after chmod"))
    let written = try #require(try server.response("2")["result"])
    #expect(written["isError"] == nil || written["isError"] == false, "\(written)")
    server.send(Self.capture(3, "Second chmod write"))
    let again = try #require(try server.response("3")["result"])
    #expect(again["isError"] == nil || again["isError"] == false, "\(again)")
    server.send(
      #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"note chmod"}}}"#)
    let found = try #require(try server.response("4")["result"])
    #expect(found["structuredContent"]?["total"] == 3, "\(found)")
    let stderr = server.finish()
    #expect(server.process.terminationStatus == 0, "\(stderr)")
    #expect(stderr.contains("is read-only (permission denied: this user may not write the workspace database"), "\(stderr)")
    #expect(!stderr.contains("side files"), "\(stderr)")
    let reopened = "\(db) can be written now; the workspace was opened again for writing"
    #expect(stderr.components(separatedBy: reopened).count == 2, "said once: \(stderr)")

    // The notes are on disk, for every later process.
    let (lister, listArguments) = Self.command(["knowledge", "list", "--workspace", workspace])
    let list = try runProcess(lister, listArguments)
    #expect(
      list.stdout.contains("Written after chmod") && list.stdout.contains("Second chmod write")
        && !list.stdout.contains("Refused while"), "\(list.stdout)")
  }

  @Test("while the database stays read-only, each write still fails as read-only and nothing is reopened")
  func staysReadOnly() throws {
    let directory = TemporaryDirectory("mcp-reopen")
    defer { directory.remove() }
    let (workspace, db) = try Self.readOnlyWorkspace(in: directory)
    defer { chmod(db, 0o600) }

    let server = try Server(["mcp", "--writes", "allow", "--workspace", workspace])
    defer { if server.process.isRunning { server.process.terminate() } }
    for line in initializeLines { server.send(line) }
    _ = try server.response("0")
    for id in 1...2 {
      server.send(Self.capture(id, "Refused \(id)"))
      let refused = try #require(try server.response("\(id)")["result"])
      #expect(refused["isError"] == true, "\(refused)")
      #expect(refused["content"]?.array?.first?["text"]?.string?.contains("read-only") == true, "\(refused)")
    }
    let stderr = server.finish()
    #expect(!stderr.contains("opened again for writing"), "\(stderr)")
  }
}
