import ContinuityKit
import Foundation
import KnowledgeEngine

extension SearchCommands {
  static let all = [search, reindex]

  /// Prints a search response.
  /// - Parameters:
  ///   - limitGiven: whether the user gave `--limit` (else the default limit cut the results,
  ///     and the header says so).
  ///   - tag: the `--tag` filter, normalized; named in a hint when it has a comma and removed
  ///     every match.
  ///
  /// A query that is a record's id gets the line of ``SearchResponse/idLookup`` (``idLookup(_:engine:)``).
  static func render(
    _ r: SearchResponse, explain: Bool, limitGiven: Bool, tag: String? = nil, console: Console
  ) {
    let cut = limitGiven ? " · cut by --limit" : " · cut at the default limit of \(Limits.searchResultsDefault)"
    console.print("mode: \(r.mode.rawValue) (\(r.algorithmVersion ?? "exact")) · \(r.results.count) shown of \(r.total) match(es)" + (r.truncated ? cut : ""))
    // Words a long query had past the term limit were not searched: said whatever was found
    // (with no results, the "No results:" line says it).
    if !r.results.isEmpty {
      let notes = SearchResponse.notes(
        wordsPastTermLimit: r.wordsPastTermLimit, unsearchedSymbols: r.unsearchedSymbols, unappliedOperators: r.unappliedOperators,
        queryCut: (r.query, r.queryCutAt, r.queryCharacters))
      for note in notes { console.print("Note: \(inert(note)).") }
      // Scores that do not fall down the list are explained (review 30a: a content naming both
      // words typed is listed above a title naming one, with a lower score).
      if let order = SearchResponse.termsMatchedOrderNote(
        ordered: r.orderedByTermsMatched, termsMatched: r.results.map(\.termsMatched), termCount: r.terms.count,
        always: explain)
      {
        console.print(order + ".")
      }
    }
    if r.results.isEmpty, let why = r.emptyReason {
      let hint: String
      switch why {
      case .noMatchWithTag, .noItemWithTag: hint = Render.oneTagHint(tag).map { " " + $0 } ?? ""
      case .onlyMemoriesMatch:
        // A tag filter keeps knowledge items only: --include-memories would not find them.
        hint =
          tag == nil
          ? " (add --include-memories, or use \(command: "dolphin memory search"))"
          : " (\(command: "dolphin memory search") finds them)"
      case .onlyKnowledgeMatches: hint = " (\(command: "dolphin search") finds them)"
      case .noRecords: hint = r.scope == .memories ? "; `\(command: "dolphin memory save TEXT")` adds one" : "; `\(command: "dolphin capture KIND TITLE")` adds one"
      default: hint = ""
      }
      // The explanation may name query words: shown inert, as all user text is.
      console.print("No results: \(inert(r.emptyExplanation(hint: hint) ?? why.explanation + hint)).")
      // Search matches words; an id is looked up exactly, by the command of its record's type
      // (review 18-a, A7: a task's id was sent to `knowledge get`, which then failed).
      if let lookup = r.idLookup { console.print(lookup.message) }
    }
    for (i, x) in r.results.enumerated() {
      let label = x.label
      // The score comes before the title, whose length varies.
      console.print(
        "\(i + 1). \(x.id.uuidString)  \(label)  " + String(format: "score %.3f", x.score) + "  \(inertQuoted(x.title))"
          + (x.supersededBy.map { "  [\(KnowledgeEngine.supersededNote($0))]" } ?? ""))
      if !x.snippet.isEmpty { console.print("   \(inert(x.snippet))") }
      if explain {
        let p = x.scoreParts
        let terms = x.termsMatched.map { "; terms matched: \($0) of \(r.terms.count)" } ?? ""
        console.print(String(format: "   score %.4f = title %.4f + tags %.4f + content %.4f + fuzzy %.4f + phrase %.4f + coverage %.4f; matched stems: %@%@",
                             x.score, p.title, p.tags, p.content, p.fuzzy, p.phrase, p.coverage, matchedStems(x.matchedTerms, terms: r.terms), terms))
      }
    }
    if explain {
      renderQueryTerms(
        r.terms, cutTerms: r.termsCutFromLongerWords, commonWords: r.unsearchedCommonWords, console: console)
    }
  }

