import ContinuityKit
import Foundation
import KnowledgeEngine
import Synchronization

/// Work done when a command opens a workspace: importing a legacy `workspace.json` on first
/// use; and how a search index made by another tokenizer version is reported.
enum WorkspaceOpening {
  /// What an engine tells its host about the search index
  /// (``KnowledgeEngine/searchIndexObserver``), as one line on standard error per distinct
  /// notice: that the index was rebuilt, or why it was not and searches index in memory; that
  /// documents a schema upgrade listed were indexed again.
  ///
  /// Only the operations that rank call the observer (a search, an auto-selected handoff, an
  /// agent's search tool), so nothing is said — or written — by commands that do not search.
  /// An operation that finds the index unusable more than once (an `ask` searching twice, an
  /// MCP server answering many searches) prints its notice once.
  /// - Parameter program: how notices start, `dolphin` or `dolphin mcp`.
  static func searchIndexNotices(console: Console, program: String)
    -> @Sendable (SearchIndexPreparation) -> Void
  {
    let printed = Mutex<Set<String>>([])
    return { preparation in
      guard let notice = preparation.notice, printed.withLock({ $0.insert(notice).inserted }) else {
        return
      }
      console.printDiagnostic("\(program): notice: \(notice)")
    }
  }

  /// Says on standard error that a one-time rebuild of a stale search index starts (it can take
  /// seconds), once per process: `<program>: rebuilding the search index …`. Not a `notice:`
  /// line: the outcome follows as one (``searchIndexNotices(console:program:)``).
  static func searchIndexRebuildStart(console: Console, program: String)
    -> @Sendable (StoredTokenizerVersion) -> Void
  {
    let said = Mutex(false)
    return { built in
      guard !said.withLock({ s in defer { s = true }; return s }) else { return }
      let was: String
      switch built {
      case .version(let n): was = "it was built with version \(n)"
      case .unreadable: was = "its recorded tokenizer version is unreadable"
      }
      console.printError(
        "\(program): rebuilding the search index for tokenizer version \(Tokenizer.version) (\(was)); "
          + "this is done once, and takes a few seconds for a large workspace")
    }
  }

  /// What a command (`dolphin` or `dolphin mcp`) says, or refuses, when `store` is open read-only
  /// and its schema steps are not all applied.
  ///
  /// A first run interrupted between schema steps that reading needs
  /// (``SQLiteWorkspaceStore/pendingMigrationStepsNeededForReading``) cannot be read here: only
  /// a writable open can add the tables. A workspace from an earlier build whose pending steps
  /// reading does without is read as stored, with ``pendingUpgradeNotice(_:)`` on standard error.
  /// - Parameter program: how notices start, `dolphin` or `dolphin mcp`.
  /// - Throws: ``WorkspaceError/readOnly(file:reason:)`` for the interrupted first run.
  static func checkPendingUpgrade(of store: SQLiteWorkspaceStore, console: Console, program: String) throws {
    guard store.isReadOnly, !store.pendingMigrationSteps.isEmpty else { return }
    if !store.pendingMigrationStepsNeededForReading.isEmpty {
      throw WorkspaceError.readOnly(
        file: store.databasePath,
        reason: "its schema is incomplete (pending step(s): " + store.pendingMigrationSteps.joined(separator: ", ")
          + ") and cannot be completed here; run any dolphin command once where the workspace can be written")
    }
    console.printDiagnostic("\(program): notice: " + pendingUpgradeNotice(store))
  }

  /// What to say about a read-only workspace from an earlier build whose pending schema steps
  /// reading does without (``SQLiteWorkspaceStore/pendingMigrationStepsNeededForReading`` is
  /// empty): it is read as stored, and the upgrade finishes at the next writable open.
  static func pendingUpgradeNotice(_ store: SQLiteWorkspaceStore) -> String {
    "\(store.databasePath) was made by an earlier dolphin; its upgrade (step(s) "
      + store.pendingMigrationSteps.joined(separator: ", ")
      + ") finishes the next time a command opens it where it can be written. Until then it is read as it is stored "
      + "(tags stored in an older form are shown as stored, and a --tag filter may not match them)"
  }

