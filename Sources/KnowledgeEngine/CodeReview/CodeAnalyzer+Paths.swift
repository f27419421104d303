import ContinuityKit
import Foundation

/// The result of analyzing files and directories.
public struct PathAnalysis: Sendable, Equatable, Codable {
  /// One report per analyzed file, sorted by path.
  public var reports: [CodeAnalysisReport]
  /// Files not analyzed (over the input bound, unreadable, not UTF-8), with notices.
  public var skipped: [SourceWalker.Skipped]
  /// Paths excluded by `.gitignore` rules, `.build` and hidden folders.
  public var ignoredCount: Int
  /// Files found in the directories walked that are not `.swift` files, left out (see
  /// ``SourceWalker/Walk/nonSwiftCount``); 0 in a report written before they were counted.
  public var nonSwiftCount: Int
  /// Always `heuristic`.
  public var analysis: String { "heuristic" }

  /// Total findings across reports.
  public var totalFindings: Int { reports.reduce(0) { $0 + $1.totalFindings } }

  /// Makes a result.
  public init(
    reports: [CodeAnalysisReport], skipped: [SourceWalker.Skipped], ignoredCount: Int,
    nonSwiftCount: Int = 0
  ) {
    self.reports = reports
    self.skipped = skipped
    self.ignoredCount = ignoredCount
    self.nonSwiftCount = nonSwiftCount
  }

  /// Decodes a result; `nonSwiftCount` may be absent (reports written before it existed).
  /// - Throws: `DecodingError` for a missing required key or a value of the wrong type.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    reports = try c.decode([CodeAnalysisReport].self, forKey: .reports)
    skipped = try c.decode([SourceWalker.Skipped].self, forKey: .skipped)
    ignoredCount = try c.decode(Int.self, forKey: .ignoredCount)
    nonSwiftCount = try c.decodeIfPresent(Int.self, forKey: .nonSwiftCount) ?? 0
  }
}

extension CodeAnalyzer {
  /// Walks `paths` (files or directories of `.swift` files, honouring `.gitignore`; see
  /// ``SourceWalker``) and analyzes each file read-only. Nothing is executed, compiled or sent
  /// anywhere.
  /// - Parameter progress: called after each directory (for a progress line).
  public static func analyze(paths: [String], options: CodeAnalysisOptions = CodeAnalysisOptions(), progress: ((SourceWalker.Progress) -> Void)? = nil) -> PathAnalysis {
    let walk = SourceWalker().walk(paths, progress: progress)
    var reports: [CodeAnalysisReport] = []
    var skipped = walk.skipped
    for file in walk.files {
      guard let data = FileManager.default.contents(atPath: file.path) else {
        skipped.append(.init(path: file.path, reason: .unreadable, notice: "\(file.path): cannot be read; skipped"))
        continue
      }
      guard let text = String(data: data, encoding: .utf8) else {
        skipped.append(.init(path: file.path, reason: .notUTF8, notice: "\(file.path): not UTF-8 text; skipped"))
        continue
      }
      do {
        reports.append(try analyze(source: text, fileName: file.path, options: options))
      } catch {
        skipped.append(.init(path: file.path, reason: .tooLarge, notice: "\(file.path): \(error.message); skipped"))
      }
    }
    return PathAnalysis(
      reports: reports, skipped: skipped, ignoredCount: walk.ignoredCount,
      nonSwiftCount: walk.nonSwiftCount)
  }
}
