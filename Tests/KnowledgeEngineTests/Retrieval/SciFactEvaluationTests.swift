import Foundation
import Testing

@testable import KnowledgeEngine

/// Quality and speed of `hybrid-lexical-v1` on BEIR SciFact (train qrels), opt-in because it
/// needs the data set and a release build to be quick:
///
///     DOLPHIN_SCIFACT=/work/shared/data/scifact \
///       swift test -c release -Xswiftc -enable-testing --filter SciFactEvaluation
///
/// Parameters are tuned on the even-numbered query ids only and reported on the odd ones.
/// `DOLPHIN_SCIFACT_SWEEP=1` also prints the tuning grid (even ids).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["DOLPHIN_SCIFACT"] != nil))
struct SciFactEvaluationTests {
  struct Dataset {
    var documents: [IndexedDocument]
    var queries: [(id: Int, text: String)]
    var qrels: [Int: [UUID: Int]]
  }

  static func uuid(forCorpusID id: String) -> UUID {
    let digits = String(repeating: "0", count: max(0, 12 - id.count)) + id
    return UUID(uuidString: "00000000-0000-4000-8000-" + digits.suffix(12)) ?? UUID()
  }

  static func load(_ directory: String) throws -> Dataset {
    func lines(_ name: String) throws -> [Substring] {
      try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: true)
    }
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    var documents: [IndexedDocument] = []
    for line in try lines("corpus.jsonl") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
      let id = object["_id"] as? String ?? ""
      documents.append(
        IndexedDocument(
          id: uuid(forCorpusID: id), kind: .knowledge(.fact),
          title: object["title"] as? String ?? "", content: object["text"] as? String ?? "",
          updatedAt: date))
    }
    var qrels: [Int: [UUID: Int]] = [:]
    for line in try lines("qrels/train.tsv").dropFirst() {
      let fields = line.split(separator: "\t")
      guard fields.count == 3, let q = Int(fields[0]), let grade = Int(fields[2]) else { continue }
      qrels[q, default: [:]][uuid(forCorpusID: String(fields[1]))] = grade
    }
    var queries: [(Int, String)] = []
    for line in try lines("queries.jsonl") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
      if let id = Int(object["_id"] as? String ?? ""), qrels[id] != nil {
        queries.append((id, object["text"] as? String ?? ""))
      }
    }
    queries.sort { $0.0 < $1.0 }
    return Dataset(documents: documents, queries: queries, qrels: qrels)
  }

  struct Measurement {
    var ndcg: [Double]
    var recall: [Double]
    var milliseconds: [Double]

    var meanNDCG: Double { RetrievalEvaluation.mean(ndcg) }
    var meanRecall: Double { RetrievalEvaluation.mean(recall) }
    func percentile(_ p: Double) -> Double {
      let sorted = milliseconds.sorted()
      return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))]
    }
  }

  /// Ranks each query to depth 100 (past the 50-result API bound, for Recall@100); when
  /// `timed`, also times the public `search` with limit 10 (snippets included).
  static func measure(
    _ ranker: HybridLexicalRanker, index: InMemoryLexicalIndex, dataset: Dataset,
    queries: [(id: Int, text: String)], timed: Bool = false
  ) throws -> Measurement {
    var result = Measurement(ndcg: [], recall: [], milliseconds: [])
    let clock = ContinuousClock()
    for query in queries {
      let ranking = try ranker.rankedIDs(query.text, in: index, depth: 100)
      let relevance = dataset.qrels[query.id] ?? [:]
      result.ndcg.append(RetrievalEvaluation.ndcg(ranking, relevance: relevance, at: 10))
      result.recall.append(RetrievalEvaluation.recall(ranking, relevance: relevance, at: 100))
      if timed {
        let elapsed = try clock.measure { _ = try ranker.search(query.text, in: index, limit: 10) }
        result.milliseconds.append(
          Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
      }
    }
    return result
  }

  @Test func reportV1() throws {
    let directory = ProcessInfo.processInfo.environment["DOLPHIN_SCIFACT"] ?? ""
    let dataset = try Self.load(directory)
    let clock = ContinuousClock()
    var index = InMemoryLexicalIndex()
    let buildTime = clock.measure {
      index = InMemoryLexicalIndex(dataset.documents)
    }
    print("SciFact: \(dataset.documents.count) docs indexed in \(buildTime)")
    let even = dataset.queries.filter { $0.id % 2 == 0 }
    let odd = dataset.queries.filter { $0.id % 2 == 1 }
    let ranker = HybridLexicalRanker()
    // Warm-up pass, then measured passes.
    _ = try Self.measure(ranker, index: index, dataset: dataset, queries: dataset.queries)
    for (name, queries) in [("even", even), ("odd", odd), ("all", dataset.queries)] {
      let m = try Self.measure(ranker, index: index, dataset: dataset, queries: queries, timed: true)
      print(
        String(
          format: "v1 %@ n=%d nDCG@10 %.4f Recall@100 %.4f p50 %.3f ms p95 %.3f ms",
          name, queries.count, m.meanNDCG, m.meanRecall, m.percentile(0.5), m.percentile(0.95)))
    }
    let debugIDs = (ProcessInfo.processInfo.environment["DOLPHIN_SCIFACT_DEBUG"] ?? "")
      .split(separator: ",").compactMap { Int($0) }
    for query in dataset.queries where debugIDs.contains(query.id) {
      let response = try ranker.rank(query.text, in: index, kinds: nil, limit: 100)
      print("Q\(query.id): \(query.text)")
      print("  terms: " + response.terms.map { "\($0.term)[\($0.match.rawValue):\($0.variants.joined(separator: "|"))]" }.joined(separator: " "))
      let relevant = dataset.qrels[query.id] ?? [:]
      for (rank, result) in response.results.enumerated() where rank < 5 || relevant[result.id] != nil {
        let p = result.scoreParts
        print(String(format: "  %2d %@ %.3f t%.2f c%.2f f%.2f ph%.2f cov%.2f %@ | %@", rank + 1, relevant[result.id] != nil ? "*" : " ", result.score, p.title, p.content, p.fuzzy, p.phrase, p.coverage, result.matchedTerms.joined(separator: ","), String(result.title.prefix(90))))
      }
    }
    if let out = ProcessInfo.processInfo.environment["DOLPHIN_SCIFACT_PER_QUERY"] {
      let m = try Self.measure(ranker, index: index, dataset: dataset, queries: dataset.queries)
      let lines = zip(dataset.queries, m.ndcg).map { "\($0.0.id)\t\($0.1)" }
      try lines.joined(separator: "\n").write(toFile: out, atomically: true, encoding: .utf8)
    }
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment["DOLPHIN_SCIFACT_SWEEP"] != nil))
  func sweepOnEvenQueries() throws {
    let directory = ProcessInfo.processInfo.environment["DOLPHIN_SCIFACT"] ?? ""
    let dataset = try Self.load(directory)
    let even = dataset.queries.filter { $0.id % 2 == 0 }
    let stemmings = ProcessInfo.processInfo.environment["DOLPHIN_SCIFACT_NOSTEM"] != nil ? [true, false] : [true]
    for stemming in stemmings {
      let tokenizer = Tokenizer(stemming: stemming)
      var index = InMemoryLexicalIndex(tokenizer: tokenizer)
      for document in dataset.documents { index.add(document) }
      for variant in Self.grid() {
        let ranker = HybridLexicalRanker(parameters: variant.parameters, tokenizer: tokenizer)
        let m = try Self.measure(ranker, index: index, dataset: dataset, queries: even)
        print(
          String(
            format: "sweep stem=%d %@ nDCG@10 %.4f R@100 %.4f", stemming ? 1 : 0,
            variant.name, m.meanNDCG, m.meanRecall))
      }
    }
  }

  /// The tuning grids (`DOLPHIN_SCIFACT_GRID`), each varying v1 along one axis or two.
  static func grid() -> [(name: String, parameters: HybridLexicalRanker.Parameters)] {
    var result: [(String, HybridLexicalRanker.Parameters)] = []
    let spec = ProcessInfo.processInfo.environment["DOLPHIN_SCIFACT_GRID"] ?? "v1"
    let base = HybridLexicalRanker.Parameters.v1
    switch spec {
    case "bm25":
      for k1 in [0.9, 1.2, 1.5] {
        for bContent in [0.6, 0.75, 0.9] {
          for title in [1.0, 2.0, 3.0, 4.0] {
            var p = base
            p.k1 = k1
            p.b.content = bContent
            p.fieldWeights.title = title
            result.append(("k1=\(k1) b=\(bContent) title=\(title)", p))
          }
        }
      }
    case "titleb":
      for bTitle in [0.0, 0.25, 0.5, 0.75, 1.0] {
        var p = base
        p.b.title = bTitle
        result.append(("bTitle=\(bTitle)", p))
      }
    case "boosts":
      for phrase in [0.0, 0.1, 0.25, 0.5] {
        for coverage in [0.0, 0.25, 0.5, 1.0] {
          var p = base
          p.phraseWeight = phrase
          p.coverageWeight = coverage
          result.append(("phrase=\(phrase) coverage=\(coverage)", p))
        }
      }
    case "fuzzy":
      for weight in [0.0, 0.25, 0.5] {
        var p = base
        p.fuzzyWeight = weight
        p.prefixWeight = weight
        result.append(("fuzzy=prefix=\(weight)", p))
      }
    case "stop":
      for (name, list) in [
        ("none", Set<String>()), ("lucene", EnglishStopWords.lucene),
        ("snowball", EnglishStopWords.snowball),
      ] {
        var p = base
        p.stopWords = list
        result.append(("stop=\(name)", p))
      }
    default:
      result.append(("v1", base))
    }
    return result
  }
}
