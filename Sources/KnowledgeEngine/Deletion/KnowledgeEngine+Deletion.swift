import Foundation

extension KnowledgeEngine {
  /// Plans a deletion: every relationship, task or handoff reference, digest, memory link and
  /// active marker it will change or remove, the kept records whose text quotes the record's id
  /// or title (``DeletionPlan/keptQuotes``), and how many digests the workspace holds
  /// (``DeletionPlan/storedDigestCount``).
  /// - Throws: ``WorkspaceError/notFound(recordType:id:)``.
  public func planDeletion(of request: DeletionRequest) throws -> DeletionPlan {
    try store.read { tx in
      var plan = try Self.plan(request, tx)
      plan.keptQuotes = try Self.keptQuotes(request, tx)
      plan.storedDigestCount = try tx.digestCount()
      return plan
    }
  }

  /// Applies a plan in one transaction, then checkpoints the WAL so deleted text does not
  /// linger on disk (the database runs with `secure_delete`).
  /// - Throws: ``WorkspaceError/notFound(recordType:id:)`` when the target is gone;
  ///   ``WorkspaceError/concurrentChange(operation:)`` when the workspace changed since the plan
  ///   was made.
  public func apply(_ plan: DeletionPlan) throws -> DeletionReport {
    let report = try store.write { tx -> DeletionReport in
      // The kept quotes and the digest count are not compared: a chat message, receipt or
      // digest that names nothing deleted, written meanwhile, changes nothing this deletion
      // does (both are informational).
      let current = try Self.plan(Self.request(for: plan), tx)
      guard current.changesOnly == plan.changesOnly else {
        throw WorkspaceError.concurrentChange(operation: "deletion")
      }
      let removed = try Self.execute(plan, tx, now: environment.now())
      // Index terms are copies of the deleted text: drop those no document uses any more.
      try tx.pruneUnusedLexicalTerms()
      return DeletionReport(plan: plan, removedIDs: removed)
    }
    if let s = store as? SQLiteWorkspaceStore { try? s.checkpoint() }
    return report
  }

  static func request(for plan: DeletionPlan) -> DeletionRequest {
    switch plan.target {
    case .knowledge: return .knowledge(plan.targetID)
    case .memory: return .memory(plan.targetID)
    case .task: return .task(plan.targetID)
    case .handoff: return .handoff(plan.targetID)
    }
  }

  /// A title or focus in a change's detail: cut to 60 characters, quoted with `\\` and `"`
  /// escaped and on one line (``TerminalText/quoted(_:)``), after the record's id, so that no
  /// title can append what reads as another id or action.
  static func quote(_ s: String) -> String { TerminalText.quoted(Truncation.truncate(s, to: 60)) }

