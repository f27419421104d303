import ContinuityKit
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

  /// The scan goes 16 directories deep (a bound, so a crafted tree cannot make it run on); what
  /// lies deeper, or cannot be opened, is reported, so erase's check never claims to have read it.
  @Test("files 15 directories down are read; a directory past the 16-deep bound is reported, not silently left")
  func depthBoundIsReported() throws {
    let dir = TemporaryDirectory("erase-scan-depth")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let fifteen = ws + (1...15).map { "/d\($0)" }.joined()
    let seventeen = fifteen + "/d16/d17"
    try FileManager.default.createDirectory(atPath: seventeen, withIntermediateDirectories: true)
    try Data("shallow".utf8).write(to: URL(fileURLWithPath: fifteen + "/f.txt"))
    try Data("deep".utf8).write(to: URL(fileURLWithPath: fifteen + "/d16/f.txt"))
    try Data("deeper".utf8).write(to: URL(fileURLWithPath: seventeen + "/f.txt"))
    var visited: [String] = []
    var skipped: [String: String] = [:]
    EraseVerifier.scanFiles(under: ws, skipped: { skipped[$0] = $1 }) { path, _ in visited.append(path) }
    #expect(visited == [fifteen + "/f.txt"])
    #expect(skipped == [fifteen + "/d16": "more than 16 directories below the workspace directory"])

    // What was not read leaves the erase unverified (review, s17: a directory that could not
    // be listed read as "no files to scan", exit 0).
    var verification = EraseVerification(
      filesScanned: [], bytesScanned: 0, idsChecked: 1, leakedIDs: [], filesWithLeaks: [], walBytes: 0,
      retainedCopies: [], freePages: 0, notes: [])
    try EraseVerifier.verify(
      [sequentialID(1)], in: URL(fileURLWithPath: ws), keptFiles: [], store: SQLiteWorkspaceStore.inMemory(),
      into: &verification)
    #expect(verification.filesScanned == [fifteen + "/f.txt"])
    #expect(verification.unscanned == [fifteen + "/d16"])
    #expect(verification.leakedIDs.isEmpty && !verification.passed)
    // Nothing with an id erased: nothing to look for, so what was not read leaves nothing unverified.
    var nothingErased = verification
    nothingErased.idsChecked = 0
    #expect(nothingErased.passed)

    var missing: [String: String] = [:]
    EraseVerifier.scanFiles(under: ws + "/nothing", skipped: { missing[$0] = $1 }) { _, _ in }
    #expect(missing[ws + "/nothing"]?.hasPrefix("cannot be opened") == true, "\(missing)")
  }
}
