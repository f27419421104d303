import ContinuityKit
import Foundation
import KnowledgeEngine

extension TaskCommands {
  static let search = Command(
    spec: CommandSpec(
      path: ["task", "search"], summary: "Find tasks by title and notes (ranked lexically; the mode is printed).",
      positionals: [("query", "Words to find. The first \(Limits.query) characters are searched, cut between words; at most \(Limits.queryInput) Unicode code points are accepted.")],
      options: [
        OptionSpec(name: "status", value: "S", help: "open, completed or all (default all)."),
        OptionSpec(name: "limit", value: "N", help: "At most N results (1…\(Limits.searchResultsMaximum), default \(Limits.searchResultsDefault))."),
        OptionSpec(
          name: "explain", value: nil,
          help: "Show each task's score parts (title, notes, fuzzy, phrase, coverage) and how each query word matched."),
      ],
      discussion: """
        Tasks are ranked as `dolphin search` ranks knowledge (hybrid-lexical-v1), over their titles
        and notes: a task has no tags, so --explain shows no tags part, and its notes take the place
        of content. --json carries each result's scoreParts and the query's terms.
        """),
    run: { ctx in
      let s = try ctx.choice("status", among: ["open", "completed", "all"], default: "all")
      let status: TaskStatus? = s == "all" ? nil : TaskStatus(rawValue: s)
      let limit = try ctx.integer("limit", default: Limits.searchResultsDefault, range: 1...Limits.searchResultsMaximum)
      let engine = try ctx.engine(.read)
      var r = try engine.searchTasks(ctx.arguments.positionals[0], status: status, limit: limit)
      // An id is pointed to its record's command, as `search` does (review 18-d, M2), in the
      // JSON too (review 28-a, 2).
      r.idLookup = try r.queryID.map { try SearchCommands.idLookup($0, engine: engine) }
      if ctx.json {
        try ctx.console.printJSON(CountedListing(listing: r, count: r.results.count))
        return
      }
      // The form of `dolphin search`'s line: the mode first, with its algorithm version.
      let cut =
        ctx.arguments.value("limit") != nil
        ? " · cut by --limit" : " · cut at the default limit of \(Limits.searchResultsDefault)"
      ctx.console.print(
        "mode: \(r.mode)" + (r.algorithmVersion.map { " (\($0))" } ?? "")
          + " · \(r.results.count) shown of \(r.total) matching task(s)" + (r.truncated ? cut : ""))
      // Said as `dolphin search` says it; the explanation may name query words.
      if !r.results.isEmpty {
        let notes = SearchResponse.notes(
        wordsPastTermLimit: r.wordsPastTermLimit, unsearchedSymbols: r.unsearchedSymbols, unappliedOperators: r.unappliedOperators,
        queryCut: (r.query, r.queryCutAt, r.queryCharacters))
        for note in notes { ctx.console.print("Note: \(inert(note)).") }
        if let order = SearchResponse.termsMatchedOrderNote(
          ordered: r.orderedByTermsMatched, termsMatched: r.results.map(\.termsMatched), termCount: r.terms.count,
          records: "tasks", always: ctx.arguments.has("explain"))
        {
          ctx.console.print(order + ".")
        }
      }
      if let why = r.emptyExplanation { ctx.console.print("No results: \(inert(why)).") }
      if let lookup = r.idLookup { ctx.console.print(lookup.message) }
      let explain = ctx.arguments.has("explain")
      for x in r.results {
        // The ranker reports index terms (stemmed, or a typo variant), not the words typed.
        ctx.console.print(Render.taskLine(x.task) + "  matched stems: " + SearchCommands.matchedStems(x.matchedTerms, terms: r.terms))
        if explain {
          // As `search --explain` prints them, with the parts a task has.
          guard let p = x.scoreParts else {
            ctx.console.print(String(format: "   score %.4f (this ranker reports no parts)", x.score))
            continue
          }
          ctx.console.print(
            String(
              format: "   score %.4f = title %.4f + notes %.4f + fuzzy %.4f + phrase %.4f + coverage %.4f",
              x.score, p.title, p.notes, p.fuzzy, p.phrase, p.coverage))
        }
      }
      if explain {
        SearchCommands.renderQueryTerms(
          r.terms, cutTerms: r.termsCutFromLongerWords, commonWords: r.unsearchedCommonWords, console: ctx.console)
      }
    })
}
