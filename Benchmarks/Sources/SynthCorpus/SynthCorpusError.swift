/// A failure to read the data a synthetic corpus or a BEIR run is built from.
public enum SynthCorpusError: Error, Equatable, CustomStringConvertible {
  /// The file could not be read (missing, unreadable, or a directory).
  case unreadableFile(path: String, reason: String)

  /// A line of a JSON-lines file did not decode as the expected record.
  ///
  /// `line` counts from 1.
  case malformedJSONLine(path: String, line: Int, reason: String)

  /// A line of a qrels file is not `query-id<TAB>corpus-id<TAB>score` with an integer score.
  ///
  /// `line` counts from 1.
  case malformedQrelsLine(path: String, line: Int, content: String)

  /// The corpus file holds no documents.
  case emptyCorpus(path: String)

  /// A readable explanation, naming the file and how to fix the problem.
  public var description: String {
    switch self {
    case .unreadableFile(let path, let reason):
      return "cannot read \(path): \(reason). Check the path; the SciFact data lives in "
        + "shared/data/scifact/ beside the repository."
    case .malformedJSONLine(let path, let line, let reason):
      return "\(path):\(line): not a valid record: \(reason). Each line must be one JSON object "
        + "(BEIR format: corpus lines need \"_id\" and \"text\", query lines \"_id\" and \"text\")."
    case .malformedQrelsLine(let path, let line, let content):
      return "\(path):\(line): expected 'query-id<TAB>corpus-id<TAB>integer score', "
        + "found \(String(reflecting: content))."
    case .emptyCorpus(let path):
      return "\(path) holds no documents; a synthetic corpus needs at least one."
    }
  }
}
