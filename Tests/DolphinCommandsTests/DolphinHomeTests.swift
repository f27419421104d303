import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `DOLPHIN_HOME` set to an empty value is a mistake to report, not a reason to fall back to
/// another workspace silently.
@Suite("DOLPHIN_HOME", .serialized)
struct DolphinHomeTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let value: String
    var testDescription: String { name }
  }

  static let empties = [Case(name: "empty", value: ""), Case(name: "only spaces", value: "   ")]

  /// Regression (review, s12): with `DOLPHIN_HOME=/tmp/x`, the demo's own directory is
  /// `/tmp/dolphin-demo`, which another user can make first (mode 777) for root's demo to fill.
  @Test("the demo refuses a directory of another user, its own demo directory included")
  func demoRefusesAnotherUsersDirectory() throws {
    try #require(geteuid() == 0, "needs root to hand a directory to another user")
    let dir = TemporaryDirectory("demo-owner")
    defer { dir.remove() }
    let demo = dir.appending("dolphin-demo")
    try FileManager.default.createDirectory(at: demo, withIntermediateDirectories: true)
    chmod(demo.path, 0o777)
    chown(demo.path, 65534, 65534)
    let r = try runDolphin(["demo"], environment: ["DOLPHIN_HOME": dir.appending("home").path])
    #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("\(demo.path) belongs to "), "\(r.stderr)")
    #expect(r.stderr.contains("Nothing was written"), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: demo.path).isEmpty)
    chown(demo.path, 0, 0)
    // Root's own, but every user may still write it (s14): refused for that, with the chmod.
    let open = try runDolphin(["demo"], environment: ["DOLPHIN_HOME": dir.appending("home").path])
    #expect(open.status == 5 && open.stderr.contains("(mode 777) may be written by every user"), "\(open.stderr)")
    chmod(demo.path, 0o700)
    let own = try runDolphin(["demo"], environment: ["DOLPHIN_HOME": dir.appending("home").path])
    #expect(own.status == 0, "\(own.stderr)")
  }


  func emptyIsRefused(_ c: Case) throws {
    let dir = TemporaryDirectory("dolphin-home")
    defer { dir.remove() }
    // Where the fallbacks point: nothing may be read or created there.
    let env = ["DOLPHIN_HOME": c.value, "XDG_DATA_HOME": dir.appending("xdg").path, "HOME": dir.appending("home").path]
    for args in [["knowledge", "list"], ["capture", "fact", "Kept nowhere"], ["status"], ["doctor"], ["demo"], ["mcp"]] {
      let r = try runDolphin(args, environment: env)
      #expect(r.status == 2, "\(args): \(r.stdout)\(r.stderr)")
      #expect(r.stderr.contains("DOLPHIN_HOME is set but empty"), "\(args): \(r.stderr)")
      #expect(r.stderr.contains("--workspace"), "\(args): \(r.stderr)")
    }
    let json = try runDolphin(["knowledge", "list", "--json"], environment: env)
    #expect(json.status == 2)
    let error = try #require(
      (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any])
    #expect(error["kind"] as? String == "usage")
    #expect(!FileManager.default.fileExists(atPath: dir.appending("xdg").path))
    #expect(!FileManager.default.fileExists(atPath: dir.appending("home").path))
  }

  @Test("--workspace overrides an empty DOLPHIN_HOME; commands that use no workspace ignore it")
  func workspaceOverrides() throws {
    let dir = TemporaryDirectory("dolphin-home")
    defer { dir.remove() }
    let env = ["DOLPHIN_HOME": ""]
    let ws = dir.appending("ws").path
    #expect(try runDolphin(["capture", "fact", "Kept here", "--workspace", ws], environment: env).status == 0)
    let list = try runDolphin(["knowledge", "list", "--workspace", ws], environment: env)
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("Kept here"))
    #expect(try runDolphin(["tools"], environment: env).status == 0)
    let swift = dir.appending("a.swift")
    try "let x = 1\n".write(to: swift, atomically: true, encoding: .utf8)
    #expect(try runDolphin(["analyze", swift.path], environment: env).status == 0)
    #expect(try runDolphin(["--version"], environment: env).status == 0)
  }

  /// Runs dolphin in `directory` with DOLPHIN_HOME and XDG_DATA_HOME unset, then `settings`.
  static func runWithout(_ args: [String], in directory: URL, settings: [String]) throws -> ProcessResult {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try runProcess(
      "/bin/sh", ["-c", #"cd "$1" && shift && exec "$@""#, "sh", directory.path, "/usr/bin/env", "-u", "DOLPHIN_HOME",
        "-u", "XDG_DATA_HOME"] + settings + [dolphinExecutable().path] + args)
  }

  // Regression (s9/h2): a relative DOLPHIN_HOME made a workspace under the current directory.
  @Test("a relative DOLPHIN_HOME is a usage error (exit 2) naming it; nothing is created in the current directory", arguments: ["notes", "~/notes"])
  func relativeIsRefused(_ value: String) throws {
    let dir = TemporaryDirectory("dolphin-home")
    defer { dir.remove() }
    let cwd = dir.appending("cwd")
    for args in [["capture", "fact", "Kept nowhere"], ["status"], ["mcp"]] {
      let r = try Self.runWithout(args, in: cwd, settings: ["DOLPHIN_HOME=\(value)", "HOME=\(dir.appending("home").path)"])
      #expect(r.status == 2, "\(args): \(r.stdout)\(r.stderr)")
      #expect(r.stderr.contains("DOLPHIN_HOME is a relative path ('\(value)')"), "\(args): \(r.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: cwd.path).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: dir.appending("home").path))
    // --workspace takes a relative path as usual: it is an argument, given where it is meant.
    let r = try Self.runWithout(
      ["capture", "fact", "Kept here", "--workspace", "ws"], in: cwd, settings: ["DOLPHIN_HOME=\(value)"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: cwd.appendingPathComponent("ws/workspace.sqlite").path))
  }

  @Test("a relative XDG_DATA_HOME is ignored (XDG Base Directory specification): the workspace is ~/.local/share/dolphin, not under the current directory")
  func relativeXDGDataHomeIgnored() throws {
    let dir = TemporaryDirectory("dolphin-home")
    defer { dir.remove() }
    let cwd = dir.appending("cwd")
    let home = dir.appending("home").path
    let r = try Self.runWithout(
      ["capture", "fact", "Where does this go"], in: cwd, settings: ["XDG_DATA_HOME=relative/path", "HOME=\(home)"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: home + "/.local/share/dolphin/workspace.sqlite"))
    #expect(!FileManager.default.fileExists(atPath: cwd.appendingPathComponent("relative").path))
  }

  @Test("an empty HOME with no DOLPHIN_HOME or absolute XDG_DATA_HOME is a usage error naming HOME; nothing is read or created")
  func emptyHOMERefused() throws {
    let dir = TemporaryDirectory("dolphin-home")
    defer { dir.remove() }
    let cwd = dir.appending("cwd")
    for settings in [["HOME="], ["HOME=", "XDG_DATA_HOME=relative"]] {
      // Commands that only read: were the refusal to regress, they would read the account's
      // real workspace, never write one there.
      for args in [["status"], ["knowledge", "list"], ["search", "anything"]] {
        let r = try Self.runWithout(args, in: cwd, settings: settings)
        #expect(r.status == 2, "\(settings) \(args): \(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("dolphin: error: HOME is set but empty"), "\(args): \(r.stderr)")
        #expect(r.stderr.contains("--workspace"), "\(args): \(r.stderr)")
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: cwd.path).isEmpty)
    // --workspace needs no HOME.
    let ws = dir.appending("ws").path
    #expect(try Self.runWithout(["capture", "fact", "Kept here", "--workspace", ws], in: cwd, settings: ["HOME="]).status == 0)
  }

  // Regression (s10): a workspace directory right under / that could not be created named its
  // parent as '.'.
  @Test(
    "a DOLPHIN_HOME right under / that this user may not create names / as the directory, not '.'",
    .enabled(
      if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "needs root and setpriv to run dolphin as a user that may not write /"))
  func homeUnderTheRoot() throws {
    let home = "/dolphin-review-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: home) }
    // setpriv runs dolphin itself (not through env, which could not reach a build directory
    // only root may enter, such as a clone in a mktemp directory); it passes the environment on.
    let r = try runProcess(
      "/usr/bin/setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", dolphinExecutable().path, "capture", "fact", "Kept nowhere"],
      environment: ["DOLPHIN_HOME": home])
    #expect(r.status == 5, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("this user may not create entries in /"), "\(r.stderr)")
    #expect(!r.stderr.contains("entries in ."), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: home))
  }
}

