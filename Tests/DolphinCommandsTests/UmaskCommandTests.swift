import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The files dolphin makes get their modes whatever the umask: the workspace directory 0700,
/// directories on the way 755 at most, the database and its `-wal` and `-shm` 0600. Each case runs
/// `dolphin mcp` under its umask in a process of its own — the umask belongs to a process, and
/// setting it in the test process changed the files of every test running beside it (a
/// temporary directory made 777, which dolphin then refused as a path others control).
@Suite("File modes whatever the umask")
struct UmaskCommandTests {
  static func mode(_ path: String) -> mode_t {
    var st = stat()
    return stat(path, &st) == 0 ? st.st_mode & 0o777 : 0o7777
  }

  @Test("directory 0700, directories on the way 755 at most, database, -wal, -shm 0600", arguments: ["022", "002", "000"])
  func modes(_ mask: String) throws {
    let dir = TemporaryDirectory("umask")
    defer { dir.remove() }
    chmod(dir.path, 0o755)
    let workspace = dir.appending("nested/ws").path
    let db = workspace + "/workspace.sqlite"
    let server = Process()
    server.executableURL = URL(fileURLWithPath: "/bin/sh")
    server.arguments = [
      "-c", "umask \"$0\" && exec \"$@\"", mask, dolphinExecutable().path, "mcp", "--writes", "allow",
      "--workspace", workspace,
    ]
    let input = Pipe()
    let output = Pipe()
    server.standardInput = input
    server.standardOutput = output
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer { if server.isRunning { server.terminate() } }
    for line in initializeLines { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }
    let capture =
      #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_capture","arguments":{"kind":"fact","title":"Modes stay private"}}}"#
    input.fileHandleForWriting.write(Data((capture + "\n").utf8))
    // Read until the capture's answer: the store is open, its -wal and -shm in place.
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains(#""id":1"#) {
      let chunk = output.fileHandleForReading.availableData
      try #require(!chunk.isEmpty, "the server ended early: \(String(decoding: seen, as: UTF8.self))")
      seen.append(chunk)
    }
    #expect(String(decoding: seen, as: UTF8.self).contains("Modes stay private"))
    #expect(Self.mode(workspace) == 0o700)
    #expect(Self.mode(dir.appending("nested").path) & 0o022 == 0, "no one else may write a directory made on the way")
    #expect(Self.mode(db) == 0o600)
    #expect(Self.mode(db + "-wal") == 0o600)
    #expect(Self.mode(db + "-shm") == 0o600)
    try? input.fileHandleForWriting.close()
    server.waitUntilExit()
  }
}
