import Foundation

/// Read-only heuristic review of Swift source: TODO/FIXME markers in comments, `try!`, force
/// unwraps, `as!`, long lines, deeply nested control flow, repeated lines, empty `catch` blocks
/// and credentials hard-coded in string literals (the rules of ``CodeRule``).
///
/// The analysis is lexical (``SwiftLexer`` plus a light token-context scanner), not a
/// compiler's: it is labeled `heuristic` in every report. It never executes, compiles or uploads
/// its input. Rules, thresholds and known limits are listed in `Docs/CodeAnalysis.md`.
public enum CodeAnalyzer {
  /// Analyzes one Swift source text.
  ///
  /// - Parameters:
  ///   - source: the Swift source, at most ``Limits/codeAnalysisBytes`` (200,000) UTF-8 bytes.
  ///   - fileName: a name for the report and its findings (a path, relative when possible).
  ///   - options: rules and thresholds; defaults are documented on ``CodeAnalysisOptions``.
  /// - Returns: a report whose findings are ordered by line, column (`Character`s), rule id,
  ///   bounded by `options.maximumFindings` (≤ ``Limits/codeAnalysisFindings``), with
  ///   ``CodeAnalysisReport/truncated`` set when some were left out.
  /// - Throws: ``ValidationError`` with field `source`, the limit and the actual size in UTF-8
  ///   bytes, when `source` is over ``Limits/codeAnalysisBytes``.
  /// - Complexity: O(n) in the byte count, plus O(f log f) to order f findings.
  public static func analyze(
    source: String, fileName: String, options: CodeAnalysisOptions = CodeAnalysisOptions()
  ) throws(ValidationError) -> CodeAnalysisReport {
    try analyzeCollectingSecrets(source: source, fileName: fileName, options: options).report
  }

  /// ``analyze(source:fileName:options:)``, and the text of the credentials found
  /// (``SecretText``), which ``analyze(paths:options:progress:)`` withholds from the findings of
  /// the other files it analyzes too.
  /// - Throws: as ``analyze(source:fileName:options:)``.
  static func analyzeCollectingSecrets(
    source: String, fileName: String, options: CodeAnalysisOptions
  ) throws(ValidationError) -> (report: CodeAnalysisReport, secretText: SecretText) {
    let size = source.utf8.count
    if size > Limits.codeAnalysisBytes {
      throw ValidationError(
        field: "source", limit: Limits.codeAnalysisBytes, actual: size,
        message: "source of \(fileName) is \(size) UTF-8 bytes; the limit is "
          + "\(Limits.codeAnalysisBytes) UTF-8 bytes. Analyze a smaller file or split it.")
    }
    return run(source: source, fileName: fileName, options: options, findingsCap: options.maximumFindings)
  }

  /// The analysis without the input bound and without the findings cap, for tooling only: the
  /// differential check against SwiftParser and the throughput benchmark run it over the
  /// toolchain's own interface files, some of which exceed 200,000 bytes, and need every
  /// finding's line. The product calls ``analyze(source:fileName:options:)``.
  ///
  /// - Complexity: O(n) in the byte count, plus O(f log f) for f findings. Memory grows with
  ///   the input: about 2 bytes per source byte plus the tokens.
  @_spi(Tooling)
  public static func analyzeWithoutBounds(
    source: String, fileName: String, options: CodeAnalysisOptions = CodeAnalysisOptions()
  ) -> CodeAnalysisReport {
    run(source: source, fileName: fileName, options: options, findingsCap: Int.max).report
  }