  static func plan(_ request: DeletionRequest, _ tx: WorkspaceTransaction) throws -> DeletionPlan {
    switch request {
    case .knowledge(let id):
      guard let item = try tx.knowledge(id: id) else {
        throw WorkspaceError.notFound(recordType: "knowledge item", id: id.uuidString)
      }
      var changes = try knowledgeChanges(item, tx)
      // Every memory that links to this item loses the link (whatever the item's own memoryID
      // says); a memory this item names but that links elsewhere keeps its link.
      for mid in try tx.memories(linkingTo: id) {
        changes.append(.init(action: "clearMemoryLink", recordID: mid, detail: "keep legacy memory \(mid.uuidString) but clear its link to this mirror"))
      }
      return DeletionPlan(target: .knowledge, targetID: id, targetTitle: item.title, changes: changes)
    case .memory(let id):
      guard let memory = try tx.memory(id: id) else { throw WorkspaceError.notFound(recordType: "memory", id: id.uuidString) }
      var changes: [DeletionPlan.Change] = []
      for d in try tx.digests(citing: id) {
        changes.append(.init(action: "deleteDigest", recordID: d, detail: "delete digest \(d.uuidString), which cites this memory"))
      }
      // Only an item that mirrors this memory (source legacyMemory, memoryID = this memory) is
      // deleted with it; a link to any other item (a crossed link, which older imports let in)
      // is left alone and shown.
      let mirrors = try tx.mirrors(ofMemory: id)
      for kid in mirrors {
        guard let mirror = try tx.knowledge(id: kid) else { continue }
        changes.append(.init(action: "deleteMirror", recordID: kid, detail: "delete its knowledge mirror \(kid.uuidString) \(quote(mirror.title))"))
        changes += try knowledgeChanges(mirror, tx)
      }
      if let kid = memory.knowledgeID, !mirrors.contains(kid), let linked = try tx.knowledge(id: kid) {
        changes.append(
          .init(
            action: "keepMismatchedLink", recordID: kid,
            detail: "keep knowledge item \(kid.uuidString) \(quote(linked.title)): this memory links to it as its mirror, "
              + "but it does not mirror this memory (source \(linked.source.rawValue), "
              + (linked.memoryID.map { "memoryID \($0.uuidString)" } ?? "no memoryID") + ")"))
      }
      return DeletionPlan(target: .memory, targetID: id, targetTitle: Truncation.truncate(memory.text, to: 80), changes: changes)
    case .task(let id):
      guard let task = try tx.task(id: id) else { throw WorkspaceError.notFound(recordType: "task", id: id.uuidString) }
      var changes: [DeletionPlan.Change] = []
      for h in try tx.listHandoffs() where h.taskIDs.contains(id) {
        changes.append(.init(action: "unlinkTaskFromHandoff", recordID: h.id, detail: "remove it from handoff \(h.id.uuidString) \(quote(h.focus))\(summaryNote(h))"))
      }
      for d in try tx.digests(citing: id) {
        changes.append(.init(action: "deleteDigest", recordID: d, detail: "delete digest \(d.uuidString), which cites this task"))
      }
      return DeletionPlan(target: .task, targetID: id, targetTitle: task.title, changes: changes)
    case .handoff(let id):
      guard let h = try tx.handoff(id: id) else { throw WorkspaceError.notFound(recordType: "handoff", id: id.uuidString) }
      var changes: [DeletionPlan.Change] = []
      if try tx.activeHandoffID() == id {
        changes.append(.init(action: "clearActiveHandoff", recordID: id, detail: "clear the active-handoff marker (this handoff is active)"))
      }
      for d in try tx.digests(citing: id) {
        changes.append(.init(action: "deleteDigest", recordID: d, detail: "delete digest \(d.uuidString), which cites this handoff"))
      }
      return DeletionPlan(target: .handoff, targetID: id, targetTitle: h.focus, changes: changes)
    }
  }