/// Review 21-a, 2: `dolphin mcp --workspace '~/notes'` (as an MCP client's `args` would give it)
/// made a workspace in a directory named `~` under the client's working directory.
@Suite("--workspace that cannot mean what it says")
struct WorkspaceArgumentTests {
  @Test("a --workspace starting with '~' is refused for every command, creating nothing")
  func tildeRefused() throws {
    let dir = TemporaryDirectory("ws-tilde")
    defer { dir.remove() }
    for args in [["capture", "fact", "lost note", "--workspace", "~/notes"], ["search", "x", "--workspace=~/notes"],
                 ["mcp", "--workspace", "~"]] {
      let r = try runDolphin(args, currentDirectory: dir.url)
      #expect(r.status == 2, "\(args): \(r.stderr)")
      #expect(r.stderr.contains("starts with '~', which no shell expanded here"), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir.appending("~").path), "\(args) made a '~' directory")
    }
    let hint = try runDolphin(["capture", "fact", "x", "--workspace", "~/notes"], currentDirectory: dir.url)
    #expect(hint.stderr.contains("give the full path, e.g. --workspace \"$HOME/notes\""), "\(hint.stderr)")
    // Another user's home is no `$HOME/…`: no example is made up for it.
    let other = try runDolphin(["capture", "fact", "x", "--workspace", "~alice/notes"], currentDirectory: dir.url)
    #expect(other.status == 2 && other.stderr.hasSuffix("give the full path\n"), "\(other.stderr)")
  }

  @Test("dolphin mcp refuses a relative --workspace; other commands take one, and mcp an absolute one")
  func mcpRelativeRefused() throws {
    let dir = TemporaryDirectory("ws-mcp-relative")
    defer { dir.remove() }
    let r = try runDolphin(["mcp", "--workspace", "notes"], stdin: "", currentDirectory: dir.url)
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("dolphin mcp: --workspace 'notes' is a relative path"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appending("notes").path))
    let capture = try runDolphin(["capture", "fact", "Kept here", "--workspace", "notes"], currentDirectory: dir.url)
    #expect(capture.status == 0, "\(capture.stderr)")
    let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n"
    let absolute = try runDolphin(["mcp", "--workspace", dir.appending("notes").path], stdin: ping, currentDirectory: dir.url)
    #expect(absolute.status == 0, "\(absolute.stderr)")
    #expect(absolute.stdout.contains(#""id":1"#), "\(absolute.stdout)")
  }
}
