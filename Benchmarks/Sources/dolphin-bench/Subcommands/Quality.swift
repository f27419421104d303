import ContinuityKit
import Foundation
@_spi(Benchmarking) import KnowledgeEngine
import SynthCorpus

/// `dolphin-bench quality`: nDCG@10 and Recall@100 of `hybrid-lexical-v1` on a BEIR data set,
/// searched through a real workspace database.
struct Quality: BenchCommand {
  static let name = "quality"
  static let abstract = "nDCG@10 and Recall@100 of hybrid-lexical-v1 on a BEIR data set."
  static var help: String {
    """
    USAGE: dolphin-bench quality [--corpus FILE] [--queries FILE] [--qrels FILE]
                                 [--split even|odd|all] [--json] [--per-query FILE]
                                 [--keep] [--dump-queries FILE] [--run FILE] [--grid SPEC]

    Loads the corpus (title → title, text → content, kind fact) into a fresh workspace through
    the bulk capture path (the index is written in the same transaction), then ranks every
    query that has judgements to depth 100 through the persisted index and prints the mean
    nDCG@10 (linear gain, as trec_eval's ndcg_cut.10) and Recall@100.

    Query ids are split by parity: tune on even ids, report on odd ones.

    OPTIONS:
      --corpus FILE     BEIR corpus.jsonl (default \(Self.defaultData)/corpus.jsonl)
      --queries FILE    BEIR queries.jsonl (default \(Self.defaultData)/queries.jsonl)
      --qrels FILE      qrels TSV (default \(Self.defaultData)/qrels/train.tsv)
      --split S         even, odd or all query ids (default all; non-numeric ids count only
                        in all)
      --json            print one JSON object: ndcg_at_10, recall_at_100, queries, …
      --per-query FILE  write query-id<TAB>ndcg@10<TAB>recall@100, one line per query
                        (with --grid, to FILE.1, FILE.2, … for each combination in order)
      --run FILE        write query-id<TAB>the ranked corpus ids, space-separated, one line
                        per query (with --grid, to FILE.1, FILE.2, …), to read losses
                        against an anchor's ranking
      --keep            keep the workspace (its path goes to stderr), to inspect results with
                        `dolphin search … --explain --workspace PATH`
      --dump-queries FILE
                        write query-id<TAB>JSON of the resolved query (terms, their
                        vocabulary variants and weights, phrase pairs), one line per query, for
                        the offline prototype in Benchmarks/scripts/prototype/
      --grid SPEC       sweep ranking parameters on even ids (requires --split even), e.g.
                        'k1=0.9,1.2,1.5;weight.title=2,3'; names: \(ParameterGrid.names.joined(separator: ", "))
    """
  }

  static let defaultData = BenchPaths.sharedData.appendingPathComponent("scifact").path

  enum Split: String {
    case even, odd, all
  }

  var corpus = Self.defaultData + "/corpus.jsonl"
  var queries = Self.defaultData + "/queries.jsonl"
  var qrels = Self.defaultData + "/qrels/train.tsv"
  var split = Split.all
  var json = false
  var perQuery: String?
  var grid: ParameterGrid?
  var keep = false
  var dumpQueries: String?
  var runFile: String?

  init(parsing a: inout ArgumentReader) throws {
    if let value = try a.option("--corpus") { corpus = value }
    if let value = try a.option("--queries") { queries = value }
    if let value = try a.option("--qrels") { qrels = value }
    if let value = try a.option("--split") {
      guard let parsed = Split(rawValue: value) else {
        throw UsageError(message: "--split must be even, odd or all, got '\(value)'")
      }
      split = parsed
    }
    json = a.flag("--json")
    perQuery = try a.option("--per-query")
    if let value = try a.option("--grid") { grid = try ParameterGrid(parsing: value) }
    keep = a.flag("--keep")
    dumpQueries = try a.option("--dump-queries")
    runFile = try a.option("--run")
  }

  func validate() throws {
    for path in [corpus, queries, qrels] where !FileManager.default.fileExists(atPath: path) {
      throw UsageError(message: "no file at \(path)")
    }
    if grid != nil && split != .even {
      throw UsageError(
        message: "--grid tunes parameters, so it runs on even query ids only (--split even); "
          + "odd ids are held out for reporting")
    }
  }

  /// One judged query.
  struct JudgedQuery {
    var id: String
    var text: String
    var relevance: [String: Int]
  }

  /// Figures for one parameter setting.
  struct Figures {
    var ndcg: [Double]
    var recall: [Double]
    var milliseconds: [Double]
    var rankings: [[String]] = []
  }

  struct Output: Encodable {
    var ndcgAt10: Double
    var recallAt100: Double
    var queries: Int
    var split: String
    var documents: Int
    var importSeconds: Double
    var queryMillisecondsP50: Double
    var mode: String
    var algorithmVersion: String

    enum CodingKeys: String, CodingKey {
      case ndcgAt10 = "ndcg_at_10"
      case recallAt100 = "recall_at_100"
      case queries, split, documents
      case importSeconds = "import_seconds"
      case queryMillisecondsP50 = "query_ms_p50"
      case mode
      case algorithmVersion = "algorithm_version"
    }
  }

  /// Writes `query-id<TAB>ndcg@10<TAB>recall@100`, one line per judged query, to `path`.
  private func writePerQuery(_ figures: Figures, _ judged: [JudgedQuery], to path: String) throws {
    var lines = ["query-id\tndcg@10\trecall@100"]
    for (i, query) in judged.enumerated() {
      lines.append("\(query.id)\t\(figures.ndcg[i])\t\(figures.recall[i])")
    }
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
  }

