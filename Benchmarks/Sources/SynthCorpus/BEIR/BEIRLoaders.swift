/// A line of a BEIR `corpus.jsonl`: `{"_id", "title", "text", "metadata"}`.
struct BEIRCorpusRecord: Decodable {
  var id: String
  var title: String?
  var text: String

  enum CodingKeys: String, CodingKey {
    case id = "_id"
    case title
    case text
  }
}

/// A line of a BEIR `queries.jsonl`: `{"_id", "text", "metadata"}`.
struct BEIRQueryRecord: Decodable {
  var id: String
  var text: String

  enum CodingKeys: String, CodingKey {
    case id = "_id"
    case text
  }
}

/// Loads the documents of a BEIR `corpus.jsonl`, in file order.
///
/// - Parameter path: One `{"_id", "title", "text"}` object per line (other fields are ignored;
///   a missing title counts as empty; blank lines are skipped).
/// - Returns: Each document's id, title and text.
/// - Throws: ``SynthCorpusError/unreadableFile(path:reason:)``, or
///   ``SynthCorpusError/malformedJSONLine(path:line:reason:)`` for a line that is not such an
///   object.
public func beirCorpus(path: String) throws -> [(id: String, title: String, text: String)] {
  try JSONLines.decode(BEIRCorpusRecord.self, path: path).map {
    (id: $0.id, title: $0.title ?? "", text: $0.text)
  }
}

/// Loads the queries of a BEIR data set, in file order.
///
/// - Parameter path: A `queries.jsonl` file: one `{"_id": …, "text": …}` object per line
///   (other fields are ignored; blank lines are skipped).
/// - Returns: Each query's id and text.
/// - Throws: ``SynthCorpusError/unreadableFile(path:reason:)``, or
///   ``SynthCorpusError/malformedJSONLine(path:line:reason:)`` for a line that is not such an
///   object.
public func beirQueries(path: String) throws -> [(id: String, text: String)] {
  try JSONLines.decode(BEIRQueryRecord.self, path: path).map { (id: $0.id, text: $0.text) }
}

/// Loads BEIR relevance judgements: query id → corpus id → graded relevance.
///
/// The file is tab-separated, `query-id corpus-id score`, with an optional header line whose
/// first field is `query-id`. Blank lines are skipped; a repeated pair keeps the last score.
///
/// - Parameter path: A qrels `.tsv` file, such as `scifact/qrels/train.tsv`.
/// - Returns: The judgements, keyed like `pytrec_eval`'s qrels.
/// - Throws: ``SynthCorpusError/unreadableFile(path:reason:)``, or
///   ``SynthCorpusError/malformedQrelsLine(path:line:content:)`` for a line without three
///   fields and an integer score.
public func beirQrels(path: String) throws -> [String: [String: Int]] {
  var qrels: [String: [String: Int]] = [:]
  for (number, bytes) in try JSONLines.lines(path: path) where !JSONLines.isBlank(bytes) {
    var line = String(decoding: bytes, as: UTF8.self)
    if line.hasSuffix("\r") { line.removeLast() }
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    if number == 1, fields.first == "query-id" { continue }
    guard fields.count == 3, !fields[0].isEmpty, !fields[1].isEmpty, let score = Int(fields[2])
    else {
      throw SynthCorpusError.malformedQrelsLine(path: path, line: number, content: line)
    }
    qrels[String(fields[0]), default: [:]][String(fields[1])] = score
  }
  return qrels
}
