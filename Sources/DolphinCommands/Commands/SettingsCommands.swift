import ContinuityKit
import Foundation
import KnowledgeEngine

/// `settings`, `settings show`, `settings set NAME VALUE`.
enum SettingsCommands {
  static let all = [overview, show, set]

  static let showDiscussion = """
    Lists every setting of the workspace with its value: knowledgeItemLimit, which
    `dolphin settings set` changes, and the Dolphin app's own settings (assistantName, responseStyle,
    calendarAccessEnabled), which an export and an import carry and the command line only shows.
    knowledgeItemLimit is the most knowledge items the workspace holds: \(Limits.knowledgeItemsDefault) by default,
    at most \(Limits.knowledgeItemsMaximum). A capture, memory save or import that would go past it is refused (exit 4)
    with the count held and the limit.
    """

  static let overview = Command(
    spec: CommandSpec(
      path: ["settings"], summary: "Show the workspace settings (as `settings show`; `settings set` changes one).",
      discussion: showDiscussion),
    run: { ctx in try render(ctx) })

  static let show = Command(
    spec: CommandSpec(
      path: ["settings", "show"], summary: "Show the workspace settings and the knowledge items held.",
      discussion: showDiscussion),
    run: { ctx in try render(ctx) })

  static let set = Command(
    spec: CommandSpec(
      path: ["settings", "set"], summary: "Change a workspace setting (knowledgeItemLimit).",
      positionals: [
        ("name", "The setting: knowledgeItemLimit."),
        ("value", "knowledgeItemLimit: a whole number, 1…\(Limits.knowledgeItemsMaximum), no lower than the knowledge items held."),
      ],
      discussion: """
        Example:
          dolphin settings set knowledgeItemLimit 20000
        knowledgeItemLimit is the most knowledge items the workspace holds (default \(Limits.knowledgeItemsDefault),
        at most \(Limits.knowledgeItemsMaximum)); it cannot be set below the number it holds (`dolphin settings show`
        says how many). A value that is not a whole number is a usage error (exit 2); one out of range, exit 4.
        A workspace that does not exist yet is created with the setting, unless the value is the one
        already in effect (the default): then nothing is created. Like other direct commands, it
        leaves no activity receipt (receipts record agent and MCP tool calls).
        """),
    run: { ctx in
      let name = try settingName(ctx.arguments.positionals[0])
      // Only knowledgeItemLimit is settable: ``settingName(_:)`` refuses the others.
      guard name == "knowledgeItemLimit" else { throw CLIError.usage("`dolphin settings set` cannot change \(name)") }
      let limit = try wholeNumber(ctx.arguments.positionals[1], setting: name, range: 1...Limits.knowledgeItemsMaximum)
      let update = try ctx.engine(.create).setKnowledgeItemLimit(limit)
      if ctx.json {
        try ctx.console.printJSON(update)
        return
      }
      if let change = update.changes.first {
        ctx.console.print(
          "Changed \(inert(change.description)) (the workspace holds \(update.knowledgeItems) knowledge item(s)).")
      } else {
        let database = ctx.workspaceDirectory.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
        // A value already in effect writes nothing, so a workspace that did not exist still does not.
        let created = FileManager.default.fileExists(atPath: database) ? "" : "; no workspace was created at \(inert(escapingLineBreaks(ctx.workspaceDirectory.path)))"
        ctx.console.print("knowledgeItemLimit is already \(limit); nothing was changed\(created).")
      }
    })

  /// Prints the settings (`settings`, `settings show`).
  static func render(_ ctx: CommandContext) throws {
    let report = try ctx.engine(.read).settingsReport()
    if ctx.json {
      try ctx.console.printJSON(report)
      return
    }
    let c = ctx.console
    let entries = report.entries
    func value(_ e: SettingsEntry) -> String {
      e.name == "assistantName" ? inertQuoted(e.value.description) : inert(e.value.description)
    }
    let nameWidth = (entries.map(\.name.count).max() ?? 0) + 2
    let valueWidth = (entries.map { value($0).count }.max() ?? 0) + 2
    func line(_ e: SettingsEntry, _ note: String = "") -> String {
      "  " + e.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
        + value(e).padding(toLength: valueWidth, withPad: " ", startingAt: 0) + e.summary + note
    }
    c.print("Settings of \(inert(escapingLineBreaks(ctx.workspaceDirectory.path))):")
    for e in entries where e.isSettable { c.print(line(e, "; it holds \(report.knowledgeItems) now")) }
    c.print("Dolphin app settings (carried by export and import; the command line only shows them):")
    for e in entries where !e.isSettable { c.print(line(e)) }
    c.print("Change the limit with `\(command: "dolphin settings set knowledgeItemLimit N")`.")
  }

  /// The canonical name of a setting `settings set` changes, matched case-insensitively.
  /// - Throws: ``CLIError/invalidValue(_:field:)`` (exit 2, as for any unknown choice) naming
  ///   the settings there are, for an unknown name or one of the app's settings.
  static func settingName(_ text: String) throws -> String {
    let entries = SettingsEntry.entries(Settings.default)
    let settable = SettingsEntry.settableNames
    if let name = settable.first(where: { $0.lowercased() == text.lowercased() }) { return name }
    if let known = entries.first(where: { $0.name.lowercased() == text.lowercased() }) {
      throw CLIError.invalidValue(
        "\(known.name) is a Dolphin app setting, which `dolphin settings show` shows but the command line does not "
          + "change; `dolphin settings set` changes \(settable.joined(separator: ", "))", field: "name")
    }
    let hint = NearestName.suggest(text, in: entries.map(\.name)).map { "; did you mean \($0)?" } ?? ""
    throw CLIError.invalidValue(
      "unknown setting \(quotedValue(text, cutAt: 60)); the settings are "
        + entries.map(\.name).joined(separator: ", ") + ", of which `dolphin settings set` changes "
        + settable.joined(separator: ", ") + hint, field: "name")
  }

  /// `text` as a whole number for `setting`.
  /// - Throws: ``CLIError/invalidValue(_:field:)`` (exit 2) for text that is not a whole number,
  ///   as for numeric options; ``ValidationError`` (exit 4) naming `setting`, the bound and the
  ///   value for a whole number too large for `Int`. A number within `Int` but outside `range` is
  ///   left for the library, which names the same.
  static func wholeNumber(_ text: String, setting: String, range: ClosedRange<Int>) throws -> Int {
    if let n = Int(text) { return n }
    if isWholeNumberText(text) {
      // Shown as a number that fits is (`knowledgeItemLimit is 0`), unquoted.
      throw ValidationError(
        field: setting, limit: range.upperBound,
        message: "\(setting) is \(shownWholeNumber(text)); it must be between \(range.lowerBound) and "
          + "\(range.upperBound). Nothing was changed")
    }
    throw CLIError.invalidValue(
      "\(setting) must be a whole number (\(range.lowerBound)…\(range.upperBound)), got \(quotedValue(text, cutAt: 60))",
      field: setting)
  }
}
