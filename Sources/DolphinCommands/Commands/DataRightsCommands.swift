import ContinuityKit
import Foundation
import KnowledgeEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `export`, `import`, `erase` and `activity clear`: the user's data rights over the workspace.
enum DataRightsCommands {
  static let all = [export, importCommand, erase, activityClear]

  static let export = Command(
    spec: CommandSpec(
      path: ["export"], summary: "Export everything in the workspace (JSON, lossless; or Markdown, for reading).",
      options: [
        OptionSpec(name: "format", value: "F", help: "json (default; what `dolphin import` reads) or markdown."),
        OptionSpec(name: "output", value: "PATH", help: "Write to this file (mode 0600, atomically) instead of stdout; - means stdout."),
        OptionSpec(
          name: "force", value: nil,
          help: "Replace an existing regular --output file (never a symbolic link, device, FIFO or socket)."),
      ],
      discussion: """
        The JSON document is described in Docs/ExportFormat.md: knowledge, memories, tasks, handoffs,
        digests, conversations and messages, activity receipts, run checkpoints, settings, the active
        handoff and the quarantine. With --output the file is written to a temporary file in the same
        directory, flushed and renamed into place: it is never half-written, and an existing file is
        kept unless --force is given. Only a regular file is ever replaced: a symbolic link, a device,
        a FIFO or a socket named by --output is refused, with or without --force (use --output -, or
        leave --output out, to write to standard output). A supersede cycle stored before cycles were refused is exported
        as stored, with a warning on stderr: `dolphin import` refuses such a file until one of the
        cycle's supersedes relationships is removed from it.

        A stored record that cannot be decoded (malformed JSON, an unknown name, an id or date that does
        not parse: written by another program, e.g. the sqlite3 shell) does not stop the export: every
        readable record is exported as usual, and each unreadable one is carried as stored in the
        document's `unreadable` section (table, collection, id, reason, and every column's stored text by
        name). The export is then written all the same, stderr names those records, and the exit code is
        6 (`unreadable` in --json); `dolphin doctor` names them with a repair, and `dolphin import` keeps
        them aside in the quarantine, never as records. Exit 5 means nothing was written.
        """),
    run: { ctx in
      let format = try ctx.choice("format", among: ["json", "markdown"], default: "json")
      let outputArgument = ctx.arguments.value("output")
      if outputArgument?.isEmpty == true {
        throw CLIError.invalidValue("--output needs a file path (it was given an empty string)", field: "output")
      }
      // `-` is stdout, as `import -` reads stdin: never a file named `-`. Made absolute as text,
      // never standardized: `link/../x.json` is where the kernel puts it (review, s15).
      let output = outputArgument.flatMap { argument in
        argument == "-"
          ? nil
          : URL(fileURLWithPath: argument.hasPrefix("/") ? argument : FileManager.default.currentDirectoryPath + "/" + argument)
      }
      if let outputArgument, output != nil, [".", ".."].contains((outputArgument as NSString).lastPathComponent) {
        throw CLIError.input(
          "--output \(shownValue(outputArgument)) names a directory (it ends in `\((outputArgument as NSString).lastPathComponent)`); "
            + "nothing was written (give --output a file path)")
      }
      if ctx.json, output == nil, format != "json" {
        throw CLIError.usage("--json prints one JSON document; give --output for a Markdown export")
      }
      // Never inside the workspace being exported: --force could replace its database.
      if let output, Commands.isWithin(output, directory: ctx.workspaceDirectory) {
        throw CLIError.usage(
          "--output \(shownValue(output.path)) is inside the workspace being exported (\(ctx.workspaceDirectory.path)); "
            + "write the export outside it")
      }
      var isDirectory: ObjCBool = false
      let exists = output.map { FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory) } ?? false
      // A trailing slash names a directory: never write to the path without it.
      if let outputArgument, let output, outputArgument.hasSuffix("/") {
        if !exists {
          throw CLIError.notFound(
            "--output: the directory \(shownValue(outputArgument)) does not exist; nothing was written (give --output a file path)")
        }
        if !isDirectory.boolValue {
          throw CLIError.input(
            "--output \(shownValue(outputArgument)): \(shownValue(output.path)) is not a directory; nothing was written "
              + "(drop the trailing slash to name the file)")
        }
      }
      if let output, exists, isDirectory.boolValue {
        // A link to a directory is named as one (review 18-d: it was called a directory).
        var st = stat()
        let isLink = lstat(output.path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
        throw CLIError.input(
          "--output \(shownValue(output.path)) is \(isLink ? "a symbolic link to a directory" : "a directory"); "
            + "nothing was written (give --output a file path)")
      }
      if let output { try requireReplaceableOutput(output, force: ctx.arguments.has("force")) }
      // A directory named on the command line that does not exist is "not found" (exit 3), not a
      // storage failure; one that exists but refuses the file is still reported by the write.
      // A file where a directory should be (`afile/x.json`) is a mistake in the path (exit 4).
      // The directory is checked as a workspace path is, and the file written in it as resolved
      // then: not through another user's link, nor in a directory others may rename entries of
      // (reviews, s14 and s15).
      var destination = output
      if let outputArgument, let output {
        let parent = (output.path as NSString).deletingLastPathComponent
        // A link loop, or a link to nothing, on the way cannot be fixed by creating a directory.
        try Commands.requireNoSymbolicLinkInTheWay(of: parent, option: "--output", consequence: "nothing was written")
        switch WorkspaceTrust.verifyOutputDirectory(parent, option: "--output") {
        case .directory(let directory):
          destination = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(output.lastPathComponent)
        case .missing(let missing):
          throw CLIError.notFound(
            "--output: the directory \(shownValue(parent)) does not exist; nothing was written (create it first"
              + (missing == parent ? "" : ", with \(shownValue(missing)) on the way") + ")")
        case .notADirectory(let path):
          throw CLIError.input(
            "--output \(shownValue(outputArgument)): \(shownValue(path)) is not a directory; nothing was written "
              + "(give --output a path in a directory)")
        case .refused(let refusal): throw CLIError.input(refusal.message)
        }
      }
      let document = try ctx.engine(.read).exportWorkspace(generator: "dolphin \(DolphinCLI.version)")
      let data = format == "json" ? try document.jsonData() : Data(MarkdownExport.render(document).utf8)
      // A supersede cycle from older data is exported as stored (nothing is lost), but the
      // file would be refused by `dolphin import`: say so once it is written, with the fix.
      // Likewise text holding a NUL, or a tag holding a control character, that another program
      // wrote: kept as stored, refused by an import that writes the record (review, s14). And
      // a record breaking another of import's rules (an `updatedAt` before its `createdAt`,
      // receipt arguments that are not JSON, …), found by import's own checks (s15).
      // The refused values are found once, for their own warning and for the import checks.
      let refusedText = format == "json" ? document.refusedTextFields : []
      // Review 29-a, 8: records that cannot be decoded are carried as stored; said, exit 6.
      let unreadable = document.unreadableRecords
      let unreadableWarning = WorkspaceExport.unreadableSummary(unreadable).map { summary in
        summary + "; they are written as stored in the export's `unreadable` section (every column's text, by name), "
          + "not as records, and every other record is exported as usual. `\(command: "dolphin doctor")` names them with a "
          + "repair; `dolphin import` keeps them aside in the quarantine"
      }
      let unreadableFailure = unreadableWarning.map { _ in
        ReportedFailure(
          code: ExitCode.partial,
          message: "the export was written, but \(unreadable.count) stored record(s) could not be decoded (see the warning)")
      }
      let warnings =
        (unreadableWarning.map { [$0] } ?? [])
        + (format == "json"
          ? document.supersedeCycleWarnings(file: output?.path)
            + [
              WorkspaceExport.refusedTextWarning(for: refusedText),
              KnowledgeEngine.importRefusalWarning(
                KnowledgeEngine.importRefusals(of: document, refusedText: refusedText)),
            ]
            .compactMap { $0 }
          : [])
      guard let output else {
        let text = String(decoding: data, as: UTF8.self)
        if format == "json" { ctx.console.printJSONText(text) } else { ctx.console.print(text) }
        for w in warnings { ctx.console.printDiagnostic("dolphin: warning: \(w)") }
        if let failure = unreadableFailure { throw failure }
        return
      }
      try SecureFile.writeAtomically(data, to: destination ?? output, overwrite: ctx.arguments.has("force"))
      for w in warnings { ctx.console.printDiagnostic("dolphin: warning: \(w)") }
      let ws = document.workspace
      let counts: [(String, Int)] = [
        ("knowledge", ws.knowledge.count), ("memories", ws.memories.count), ("tasks", ws.tasks.count),
        ("handoffs", ws.handoffs.count), ("digests", ws.digests.count), ("conversations", ws.conversations.count),
        ("messages", ws.messages.count), ("receipts", ws.receipts.count), ("checkpoints", ws.checkpoints.count),
        ("quarantined", document.quarantine.count),
      ]
      if ctx.json {
        /// A record the export could not decode, as `--json` names it.
        struct Unreadable: Encodable {
          var table: String
          var id: String
          var reason: String
        }
        struct Out: Encodable {
          var path: String
          var format: String
          var bytes: Int
          var counts: [String: Int]
          /// Records written as stored in the document's `unreadable` section (exit 6); empty when none.
          var unreadable: [Unreadable]
        }
        try ctx.console.printJSON(
          Out(
            path: output.path, format: format, bytes: data.count, counts: Dictionary(uniqueKeysWithValues: counts),
            unreadable: unreadable.map { Unreadable(table: $0.table, id: $0.id, reason: $0.reason) }),
          failure: unreadableFailure)
      } else {
        ctx.console.print("Exported to \(output.path) (\(format), \(data.count) bytes, mode 0600):")
        ctx.console.print(
          "  " + counts.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
            + (unreadable.isEmpty ? "" : "; \(unreadable.count) unreadable record(s) written as stored"))
      }
      if let failure = unreadableFailure { throw failure }
    })

