import ContinuityKit
import Foundation
import KnowledgeEngine

extension Commands {
  /// The demo workspace: beside the default one, never the user's own.
  static func demoDirectory(_ ctx: CommandContext) -> URL {
    if let w = ctx.arguments.value("workspace") { return URL(fileURLWithPath: w, isDirectory: true) }
    let env = ctx.console.environment.isEmpty ? ProcessInfo.processInfo.environment : ctx.console.environment
    return WorkspaceLocation.defaultDirectory(environment: env).deletingLastPathComponent()
      .appendingPathComponent("dolphin-demo", isDirectory: true)
  }

  /// Real content: this project's own design decisions, preferences, goals and tasks.
  static let demoKnowledge: [(KnowledgeKind, String, String, [String], Priority)] = [
    (.decision, "Store each workspace in one SQLite database",
     "A JSON file would be re-read and rewritten whole on every capture; SQLite gives single-row writes, atomic commit, WAL and multi-process locking. The file is created 0600 inside a 0700 directory.",
     ["storage", "sqlite"], .high),
    (.decision, "Name the search mode hybrid-lexical, never semantic",
     "Ranking is BM25 over title, tags and content with phrase and coverage boosts and trigram typo matching. It is lexical, so output says hybrid-lexical and nothing suggests vectors.",
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
    ("Persist the hybrid-lexical index in the capture transaction", "So a cold search reads only the postings it needs.", .high),
    ("Build the handoff create/restore flow", "Restore marks the handoff active and prints a brief; it re-runs nothing.", .normal),
    ("Expose the tools over MCP on stdio", "Same validation, approvals and receipts as the agent runtime.", .normal),
  ]

  static let demo = Command(
    spec: CommandSpec(
      path: ["demo"],
      summary: "Run the main job on a dedicated demo workspace with this project's own decisions and tasks.",
      discussion: "Uses <default workspace>/../dolphin-demo (or --workspace DIR), never your own workspace. Running it again adds nothing new."),
    run: { ctx in
      let dir = demoDirectory(ctx)
      let store = try SQLiteWorkspaceStore.open(directory: dir)
      let engine = KnowledgeEngine(store: store)
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
      let allTasks = try engine.listTasks()
      say("2. Tasks (\(added) added):")
      for t in allTasks { say("   " + Render.taskLine(t)) }
      let first = try engine.knowledge(id: captured[0].id)
      say("3. Exact lookup by id (dolphin knowledge get \(first.id.uuidString)):")
      for line in Render.knowledgeDetail(first).split(separator: "\n", omittingEmptySubsequences: false) { say("   " + line) }
      let status = try engine.status()
      say("4. Status: \(status.counts["knowledge"] ?? 0) knowledge items, \(status.counts["task"] ?? 0) tasks, \(status.counts["digest"] ?? 0) digest(s), integrity " + (status.integrityProblems.isEmpty ? "ok" : "\(status.integrityProblems.count) problem(s)"))
      say("Try: dolphin knowledge list --workspace \(dir.path)")
      if ctx.json {
        struct Out: Encodable { var workspace: String; var knowledge: [KnowledgeItem]; var tasks: [TaskItem]; var status: WorkspaceStatus }
        try c.printJSON(Out(workspace: dir.path, knowledge: captured, tasks: allTasks, status: status))
      }
    })
}
