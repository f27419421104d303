import Foundation

/// Reading of JSON-lines files (one JSON object per line), as BEIR data sets ship them.
enum JSONLines {
  /// Decodes every non-blank line of the file at `path` as a `Record`.
  ///
  /// - Throws: ``SynthCorpusError/unreadableFile(path:reason:)`` or
  ///   ``SynthCorpusError/malformedJSONLine(path:line:reason:)``.
  static func decode<Record: Decodable>(_: Record.Type, path: String) throws -> [Record] {
    let decoder = JSONDecoder()
    var records: [Record] = []
    for (number, line) in try lines(path: path) where !isBlank(line) {
      do {
        records.append(try decoder.decode(Record.self, from: Data(line)))
      } catch {
        throw SynthCorpusError.malformedJSONLine(path: path, line: number, reason: "\(error)")
      }
    }
    return records
  }

  /// The lines of the file at `path` (split at LF; a CR before it is kept), numbered from 1.
  ///
  /// - Throws: ``SynthCorpusError/unreadableFile(path:reason:)``.
  static func lines(path: String) throws -> [(number: Int, bytes: ArraySlice<UInt8>)] {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw SynthCorpusError.unreadableFile(path: path, reason: error.localizedDescription)
    }
    let bytes = [UInt8](data)
    return bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated().map { (number: $0.offset + 1, bytes: $0.element) }
  }

  /// Whether a line holds only ASCII whitespace.
  static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
  }
}