  /// Refuses an existing `--output` that export may not replace (review 18-c, C1): the file is
  /// renamed into place, which swaps out whatever directory entry is there, so only a regular
  /// file is replaced, and only with `--force`. A symbolic link (even a dangling one, even to a
  /// regular file) is neither replaced nor written through: the user names the file itself. A
  /// device, FIFO or socket is never replaced; stdout is `--output -`. The advice to pass
  /// `--force` is given only where `--force` would replace a regular file.
  /// - Throws: ``CLIError/input(_:)`` naming the path and what it is.
  static func requireReplaceableOutput(_ output: URL, force: Bool) throws {
    var status = stat()
    guard lstat(output.path, &status) == 0 else { return }
    let shown = shownValue(output.path)
    let stdoutAdvice = "to write to standard output, give --output - or leave --output out"
    if status.st_mode & S_IFMT == S_IFLNK {
      var target = stat()
      guard stat(output.path, &target) == 0 else {
        throw CLIError.input(
          "--output \(shown) is a symbolic link to nothing (a dangling link); nothing was written. Export never "
            + "replaces a symbolic link or writes through one, even with --force: remove the link, or name another file")
      }
      // `/dev/stdout` redirected to a file resolves to that file: the user meant stdout.
      let namesStandardStream = output.path.hasPrefix("/dev/") || output.path.hasPrefix("/proc/")
      if FileKind.isRegular(target.st_mode), !namesStandardStream, let resolved = realpath(output.path, nil) {
        defer { free(resolved) }
        let file = shownValue(String(cString: resolved))
        throw CLIError.input(
          "--output \(shown) is a symbolic link to the regular file \(file); nothing was written. Export never "
            + "replaces a symbolic link or writes through one: to replace that file, name it (--output \(file) --force)")
      }
      throw CLIError.input(
        "--output \(shown) is a symbolic link to \(FileKind.name(ofMode: target.st_mode)); nothing was written. "
          + "Export never replaces a symbolic link or writes through one, even with --force; \(stdoutAdvice)")
    }
    if !FileKind.isRegular(status.st_mode) {
      throw CLIError.input(
        "--output \(shown) is \(FileKind.name(ofMode: status.st_mode)), not a regular file; nothing was written. "
          + "Export writes a new regular file and replaces only a regular file, even with --force; \(stdoutAdvice)")
    }
    if !force {
      throw CLIError.input("--output \(shown) already exists; nothing was written (pass --force to replace it)")
    }
  }

