@testable import KnowledgeEngine
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Eighth review (s15): erase's check read every file under the workspace directory by path
/// (`FileManager`'s enumerator, then `Data(contentsOf:)`), so a link swapped in for a directory
/// there made root read files outside the workspace.
@Suite("Erase's on-disk scan stays inside the workspace")
struct EraseScanLinkTests {
  @Test("the scan visits the regular files below the directory and no link, FIFO or what a link leads to")
  func scanFollowsNoLink() throws {
    let dir = TemporaryDirectory("erase-scan")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let outside = dir.appending("outside").path
    try FileManager.default.createDirectory(atPath: ws + "/sub", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    try Data("a".utf8).write(to: URL(fileURLWithPath: ws + "/a.txt"))
    try Data("b".utf8).write(to: URL(fileURLWithPath: ws + "/sub/b.txt"))
    try Data("secret".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
    try FileManager.default.createSymbolicLink(atPath: ws + "/linked-dir", withDestinationPath: outside)
    try FileManager.default.createSymbolicLink(atPath: ws + "/linked-file", withDestinationPath: outside + "/secret.txt")
    #expect(mkfifo(ws + "/fifo", 0o600) == 0)
    var visited: [String: String] = [:]
    EraseVerifier.scanFiles(under: ws) { path, fd in
      var bytes = [UInt8](repeating: 0, count: 64)
      let n = fd.map { read($0, &bytes, bytes.count) } ?? -1
      visited[path] = n >= 0 ? String(decoding: bytes[0..<n], as: UTF8.self) : "<unreadable>"
    }
    #expect(visited == [ws + "/a.txt": "a", ws + "/sub/b.txt": "b"])
    // A workspace directory that is itself a link is not entered.
    var throughLink = 0
    EraseVerifier.scanFiles(under: ws + "/linked-dir") { _, _ in throughLink += 1 }
    #expect(throughLink == 0)
  }

  /// The scan reads in chunks (a mapped file cut short meanwhile raised SIGBUS, review s15): an
  /// id that straddles two chunks is found, once.
  @Test("ids are found across the 1 MiB chunk boundary, each once, and the byte count is the file's")
  func idsAcrossChunks() throws {
    let dir = TemporaryDirectory("erase-scan-chunks")
    defer { dir.remove() }
    let id = UUID(uuidString: "5D0B4C7E-1111-4222-8333-944455556666")!
    var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) - 10)
    bytes += Array(id.uuidString.utf8) + Array(repeating: UInt8(ascii: "y"), count: 100) + Array(id.uuidString.lowercased().utf8)
    let path = dir.appending("big").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    var found: [UUID] = []
    let total = EraseVerifier.readUUIDs(fd) { found.append($0) }
    #expect(total == bytes.count)
    #expect(found == [id, id])
  }
}
