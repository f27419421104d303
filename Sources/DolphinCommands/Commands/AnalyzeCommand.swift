import ContinuityKit
import Foundation
import KnowledgeEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum AnalyzeCommands {
  static let all = [analyze]

  static let analyze = Command(
    spec: CommandSpec(
      path: ["analyze"], summary: "Heuristic, read-only review of Swift code (files or directories).",
      positionals: [("path", "A .swift file or a directory (walked recursively).")],
      options: [OptionSpec(name: "format", value: "F", help: "text (default), json or sarif (SARIF 2.1.0).")],
      variadic: true,
      discussion: """
        Rules: todo (TODO/FIXME used as markers), force_try, force_unwrap, force_cast, long_line (> 120
        characters), deep_nesting (control flow nested > \(CodeAnalysisOptions.defaultNestingThreshold) deep; type, function and closure braces
        do not count), repeated_line (≥ 3, lines of \(CodeAnalyzer.repeatedLineMinimumTokens)+ tokens), empty_catch, hardcoded_secret.
        Not checked: \(CodeRule.notChecked).
        Directory walks skip .build, hidden folders and whatever .gitignore excludes
        (an ignore file over \(GitignoreMatcher.maximumIgnoreFileBytes) bytes or unreadable is not applied, with a notice);
        they skip files over \(Limits.codeAnalysisBytes) bytes, binary files (a NUL byte), files that are not UTF-8,
        .swift links to nothing or round a loop, .swift links to a file outside the directory given, and
        .swift FIFOs, sockets and devices (never opened), with a notice, and count the non-Swift files and
        the paths .gitignore leaves out. A file named explicitly is analyzed even when ignored; it must be
        a regular .swift file (else exit 2) of at most \(Limits.codeAnalysisBytes) bytes of UTF-8 text (else exit 4); a
        missing path exits 3, a symbolic link loop 4. A named .swift link to a file outside the folder
        holding it (as a glob like proj/*.swift names it) is skipped with a notice naming its target.
        When no file was analyzed, a line says why (No Swift file was analyzed: …).
        A file named two ways (or hard-linked) is analyzed once, under the first name given; each
        other name is skipped with a notice naming that one.
        Lines holding what looks like a hard-coded credential are never printed, by any finding.
        Names that are not UTF-8 are walked and analyzed too, shown with each such byte as \\xHH
        (sub\\xFE/x.swift; the exact bytes percent-encoded in JSON and SARIF).
        Nothing is executed, compiled or uploaded. Exit 0 whether or not findings exist.
        """,
      usesWorkspace: false),
    run: { ctx in
      let format = try ctx.choice("format", among: ["text", "json", "sarif"], default: ctx.json ? "json" : "text")
      if ctx.json, format == "text" {
        throw CLIError.usage("--json asks for JSON but --format is 'text'; give one of them")
      }
      let paths = ctx.arguments.positionals
      if paths.contains("") {
        throw CLIError.usage("analyze: a path is empty; name a .swift file or a directory (. for the current one)")
      }
      for path in paths { try requireAnalyzable(path) }
      let console = ctx.console
      let showProgress = console.isInteractive && format == "text"
      let result = CodeAnalyzer.analyze(paths: paths) { p in
        if showProgress, p.directories % 25 == 0 { console.printError("scanning: \(p.directories) directories, \(p.files) files…") }
      }
      // A file named explicitly that still could not be analyzed (unreadable, not UTF-8) is an
      // error too; only what a directory walk finds is skipped with a notice. A named link
      // leading out of its folder is skipped with a notice as well, not an error: a shell glob
      // (`proj/*.swift`) names it among the files the user meant (review 28-b, 2).
      // Nor is a second name of a file analyzed under its first (review 28-d, 9).
      if let s = result.skipped.first(where: {
        paths.contains($0.path) && $0.reason != .linkOutsideTree && $0.reason != .sameFile
      }) {
        let problem = s.notice.replacingOccurrences(of: "; skipped", with: "").replacingOccurrences(of: "skipped, ", with: "")
        throw s.reason == .notSwift ? CLIError.usage(shown(problem)) : CLIError.input(shown(problem))
      }
      for s in result.skipped { console.printDiagnostic("dolphin: notice: \(shown(s.notice))") }
      // An ignore file left unread widens the walk: said before the findings it lets in.
      for u in result.unappliedIgnoreFiles { console.printDiagnostic("dolphin: notice: \(shown(u.notice))") }
      switch format {
      case "json":
        try console.printJSON(result)
      case "sarif":
        let notices = result.unappliedIgnoreFiles.map(\.notice) + result.skipped.map(\.notice)
          + [ignoredNotice(result), nothingAnalyzedLine(result)].compactMap { $0 }
        let sarif = try SARIFReport(reports: result.reports, notices: notices, toolVersion: DolphinCLI.version).jsonData(pretty: true)
        // As JSON: DEL, C1 and bidi controls in a file name written as `\u` escapes.
        console.printJSONText(String(decoding: sarif, as: UTF8.self))
      default:
        // Other files in the directories are counted, not listed: a notice each would bury the rest.
        let others = result.nonSwiftCount > 0 ? "; \(result.nonSwiftCount) non-Swift file(s) left out" : ""
        // What the ignore rules left out, on the same line (review 23-a, 5: a `.gitignore` of
        // `*` gave "0 file(s), 0 finding(s)" and nothing said why).
        let ignored = result.ignoredCount > 0 ? "; \(ignoredClause(result.ignoredCount))" : ""
        console.print(
          "Heuristic code analysis (read-only lexical checks; not a compiler): \(result.reports.count) file(s), "
            + "\(result.totalFindings) finding(s)\(others)\(ignored)")
        if let line = nothingAnalyzedLine(result) { console.print(line) }
        // Which rules ran and what none of them looks at: a short report is not a clean bill.
        console.print(CodeRule.checkedLine(result.rulesChecked))
        console.print(CodeRule.notCheckedLine)
        for r in result.reports {
          for f in r.findings {
            console.print("\(shown(r.fileName)):\(f.line):\(f.column): \(f.rule.rawValue): \(inert(f.message))")
            if !f.snippet.isEmpty { console.print("    \(inert(f.snippet))") }
          }
          if r.truncated { console.print("\(shown(r.fileName)): findings cut at \(r.findings.count) of \(r.totalFindings)") }
        }
      }
    })

  /// `3 path(s) ignored by .gitignore rules` (`verb` false: `3 path(s)`): files and folders the
  /// ignore rules (`.gitignore`, `.git/info/exclude`) excluded from the walk, a folder counted
  /// once.
  static func ignoredClause(_ count: Int, verb: Bool = true) -> String {
    "\(count) path(s)" + (verb ? " ignored by .gitignore rules" : "")
  }

  /// The line a report that analyzed no file prints under its summary, and its SARIF
  /// notification: `No Swift file was analyzed: ` and why (``PathAnalysis/noFileAnalyzed``,
  /// which `--json` carries). Nil when some file was analyzed.
  static func nothingAnalyzedLine(_ result: PathAnalysis) -> String? {
    result.noFileAnalyzed.map { "No Swift file was analyzed: " + $0 }
  }

  /// SARIF's notification for what the ignore rules left out, as the text summary counts it;
  /// nil when they left out nothing.
  static func ignoredNotice(_ result: PathAnalysis) -> String? {
    result.ignoredCount > 0 ? "\(ignoredClause(result.ignoredCount)), not analyzed" : nil
  }

  /// A file name, or a notice naming one, as the text output and the notices print it: on one
  /// line, each line break, tab and other control character written as an escape
  /// (``Limits/escaped(_:)``: `x\nFAKE.swift`), so that a file name in a scanned repository cannot
  /// print what reads as a finding or a notice of its own, and each bidirectional control too
  /// (``TerminalText/escapingBidiControls(_:)``: `an/\u{202E}evil.swift`), so that it cannot
  /// reverse the rest of the line on the screen — the escapes source lines are shown with. JSON
  /// and SARIF keep the exact name, with those controls written as JSON `\u` escapes.
  static func shown(_ text: String) -> String { TerminalText.escapingBidiControls(Limits.escaped(text)) }

  /// Checks a path named on the command line: it must exist, and a file must be a `.swift`
  /// file within ``Limits/codeAnalysisBytes`` (a directory walk skips such files with a notice
  /// instead; a file the user named is an error).
  /// - Throws: ``CLIError/notFound(_:)`` or ``CLIError/input(_:)`` (a symbolic link loop) from
  ///   ``Commands/requireExistingPath(_:option:)``; ``CLIError/usage(_:)`` for a file that is not
  ///   `.swift` (or not a regular file); ``ValidationError`` naming the file, its size and the
  ///   limit.
  static func requireAnalyzable(_ path: String) throws {
    try Commands.requireExistingPath(path)
    // `stat` follows symbolic links and opens nothing: a FIFO is named, never read.
    var status = stat()
    guard stat(path, &status) == 0 else { return }  // Gone since: the walk reports it.
    switch status.st_mode & S_IFMT {
    case S_IFDIR: return
    case S_IFREG: break
    default:
      let what = FileKind.name(ofMode: status.st_mode)
      throw CLIError.usage(
        "\(shown(path)) is \(what), not a regular file or directory; `dolphin analyze` reads .swift files and directories of them")
    }
    guard path.hasSuffix(".swift") else {
      throw CLIError.usage("\(shown(path)) is not a .swift file; `dolphin analyze` reads .swift files and directories of them")
    }
    let size = Int(status.st_size)
    if size > Limits.codeAnalysisBytes {
      // `source`, as the library names the bound (Docs/CodeAnalysis.md); the message names the file.
      throw ValidationError(
        field: "source", limit: Limits.codeAnalysisBytes, actual: size,
        message: "\(shown(path)) is \(size) bytes, over the \(Limits.codeAnalysisBytes)-byte code analysis limit; "
          + "split it or analyze a smaller file")
    }
  }
}