  static let importCommand = Command(
    spec: CommandSpec(
      path: ["import"], summary: "Import a `dolphin export` JSON file (previewed; one transaction).",
      positionals: [("file", "The export file; '-' reads stdin.")],
      options: [
        OptionSpec(name: "dry-run", value: nil, help: "Print the plan and change nothing."),
        OptionSpec(
          name: "on-conflict", value: "POLICY",
          help: "refuse (default), skip (keep this workspace's versions) or replace (take the file's)."),
      ],
      confirms: true,
      discussion: """
        A record whose id is not in the workspace is added; one with the same id and the same content is
        left alone; one with the same id and different content is a conflict: by default nothing is
        imported (exit 4, the conflicting ids listed) unless --on-conflict skip or replace says what to
        do. The plan (new / same / conflicting per collection) is printed before anything is written.
        When --on-conflict replace would overwrite stored records or settings, the import asks on a
        terminal first (or takes --yes; without a terminal, --yes is needed), as erase and delete do;
        with `import -` standard input holds the document, so no answer can be read and --yes is needed.
        Into an empty workspace the import is a lossless restore of everything dolphin stores; only what
        capture never stores is normalized: blank handoff next steps are dropped (the plan counts them),
        an id listed twice in a task's or handoff's ids, or a relationship listed twice, is kept once at
        its first place (the plan counts them; the bound of \(Limits.idsPerList) ids counts distinct ones),
        an empty handoff summary is built by rules, receipt arguments that are not a JSON object are
        wrapped, a receipt's finishedAt before its startedAt is set to startedAt, and dates are kept to
        milliseconds. Text that looks like a credential is imported and flagged in `dolphin status`,
        never dropped.
        """),
    run: { ctx in
      let path = ctx.arguments.positionals[0]
      guard !path.isEmpty else {
        throw CLIError.usage("import: the file path is empty; name an export file, or - to read standard input")
      }
      let policy = try ctx.parseEnum(ImportConflictPolicy.self, ctx.arguments.value("on-conflict") ?? "refuse", name: "--on-conflict")
      // Every error names the document the same way — reading, decoding, validating, conflicts:
      // the path as given (`exp/e.json`, `/dev/null`, not `e.json` or `null`), or `stdin`.
      let source = path == "-" ? "stdin" : path
      let data: Data
      if path == "-" {
        ctx.standardInputHolds = "the document (`import -`)"
        data = try TextInput.readDocument(.standardInput, field: "import document", console: ctx.console)
      } else {
        try Commands.requireExistingPath(path, consequence: "Nothing was imported")
        data = try TextInput.readDocument(.file(path, option: "import"), field: "import document", console: ctx.console)
      }
      let document = try WorkspaceExport.decode(data, fileName: source)
      let unknownFields = WorkspaceExport.unknownFields(in: data)
      warnOfUnknownFields(unknownFields, in: source, console: ctx.console)
      let dryRun = ctx.arguments.has("dry-run")
      let engine: KnowledgeEngine
      let legacyFile = ctx.workspaceDirectory.appendingPathComponent(KnowledgeEngine.legacyFileName)
      if dryRun, FileManager.default.fileExists(atPath: legacyFile.path) {
        // A legacy workspace.json waits for the first write: the import would import it first,
        // in its transaction, so the plan is made over what that would leave (rehearsed and
        // rolled back, as for the real import), and nothing is written (review 18-d, M4: a
        // directory holding only that file refused the dry run, exit 3).
        engine = try ctx.engineForPlannedChange(.create)
        if let store = engine.store as? SQLiteWorkspaceStore, store.hasWritePreamble {
          ctx.console.printDiagnostic(
            "dolphin: notice: \(Limits.shownPath(legacyFile.path)) is not imported yet; the import imports it first, "
              + "in the same transaction, and this plan is made over what that leaves")
        }
      } else if dryRun {
        // A dry run changes nothing, not even by creating the workspace: without one (or with
        // a database file a first run left without a schema), the plan is made against an empty
        // workspace, which is what the import would create or complete.
        do {
          engine = try ctx.engine(.read)
        } catch WorkspaceError.noWorkspace {
          engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
        } catch CLIError.noWorkspaceYet {
          engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
        }
      } else {
        // A new workspace is created only by an import that succeeds (see WorkspaceAccess.create).
        engine = try ctx.engineForPlannedChange(.create)
      }
      let plan = try engine.planImport(document, policy: policy, source: source)
      // The restore is lossless only of what the format defines (review, s16: the header said so
      // while unknown fields, warned about above, were left out).
      let rendered = Render.importPlan(plan, unknownFieldsIgnored: unknownFields.count)
      if ctx.json {
        ctx.console.printError(rendered)
      } else {
        ctx.console.print(rendered)
      }
      if policy == .refuse, plan.hasConflicts {
        throw RefusedPlan(error: KnowledgeEngine.conflictError(plan), plan: plan)
      }
      if dryRun {
        if ctx.json {
          struct Out: Encodable { var dryRun: Bool; var plan: ImportPlan }
          try ctx.console.printJSON(Out(dryRun: true, plan: plan))
        } else {
          ctx.console.print("Dry run: nothing was written.")
        }
        return
      }
      // Replacing destroys the stored versions: confirmed as erase and delete are (review 18-c, C9).
      if policy == .replace, plan.hasConflicts {
        let records = plan.conflicts.filter(\.isRecord).count
        let settings = plan.conflicts.contains { !$0.isRecord }
        let what =
          [records > 0 ? "\(records) stored record(s)" : nil, settings ? "this workspace's settings or active handoff" : nil]
          .compactMap { $0 }.joined(separator: " and ")
        try ctx.confirm(
          "Replace \(what) with the file's versions? This cannot be undone.",
          action: "replacing \(what) with the file's versions", plan: plan)
      }
      let report = try engine.applyImport(document, policy: policy, source: source, expecting: plan)
      if ctx.json {
        try ctx.console.printJSON(report)
      } else {
        let total = report.written.values.reduce(0, +)
        let parts = report.written.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        // Settings are no record: an import that only raised knowledgeItemLimit said "Imported 0
        // record(s)." and nothing of the change it made.
        let settings = report.settingsChanged.map { inert(escapingLineBreaks($0.description)) }
        ctx.console.print(
          "Imported \(total) record(s)" + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
            + keptClause(report)
            + (settings.isEmpty ? "" : "; settings changed: " + settings.joined(separator: ", "))
            + ".")
        for c in report.plan.collections {
          if let line = Render.keptNewest(c.name, olderThanKept: c.olderThanKept, pruned: c.pruned) {
            ctx.console.print(line + ".")
          }
        }
        if let d = report.digestID { ctx.console.print("Stored rule-based digest \(d.uuidString).") }
      }
    })

