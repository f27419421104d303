import Foundation
import Testing
import TestSupport

/// `--workspace` and `--output` through a symbolic link loop or a link to nothing say so, with
/// the exit codes of every other path argument: a loop 4, a link to nothing 3.
@Suite("symbolic links in --workspace and --output", .serialized)
struct SymbolicLinkPathTests {
  static let loop = "a symbolic link loop, or a chain of more than 40 links: following them does not reach a file or directory"

  /// `l1` → `l2` → `l1`, and `d` → `nothing`.
  static func links(_ dir: TemporaryDirectory) throws {
    let fm = FileManager.default
    try fm.createSymbolicLink(atPath: dir.appending("l1").path, withDestinationPath: "l2")
    try fm.createSymbolicLink(atPath: dir.appending("l2").path, withDestinationPath: "l1")
    try fm.createSymbolicLink(atPath: dir.appending("d").path, withDestinationPath: "nothing")
  }

  static let commands: [[String]] = [["status"], ["capture", "fact", "x"], ["search", "words"], ["demo"]]

  @Test("--workspace through a link loop exits 4 and names the loop", arguments: commands)
  func workspaceLoop(_ args: [String]) throws {
    let dir = TemporaryDirectory("ws-loop")
    defer { dir.remove() }
    try Self.links(dir)
    for workspace in ["l1", "l1/sub"] {
      let r = try runDolphin(args + ["--workspace", dir.appending(workspace).path])
      #expect(r.status == 4, "\(workspace): \(r.stderr)")
      #expect(r.stderr.contains("dolphin: error: --workspace: \(dir.appending("l1").path): \(Self.loop)"), "\(r.stderr)")
      #expect(r.stderr.contains("(replace the link, or name another directory with --workspace or DOLPHIN_HOME)"), "\(r.stderr)")
      #expect(!r.stderr.contains("cannot read"), "\(r.stderr)")
    }
    // The default workspace (DOLPHIN_HOME) is checked the same way.
    let home = try runDolphin(args, environment: ["DOLPHIN_HOME": dir.appending("l1/ws").path])
    #expect(home.status == 4, "\(home.stderr)")
    #expect(home.stderr.contains("\(dir.appending("l1").path): \(Self.loop)"), "\(home.stderr)")
  }

  /// The kernel follows at most 40 symbolic links in one path (`ELOOP` past them), and so does
  /// the walk that checks the workspace path: a chain of 40 is a workspace, of 41 a clear error.
  @Test("--workspace through a chain of 40 links works; 41 exits 4 naming the limit, and nothing is created")
  func workspaceLinkChain() throws {
    let dir = TemporaryDirectory("ws-chain")
    defer { dir.remove() }
    let fm = FileManager.default
    try fm.createDirectory(atPath: dir.appending("real").path, withIntermediateDirectories: false)
    chmod(dir.appending("real").path, 0o700)
    for i in 1...41 {
      try fm.createSymbolicLink(atPath: dir.appending("l\(i)").path, withDestinationPath: i == 1 ? "real" : "l\(i - 1)")
    }
    let forty = try runDolphin(["capture", "fact", "Forty links", "--workspace", dir.appending("l40").path])
    #expect(forty.status == 0, "\(forty.stderr)")
    #expect(fm.fileExists(atPath: dir.appending("real/workspace.sqlite").path))
    let found = try runDolphin(["search", "forty", "--workspace", dir.appending("l40").path])
    #expect(found.status == 0 && found.stdout.contains("Forty links"), "\(found.stdout)\(found.stderr)")

    let over = try runDolphin(["capture", "fact", "One too many", "--workspace", dir.appending("l41").path])
    #expect(over.status == 4, "\(over.stderr)")
    #expect(over.stderr.contains("dolphin: error: --workspace: \(dir.appending("l41").path): \(Self.loop)"), "\(over.stderr)")
    let list = try runDolphin(["knowledge", "list", "--workspace", dir.appending("l40").path])
    #expect(list.stdout.contains("Forty links") && !list.stdout.contains("One too many"), "\(list.stdout)")
  }

  @Test("--workspace through a link to nothing exits 3, names the target, and creates nothing", arguments: commands)
  func workspaceDangling(_ args: [String]) throws {
    let dir = TemporaryDirectory("ws-dangling")
    defer { dir.remove() }
    try Self.links(dir)
    let r = try runDolphin(args + ["--workspace", dir.appending("d").path])
    #expect(r.status == 3, "\(r.stderr)")
    #expect(
      r.stderr.contains("dolphin: error: --workspace: \(dir.appending("d").path): a symbolic link to 'nothing', which does not exist"),
      "\(r.stderr)")
    #expect(!r.stderr.contains("already exists"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appending("nothing").path))
  }

  @Test("doctor on a link loop or a link to nothing reports it with advice about the link, not a remount")
  func doctor() throws {
    let dir = TemporaryDirectory("doctor-links")
    defer { dir.remove() }
    try Self.links(dir)
    let loop = try runDolphin(["doctor", "--workspace", dir.appending("l1").path])
    #expect(loop.status == 4, "\(loop.stdout)\(loop.stderr)")
    #expect(loop.stdout.contains("Open: failed (symbolic link): \(dir.appending("l1").path): \(Self.loop)"), "\(loop.stdout)")
    #expect(loop.stdout.contains("Replace or remove the link"), "\(loop.stdout)")
    #expect(!loop.stdout.contains("Remount"), "\(loop.stdout)")
    let dangling = try runDolphin(["doctor", "--workspace", dir.appending("d").path, "--json"])
    #expect(dangling.status == 3, "\(dangling.stdout)\(dangling.stderr)")
    let report = try JSONSerialization.jsonObject(with: Data(dangling.stdout.utf8)) as? [String: Any]
    let problem = report?["openProblem"] as? [String: Any]
    #expect(problem?["reason"] as? String == "symbolic link", "\(dangling.stdout)")
    #expect(problem?["message"] as? String == "\(dir.appending("d").path): a symbolic link to 'nothing', which does not exist")
  }

  @Test("export --output into a link loop exits 4, into a link to nothing 3; nothing is written")
  func exportOutput() throws {
    let dir = TemporaryDirectory("export-links")
    defer { dir.remove() }
    try Self.links(dir)
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["capture", "fact", "x", "--workspace", ws]).status == 0)
    let loop = try runDolphin(["export", "--output", dir.appending("l1/x.json").path, "--workspace", ws])
    #expect(loop.status == 4, "\(loop.stderr)")
    #expect(loop.stderr.contains("dolphin: error: --output: \(dir.appending("l1").path): \(Self.loop)"), "\(loop.stderr)")
    #expect(!loop.stderr.contains("does not exist"), "\(loop.stderr)")
    let dangling = try runDolphin(["export", "--output", dir.appending("d/x.json").path, "--workspace", ws])
    #expect(dangling.status == 3, "\(dangling.stderr)")
    #expect(
      dangling.stderr.contains(
        "dolphin: error: --output: \(dir.appending("d").path): a symbolic link to 'nothing', which does not exist; nothing was written"),
      "\(dangling.stderr)")
    // A plainly missing directory is still "does not exist".
    let missing = try runDolphin(["export", "--output", dir.appending("none/x.json").path, "--workspace", ws])
    #expect(missing.status == 3 && missing.stderr.contains("does not exist; nothing was written (create it first)"), "\(missing.stderr)")
  }
}