  /// Arranges for a legacy `workspace.json` in `directory` that was not imported yet to be
  /// imported by the first write that succeeds, in its transaction
  /// (``KnowledgeEngine/importLegacyWorkspaceAtFirstWrite(in:store:environment:imported:notImported:)``),
  /// and for a notice on standard error once it is. A command refused before it writes imports
  /// nothing and creates nothing. A legacy file that cannot be imported gets a notice instead,
  /// and the command goes on.
  /// - Parameters:
  ///   - program: how notices start, `dolphin` or `dolphin mcp`.
  ///   - legacyFile: what the command itself does with the legacy file (``LegacyFileUse``).
  /// - Throws: storage errors.
  static func afterOpen(
    store: SQLiteWorkspaceStore, directory: URL, console: Console, program: String = "dolphin",
    legacyFile: LegacyFileUse = .none
  ) throws {
    // `dolphin migrate` of this very file imports it itself, and says so once (review 27-a, 5:
    // a notice that the command "went on without it", then the command's own error).
    guard !store.isReadOnly, legacyFile != .importedByCommand else { return }
    let erasesLegacyFiles = legacyFile == .erasedByCommand
    // Advice names the workspace always (review 27-a, 1: from DOLPHIN_HOME, pasted in a shell
    // without it, `dolphin migrate … --again` imported into the default workspace).
    let workspace = directory.standardizedFileURL.path
    let file = directory.standardizedFileURL.appendingPathComponent(KnowledgeEngine.legacyFileName).path
    // What goes on without the file: a command, or the MCP server's tool calls.
    let goesOn = program == "dolphin" ? "The command went on without it" : "The server goes on without it"
    // Review 29a, 2: after an `erase --kind all` interrupted before it removed the legacy files,
    // they hold erased data: the advice is to finish the erase, not `migrate --again`. Asked only
    // when the file is there (a read; `try?`: a workspace without a schema has no erase).
    let erasedData =
      FileManager.default.fileExists(atPath: file)
      && (try? KnowledgeEngine(store: store).interruptedEraseFiles()) != nil
    try KnowledgeEngine.importLegacyWorkspaceAtFirstWrite(in: directory, store: store) { report in
      console.printDiagnostic(
        "\(program): notice: imported legacy \(KnowledgeEngine.legacyFileName) (schema v\(report.sourceVersion ?? 0)): "
          + MigrateCommands.summary(report) + (report.quarantined.isEmpty ? "" : " (see `\(command: "dolphin quarantine")`)")
          + MigrateCommands.keptClauses(report).map { "; " + $0.prefix(1).lowercased() + $0.dropFirst() }.joined()
          // A file saved again after its import, or whose records came back through an export.
          + (report.alreadyHeld.isEmpty
            ? ""
            : "; held already, left as they are: "
              + MigrateCommands.order(report.alreadyHeld).map { "\($0.value) \($0.key)" }.joined(separator: ", "))
          // Review 26-b, 3: settings the workspace has of its own are kept.
          + (report.settingsKept
            ? "; " + MigrateCommands.settingsKeptClause
            // Said when it happens (review 27-b, 10: the workspace's defaults were replaced unannounced).
            : report.imported["settings"] == 1 ? "; the file's settings (assistant name, response style, calendar access) were imported" : "")
          + (erasesLegacyFiles
            ? "; this erase removes its records with everything else, and the file and its backup"
            : "; the original is unchanged, a 0600 backup is at \(report.backupPath ?? "?")"))
    } notImported: { why in
      // The writes go on without it (review 26-a, 1: a changed or damaged file refused them all).
      switch why {
      case .failed(let reason):
        // The reason says what is wrong and what to do (a newer app's file is not "fixed").
        let reason = reason.hasSuffix(".") ? reason : reason + "."
        // `erase --kind all` removes the file (review 27-a, 9: told it would be tried again).
        let next =
          erasesLegacyFiles
          ? " This erase removes it with everything else."
          : " \(goesOn); the next dolphin process that writes here tries it again (move \(KnowledgeEngine.legacyFileName) "
            + "out of the workspace directory to stop that)."
        console.printDiagnostic(
          "\(program): notice: the legacy \(KnowledgeEngine.legacyFileName) in the workspace directory was not imported: "
            + reason + next)
      case .changedSinceImport(let earlier, let importedAt):
        console.printDiagnostic(
          "\(program): notice: \(Limits.shownPath(file)) differs from the legacy file (\(inert(earlier))) imported into this "
            + "workspace on \(Render.date(importedAt)), so it is not imported again by itself: records deleted or erased "
            + "since stay gone. \(goesOn). " + Self.againAdvice(file: file, workspace: workspace))
      case .notImportedByItself(let reason):
        // A link or another user's file (s28: skipped in silence before).
        let next =
          erasesLegacyFiles
          ? " This erase removes it with everything else."
          : " \(goesOn); moving \(KnowledgeEngine.legacyFileName) out of the workspace directory ends this notice."
        console.printDiagnostic(
          "\(program): notice: the legacy \(KnowledgeEngine.legacyFileName) in the workspace directory is not imported: "
            + reason + "." + next)
      case .importRecordLost where erasedData:
        console.printDiagnostic(
          "\(program): notice: \(Limits.shownPath(file)) holds data that an interrupted `dolphin erase --kind all` erased "
            + "from the workspace, so it is not imported again. "
            + (erasesLegacyFiles
              ? "This erase removes it with everything else."
              : legacyFile == .erasedByFinish
                ? "This command removes it."
                // Review 29-b, 3: `erase --kind all` again erased the records stored since, too.
                : "\(goesOn). `\(SuggestedCommand("dolphin erase --finish").naming(workspace: workspace))` finishes that "
                  + "erase and removes it, keeping the records stored since."))
      case .importRecordLost(let backup):
        console.printDiagnostic(
          "\(program): notice: \(Limits.shownPath(file)) was imported into this workspace before (\(Limits.shownPath(backup)) "
            + "holds the same bytes), but the workspace's record of that import is gone, so it is not imported again by "
            + "itself: records deleted or erased since stay gone. \(goesOn). " + Self.againAdvice(file: file, workspace: workspace))
      }
    }
  }
}