  /// What an import under `skip` kept of this workspace, for its report line: `; kept this
  /// workspace's version of 2 conflicting record(s), its settings and its active handoff`;
  /// empty when it kept nothing. The settings and the active-handoff marker are named as what
  /// they are, not counted as records (review 19-c, finding 13).
  static func keptClause(_ report: ImportReport) -> String {
    var kept: [String] = []
    if report.skipped > 0 { kept.append("version of \(report.skipped) conflicting record(s)") }
    if report.keptSettings { kept.append(kept.isEmpty ? "settings" : "its settings") }
    if report.keptActiveHandoff {
      kept.append((kept.isEmpty ? "" : "its ") + "active handoff (the file marks another one active)")
    }
    guard let last = kept.last else { return "" }
    return "; kept this workspace's "
      + (kept.count == 1 ? last : kept.dropLast().joined(separator: ", ") + " and " + last)
  }

  /// How many unknown fields `import` names one by one before it counts the rest.
  static let unknownFieldsShown = 20

  /// Warns on stderr of each member of an imported document that the export format does not
  /// define (``WorkspaceExport/unknownFields(in:)``): the format has readers ignore them, so the
  /// import goes on, but a mistyped field would otherwise lose its value unnoticed. The first
  /// ``unknownFieldsShown`` are named, the rest counted.
  static func warnOfUnknownFields(_ paths: [String], in source: String, console: Console) {
    guard !paths.isEmpty else { return }
    let version = WorkspaceExport.currentFormatVersion
    for path in paths.prefix(unknownFieldsShown) {
      console.printDiagnostic(
        "dolphin: warning: \(Limits.escaped(source)): \(path) is not a field of export format version \(version); "
          + "it is ignored (is its name mistyped?)")
    }
    if paths.count > unknownFieldsShown {
      console.printDiagnostic(
        "dolphin: warning: \(Limits.escaped(source)): \(paths.count - unknownFieldsShown) more unknown field(s) ignored, "
          + "\(paths.count) in all")
    }
  }

