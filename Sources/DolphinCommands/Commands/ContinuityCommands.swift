import ContinuityKit
import Foundation
import KnowledgeEngine

/// `context`, `review` and `insights`: the rule-based views of the workspace.
enum ContinuityCommands {
  static let all = [context, review, insights]

  static let context = Command(
    spec: CommandSpec(
      path: ["context"], summary: "Show the rule-based project digest (decisions, goals, open tasks, …) with evidence ids.",
      options: [OptionSpec(name: "save", value: nil, help: "Also store it as a digest (trigger manual).")],
      discussion: """
        The digest is built by deterministic templates, not a model. Without --save nothing is written and the
        output depends only on the workspace (the same in any process, locale and time zone).
        --json: {context}; with --save also the digest stored (digest) and the ids of the oldest digests
        dropped to keep at most \(Limits.digestsKept) (droppedDigestIDs).
        """),
    run: { ctx in
      let engine = try ctx.engine(ctx.arguments.has("save") ? .create : .read)
      // `{context}`, and with --save the digest stored, under its type's key, beside it with the
      // ids of the oldest digests dropped to keep at most `Limits.digestsKept`.
      struct Out: Encodable { var context: ProjectContext; var digest: Digest?; var droppedDigestIDs: [UUID]? }
      let out: Out
      if ctx.arguments.has("save") {
        let saved = try engine.saveDigestReportingDropped()
        out = Out(
          context: ProjectContext(sections: saved.digest.sections), digest: saved.digest,
          droppedDigestIDs: saved.droppedDigestIDs)
      } else {
        out = Out(context: try engine.projectContext(), digest: nil, droppedDigestIDs: nil)
      }
      if ctx.json {
        try ctx.console.printJSON(out)
      } else {
        ctx.console.print(Render.context(out.context))
        if let d = out.digest {
          ctx.console.print("")
          ctx.console.print("Stored rule-based digest \(d.id.uuidString) (trigger manual) at \(Render.date(d.createdAt)).")
          if let dropped = out.droppedDigestIDs, !dropped.isEmpty {
            ctx.console.print(
              "Dropped the oldest digest(s) to keep at most \(Limits.digestsKept): "
                + dropped.map(\.uuidString).joined(separator: ", ") + ".")
          }
        }
      }
    })

  static let review = Command(
    spec: CommandSpec(
      path: ["review"], summary: "Show a rule-based project review: key digest sections, top insights, task status.",
      discussion: "Read-only. Every line carries the ids of the records it came from."),
    run: { ctx in
      let r = try ctx.engine(.read).review()
      if ctx.json { try ctx.console.printJSON(r) } else { ctx.console.print(Render.review(r)) }
    })

  static let insights = Command(
    spec: CommandSpec(
      path: ["insights"], summary: "List rule-based follow-up insights (conflicts, stale handoffs, duplicate knowledge and tasks, …).",
      options: [
        OptionSpec(name: "min-priority", value: "P", help: "Only insights at priority P or above: low (default), normal, high, critical.")
      ],
      discussion: """
        Rules: contradiction, possible-conflict, stale-handoff, unsupported-tasks, superseded-evidence
        (open tasks whose cited knowledge is all superseded), near-duplicates (knowledge titles),
        duplicate-tasks (open task titles), missing-relationships, missing-tags (memory mirrors left out).
        At most \(Limits.insights) insights, in a stable order; an insight cites at most \(Limits.idsPerList)
        evidence ids and says how many more there are. Read-only.
        """),
    run: { ctx in
      let p = try ctx.arguments.value("min-priority").map { try ctx.parseEnum(Priority.self, $0, name: "--min-priority") } ?? .low
      let r = try ctx.engine(.read).insights(minimumPriority: p)
      if ctx.json {
        try ctx.console.printJSON(CountedListing(listing: r, count: r.insights.count))
      } else {
        ctx.console.print(Render.insights(r))
      }
    })
}
