import ContinuityKit

/// What `dolphin` says after an unknown command word: the command meant, when it can tell, or
/// the commands there are.
///
/// In order: a command typed in other case (`Search`); a subcommand typed without its group (`list` → `knowledge list`, `task list`, …);
/// a word people use for a command that has another name (`digest` → `context`); the nearest
/// command by Damerau–Levenshtein distance (at most 2 edits, fewer for short words: see
/// ``NearestName/suggest(_:in:maximumDistance:)``); otherwise the list of commands.
enum CommandSuggestion {
  /// Words people try for a command that has another name: the word, the command, and what the
  /// command does, as a clause that follows its name (`which shows …`).
  static let synonyms: [(word: String, command: String, does: String)] = [
    ("digest", "context", "which shows the rule-based project digest"),
    ("summary", "context", "which shows the rule-based project digest"),
    ("overview", "context", "which shows the rule-based project digest"),
    ("find", "search", "which ranks knowledge by your words"),
    ("query", "search", "which ranks knowledge by your words"),
    ("note", "capture", "which stores a typed knowledge item"),
    ("remember", "capture", "which stores a typed knowledge item"),
    ("config", "settings", "which shows and changes the workspace settings"),
    ("configure", "settings", "which shows and changes the workspace settings"),
    ("preferences", "settings", "which shows and changes the workspace settings"),
    ("info", "status", "which shows the workspace's counts and integrity summary"),
    ("check", "doctor", "which checks the database and explains recovery"),
    ("backup", "export", "which writes everything in the workspace to one JSON file"),
    ("todo", "task list", "which lists the tasks"),
    ("todos", "task list", "which lists the tasks"),
    ("history", "activity", "which shows what agent and MCP tool calls executed"),
    ("lint", "analyze", "which reviews Swift code by heuristics"),
    ("followups", "insights", "which lists rule-based follow-ups"),
    ("followup", "insights", "which lists rule-based follow-ups"),
    ("follow-ups", "insights", "which lists rule-based follow-ups"),
    ("follow-up", "insights", "which lists rule-based follow-ups"),
    ("suggestions", "insights", "which lists rule-based follow-ups"),
  ]

  /// The most edits a mistyped command may be from the command suggested.
  static let maximumDistance = 2

  /// The error message for an unknown first word `word`, among the command paths `paths`.
  static func unknownCommand(_ word: String, paths: [[String]]) -> String {
    let lowered = word.lowercased()
    let unknown = "unknown command \(quotedValue(word, cutAt: 60))"
    let helpRun = "Run `dolphin --help` for the list"
    let names = topLevelNames(paths)
    // Only the case differs (`Search`).
    if let same = names.first(where: { $0.lowercased() == lowered }) {
      return "\(unknown); did you mean `\(same)`? \(helpRun)"
    }
    // A subcommand without its group: `dolphin list` → `knowledge list`, `task list`, ….
    let asSubcommand = paths.filter { $0.count == 2 && $0[1] == lowered }.map { $0.joined(separator: " ") }
    if !asSubcommand.isEmpty {
      return "\(unknown); did you mean \(alternatives(asSubcommand))? \(helpRun)"
    }
    if let synonym = synonyms.first(where: { $0.word == lowered }),
      paths.contains(synonym.command.split(separator: " ").map(String.init))
    {
      return "\(unknown); did you mean `\(synonym.command)`, \(synonym.does)? \(helpRun)"
    }
    if let near = NearestName.suggest(word, in: names, maximumDistance: maximumDistance) {
      return "\(unknown); did you mean `\(near)`? \(helpRun)"
    }
    return "\(unknown); the commands are \(names.joined(separator: ", ")); run `dolphin --help` for what each does"
  }

  /// The error message for `dolphin GROUP WORD` when `WORD` is no subcommand of `GROUP`
  /// (`subcommands`, in help order).
  static func unknownSubcommand(_ word: String, group: String, subcommands: [String]) -> String {
    let hint =
      NearestName.suggest(word, in: subcommands, maximumDistance: maximumDistance).map { "; did you mean `\(group) \($0)`?" }
      ?? ""
    return "unknown subcommand \(quotedValue(word, cutAt: 60)) for `dolphin \(group)` (subcommands: "
      + subcommands.joined(separator: ", ") + ")\(hint)"
  }

  /// The first words of `paths`, each once, in help order.
  static func topLevelNames(_ paths: [[String]]) -> [String] {
    var seen: Set<String> = []
    return paths.compactMap(\.first).filter { seen.insert($0).inserted }
  }

  /// `` `a` ``, `` `a` or `b` ``, `` `a`, `b` or `c` ``.
  static func alternatives(_ commands: [String]) -> String {
    let quoted = commands.map { "`\($0)`" }
    guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " or " + last
  }
}