  static let erase = Command(
    spec: CommandSpec(
      path: ["erase"], summary: "Erase data (one kind, or everything) and verify it is gone from disk.",
      options: [
        OptionSpec(
          name: "kind", value: "K",
          help: "knowledge, memories, tasks, handoffs, digests, conversations, activity or all (default all)."),
        OptionSpec(
          name: "finish", value: nil,
          help: "Finish an interrupted `erase --kind all` only: remove the files it left and touch no record."),
      ],
      confirms: true,
      discussion: """
        Prints the plan — records, references, digests that cite them, search-index rows, chat excerpts in
        handoffs, and for `all` the quarantine, legacy-import records, legacy backups and a legacy
        workspace.json — asks on a terminal (or takes --yes), removes everything in one transaction, then
        compacts the database (WAL checkpoint, VACUUM) and reads every file under the workspace directory
        to check that no erased record's id survives. Exit 5 when that check fails.

        An `erase --kind all` stopped after it erased the records and before it removed the legacy files
        leaves them holding erased data (`dolphin doctor` reports it). `--finish` removes only those files
        (zeroed, then unlinked) and clears the erase's marker, then compacts the database; records stored
        since the interruption stay (plan, confirmation and --yes as for any erase; nothing to finish is
        said, exit 0). `--kind all` run again instead erases those records too, and its plan says how many.
        """),
    run: { ctx in
      if ctx.arguments.has("finish") {
        if ctx.arguments.value("kind") != nil {
          throw CLIError.usage(
            "--finish and --kind cannot be given together: --finish removes only the files an interrupted "
              + "`erase --kind all` left, and erases no record")
        }
        let engine = try ctx.engineForPlannedChange(.update, legacyFile: .erasedByFinish)
        try runErase(
          ctx, engine: engine, plan: try engine.planFinishInterruptedErase(),
          question: "Remove these files? This cannot be undone.", action: "finishing the interrupted erase")
        return
      }
      let scope = try ctx.parseEnum(EraseScope.self, ctx.arguments.value("kind") ?? "all", name: "--kind")
      let engine = try ctx.engineForPlannedChange(.update, legacyFile: scope == .all ? .erasedByCommand : .none)
      let plan = try engine.planErase(scope)
      // Review 29-b, 3: records stored since an interrupted erase are named in the question too.
      let since = plan.storedSinceInterruptedErase ?? 0
      try runErase(
        ctx, engine: engine, plan: plan,
        question: since > 0
          ? "Erase this data, the \(since) record(s) stored since the interrupted erase included? This cannot be undone."
          : "Erase this data? This cannot be undone.",
        action: "erasing this data")
    })

