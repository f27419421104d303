import ContinuityKit
import Foundation

/// The result of analyzing files and directories.
public struct PathAnalysis: Sendable, Equatable, Codable {
  /// One report per analyzed file, sorted by path.
  public var reports: [CodeAnalysisReport]
  /// Files not analyzed (over the input bound, unreadable, not a regular file, binary, not
  /// UTF-8), with notices.
  public var skipped: [SourceWalker.Skipped]
  /// Files and folders the ignore rules (`.gitignore`, `.git/info/exclude`) excluded from the
  /// directory walks, a folder counted once (its contents are not walked). Hidden entries
  /// (`.build`, `.git`) are skipped without being counted.
  public var ignoredCount: Int
  /// Files found in the directories walked that are not `.swift` files, left out (see
  /// ``SourceWalker/Walk/nonSwiftCount``); 0 in a report written before they were counted.
  public var nonSwiftCount: Int
  /// Ignore files that exist but were not read (over the size bound, not a regular file,
  /// unreadable), with notices: the files they would exclude were analyzed. Empty in a report
  /// written before they were reported.
  public var unappliedIgnoreFiles: [GitignoreMatcher.UnappliedFile]
  /// Always `heuristic`.
  public var analysis: String { "heuristic" }
  /// The rules that ran, in ``CodeRule`` declaration order; all of them in a report written
  /// before they were listed.
  public var rulesChecked: [CodeRule]
  /// ``CodeRule/notChecked``: what no rule looks at.
  public var notChecked: String

  /// Total findings across reports.
  public var totalFindings: Int { reports.reduce(0) { $0 + $1.totalFindings } }

  /// Why no file was analyzed, when none was, so that an empty report does not read as a clean
  /// one (review 23-a, 5 for `.gitignore`; review 28-b, 5 for an empty folder, one of only
  /// non-Swift files, or one whose every `.swift` file was skipped): the paths skipped (each
  /// named in a notice, ``skipped``), the paths the ignore rules left out, or that no `.swift`
  /// file was found, e.g. `no .swift file was found in the path(s) given, only 2 non-Swift
  /// file(s)`; ending with a period. Nil when some file was analyzed. `dolphin analyze` prints it
  /// after `No Swift file was analyzed: ` (text), as a SARIF notification, and as
  /// `noFileAnalyzed` in `--json` (absent when nil; review 28-d, 8: only the text and SARIF said
  /// it). Nothing failed: the exit status stays 0.
  public var noFileAnalyzed: String? {
    guard reports.isEmpty else { return nil }
    var reasons: [String] = []
    if !skipped.isEmpty {
      reasons.append("\(skipped.count) path(s) skipped, each named in a notice with the reason")
    }
    if ignoredCount > 0 {
      reasons.append("the .gitignore rules left out \(ignoredCount) path(s) of what was found")
    }
    if reasons.isEmpty {
      let others = nonSwiftCount > 0 ? ", only \(nonSwiftCount) non-Swift file(s)" : ""
      reasons.append("no .swift file was found in the path(s) given\(others)")
    }
    let named = ignoredCount > 0 ? " A .swift file named on the command line is analyzed even when it is ignored." : ""
    return reasons.joined(separator: "; ") + "." + named
  }

  /// Makes a result.
  public init(
    reports: [CodeAnalysisReport], skipped: [SourceWalker.Skipped], ignoredCount: Int,
    nonSwiftCount: Int = 0, unappliedIgnoreFiles: [GitignoreMatcher.UnappliedFile] = [],
    rulesChecked: [CodeRule] = CodeRule.allCases
  ) {
    self.rulesChecked = rulesChecked
    self.notChecked = CodeRule.notChecked
    self.reports = reports
    self.skipped = skipped
    self.ignoredCount = ignoredCount
    self.nonSwiftCount = nonSwiftCount
    self.unappliedIgnoreFiles = unappliedIgnoreFiles
  }

  /// Decodes a result; `nonSwiftCount`, `unappliedIgnoreFiles`, `rulesChecked` and `notChecked`
  /// may be absent (reports written before they existed).
  /// - Throws: `DecodingError` for a missing required key or a value of the wrong type.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    reports = try c.decode([CodeAnalysisReport].self, forKey: .reports)
    skipped = try c.decode([SourceWalker.Skipped].self, forKey: .skipped)
    ignoredCount = try c.decode(Int.self, forKey: .ignoredCount)
    nonSwiftCount = try c.decodeIfPresent(Int.self, forKey: .nonSwiftCount) ?? 0
    unappliedIgnoreFiles =
      try c.decodeIfPresent([GitignoreMatcher.UnappliedFile].self, forKey: .unappliedIgnoreFiles) ?? []
    rulesChecked = try c.decodeIfPresent([CodeRule].self, forKey: .rulesChecked) ?? CodeRule.allCases
    notChecked = try c.decodeIfPresent(String.self, forKey: .notChecked) ?? CodeRule.notChecked
  }

  /// The keys of the JSON form: the stored properties, and ``noFileAnalyzed``, which is
  /// written (when not nil) but read from the rest.
  enum CodingKeys: String, CodingKey {
    case reports, skipped, ignoredCount, nonSwiftCount, unappliedIgnoreFiles, rulesChecked, notChecked, noFileAnalyzed
  }

  /// Encodes the result with ``noFileAnalyzed`` when no file was analyzed.
  /// - Throws: `EncodingError` from the encoder.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(reports, forKey: .reports)
    try c.encode(skipped, forKey: .skipped)
    try c.encode(ignoredCount, forKey: .ignoredCount)
    try c.encode(nonSwiftCount, forKey: .nonSwiftCount)
    try c.encode(unappliedIgnoreFiles, forKey: .unappliedIgnoreFiles)
    try c.encode(rulesChecked, forKey: .rulesChecked)
    try c.encode(notChecked, forKey: .notChecked)
    try c.encodeIfPresent(noFileAnalyzed, forKey: .noFileAnalyzed)
  }
}

