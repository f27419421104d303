import ContinuityKit
import Foundation
import KnowledgeEngine
import Synchronization

extension Commands {
  /// The demo workspace: beside the default one, never the user's own.
  static func demoDirectory(_ ctx: CommandContext) -> URL {
    if let w = ctx.arguments.value("workspace") { return URL(fileURLWithPath: w, isDirectory: true) }
    return ownDemoDirectory(ctx)
  }

  /// `<default workspace>/../dolphin-demo`: the workspace the demo keeps for itself.
  static func ownDemoDirectory(_ ctx: CommandContext) -> URL {
    let env = ctx.console.environment.isEmpty ? ProcessInfo.processInfo.environment : ctx.console.environment
    // Standardized first: the parent of `/x/.` or `/x/..` is not what deleting the last
    // component of the path as written gives.
    return WorkspaceLocation.defaultDirectory(environment: env).standardizedFileURL
      .deletingLastPathComponent().appendingPathComponent("dolphin-demo", isDirectory: true)
  }

  /// Why the demo must not write to `dir`, or nil when it may: `dir` is a new or empty
  /// directory, or a workspace holding only records an earlier demo run stored — the demo's own
  /// directory included (review 23-a, 4: it was let through whatever it held, and the demo made
  /// its handoff active again over the user's).
  ///
  /// Anything else — a knowledge item, memory, task or handoff the demo did not write, a
  /// conversation, activity, a quarantine, or a legacy `workspace.json` waiting to be imported —
  /// is the user's, and the demo's captures and its handoff (which it restores, making it the
  /// active one) would mix into it. The reason names the first such record and counts only
  /// those. A directory without a workspace that holds other files (a source tree) is refused
  /// too. Nothing is created or written here.
  static func demoRefusal(_ dir: URL) throws -> String? {
    let legacy = dir.appendingPathComponent(KnowledgeEngine.legacyFileName)
    if FileManager.default.fileExists(atPath: legacy.path) { return "it holds a legacy \(KnowledgeEngine.legacyFileName)" }
    let store: SQLiteWorkspaceStore
    switch Result(catching: { () throws(WorkspaceError) in try SQLiteWorkspaceStore.open(directory: dir, create: false) }) {
    case .success(let s): store = s
    case .failure(.noWorkspace): return nonWorkspaceContents(dir)
    case .failure(let error): throw error
    }
    let counts = try store.read { try $0.counts() }
    func count(_ table: String) -> Int { counts[table, default: 0] }
    let engine = KnowledgeEngine(store: store)
    // Per table, how many records the demo did not write, and the first of them.
    var foreign: [(table: String, count: Int, example: String)] = []
    func note(_ table: String, _ records: [String]) {
      if let first = records.first { foreign.append((table, records.count, first)) }
    }
    note(
      "knowledge",
      try engine.listKnowledge().filter { item in
        !((item.kind == .code && item.title == demoReviewTitle)
          || demoKnowledge.contains { $0.0 == item.kind && $0.1 == item.title })
      }.map { "knowledge item '\(inertLine($0.title))'" })
    if let memory = try engine.listMemories(limit: 1).first {
      foreign.append(("memory", count("memory"), "memory '\(inertLine(String(memory.text.prefix(60))))'"))
    }
    note(
      "task",
      try engine.listTasks().filter { task in !demoTasks.contains { $0.0 == task.title } }
        .map { "task '\(inertLine($0.title))'" })
    note(
      "handoff",
      try engine.listHandoffs().handoffs.filter { $0.focus != demoHandoffFocus }
        .map { "handoff '\(inertLine($0.focus))'" })
    // Digests are derived: the demo's captures store them, but not without knowledge.
    if count("knowledge") == 0, count("digest") > 0 { foreign.append(("digest", count("digest"), "a digest")) }
    for table in ["conversation", "message", "receipt", "checkpoint", "quarantine"] where count(table) > 0 {
      foreign.append((table, count(table), table == "quarantine" ? "a quarantined record" : "a \(table)"))
    }
    guard let first = foreign.first else { return nil }
    let totals = foreign.map { "\($0.table) \($0.count)" }.joined(separator: ", ")
    return "it holds records the demo did not write (\(totals); e.g. \(first.example))"
  }