  /// What a search says of a query that is the record id `id` (``IDLookup``), naming this
  /// CLI's commands: the command that shows that one record (``pointer(to:)``), or that no
  /// record has the id.
  /// - Throws: ``WorkspaceError`` from the store.
  static func idLookup(_ id: UUID, engine: KnowledgeEngine) throws -> IDLookup {
    let u = id.uuidString
    guard let place = try engine.recordLocation(of: id) else {
      return IDLookup(
        id: id, recordType: nil, shownBy: nil, message: "No record in this workspace has the id \(u); search matches words, not ids")
    }
    let (command, does) = pointer(to: place)
    let message =
      switch place.type {
      case .knowledge: "To look up a record by its id: \(command)"
      case .handoff: "\(u) is a handoff's id: \(command)"
      default: "\(u) is \(place.type.possessiveID); search matches words, not ids: \(command) \(does)"
      }
    return IDLookup(id: id, recordType: place.type, shownBy: command, message: message)
  }

  /// The command that shows the record at `place`, naming the workspace in effect, and what it
  /// does with it (`shows it`). A memory is shown by its knowledge mirror (`knowledge get`), or,
  /// without one, by the `memory list --limit N` whose last line it is; a receipt by the
  /// `activity --limit N` whose first line it is (review 28-a, 8: `memory list shows it` was
  /// untrue past the list's first page).
  static func pointer(to place: RecordLocation) -> (command: String, does: String) {
    let u = place.id.uuidString
    switch place.type {
    case .knowledge: return ("\(command: "dolphin knowledge get \(u)")", "shows it")
    case .memory:
      if let mirror = place.mirrorID {
        return ("\(command: "dolphin knowledge get \(mirror.uuidString)")", "shows its text (the memory's knowledge mirror)")
      }
      return ("\(command: "dolphin memory list --limit \(place.listPosition ?? Limits.memories)")", "lists it last")
    case .task: return ("\(command: "dolphin task get \(u)")", "shows it")
    case .handoff: return ("\(command: "dolphin handoff get \(u)")", "shows it")
    case .digest: return ("\(command: "dolphin export")", "includes stored digests")
    case .receipt:
      return ("\(command: "dolphin activity --limit \(place.listPosition ?? Limits.receiptsKept)")", "shows it first")
    }
  }

  /// The matched stems of one result for `--explain`, inert, a longer number found for a number
  /// typed (``QueryTermMatch/longerNumbers``) marked as the prefix match it is: `v2.3.9 (prefix
  /// match of v2.3, reduced weight)`, so it never reads as the number typed.
  static func matchedStems(_ matched: [String], terms: [QueryTermMatch]) -> String {
    matched.map { stem in
      guard let number = terms.first(where: { $0.longerNumbers.contains(stem) }) else { return inert(stem) }
      return inert(stem) + " (prefix match of \(inert(number.term)), reduced weight)"
    }.joined(separator: ", ")
  }

