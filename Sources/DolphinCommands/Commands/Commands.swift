import ContinuityKit
import Foundation
import KnowledgeEngine

/// The command table (order is the order in `dolphin --help`).
enum Commands {
  static let all: [Command] =
    [demo, capture] + SearchCommands.all + KnowledgeCommands.all + MemoryCommands.all + TaskCommands.all
    + ContinuityCommands.all + HandoffCommands.all + [status, doctor] + SettingsCommands.all + MigrateCommands.all
    + DataRightsCommands.all + AnalyzeCommands.all + AgentCommands.all + MCPCommands.all + AboutCommands.all

  static let kindList = KnowledgeKind.allCases.map(\.rawValue).joined(separator: ", ")

  /// The explicit, user-only override of the credential check (never offered to agents).
  static let allowCredentials = OptionSpec(
    name: "allow-credentials", value: nil,
    help: "Store text that looks like a credential (key, token, password) instead of refusing it.")

  static let capture = Command(
    spec: CommandSpec(
      path: ["capture"], summary: "Capture a typed knowledge item.",
      positionals: [("kind", "One of: \(kindList)."), ("title", "Title, at most \(Limits.title) characters.")],
      options: [
        OptionSpec(
          name: "content", value: "TEXT", help: "Body text (≤ \(Limits.content) characters); '-' reads stdin.",
          readsStandardInput: true),
        OptionSpec(name: "content-file", value: "PATH", help: "Read the body from a UTF-8 text file (≤ \(Limits.content) characters)."),
        OptionSpec(name: "tags", value: "a,b", repeatable: true, help: "Comma-separated tags (≤ \(Limits.tagsPerItem), each ≤ \(Limits.tagLength) characters), stored trimmed and lowercased; a repeat is kept once."),
        OptionSpec(name: "relates", value: "KIND:UUID", repeatable: true, help: "One relationship to an existing item (repeat for each, at most \(Limits.relationshipsPerItem)); KIND is supports, contradicts, dependsOn, supersedes or relatesTo."),
        OptionSpec(name: "priority", value: "P", help: "low, normal (default), high or critical."),
        allowCredentials,
      ],
      discussion: """
        Examples:
          dolphin capture decision "Use SQLite for the workspace" --content "Single-row writes, WAL." --tags storage,sqlite
          echo "notes" | dolphin capture context "Standup" --content -
        Every capture that leaves the knowledge count at a multiple of five also stores a rule-based digest
        (the newest \(Limits.digestsKept) are kept; storing another drops the oldest).
        When items of the same kind already have the title (compared with case, diacritics and white space
        folded; superseded items left out), the capture is stored all the same and a note names them (at most
        \(KnowledgeEngine.sameTitleListed), with how many more; --json: sameTitle, sameTitleTotal): edit one in
        place with `dolphin knowledge edit ID` instead, or supersede it (--relates supersedes:ID).
        A capture with --relates supersedes:ID rewrites the rule-built summary of each handoff that carries
        that item (it marks it superseded) and names each one (--json: rebuiltHandoffIDs).
        The workspace holds at most knowledgeItemLimit knowledge items (default \(Limits.knowledgeItemsDefault), at most
        \(Limits.knowledgeItemsMaximum)): past it a capture is refused (exit 4) with the count held and the limit;
        `dolphin settings` shows it and `dolphin settings set knowledgeItemLimit N` raises it.
        Text that looks like a credential (a private key, a cloud or VCS token, `password=…`) is refused
        (exit 4, naming the kind and line:column) unless --allow-credentials is given.
        """,
      fieldFlags: [FieldFlag("relationships", "--relates"), FieldFlag("tags", "--tags")]),
    run: { ctx in
      let a = ctx.arguments
      // Tasks are their own records (`dolphin task add`), not a kind of knowledge: say where they go.
      if ["task", "tasks", "todo"].contains(a.positionals[0].lowercased()) {
        throw CLIError.invalidValue(
          "kind \(quotedValue(a.positionals[0], cutAt: 40)) is not one of: "
            + KnowledgeKind.allCases.map(\.rawValue).joined(separator: ", ")
            + "; tasks are added with `\(command: "dolphin task add TITLE")` (see `dolphin task add --help`)",
          field: "kind")
      }
      let kind = try ctx.parseEnum(KnowledgeKind.self, a.positionals[0], name: "kind")
      let content = try contentOption(ctx) ?? ""
      // Empty text read from standard input or a file is more likely a pipe from a command that
      // failed than a wish for no body, as `knowledge edit` and every other `-` take it (review
      // 21-a, 8: `false | dolphin capture … --content -` stored an empty body).
      if content.isEmpty, a.value("content") != "", a.value("content") != nil || a.value("content-file") != nil {
        let source = a.value("content-file").map { "--content-file \(quotedValue($0, cutAt: 60)) is an empty file" }
          ?? "--content -: standard input was empty"
        throw ValidationError(
          field: "content",
          message: "\(source); pipe the text in, or leave out the option to capture the title alone; nothing was stored")
      }
      let relationships = try a.all("relates").enumerated().map { i, spec in try parseRelationship(spec, index: i, ctx: ctx) }
      let priority = try a.value("priority").map { try ctx.parseEnum(Priority.self, $0, name: "--priority") } ?? .normal
      let engine = try ctx.engine(.create)
      let result = try engine.capture(
        CaptureRequest(kind: kind, title: a.positionals[1], content: content, tags: splitTags(a.all("tags")),
                       relationships: relationships, priority: priority,
                       allowCredentials: a.has("allow-credentials")))
      if ctx.json {
        // `rebuiltHandoffIDs` only when the capture rewrote a handoff's rule-built summary (it
        // marks an item this one supersedes), as the MCP tool gives it.
        // `sameTitle` always (empty when none): the items of the kind that already had the title.
        struct Out: Encodable {
          var item: KnowledgeItem; var digestID: UUID?; var rebuiltHandoffIDs: [UUID]?
          var sameTitle: [UUID]; var sameTitleTotal: Int
        }
        try ctx.console.printJSON(
          Out(
            item: result.item, digestID: result.digest?.id,
            rebuiltHandoffIDs: result.rebuiltHandoffIDs.isEmpty ? nil : result.rebuiltHandoffIDs,
            sameTitle: result.sameTitle.ids, sameTitleTotal: result.sameTitle.total))
      } else {
        ctx.console.print("Captured \(result.item.kind.rawValue) \(inertQuoted(result.item.title))")
        ctx.console.print("id: \(result.item.id.uuidString)")
        if let note = Render.sameTitleNote(result.sameTitle, kind: result.item.kind) { ctx.console.print(note) }
        if let d = result.digest {
          ctx.console.print("Stored rule-based digest \(d.id.uuidString) (knowledge count is a multiple of \(KnowledgeEngine.autoDigestInterval))")
        }
        ctx.printRewrittenSummaries(result.rebuiltHandoffIDs, engine: engine)
      }
    })

  /// Doctor's advice for stored credential-looking text: for each type of record flagged, in
  /// the scan's order, how many, where such a record comes from and the command that removes
  /// it. A chat message or a receipt is removed by `activity clear` (or `erase --kind …`), never
  /// by `knowledge delete`, which its id does not name (review 28-c, 1: the advice named only
  /// the three delete commands, and a message's origin as "a migration or import, or
  /// --allow-credentials").
  static func credentialAdvice(_ r: CredentialFlagReport) -> String {
    let byType = r.countByType.isEmpty ? r.flags.reduce(into: [String: Int]()) { $0[$1.recordType, default: 0] += 1 } : r.countByType
    let imported = "kept by a migration or import"
    let allowed = "stored with --allow-credentials, or \(imported)"
    let remedies: [(type: String, noun: String, remedy: String)] = [
      ("knowledge", "knowledge item(s)", "\(allowed): `\(command: "dolphin knowledge delete ID")`"),
      ("memory", "memory(ies)", "\(allowed): `\(command: "dolphin memory delete ID")`"),
      ("task", "task(s)", "\(allowed): `\(command: "dolphin task delete ID")`"),
      (
        "handoff", "handoff(s)",
        "\(allowed), or a chat excerpt an earlier dolphin copied: `\(command: "dolphin handoff delete ID")`; "
          + "`\(command: "dolphin activity clear")` removes the chat excerpts of every handoff"
      ),
      (
        "message", "chat message(s)",
        "an `ask` answer that quoted one, stored whole by an earlier dolphin, or \(imported): "
          + "`\(command: "dolphin activity clear")` removes every chat message (with the receipts and run checkpoints), "
          + "`\(command: "dolphin erase --kind conversations")` every conversation with its messages; no delete command "
          + "takes a message's id"
      ),
      (
        "receipt", "activity receipt(s)",
        "a tool call's arguments, recorded whole by an earlier dolphin, or \(imported): "
          + "`\(command: "dolphin activity clear")` or `\(command: "dolphin erase --kind activity")` removes every receipt"
      ),
      (
        "digest", "digest(s)",
        "quoting a record as it read when the digest was built: `\(command: "dolphin erase --kind digests")` removes "
          + "every stored digest"
      ),
    ]
    var parts: [String] = []
    for entry in remedies {
      guard let n = byType[entry.type], n > 0 else { continue }
      parts.append("\(n) \(entry.noun) (\(entry.remedy))")
    }
    let others = byType.filter { type, _ in !remedies.contains { $0.type == type } }
    for (type, n) in others.sorted(by: { $0.key < $1.key }) { parts.append("\(n) \(type) record(s)") }
    return "\(r.count) stored record(s) hold text that looks like a credential. Rotate any real secret, then remove "
      + "them: " + parts.joined(separator: "; ") + ". `\(command: "dolphin erase")` removes everything."
  }

  /// Status lines for stored credential-looking text.
  static func credentialLines(_ r: CredentialFlagReport) -> [String] {
    guard r.count > 0 else {
      return [
        r.complete
          ? "Credentials: none found in stored text"
          : "Credentials: none found in the most recently written records (`\(command: "dolphin doctor")` scans them all)"
      ]
    }
    var lines = [
      "Credentials: \(r.count) record(s) hold text that looks like a credential"
        + (r.complete ? "" : " in the most recently written records (`\(command: "dolphin doctor")` scans them all)") + ":"
    ]
    for f in r.flags { lines.append("  - " + Render.credentialFlag(f)) }
    if r.count > r.flags.count { lines.append("  … and \(r.count - r.flags.count) more") }
    return lines
  }

  /// The body given by `--content TEXT`, `--content -` (standard input) or `--content-file
  /// PATH`; nil when neither option is given.
  /// - Throws: ``CLIError/usage(_:)`` for both options; ``CLIError/invalidValue(_:field:)`` for an
  ///   empty path; what ``TextInput/read(_:field:limit:console:)`` throws.
  static func contentOption(_ ctx: CommandContext) throws -> String? {
    let a = ctx.arguments
    if a.value("content") != nil, a.value("content-file") != nil {
      throw CLIError.usage("give --content or --content-file, not both")
    }
    if let path = a.value("content-file") {
      // As `--output ""` and `import ""`: a forgotten path, not a file that is missing.
      if path.isEmpty {
        throw CLIError.invalidValue("--content-file needs a file path (it was given an empty string)", field: "content-file")
      }
      return try TextInput.read(.file(path, option: "--content-file"), field: "content", limit: Limits.content, console: ctx.console)
    }
    guard let content = a.value("content") else { return nil }
    if content == "-" {
      ctx.standardInputHolds = "the text of --content"
      return try TextInput.read(.standardInput, field: "content", limit: Limits.content, console: ctx.console)
    }
    return content
  }