  /// Why a directory without a workspace must not become the demo's: it holds files that are
  /// not a workspace's (a source tree, documents); nil when it is missing or empty.
  static func nonWorkspaceContents(_ dir: URL) -> String? {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return nil }
    // What a workspace directory may hold before its database exists, and Finder's litter.
    let other = entries.filter { !$0.hasPrefix(SQLiteWorkspaceStore.fileName) && $0 != ".DS_Store" }.sorted()
    guard let first = other.first else { return nil }
    return "it is a directory that is not empty and holds no workspace (\(other.count) entr\(other.count == 1 ? "y" : "ies"), e.g. '\(inertLine(first))')"
  }

  static let demoReviewTitle = "Heuristic review of this repository's Sources/"
  static let demoHandoffFocus = "Continue the demo: storage, search and handoffs"

  /// The path of the program running now, from the kernel (`/proc/self/exe` on Linux), or
  /// Foundation's executable URL elsewhere; nil when neither says.
  static func runningExecutable() -> String? {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), path.hasPrefix("/") {
        return path
      }
      return nil
    #else
      return Bundle.main.executableURL?.path
    #endif
  }

  /// Real content: this project's own design decisions, preferences, goals and tasks.
  static let demoKnowledge: [(KnowledgeKind, String, String, [String], Priority)] = [
    (.decision, "Store each workspace in one SQLite database",
     "A JSON file would be re-read and rewritten whole on every capture; SQLite gives single-row writes, atomic commit, WAL and multi-process locking. The file is created 0600 inside a 0700 directory.",
     ["storage", "sqlite"], .high),
    (.decision, "Name the search mode hybrid-lexical, never semantic",
     "Ranking is BM25 over title, tags and content with phrase and coverage boosts, trigram typo matching and close word forms. It is lexical, so output says hybrid-lexical; it is not vector search and never claims to be.",
     ["search", "truthfulness"], .high),
    (.decision, "Plan, show and confirm every deletion",
     "Deleting an item lists each relationship, handoff reference, digest and active marker it changes, asks on a terminal, then applies everything in one transaction.",
     ["deletion", "safety"], .normal),
    (.preference, "Keep the CLI and the MCP server thin over the library",
     "Parsing and rendering live in the executable; behaviour lives in ContinuityKit and KnowledgeEngine so the iOS app gets the same rules.",
     ["architecture"], .normal),
    (.preference, "Treat stored text as data, never as instructions",
     "Role and tool delimiters such as <system> or <|im_start|> are swapped for visible look-alikes at capture and again when prompts are assembled.",
     ["security", "sanitizer"], .high),
    (.goal, "Capture to restore in under a second on a real workspace",
     "capture → search → digest → handoff → restore should be fast enough to sit in an editor hook.",
     ["performance"], .normal),
    (.fact, "Only loopback may be contacted",
     "The product opens no network connection except an optional model endpoint on 127.0.0.0/8, ::1 or localhost.",
     ["privacy"], .critical),
  ]

  static let demoTasks: [(String, String, Priority)] = [
    ("Benchmark hybrid-lexical search at 100k items", "Compare with SQLite FTS5 and bm25s in the same run.", .high),
    ("Register dolphin mcp with an editor", "Claude Code, Cursor or VS Code; writes need approval.", .normal),
    ("Review the threat model", "Stored text is data; only loopback is contacted.", .normal),
  ]

  /// The live clock and ids, but never the same millisecond twice: the demo adds its records
  /// within a few milliseconds, and records of one millisecond are ordered by their random ids
  /// (review 28-c, 7: the digest listed two tasks of one priority in either order).
  static func strictlyIncreasingClock() -> Environment {
    let last = Mutex<Date?>(nil)
    return Environment(
      now: {
        let live = Environment.live.now()
        return last.withLock { previous in
          let next = previous.map { max(live, $0.addingTimeInterval(0.001)) } ?? live
          previous = next
          return next
        }
      },
      makeID: Environment.live.makeID)
  }

  static let demo = Command(
    spec: CommandSpec(
      path: ["demo"],
      summary: "Run the main job on a dedicated demo workspace with this project's own decisions and tasks.",
      discussion: """
        Uses <default workspace>/../dolphin-demo, or the directory given with --workspace DIR; either
        must be new or empty (or hold only what an earlier demo stored there): the demo refuses a
        workspace with records of yours, its own included, rather than mix its own into them (exit 4).
        Running it again adds nothing new (a changed code analysis revises the stored review item).
        """,
      workspaceHelp: "The demo's workspace (default: <default workspace>/../dolphin-demo, never the default workspace itself)."),
    run: { ctx in
      let dir = demoDirectory(ctx)
      // A link of another user's on the way decides where the demo would write: named first
      // (review, s14: it was reported as "your default workspace").
      if let (link, owner) = WorkspaceTrust.foreignLink(onTheWayTo: dir.path) {
        throw CLIError.usage(
          "\(link) is \(WorkspaceTrust.foreignLinkReason(owner: owner)) Nothing was written.")
      }
      try Commands.requireNoSymbolicLinkInTheWay(
        of: dir.path, option: ctx.workspaceOption, consequence: "nothing was written")
      let env = ctx.console.environment.isEmpty ? ProcessInfo.processInfo.environment : ctx.console.environment
      let own = WorkspaceLocation.defaultDirectory(environment: env)
      if Commands.resolvedPath(dir) == Commands.resolvedPath(own) {
        guard ctx.workspaceOption != nil else {
          // No --workspace: the demo's own directory, beside the default workspace, is that
          // workspace — by its name (the default is itself a `dolphin-demo`: review 28-c, 3, it was
          // called a symbolic link) or through a link. Refused for what it is: exit 4, as below.
          let sameName = dir.standardizedFileURL.path == own.standardizedFileURL.path
          throw ValidationError(
            field: "workspace",
            message: sameName
              ? "the demo's own directory, <default workspace>/../dolphin-demo, is your default workspace \(own.path) "
                + "itself (it is named dolphin-demo); the demo writes only to a workspace of its own. Nothing was "
                + "written. Name a new directory with --workspace DIR"
              : "the demo's own directory \(dir.path) leads to your default workspace \(own.path) (a symbolic link); "
                + "the demo writes only to a workspace of its own. Nothing was written. Remove or replace that link, "
                + "or name a new directory with --workspace DIR")
        }
        // A well-formed path refused for what it is: validation (exit 4), not usage (review 18-a, A8).
        throw ValidationError(
          field: "workspace",
          message: "--workspace \(dir.path) is your default workspace; the demo writes only to a workspace of its own (omit --workspace to use \(own.deletingLastPathComponent().appendingPathComponent("dolphin-demo").path))")
      }
      let ownDemo = ownDemoDirectory(ctx)
      // The demo's own directory sits beside the default workspace, which may be in a place
      // every user can write (`DOLPHIN_HOME=/tmp/…`): a directory another user made there first
      // is theirs to read and to plant records in.
      var directoryStatus = stat()
      if lstat(dir.path, &directoryStatus) == 0, directoryStatus.st_uid != geteuid() {
        throw CLIError.usage(
          "\(dir.path) belongs to \(FileAccessAdvice.owner(directoryStatus.st_uid)), not to this user: the demo writes only to a "
            + "directory of this user's, so that no one else can read or plant its records. Nothing was written. "
            + "Remove that directory (or have its owner remove it), or name a new directory with --workspace DIR")
      }
      if let reason = try demoRefusal(dir) {
        let why =
          "\(reason); the demo needs an empty or new workspace (or one only an earlier demo wrote to), "
          + "so that its records and its active handoff never mix with yours. Nothing was written. "
        // Its own directory holds records of the user's: they stay; the demo goes elsewhere.
        if Commands.resolvedPath(dir) == Commands.resolvedPath(ownDemo) {
          throw ValidationError(
            field: "workspace",
            message: "the demo's workspace \(dir.path): \(why)Name a new directory with --workspace DIR, or, once "
              + "your records there are kept elsewhere "
              + "(`\(SuggestedCommand("dolphin export --output FILE").naming(workspace: dir.path))`), "
              + "remove \(ShellWord.word(dir.path)) to start the demo afresh")
        }
        throw ValidationError(
          field: "workspace",
          message: "--workspace \(dir.path): \(why)Omit --workspace to use \(ownDemo.path), or name a new directory")
      }
      let store = try SQLiteWorkspaceStore.open(directory: dir)
      let engine = KnowledgeEngine(store: store, environment: strictlyIncreasingClock())
      let c = ctx.console
      let say: (String) -> Void = { line in if ctx.json { c.printError(line) } else { c.print(line) } }
      say("Demo workspace: \(dir.path)")
      let existing = try engine.listKnowledge()
      var captured: [KnowledgeItem] = []
      var skipped = 0
      for (kind, title, content, tags, priority) in demoKnowledge {
        if let item = existing.first(where: { $0.kind == kind && $0.title == title }) {
          captured.append(item)
          skipped += 1
          continue
        }
        let r = try engine.capture(CaptureRequest(kind: kind, title: title, content: content, tags: tags, priority: priority))
        captured.append(r.item)
        if let d = r.digest { say("  stored rule-based digest \(d.id.uuidString) at \(try engine.store.read { try $0.knowledgeCount() }) items") }
      }
      say("1. Captured \(captured.count - skipped) knowledge item(s) (\(skipped) already present):")
      for k in captured { say("   " + Render.knowledgeLine(k)) }
      let tasks = try engine.listTasks()
      var added = 0
      for (title, notes, priority) in demoTasks where !tasks.contains(where: { $0.title == title }) {
        _ = try engine.addTask(title: title, notes: notes, priority: priority, knowledgeIDs: [captured[0].id])
        added += 1
      }
      // In the demo's own order: added in one millisecond, tasks of one priority would otherwise be
      // ordered by their random ids, and the handoff carry other tasks each run (review 28-c, 7).
      let stored = try engine.listTasks()
      let allTasks = demoTasks.compactMap { demo in stored.first { $0.title == demo.0 } }
      say("2. Tasks (\(added) added):")
      for t in allTasks { say("   " + Render.taskLine(t)) }
      // 3. A heuristic review of this repository's own Sources/, captured as a code item.
      let sources = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Sources")
      let reviewTitle = demoReviewTitle
      if FileManager.default.fileExists(atPath: sources.path) {
        let analysis = CodeAnalyzer.analyze(paths: [sources.path])
        var counts: [String: Int] = [:]
        for r in analysis.reports { for c in r.counts { counts[c.rule.rawValue, default: 0] += c.count } }
        let summary = counts.keys.sorted().map { "\($0) \(counts[$0] ?? 0)" }.joined(separator: ", ")
        say("3. Heuristic code analysis of \(sources.path): \(analysis.reports.count) file(s), \(analysis.totalFindings) finding(s)" + (summary.isEmpty ? "" : " (\(summary))"))
        let reviewContent = "Heuristic, read-only lexical checks (not a compiler) over \(analysis.reports.count) Swift files found \(analysis.totalFindings) finding(s)" + (summary.isEmpty ? "." : ": \(summary).")
        if let stored = try engine.listKnowledge(kinds: [.code]).first(where: { $0.title == reviewTitle }) {
          // A later run over changed sources revises the stored figures instead of keeping stale ones.
          if stored.content != reviewContent {
            _ = try engine.reviseContent(of: stored.id, to: reviewContent)
            say("   Revised the stored review \(stored.id.uuidString) with these figures.")
          }
        } else {
          // Said, as step 1 says its captures (review 28-c, 7: step 8 counted an item no step named).
          let review = try engine.capture(
            CaptureRequest(kind: .code, title: reviewTitle, content: reviewContent, tags: ["code-review", "heuristic"])).item
          say("   Stored the review: " + Render.knowledgeLine(review))
        }
      } else {
        say("3. Heuristic code analysis skipped: run the demo from the repository root to analyze its Sources/.")
      }
      // 4. Search.
      let query = "sqlite storage"
      let found = try engine.search(query, limit: 3)
      say("4. dolphin search \"\(query)\" — mode \(found.mode.rawValue) (\(found.algorithmVersion ?? "")), \(found.total) match(es):")
      for (i, r) in found.results.enumerated() { say("   \(i + 1). \(r.id.uuidString)  \(r.kind.name)  \(inertQuoted(r.title))") }
      // 5. The rule-based digest.
      let digest = try engine.projectContext()
      say("5. Project digest (rule-based, every line with its evidence ids):")
      for line in Render.context(digest).split(separator: "\n", omittingEmptySubsequences: false) { say("   " + line) }
      // 6. A handoff, then a restore from a fresh process.
      let focus = demoHandoffFocus
      let handoff: Handoff
      if let existing = try engine.listHandoffs().handoffs.first(where: { $0.focus == focus }) {
        handoff = existing
        say("6. Handoff already present: \(handoff.id.uuidString)")
      } else {
        handoff = try engine.createHandoff(HandoffRequest(
          focus: focus, nextSteps: ["Benchmark search at 100k items", "Register dolphin mcp with an editor"],
          knowledgeIDs: Array(captured.prefix(3).map(\.id)), taskIDs: Array(allTasks.prefix(2).map(\.id)))).handoff
        say("6. Created handoff \(handoff.id.uuidString): \(inertLine(handoff.focus))")
      }
      // This very program, as the kernel names it, never `argv[0]`: started through PATH, that
      // is a bare `dolphin`, which would name a program in the current directory (review, s15:
      // root's demo ran another user's `./dolphin`).
      if let me = Self.runningExecutable(), FileManager.default.isExecutableFile(atPath: me) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: me)
        p.arguments = ["handoff", "restore", handoff.id.uuidString, "--workspace", dir.path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        say("7. Restored in a fresh process (dolphin handoff restore \(handoff.id.uuidString)); it selects context only:")
        for line in out.split(separator: "\n", omittingEmptySubsequences: false) { say("   " + line) }
      }
      let status = try engine.status()
      say("8. Status: \(status.counts["knowledge"] ?? 0) knowledge items, \(status.counts["task"] ?? 0) tasks, \(status.counts["digest"] ?? 0) digest(s), \(status.counts["handoff"] ?? 0) handoff(s), integrity " + (status.integrityProblems.isEmpty ? "ok" : "\(status.integrityProblems.count) problem(s)"))
      say("Try: " + SuggestedCommand("dolphin search \"handoff\"").naming(workspace: dir.path))
      if ctx.json {
        struct Out: Encodable {
          var workspace: String; var knowledge: [KnowledgeItem]; var tasks: [TaskItem]; var search: SearchResponse
          var context: ProjectContext; var handoffID: UUID; var status: WorkspaceStatus
        }
        try c.printJSON(Out(workspace: dir.path, knowledge: captured, tasks: allTasks, search: found, context: digest, handoffID: handoff.id, status: status))
      }
    })
}
