import ContinuityKit
import Foundation
import KnowledgeEngine

extension TaskCommands {
  static let search = Command(
    spec: CommandSpec(
      path: ["task", "search"], summary: "Find tasks by title and notes (ranked lexically; the mode is printed).",
      positionals: [("query", "Words to find, at most \(Limits.query) characters.")],
      options: [
        OptionSpec(name: "status", value: "S", help: "open, completed or all (default all)."),
        OptionSpec(name: "limit", value: "N", help: "At most N results (1…\(Limits.searchResultsMaximum), default \(Limits.searchResultsDefault))."),
      ]),
    run: { ctx in
      let s = try ctx.choice("status", among: ["open", "completed", "all"], default: "all")
      let status: TaskStatus? = s == "all" ? nil : TaskStatus(rawValue: s)
      let limit = try ctx.integer("limit", default: Limits.searchResultsDefault, range: 1...Limits.searchResultsMaximum)
      let r = try ctx.engine(.read).searchTasks(ctx.arguments.positionals[0], status: status, limit: limit)
      if ctx.json {
        try ctx.console.printJSON(r)
        return
      }
      ctx.console.print(
        "\(r.results.count) shown of \(r.total) task(s) found (mode \(r.mode))" + (r.truncated ? " · cut by the limit" : ""))
      // Said as `dolphin search` says it; the explanation may name query words.
      if let why = r.emptyExplanation { ctx.console.print("No results: \(inert(why)).") }
      for x in r.results {
        // The ranker reports index terms (stemmed, or a typo variant), not the words typed.
        ctx.console.print(Render.taskLine(x.task) + "  matched stems: " + x.matchedTerms.map(inert).joined(separator: ", "))
      }
    })
}
