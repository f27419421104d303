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
      "unmatchedWords": OutputSchemas.strings, "tag": ToolRendering.string,
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
    }
    if r.results.isEmpty, let why = r.emptyReason {
      let hint: String
      switch why {
      case .onlyMemoriesMatch: hint = " (call knowledge_search with includeMemories: true, or memory_search)"
      case .onlyKnowledgeMatches: hint = " (knowledge_search finds them)"
      default: hint = ""
      }
      lines.append("No results: \(ToolRendering.line(r.emptyExplanation(hint: hint) ?? why.explanation + hint)).")
    }
    let rows = r.results.prefix(shown).enumerated().map { i, x in
      let superseded = x.supersededBy.map { "; \(KnowledgeEngine.supersededNote($0))" } ?? ""
      let row = "\(i + 1). \(x.label) \(ToolRendering.quoted(x.title)) (id \(x.id.uuidString), score \(String(format: "%.3f", x.score))\(superseded))"
      return x.snippet.isEmpty ? row : row + "\n   \(ToolRendering.line(x.snippet))"
    }
    return ToolRendering.listing(
      head: lines, rows: rows, field: "results",
      tail: cut.map { [ToolRendering.sizeCutLine($0, "results", then: "they rank below the ones sent; \(narrower) lists fewer")] } ?? [])
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