  static let activityClear = Command(
    spec: CommandSpec(
      path: ["activity", "clear"],
      summary: "Clear chat & run activity: messages, receipts, checkpoints and chat excerpts in handoffs.",
      confirms: true,
      discussion: """
        Conversations, handoffs (without their copied chat excerpts) and all knowledge stay. The removed
        text is then compacted out of the database files and the result verified, as for `dolphin erase`.
        """),
    run: { ctx in
      let engine = try ctx.engineForPlannedChange(.update)
      try runErase(
        ctx, engine: engine, plan: try engine.planClearChatAndActivity(), question: "Clear chat & run activity?",
        action: "clearing chat & run activity")
    })

  /// What the erase changed in records it kept (``EraseReport/changed``), in the plan's order,
  /// e.g. `removed the erased references from 2 handoff(s)`.
  /// What the erase removed, one clause per collection in the plan's order: `4 task(s)`,
  /// `1 digest(s)` (review 20-a, 12: the report gave one total and named no collection).
  static func removedByCollection(_ report: EraseReport) -> [String] {
    let nouns = [
      "deleteKnowledge": "knowledge item(s)", "deleteMirrors": "memory mirror(s)", "deleteMemories": "memory(ies)",
      "deleteTasks": "task(s)", "deleteHandoffs": "handoff(s)", "deleteDigests": "digest(s)",
      "deleteConversations": "conversation(s)", "deleteMessages": "chat message(s)",
      "deleteReceipts": "activity receipt(s)", "deleteCheckpoints": "run checkpoint(s)",
      "deleteQuarantine": "quarantined record(s)", "deleteLegacyImports": "legacy-import record(s)",
    ]
    var seen = Set<String>()
    let ordered = report.plan.steps.map(\.action) + report.removed.keys.sorted()
    return ordered.compactMap { action in
      guard seen.insert(action).inserted, let n = report.removed[action], n > 0 else { return nil }
      return "\(n) " + (nouns[action] ?? action)
    }
  }

