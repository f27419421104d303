import ContinuityKit
import Foundation
import KnowledgeEngine

/// Rendering of search responses, shared by `knowledge_search` and `memory_search`.
enum SearchTools {
  /// Whether a search call will rank: its query and limit pass the ranker's checks. A refused
  /// search must not rebuild an outdated index first (``ToolDefinition/usesSearchIndex``).
  @Sendable static func ranks(_ args: JSONObject) -> Bool {
    let limit = args["limit"]?.int ?? Limits.searchResultsDefault
    return (try? HybridLexicalRanker.validated(args["query"]?.string ?? "", limit: limit)) != nil
  }

  static let searchOutputSchema = ToolRendering.outputSchema(
    [
      "mode": .object(["type": "string", "enum": ["exact", "hybrid-lexical"]]),
      "algorithmVersion": ToolRendering.string, "query": ToolRendering.string, "results": OutputSchemas.array(of: OutputSchemas.searchResult),
      "total": ToolRendering.integer, "truncated": OutputSchemas.truncated("results"), "terms": ToolRendering.anyArray,
      "omittedForSize": OutputSchemas.omittedForSize, "emptyReason": OutputSchemas.oneOf(EmptyReason.allCases.map(\.rawValue)),
      "scope": OutputSchemas.oneOf(SearchResponse.Scope.allCases.map(\.rawValue)),
      "unsearchedCommonWords": OutputSchemas.strings, "wordsPastTermLimit": OutputSchemas.strings,
      "unsearchedSymbols": OutputSchemas.strings, "unappliedOperators": OutputSchemas.strings,
      "unmatchedWords": OutputSchemas.strings, "tag": ToolRendering.string, "idLookup": OutputSchemas.idLookup,
      "orderedByTermsMatched": ToolRendering.boolean,
    ], required: ["mode", "results", "total", "truncated"])

  /// The text rendering: a header naming the mode and counts, then each result (a line, and its
  /// snippet on the next) whole, as many as ``Limits/renderedToolOutput`` holds, then how many it
  /// left out (``ToolRendering/listing(head:rows:field:tail:)``: `structuredContent.results`
  /// holds every one).
  /// - Parameters:
  ///   - r: the response.
  ///   - cut: when a byte bound cut the structured results to their first ones, that cut: the
  ///     text then shows only those and ends by counting the rest
  ///     (``ToolRendering/sizeCutLine(_:_:then:)``).
  ///   - narrower: what selects fewer results, for that last line (`a narrower query, kinds or tag`).
  static func text(_ r: SearchResponse, cut: ToolOutput.SizeCut? = nil, narrower: String = "a narrower query") -> String {
    let shown = cut?.kept ?? r.results.count
    var lines = [
      "Search mode \(r.mode.rawValue) (\(r.algorithmVersion ?? "exact")): \(shown) of \(r.total) match(es)"
        + (r.truncated ? ", cut by the limit" : "") + (cut == nil ? "" : ToolRendering.sizeCutClause)
    ]
    if !r.results.isEmpty {
      let notes = SearchResponse.notes(
        wordsPastTermLimit: r.wordsPastTermLimit, unsearchedSymbols: r.unsearchedSymbols, unappliedOperators: r.unappliedOperators,
        queryCut: (r.query, r.queryCutAt, r.queryCharacters))
      lines += notes.map { "Note: \(ToolRendering.line($0))." }
      // As the CLI says it: the scores then need not fall down the list.
      if let order = SearchResponse.termsMatchedOrderNote(
        ordered: r.orderedByTermsMatched, termsMatched: r.results.map(\.termsMatched), termCount: r.terms.count)
      {
        lines.append(order + ".")
      }
    }
    if r.results.isEmpty, let why = r.emptyReason {
      let hint: String
      switch why {
      case .onlyMemoriesMatch: hint = " (call knowledge_search with includeMemories: true, or memory_search)"
      case .onlyKnowledgeMatches: hint = " (knowledge_search finds them)"
      default: hint = ""
      }
      lines.append("No results: \(ToolRendering.line(r.emptyExplanation(hint: hint) ?? why.explanation + hint)).")
      if let lookup = r.idLookup { lines.append(ToolRendering.line(lookup.message) + ".") }
    }
    let rows = r.results.prefix(shown).enumerated().map { i, x in
      let superseded = x.supersededBy.map { "; \(KnowledgeEngine.supersededNote($0))" } ?? ""
      let terms = x.termsMatched.map { ", \($0) of \(r.terms.count) terms matched" } ?? ""
      let row = "\(i + 1). \(x.label) \(ToolRendering.quoted(x.title)) (id \(x.id.uuidString), score \(String(format: "%.3f", x.score))\(terms)\(superseded))"
      return x.snippet.isEmpty ? row : row + "\n   \(ToolRendering.line(x.snippet))"
    }
    return ToolRendering.listing(
      head: lines, rows: rows, field: "results",
      tail: cut.map { [ToolRendering.sizeCutLine($0, "results", then: "they rank below the ones sent; \(narrower) lists fewer")] } ?? [])
  }