  /// Prints how each query term matched, for `--explain` (`search`, `memory search`, `task
  /// search`): the stem and the words typed, then `exact` with the other forms searched, or
  /// what the workspace has instead (`absent; close spellings → …`), or `no match`.
  /// - Parameters:
  ///   - terms: the response's terms, in query order.
  ///   - cutTerms: the terms made from words longer than the tokenizer keeps, said so on each.
  ///   - commonWords: the query's common words that were not searched, named last; nil or
  ///     empty for none.
  static func renderQueryTerms(
    _ terms: [QueryTermMatch], cutTerms: Set<String>, commonWords: [String]?, console: Console
  ) {
    guard !terms.isEmpty else {
      // Nothing to list under a header (review, s16: `search "🚀" --explain` printed it empty).
      console.print("query terms: none (the query has no searchable word)")
      return
    }
    console.print("query terms (stemmed, with the words typed; fuzzy = typo, word-form and prefix variants, at reduced weight):")
    for t in terms {
      // The stem, and the words as typed when they differ from it (`randomis (Randomised)`);
      // matching compares their folded forms (`words`).
      let typed = t.typedWords.isEmpty ? t.words : t.typedWords
      let name = inert(t.term)
        + (typed.isEmpty || typed == [t.term] ? "" : " (" + typed.map(inert).joined(separator: ", ") + ")")
      // Longer words are indexed and compared by their first 64 characters only, however the
      // term matched; a word of exactly 64 is whole.
      let cut = cutTerms.contains(t.term)
        ? " (on its first \(Tokenizer.maximumTermLength) characters; longer words are cut there)" : ""
      let others = t.variants.filter { $0 != t.term && !t.longerNumbers.contains($0) }.map(inert)
        .joined(separator: ", ")
      // Longer numbers starting with a number typed (`v2.3.9` for `v2.3`) are other numbers,
      // matched as prefixes at reduced weight, never as the number itself.
      let longer = t.longerNumbers.map(inert).joined(separator: ", ")
      let longerNote = longer.isEmpty ? "" : "; longer numbers (prefix matches, reduced weight): " + longer
      switch t.match {
      case .exact:
        let spellings = t.spellings.filter { !t.numberForms.contains($0) }.map(inert)
          .joined(separator: ", ")
        let number = t.numberForms.map(inert).joined(separator: ", ")
        let compounds = t.compounds.map(inert).joined(separator: ", ")
        let forms = t.variants.filter {
          $0 != t.term && !t.spellings.contains($0) && !t.compounds.contains($0) && !t.longerNumbers.contains($0)
        }.map(inert).joined(separator: ", ")
        console.print(
          "term \(name): exact\(cut)" + (spellings.isEmpty ? "" : "; other spellings: " + spellings)
            + (number.isEmpty ? "" : "; other number: " + number)
            + (compounds.isEmpty ? "" : "; compound forms: " + compounds)
            + (forms.isEmpty ? "" : "; word forms: " + forms) + longerNote)
      case .spelling:
        let what =
          t.numberForms.isEmpty
          ? "other spellings"
          : t.numberForms.count == t.spellings.count ? "other number" : "other spellings and number"
        console.print("term \(name): absent\(cut); \(what) → " + others)
      case .compound: console.print("term \(name): absent\(cut); compound forms → " + others + longerNote)
      // Absent from the workspace: the close spellings searched may be typos of it or other
      // forms of the word (`diagnosis` → `diagnost`), which characters alone cannot tell apart.
      case .fuzzy: console.print("term \(name): absent\(cut); close spellings → " + others)
      case .prefix where !t.longerNumbers.isEmpty:
        console.print("term \(name): absent\(cut); longer numbers starting with it (prefix matches, reduced weight) → " + longer)
      case .prefix: console.print("term \(name): prefix\(cut) → " + others)
      case .none: console.print("term \(name): no match\(cut)")
      }
    }
    // The common words the query held beside the terms, which were not searched.
    if let commonWords, !commonWords.isEmpty {
      console.print("common words not searched: " + commonWords.map(inert).joined(separator: ", "))
    }
  }