  /// The changes deleting knowledge item `item` makes to other records.
  /// - Throws: ``WorkspaceError/validation(_:)`` when a record the deletion rewrites holds stored
  ///   text over a bound, which its rewrite would refuse (``requireRewritable(_:_:_:deleting:_:)``):
  ///   said before the plan is shown, naming that record and its fix.
  static func knowledgeChanges(_ item: KnowledgeItem, _ tx: WorkspaceTransaction) throws -> [DeletionPlan.Change] {
    var changes: [DeletionPlan.Change] = []
    let target = "knowledge item \(item.id.uuidString)"
    for (owner, kind) in try tx.relationships(targeting: item.id) {
      let stored = try tx.knowledge(id: owner)
      if var rewritten = stored {
        // As `removeRelationships(targeting:at:)` rewrites it.
        rewritten.relationships.removeAll { $0.targetID == item.id }
        rewritten.revision += 1
        try requireRewritable("knowledge", owner, "relates to it (\(kind.rawValue))", deleting: target) {
          () throws(ValidationError) in try Limits.validate(rewritten)
        }
      }
      let title = stored?.title ?? owner.uuidString
      changes.append(.init(action: "removeRelationship", recordID: owner, detail: "remove relationship \(kind.rawValue) from \(owner.uuidString) \(quote(title))"))
    }
    for t in try tx.tasks(referencing: item.id) {
      var rewritten = t
      rewritten.knowledgeIDs.removeAll { $0 == item.id }
      try requireRewritable("task", t.id, "refers to it", deleting: target) { () throws(ValidationError) in
        try Limits.validate(rewritten)
      }
      changes.append(.init(action: "unlinkTask", recordID: t.id, detail: "remove it from task \(t.id.uuidString) \(quote(t.title))"))
    }
    for h in try tx.listHandoffs() where h.knowledgeIDs.contains(item.id) {
      var rewritten = h
      rewritten.knowledgeIDs.removeAll { $0 == item.id }
      try requireRewritable("handoff", h.id, "carries it", deleting: target) { () throws(ValidationError) in
        try Limits.validate(rewritten)
      }
      changes.append(.init(action: "unlinkHandoff", recordID: h.id, detail: "remove it from handoff \(h.id.uuidString) \(quote(h.focus))\(summaryNote(h))"))
    }
    for d in try tx.digests(citing: item.id) {
      changes.append(.init(action: "deleteDigest", recordID: d, detail: "delete digest \(d.uuidString), which quotes this item"))
    }
    let current = try becomingCurrent(without: item, tx)
    changes += current
    // A rule-built summary that marks such an item `(superseded)` is rebuilt without the mark
    // (review 18-d, M3: the plan did not name the handoff whose summary changed).
    let nowCurrent = Set(current.map(\.recordID))
    for h in try tx.listHandoffs()
    where isGeneratedSummary(h.summary) && !h.knowledgeIDs.contains(item.id) && h.knowledgeIDs.contains(where: nowCurrent.contains) {
      changes.append(
        .init(
          action: "rebuildHandoffSummary", recordID: h.id,
          detail: "rebuild the rule-generated summary of handoff \(h.id.uuidString) \(quote(h.focus)), "
            + "which marks an item that becomes current as superseded"))
    }
    return changes
  }

  /// The items that another item supersedes now but none would once `item` is gone — the
  /// middle of a chain A ← B ← C deleted leaves A superseded by nothing — as `becomesCurrent`
  /// changes, by `uuidString` (review 18-b B2: A came back into the digest unannounced).
  ///
  /// Each says that the item shows as current again (digest, search, handoff briefs) and, when
  /// `item` has a successor, how to carry the link forward.
  static func becomingCurrent(without item: KnowledgeItem, _ tx: WorkspaceTransaction) throws -> [DeletionPlan.Change] {
    let edges = try tx.supersedeEdges()
    guard edges.contains(where: { $0.source == item.id }) else { return [] }
    let before = SupersedeGraph(edges: edges)
    let after = SupersedeGraph(edges: edges.filter { $0.source != item.id && $0.target != item.id })
    let successor = before.successors(of: item.id).first
    var changes: [DeletionPlan.Change] = []
    for id in before.superseded.subtracting(after.superseded).subtracting([item.id]).sorted(by: { $0.uuidString < $1.uuidString }) {
      let title = try tx.knowledge(id: id)?.title ?? id.uuidString
      let carry = successor.map {
        "; to keep it as history, let another item supersede it, e.g. `\(command: "dolphin knowledge edit \($0.uuidString) --relates supersedes:\(id.uuidString)")`"
      } ?? ""
      changes.append(
        .init(
          action: "becomesCurrent", recordID: id,
          detail: "knowledge item \(id.uuidString) \(quote(title)) is then superseded by no item and shows as current again "
            + "(digest, search, handoff briefs)\(carry)"))
    }
    return changes
  }

  /// What happens to a handoff's summary when a record it carries is deleted, for the plan.
  static func summaryNote(_ h: Handoff) -> String {
    isGeneratedSummary(h.summary)
      ? " and rebuild its rule-generated summary without it"
      : " (its summary, written by hand, is kept as written)"
  }

  /// Whether `summary` was built by rules (``generatedSummaryLabel``) rather than written.
  static func isGeneratedSummary(_ summary: String) -> Bool {
    summary.hasPrefix(generatedSummaryLabel)
  }

