import Foundation
import Testing

/// `dolphin-bench quality` end to end on a tiny BEIR data set written by the test.
struct QualityCommandTests {
  /// A temporary BEIR data set: five documents, three judged queries (ids 1, 2, 3) and one
  /// without judgements.
  struct DataSet {
    let directory: URL
    var corpus: String { directory.appendingPathComponent("corpus.jsonl").path }
    var queries: String { directory.appendingPathComponent("queries.jsonl").path }
    var qrels: String { directory.appendingPathComponent("qrels.tsv").path }

    init() throws {
      directory = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("dolphin-bench-quality-test-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let documents = [
        ("d1", "Vitamin D and bone density", "Vitamin D supplements raise bone mineral density."),
        ("d2", "Statins and cholesterol", "Statins lower LDL cholesterol in adults."),
        ("d3", "Sleep and memory", "Sleep consolidates memory in rodents."),
        ("d4", "Coffee consumption", "Coffee drinkers report more alertness."),
        ("d5", "Bone fractures in the elderly", "Falls cause most fractures."),
      ]
      let lines = documents.map { id, title, text in
        #"{"_id": "\#(id)", "title": "\#(title)", "text": "\#(text)", "metadata": {}}"#
      }
      try (lines.joined(separator: "\n") + "\n").write(toFile: corpus, atomically: true, encoding: .utf8)
      let queries = [
        #"{"_id": "1", "text": "vitamin D raises bone density", "metadata": {}}"#,
        #"{"_id": "2", "text": "statins lower cholesterol", "metadata": {}}"#,
        #"{"_id": "3", "text": "sleep improves memory", "metadata": {}}"#,
        #"{"_id": "4", "text": "coffee", "metadata": {}}"#,
      ]
      try (queries.joined(separator: "\n") + "\n").write(toFile: self.queries, atomically: true, encoding: .utf8)
      let qrels = "query-id\tcorpus-id\tscore\n1\td1\t1\n2\td2\t1\n3\td3\t1\n"
      try qrels.write(toFile: self.qrels, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
  }

  func run(_ arguments: [String]) throws -> SynthCommandTests.Run {
    try SynthCommandTests().run(arguments)
  }

  @Test("--json prints one object with nDCG@10, Recall@100 and the judged query count")
  func json() throws {
    let data = try DataSet()
    defer { data.remove() }
    let perQuery = data.directory.appendingPathComponent("per-query.tsv").path
    let result = try run([
      "quality", "--corpus", data.corpus, "--queries", data.queries, "--qrels", data.qrels,
      "--json", "--per-query", perQuery,
    ])
    #expect(result.status == 0, "stderr: \(result.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["queries"] as? Int == 3)
    #expect(object["ndcg_at_10"] as? Double == 1)
    #expect(object["recall_at_100"] as? Double == 1)
    #expect(object["mode"] as? String == "hybrid-lexical")
    #expect(object["algorithm_version"] as? String == "hybrid-lexical-v1")
    let lines = try String(contentsOfFile: perQuery, encoding: .utf8).split(separator: "\n")
    #expect(lines == ["query-id\tndcg@10\trecall@100", "1\t1.0\t1.0", "2\t1.0\t1.0", "3\t1.0\t1.0"])
  }

  @Test("--split keeps the judged queries of one parity")
  func split() throws {
    let data = try DataSet()
    defer { data.remove() }
    for (split, count) in [("odd", 2), ("even", 1), ("all", 3)] {
      let result = try run([
        "quality", "--corpus", data.corpus, "--queries", data.queries, "--qrels", data.qrels,
        "--split", split, "--json",
      ])
      #expect(result.status == 0, "stderr: \(result.stderr)")
      let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      #expect(object?["queries"] as? Int == count, "split \(split)")
    }
  }

  @Test("--grid tunes on even ids only")
  func gridNeedsEvenSplit() throws {
    let data = try DataSet()
    defer { data.remove() }
    let refused = try run([
      "quality", "--corpus", data.corpus, "--queries", data.queries, "--qrels", data.qrels,
      "--grid", "k1=1.2",
    ])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("even query ids only"))
    let swept = try run([
      "quality", "--corpus", data.corpus, "--queries", data.queries, "--qrels", data.qrels,
      "--split", "even", "--grid", "k1=0.9,1.2;weight.title=2,3",
    ])
    #expect(swept.status == 0, "stderr: \(swept.stderr)")
    #expect(swept.stdout.split(separator: "\n").filter { $0.contains("nDCG@10") }.count == 4)
  }
}
