import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer

/// `limits` and `version`: what this build is and what it holds to. Neither reads a workspace.
enum AboutCommands {
  static let all = [limits, version]

  /// ``Limits/table`` and the bounds that other layers hold to: the digest builder's lines and
  /// sections (derived text, which import also holds digests to) and the MCP server's messages,
  /// responses and batches.
  static var table: [(name: String, value: Int, unit: String)] {
    Limits.table + [
      ("digest line", DigestBuilder.lineLimit, "characters"),
      ("digest line evidence ids", DigestBuilder.lineEvidenceCap, "ids"),
      ("digest section lines (decisions, preferences, goals, priorities)", DigestBuilder.sectionCap, "lines"),
      ("digest open tasks", DigestBuilder.taskCap, "lines"),
      ("digest recent context", DigestBuilder.recentCap, "lines"),
      ("digest questions", DigestBuilder.questionCap, "lines"),
      ("MCP message (one JSON-RPC line)", JSONRPCLimits().maximumMessageBytes, "bytes"),
      ("MCP response (one JSON-RPC line)", JSONRPCLimits().maximumResponseBytes, "bytes"),
      ("MCP JSON nesting depth", JSONRPCLimits().maximumDepth, "levels"),
      ("MCP batch (one JSON-RPC batch, revision 2025-03-26)", JSONRPCLimits().maximumBatchMessages, "messages"),
      (
        "MCP approval wait (an elicitation's answer; then the write is refused as denied)",
        Int(MCPServer.Configuration.defaultClientRequestTimeout.components.seconds), "seconds"
      ),
    ]
  }

  static let limits = Command(
    spec: CommandSpec(
      path: ["limits"], summary: "List the bounds this build enforces on input and derived output, with their units.",
      discussion: """
        Text is counted in characters as displayed (grapheme clusters), and a text bounded to n characters
        also holds at most n × \(Limits.unicodeScalarsPerCharacter) Unicode scalars; code analysis is counted in UTF-8 bytes. Input
        over a bound is refused (exit 4) naming the field, the limit and the size given; derived output is
        cut with a visible marker. knowledgeItemLimit is the one bound that is a setting (`dolphin settings`).
        """,
      usesWorkspace: false),
    run: { ctx in
      if ctx.json {
        struct Row: Encodable { var name: String; var value: Int; var unit: String }
        try ctx.console.printJSON(
          WholeListing(key: "limits", entries: table.map { Row(name: $0.name, value: $0.value, unit: $0.unit) }))
        return
      }
      let width = table.map(\.name.count).max() ?? 0
      let digits = table.map { String($0.value).count }.max() ?? 0
      ctx.console.print(
        "Bounds of this build (text in characters, i.e. grapheme clusters, and at most "
          + "\(Limits.unicodeScalarsPerCharacter) Unicode scalars per allowed character; code analysis in UTF-8 bytes):")
      for row in table {
        let value = String(row.value)
        ctx.console.print(
          "  " + row.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
            + String(repeating: " ", count: digits - value.count) + value + " " + row.unit)
      }
    })

  static let version = Command(
    spec: CommandSpec(
      path: ["version"], summary: "Print this build's version, workspace schema version and SQLite version (also --version).",
      usesWorkspace: false),
    run: { ctx in
      if ctx.json {
        struct Out: Encodable { var version: String; var schemaVersion: Int; var sqliteVersion: String }
        try ctx.console.printJSON(
          Out(
            version: DolphinCLI.version, schemaVersion: SchemaVersion.current,
            sqliteVersion: SQLiteWorkspaceStore.sqliteVersion))
        return
      }
      ctx.console.print(
        "dolphin \(DolphinCLI.version) (workspace schema v\(SchemaVersion.current), SQLite \(SQLiteWorkspaceStore.sqliteVersion))")
    })
}