  /// What a search tool says of a query that is the record id `id` (``IDLookup``), naming the
  /// tools that show that one record (review 28-a, 2: only the CLI's text pointed an id to its
  /// record): `knowledge_get` for a knowledge item, and for a memory its knowledge mirror;
  /// `handoff_get`; for a task, the `task_list` page that holds only it. No tool shows a memory
  /// without a mirror, a stored digest or a receipt by its id, and the message says so.
  /// - Throws: ``WorkspaceError`` from the store.
  static func idLookup(_ id: UUID, engine: KnowledgeEngine) throws -> IDLookup {
    let u = id.uuidString
    guard let place = try engine.recordLocation(of: id) else {
      return IDLookup(
        id: id, recordType: nil, shownBy: nil, message: "No record in this workspace has the id \(u); search matches words, not ids")
    }
    let words = "\(u) is \(place.type.possessiveID); search matches words, not ids"
    guard let (shown, does) = pointer(to: place) else {
      return IDLookup(id: id, recordType: place.type, shownBy: nil, message: "\(words), and \(noToolShows(place.type))")
    }
    return IDLookup(id: id, recordType: place.type, shownBy: shown, message: "\(words): \(shown) \(does)")
  }

  /// The tool call that shows the record at `place`, and what it does with it (`shows it`):
  /// `knowledge_get` for a knowledge item, and for a memory its knowledge mirror;
  /// `handoff_get`; for a task, the `task_list` page that holds only it. Nil for a memory
  /// without a mirror, a stored digest and a receipt, which no tool shows by id
  /// (``noToolShows(_:)`` says so).
  static func pointer(to place: RecordLocation) -> (call: String, does: String)? {
    let u = place.id.uuidString
    switch place.type {
    case .knowledge: return ("knowledge_get {\"id\": \"\(u)\"}", "shows it")
    case .memory:
      guard let mirror = place.mirrorID else { return nil }
      return ("knowledge_get {\"id\": \"\(mirror.uuidString)\"}", "shows its text (the memory's knowledge mirror)")
    case .task:
      let offset = (place.listPosition ?? 1) - 1
      return ("task_list {\"status\": \"all\", \"offset\": \(offset), \"limit\": 1}", "shows it")
    case .handoff: return ("handoff_get {\"id\": \"\(u)\"}", "shows it")
    case .digest, .receipt: return nil
    }
  }

  /// That no tool shows a record of `type` by its id: `no tool shows a stored digest by its id`;
  /// for a memory, `no tool shows a memory without its knowledge mirror by its id
  /// (memory_search finds it by its words)`.
  static func noToolShows(_ type: RecordType) -> String {
    type == .memory
      ? "no tool shows a memory without its knowledge mirror by its id (memory_search finds it by its words)"
      : "no tool shows \(type.withArticle) by its id"
  }

  /// The search tools' response to `query`, with ``SearchResponse/idLookup`` set when the query
  /// is a record's id and nothing matched.
  static func pointingToRecord(_ r: SearchResponse, engine: KnowledgeEngine) throws -> SearchResponse {
    var r = r
    r.idLookup = try r.queryID.map { try idLookup($0, engine: engine) }
    return r
  }

  /// The output of a search tool: the response as structured output, its ``text(_:cut:narrower:)``,
  /// and its results as a listing a byte bound may cut.
  /// - Parameter narrower: what selects fewer results (`a narrower query, kinds or tag`).
  static func render(_ r: SearchResponse, narrower: String = "a narrower query") throws -> ToolOutput {
    ToolOutput(
      structured: try ToolRendering.json(r), text: text(r, narrower: narrower),
      listing: ToolOutput.Listing(field: "results") { text(r, cut: $0, narrower: narrower) })
  }
}
