import Foundation
import Testing

@testable import KnowledgeEngine

/// In-process latency of `hybrid-lexical-v1` on the synthetic knowledge corpora of
/// `shared/bench/synth.py`, opt-in (`DOLPHIN_SYNTH_DIR` holds `synth_100k.jsonl` — one
/// `{"title","content","tags"}` item a line — `short_queries.txt` and `long_queries.txt`).
/// `DOLPHIN_SYNTH_SIZES` picks the sizes (default `1000,10000`). Run in release:
///
///     DOLPHIN_SYNTH_DIR=… swift test -c release -Xswiftc -enable-testing --filter ScaleLatency
@Suite(.enabled(if: ProcessInfo.processInfo.environment["DOLPHIN_SYNTH_DIR"] != nil))
struct ScaleLatencyTests {
  @Test func latency() throws {
    let environment = ProcessInfo.processInfo.environment
    let directory = environment["DOLPHIN_SYNTH_DIR"] ?? ""
    let sizes = (environment["DOLPHIN_SYNTH_SIZES"] ?? "1000,10000")
      .split(separator: ",").compactMap { Int($0) }
    let lines = try String(contentsOfFile: directory + "/synth_100k.jsonl", encoding: .utf8)
      .split(separator: "\n")
    let short = try String(contentsOfFile: directory + "/short_queries.txt", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let long = try String(contentsOfFile: directory + "/long_queries.txt", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let clock = ContinuousClock()
    let ranker = HybridLexicalRanker()
    for size in sizes {
      var documents: [IndexedDocument] = []
      for (i, line) in lines.prefix(size).enumerated() {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        documents.append(
          IndexedDocument(
            id: RetrievalFixtures.id(i + 1), kind: .knowledge(KnowledgeKind.allCases[i % 7]),
            title: object["title"] as? String ?? "", tags: object["tags"] as? [String] ?? [],
            content: object["content"] as? String ?? "",
            updatedAt: RetrievalFixtures.epoch.addingTimeInterval(Double(i))))
      }
      var index = InMemoryLexicalIndex()
      let build = clock.measure { index = InMemoryLexicalIndex(documents) }
      print("N=\(size) build \(build)")
      for (name, queries) in [("short", short), ("long", long)] {
        for query in queries { _ = try ranker.search(query, in: index, limit: 10) }  // warm
        // Per query, the median of `repeats` timed runs (as bench.py does).
        let repeats = Int(environment["DOLPHIN_SYNTH_REPEATS"] ?? "") ?? 5
        var samples: [Double] = []
        var totals = 0
        for query in queries {
          var runs: [Double] = []
          for _ in 0..<max(1, repeats) {
            var response: SearchResponse?
            let elapsed = try clock.measure {
              response = try ranker.search(query, in: index, limit: 10)
            }
            totals += response?.total ?? 0
            runs.append(
              Double(elapsed.components.seconds) * 1e3
                + Double(elapsed.components.attoseconds) / 1e15)
          }
          runs.sort()
          samples.append(runs[runs.count / 2])
        }
        totals /= max(1, repeats)
        samples.sort()
        print(
          String(
            format: "N=%d %@ p50 %.3f ms p95 %.3f ms max %.3f ms (mean total %d)", size, name,
            samples[samples.count / 2], samples[samples.count * 95 / 100],
            samples[samples.count - 1], totals / queries.count))
      }
    }
  }
}