  /// The analysis of one source text, and the text of the credentials found in it
  /// (``SecretText``), which ``analyze(paths:options:progress:)`` withholds from the other files'
  /// findings too.
  static func run(
    source: String, fileName: String, options: CodeAnalysisOptions, findingsCap: Int
  ) -> (report: CodeAnalysisReport, secretText: SecretText) {
    // A UTF-8 byte-order mark is not source: swiftc and editors skip it, so columns on line 1
    // and snippets are counted from after it.
    var bytes = Array(source.utf8)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    let classified = SwiftLexer.classify(bytes)
    let tokens = SwiftTokenizer.tokenize(classified)
    var raw: [RawFinding] = []
    let rules = options.rules
    if rules.contains(.forceTry) || rules.contains(.forceUnwrap) || rules.contains(.forceCast) {
      let hits = ForcedOperationScanner.scan(classified, tokens: tokens)
      for hit in hits where rules.contains(hit.rule) {
        raw.append(RawFinding(rule: hit.rule, offset: hit.offset))
      }
    }
    let block = blockFindings(tokens, classified, options: options)
    // Credentials are looked for even when `hardcoded_secret` is not among the rules: their
    // lines are withheld from every finding either way (review 28-b, 1).
    let withheld = withheldLines(block.compactMap(\.secret), tokens, classified)
    raw += block.filter { $0.rule != .hardcodedSecret || rules.contains(.hardcodedSecret) }
    raw += lineFindings(classified, options: options)
    let report = makeReport(
      raw, classified, fileName: fileName, options: options, findingsCap: findingsCap,
      byteCount: source.utf8.count, withheldLines: withheld.lines)
    return (report, withheld.text)
  }

  /// `report` with the snippet and excerpt of each finding that would print any of `secretText`
  /// withheld, as a finding on a credential's line is (``withheldLineNote`` added to its
  /// message): for the text of credentials found in another file analyzed in the same run
  /// (review 29-b, 4: a key block's line repeated in a second file was printed there).
  /// - Complexity: O(f · c) for f findings of at most c bytes printed each.
  static func withholding(_ secretText: SecretText, from report: CodeAnalysisReport) -> CodeAnalysisReport {
    guard !secretText.isEmpty else { return report }
    var report = report
    for i in report.findings.indices {
      let finding = report.findings[i]
      guard secretText.occurs(in: finding.snippet) || secretText.occurs(in: finding.excerpt) else { continue }
      report.findings[i].snippet = ""
      report.findings[i].excerpt = ""
      if !finding.message.hasSuffix("(\(withheldLineNote))") { report.findings[i].message += " (\(withheldLineNote))" }
    }
    return report
  }

  /// What a finding adds to its message when its line is withheld because it holds what looks
  /// like a hard-coded credential: the snippet and excerpt are then empty, and this says why.
  public static let withheldLineNote = "line not shown: it holds what looks like a hard-coded credential"

  /// A finding before columns and snippets are computed: only the listed ones pay for that.
  struct RawFinding {
    var rule: CodeRule
    /// Byte offset of the finding in the source.
    var offset: Int
    var message: String? = nil
    var occurrences: Int? = nil
    var relatedLines: [Int]? = nil
    /// For `hardcoded_secret`: where the credential is.
    var secret: Secret? = nil

    /// Where a `hardcoded_secret` hit's credential is, so that no finding prints it.
    struct Secret {
      /// The 0-based lines from the credential-like name to the end of its literal.
      var lines: ClosedRange<Int>
      /// The byte range of the literal (its first piece), delimiters included.
      var literal: Range<Int>
      /// The byte ranges of the secret's text, which no finding may print wherever it stands
      /// (``SecretText``): a one-line literal without its delimiters, or each line of text of a
      /// multi-line literal, blanks around it left out.
      var texts: [Range<Int>]
    }
  }

