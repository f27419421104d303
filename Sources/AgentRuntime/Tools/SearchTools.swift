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
      "total": ToolRendering.integer, "truncated": .object(["type": "boolean"]), "terms": ToolRendering.anyArray,
    ], required: ["mode", "results", "total", "truncated"])

  /// The text rendering: a header naming the mode and counts, then each result (a line, and its
  /// snippet on the next) whole, as many as ``Limits/renderedToolOutput`` holds, then how many it
  /// left out (``ToolRendering/listing(head:rows:field:)``: `structuredContent.results` holds
  /// every one).
  static func text(_ r: SearchResponse) -> String {
    var lines = ["Search mode \(r.mode.rawValue) (\(r.algorithmVersion ?? "exact")): \(r.results.count) of \(r.total) match(es)" + (r.truncated ? ", cut by the limit" : "")]
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
    let rows = r.results.enumerated().map { i, x in
      let superseded = x.supersededBy.map { "; \(KnowledgeEngine.supersededNote($0))" } ?? ""
      let row = "\(i + 1). \(x.label) \(ToolRendering.quoted(x.title)) (id \(x.id.uuidString), score \(String(format: "%.3f", x.score))\(superseded))"
      return x.snippet.isEmpty ? row : row + "\n   \(ToolRendering.line(x.snippet))"
    }
    return ToolRendering.listing(head: lines, rows: rows, field: "results")
  }

  static func render(_ r: SearchResponse) throws -> ToolOutput {
    ToolOutput(structured: try ToolRendering.json(r), text: text(r))
  }
}