  static let search = Command(
    spec: CommandSpec(
      path: ["search"], summary: "Ranked lexical search (mode hybrid-lexical) over knowledge, optionally memories.",
      positionals: [("query", "Words to find (no character is syntax). The first \(Limits.query) characters are searched, cut between words; at most \(Limits.queryInput) Unicode code points are accepted.")],
      options: [
        OptionSpec(name: "kind", value: "K", repeatable: true, help: "Only these kinds (\(Commands.kindList))."),
        OptionSpec(name: "tag", value: "T", help: "Only knowledge items with this one tag, case and accents ignored; not with --include-memories (it filters knowledge items only)."),
        OptionSpec(name: "limit", value: "N", help: "Results, 1…\(Limits.searchResultsMaximum) (default \(Limits.searchResultsDefault))."),
        OptionSpec(
          name: "include-memories", value: nil,
          help: "Also search legacy memories (labeled as such; each listed once, not also as its knowledge mirror); not with --kind, since memories have no kind."),
        OptionSpec(name: "explain", value: nil, help: "Show each result's score parts and how each query word matched."),
      ],
      discussion: """
        hybrid-lexical-v1: BM25F over title, tags and content (title weighted most), a phrase boost, a
        query-coverage boost, British and American spellings of each word at nearly full weight (tumour
        finds tumor), the other number of irregular nouns (mouse finds mice, analysis finds analyses), compound words however written (email finds e-mail, PD-1 finds PD1), trigram typo matching and close word forms (diagnosis also finds
        diagnostic, at a quarter to half the weight), with deterministic tie-breaking. It matches
        words, not meanings: it is not semantic search.

        A query that starts with '-' goes last, after `--`: dolphin search --limit 5 -- "-O2 flags".
        """),
    run: { ctx in
      let a = ctx.arguments
      let kinds = try a.all("kind").map { try ctx.parseEnum(KnowledgeKind.self, $0, name: "--kind") }
      // The same rule for both filters that memories cannot meet (review 18-a, A4: --tag dropped
      // the memories silently while --kind was refused).
      if a.value("tag") != nil, a.has("include-memories") {
        throw CLIError.usage(
          "--tag and --include-memories cannot be combined: --tag filters knowledge items only, so it cannot select "
            + "memories; give --tag to search tagged knowledge, or --include-memories without --tag to search memories "
            + "too (`\(command: "dolphin memory search")` ranks memories on their text and their own tags)")
      }
      if !kinds.isEmpty, a.has("include-memories") {
        throw CLIError.usage(
          "--kind and --include-memories cannot be combined: memories have no kind, so --kind cannot select them; "
            + "give --kind to search knowledge of those kinds, or --include-memories without --kind "
            + "(or `\(command: "dolphin memory search")`) to search memories too")
      }
      let limit = try ctx.integer("limit", default: Limits.searchResultsDefault, range: 1...Limits.searchResultsMaximum)
      let tagFilter = try ctx.tagFilter()
      let engine = try ctx.engine(.read)
      var r = try engine.search(
        a.positionals[0], kinds: kinds, includeMemories: a.has("include-memories"), tag: tagFilter,
        limit: limit)
      // In the JSON too (review 28-a, 2: only the text pointed an id to its record).
      r.idLookup = try r.queryID.map { try idLookup($0, engine: engine) }
      if ctx.json {
        try ctx.console.printJSON(CountedListing(listing: r, count: r.results.count))
      } else {
        render(r, explain: a.has("explain"), limitGiven: a.value("limit") != nil, tag: tagFilter, console: ctx.console)
      }
    })

