import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer

/// The entry points of the libFuzzer targets in `Fuzz/` (test tooling, not product API).
///
/// Each function takes one fuzzer input, drives one parser or algorithm with it, and returns the
/// violated properties (empty when every property held). The fuzz executables turn a violation
/// into a crash so libFuzzer saves the input; the regression suite replays the saved corpus
/// through the same functions and expects no violation. A crash inside the code under test is a
/// crash in both.
public enum FuzzEntries {
  /// Every target, by the name used for `Fuzz/Corpus/<name>/` and the `fuzz-<name>` executable.
  public static let targets: [String: @Sendable ([UInt8]) -> [String]] = [
    "legacy-import": legacyImport,
    "export-import": exportImport,
    "sanitizer": sanitizer,
    "ranker": ranker,
    "code-analysis": codeAnalysis,
    "jsonrpc": jsonRPC,
  ]

  /// The legacy v1–v4 importer: any bytes decode or fail with a ``LegacyImportError``, and the
  /// same bytes always give the same result (the importer is documented as pure).
  /// - Parameter input: candidate `workspace.json` bytes.
  /// - Returns: violated properties.
  @Sendable public static func legacyImport(_ input: [UInt8]) -> [String] {
    let data = Data(input)
    let first = Result { () throws(LegacyImportError) in try LegacyWorkspaceImporter.decode(data, fileName: "fuzz.json") }
    let second = Result { () throws(LegacyImportError) in try LegacyWorkspaceImporter.decode(data, fileName: "fuzz.json") }
    switch (first, second) {
    case (.success(let a), .success(let b)):
      return a.workspace == b.workspace && a.quarantined == b.quarantined ? [] : ["decoding the same bytes twice differed"]
    case (.failure(let a), .failure(let b)):
      return a == b ? [] : ["decoding the same bytes twice failed differently"]
    default:
      return ["decoding the same bytes twice succeeded once and failed once"]
    }
  }

  /// Our JSON export: decode and validate; a document that decodes is planned and imported into
  /// a fresh in-memory workspace, which must then pass its reference and search-index checks.
  /// - Parameter input: candidate `dolphin-export` bytes.
  /// - Returns: violated properties.
  @Sendable public static func exportImport(_ input: [UInt8]) -> [String] {
    guard let document = try? WorkspaceExport.decode(Data(input), fileName: "fuzz.json") else { return [] }
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    guard (try? engine.planImport(document, source: "fuzz.json")) != nil else { return [] }
    guard (try? engine.applyImport(document, source: "fuzz.json")) != nil else { return [] }
    var problems: [String] = []
    do {
      problems += try engine.verifySearchIndex().map { "after import: \($0)" }
      problems += try engine.status().integrityProblems.map { "after import: \($0)" }
    } catch {
      problems.append("after import the workspace cannot be read: \(error)")
    }
    return problems
  }

  /// The sanitizer: its output holds no live role or tool delimiter, and sanitizing twice gives
  /// the same text as once.
  /// - Parameter input: any bytes, read as UTF-8 (invalid sequences become U+FFFD).
  /// - Returns: violated properties.
  @Sendable public static func sanitizer(_ input: [UInt8]) -> [String] {
    let text = String(decoding: input, as: UTF8.self)
    let once = Sanitizer.sanitize(text)
    var problems: [String] = []
    if Sanitizer.containsLiveDelimiter(once) { problems.append("sanitized text still holds a live delimiter") }
    if Sanitizer.sanitize(once) != once { problems.append("sanitizing is not idempotent") }
    return problems
  }

