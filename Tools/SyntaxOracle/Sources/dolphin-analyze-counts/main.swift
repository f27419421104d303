// Counts force unwraps, `try!` and `as!` with Dolphin's heuristic analyzer, in the same format
// as `syntax-oracle`. Uses the tooling entry point without the 200,000-byte input bound because
// some toolchain interface files are larger.
@_spi(Tooling) import KnowledgeEngine
import OracleSupport

let options = CodeAnalysisOptions(rules: [.forceUnwrap, .forceTry, .forceCast])
CountsCommand().run { path, source in
  let report = CodeAnalyzer.analyzeWithoutBounds(source: source, fileName: path, options: options)
  return report.findings.map { ($0.rule.rawValue, $0.line) }
}