  static func makeReport(
    _ raw: [RawFinding], _ classified: ClassifiedSource, fileName: String,
    options: CodeAnalysisOptions, findingsCap: Int, byteCount: Int, withheldLines: Set<Int> = []
  ) -> CodeAnalysisReport {
    let ordered = raw.sorted {
      if $0.offset != $1.offset { return $0.offset < $1.offset }
      return $0.rule < $1.rule
    }
    let listed = ordered.prefix(findingsCap)
    let findings = listed.map { makeFinding($0, classified, withheldLines: withheldLines) }
    let counts = CodeRule.allCases.sorted().filter { options.rules.contains($0) }.map { rule in
      CodeAnalysisReport.RuleCount(rule: rule, count: raw.count { $0.rule == rule })
    }
    return CodeAnalysisReport(
      fileName: fileName, byteCount: byteCount, lineCount: classified.lineCount,
      options: options, findings: findings, totalFindings: raw.count,
      truncated: raw.count > listed.count, counts: counts)
  }

  /// The finding for `raw`, its snippet and excerpt taken from its line unless that line is
  /// withheld: a `hardcoded_secret` finding's own line and any line in `withheldLines` (which
  /// holds every copy of a secret's literal, so a `repeated_line` of a secret line is withheld
  /// at whichever occurrence it is reported).
  static func makeFinding(
    _ raw: RawFinding, _ classified: ClassifiedSource, withheldLines: Set<Int> = []
  ) -> CodeFinding {
    let lineIndex = classified.lineIndex(ofByte: raw.offset)
    let range = classified.lineRange(lineIndex)
    let prefix = classified.text(range.lowerBound..<min(raw.offset, range.upperBound))
    var trimmed = range
    while let first = trimmed.first, isBlank(classified.bytes[first]) {
      trimmed = trimmed.dropFirst()
    }
    while let last = trimmed.last, isBlank(classified.bytes[last]) {
      trimmed = trimmed.dropLast()
    }
    // A line holding what looks like a credential is not copied into the report, which may be
    // printed, shared or handed to an agent: its snippet and excerpt stay empty (not known).
    // That holds for every finding on such a line, not only the secret's own (review 28-b, 1),
    // and the others say why their line is missing.
    var message = raw.message ?? defaultMessage(raw.rule)
    var withheld = raw.rule == .hardcodedSecret
    // The lines of a secret and of its value (``withheldLines(_:_:_:)``), and any line the
    // credential detector flags on its own (review 28-d, 1: a token in `print("Bearer …")`).
    if !withheld,
      withheldLines.contains(lineIndex) || CredentialDetector.firstFinding(in: classified.text(trimmed)) != nil
    {
      withheld = true
      message += " (\(withheldLineNote))"
    }
    let text = withheld ? "" : classified.text(trimmed)
    // Untrimmed and cut without a marker, so that it is exactly the source at its columns.
    let fromColumn =
      withheld ? "" : classified.text(min(raw.offset, range.upperBound)..<range.upperBound)
    return CodeFinding(
      rule: raw.rule, line: lineIndex + 1, column: prefix.count + 1,
      utf16Column: prefix.utf16.count + 1, message: message,
      snippet: Truncation.truncate(text, to: CodeFinding.snippetLimit),
      excerpt: String(fromColumn.prefix(CodeFinding.snippetLimit)),
      occurrences: raw.occurrences, relatedLines: raw.relatedLines)
  }

  static func isBlank(_ b: UInt8) -> Bool { b == ASCII.space || b == ASCII.tab }

  static func defaultMessage(_ rule: CodeRule) -> String {
    switch rule {
    case .todo: "TODO/FIXME marker in a comment"
    case .forceTry: "try! crashes if the call throws; handle the error or use try?"
    case .forceUnwrap: "Force unwrap crashes on nil; unwrap with if let, guard let or ??"
    case .forceCast: "as! crashes if the cast fails; use as? and handle nil"
    case .longLine: "Line is too long"
    case .deepNesting: "Control flow nested too deep"
    case .repeatedLine: "Line repeated"
    case .emptyCatch: "Empty catch block: the error is dropped without a word; handle it, log it, or say why in a comment"
    case .hardcodedSecret: "Looks like a hard-coded credential; load it at run time instead"
    }
  }
}
