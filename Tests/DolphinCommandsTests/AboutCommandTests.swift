import ContinuityKit
import DolphinCommands
import Foundation
import Testing
import TestSupport

/// `dolphin version` and `dolphin limits`: review 19-b (F11: `version` ignored every argument,
/// `--json` included, and was missing from `--help`; F14: `Limits` documented its table for a
/// `dolphin limits` that did not exist).
@Suite("version and limits", .serialized)
struct AboutCommandTests {
  @Test("version and --version print one line, or with --json an object with the three versions")
  func version() throws {
    for args in [["version"], ["--version"]] {
      let text = try runDolphin(args)
      #expect(text.status == 0, "\(text.stderr)")
      #expect(text.stdout == "dolphin \(DolphinCLI.version) (workspace schema v5, SQLite \(SQLiteWorkspaceStore.sqliteVersion))\n")
      let json = try runDolphin(args + ["--json"])
      #expect(json.status == 0, "\(json.stderr)")
      let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
      #expect(Set(doc.keys) == ["version", "schemaVersion", "sqliteVersion"])
      #expect(doc["version"] as? String == DolphinCLI.version)
      #expect(doc["schemaVersion"] as? Int == 5)
      #expect(doc["sqliteVersion"] as? String == SQLiteWorkspaceStore.sqliteVersion)
    }
  }

  @Test("version refuses an unknown option or an argument (exit 2), as every command does", arguments: [
    (["version", "--bogus"], "unknown option '--bogus' for `dolphin version`"),
    (["--version", "--bogus"], "unknown option '--bogus' for `dolphin version`"),
    (["version", "extra", "args"], "unexpected argument 'extra' for `dolphin version`"),
    (["--version", "--jsn"], "unknown option '--jsn' for `dolphin version`; did you mean --json?"),
  ])
  func versionRefuses(_ args: [String], _ message: String) throws {
    let r = try runDolphin(args)
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains(message), "\(r.stderr)")
    #expect(r.stdout.isEmpty)
  }

  @Test("--help lists version and limits; an unknown command suggests them")
  func listed() throws {
    let help = try runDolphin(["--help"]).stdout
    #expect(help.contains("\n  version "), "\(help)")
    #expect(help.contains("\n  limits "), "\(help)")
    let typo = try runDolphin(["versoin"])
    #expect(typo.status == 2 && typo.stderr.contains("version"), "\(typo.stderr)")
  }

  /// Review 19-d (11): the digest's line and section bounds and the MCP message bound were left
  /// out; the MCP response bound came with review 19-a's 36 MB response line, the batch bound
  /// with session 21's bounded batches, the approval wait with review 22 (6).
  static let otherLayers = 11

  @Test("limits prints every row of Limits.table and the digest and MCP bounds, in text and as JSON")
  func limits() throws {
    let text = try runDolphin(["limits"])
    #expect(text.status == 0, "\(text.stderr)")
    let lines = text.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == Limits.table.count + Self.otherLayers + 1, "\(text.stdout)")
    #expect(lines.contains { $0.hasPrefix("  digest line ") && $0.hasSuffix(" 240 characters") }, "\(text.stdout)")
    #expect(lines.contains { $0.hasPrefix("  MCP message (one JSON-RPC line) ") && $0.hasSuffix(" 4194304 bytes") }, "\(text.stdout)")
    #expect(lines.contains { $0.hasPrefix("  MCP response (one JSON-RPC line) ") && $0.hasSuffix(" 4194304 bytes") }, "\(text.stdout)")
    #expect(
      lines.contains { $0.hasPrefix("  MCP batch (one JSON-RPC batch, revision 2025-03-26) ") && $0.hasSuffix(" 100 messages") },
      "\(text.stdout)")
    #expect(
      lines.contains { $0.hasPrefix("  MCP approval wait (an elicitation's answer; then the write is refused as denied) ") && $0.hasSuffix(" 600 seconds") },
      "\(text.stdout)")
    #expect(lines.first?.hasPrefix("Bounds of this build") == true)
    #expect(lines.contains { $0.hasPrefix("  title ") && $0.hasSuffix(" 300 characters") }, "\(text.stdout)")
    #expect(lines.contains { $0.hasPrefix("  code analysis input ") && $0.hasSuffix(" 200000 UTF-8 bytes") }, "\(text.stdout)")
    // Review 28-c, 8: the chat message bound, and the receipt cut a tool call records, were missing.
    #expect(lines.contains { $0.hasPrefix("  chat message ") && $0.hasSuffix(" 16000 characters") }, "\(text.stdout)")
    #expect(
      lines.contains { $0.hasPrefix("  receipt arguments recorded per tool call ") && $0.hasSuffix(" 2000 characters") },
      "\(text.stdout)")

    let json = try runDolphin(["limits", "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let rows = try #require(doc["limits"] as? [[String: Any]])
    #expect(rows.count == Limits.table.count + Self.otherLayers)
    #expect(rows.first?["name"] as? String == "title" && rows.first?["value"] as? Int == 300 && rows.first?["unit"] as? String == "characters")
    #expect(Array(rows.map { $0["name"] as? String }.prefix(Limits.table.count)) == Limits.table.map(\.name))
    // No workspace is read or made.
    let dir = TemporaryDirectory("limits")
    defer { dir.remove() }
    #expect(try runDolphin(["limits", "--workspace", dir.appending("ws").path]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: dir.appending("ws").path))
    #expect(try runDolphin(["limits", "extra"]).status == 2)
  }
}
