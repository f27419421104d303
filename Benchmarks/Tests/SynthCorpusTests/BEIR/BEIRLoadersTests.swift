import Foundation
import Testing

@testable import SynthCorpus

final class BEIRLoadersTests {
  /// The temporary directories this test made; removed when it ends (Swift Testing makes one
  /// instance per test and releases it afterwards).
  private var directories: [URL] = []

  deinit {
    for directory in directories { try? FileManager.default.removeItem(at: directory) }
  }

  /// Writes `contents` to a fresh temporary file and returns its path.
  func temporaryFile(_ contents: String, name: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SynthCorpusTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    directories.append(directory)
    let url = directory.appendingPathComponent(name)
    try Data(contents.utf8).write(to: url)
    return url.path
  }

  @Test func queriesInFileOrder() throws {
    let path = try temporaryFile(
      """
      {"_id": "7", "text": "Second-hand smoke \\u00e9", "metadata": {}}

      {"_id": "2", "text": "1 in 5 million", "metadata": {"x": [1]}}

      """, name: "queries.jsonl")
    let queries = try beirQueries(path: path)
    #expect(queries.map(\.id) == ["7", "2"])
    #expect(queries.map(\.text) == ["Second-hand smoke \u{E9}", "1 in 5 million"])
  }

  @Test func malformedQueryLineNamesTheLine() throws {
    let path = try temporaryFile(
      "{\"_id\": \"1\", \"text\": \"ok\"}\n{\"_id\": \"2\"}\n", name: "q.jsonl")
    #expect {
      try beirQueries(path: path)
    } throws: { error in
      guard case .malformedJSONLine(let reportedPath, let line, _) = error as? SynthCorpusError
      else { return false }
      return reportedPath == path && line == 2
    }
  }

  @Test func missingFile() {
    #expect {
      try beirQrels(path: "/nonexistent/qrels.tsv")
    } throws: { error in
      if case .unreadableFile(let path, _) = error as? SynthCorpusError {
        return path == "/nonexistent/qrels.tsv"
      }
      return false
    }
  }

  @Test func qrelsWithHeader() throws {
    let path = try temporaryFile(
      "query-id\tcorpus-id\tscore\n0\t31715818\t1\n2\t13734012\t1\n2\t99\t2\r\n\n", name: "q.tsv")
    #expect(try beirQrels(path: path) == ["0": ["31715818": 1], "2": ["13734012": 1, "99": 2]])
  }

  @Test func qrelsWithoutHeader() throws {
    let path = try temporaryFile("1\tA\t0\n", name: "q.tsv")
    #expect(try beirQrels(path: path) == ["1": ["A": 0]])
  }

  @Test func malformedQrelsLine() throws {
    let path = try temporaryFile("query-id\tcorpus-id\tscore\n1\tA\tyes\n", name: "q.tsv")
    #expect(throws: SynthCorpusError.malformedQrelsLine(path: path, line: 2, content: "1\tA\tyes"))
    {
      try beirQrels(path: path)
    }
  }

  @Test func emptyCorpus() throws {
    let path = try temporaryFile("\n", name: "corpus.jsonl")
    #expect(throws: SynthCorpusError.emptyCorpus(path: path)) {
      try SynthSource(corpusPath: path)
    }
  }

  @Test(.enabled(if: TestData.hasSciFact, Comment(rawValue: TestData.sciFactMissing)))
  func sciFactFiles() throws {
    let queries = try beirQueries(
      path: TestData.scifactDirectory.appendingPathComponent("queries.jsonl").path)
    #expect(queries.count == 1_109)
    #expect(queries.first?.id == "0")
    #expect(queries.first?.text == "0-dimensional biomaterials lack inductive properties.")
    let qrels = try beirQrels(
      path: TestData.scifactDirectory.appendingPathComponent("qrels/train.tsv").path)
    #expect(qrels.count == 809)
    #expect(qrels.values.map(\.count).reduce(0, +) == 919)
    #expect(qrels["2"] == ["13734012": 1])
  }
}