  /// The tokenizer and the hybrid-lexical ranker: the input's lines are documents (at most 16)
  /// and its first line is also the query. Results are bounded, name indexed documents only,
  /// and the same search twice gives the same order.
  /// - Parameter input: any bytes, read as UTF-8.
  /// - Returns: violated properties.
  @Sendable public static func ranker(_ input: [UInt8]) -> [String] {
    let text = String(decoding: input, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(16).map(String.init)
    var index = InMemoryLexicalIndex()
    var ids: Set<UUID> = []
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    for (n, line) in lines.enumerated() {
      let id = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(n)))
      let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
      let kind = KnowledgeKind.allCases[n % KnowledgeKind.allCases.count]
      index.add(
        IndexedDocument(
          id: id, kind: n % 5 == 4 ? .memory : .knowledge(kind), title: parts[0],
          tags: parts.count > 2 ? parts[1].split(separator: ",").map(String.init) : [],
          content: parts.last ?? "", updatedAt: start.addingTimeInterval(Double(n))))
      ids.insert(id)
    }
    let query = String((lines.first ?? "").prefix(Limits.query))
    let ranker = HybridLexicalRanker()
    guard let first = try? ranker.search(query, in: index, limit: 10) else { return [] }
    var problems: [String] = []
    if first.results.count > 10 { problems.append("\(first.results.count) results for a limit of 10") }
    if first.results.contains(where: { !ids.contains($0.id) }) { problems.append("a result is not an indexed document") }
    if Set(first.results.map(\.id)).count != first.results.count { problems.append("a document is ranked twice") }
    if (try? ranker.search(query, in: index, limit: 10)) != first { problems.append("the same search twice differed") }
    return problems
  }

  /// The code-analysis lexer and analyzer: bounded findings, each on a line of the input, and
  /// the same source always gives the same report.
  /// - Parameter input: any bytes, read as UTF-8 Swift source.
  /// - Returns: violated properties.
  @Sendable public static func codeAnalysis(_ input: [UInt8]) -> [String] {
    let source = String(decoding: input, as: UTF8.self)
    _ = SwiftLexer.lex(source)
    guard let report = try? CodeAnalyzer.analyze(source: source, fileName: "Fuzz.swift") else { return [] }
    var problems: [String] = []
    if report.findings.count > Limits.codeAnalysisFindings { problems.append("\(report.findings.count) findings, over the bound") }
    let lineCount = max(1, report.lineCount)
    if report.findings.contains(where: { $0.line < 1 || $0.line > lineCount }) { problems.append("a finding is on a line outside the source") }
    if (try? CodeAnalyzer.analyze(source: source, fileName: "Fuzz.swift")) != report { problems.append("analyzing the same source twice differed") }
    return problems
  }

  /// JSON-RPC framing: the input is split into lines by ``LineFramer`` (in chunks, as a pipe
  /// delivers it) and each line decoded. A decoded message serializes to one line without a raw
  /// newline, which decodes to a message that serializes the same way.
  /// - Parameter input: any bytes, as they would arrive on stdin.
  /// - Returns: violated properties.
  @Sendable public static func jsonRPC(_ input: [UInt8]) -> [String] {
    var framer = LineFramer(maximumLineBytes: 64 * 1024)
    var frames: [TransportFrame] = []
    var offset = 0
    var chunk = 1
    while offset < input.count {
      let end = min(input.count, offset + chunk)
      frames += framer.append(input[offset..<end])
      offset = end
      chunk = chunk * 3 % 97 + 1
    }
    if let last = framer.finish() { frames.append(last) }
    var problems: [String] = []
    for case .message(let line) in frames {
      switch JSONRPCMessage.decode(line) {
      case .message(let message):
        let bytes = message.serialized()
        if bytes.contains(0x0A) { problems.append("a serialized message contains a raw newline") }
        guard case .message(let again) = JSONRPCMessage.decode(bytes) else {
          problems.append("a serialized message does not decode again")
          continue
        }
        if again.serialized() != bytes { problems.append("serialize → decode → serialize changed the message") }
      case .rejected(let response):
        if JSONRPCMessage.response(response).serialized().contains(0x0A) {
          problems.append("an error response contains a raw newline")
        }
      case .ignored, .malformedResponse, .batch:
        break
      }
    }
    return problems
  }
}