  static let reindex = Command(
    spec: CommandSpec(
      path: ["reindex"], summary: "Rebuild the search index from the stored records (repair).",
      discussion: """
        Rebuilds with this build's tokenizer, even over an index a newer dolphin built (a notice on
        stderr says so, and JSON names the version replaced as replacedTokenizerVersion). First, in the
        same transaction, recreates the tables derived from the records (search index, tag filter,
        digest evidence) and the indexes that the schema steps create and the database lacks (removed
        outside dolphin; `dolphin doctor` names them), and drops and recreates those derived tables whose
        columns differ from the schema steps' (replaced or altered outside dolphin), and says which
        (recreated and replaced in JSON).
        """),
    run: { ctx in
      let engine = try ctx.engine(.update)
      // Asked for, a rebuild is done even over a newer dolphin's index; said, since doctor warns
      // that two builds would rebuild it back and forth.
      var replacedVersion: Int?
      if case .newer(let version) = try engine.searchIndexTokenizerStatus() { replacedVersion = version }
      // What the rebuild recreates, to say so: read before, as the rebuild's own transaction does.
      let difference = try engine.schemaDifference()
      let recreated = (difference?.missing ?? []).filter(\.recreatedByReindex).map(\.object)
      // Derived tables with other columns than the schema steps give them: dropped and recreated.
      let replaced = (difference?.changed ?? []).filter(\.recreatedByReindex).map { SchemaObject(type: "table", name: $0.table) }
      // Dolphin's own indexes of those names left on another table (a renamed copy of theirs) or
      // defined otherwise: dropped first, and said so (review 27-b, 4).
      let dropped = (difference?.missing ?? []).filter { $0.recreatedByReindex && $0.isMisplacedIndex }
        .compactMap(\.nameHeldBy)
      let n = try engine.rebuildSearchIndex()
      if let replacedVersion {
        ctx.console.printError(
          "dolphin: notice: the search index was built by a newer dolphin (tokenizer version \(replacedVersion)); "
            + "it now holds this build's (version \(Tokenizer.version)), and the newer dolphin will rebuild it again when it next ranks")
      }
      let problems = try engine.verifySearchIndex() + engine.verifyTagFilterRows()
      // Records another program wrote with an id that is not a UUID: every other record is
      // indexed, these are named (as doctor's `Record ids:` names them) and the exit is doctor's
      // for a workspace with problems.
      let skipped = try engine.recordsLeftOutOfSearchIndex()
      // A rebuild whose own check still finds problems did not repair the index: not a success.
      let failure: ReportedFailure? =
        !skipped.isEmpty
        ? ReportedFailure(
          code: ExitCode.storage,
          message: "\(skipped.count) record(s) with an id that is not a UUID were left out of the search index; "
            + "`\(command: "dolphin doctor")` explains how to fix them")
        : !problems.isEmpty
          ? ReportedFailure(
            code: ExitCode.storage,
            message: "the rebuilt search index still disagrees with the records (see the index check above); "
              + "`\(command: "dolphin doctor")` reports the workspace")
          : nil
      if ctx.json {
        struct Out: Encodable {
          var indexed: Int
          var problems: [String]
          var replacedTokenizerVersion: Int?
          var skipped: [WorkspaceTransaction.MalformedID]
          /// Tables and indexes the database lacked, recreated before the rebuild.
          var recreated: [SchemaObject]
          /// Derived tables whose columns differed from those the schema steps create, dropped
          /// and recreated (with their indexes) before the rebuild.
          var replaced: [SchemaObject]
          /// Dolphin's indexes of those names found on another table (a renamed copy of theirs)
          /// or defined otherwise, dropped before they were recreated: each `object` and the
          /// `table` it was on.
          var dropped: [SchemaDifference.NameHolder]
        }
        try ctx.console.printJSON(
          Out(
            indexed: n, problems: problems, replacedTokenizerVersion: replacedVersion, skipped: skipped,
            recreated: recreated, replaced: replaced, dropped: dropped),
          failure: failure)
      } else {
        if !dropped.isEmpty {
          ctx.console.print(
            "Dropped dolphin's indexes of those names where they were: " + dropped.map(\.description).joined(separator: ", "))
        }
        if !recreated.isEmpty {
          ctx.console.print("Recreated what the database lacked: " + recreated.map(\.description).joined(separator: ", "))
        }
        if !replaced.isEmpty {
          ctx.console.print(
            "Recreated with the columns the schema steps give them: " + replaced.map(\.description).joined(separator: ", "))
        }
        ctx.console.print("Re-indexed \(n) document(s); index check: " + (problems.isEmpty ? "ok" : problems.joined(separator: "; ")))
        if !skipped.isEmpty {
          ctx.console.print("Skipped \(skipped.count) record(s) whose id is not a UUID (not searchable until fixed):")
          for m in skipped { ctx.console.print("  - \(inert(m.description))") }
        }
      }
      if let failure { throw failure }
    })

  /// `dolphin memory search`: the search over legacy memories only, rendered as `search`
  /// renders (with `--explain`, the same score parts and query terms).
  static func runMemorySearch(_ ctx: CommandContext) throws {
    let limit = try ctx.integer("limit", default: Limits.searchResultsDefault, range: 1...Limits.searchResultsMaximum)
    let engine = try ctx.engine(.read)
    var r = try engine.search(ctx.arguments.positionals[0], memoriesOnly: true, limit: limit)
    // An id is pointed to its record's command, as `search` does (review 18-d, M2: every id
    // was sent to `knowledge get`), in the JSON too (review 28-a, 2).
    r.idLookup = try r.queryID.map { try SearchCommands.idLookup($0, engine: engine) }
    if ctx.json {
      try ctx.console.printJSON(CountedListing(listing: r, count: r.results.count))
    } else {
      render(r, explain: ctx.arguments.has("explain"), limitGiven: ctx.arguments.value("limit") != nil, console: ctx.console)
    }
  }
}