  /// Writes `query-id<TAB>ranked corpus ids`, one line per judged query, to `path`.
  private func writeRun(_ figures: Figures, _ judged: [JudgedQuery], to path: String) throws {
    let lines = zip(judged, figures.rankings).map { $0.id + "\t" + $1.joined(separator: " ") }
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
  }

  func run() throws {
    let documents = try beirCorpus(path: corpus)
    if let untitled = documents.first(where: {
      $0.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }) {
      throw UsageError(
        message: "corpus document '\(untitled.id)' has no title; knowledge items need one")
    }
    let judged = try loadQueries()

    let workspace = try BenchWorkspace(
      label: "quality",
      itemLimit: max(
        Limits.knowledgeItemsDefault, min(documents.count, Limits.knowledgeItemsMaximum)))
    defer {
      if keep {
        FileHandle.standardError.write(Data("kept \(workspace.directory.path)\n".utf8))
      } else {
        workspace.remove()
      }
    }
    // Corpus text is data: the operator of a benchmark, not an agent, chooses to store it as is.
    let requests = documents.map {
      CaptureRequest(kind: .fact, title: $0.title, content: $0.text, allowCredentials: true)
    }
    let (items, importSeconds) = try workspace.captureBulk(requests)
    var corpusID: [UUID: String] = [:]
    for (item, document) in zip(items, documents) { corpusID[item.id] = document.id }
    if !json {
      print(
        String(
          format: "imported %d documents in %.1f s; %d %@ queries with judgements",
          documents.count, importSeconds, judged.count, split.rawValue))
    }

    if let grid {
      for (n, combination) in grid.combinations.enumerated() {
        let figures = try measure(
          judged, workspace: workspace, corpusID: corpusID, parameters: combination.parameters)
        if let perQuery { try writePerQuery(figures, judged, to: "\(perQuery).\(n + 1)") }
        if let runFile { try writeRun(figures, judged, to: "\(runFile).\(n + 1)") }
        print(
          String(
            format: "%@  nDCG@10 %.4f  Recall@100 %.4f  (query p50 %.2f ms)", combination.name,
            RetrievalEvaluation.mean(figures.ndcg), RetrievalEvaluation.mean(figures.recall),
            percentile(figures.milliseconds, 50)))
      }
      return
    }

    if let dump = dumpQueries {
      var lines: [String] = []
      for query in judged {
        lines.append(query.id + "\t" + (try workspace.engine.resolvedQueryJSON(query.text)))
      }
      try (lines.joined(separator: "\n") + "\n").write(
        toFile: dump, atomically: true, encoding: .utf8)
    }
    let figures = try measure(judged, workspace: workspace, corpusID: corpusID, parameters: .v1)
    let output = Output(
      ndcgAt10: RetrievalEvaluation.mean(figures.ndcg),
      recallAt100: RetrievalEvaluation.mean(figures.recall), queries: judged.count,
      split: split.rawValue, documents: documents.count, importSeconds: importSeconds,
      queryMillisecondsP50: percentile(figures.milliseconds, 50),
      mode: HybridLexicalRanker.mode.rawValue,
      algorithmVersion: HybridLexicalRanker.algorithmVersion)
    if let perQuery { try writePerQuery(figures, judged, to: perQuery) }
    if let runFile { try writeRun(figures, judged, to: runFile) }
    if json {
      print(try StableJSON.string(output, pretty: false))
    } else {
      print(
        String(
          format:
            "%@ (%@) on %d %@ queries: nDCG@10 %.4f  Recall@100 %.4f  (query p50 %.2f ms, depth 100)",
          output.mode, output.algorithmVersion, output.queries, output.split, output.ndcgAt10,
          output.recallAt100, output.queryMillisecondsP50))
    }
  }

  /// The queries of the chosen split that have at least one judgement, by numeric id (then by
  /// id for non-numeric ones).
  func loadQueries() throws -> [JudgedQuery] {
    let judgements = try beirQrels(path: qrels)
    var result: [JudgedQuery] = []
    for query in try beirQueries(path: queries) {
      guard let relevance = judgements[query.id] else { continue }
      switch split {
      case .all: break
      case .even: guard let n = Int(query.id), n % 2 == 0 else { continue }
      case .odd: guard let n = Int(query.id), n % 2 != 0 else { continue }
      }
      result.append(JudgedQuery(id: query.id, text: query.text, relevance: relevance))
    }
    result.sort { a, b in
      switch (Int(a.id), Int(b.id)) {
      case (let x?, let y?): return x < y
      case (.some, nil): return true
      case (nil, .some): return false
      case (nil, nil): return a.id < b.id
      }
    }
    return result
  }

  /// Ranks every query to depth 100 through the persisted index.
  func measure(
    _ judged: [JudgedQuery], workspace: BenchWorkspace, corpusID: [UUID: String],
    parameters: HybridLexicalRanker.Parameters
  ) throws -> Figures {
    var figures = Figures(ndcg: [], recall: [], milliseconds: [])
    for query in judged {
      var ranking: [String] = []
      let elapsed = try milliseconds {
        ranking = try workspace.engine.rankedIDs(query.text, depth: 100, parameters: parameters)
          .compactMap { corpusID[$0] }
      }
      figures.milliseconds.append(elapsed)
      figures.rankings.append(ranking)
      figures.ndcg.append(RetrievalEvaluation.ndcg(ranking, relevance: query.relevance, at: 10))
      figures.recall.append(
        RetrievalEvaluation.recall(ranking, relevance: query.relevance, at: 100))
    }
    return figures
  }
}
