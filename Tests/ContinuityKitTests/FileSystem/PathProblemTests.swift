import ContinuityKit
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
}