extension WorkspaceOpening {
  /// The advice for a legacy file no write imports by itself: the command that imports what the
  /// workspace lacks, saying that this brings back what was deleted since (review 27-b, 10: it
  /// did, unannounced), and how to end the notice.
  static func againAdvice(file: String, workspace: String) -> String {
    "`\(SuggestedCommand("dolphin migrate \(file) --again").naming(workspace: workspace))` imports its records this "
      + "workspace does not hold, those deleted or erased since included; moving the file out of the workspace directory "
      + "ends this notice."
  }
}

/// What a command does itself with a legacy `workspace.json` in its workspace directory, for
/// ``WorkspaceOpening/afterOpen(store:directory:console:program:legacyFile:)``.
enum LegacyFileUse: Sendable, Equatable {
  /// Nothing: the first write imports it.
  case none
  /// `erase --kind all`: its write imports the file and then removes it with its backup, so the
  /// notice says so rather than point at a backup that is gone (review 26-b, 10).
  case erasedByCommand
  /// `dolphin migrate` of this very file: the command imports it and reports it itself.
  case importedByCommand
  /// `erase --finish`: it removes the file when an interrupted erase left it (and imports
  /// nothing while one is interrupted).
  case erasedByFinish
}

extension Commands {
  /// Checks that no symbolic link stops `directory` from being a directory there, or from being
  /// created there (``PathProblem/linkInTheWay(ofDirectory:)``): a link to nothing or a link
  /// loop, at `directory` or at the first missing directory on the way to it. Without this, a
  /// loop read as "cannot read" (exit 5) or "does not exist, create it", and a link to nothing
  /// as "a file with the same name already exists".
  /// - Parameters:
  ///   - directory: the directory path (a workspace, or an output file's directory).
  ///   - option: how the user gave it, `--workspace` or `--output`; nil for the default
  ///     workspace (`DOLPHIN_HOME` and its fallbacks).
  ///   - consequence: what did not happen, e.g. `nothing was written`.
  /// - Throws: ``CLIError/input(_:)`` (exit 4, as for a loop in any other path argument) for a
  ///   link loop; ``CLIError/notFound(_:)`` (exit 3) for a link to nothing, naming its target.
  ///   Both name the link and say how to fix it.
  static func requireNoSymbolicLinkInTheWay(of directory: String, option: String?, consequence: String) throws {
    guard let (link, problem) = PathProblem.linkInTheWay(ofDirectory: directory) else { return }
    let place = link == directory ? "" : " (on the way to \(option == nil ? "the workspace directory " : "")\(directory))"
    let named = option.map { "\($0): " } ?? (link == directory ? "workspace directory " : "")
    let elsewhere =
      option == "--output"
      ? "give --output a path in another directory" : "name another directory with --workspace or DOLPHIN_HOME"
    let advice = problem.isMissing ? "create the directory it points to, or \(elsewhere)" : "replace the link, or \(elsewhere)"
    let message = named + Limits.escaped("\(link): \(problem.description)\(place)") + "; \(consequence) (\(advice))"
    throw problem.isMissing ? CLIError.notFound(message) : CLIError.input(message)
  }

  /// `url`'s absolute path with every symbolic link and `.`/`..` resolved, as far as the path
  /// exists: the deepest existing ancestor goes through `realpath(3)` and the components below
  /// it (not created yet) are appended as given. Two spellings of one place compare equal.
  static func resolvedPath(_ url: URL) -> String {
    var existing = url.standardizedFileURL
    var rest: [String] = []
    while existing.path != "/" {
      if let resolved = realpath(existing.path, nil) {
        defer { free(resolved) }
        var out = URL(fileURLWithPath: String(cString: resolved))
        for component in rest.reversed() { out.appendPathComponent(component) }
        return out.standardizedFileURL.path
      }
      rest.append(existing.lastPathComponent)
      existing.deleteLastPathComponent()
    }
    return url.standardizedFileURL.path
  }

  /// Whether `path` is `directory` or lies below it, once both are resolved (see ``resolvedPath(_:)``).
  static func isWithin(_ path: URL, directory: URL) -> Bool {
    let p = resolvedPath(path), d = resolvedPath(directory)
    return p == d || p.hasPrefix(d.hasSuffix("/") ? d : d + "/")
  }
}