  static func splitTags(_ values: [String]) -> [String] {
    values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: true).map(String.init) }
  }

  static func parseRelationship(_ spec: String, index: Int, ctx: CommandContext) throws -> KnowledgeRelationship {
    // `--tags` takes a comma-separated list, so users try the same here: say what to do instead
    // of calling `A,relatesTo:B` a malformed id.
    if spec.split(separator: ",").dropFirst().contains(where: { looksLikeRelationship($0) }) {
      throw ValidationError(
        field: "relationships[\(index)]",
        message: "--relates '\(inert(String(spec.prefix(120))))' holds more than one relationship: --relates takes one "
          + "KIND:UUID; repeat --relates for each relationship")
    }
    let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
    guard parts.count == 2 else {
      throw ValidationError(field: "relationships[\(index)]", message: "--relates \(quotedValue(spec, cutAt: 60)) must be KIND:UUID, e.g. supports:3F2504E0-4F89-11D3-9A0C-0305E82C3301")
    }
    // A kind that is not one of the choices is a usage error (exit 2), as every other value
    // outside an option's choices is (`--priority urgent`, `capture factoid`), naming the field
    // (review 19-b, F8; an id that is not a UUID stays malformed input, exit 4, as everywhere).
    let kind = try ctx.parseEnum(RelationshipKind.self, parts[0], name: "--relates kind", field: "relationships[\(index)]")
    do {
      return KnowledgeRelationship(kind: kind, targetID: try ctx.uuid(parts[1], field: "--relates id"))
    } catch var error as ValidationError {
      error.field = "relationships[\(index)]"
      throw error
    }
  }

  /// Whether `text` reads as `KIND:…` with KIND a word, e.g. `relatesTo:3F25…`.
  static func looksLikeRelationship(_ text: Substring) -> Bool {
    guard let colon = text.firstIndex(of: ":") else { return false }
    let kind = text[..<colon].trimmingCharacters(in: .whitespaces)
    return !kind.isEmpty && kind.allSatisfy { $0.isASCII && $0.isLetter }
  }

  /// Checks that `path` leads to a file or directory.
  /// - Parameter option: the option that named the path (`--content-file`), if any.
  /// - Throws: ``CLIError/notFound(_:)`` (exit 3) when nothing is there, or only a symbolic link
  ///   to nothing (the message names its target); ``CLIError/input(_:)`` (exit 4, as for other
  ///   input that cannot be read) for a symbolic link loop or a path that cannot be followed
  ///   (e.g. permission denied on a directory on the way). The path and a link's target are
  ///   written on one line (``Limits/escaped(_:)``), so a file name cannot print another line.
  /// - Parameter consequence: said after the problem (`Nothing was imported`), if anything.
  static func requireExistingPath(_ path: String, option: String? = nil, consequence: String? = nil) throws {
    guard let problem = PathProblem.of(path) else { return }
    let message = (option.map { "\($0): " } ?? "") + Limits.escaped("\(Limits.shownPath(path)): \(problem.description)")
      + (consequence.map { ". \($0)" } ?? "")
    throw problem.isMissing ? CLIError.notFound(message) : CLIError.input(message)
  }

  static let status = Command(
    spec: CommandSpec(path: ["status"], summary: "Show the workspace path, schema version, record counts and integrity summary."),
    run: { ctx in
      let store = try ctx.openStore(.read)
      let engine = KnowledgeEngine(store: store)
      let s = try engine.status()
      if ctx.json {
        try ctx.console.printJSON(s)
        return
      }
      let c = ctx.console
      // Each path on its one line, as messages show paths (review 29a, 9: a workspace path holding
      // a line break printed as two lines).
      c.print("Workspace: \(shownValue(ctx.workspaceDirectory.path))")
      c.print("Database:  \(shownValue(s.databasePath))")
      c.print("Schema:    v\(s.schemaVersion)" + (s.readOnly ? " (read-only: \(s.readOnlyReason ?? ""))" : ""))
      c.print("Knowledge: \(s.counts["knowledge"] ?? 0) of \(s.knowledgeItemLimit) (knowledgeItemLimit; see `\(command: "dolphin settings")`)")
      for (label, key) in [("Memories", "memory"), ("Tasks", "task"), ("Handoffs", "handoff"), ("Digests", "digest"),
                           ("Conversations", "conversation"), ("Messages", "message"), ("Receipts", "receipt"),
                           ("Checkpoints", "checkpoint"), ("Quarantined", "quarantine")] {
        c.print("\((label + ":").padding(toLength: 15, withPad: " ", startingAt: 0))\(s.counts[key] ?? 0)")
      }
      c.print("Active handoff: \(s.activeHandoffID?.uuidString ?? "none")")
      for line in credentialLines(s.credentials) { c.print(line) }
      // Where each came from and what removes it differs by type (a chat message is removed by
      // `activity clear`, never by `knowledge delete`): doctor says it, status points there
      // (review 28-c, 1: status flagged them with no advice).
      if s.credentials.count > 0 {
        c.print("  Rotate any real secret; `\(command: "dolphin doctor")` says where each type of record came from and the command that removes it.")
      }
      if s.integrityProblems.isEmpty {
        c.print("Integrity: references ok (run `\(command: "dolphin doctor")` for a full check)")
      } else {
        c.print("Integrity: \(s.integrityProblems.count) problem(s):")
        // One line each: a problem may quote an id read from a record edited outside dolphin.
        for p in s.integrityProblems.prefix(20) { c.print("  - \(inert(escapingLineBreaks(p)))") }
      }
    })

  static let doctor = Command(
    spec: CommandSpec(
      path: ["doctor"], summary: "Check the database (PRAGMA integrity_check), references and search index; explain recovery.",
      discussion: """
        Opens the workspace read-only and never repairs by overwriting (after a crash it first lets SQLite
        finish its own recovery, which restores the last committed state). Checks SQLite's integrity, that the
        schema holds the tables and indexes its applied schema steps create, each table with the columns they
        give it, each of its indexes on its table as defined (a table or index removed outside dolphin, an index
        left on a table renamed away or defined otherwise, a table replaced or altered to other columns, an
        object holding a dolphin table's or index's name, or a trigger or index another program added to
        dolphin's tables, is a problem, named with what to do: `dolphin reindex` recreates those derived from the
        records, a table renamed away is named with the statement that renames it back, and doctor removes
        nothing; a table or view another program added, and a trigger or index on such a table, is noted, not a
        problem, since dolphin neither reads nor writes it; schema in --json), dangling references,
        that the search index agrees with the stored records (every knowledge item and
        memory indexed, no index entry without its record), and that it was made by this build's
        tokenizer. Upgrade work that the next search does by itself — rebuilding an index made by an
        older tokenizer, indexing again the records an upgrade rewrote — is noted as pending, not a
        problem (exit 0); an index made by a newer dolphin is noted and left alone. Exit 5 when a problem is found, when the
        workspace's schema is newer than this build (which reads it but cannot write it; newerSchema in --json), or the database
        cannot be opened (the report says why: read-only, disk full, not a directory, permission denied, not a
        database, another program's database; the checks are then "not run"); exit 3 when there is no workspace,
        or when the workspace path is a symbolic link to nothing; exit 4 when it is a symbolic link loop. A check
        that an SQLite error stops (a damaged file) is "not run"; the damage is reported once, by the integrity
        check, with the recovery steps. A first run interrupted before its schema was complete (an empty
        database file, or one between schema steps) is reported as that, not as healthy, with what completes
        it; it is not a problem, but when no schema step committed there is no workspace yet, as every other
        command says (exit 3; exit 0 between steps; interruptedFirstRun and pendingSchemaSteps in --json). In
        --json, ok is true exactly when doctor exits 0. Handoff next steps that show nothing
        (empty, whitespace or invisible characters only, which earlier imports stored) are counted and located,
        with how they go away (schema step \(StoredTextCleanupStep.name) removes them, or one sqlite3 command
        given); they are not a problem either. Stored text over a bound of this build (a title stored before
        the bound of \(Limits.unicodeScalarsPerCharacter) Unicode scalars per character existed, say) is
        counted and the first records named with the field, the limit and the size; that is advisory, and
        nothing is changed. Stored text that is not UTF-8 (bytes another program wrote, which every command
        reads as U+FFFD) is a problem, named by record and field with the sqlite3 statement that stores the
        text as dolphin reads it (invalidUTF8 in --json). A full disk is a problem (every write fails): doctor still runs every check, and
        reports the free space with what to do (diskSpace in --json). A legacy workspace.json in the
        workspace directory is named with its state — imported, not imported yet (the next write imports it)
        or cannot be imported (damaged, empty; commands go on without it) — as a note (legacyFile in --json).
        An `erase --kind all` stopped after it erased the records and before it removed the legacy files is a
        problem, with the files that still hold erased data; `dolphin erase --finish` finishes it, removing
        only those files and keeping records stored since (interruptedErase in --json).
        """),
    run: { ctx in
      let dir = ctx.workspaceDirectory
      let dbPath = dir.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
      /// Free space where the workspace is, in bytes. `full` when no byte is left, or when the
      /// open found the disk too full to open the workspace for writing (it was read anyway): a
      /// problem, since every write fails until space is freed.
      struct DiskSpaceReport: Encodable {
        var availableBytes: Int64
        var totalBytes: Int64
        /// How many more files may be created there; absent where the filesystem does not count inodes.
        var availableFiles: Int64?
        var full: Bool
        /// `0 bytes free of 2 MiB` (``DiskSpace/described(onFilesystemHolding:)``).
        func described(onFilesystemHolding path: String? = nil) -> String {
          DiskSpace(availableBytes: availableBytes, totalBytes: totalBytes, availableFiles: availableFiles)
            .described(onFilesystemHolding: path)
        }
      }
      struct OpenProblem: Encodable {
        /// no workspace, not a directory, permission denied, read-only, not a database, symbolic
        /// link, storage error.
        var reason: String
        var message: String
      }
      /// The JSON report. Each check result is `null` when that check did not run (the database
      /// could not be opened, or an interrupted first run left the schema incomplete), never a
      /// default that reads as a clean result.
      struct Report: Encodable {
        var databasePath: String
        /// True exactly when doctor exits 0: no problem found and a workspace there to use (an
        /// interrupted first run before its first schema step is no problem, but no workspace yet:
        /// false, exit 3).
        var ok: Bool
        /// Set when the database could not be opened; no check ran then.
        var openProblem: OpenProblem?
        /// Why the database was opened read-only beyond doctor's own request (files not writable here).
        var readOnlyReason: String?
        /// Set when the database's schema is newer than this build's (or records schema steps this
        /// build does not know): the reason, e.g. `schema 6 is newer than this build's 5`. This
        /// build reads such a workspace but never writes it, so every command that writes fails
        /// (exit 5): a problem for this build, though nothing in the database is wrong.
        var newerSchema: String?
        var checksRun: Bool
        /// Whether a first run was interrupted before its schema was complete (no schema step
        /// applied, or only some of those reading needs): not a problem, but not a workspace any
        /// command can use yet; the text report's last line says what completes it. `null` when
        /// the database could not be opened.
        var interruptedFirstRun: Bool?
        /// The schema steps this build knows that the database has not applied (an interrupted
        /// first run's, or an earlier build's upgrade still to finish); `null` when the database
        /// could not be opened.
        var pendingSchemaSteps: [String]?
        var integrityCheck: [String]?
        /// The schema objects the database lacks or holds beyond those its applied schema steps
        /// create (`missing`: tables and indexes dropped outside dolphin, or an index of dolphin's
        /// name on another table or defined otherwise, with `table`, `nameHeldBy` — what holds
        /// the name, with the `freeingStatement` that frees it — and, for a table of records,
        /// `renamedAs`: a table with exactly its columns, and `renamedCandidates`: every such
        /// table, best first, with its `rows` and the `dolphinIndexes` on it; `unexpected`:
        /// triggers, views, tables and indexes added, each with `isProblem` and `holdsNameOf`), and
        /// the tables whose columns differ from those the steps give them (`changed`, with
        /// `renamedAs` and `renamedCandidates`), each by
        /// name. Missing and changed ones, unexpected triggers and indexes on dolphin's tables,
        /// and objects holding a missing one's name, are problems; unexpected tables and views,
        /// and triggers and indexes on them, are notes. `null` when not run (an interrupted
        /// first run, a newer dolphin's schema).
        var schema: SchemaDifference?
        /// The legacy `workspace.json` in the workspace directory, when there is one: imported,
        /// pending (the next write imports it), changed (it differs from a legacy file imported
        /// before, with `earlierFile` and `earlierImportedAt`; not imported automatically) or
        /// notImportable (with the reason: it cannot be read or decoded, or its import would be
        /// refused; writes go on without it). Not a problem of the workspace either way. `null`
        /// when there is none.
        var legacyFile: LegacyFileStatus?
        /// The files an `erase --kind all` that was interrupted after it committed (killed, or a
        /// removal failed) left holding erased data: legacy backups, a legacy `workspace.json`.
        /// A problem; `dolphin erase --finish` removes them and touches no record (review 29-b, 3:
        /// the whole erase run again erased the records stored since, too). `legacyFile` is then
        /// `null`: such a `workspace.json` is erased data, not a file to import. `null` when no
        /// erase was interrupted, or when the check did not run (review 29a, 2).
        var interruptedErase: [String]?
        /// Records whose JSON columns cannot be decoded (commands reading them refuse the workspace).
        var malformedRecords: [WorkspaceTransaction.MalformedJSON]?
        /// Records whose id is not a UUID (commands reading them refuse the workspace), by
        /// table and row id.
        var malformedIDs: [WorkspaceTransaction.MalformedID]?
        var referenceProblems: [String]?
        var searchIndexProblems: [String]?
        /// Indexed records compared with their search index entries, and those that no longer
        /// match them (changed outside dolphin; `dolphin reindex` repairs them): `checked`,
        /// `staleCount`, and the first 20 in `stale`. `null` when not run (also while records hold
        /// malformed JSON, reported above), or when the index was built by another tokenizer
        /// version (then every entry differs, and the notes say why).
        var searchIndexStaleRecords: SearchIndexFreshness?
        /// Facts about the search index that are not problems: one built by a newer dolphin, or
        /// pending upgrade work (an index built by an older tokenizer, documents listed for
        /// indexing again) that the next search does by itself.
        var searchIndexNotes: [String]?
        /// Whether the search index has upgrade work pending (named in `searchIndexNotes`); not a
        /// problem: the next search where the workspace can be written does it.
        var searchIndexUpgradePending: Bool?
        var quarantined: Int?
        var credentials: CredentialFlagReport?
        /// Handoff next steps that show nothing, by handoff (`count` 0 when there are none).
        var blankNextSteps: BlankNextStepReport?
        /// The one shell command that removes every blank next step listed in `blankNextSteps`
        /// (and those past its list, in as many handoffs as one command line holds: some 800,
        /// far above the 200 a workspace holds; the text advice says when it covers fewer than
        /// all); `null` when there are none, or when the pending upgrade removes them.
        var blankNextStepsCommand: String?
        /// Stored records with text over a bound of this build (`count` 0 when there are none);
        /// advisory, not a problem.
        var textOverBounds: TextOverBoundReport?
        /// Stored values that no dolphin command stores and an import refuses on a record it
        /// writes — a NUL in text, a control character or a comma in a tag —, so that the workspace's export
        /// cannot be restored into an empty workspace; each with the SQL that removes those
        /// characters and keeps the text (`count` 0 when there are none). A problem.
        var refusedText: RefusedTextReport?
        /// Stored text that is not UTF-8 (bytes another program wrote), in the same columns as
        /// `refusedText` and the settings: every command reads each ill-formed sequence as U+FFFD,
        /// so what is shown and exported differs from what is stored; each with the SQL that
        /// stores the text as it reads (`count` 0 when there are none). A problem.
        var invalidUTF8: InvalidUTF8Report?
        /// Stored records that break another rule of `dolphin import` — an `updatedAt` before its
        /// `createdAt`, receipt arguments that are not JSON, an empty title, a setting out of
        /// range, … (``ImportRefusal``) —, so that the workspace's export cannot be restored
        /// into an empty workspace; each with the rule, a fix that keeps the record, and where
        /// one statement does it, the SQL. Text over a bound of knowledge, memories, tasks and
        /// handoffs is left to `textOverBounds`. A problem. `null` when not run (also while
        /// records hold malformed JSON or ids, reported above).
        var importRefusals: [ImportRefusal]?
        /// Records no check above names that an export cannot decode all the same — a date that
        /// is not a date, a reference that is not a record id (written by another program) —,
        /// each `table id: why`; commands reading them refuse the workspace, and an export
        /// carries them as stored (`unreadable`, exit 6). A problem. `null` when not run (as
        /// `importRefusals`).
        var unreadableRecords: [String]?
        /// Set when a check stopped with an error although SQLite's integrity check passed; that
        /// check and the ones after it did not run (their results are `null`). When the
        /// integrity check found damage, that is the report, and a check it stopped is only
        /// marked not run.
        var checkError: String?
        /// Set when the `-wal` beside the database holds bytes that do not start with a WAL
        /// header (``walHeaderProblem(databasePath:)``): SQLite ignores such a file, so changes
        /// committed only in it are lost, though the database itself is consistent.
        var walProblem: String?
        /// The free space of the filesystem holding the workspace (`statvfs`); `null` when it
        /// could not be asked (no workspace directory).
        var diskSpace: DiskSpaceReport? = nil
        var advice: [String]

        enum CodingKeys: String, CodingKey {
          case databasePath, ok, openProblem, readOnlyReason, newerSchema, checksRun, interruptedFirstRun, pendingSchemaSteps
          case integrityCheck, schema, legacyFile, interruptedErase, malformedRecords, malformedIDs
          case referenceProblems, searchIndexProblems, searchIndexStaleRecords, searchIndexNotes, searchIndexUpgradePending
          case quarantined
          case credentials, blankNextSteps, blankNextStepsCommand, textOverBounds, refusedText, invalidUTF8, importRefusals
          case unreadableRecords, checkError
          case walProblem, diskSpace
          case advice
        }

        func encode(to encoder: any Encoder) throws {
          var c = encoder.container(keyedBy: CodingKeys.self)
          try c.encode(databasePath, forKey: .databasePath)
          try c.encode(ok, forKey: .ok)
          try c.encodeIfPresent(openProblem, forKey: .openProblem)
          try c.encodeIfPresent(readOnlyReason, forKey: .readOnlyReason)
          try c.encode(newerSchema, forKey: .newerSchema)
          try c.encode(checksRun, forKey: .checksRun)
          try c.encode(interruptedFirstRun, forKey: .interruptedFirstRun)
          try c.encode(pendingSchemaSteps, forKey: .pendingSchemaSteps)
          // Explicit nulls: a check that did not run has no result, and says so.
          try c.encode(integrityCheck, forKey: .integrityCheck)
          try c.encode(schema, forKey: .schema)
          try c.encode(legacyFile, forKey: .legacyFile)
          try c.encode(interruptedErase, forKey: .interruptedErase)
          try c.encode(malformedRecords, forKey: .malformedRecords)
          try c.encode(malformedIDs, forKey: .malformedIDs)
          try c.encode(referenceProblems, forKey: .referenceProblems)
          try c.encode(searchIndexProblems, forKey: .searchIndexProblems)
          try c.encode(searchIndexStaleRecords, forKey: .searchIndexStaleRecords)
          try c.encode(searchIndexNotes, forKey: .searchIndexNotes)
          try c.encode(searchIndexUpgradePending, forKey: .searchIndexUpgradePending)
          try c.encode(quarantined, forKey: .quarantined)
          try c.encode(credentials, forKey: .credentials)
          try c.encode(blankNextSteps, forKey: .blankNextSteps)
          try c.encode(blankNextStepsCommand, forKey: .blankNextStepsCommand)
          try c.encode(textOverBounds, forKey: .textOverBounds)
          try c.encode(refusedText, forKey: .refusedText)
          try c.encode(invalidUTF8, forKey: .invalidUTF8)
          try c.encode(importRefusals, forKey: .importRefusals)
          try c.encode(unreadableRecords, forKey: .unreadableRecords)
          try c.encodeIfPresent(checkError, forKey: .checkError)
          try c.encode(walProblem, forKey: .walProblem)
          try c.encode(diskSpace, forKey: .diskSpace)
          try c.encode(advice, forKey: .advice)
        }
      }
      var report = Report(
        databasePath: dbPath, ok: true, openProblem: nil, readOnlyReason: nil, checksRun: false,
        interruptedFirstRun: nil, pendingSchemaSteps: nil, integrityCheck: nil,
        malformedRecords: nil, referenceProblems: nil, searchIndexProblems: nil, searchIndexNotes: nil,
        searchIndexUpgradePending: nil, quarantined: nil, credentials: nil, blankNextSteps: nil, advice: [])
      var indexDisagrees = false
      /// Set when the index disagrees for another reason than records changed after they were
      /// indexed (entries missing, left without their record, sums off).
      var indexOtherProblems = false
      /// Set when the schema lacks a table that holds records, or such a table lacks a column:
      /// the other checks, which read them, do not run.
      var schemaStopsChecks = false
      /// Set when the schema lacks a table, or a derived table's columns differ: the search
      /// index checks, which read its tables, do not run.
      var searchIndexTablesMissing = false
      /// SQL that gives a damaged list its readable entries back, by `table.column.id`.
      var listRepairs: [String: String] = [:]
      /// What removes the blank next steps found, once the checks know.
      var blankNextStepRemedy = ""
      var tokenizer = SearchIndexTokenizerStatus.current
      var exitCode = ExitCode.storage
      var store: SQLiteWorkspaceStore?
      // What exists beside the database before the read-only open, which creates a missing -wal
      // and -shm and cannot remove them: doctor removes them afterwards, to leave the files as found.
      let sideFiles = SQLiteSideFiles(databasePath: dbPath)
      // Read before SQLite opens the files: a later write would start the log afresh.
      report.walProblem = walHeaderProblem(databasePath: dbPath)
      switch Result(catching: { () throws(WorkspaceError) in try SQLiteWorkspaceStore.open(directory: dir, readOnly: true) }) {
      case .success(let opened): store = opened
      case .failure(let error):
        let kind = SQLiteWorkspaceStore.openFailure(error, directory: dir)
        // SQLite's own words for an unreadable file ("unable to open database file; nothing was
        // written") name neither the cause nor fit a read: say it as the other commands do.
        let message =
          kind == .permissionDenied
          ? "\(dbPath): permission denied: this user may not read the workspace files" : openMessage(error)
        report.openProblem = OpenProblem(reason: kind.rawValue, message: message)
        report.advice = openAdvice(kind, error: error, directory: dir.path, databasePath: dbPath)
        if kind == .noWorkspace {
          exitCode = ExitCode.notFound
          // A legacy file waiting for the first write is named before there is a workspace too
          // (review 27-a, 6).
          report.legacyFile = try KnowledgeEngine.legacyFileStatus(in: dir, store: nil, now: Date())
          if report.legacyFile?.state == "pending" {
            report.advice.append(
              "The directory holds a legacy \(KnowledgeEngine.legacyFileName): the first command that stores something "
                + "imports it, or `"
                + SuggestedCommand("dolphin migrate \(dir.standardizedFileURL.appendingPathComponent(KnowledgeEngine.legacyFileName).path)")
                .naming(workspace: dir.standardizedFileURL.path) + "` alone.")
          }
        }
        // As for every other path argument: a link to nothing is not found, a loop unreadable input.
        if kind == .symbolicLink {
          let problem = PathProblem.linkInTheWay(ofDirectory: dir.path)?.problem ?? PathProblem.of(dbPath)
          exitCode = problem?.isMissing == true ? ExitCode.notFound : ExitCode.validation
        }
      }
      /// Set when a first run was interrupted before its schema was complete: whether it stopped
      /// before the first schema step (the file holds no schema: no workspace yet).
      var interruptedBeforeFirstStep: Bool?
      if let store {
        report.checksRun = true
        report.pendingSchemaSteps = store.pendingMigrationSteps
        report.interruptedFirstRun = !store.pendingMigrationStepsNeededForReading.isEmpty
        do {
          report.integrityCheck = try store.integrityCheck()
          if !store.pendingMigrationStepsNeededForReading.isEmpty {
            // A first run was interrupted before its schema was complete: the tables the other
            // checks read may not exist yet. Nothing is wrong, but it is no workspace to use yet.
            let pending = " (pending step(s): " + store.pendingMigrationSteps.joined(separator: ", ") + ")"
            let beforeFirstStep = store.pendingMigrationSteps.first == WorkspaceSchema.steps.first?.name
            interruptedBeforeFirstStep = beforeFirstStep
            report.advice.append(
              beforeFirstStep
                ? "The workspace database holds no schema yet: a first run was interrupted before its first write "
                  + "committed (the schema is created with it), or is still running in another process (a first `import` "
                  + "or `migrate` writes everything in one transaction)\(pending). Nothing is stored in it, and nothing was changed. The first command that stores "
                  + "something (e.g. `\(command: "dolphin capture KIND TITLE")`) completes it; until then the other commands say there is no "
                  + "workspace here yet (exit 3)."
                // Any writable open applies the remaining steps, whatever the command.
                : "The workspace schema is not complete yet\(pending): a first run was interrupted between schema "
                  + "steps. Nothing was changed. The next dolphin command run where the workspace can be written "
                  + "(`\(command: "dolphin status")` will do) completes it.")
          } else {
            // First: a table dropped outside dolphin is no damage to SQLite, and the checks below
            // read the tables (review 25-a, 1).
            let schema = try KnowledgeEngine(store: store).schemaDifference()
            report.schema = schema
            let missingTables = (schema?.missing ?? []).filter { $0.object.type == "table" }
            let changedTables = schema?.changed ?? []
            // A record table with a column more (or declared otherwise) is still read; one
            // lacking a column fails every read of it ("no such column").
            schemaStopsChecks =
              missingTables.contains { !$0.recreatedByReindex }
              || changedTables.contains { !$0.recreatedByReindex && !$0.missingColumns.isEmpty }
            searchIndexTablesMissing = !missingTables.isEmpty || changedTables.contains(where: \.recreatedByReindex)
            if !schemaStopsChecks {
              // Review 26-a, 1: a damaged workspace.json refused every write, and doctor said nothing.
              report.legacyFile = try KnowledgeEngine(store: store).legacyFileStatus(in: dir)
              // Review 29a, 2: an erase killed between its commit and its file removals.
              report.interruptedErase = try KnowledgeEngine(store: store).interruptedEraseFiles()
              if report.interruptedErase != nil { report.legacyFile = nil }
              report.malformedRecords = try store.read { tx in try tx.malformedJSON() }
              // Before the checks that read records: they skip such records rather than stop.
              report.malformedIDs = try store.read { tx in try tx.malformedIDs() }
              let writable = SQLiteWorkspaceStore.writeBlocker(databasePath: dbPath) == nil
              if !store.pendingMigrationSteps.isEmpty {
                // A workspace from an earlier build: readable as it is; the upgrade is not a fault.
                report.advice.append(
                  "The workspace was made by an earlier dolphin: schema upgrade step(s) "
                    + store.pendingMigrationSteps.joined(separator: ", ") + " are not applied yet. Commands read it as it is; "
                    + (writable
                      ? "the next command finishes the upgrade."
                      : "the upgrade finishes the next time a command opens it where it can be written."))
              }
              let s = try KnowledgeEngine(store: store).status(credentialScanBytes: 1 << 30)
              // status lists the malformed records among its problems; doctor shows them on their own.
              let malformed = Set(
                (report.malformedRecords ?? []).map(\.description) + (report.malformedIDs ?? []).map(\.description)
                  + (schema?.problems ?? []))
              report.referenceProblems = s.integrityProblems.filter { !malformed.contains($0) }
              report.quarantined = s.quarantined
              report.credentials = s.credentials
              // Every handoff, for the command that removes them all; the report lists the first 20.
              let blankEverywhere = try store.read { tx in try tx.blankNextSteps(limit: .max) }
              let blank = BlankNextStepReport(
                count: blankEverywhere.count, handoffCount: blankEverywhere.handoffCount,
                handoffs: Array(blankEverywhere.handoffs.prefix(20)))
              report.blankNextSteps = blank
              (blankNextStepRemedy, report.blankNextStepsCommand) = blankNextStepAdvice(
                blankEverywhere, removedByPendingStep: store.pendingMigrationSteps.contains(StoredTextCleanupStep.name),
                writable: writable, databasePath: dbPath)
              report.textOverBounds = try store.read { tx in try tx.textOverBounds() }
              report.refusedText = try store.read { tx in try tx.refusedText() }
              // Review 29-a: text another program wrote that is not UTF-8 read as valid.
              report.invalidUTF8 = try store.read { tx in try tx.invalidUTF8Text() }
              // Read as an export reads the workspace, which records that cannot be read stop.
              if (report.malformedRecords ?? []).isEmpty && (report.malformedIDs ?? []).isEmpty {
                let document = try KnowledgeEngine(store: store).exportWorkspace(generator: "dolphin doctor")
                // The export reads past what it cannot decode (review 29-a, 8): what it left out is a problem.
                report.unreadableRecords = document.unreadableRecords.map(\.description)
                report.importRefusals = KnowledgeEngine.importRefusals(of: document).filter { refusal in
                  // Listed under Text bounds, as advisory there.
                  !(refusal.rule == .textBound && ["knowledge", "memories", "tasks", "handoffs"].contains(refusal.collection))
                }
              }
              // A list unreadable only for control characters inside its texts gets its entries back.
              for m in report.malformedRecords ?? [] where m.problem == "malformed JSON" {
                if let fix = try store.read({ tx in try tx.readableListRepair(table: m.table, column: m.column, id: m.id) }) {
                  listRepairs[m.table + "." + m.column + "." + m.id] = fix
                }
              }
              if !searchIndexTablesMissing {
                let engine = KnowledgeEngine(store: store)
                // A pending tag-rewriting step (0006/0007) rewrites stored tags and their tag filter
                // rows together: until it runs they may differ, which is upgrade work, not a problem.
                let tagStepPending = store.pendingMigrationSteps.contains {
                  $0 == TagNormalizationStep.name || $0 == StoredTextCleanupStep.name
                }
                var indexProblems = try engine.verifySearchIndex() + (tagStepPending ? [] : engine.verifyTagFilterRows())
                indexOtherProblems = !indexProblems.isEmpty
                // Records changed by another program after they were indexed (an `UPDATE` through
                // sqlite3): the sums above still agree, their entries describe the old text. Not
                // while records hold malformed JSON: reading them fails, and they are reported above
                // with their recovery steps (which end with `dolphin reindex`).
                let freshness =
                  (report.malformedRecords ?? []).isEmpty ? try engine.searchIndexFreshness(listing: 20) : nil
                report.searchIndexStaleRecords = freshness
                if let freshness, freshness.staleCount > 0 {
                  indexProblems.append(staleIndexProblem(freshness))
                }
                indexDisagrees = !indexProblems.isEmpty
                tokenizer = try engine.searchIndexTokenizerStatus()
                var indexNotes: [String] = []
                var upgradePending = false
                // Upgrade work the next search does by itself is noted, not a problem.
                let nextSearch =
                  writable
                  ? "the next search (or other command that ranks) does it by itself, or run `\(command: "dolphin reindex")` now"
                  : "the next search run where the workspace can be written does it by itself (until then searches "
                    + "here read every record instead, which is slower)"
                switch tokenizer {
                case .current: break
                case .stale(.version(let n)):
                  indexNotes.append(
                    "pending: the search index was built with tokenizer version \(n) and this build tokenizes with "
                      + "version \(Tokenizer.version), so it is to be rebuilt from the records; \(nextSearch)")
                  upgradePending = true
                case .stale(let built):
                  // Not left by an earlier build: something else wrote the version.
                  indexProblems.append(
                    "the search index records \(built) of its tokenizer; this build tokenizes with version "
                      + "\(Tokenizer.version), so stored terms may not match queries until it is rebuilt")
                case .newer(let n):
                  indexNotes.append(
                    "the search index was built by a newer dolphin (tokenizer version \(n); this build's is "
                      + "\(Tokenizer.version)); this build leaves it as it is and its searches read every record instead")
                }
                let pendingDocuments = try engine.searchIndexDocumentsPendingReindex()
                if pendingDocuments > 0 {
                  // A rebuild (stale tokenizer) indexes every document anyway; a newer index is left
                  // to the newer dolphin.
                  let who: String
                  switch tokenizer {
                  case .current: who = nextSearch
                  case .stale: who = "the rebuild indexes them again"
                  case .newer: who = "this build leaves the index to the newer dolphin, which indexes them again"
                  }
                  indexNotes.append(
                    "pending: \(pendingDocuments) search index document(s) predate a change to their record's tags "
                      + "(schema step \(WorkspaceSchema.tagRewritingStepNames)), or were written by a dolphin older than the index, "
                      + "and are to be indexed again; \(who)")
                  upgradePending = true
                }
                report.searchIndexProblems = indexProblems
                report.searchIndexNotes = indexNotes
                report.searchIndexUpgradePending = upgradePending
              }
            }
          }
        } catch {
          // A check that fails with an error did not complete: its result stays `null` ("not
          // run"), never a problem found in the records (an SQLite error is not a bad reference).
          let message = (error as? WorkspaceError).map(openMessage) ?? String(describing: error)
          if report.integrityCheck == nil {
            report.integrityCheck = [message]  // The integrity check itself could not run.
          } else if report.integrityCheck == ["ok"] {
            report.checkError = message
          }  // Otherwise the integrity check already reports the damage that stopped it.
        }
        switch store.readOnlyCause {
        case .newerSchema(let reason):
          // Review 22, 2: reported as healthy (exit 0) while every write failed with exit 5.
          report.newerSchema = reason
          report.advice.append(
            "The database is newer than this build (\(reason)): this build can read it but not write it, so every "
              + "command that stores or changes something fails (exit 5) until dolphin is upgraded. Upgrade dolphin. "
              + "It was not modified.")
        case .unwritable(let reason, _) where store.isOnFullDisk:
          // What to do is said once, in the disk's advice (below).
          report.readOnlyReason = reason
        case .unwritable(let reason, _):
          report.readOnlyReason = store.readOnlyReason
          report.advice.append(
            "The workspace cannot be written here (\(reason)); the checks read it as it is on disk. Commands that "
              + "only read work; commands that write fail until it is writable.")
        default: break
        }
      }
      // Asked once the open has tried: a full disk shows as the open falling back to reading.
      let openedOnFullDisk =
        store?.isOnFullDisk == true || report.openProblem?.reason == SQLiteWorkspaceStore.OpenFailure.diskFull.rawValue
      if let space = DiskSpace.of(dir.path) {
        report.diskSpace = DiskSpaceReport(
          availableBytes: space.availableBytes, totalBytes: space.totalBytes, availableFiles: space.availableFiles,
          full: space.isFull || openedOnFullDisk)
      }
      store?.closeConnection()
      store = nil
      if let note = sideFileNote(sideFiles.removeCreated()) { report.advice.append(note) }
      // Everything but the schema's version: a newer schema alone is named as such, not as
      // problems in the records.
      let healthyButForSchema =
        report.openProblem == nil && report.integrityCheck == ["ok"] && !(report.schema?.hasProblems ?? false)
        && (report.malformedRecords ?? []).isEmpty
        && (report.malformedIDs ?? []).isEmpty
        && (report.referenceProblems ?? []).isEmpty && (report.searchIndexProblems ?? []).isEmpty
        && (report.refusedText?.count ?? 0) == 0 && (report.importRefusals ?? []).isEmpty && report.checkError == nil
        && (report.unreadableRecords ?? []).isEmpty && (report.invalidUTF8?.count ?? 0) == 0
        && report.walProblem == nil && report.diskSpace?.full != true && report.interruptedErase == nil
      let healthy = healthyButForSchema && report.newerSchema == nil
      // True exactly when doctor exits 0 (review 19-d, #8: it was true beside exit 3 for an empty
      // workspace.sqlite): no problem found, and a workspace there to use.
      report.ok = healthy && interruptedBeforeFirstStep != true
      if let problem = report.walProblem {
        report.advice.append(
          "The write-ahead log \(problem), so SQLite ignores it: changes committed only in it "
            + "(not yet copied into \(Limits.shownPath(dbPath))) are lost, while the database itself is consistent. "
            + "If work from the last session is missing, restore it from an export (`dolphin import`) or a backup. "
            + "The next write starts the log afresh.")
      }
      if let space = report.diskSpace, space.full, report.openProblem == nil {
        report.advice.append(
          "The disk holding the workspace is full (\(space.described())): every command that stores something fails, and nothing stored is "
            + "lost; the checks above read the workspace as it is on disk. Free space on that disk (remove or move files "
            + "there), then run `\(command: "dolphin doctor")` again; until then commands that only read work, and "
            + "`\(command: "dolphin export --output FILE")`, with FILE on another disk, saves a copy of everything.")
      }
      if report.checksRun, report.integrityCheck != ["ok"] {
        report.advice += ["The database file failed SQLite's integrity check. Nothing was changed."] + recoverySteps(dir.path, dbPath)
      }
      if let schema = report.schema, !schema.isEmpty {
        report.advice += schemaAdvice(schema, checksStopped: schemaStopsChecks, dir.path, dbPath)
      }
      if report.checkError != nil, !(report.schema?.missing ?? []).isEmpty || !(report.schema?.changed ?? []).isEmpty {
        report.advice.append(
          "A check stopped with an error (above): it reads what the schema lacks or has changed (named under Schema), so it and the "
            + "checks after it did not run. Nothing was changed. Repair the schema as said, then run "
            + "`\(command: "dolphin doctor")` again.")
      } else if report.checkError != nil {
        report.advice +=
          ["A check stopped with an error (above) although the integrity check passed, so it and the checks "
            + "after it did not run. Nothing was changed. Run `\(command: "dolphin doctor")` again once no other process is writing; if "
            + "the error comes back, treat the database as damaged:"] + recoverySteps(dir.path, dbPath)
      }
      if let files = report.interruptedErase {
        report.advice.append(
          "An erase of everything (`\(command: "dolphin erase --kind all")`) was interrupted after it erased the records and before it "
            + "removed \(files.count == 1 ? "this file, which still holds" : "these files, which still hold") erased data: "
            + files.map { shownValue($0) }.joined(separator: ", ") + ". Nothing was changed. Run `\(command: "dolphin erase --finish")`: "
            + "it removes \(files.count == 1 ? "it" : "them") and touches no record, so records stored since the interruption stay "
            + "(`\(command: "dolphin erase --kind all")` would erase those too).")
      }
      if let malformed = report.malformedRecords, !malformed.isEmpty {
        report.advice += malformedRecordSteps(malformed, dir.path, dbPath, repairs: listRepairs)
      }
      if let ids = report.malformedIDs, !ids.isEmpty {
        report.advice += malformedIDSteps(ids, dir.path, dbPath)
      }
      if let problems = report.referenceProblems, !problems.isEmpty {
        report.advice.append(
          "Reference problems were found (dangling references or supersede cycles); they name the ids involved. "
            + "Delete or fix the records that hold them.")
      }
      if indexDisagrees, indexOtherProblems {
        report.advice.append(
          "The search index disagrees with the stored records; `\(command: "dolphin reindex")` rebuilds it from them.")
      }
      if indexDisagrees, let stale = report.searchIndexStaleRecords, stale.staleCount > 0 {
        report.advice.append(staleRecordAdvice(stale.staleCount))
      }
      switch tokenizer {
      case .current, .stale(.version): break  // Pending work, noted above.
      case .stale:
        report.advice.append(
          "The search index's tokenizer version is unreadable (the records are intact); "
            + "the first search run where the workspace can be written rebuilds it, or run `\(command: "dolphin reindex")` now.")
      case .newer:
        report.advice.append(
          "A newer dolphin built the search index. This build searches without it (slower) and leaves it alone, so "
            + "the two builds do not rebuild it back and forth; upgrade this dolphin to search it directly.")
      }
      if let credentials = report.credentials, credentials.count > 0 {
        report.advice.append(credentialAdvice(credentials))
      }
      if let blank = report.blankNextSteps, blank.count > 0 {
        report.advice.append(blankNextStepRemedy)
      }
      if let over = report.textOverBounds, over.count > 0 {
        report.advice.append(textOverBoundAdvice(over))
      }
      if let refused = report.refusedText, refused.count > 0 {
        report.advice.append(refusedTextAdvice(refused, dir.path, dbPath))
      }
      if let refusals = report.importRefusals, !refusals.isEmpty {
        report.advice.append(importRefusalAdvice(refusals, dir.path, dbPath))
      }
      if let invalid = report.invalidUTF8, invalid.count > 0 {
        report.advice.append(invalidUTF8Advice(invalid, dir.path, dbPath))
      }
      if let unreadable = report.unreadableRecords, !unreadable.isEmpty {
        report.advice.append(
          "\(unreadable.count) record(s) (listed above) hold a value dolphin cannot read — a date that is not an ISO-8601 "
            + "date, a reference that is not a record id — that another program wrote. Commands that read them refuse the "
            + "workspace as damaged; `\(command: "dolphin export --output FILE")` writes every other record as usual and these as "
            + "stored, in its `unreadable` section. Nothing was changed. To repair one, stop every dolphin process using this "
            + "workspace, copy the directory \(dir.path) somewhere safe, and set the value named to one dolphin reads with "
            + "`sqlite3 \(ShellWord.quoted(dbPath))` (a date as 2026-11-29T18:19:32.000Z, a reference as the id of a record "
            + "that exists), or delete the row; then run `\(command: "dolphin doctor")` again.")
      }
      if let quarantined = report.quarantined, quarantined > 0 {
        report.advice.append("\(quarantined) imported record(s) were kept aside verbatim in the quarantine table; they are listed by `\(command: "dolphin quarantine")`.")
      }
      let failure: ReportedFailure? =
        if let problem = report.openProblem {
          ReportedFailure(code: exitCode, message: "cannot open the workspace (\(problem.reason)): \(problem.message)")
        } else if let reason = report.newerSchema, healthyButForSchema {
          ReportedFailure(
            code: ExitCode.storage,
            message: "this build cannot write the workspace: its schema is newer (\(reason)); upgrade dolphin (see the report)")
        } else if !healthy {
          ReportedFailure(code: ExitCode.storage, message: "the workspace has problems (see the report)")
        } else if interruptedBeforeFirstStep == true {
          // No workspace yet, as every other command says (exit 3), though nothing is wrong.
          ReportedFailure(
            code: ExitCode.notFound,
            message: "no workspace at \(Limits.shownPath(dir.path)) yet: its workspace.sqlite holds no schema (see the report)")
        } else {
          nil
        }
      if ctx.json {
        try ctx.console.printJSON(report, failure: failure)
      } else {
        let c = ctx.console
        c.print("Database: \(shownValue(dbPath))")
        if let problem = report.openProblem {
          c.print("Open: failed (\(problem.reason)): \(problem.message)")
        } else if let reason = report.readOnlyReason {
          c.print("Open: read-only (\(reason))")
        }
        if let reason = report.newerSchema { c.print("Schema: newer than this build (\(reason)): read-only here, not writable by this build") }
        // A check that did not run says so, whatever the reason.
        let notRun = "not run"
        if let problem = report.walProblem { c.print("Write-ahead log: \(problem)") }
        if let space = report.diskSpace, space.full {
          c.print("Disk: full: \(space.described(onFilesystemHolding: dir.path))")
        }
        c.print("PRAGMA integrity_check: " + (report.integrityCheck.map { $0.prefix(10).joined(separator: "; ") } ?? notRun))
        if let schema = report.schema {
          let foreign = schema.unexpected.filter(\.isProblem).count
          let noted = schema.unexpected.filter { !$0.isProblem }
          let tablesNoted = noted.filter { $0.object.type == "table" || $0.object.type == "view" }.count
          // Review 26-b, 8: an index or trigger on a table of the user's own is a note too.
          let onThemNoted = noted.count - tablesNoted
          let notes =
            noted.isEmpty
            ? nil
            : "\(tablesNoted) table(s) or view(s) not created by dolphin"
              + (onThemNoted == 0 ? "" : " and \(onThemNoted) index(es) or trigger(s) on them") + " (not a problem)"
          c.print(
            "Schema: "
              + (!schema.hasProblems
                ? "every table and index the schema steps create, with their columns, and " + (notes ?? "nothing else")
                : [
                  schema.missing.isEmpty ? nil : "\(schema.missing.count) missing",
                  schema.changed.isEmpty ? nil : "\(schema.changed.count) with other columns",
                  foreign == 0 ? nil : "\(foreign) not created by dolphin",
                  notes,
                ].compactMap { $0 }.joined(separator: ", ")))
          // Names come from sqlite_master, which another program wrote: one inert line each.
          for p in schema.problems { c.print("  - \(inert(escapingLineBreaks(p)))") }
          for n in schema.notes { c.print("  note: \(inert(escapingLineBreaks(n)))") }
        } else if report.newerSchema == nil {  // Otherwise said above: a newer dolphin's schema is not compared.
          c.print("Schema: \(notRun)")
        }
        if let files = report.interruptedErase {
          c.print("Erase: interrupted; \(files.count) file(s) still hold erased data (see below)")
        }
        if let legacy = report.legacyFile {
          switch legacy.state {
          case "imported":
            c.print("Legacy \(KnowledgeEngine.legacyFileName): imported" + (legacy.importedAt.map { " on \(Render.date($0))" } ?? ""))
          case "pending":
            c.print(
              "Legacy \(KnowledgeEngine.legacyFileName): not imported yet; the next command that writes imports it (records "
                + "this workspace holds already are left as they are)")
          case "changed":
            // Review 26-b, 5: such a file was called "not imported yet", and no write imports it.
            let when: String = legacy.earlierImportedAt.map { " on \(Render.date($0))" } ?? ""
            let earlier: String = inert(legacy.earlierFile ?? "?")
            c.print(
              "Legacy \(KnowledgeEngine.legacyFileName): differs from the legacy file (\(earlier)) imported\(when), so no "
                + "command imports it by itself (records deleted or erased since stay gone); `\(SuggestedCommand("dolphin migrate \(legacy.path) --again").naming(workspace: dir.standardizedFileURL.path))` imports "
                + "its records this workspace does not hold, those deleted or erased since included.")
          case "importRecordLost":
            c.print(
              "Legacy \(KnowledgeEngine.legacyFileName): " + inert(escapingLineBreaks(legacy.reason ?? ""))
                + " (records deleted or erased since stay gone). `"
                + SuggestedCommand("dolphin migrate \(legacy.path) --again").naming(workspace: dir.standardizedFileURL.path)
                + "` imports its records this workspace does not hold, those deleted or erased since included.")
          default:
            let reason = legacy.reason ?? ""
            c.print(
              "Legacy \(KnowledgeEngine.legacyFileName): cannot be imported (not a problem of the workspace; commands go on "
                + "without it): " + inert(escapingLineBreaks(reason)) + (reason.hasSuffix(".") ? "" : "."))
          }
        }
        let notRunForSchema =
          "not run (it reads the tables "
          + ((report.schema?.changed ?? []).isEmpty
            ? "missing"
            // An index missing beside a changed table (left on the table it replaced) is read by no check.
            : !(report.schema?.missing ?? []).contains { $0.object.type == "table" } ? "changed" : "missing or changed")
          + " above)"
        if let malformed = report.malformedRecords {
          let unknownNames = malformed.filter { WorkspaceTransaction.enumColumn($0.table, $0.column) != nil }.count
          let parts = [
            malformed.count > unknownNames ? "\(malformed.count - unknownNames) with malformed JSON" : nil,
            unknownNames > 0 ? "\(unknownNames) with an unknown value" : nil,
          ].compactMap { $0 }
          c.print("Records: " + (malformed.isEmpty ? "every JSON column and named value is readable" : parts.joined(separator: ", ")))
          for m in malformed.prefix(20) { c.print("  - \(inert(m.description))") }
        } else {
          c.print("Records: " + (schemaStopsChecks ? notRunForSchema : notRun))
        }
        if let ids = report.malformedIDs {
          c.print("Record ids: " + (ids.isEmpty ? "every id is a UUID" : "\(ids.count) not a UUID"))
          for m in ids.prefix(20) { c.print("  - \(inert(m.description))") }
          if ids.count > 20 { c.print("  … and \(ids.count - 20) more") }
        } else {
          c.print("Record ids: " + (schemaStopsChecks ? notRunForSchema : notRun))
        }
        if let problems = report.referenceProblems {
          c.print("References: " + (problems.isEmpty ? "ok" : "\(problems.count) problem(s)"))
          // One line each: a problem may quote an id read from a record edited outside dolphin.
          for p in problems.prefix(20) { c.print("  - \(inert(escapingLineBreaks(p)))") }
        } else {
          c.print("References: " + (schemaStopsChecks ? notRunForSchema : notRun))
        }
        if let problems = report.searchIndexProblems {
          c.print(
            "Search index: "
              + (!problems.isEmpty
                ? "\(problems.count) problem(s)"
                : report.searchIndexUpgradePending == true
                  ? "upgrade work pending (not a problem; see the note)"
                  // Review 21-a, 3: the check of each entry against its record's text did not
                  // run (records above cannot be read), so agreement was not shown.
                  : report.searchIndexStaleRecords == nil && !(report.malformedRecords ?? []).isEmpty
                    ? "every record has its entries, but whether they match the records' current text was not "
                      + "checked (not run while records listed above cannot be read; run `\(command: "dolphin doctor")` again "
                      + "once they are repaired)"
                    : "agrees with the records"))
          // A problem may quote an id read from a record edited outside dolphin.
          for p in problems { c.print("  - \(inert(p))") }
          for n in report.searchIndexNotes ?? [] { c.print("  note: \(n)") }
        } else {
          c.print("Search index: " + (searchIndexTablesMissing ? notRunForSchema : notRun))
        }
        if let credentials = report.credentials {
          for line in credentialLines(credentials) { c.print(line) }
        } else {
          c.print("Credentials: \(notRun)")
        }
        for line in blankNextStepLines(report.blankNextSteps) { c.print(line) }
        for line in textOverBoundLines(report.textOverBounds) { c.print(line) }
        for line in refusedTextLines(report.refusedText) { c.print(line) }
        for line in invalidUTF8Lines(report.invalidUTF8) { c.print(line) }
        let unreadable = !(report.malformedRecords ?? []).isEmpty || !(report.malformedIDs ?? []).isEmpty
        for line in importRefusalLines(report.importRefusals, recordsUnreadable: unreadable) { c.print(line) }
        if let others = report.unreadableRecords, !others.isEmpty {
          c.print("Unreadable values: \(others.count) record(s) cannot be decoded:")
          for o in others.prefix(20) { c.print("  - \(inert(escapingLineBreaks(o)))") }
          if others.count > 20 { c.print("  … and \(others.count - 20) more") }
        }
        if let error = report.checkError { c.print("Checks stopped: \(inert(error))") }
        for a in report.advice { c.print(a) }
        c.print(
          report.openProblem != nil
            ? "Doctor: the database could not be opened; nothing was checked."
            : !healthy
              ? (report.newerSchema != nil && healthyButForSchema
                ? "Doctor: not writable by this build: the workspace's schema is newer; upgrade dolphin."
                : "Doctor: problems found.")
              : interruptedBeforeFirstStep == true
                ? "Doctor: no workspace yet: a first run was interrupted before its first write committed, or is still "
                  + "running; not a problem: "
                  + "the first command that stores something (e.g. `\(command: "dolphin capture KIND TITLE")`) completes it."
              : interruptedBeforeFirstStep == false
                ? "Doctor: schema incomplete: a first run was interrupted between schema steps; not a problem: the "
                  + "next dolphin command run where the workspace can be written (`\(command: "dolphin status")` will do) completes it."
              : report.searchIndexUpgradePending == true
                ? "Doctor: healthy (the search index work noted as pending is not a problem)."
                : "Doctor: healthy.")
      }
      if let failure { throw failure }
    })

  /// What is wrong with the `-wal` file beside `databasePath`, when it holds bytes that are not
  /// a write-ahead log: fewer than the 32 bytes of a WAL header, or a header whose magic number
  /// is neither 0x377f0682 nor 0x377f0683 or whose format version is not 3007000 (SQLite's file
  /// format, "The WAL File Format", sqlite.org/fileformat2.html#walformat). Nil when there is no
  /// such file, it is empty, or it cannot be opened (the other checks report an unreadable
  /// workspace) or is not a regular file. Opened without following a link and without blocking
  /// (a FIFO in its place would otherwise wait for a writer forever), read-only, 32 bytes.
  static func walHeaderProblem(databasePath: String) -> String? {
    let path = databasePath + "-wal"
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 else { return nil }
    var header = [UInt8](repeating: 0, count: 32)
    let n = read(fd, &header, 32)
    let shown = "\(Limits.shownPath(path)) (\(st.st_size) bytes)"
    guard n == 32 else { return "\(shown) is shorter than a WAL header" }
    func bigEndian(_ at: Int) -> UInt32 { header[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
    guard bigEndian(0) & 0xFFFF_FFFE == 0x377F_0682, bigEndian(4) == 3_007_000 else {
      return "\(shown) does not start with a WAL header"
    }
    return nil
  }

  /// Doctor's lines for stored handoff next steps that show nothing: a count and each handoff's
  /// blank positions, or that there are none, or (for `nil`) that the check did not run.
  static func blankNextStepLines(_ report: BlankNextStepReport?) -> [String] {
    guard let report else { return ["Handoff next steps: not run"] }
    guard report.count > 0 else { return ["Handoff next steps: none blank"] }
    var lines = [
      "Handoff next steps: \(report.count) blank (showing nothing) in \(report.handoffCount) handoff(s):"
    ]
    for entry in report.handoffs {
      lines.append(
        "  - handoff \(inert(entry.handoffID)): step(s) " + entry.positions.map(String.init).joined(separator: ", "))
    }
    if report.handoffCount > report.handoffs.count {
      lines.append("  … and \(report.handoffCount - report.handoffs.count) more handoff(s)")
    }
    return lines
  }

  /// What removes stored next steps that show nothing, for doctor's advice, and the one shell
  /// command that does (nil when the pending schema step removes them instead); both empty or
  /// nil when there are none.
  /// - Parameters:
  ///   - report: the blank next steps of every handoff (not only those doctor lists).
  ///   - removedByPendingStep: whether schema step 0007, which removes them, is still to run.
  ///   - writable: whether this process could write the workspace (and so finish the upgrade).
  static func blankNextStepAdvice(
    _ report: BlankNextStepReport, removedByPendingStep: Bool, writable: Bool, databasePath: String
  ) -> (advice: String, command: String?) {
    guard report.count > 0 else { return ("", nil) }
    let found =
      "\(report.count) handoff next step(s) in \(report.handoffCount) handoff(s) show nothing (empty, whitespace, "
      + "or only invisible characters); `handoff get` and restores list them as blank lines."
    if removedByPendingStep {
      return (
        found
          + " Imports by earlier dolphins stored them (capture refuses such a step, and imports now drop it). "
          + "Schema step \(StoredTextCleanupStep.name) removes them and keeps every other step as it is: "
          + (writable
            ? "the next command finishes the upgrade."
            : "the upgrade finishes the next time a command opens the workspace where it can be written."),
        nil
      )
    }
    // The step that removes them has run, so they were written since, and not by dolphin: no
    // dolphin command rewrites a handoff's steps, so the fix is one sqlite3 command.
    let (command, covered) = blankNextStepCommand(report.handoffs, databasePath: databasePath)
    let isCut = covered < report.handoffCount
    let rest =
      isCut
      ? " (it covers the first \(covered) of the \(report.handoffCount) handoffs, as much as one command line holds: "
        + "run `\(command: "dolphin doctor")` again afterwards for a command that covers the others)" : ""
    let scope = isCut ? "from the first \(covered) handoffs" : "all"
    return (
      found
        + " They were written after this workspace's upgrade removed such steps, so not by dolphin (capture refuses "
        + "them, imports drop them). Nothing was changed. To remove them \(scope) and keep the other steps, stop every "
        + "dolphin process using this workspace and run: " + command + rest
        + "; or delete such a handoff (`\(command: "dolphin handoff delete <id>")`).",
      command
    )
  }

  /// The most bytes of SQL put in one command: Linux refuses a single argument over 128 KiB
  /// (`MAX_ARG_STRLEN`), and the 200 handoffs a workspace holds take about a fifth of this.
  static let blankNextStepCommandBytes = 100_000

  /// One `sqlite3` command, a single `UPDATE` (atomic by itself), that removes the blank next
  /// steps of the given handoffs, from the last position down in each so that every removal
  /// leaves the earlier positions in place: `json_remove` by id for one handoff, a `CASE id`
  /// over all of them for several.
  /// - Returns: the command, and how many of `entries` (from the first) it covers: all of them
  ///   unless the SQL would pass ``blankNextStepCommandBytes``.
  static func blankNextStepCommand(_ entries: [BlankNextStepReport.Entry], databasePath: String)
    -> (command: String, covered: Int)
  {
    func removal(_ entry: BlankNextStepReport.Entry) -> String {
      "json_remove(next_steps, " + entry.positions.reversed().map { "'$[\($0 - 1)]'" }.joined(separator: ", ") + ")"
    }
    let sqlite3 = "sqlite3 " + ShellWord.quoted(databasePath) + " "
    if entries.count == 1, let entry = entries.first {
      return (
        sqlite3
          + ShellWord.sqlArgument(
            "UPDATE handoff SET next_steps = \(removal(entry)) WHERE id = " + ShellWord.sqlLiteral(entry.handoffID)),
        1
      )
    }
    var cases: [String] = []
    var ids: [String] = []
    var bytes = 0
    for entry in entries {
      let when = "WHEN \(ShellWord.sqlLiteral(entry.handoffID)) THEN \(removal(entry))"
      let id = ShellWord.sqlLiteral(entry.handoffID)
      bytes += when.utf8.count + id.utf8.count + 2
      if !cases.isEmpty, bytes > blankNextStepCommandBytes { break }
      cases.append(when)
      ids.append(id)
    }
    let sql =
      "UPDATE handoff SET next_steps = CASE id " + cases.joined(separator: " ") + " END WHERE id IN ("
      + ids.joined(separator: ", ") + ")"
    return (sqlite3 + ShellWord.sqlArgument(sql), cases.count)
  }

  /// Doctor's lines for stored text over a bound: how many records, by type, and the first ones
  /// with their field and what is over; that there are none; or (for `nil`) that the check did
  /// not run.
  static func textOverBoundLines(_ report: TextOverBoundReport?) -> [String] {
    guard let report else { return ["Text bounds: not run"] }
    guard report.count > 0 else { return ["Text bounds: all stored text is within its bounds"] }
    let types = ["knowledge", "memory", "task", "handoff"].compactMap { type in
      report.countsByRecordType[type].map { "\($0) \(type)" }
    }
    var lines = [
      "Text bounds: \(report.count) stored record(s) hold text over a bound of this dolphin ("
        + types.joined(separator: ", ") + "):"
    ]
    for entry in report.records {
      lines.append("  - \(entry.recordType) \(inert(entry.id)): \(entry.message)")
    }
    if report.count > report.records.count {
      lines.append("  … and \(report.count - report.records.count) more record(s)")
    }
    return lines
  }

  /// Doctor's advice for stored text over a bound: where it came from, that nothing was
  /// changed, what refuses such a record, and how to bring it within the bound.
  static func textOverBoundAdvice(_ report: TextOverBoundReport) -> String {
    "\(report.count) stored record(s) hold text over a bound of this dolphin (listed above): an earlier dolphin stored "
      + "them before the bound existed (such as the bound of \(Limits.unicodeScalarsPerCharacter) Unicode scalars per "
      + "character), or another program did. This is advisory: nothing was changed, and they are read, searched and "
      + "exported as stored. A command that rewrites such a record (`task complete` on such a task, deleting an item "
      + "that such an item relates to) refuses it, and so does importing an export that holds it, until its text is "
      + "within the bound. A knowledge item is brought within it in place, keeping its id and relationships: "
      + "`\(command: "dolphin knowledge edit <id> --title …")` (or `--content`, `--tags`). A memory, task or handoff has no edit: "
      + "delete it (`\(command: "dolphin memory delete <id>")`, `task delete`, `handoff delete`) and store it again within the bound."
  }

  /// Doctor's lines for stored values an import refuses on a record it writes (a NUL in text, a
  /// control character or a comma in a tag): how many, the first ones by table, id and field; that there
  /// are none; or (for `nil`) that the check did not run.
  static func refusedTextLines(_ report: RefusedTextReport?) -> [String] {
    guard let report else { return ["Importable text: not run"] }
    guard report.count > 0 else { return ["Importable text: no stored value would make an export unimportable"] }
    return listedLines(
      "Importable text: \(report.count) stored value(s) hold a NUL or a tag with a control character or a comma, which "
        + "no dolphin command stores; an import that writes such a record (a restore into an empty workspace) refuses it:",
      report.records.map(\.description), count: report.count)
  }

  /// `header`, then one inert line per entry listed, then how many of `count` were not listed.
  static func listedLines(_ header: String, _ entries: [String], count: Int) -> [String] {
    var lines = [header]
    for entry in entries { lines.append("  - \(inert(entry))") }
    if count > entries.count { lines.append("  … and \(count - entries.count) more") }
    return lines
  }

  /// Doctor's lines for stored text that is not UTF-8: how many, the first ones by table, id and
  /// field; that there are none; or (for `nil`) that the check did not run.
  static func invalidUTF8Lines(_ report: InvalidUTF8Report?) -> [String] {
    guard let report else { return ["Text encoding: not run"] }
    guard report.count > 0 else { return ["Text encoding: all stored text is UTF-8"] }
    return listedLines(
      "Text encoding: \(report.count) stored value(s) are not UTF-8 (bytes another program wrote); every command reads "
        + "them with U+FFFD (�) in place of those bytes:",
      report.records.map(\.description), count: report.count)
  }

  /// Doctor's advice for stored text that is not UTF-8: what it does, and the `sqlite3` commands
  /// that store each value as dolphin reads it.
  static func invalidUTF8Advice(_ report: InvalidUTF8Report, _ directory: String, _ databasePath: String) -> String {
    let sqlite3 = "sqlite3 " + ShellWord.quoted(databasePath) + " "
    let fixes = report.records.compactMap(\.fixStatement).map { sqlite3 + ShellWord.sqlArgument($0) }
    let unfixed = report.records.filter { $0.fixStatement == nil }
    return "\(report.count) stored value(s) (listed above) are not UTF-8: another program wrote those bytes (an `UPDATE` "
      + "through sqlite3, or text saved in another encoding such as Latin-1), as no dolphin command stores them. Search, "
      + "get and export read each ill-formed byte sequence as U+FFFD (�), so what they show and what an export carries "
      + "differ from what is stored. Nothing was changed. To store the text as dolphin reads it (each such sequence "
      + "replaced by U+FFFD, every other byte kept), stop every dolphin process using this workspace, copy the directory "
      + "\(directory) somewhere safe, and run: " + (fixes.isEmpty ? "(no statement: see below)" : fixes.joined(separator: "; "))
      + (unfixed.isEmpty
        ? ""
        : "; " + unfixed.map { "\($0.table) \(WorkspaceTransaction.shownID($0.id))" }.joined(separator: ", ")
          + " hold(s) more than \(WorkspaceTransaction.invalidUTF8FixSequences) such sequences (text saved in another "
          + "encoding): write the text again with dolphin (`knowledge edit`, `task edit`) or delete the record")
      + (report.truncated ? "; then run `\(command: "dolphin doctor")` again for the others" : "")
      + "; then `\(command: "dolphin doctor")` again (and `\(command: "dolphin reindex")` if it reports the search index)."
  }

  /// Doctor's advice for stored values an import refuses: where they came from, what they
  /// break, and the `sqlite3` commands that remove those characters and keep the text.
  static func refusedTextAdvice(_ report: RefusedTextReport, _ directory: String, _ databasePath: String) -> String {
    let sqlite3 = "sqlite3 " + ShellWord.quoted(databasePath) + " "
    let fixes = report.records.map { sqlite3 + ShellWord.sqlArgument($0.fixStatement) }
    return "\(report.count) stored value(s) (listed above) hold a NUL character or a tag with a control character or "
      + "a comma: another program wrote them (or, for a comma, an earlier dolphin), as no dolphin command stores them "
      + "now. They are read, searched and exported as "
      + "stored, but `dolphin import` refuses such a record wherever it would write it, so this workspace's export "
      + "cannot be restored into an empty workspace. Nothing was changed. To remove those characters and keep the "
      + "readable text (a NUL is removed; in a tag, a line break or tab becomes a space, another control character "
      + "is removed and a comma becomes `-`), stop every dolphin process using this workspace, copy the directory \(directory) somewhere "
      + "safe, and run: " + fixes.joined(separator: "; ")
      + (report.truncated ? "; then run `\(command: "dolphin doctor")` again for the others" : "")
      + "; then `\(command: "dolphin doctor")` again (and `\(command: "dolphin reindex")` if it reports the search index)."
  }

  /// Doctor's lines for stored records that break another rule of `dolphin import`
  /// (``ImportRefusal``): how many, the first 20 by table, id, field and rule, each with its fix;
  /// that there are none; or (for `nil`) that the check did not run, or waits for records that
  /// cannot be read (an export carries them as stored; they are listed above with their fixes).
  static func importRefusalLines(_ refusals: [ImportRefusal]?, recordsUnreadable: Bool = false) -> [String] {
    guard let refusals else {
      return [
        recordsUnreadable
          ? "Importable records: checked once the records listed above can be read (an export carries them as stored, "
            + "in its `unreadable` section)"
          : "Importable records: not run"
      ]
    }
    guard !refusals.isEmpty else { return ["Importable records: no stored record breaks a rule of `dolphin import`"] }
    var lines = [
      "Importable records: \(refusals.count) stored record(s) break a rule of `dolphin import`; an import of this "
        + "workspace's export into an empty workspace refuses them:"
    ]
    for r in refusals.prefix(20) {
      lines.append("  - \(inert(escapingLineBreaks(r.description))) [\(r.rule.rawValue)]; fix: \(inert(r.fix))")
    }
    if refusals.count > 20 { lines.append("  … and \(refusals.count - 20) more") }
    return lines
  }

  /// Doctor's advice for stored records an import refuses (``ImportRefusal``): where they came
  /// from, what they break, and the `sqlite3` commands that fix those one statement fixes.
  static func importRefusalAdvice(_ refusals: [ImportRefusal], _ directory: String, _ databasePath: String) -> String {
    let sqlite3 = "sqlite3 " + ShellWord.quoted(databasePath) + " "
    let fixes = refusals.prefix(20).compactMap { r in r.fixStatement.map { sqlite3 + ShellWord.sqlArgument($0) } }
    return "\(refusals.count) stored record(s) (listed above) break a rule of `dolphin import`. Where they come from: "
      + ImportRefusal.howStored(refusals) + ". They are read and exported as stored, but `dolphin import` refuses "
      + "such a record, so this workspace's export cannot be restored into an empty workspace. Nothing was changed. "
      + "Each line above says what fixes it and keeps the record"
      + (fixes.isEmpty
        ? ""
        : "; for those one statement fixes, stop every dolphin process using this workspace, copy the directory "
          + "\(directory) somewhere safe, and run: " + fixes.joined(separator: "; "))
      + (refusals.count > 20 ? "; then run `\(command: "dolphin doctor")` again for the others" : "")
      + "; then `\(command: "dolphin doctor")` again (and `\(command: "dolphin reindex")` if it reports the search index)."
  }

  /// Doctor's search index problem for records whose index entries no longer match them: how
  /// many, the first few with what differs, and that `dolphin reindex` repairs them.
  static func staleIndexProblem(_ freshness: SearchIndexFreshness) -> String {
    let shown = freshness.stale.prefix(5)
    let more = freshness.staleCount - shown.count
    return "\(freshness.staleCount) of \(freshness.checked) indexed record(s) no longer match their search index entries "
      + "(changed outside dolphin after they were indexed), so searches rank them by their old words: "
      + shown.map(\.description).joined(separator: ", ") + (more > 0 ? ", and \(more) more" : "")
      + " (run `\(command: "dolphin reindex")`)"
  }

  /// Doctor's advice for records whose text no longer matches their search index entries.
  ///
  /// Such a record was changed outside dolphin, by an edit (`sqlite3`) or by damage to the file,
  /// and doctor cannot tell which: it must not call the records intact, and `dolphin reindex`
  /// would make damaged text searchable and erase the last trace of the damage (review 29a, 4).
  static func staleRecordAdvice(_ count: Int) -> String {
    let records = count == 1 ? "1 indexed record (listed above)" : "\(count) indexed records (listed above)"
    return "\(records) changed outside dolphin after \(count == 1 ? "it was" : "they were") indexed: the stored "
      + "text is not what dolphin wrote, whether by an edit (with `sqlite3` or another program) or by damage to the "
      + "file; doctor cannot tell which, so nothing was changed. If you did not change "
      + (count == 1 ? "it" : "them") + ", compare " + (count == 1 ? "it" : "them") + " with your latest export before "
      + "`\(command: "dolphin reindex")`, which indexes the text as it is now: `\(command: "dolphin export --output FILE")` "
      + "writes what is stored now, for a FILE outside the workspace. If you did, `\(command: "dolphin reindex")` makes "
      + "searches find " + (count == 1 ? "it" : "them") + " by the new words."
  }

  /// Doctor's note on the `-wal` and `-shm` files its read-only open created and could not remove,
  /// or nil when it left none behind (or left them to another process that uses the workspace now,
  /// whose SQLite removes them when it closes).
  static func sideFileNote(_ removal: SQLiteSideFiles.Removal) -> String? {
    guard case .denied(let cause) = removal.reason, !removal.kept.isEmpty else { return nil }
    let files = removal.kept.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " and ")
    return "Reading the database created \(files) beside it (SQLite needs them to read a WAL database), and doctor "
      + "could not remove them (\(cause)): removing them safely takes SQLite's lock on the database file, which needs "
      + "permission to write it. They hold no data: the next dolphin command of a user who may write the database (its "
      + "owner) removes them, as SQLite's last connection would; the database itself was not changed."
  }

  /// An open error in words, without the "run `dolphin doctor`" pointer (this is doctor).
  static func openMessage(_ error: WorkspaceError) -> String {
    switch error {
    case .damaged(let file, let message): return "\(file) is damaged or not a workspace database: \(message)"
    default: return error.description
    }
  }

  /// The recovery steps for records whose JSON columns cannot be decoded: the file is sound,
  /// so each column is reset to an empty value (or, for a digest, the digest is removed).
  /// - Parameter repairs: for a list unreadable only for control characters inside its texts
  ///   (by `table.column.id`), the `UPDATE` that gives it its readable entries back
  ///   (`WorkspaceTransaction.readableListRepair`), used instead of emptying it.
  static func malformedRecordSteps(
    _ records: [WorkspaceTransaction.MalformedJSON], _ directory: String, _ databasePath: String,
    repairs: [String: String] = [:]
  ) -> [String] {
    var steps = [
      "Some records hold JSON or a value that cannot be read (named above); commands that read them refuse the workspace "
        + "as damaged. The database file itself is sound. Nothing was changed. To recover:",
      "1. Stop every dolphin process (CLI, `dolphin mcp`) using this workspace.",
      "2. Copy the whole directory \(directory) (including workspace.sqlite-wal and -shm) somewhere safe.",
    ]
    var fixes: [String] = []
    // The path and the statement are quoted so that the command pastes as it is shown, whatever
    // the path holds (spaces, quotes); an id read from a damaged record is an SQL literal.
    let sqlite3 = "sqlite3 " + ShellWord.quoted(databasePath) + " "
    for r in records.prefix(10) {
      let id = ShellWord.sqlLiteral(r.id)
      switch r.table {
      case "digest":
        fixes.append(
          sqlite3
            + ShellWord.sqlArgument("DELETE FROM digest_evidence WHERE digest_id = \(id); DELETE FROM digest WHERE id = \(id)"))
      case "meta":
        fixes.append(
          sqlite3 + ShellWord.sqlArgument("DELETE FROM meta WHERE key = 'settings'")
            + "  (the settings return to their defaults)")
      default:
        if let repair = repairs[r.table + "." + r.column + "." + r.id] {
          fixes.append(sqlite3 + ShellWord.sqlArgument(repair))
        } else if let e = WorkspaceTransaction.enumColumn(r.table, r.column) {
          // An unknown name: the value a new record gets, only where the name is still unknown.
          fixes.append(sqlite3 + ShellWord.sqlArgument(e.fixStatement(idLiteral: id)))
        } else {
          fixes.append(sqlite3 + ShellWord.sqlArgument("UPDATE \(r.table) SET \(r.column) = '[]' WHERE id = \(id)"))
        }
      }
    }
    steps.append(
      "3. Give each damaged list back its readable entries (the control characters inside them removed; a list "
        + "that is not JSON even without them is emptied), and set each unknown name to the value a new record gets "
        + "(a digest is removed: digests are rebuilt by `dolphin context`), e.g.: "
        + fixes.joined(separator: "; ") + (records.count > 10 ? "; and so on for the others" : ""))
    steps.append("4. Run `\(command: "dolphin doctor")` again (and `\(command: "dolphin reindex")` if it reports the search index).")
    steps.append("5. Or restore from your latest `dolphin export` into a fresh workspace directory.")
    return steps
  }

  /// An SQL expression for a new random UUID, version 4, in the form dolphin stores ids
  /// (upper-case hexadecimal digits): `sqlite3` has no UUID function, and a fixed id in doctor's
  /// advice could be pasted twice.
  static let newUUIDSQL =
    "(SELECT printf('%s-%s-4%s-%s%s-%s', substr(h, 1, 8), substr(h, 9, 4), substr(h, 14, 3), "
    + "substr('89AB', abs(random() % 4) + 1, 1), substr(h, 18, 3), substr(h, 21, 12)) "
    + "FROM (SELECT hex(randomblob(16)) AS h))"

  /// The recovery steps for records whose id is not a UUID: the file is sound, so each record
  /// gets a new id (by its row id), which keeps everything else it holds.
  static func malformedIDSteps(
    _ records: [WorkspaceTransaction.MalformedID], _ directory: String, _ databasePath: String
  ) -> [String] {
    let sqlite3 = "sqlite3 " + ShellWord.quoted(databasePath) + " "
    let fixes = records.prefix(10).map { r in
      sqlite3 + ShellWord.sqlArgument("UPDATE \(r.table) SET id = \(newUUIDSQL) WHERE rowid = \(r.rowID)")
    }
    return [
      "Some records have an id that is not a UUID (named above, by table and row); commands that read them refuse "
        + "the workspace as damaged. The database file itself is sound. Nothing was changed. To recover:",
      "1. Stop every dolphin process (CLI, `dolphin mcp`) using this workspace.",
      "2. Copy the whole directory \(directory) (including workspace.sqlite-wal and -shm) somewhere safe.",
      "3. Give each such record a new id, which keeps everything else it holds, e.g.: " + fixes.joined(separator: "; ")
        + (records.count > 10 ? "; and so on for the others" : ""),
      "4. Run `\(command: "dolphin doctor")` again: it names any reference that still holds an old id (a relationship, a task's "
        + "or handoff's list, the active handoff marker) and so now points at no record.",
    ]
  }

  /// Doctor's advice for a schema that differs from what its applied steps create
  /// (``SchemaDifference``), in the order it is to be followed: first, the statement that frees a
  /// name an object dolphin did not create holds (a view named like a missing table: `DROP
  /// VIEW`, review 26-b, 9); for a missing table of records that a table dolphin did not create
  /// has exactly the columns of, the statement that renames that one back (review 26-b, 7); for
  /// missing search index or tag filter tables and missing or misplaced indexes, `dolphin
  /// reindex`; for a missing table of records no table has the columns of, recreating it empty
  /// (after dropping dolphin's indexes of its name left on another table), then export and
  /// import into a new workspace directory (an export needs every table it reads; the rows the
  /// dropped table held are gone with it); for a derived table with other columns, `dolphin
  /// reindex`, which recreates it; for a table of records with other columns, what happened and
  /// how to get its rows back (renaming back the table it replaced, a backup or an earlier
  /// export), or the statement that removes a column dolphin did not create; for triggers and
  /// indexes dolphin did not create on its tables, what they do and the statement that removes
  /// them (doctor never removes anything). Tables and views another program added, and
  /// triggers and indexes on them, get no advice: they are notes, named under Schema.
  /// - Parameter checksStopped: whether the other checks did not run for a missing or changed
  ///   table.
  static func schemaAdvice(
    _ schema: SchemaDifference, checksStopped: Bool, _ directory: String, _ databasePath: String
  ) -> [String] {
    var advice: [String] = []
    let sqlite3 = "sqlite3 " + ShellWord.quoted(databasePath) + " "
    let identifier = ShellWord.sqlIdentifier
    func names(_ objects: [SchemaObject]) -> String { objects.map(\.description).joined(separator: ", ") }
    func them(_ count: Int) -> String { count == 1 ? "it" : "them" }
    // First: objects dolphin did not create holding a missing one's name (review 26-b, 9). Every
    // other fix fails while they are there (CREATE and RENAME TO refuse a name taken).
    var holders: [SchemaDifference.NameHolder] = []
    for m in schema.missing where m.isNameHeldByForeignObject {
      if let h = m.nameHeldBy, !holders.contains(h) { holders.append(h) }
    }
    if !holders.isEmpty {
      let blocked = schema.missing.filter(\.isNameHeldByForeignObject).map(\.object)
      let one = holders.count == 1
      let renamesTable = holders.contains { $0.object.type == "table" }
      advice.append(
        "The database holds \(names(holders.map(\.object))), which dolphin did not create, under the name of "
          + "dolphin's \(names(blocked)), which " + (blocked.count == 1 ? "is" : "are") + " missing: dolphin's "
          + "commands reach " + them(holders.count) + " instead, and nothing can be made under "
          + (one ? "that name" : "those names") + " while " + (one ? "it is" : "they are") + " there. Doctor "
          + "leaves " + them(holders.count) + " alone. Free the name" + (one ? "" : "s") + " first ("
          + (renamesTable
            ? "a view or an index holds no rows of its own, and a table is renamed aside with its rows"
            : "a view or an index holds no rows of its own: nothing stored is lost")
          + (holders.contains(where: \.isForeignIndex)
            ? "; an index of your own is made again under another name, as SQLite cannot rename one" : "")
          + "): `" + sqlite3
          + ShellWord.sqlArgument(holders.map(\.freeingStatement).joined(separator: "; "))
          + "`; then follow the advice below.")
    }
    // Tables of records renamed away (review 26-b, 7): renaming each back restores its rows and
    // dolphin's indexes on it, which went along with it.
    let renamed = schema.missing.filter { $0.object.type == "table" && $0.renamedAs != nil }
    if !renamed.isEmpty {
      let one = renamed.count == 1
      // What each holds, said of that table only; several candidates are all named, with their
      // rows, and why one is taken (review 27-b, 1).
      let found = renamed.map { m in
        let choice = SchemaDifference.RenameCandidate.choice(m.renamedCandidates)
        return (choice.isEmpty ? "" : "for the missing table \(m.object.name), " + choice + ": ")
          + "table \(m.renamedAs ?? ""), which dolphin did not create, has exactly the columns of the missing table "
          + "\(m.object.name): most likely it is that table renamed (`ALTER TABLE … RENAME TO`)"
          + (m.renamedCandidate.map { ", " + $0.holding } ?? "")
      }.joined(separator: "; ")
      advice.append(
        found.prefix(1).uppercased() + found.dropFirst() + ". Nothing was "
          + "changed. Renaming " + (one ? "it" : "each") + " back restores " + them(renamed.count) + ": `" + sqlite3
          + ShellWord.sqlArgument(
            renamed.map { "ALTER TABLE \(identifier($0.renamedAs ?? "")) RENAME TO \(identifier($0.object.name))" }
              .joined(separator: "; "))
          + "`; then run `\(command: "dolphin doctor")` again, which names anything still missing.")
    }
    // Indexes on those tables come back with them; those on a table lacking columns are the
    // changed table's advice (below).
    let renamedTables = Set(renamed.map { $0.object.name.lowercased() })
    let lackingTables = Set(schema.changed.filter { !$0.missingColumns.isEmpty }.map { $0.table.lowercased() })
    let rest = schema.missing.filter { m in
      !(m.object.type == "table" && m.renamedAs != nil)
        && !(m.object.type == "index"
          && (renamedTables.contains(m.table.lowercased()) || lackingTables.contains(m.table.lowercased())))
    }
    let misplaced = rest.filter(\.isMisplacedIndex)
    let removed =
      misplaced.isEmpty
      ? "removed outside dolphin"
      : misplaced.count == rest.count
        ? "as dolphin's index of " + (misplaced.count == 1 ? "that name" : "each name")
          + " is on another table (renaming a table takes its indexes along) or defined otherwise"
        : "removed outside dolphin or, for an index, left on another table (renaming a table takes its indexes "
          + "along) or defined otherwise"
    if !rest.isEmpty && rest.allSatisfy(\.recreatedByReindex) {
      let n = rest.count
      advice.append(
        "The database lacks \(names(rest.map(\.object))), \(removed); SQLite's integrity check "
          + "does not see a missing table or index. Nothing stored is lost: what "
          + (n == 1 ? "it holds is" : "they hold is") + " derived from the records. "
          + (holders.isEmpty ? "" : "Once the name is free (above), ")
          + "`\(command: "dolphin reindex")` recreates " + them(n) + " and fills " + them(n) + " from the records ("
          + (misplaced.isEmpty ? "" : "dropping dolphin's index of that name where it is, and ")
          + "rebuilding the search index); then run `\(command: "dolphin doctor")` again. Until then commands that need "
          + them(n) + " fail or are slower. Nothing was changed.")
    } else if !rest.isEmpty {
      let lost = rest.filter { !$0.recreatedByReindex }
      let lostTables = lost.filter { $0.object.type == "table" }
      let file = unusedPath(first: directory + ".export.json")
      let fresh = unusedPath(first: directory + ".new")
      advice += [
        "The database lacks \(names(lost.map(\.object))), \(removed); SQLite's integrity check does not "
          + "see a missing table. Every command that needs " + them(lost.count) + " fails"
          + (checksStopped ? ", and the other checks, which read " + them(lost.count) + ", did not run" : "") + ". "
          + (lostTables.isEmpty
            ? ""
            : "No table in the database has exactly " + (lostTables.count == 1 ? "its columns" : "the columns of any of them")
              + ", as one renamed from " + (lostTables.count == 1 ? "it" : "one") + " would, so the rows "
              + (lostTables.count == 1 ? "it" : "they") + " held are not in the database unless copied elsewhere "
              + "(an earlier export or a backup may still have them); ")
          + "the other tables are intact. Nothing was changed. To recover:",
        "1. Stop every dolphin process (CLI, `dolphin mcp`) using this workspace.",
        "2. Recreate what is missing, empty, with the statements of the schema steps (this adds, and changes nothing "
          + "stored" + (misplaced.isEmpty ? "" : "; dolphin's indexes of those names left elsewhere are dropped first")
          + "): `" + sqlite3
          + ShellWord.sqlArgument(
            (misplaced.compactMap(\.nameHeldBy?.freeingStatement) + rest.map(\.sql)).joined(separator: "; ")) + "`.",
        "3. Run `\(command: "dolphin doctor")` again: it then runs every check, and names what still refers to the rows "
          + "the table held (a digest citing them, the search index) with the fix for each.",
        "4. Then, for a workspace whose schema dolphin made itself, export it and import the export into a new "
          + "directory: `\(command: "dolphin export --output \(file)")`, then `"
          + SuggestedCommand("dolphin import \(file)").naming(workspace: fresh) + "` and `"
          + SuggestedCommand("dolphin doctor").naming(workspace: fresh) + "`; use it by moving "
          + ShellWord.quoted(directory) + " aside and " + ShellWord.quoted(fresh) + " into its place, or with "
          + "--workspace " + ShellWord.quoted(fresh) + ". (The import refuses a record that refers to one that is "
          + "gone: fix what step 3 names first.)",
      ]
    }
    advice += changedTableAdvice(schema, checksStopped: checksStopped, directory, databasePath)
    // Those on tables dolphin did not create are notes (review 26-b, 8), and those holding a
    // missing one's name are freed above: no advice here.
    let triggers = schema.unexpected.filter { $0.isProblem && $0.holdsNameOf == nil && $0.object.type == "trigger" }
    if !triggers.isEmpty {
      advice.append(
        "The database holds \(names(triggers.map(\.object))), which dolphin did not create (dolphin creates no trigger): "
          + "another program or a person with sqlite3 added "
          + (triggers.count == 1 ? "it" : "them") + ". A trigger runs inside dolphin's writes and can change what they store or refuse "
          + "them. Doctor leaves it alone. Unless it is there on purpose, remove it: `" + sqlite3
          + ShellWord.sqlArgument(triggers.map { "DROP TRIGGER \(identifier($0.object.name))" }.joined(separator: "; ")) + "`.")
    }
    // Those the changed tables' advice drops before a column (review 27-b, 9) are not advised twice.
    let droppedWithColumns = Set(
      schema.changed.filter { $0.missingColumns.isEmpty && $0.alteredColumns.isEmpty && !$0.recreatedByReindex }
        .flatMap(\.indexesOnUnexpectedColumns).map { $0.lowercased() })
    let others = schema.unexpected.filter {
      $0.isProblem && $0.holdsNameOf == nil && $0.object.type == "index"
        && !droppedWithColumns.contains($0.object.name.lowercased())
    }
    if !others.isEmpty {
      advice.append(
        "The database holds \(names(others.map(\.object))), which dolphin did not create: "
          + "an index slows dolphin's writes (a UNIQUE one refuses some). "
          + "Doctor leaves " + (others.count == 1 ? "it" : "them") + " alone. Unless "
          + (others.count == 1 ? "it is" : "they are") + " there on purpose, remove "
          + (others.count == 1 ? "it" : "them") + ": `" + sqlite3
          + ShellWord.sqlArgument(others.map { "DROP INDEX \(identifier($0.object.name))" }.joined(separator: "; "))
          + "`.")
    }
    return advice
  }

  /// Doctor's advice for tables whose columns differ from those their schema step creates
  /// (``SchemaDifference/Changed``): `dolphin reindex` for derived ones; for tables of records,
  /// what happened, that doctor changed nothing, and how to recover.
  static func changedTableAdvice(
    _ schema: SchemaDifference, checksStopped: Bool, _ directory: String, _ databasePath: String
  ) -> [String] {
    var advice: [String] = []
    let sqlite3 = "sqlite3 " + ShellWord.quoted(databasePath) + " "
    let identifier = ShellWord.sqlIdentifier
    func tables(_ changed: [SchemaDifference.Changed]) -> String {
      changed.map { "table " + $0.table }.joined(separator: ", ")
    }
    let derived = schema.changed.filter(\.recreatedByReindex)
    if !derived.isEmpty {
      let one = derived.count == 1
      advice.append(
        "The database's \(tables(derived)) " + (one ? "has" : "have") + " other columns than the schema steps create "
          + "(replaced or altered outside dolphin; SQLite's integrity check does not see it). Nothing stored is lost: "
          + "what " + (one ? "it holds is" : "they hold is") + " derived from the records. `\(command: "dolphin reindex")` "
          + "drops " + (one ? "it" : "them") + ", recreates " + (one ? "it" : "them") + " as the schema steps do and "
          + "fills " + (one ? "it" : "them") + " from the records (rebuilding the search index); then run "
          + "`\(command: "dolphin doctor")` again. Until then commands that need " + (one ? "it" : "them")
          + " may fail. Nothing was changed.")
    }
    let records = schema.changed.filter { !$0.recreatedByReindex }
    guard !records.isEmpty else { return advice }
    let one = records.count == 1
    let lacking = records.filter { !$0.missingColumns.isEmpty || !$0.alteredColumns.isEmpty }
    let onlyAdded = records.filter { $0.missingColumns.isEmpty && $0.alteredColumns.isEmpty }
    let fresh = unusedPath(first: directory + ".new")
    var steps = [
      "The database's \(tables(records)) " + (one ? "has" : "have") + " other columns than the schema steps create "
        + "(named above under Schema): replaced or altered outside dolphin, which SQLite's integrity check does not see. "
        + (lacking.isEmpty
          ? "Dolphin neither reads nor exports a column it did not create, and one NOT NULL without a default "
            + "refuses dolphin's writes. "
          : "Every command that reads or writes a column " + (lacking.count == 1 ? "it lacks" : "they lack")
            + " fails" + (checksStopped ? ", and the other checks, which read them, did not run" : "")
            + "; what dolphin stored in such a column is not in " + (lacking.count == 1 ? "that table" : "those tables")
            + " any more ("
            + (lacking.allSatisfy { $0.renamedAs != nil }
              ? "the table " + (lacking.count == 1 ? "it" : "each") + " replaced, renamed aside, most likely holds it"
              : lacking.contains { $0.renamedAs != nil }
                ? "a table renamed aside (named below), a backup or an earlier export may still hold it"
                : "a backup or an earlier export may still hold it") + "). ")
        + "Doctor changed nothing. To recover:",
      "1. Stop every dolphin process (CLI, `dolphin mcp`) using this workspace.",
      "2. Copy the whole directory \(directory) (including workspace.sqlite-wal and -shm) somewhere safe.",
    ]
    // Names nothing holds, for the replacement put aside: neither an object in the database nor
    // one dolphin's schema creates.
    var taken = Set(schema.unexpected.map { $0.object.name.lowercased() })
    taken.formUnion(
      WorkspaceSchema.expectedObjects(applied: Set(WorkspaceSchema.steps.map(\.name))).map { $0.object.name.lowercased() })
    var n = 3
    for c in lacking {
      if let former = c.renamedAs {
        // Review 26-b, 7: the real names, not placeholders to fill in.
        var aside = c.table + "_replaced"
        var k = 2
        while taken.contains(aside.lowercased()) {
          aside = c.table + "_replaced_\(k)"
          k += 1
        }
        taken.insert(aside.lowercased())
        steps.append(
          "\(n). For table \(c.table): "
            + {
              let choice = SchemaDifference.RenameCandidate.choice(c.renamedCandidates)
              return choice.isEmpty ? "" : choice + "; "
            }()
            + "table \(former), which dolphin did not create, has exactly the columns dolphin "
            + "gives it: most likely the table it replaced, renamed aside"
            + (c.renamedCandidate.map { ", " + $0.holding } ?? "") + ". Put "
            + "it back, keeping the replacement aside as \(aside): `" + sqlite3
            + ShellWord.sqlArgument(
              "ALTER TABLE \(identifier(c.table)) RENAME TO \(identifier(aside)); "
                + "ALTER TABLE \(identifier(former)) RENAME TO \(identifier(c.table))")
            + "`.")
      } else if !c.addColumnStatements.isEmpty {
        // Review 27-b, 5: one ADD COLUMN brings every command back; only that column's values
        // are lost, and a backup or an export may still hold them.
        let single = c.missingColumns.count == 1
        let columns = c.missingColumns.map(\.name).joined(separator: ", ")
        steps.append(
          "\(n). For table \(c.table): add the column" + (single ? "" : "s") + " it lacks back as the schema step "
            + "declares " + (single ? "it" : "them") + ", with a default every row takes (only the values of "
            + columns + " are lost; every other column of every row is intact): `" + sqlite3
            + ShellWord.sqlArgument(c.addColumnStatements.joined(separator: "; ")) + "`. A backup made before the "
            + "change or an earlier export may still hold those values: import it into a new directory, `"
            + SuggestedCommand("dolphin import FILE").naming(workspace: fresh) + "`, to read them there.")
      } else {
        steps.append(
          "\(n). For table \(c.table): no table in the database has exactly the columns dolphin gives it, as its former "
            + "table renamed aside would, so what dolphin stored in the columns it lacks or declares otherwise is only "
            + "in a backup made before the change (restore it) or an earlier export: import that into a new directory, `"
            + SuggestedCommand("dolphin import FILE").naming(workspace: fresh) + "`, and use it by moving "
            + ShellWord.quoted(directory) + " aside and " + ShellWord.quoted(fresh) + " into its place (what was "
            + "stored after that export is not in it).")
      }
      n += 1
    }
    for c in onlyAdded {
      // Review 27-b, 9: an index using the column goes first, in the same command, or the DROP
      // COLUMN fails.
      let indexes = c.indexesOnUnexpectedColumns
      steps.append(
        "\(n). For table \(c.table): remove the column" + (c.unexpectedColumns.count == 1 ? "" : "s")
          + " dolphin did not create (" + (c.unexpectedColumns.count == 1 ? "its values go" : "their values go")
          + " with " + (c.unexpectedColumns.count == 1 ? "it" : "them")
          + (indexes.isEmpty
            ? "; SQLite refuses to drop a column an index or a constraint uses"
            : "; first the index" + (indexes.count == 1 ? " " : "es ") + indexes.joined(separator: ", ")
              + " dolphin did not create, which SQLite requires gone before the column")
          + "): `" + sqlite3
          + ShellWord.sqlArgument(
            (indexes.map { "DROP INDEX \(identifier($0))" }
              + c.unexpectedColumns.map { "ALTER TABLE \(identifier(c.table)) DROP COLUMN \(identifier($0.name))" })
              .joined(separator: "; ")) + "`.")
      n += 1
    }
    steps.append("\(n). Run `\(command: "dolphin doctor")` again.")
    return advice + steps
  }

  /// The recovery steps for a damaged database. The commands they give work on a copy of the
  /// workspace directory (``recoveryCopy(of:)``), never on the damaged files: `sqlite3` may
  /// write beside a WAL database it opens (its `-shm`, or the `-wal` replayed).
  ///
  /// The copy is made by `mkdir -m 700 COPY && cp -a DIR/. COPY`: `cp -a DIR COPY` would copy
  /// the workspace *into* COPY (`COPY/DIR`) when COPY exists — left from an earlier recovery, or
  /// made after doctor ran — and step 3 would then open the wrong database. `mkdir` fails on an
  /// existing COPY instead, so nothing is copied, and the copy is private as the workspace is.
  static func recoverySteps(_ directory: String, _ databasePath: String) -> [String] {
    let copy = recoveryCopy(of: directory)
    let copiedDatabase = copy + "/" + URL(fileURLWithPath: databasePath).lastPathComponent
    return [
      "1. Stop every dolphin process (CLI, `dolphin mcp`) using this workspace.",
      "2. Copy the whole directory, with its workspace.sqlite-wal and -shm files, and work only on the copy: "
        + "`mkdir -m 700 \(ShellWord.quoted(copy)) && cp -a \(ShellWord.quoted(directory + "/.")) \(ShellWord.quoted(copy))` "
        + "(mkdir fails, and nothing is copied, if that directory exists by then).",
      "3. Try `sqlite3 \(ShellWord.quoted(copiedDatabase)) .recover > recovered.sql`. If sqlite3 answers "
        + "`SQL logic error` (it was built without the sqlite_dbpage table `.recover` needs, as Debian's is), use "
        + "`sqlite3 \(ShellWord.quoted(copiedDatabase)) .dump | sed 's/^ROLLBACK; -- due to errors$/COMMIT;/' > recovered.sql` "
        + "instead: it keeps the rows that still read (`.dump` ends a damaged file's script with ROLLBACK, which would "
        + "undo them all). Then load it into a new database (`sqlite3 recovered.db < recovered.sql`) and copy what you "
        + "need from there.",
      "4. Or restore from your latest `dolphin export` into a fresh workspace directory.",
    ]
  }

  /// Where doctor's recovery steps copy the workspace directory: `<directory>.copy`, or, when
  /// something is there already (an earlier recovery's copy), the first of `<directory>.copy-2`,
  /// `.copy-3`, … with nothing there. A symbolic link counts as something, even one to nothing.
  /// - Parameter directory: the workspace directory, as doctor names it.
  /// - Returns: the path of a directory that did not exist when doctor looked (past 1,000 taken
  ///   names, `<directory>.copy-1001`, which the step's `mkdir` refuses if it is taken too).
  static func recoveryCopy(of directory: String) -> String {
    unusedPath(first: directory + ".copy")
  }

  /// `first`, or, when something is there already, the first of `first-2`, `first-3`, … with
  /// nothing there (past 1,000 taken names, `first-1001`). A symbolic link counts as something,
  /// even one to nothing.
  static func unusedPath(first: String) -> String {
    func isFree(_ path: String) -> Bool {
      var status = stat()
      return lstat(path, &status) != 0 && errno == ENOENT
    }
    if isFree(first) { return first }
    // Bounded: past it, the step's `mkdir` refuses a name that is taken rather than nest a copy.
    return (2...1_000).lazy.map { "\(first)-\($0)" }.first(where: isFree) ?? "\(first)-1001"
  }

  /// Advice that fits why the database could not be opened. Each line stands on its own — it
  /// names what it refers to rather than pointing "above" — since `--json` carries it apart from
  /// the text report (in `advice`, beside `openProblem`).
  static func openAdvice(
    _ failure: SQLiteWorkspaceStore.OpenFailure, error: WorkspaceError, directory: String, databasePath: String
  ) -> [String] {
    switch failure {
    case .noWorkspace:
      return [
        "Nothing has been captured at \(directory). Check --workspace (or DOLPHIN_HOME); `\(command: "dolphin capture KIND TITLE")` creates a workspace."
      ]
    case .notADirectory:
      return [
        "\(directory) must be a directory holding the database file \(SQLiteWorkspaceStore.fileName). Pass --workspace "
          + "(or set DOLPHIN_HOME) with the workspace directory. Nothing was changed."
      ]
    case .permissionDenied:
      return [unreadableWorkspaceAdvice(directory: directory, databasePath: databasePath)]
    case .readOnly:
      return [
        "The database is not known to be damaged, and nothing was changed: it cannot be read without writing beside "
          + "it (committed changes still wait in its -wal file, or a rollback journal must be rolled back), and the "
          + "files cannot be written here. Remount it read-write or make the directory writable, or copy the whole directory (with "
          + "workspace.sqlite-wal and -shm) somewhere writable and run `dolphin doctor --workspace <copy>`."
      ]
    case .diskFull:
      let space = DiskSpace.of(directory).map { " (\($0.described()))" } ?? ""
      return [
        "The disk holding the workspace is full\(space). The database is not known to be damaged, and nothing was "
          + "changed: it cannot be read without allocating beside it (committed changes still wait in its -wal file, "
          + "and SQLite needs a -shm index to read them). Free space on that disk (remove or move files there) and run "
          + "`\(command: "dolphin doctor")` again, or copy the whole directory (with workspace.sqlite-wal) to another disk and run "
          + "`dolphin doctor --workspace <copy>`."
      ]
    case .untrustedPath:
      return [
        "Nothing was read or changed: another user controls the workspace directory, a directory on the way to it, "
          + "or the database file (the error says which and who), so they could rewrite or replace the workspace, "
          + "or read what is written into it. Do as the error says, or use a directory of your own, then run "
          + "`\(command: "dolphin doctor")` again: it checks the path and the files beside the database before opening it."
      ]
    case .foreignWAL:
      return [
"Nothing was read or changed: a file beside \(databasePath) that SQLite reads (named in the error) belongs to "
          + "another user who may not write the database, or is not a regular file (a symbolic link, a FIFO), which "
          + "neither SQLite nor dolphin makes; reading through it could show, or save, what that user wrote as this "
          + "workspace's records. Move or remove it as the error says, while no dolphin is running, then run "
          + "`\(command: "dolphin doctor")` again."
      ]
    case .symbolicLink:
      return [
        "The workspace path, a directory on the way to it, or its database file is a symbolic link that leads "
          + "nowhere (a link loop, or a link to something that does not exist); the workspace was not "
          + "read and nothing was changed. Replace or remove the link (`ls -l` shows where it points), or pass "
          + "--workspace (or set DOLPHIN_HOME) with the workspace directory."
      ]
    case .notADatabase:
      return ["The database file is damaged or is not an SQLite database. Nothing was changed."]
        + recoverySteps(directory, databasePath)
    case .notAWorkspace:
      var holds = ""
      if case .notAWorkspace(_, let found) = error, !found.isEmpty { holds = " (it holds \(found.joined(separator: ", ")))" }
      return [
        "\(databasePath) is another program's SQLite database, not a dolphin workspace: it records no dolphin schema "
          + "step\(holds); dolphin neither read nor changed it. Pass --workspace (or set DOLPHIN_HOME) with a dolphin workspace directory, or move "
          + "that file away: the first command that stores something then creates a new workspace there."
      ]
    case .migrationTableRenamed:
      // Review 27-b, 2: the workspace's records are there; only the table of its steps was renamed.
      var renamedAs = "schema_migration_old"
      if case .migrationTableRenamed(_, let name) = error { renamedAs = name }
      return [
        "The workspace's schema_migration table, where dolphin records its schema steps, is missing: table "
          + "\(renamedAs), which dolphin did not create, has exactly its columns and records dolphin's steps, so most "
          + "likely it is that table renamed; dolphin's other tables, with the records, are there. Nothing was changed. "
          + "Renaming it back restores it: `sqlite3 " + ShellWord.quoted(databasePath) + " "
          + ShellWord.sqlArgument("ALTER TABLE \(ShellWord.sqlIdentifier(renamedAs)) RENAME TO \"schema_migration\"")
          + "`; then run `\(command: "dolphin doctor")` again."
      ]
    case .other:
      return [
        "SQLite could not open the database (the message names its error). Nothing was changed. If another process "
          + "holds the workspace, stop it and run doctor again."
      ]
    }
  }
}