extension CodeAnalyzer {
  /// Walks `paths` (files or directories of `.swift` files, honouring `.gitignore`; see
  /// ``SourceWalker``) and analyzes each file read-only. Nothing is executed, compiled or sent
  /// anywhere. The text of a credential found in one file is withheld from the findings of
  /// every file, as it is from its own (``SecretText``).
  /// - Parameter progress: called after each directory (for a progress line).
  public static func analyze(paths: [String], options: CodeAnalysisOptions = CodeAnalysisOptions(), progress: ((SourceWalker.Progress) -> Void)? = nil) -> PathAnalysis {
    let walk = SourceWalker().walk(paths, progress: progress)
    var reports: [CodeAnalysisReport] = []
    // The credentials found in any file are withheld from every file's findings (review 29-b, 4).
    var secretText = SecretText()
    var skipped = walk.skipped
    for file in walk.files {
      let text: String
      switch readSource(file) {
      case .success(let read): text = read
      case .failure(let refusal):
        skipped.append(
          .init(
            path: file.path, reason: refusal.reason, notice: "\(file.path): \(refusal.problem); skipped",
            pathPercentEncoded: file.pathPercentEncoded))
        continue
      }
      do {
        let (analyzed, found) = try analyzeCollectingSecrets(source: text, fileName: file.path, options: options)
        var report = analyzed
        report.fileNamePercentEncoded = file.pathPercentEncoded
        reports.append(report)
        secretText.formUnion(found)
      } catch {
        skipped.append(
          .init(
            path: file.path, reason: .tooLarge, notice: "\(file.path): \(error.message); skipped",
            pathPercentEncoded: file.pathPercentEncoded))
      }
    }
    reports = reports.map { withholding(secretText, from: $0) }
    return PathAnalysis(
      reports: reports, skipped: skipped, ignoredCount: walk.ignoredCount,
      nonSwiftCount: walk.nonSwiftCount, unappliedIgnoreFiles: walk.unappliedIgnoreFiles,
      rulesChecked: CodeRule.allCases.filter { options.rules.contains($0) })
  }

  /// Why a file the walk found was not read as source text.
  struct SourceRefusal: Error {
    var reason: SourceWalker.SkipReason
    /// What is wrong, without the path: `not text: it holds a NUL byte (at byte 12), …`.
    var problem: String
  }

  /// The text of the source file `file` (read by its path's bytes): a regular file (opened without blocking, so a FIFO
  /// swapped in after the walk cannot hang the analysis) of at most ``Limits/codeAnalysisBytes``
  /// bytes, holding no NUL byte (a binary file, as `dolphin capture` refuses such input) and
  /// valid UTF-8.
  static func readSource(_ file: SourceWalker.File) -> Result<String, SourceRefusal> {
    let read: BoundedInput.Result
    do {
      // By the bytes of its path, which need not be UTF-8 (a name the walk found).
      read = try BoundedInput.readFile(atPathBytes: file.systemPath, shownAs: file.path, maxBytes: Limits.codeAnalysisBytes)
    } catch {
      switch error {
      case .notRegularFile(_, let kind):
        return .failure(SourceRefusal(reason: .notRegularFile, problem: "\(kind), not a regular file"))
      case .tooLarge(_, let size, let maxBytes):
        return .failure(
          SourceRefusal(reason: .tooLarge, problem: "\(size) bytes is over the \(maxBytes)-byte code analysis limit"))
      default:
        return .failure(SourceRefusal(reason: .unreadable, problem: "cannot be read"))
      }
    }
    if read.truncated {
      return .failure(
        SourceRefusal(
          reason: .tooLarge, problem: "more than \(Limits.codeAnalysisBytes) bytes, over the code analysis limit"))
    }
    if UTF8Validation.startsWithUTF16ByteOrderMark(read.bytes) {
      // Named as UTF-16, as `import` names it, not taken for binary (review 21-a, 12).
      return .failure(
        SourceRefusal(
          reason: .notUTF8, problem: "saved as UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8 to analyze it"))
    }
    if let nul = read.bytes.firstIndex(of: 0) {
      return .failure(
        SourceRefusal(
          reason: .binary, problem: "not text: it holds a NUL byte (at byte \(nul)), so it is taken for a binary file"))
    }
    if let offset = UTF8Validation.firstInvalidByteOffset(in: read.bytes) {
      let hex = String(read.bytes[offset], radix: 16, uppercase: true)
      return .failure(
        SourceRefusal(
          reason: .notUTF8,
          problem: "not UTF-8 text (the byte 0x\(hex.count == 1 ? "0" + hex : hex) at byte offset \(offset) is not valid UTF-8)"))
    }
    return .success(String(decoding: read.bytes, as: UTF8.self))
  }
}
