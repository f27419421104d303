import ContinuityKit
import Foundation
import KnowledgeEngine

enum AnalyzeCommands {
  static let all = [analyze]

  static let analyze = Command(
    spec: CommandSpec(
      path: ["analyze"], summary: "Heuristic, read-only review of Swift code (files or directories).",
      positionals: [("path", "A .swift file or a directory (walked recursively).")],
      options: [OptionSpec(name: "format", value: "F", help: "text (default), json or sarif (SARIF 2.1.0).")],
      variadic: true,
      discussion: """
        Rules: todo, force_try, force_unwrap, force_cast, long_line (> 120 characters), deep_nesting (> 5),
        repeated_line (≥ 3). Directory walks skip .build, hidden folders and whatever .gitignore excludes;
        files over \(Limits.codeAnalysisBytes) bytes are skipped with a notice. Nothing is executed, compiled
        or uploaded. Exit 0 whether or not findings exist.
        """),
    run: { ctx in
      let format = try ctx.choice("format", among: ["text", "json", "sarif"], default: ctx.json ? "json" : "text")
      if ctx.json, format == "text" {
        throw CLIError.usage("--json asks for JSON but --format is 'text'; give one of them")
      }
      for path in ctx.arguments.positionals { try Commands.requireExistingPath(path) }
      let paths = ctx.arguments.positionals
      let console = ctx.console
      let showProgress = console.isInteractive && format == "text"
      let result = CodeAnalyzer.analyze(paths: paths) { p in
        if showProgress, p.directories % 25 == 0 { console.printError("scanning: \(p.directories) directories, \(p.files) files…") }
      }
      for s in result.skipped { console.printError("dolphin: notice: \(s.notice)") }
      switch format {
      case "json":
        try console.printJSON(result)
      case "sarif":
        let sarif = try SARIFReport(reports: result.reports, notices: result.skipped.map(\.notice), toolVersion: DolphinCLI.version).jsonData(pretty: true)
        console.print(String(decoding: sarif, as: UTF8.self))
      default:
        console.print("Heuristic code analysis (read-only lexical checks; not a compiler): \(result.reports.count) file(s), \(result.totalFindings) finding(s)")
        for r in result.reports {
          for f in r.findings {
            console.print("\(inert(r.fileName)):\(f.line):\(f.column): \(f.rule.rawValue): \(inert(f.message))")
            if !f.snippet.isEmpty { console.print("    \(inert(f.snippet))") }
          }
          if r.truncated { console.print("\(inert(r.fileName)): findings cut at \(r.findings.count) of \(r.totalFindings)") }
        }
      }
    })
}