  static func keptButChanged(_ report: EraseReport) -> [String] {
    report.plan.steps.compactMap { step -> String? in
      guard let n = report.changed[step.action] else { return nil }
      switch step.action {
      case "unlinkTasks": return "removed the erased references from \(n) task(s)"
      case "unlinkHandoffs": return "removed the erased references from \(n) handoff(s)"
      case "clearMemoryLinks": return "cleared the links of \(n) legacy memory(ies) to erased mirrors"
      case "removeRelationships": return "removed \(n) relationship(s) of kept items that pointed at erased ones"
      case "scrubExcerpts": return "removed the chat excerpts from \(n) handoff(s)"
      case "clearActiveHandoff": return "cleared the active-handoff marker"
      case "resetSettings": return "reset the settings to their defaults"
      case "clearSearchIndex": return "emptied the search index"
      default: return "\(step.action) \(n)"
      }
    }
  }

  /// Shared flow of `erase` and `activity clear`: show, confirm, apply, report the verification.
  static func runErase(
    _ ctx: CommandContext, engine: KnowledgeEngine, plan: ErasePlan, question: String, action: String
  ) throws {
    let text = Render.erasePlan(plan)
    if ctx.json { ctx.console.printError(text) } else { ctx.console.print(text) }
    let finishing = plan.target == "finishInterrupted"
    if finishing, plan.isEmpty {
      // Nothing to finish: no write (which would import a legacy workspace.json waiting for one).
      if ctx.json {
        /// An ``EraseReport`` of nothing done: nothing removed or changed, nothing verified (null).
        struct NothingToFinish: Encodable {
          var plan: ErasePlan
          var removed: [String: Int] = [:]
          var changed: [String: Int] = [:]
          var removedFiles: [String] = []
          var verification: EraseVerification? = nil
          func encode(to encoder: any Encoder) throws {
            enum Keys: String, CodingKey { case plan, removed, changed, removedFiles, verification }
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(plan, forKey: .plan)
            try c.encode(removed, forKey: .removed)
            try c.encode(changed, forKey: .changed)
            try c.encode(removedFiles, forKey: .removedFiles)
            try c.encode(verification, forKey: .verification)
          }
        }
        try ctx.console.printJSON(NothingToFinish(plan: plan))
      } else {
        ctx.console.print("No erase was interrupted: there is nothing to finish, and nothing was changed.")
      }
      return
    }
    if !plan.isEmpty { try ctx.confirm(question, action: action, plan: plan) }
    // With --yes the erase is approved for its scope, not for the records listed a moment ago:
    // what a writer added meanwhile is erased too (review, s17: a steady writer made every
    // `erase --yes` fail as a concurrent change). Asked on a terminal, the plan shown is the one
    // applied, or none.
    let report = try engine.apply(plan, acceptingChanges: ctx.arguments.has("yes"))
    if report.plan != plan {
      ctx.console.printDiagnostic(
        "dolphin: notice: the workspace changed while the erase was planned (another process wrote); with --yes, "
          + "what the scope held when the erase ran was erased (the report's plan lists it)")
    }
    let v = report.verification
    let failure: ReportedFailure? =
      v.passed
      ? nil
      : !v.leakedIDs.isEmpty
        ? ReportedFailure(
          code: ExitCode.storage, message: "erased ids still found on disk: " + v.leakedIDs.map(\.uuidString).joined(separator: ", "))
        : ReportedFailure(
          code: ExitCode.storage,
          message: "the erase was applied but could not be verified: \(v.unscanned.count) path(s) under the workspace "
            + "directory could not be read (" + v.unscanned.prefix(3).map { Limits.shownPath($0) }.joined(separator: ", ")
            + (v.unscanned.count > 3 ? ", …" : "") + ")")
    if ctx.json {
      try ctx.console.printJSON(report, failure: failure)
    } else if finishing {
      let v = report.verification
      ctx.console.print(
        "Finished the interrupted erase: removed \(report.removedFiles.count) file(s) it left"
          + (report.changed["clearEraseMarker"] == nil ? "" : " and cleared its marker")
          + "; no record was touched. WAL \(v.walBytes) bytes, \(v.freePages) free page(s).")
      for n in v.notes { ctx.console.print("Note: \(inert(n))") }
    } else {
      let removed = report.removed.values.reduce(0, +)
      let changed = keptButChanged(report)
      let named = removedByCollection(report)
      ctx.console.print(
        "Erased \(removed) record(s)" + (named.isEmpty ? "" : " (" + named.joined(separator: ", ") + ")")
          + (report.removedFiles.isEmpty ? "" : " and \(report.removedFiles.count) file(s)")
          + (changed.isEmpty ? "" : "; kept but changed: " + changed.joined(separator: ", ")) + ".")
      ctx.console.print(Render.verification(report.verification))
    }
    if let failure { throw failure }
  }
}
