import ContinuityKit
import Foundation

/// `limits` and `version`: what this build is and what it holds to. Neither reads a workspace.
enum AboutCommands {
  static let all = [limits, version]

  static let limits = Command(
    spec: CommandSpec(
      path: ["limits"], summary: "List every bound this build enforces (Limits), with its unit.",
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
        struct Out: Encodable { var limits: [Row] }
        try ctx.console.printJSON(Out(limits: Limits.table.map { Row(name: $0.name, value: $0.value, unit: $0.unit) }))
        return
      }
      let width = Limits.table.map(\.name.count).max() ?? 0
      let digits = Limits.table.map { String($0.value).count }.max() ?? 0
      ctx.console.print(
        "Bounds of this build (text in characters, i.e. grapheme clusters, and at most "
          + "\(Limits.unicodeScalarsPerCharacter) Unicode scalars per allowed character; code analysis in UTF-8 bytes):")
      for row in Limits.table {
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
