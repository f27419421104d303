@testable import ContinuityKit
import Foundation
import Testing
import TestSupport

@Suite("PathProblem")
struct PathProblemTests {
  @Test("linkInTheWay names the link that stops a directory from being there, and nothing else")
  func linkInTheWay() throws {
    let dir = TemporaryDirectory("path-problem")
    defer { dir.remove() }
    let fm = FileManager.default
    try fm.createSymbolicLink(atPath: dir.appending("l1").path, withDestinationPath: "l2")
    try fm.createSymbolicLink(atPath: dir.appending("l2").path, withDestinationPath: "l1")
    try fm.createSymbolicLink(atPath: dir.appending("d").path, withDestinationPath: "nothing")
    try fm.createDirectory(at: dir.appending("real"), withIntermediateDirectories: true)
    func check(_ path: String) -> String? {
      PathProblem.linkInTheWay(ofDirectory: dir.appending(path).path).map {
        "\($0.path.dropFirst(dir.path.count + 1)) \($0.problem.isMissing ? "dangling" : "loop")"
      }
    }
    #expect(check("l1") == "l1 loop")
    #expect(check("l1/a/b") == "l1 loop")
    #expect(check("d") == "d dangling")
    #expect(check("d/a/b") == "d dangling")
    #expect(check("real") == nil)
    #expect(check("real/new/deeper") == nil)
    #expect(check("missing/new") == nil)
  }

  @Test("opening a workspace through a link loop or a link to nothing names the link")
  func storeOpen() throws {
    let dir = TemporaryDirectory("store-links")
    defer { dir.remove() }
    let fm = FileManager.default
    try fm.createSymbolicLink(atPath: dir.appending("l1").path, withDestinationPath: "l1")
    try fm.createSymbolicLink(atPath: dir.appending("d").path, withDestinationPath: "nothing")
    try fm.createDirectory(at: dir.appending("ws"), withIntermediateDirectories: true)
    try fm.createSymbolicLink(
      atPath: dir.appending("ws/\(SQLiteWorkspaceStore.fileName)").path, withDestinationPath: "gone.sqlite")
    for (name, expected) in [
      ("l1/sub", "\(dir.appending("l1").path): a symbolic link loop"),
      ("d", "\(dir.appending("d").path): a symbolic link to 'nothing', which does not exist"),
      ("ws", "\(dir.appending("ws/\(SQLiteWorkspaceStore.fileName)").path): a symbolic link to 'gone.sqlite', which does not exist"),
    ] {
      let url = dir.appending(name)
      do {
        _ = try SQLiteWorkspaceStore.open(directory: url)
        Issue.record("\(name) opened")
      } catch {
        #expect(error.description.hasPrefix(expected), "\(error.description)")
        #expect(SQLiteWorkspaceStore.openFailure(error, directory: url) == .symbolicLink)
      }
    }
    #expect(!fm.fileExists(atPath: dir.appending("nothing").path))
    #expect(!fm.fileExists(atPath: dir.appending("ws/gone.sqlite").path))
  }

  @Test("a directory that cannot be created right under / names / as the directory that refused it, not '.'")
  func refusedAtTheRoot() {
    #expect(
      PathProblem.failure("/ws", EACCES).reason
        == "could not be created: permission denied; this user may not create entries in /")
    #expect(PathProblem.failure("/ws", ENOENT).reason.hasSuffix("; / exists, but its filesystem does not allow creating a directory there"))
    #expect(PathProblem.failure("/srv/ws", EACCES).reason.hasSuffix("may not create entries in /srv"))
    // A relative path's directory is the current one, named by its path.
    let cwd = FileManager.default.currentDirectoryPath
    #expect(PathProblem.failure("ws", EACCES).reason.hasSuffix("may not create entries in \(cwd)"))
    #expect(PathProblem.failure("a/ws", EACCES).reason.hasSuffix("may not create entries in a"))
  }

  @Test("component prefixes of absolute and relative paths")
  func componentPrefixes() {
    #expect(PathProblem.componentPrefixes("/tmp/somefile/sub") == ["/tmp", "/tmp/somefile", "/tmp/somefile/sub"])
    #expect(PathProblem.componentPrefixes("a//b/./c/") == ["a", "a/b", "a/b/c"])
    #expect(PathProblem.componentPrefixes("/") == [])
  }

  @Test("a file on the way to a directory is named as the obstacle, for reaching and for creating it")
  func fileInTheWay() throws {
    let dir = TemporaryDirectory("path-obstacle")
    defer { dir.remove() }
    try Data("x".utf8).write(to: dir.appending("somefile"))
    let target = dir.appending("somefile/sub/deeper").path
    let expected = DirectoryObstacle(path: dir.appending("somefile").path, reason: "is not a directory (Not a directory)")
    #expect(PathProblem.obstacle(onTheWayTo: target) == expected)
    #expect(PathProblem.createDirectories(target) == expected)
    // Nothing in the way of a missing path under a directory: it is created, the last part 0700.
    let fresh = dir.appending("new/a/b").path
    #expect(PathProblem.obstacle(onTheWayTo: fresh) == nil)
    #expect(PathProblem.createDirectories(fresh) == nil)
    let mode = try #require(try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int)
    #expect(mode == 0o700)
    #expect(PathProblem.createDirectories(fresh) == nil, "an existing directory is fine")
  }

  /// Review 30-a, 13: `--workspace /etc/passwd` was a storage failure; the CLI refuses such a path
  /// as a bad value, from this.
  @Test("the first component that exists and is not a directory: the path itself, one on the way, through a link")
  func nonDirectory() throws {
    let dir = TemporaryDirectory("non-directory")
    defer { dir.remove() }
    let file = dir.appending("somefile").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let itself = try #require(PathProblem.nonDirectory(onTheWayTo: file))
    #expect(itself.path == file && itself.isWholePath && itself.description == "a file, not a directory")
    let onTheWay = try #require(PathProblem.nonDirectory(onTheWayTo: file + "/sub/deeper"))
    #expect(onTheWay.path == file && !onTheWay.isWholePath)
    #expect(PathProblem.nonDirectory(onTheWayTo: file + "/")?.isWholePath == true)
    let link = dir.appending("link").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    let throughLink = try #require(PathProblem.nonDirectory(onTheWayTo: link + "/ws"))
    #expect(throughLink.path == link && throughLink.description == "a symbolic link to a file, not a directory")
    #expect(PathProblem.nonDirectory(onTheWayTo: "/dev/null")?.description == "a character device, not a directory")
    // Directories, missing parts and the root are not in the way.
    #expect(PathProblem.nonDirectory(onTheWayTo: dir.path) == nil)
    #expect(PathProblem.nonDirectory(onTheWayTo: dir.appending("new/ws").path) == nil)
    #expect(PathProblem.nonDirectory(onTheWayTo: "/") == nil)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link", "somefile"], "nothing created")
  }

  @Test(
    "a directory the filesystem refuses is named with errno's text and the parent that refused it",
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self")))
  func procRefusesDirectories() {
    let target = "/proc/dolphin-review-\(getpid())"
    let obstacle = PathProblem.createDirectories(target)
    #expect(obstacle?.path == target)
    #expect(
      obstacle?.reason
        == "could not be created: No such file or directory; /proc exists, but its filesystem does not allow creating a directory there")
  }
}
