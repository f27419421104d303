import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Secure file writes")
struct SecureFileTests {
  func mode(_ path: String) -> mode_t {
    var st = stat()
    stat(path, &st)
    return st.st_mode & 0o777
  }

  @Test("a new file is 0600, complete, and no temporary file is left")
  func createsPrivateFile() throws {
    let dir = TemporaryDirectory("sf")
    defer { dir.remove() }
    let url = dir.appending("export.json")
    try SecureFile.writeAtomically(Data("hello".utf8), to: url, overwrite: false)
    #expect(try Data(contentsOf: url) == Data("hello".utf8))
    #expect(mode(url.path) == 0o600)
    #expect(regularFiles(under: dir.url) == ["export.json"])
  }

  @Test("a temporary file left by a killed writer is removed by the next write; a live writer's is kept")
  func staleTemporaries() throws {
    let dir = TemporaryDirectory("sf-stale")
    defer { dir.remove() }
    let url = dir.appending("export.json")
    // A writer that has exited: its process id names no process any more.
    let finished = try runProcess("/bin/sh", ["-c", "echo $$"])
    let deadPID = try #require(Int32(finished.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    let stale = dir.appending(".export.json.tmp-\(deadPID)-0a1b2c3d").path
    let live = dir.appending(".export.json.tmp-\(getpid())-deadbeef").path
    let legacy = dir.appending(".export.json.tmp-9F2C41AB").path  // no process id: left alone
    let other = dir.appending(".other.json.tmp-\(deadPID)-0a1b2c3d").path  // another file's
    for path in [stale, live, legacy, other] {
      #expect(FileManager.default.createFile(atPath: path, contents: Data("partial".utf8)))
    }
    try SecureFile.writeAtomically(Data("complete".utf8), to: url, overwrite: false)
    #expect(try Data(contentsOf: url) == Data("complete".utf8))
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: live))
    #expect(FileManager.default.fileExists(atPath: legacy))
    #expect(FileManager.default.fileExists(atPath: other))
  }

  @Test("an existing file is kept unless overwriting is asked for; a replacement is 0600")
  func overwrite() throws {
    let dir = TemporaryDirectory("sf")
    defer { dir.remove() }
    let url = dir.appending("export.json")
    try Data("old".utf8).write(to: url)
    chmod(url.path, 0o644)
    let error = #expect(throws: WorkspaceError.self) {
      try SecureFile.writeAtomically(Data("new".utf8), to: url, overwrite: false)
    }
    #expect(error == .fileSystem(path: url.path, message: "already exists; refusing to overwrite it"))
    #expect(try Data(contentsOf: url) == Data("old".utf8))
    try SecureFile.writeAtomically(Data("new".utf8), to: url, overwrite: true)
    #expect(try Data(contentsOf: url) == Data("new".utf8))
    #expect(mode(url.path) == 0o600)
    #expect(regularFiles(under: dir.url) == ["export.json"])
  }

  @Test("overwriting replaces only a regular file: a FIFO, a symbolic link (dangling or to a file) and a socket are left as they are")
  func overwriteOnlyRegularFiles() throws {
    let dir = TemporaryDirectory("sf")
    defer { dir.remove() }
    let fifo = dir.appending("fifo.json").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let target = dir.appending("target.json")
    try Data("target".utf8).write(to: target)
    let link = dir.appending("link.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
    let dangling = dir.appending("dangling.json").path
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.appending("nowhere").path)
    for (path, kind) in [(fifo, "a FIFO (named pipe)"), (link, "a symbolic link"), (dangling, "a symbolic link")] {
      let error = #expect(throws: WorkspaceError.self, "\(path)") {
        try SecureFile.writeAtomically(Data("new".utf8), to: URL(fileURLWithPath: path), overwrite: true)
      }
      #expect(
        error
          == .fileSystem(
            path: path,
            message: "is \(kind), not a regular file; only a regular file is ever replaced, so it was left as it is "
              + "and nothing was written"))
    }
    var st = stat()
    #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "the FIFO is still a FIFO")
    #expect(lstat(link, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK, "the link is still a link")
    #expect(lstat(dangling, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK)
    #expect(try Data(contentsOf: target) == Data("target".utf8), "nothing was written through the link")
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
    #expect(names == ["dangling.json", "fifo.json", "link.json", "target.json"], "no temporary file is left")
  }

  @Test("a failed write leaves nothing behind and names the path")
  func failure() throws {
    let dir = TemporaryDirectory("sf")
    defer { dir.remove() }
    let url = dir.appending("missing-dir/export.json")
    let error = #expect(throws: WorkspaceError.self) {
      try SecureFile.writeAtomically(Data("x".utf8), to: url, overwrite: false)
    }
    #expect(error?.description.hasPrefix(url.path + ": cannot create a file here") == true)
    #expect(regularFiles(under: dir.url).isEmpty)
    let dirError = #expect(throws: WorkspaceError.self) {
      try SecureFile.writeAtomically(Data("x".utf8), to: dir.url, overwrite: true)
    }
    #expect(dirError == .fileSystem(path: dir.url.path, message: "is a directory"))
  }

  @Test("secure removal zeroes and unlinks")
  func removal() throws {
    let dir = TemporaryDirectory("sf")
    defer { dir.remove() }
    let url = dir.appending("backup")
    try Data("CANARY".utf8).write(to: url)
    try SecureFile.removeSecurely(url)
    #expect(!FileManager.default.fileExists(atPath: url.path))
    try SecureFile.removeSecurely(url)  // already gone: no error
  }

  /// Seventh review (s15): removal followed a link in place of the file's directory, and zeroed
  /// what a link named.
  @Test("secure removal follows no link: a link is removed as a link, a file another name shares is not zeroed, a linked directory is refused")
  func removalFollowsNoLink() throws {
    let dir = TemporaryDirectory("sf-links")
    defer { dir.remove() }
    let target = dir.appending("target.txt")
    try Data("precious".utf8).write(to: target)
    let folder = dir.appending("folder")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    // A link inside the folder: gone, its target untouched.
    let link = folder.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    try SecureFile.removeSecurely(link)
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil)
    #expect(try String(contentsOf: target, encoding: .utf8) == "precious")
    // A hard link: the name goes, the bytes the other name shares stay.
    let hard = folder.appendingPathComponent("hard")
    try FileManager.default.linkItem(at: target, to: hard)
    try SecureFile.removeSecurely(hard)
    #expect(!FileManager.default.fileExists(atPath: hard.path))
    #expect(try String(contentsOf: target, encoding: .utf8) == "precious")
    // A link in place of the folder: refused, nothing where it leads is touched.
    let linkedFolder = dir.appending("linked")
    try FileManager.default.createSymbolicLink(at: linkedFolder, withDestinationURL: dir.url)
    let error = #expect(throws: WorkspaceError.self) {
      try SecureFile.removeSecurely(linkedFolder.appendingPathComponent("target.txt"))
    }
    #expect(error?.description.contains("is not a directory of its own (a symbolic link?); nothing was followed") == true)
    #expect(try String(contentsOf: target, encoding: .utf8) == "precious")
  }
}