  /// `h` with its summary rebuilt from the records it still carries when rules built it, so a
  /// deleted record's title does not survive in that derived copy; a summary written by hand
  /// is the user's own text and is kept as written (replacing a title inside it would also
  /// change every word that contains the title).
  static func refreshingSummary(_ h: Handoff, _ tx: WorkspaceTransaction) throws -> Handoff {
    guard isGeneratedSummary(h.summary) else { return h }
    var h = h
    h.summary = try generatedSummary(knowledgeIDs: h.knowledgeIDs, taskIDs: h.taskIDs, tx)
    return h
  }

  /// Deletes knowledge item `id` and applies its cascade; items that lose a relationship to it
  /// get a new revision dated `now`, and tasks that cited it record a change at `now`.
  static func deleteKnowledgeCascade(_ id: UUID, _ tx: WorkspaceTransaction, now: Date) throws {
    // Items it supersedes may then stand again: summaries built by rules that mark them as
    // superseded are rebuilt once it is gone.
    let predecessors = try tx.knowledge(id: id).map(supersedeTargets(of:)) ?? []
    try tx.removeRelationships(targeting: id, at: now)
    for var t in try tx.tasks(referencing: id) {
      t.knowledgeIDs.removeAll { $0 == id }
      t.recordChange(at: now)
      try tx.updateTask(t)
    }
    for var h in try tx.listHandoffs() where h.knowledgeIDs.contains(id) {
      h.knowledgeIDs.removeAll { $0 == id }
      try tx.updateHandoff(try refreshingSummary(h, tx))
    }
    for d in try tx.digests(citing: id) where try tx.digest(id: d) != nil { try tx.deleteDigest(id: d) }
    let rowid = try tx.deleteKnowledge(id: id)
    try LexicalIndexStore.remove(knowledgeRowID: rowid, in: tx)
    try rebuildGeneratedSummaries(carryingAny: predecessors, tx)
  }

  static func execute(_ plan: DeletionPlan, _ tx: WorkspaceTransaction, now: Date) throws -> [UUID] {
    var removed: [UUID] = [plan.targetID]
    removed += plan.changes.filter { $0.action == "deleteDigest" || $0.action == "deleteMirror" }.map(\.recordID)
    switch plan.target {
    case .knowledge:
      try deleteKnowledgeCascade(plan.targetID, tx, now: now)
      for change in plan.changes where change.action == "clearMemoryLink" { try tx.setMemoryKnowledgeID(change.recordID, nil) }
    case .memory:
      for d in try tx.digests(citing: plan.targetID) where try tx.digest(id: d) != nil { try tx.deleteDigest(id: d) }
      // The plan was made again in this transaction and is the same: its mirrors are the ones.
      for change in plan.changes where change.action == "deleteMirror" {
        if try tx.knowledge(id: change.recordID) != nil { try deleteKnowledgeCascade(change.recordID, tx, now: now) }
      }
      let rowid = try tx.deleteMemory(id: plan.targetID)
      try LexicalIndexStore.remove(memoryRowID: rowid, in: tx)
    case .task:
      for var h in try tx.listHandoffs() where h.taskIDs.contains(plan.targetID) {
        h.taskIDs.removeAll { $0 == plan.targetID }
        // Rebuilt after the task row is gone would also work; before, it must not list it.
        try tx.updateHandoff(try refreshingSummary(h, tx))
      }
      for d in try tx.digests(citing: plan.targetID) where try tx.digest(id: d) != nil { try tx.deleteDigest(id: d) }
      try tx.deleteTask(id: plan.targetID)
    case .handoff:
      for d in try tx.digests(citing: plan.targetID) where try tx.digest(id: d) != nil { try tx.deleteDigest(id: d) }
      try tx.deleteHandoff(id: plan.targetID)
    }
    var seen = Set<UUID>()
    return removed.filter { seen.insert($0).inserted }
  }
}
