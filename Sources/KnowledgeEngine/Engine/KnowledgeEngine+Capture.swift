import Foundation

extension KnowledgeEngine {
  /// Every `autoDigestInterval`-th knowledge item (by count) stores a digest in the capture's
  /// own transaction.
  public static let autoDigestInterval = 5

  /// Sanitizes, validates and stores a knowledge item, updates the lexical index, and stores a
  /// digest when the knowledge count lands on a multiple of ``autoDigestInterval`` — all in
  /// one transaction. The result names the live items of the same kind that already have the
  /// title (``CaptureResult/sameTitle``, ``sameTitle(as:in:)``); nothing is refused for it.
  ///
  /// Title and content are checked against their bounds as given, then sanitized
  /// (``Limits/sanitizedInput(_:_:limit:trimming:)``: text made only of control or invisible
  /// characters is refused, never stored empty) and checked again; tags are sanitized, then
  /// trimmed, lowercased and deduplicated. Then, unless
  /// ``CaptureRequest/allowCredentials`` is set, text that looks like a credential is refused
  /// (``CredentialDetector``).
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the field, limit and size, or the
  ///   credential's kind and line:column; ``WorkspaceError/capacity(what:limit:held:adding:)``; storage
  ///   errors. Nothing is written on error.
  public func capture(_ request: CaptureRequest) throws -> CaptureResult {
    let text = try Self.checkedText(of: request)
    let now = environment.now()
    let item = KnowledgeItem(
      id: environment.makeID(), kind: request.kind, title: text.title, content: text.content,
      source: request.source,
      tags: text.tags,
      relationships: Self.dedupeRelationships(request.relationships),
      priority: request.priority, createdAt: now, updatedAt: now)
    return try store.write { tx in
      var result = try captureInTransaction(item, tx)
      // Said, never refused: a person may mean a second item of the same title.
      result.sameTitle = try Self.sameTitle(as: item, in: tx)
      return result
    }
  }

  /// A capture's text as ``capture(_:)`` stores it — title and content checked against their
  /// bounds as given, sanitized and checked again, tags normalized — after refusing
  /// credential-looking text (unless ``CaptureRequest/allowCredentials``).
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the field (`title`, `content`,
  ///   `tags[i]`).
  static func checkedText(of request: CaptureRequest) throws(WorkspaceError)
    -> (title: String, content: String, tags: [String])
  {
    let title: String
    let content: String
    let tags: [String]
    do {
      title = try Limits.sanitizedInput("title", request.title, limit: Limits.title, trimming: true, required: true)
      content = try Limits.sanitizedInput("content", request.content, limit: Limits.content)
      tags = try Limits.normalizedTags(request.tags)
    } catch { throw WorkspaceError.validation(error) }
    try refuseCredentials(
      in: [("title", title), ("content", content)] + tags.enumerated().map { ("tags[\($0.offset)]", $0.element) },
      allowed: request.allowCredentials)
    return (title, content, tags)
  }

  /// Refuses new text that looks like a credential unless the user explicitly allowed it.
  ///
  /// Every path that stores new user or agent text (capture, memory save, task add, handoff
  /// fields) calls this; `allowed` comes only from an explicit user choice, never from an agent
  /// or MCP client.
  /// - Parameters:
  ///   - fields: (field name, text) pairs, e.g. `("content", …)`, `("tags[1]", …)`.
  ///   - allowed: the user's explicit override.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the field, the kind and line:column.
  static func refuseCredentials(in fields: [(String, String)], allowed: Bool) throws(WorkspaceError) {
    guard !allowed else { return }
    for (field, text) in fields {
      do { try CredentialDetector.requireNoCredential(in: text, field: field) } catch { throw .validation(error) }
    }
  }

  /// The text fields of a knowledge item, named as in validation messages.
  static func textFields(of item: KnowledgeItem) -> [(String, String)] {
    [("title", item.title), ("content", item.content)] + item.tags.enumerated().map { ("tags[\($0.offset)]", $0.element) }
  }

  /// The bulk path (imports, benchmarks): sanitizes and validates every request like
  /// ``capture(_:)`` (credentials included, per request), stores them all with their index rows in ONE transaction, and stores a
  /// single digest at the end (trigger `manual`) instead of one per multiple of five.
  /// - Returns: the stored items, in request order, and the digest.
  /// - Throws: the first validation or capacity error; nothing is stored then.
  public func captureBulk(_ requests: [CaptureRequest]) throws -> (items: [KnowledgeItem], digest: Digest?) {
    for (i, request) in requests.enumerated() {
      do { _ = try Limits.normalizedTags(request.tags, field: "requests[\(i)].tags") } catch {
        throw WorkspaceError.validation(error)
      }
    }
    let items = requests.map { request in
      let now = environment.now()
      return KnowledgeItem(
        id: environment.makeID(), kind: request.kind,
        title: Limits.sanitized(request.title, trimming: true),
        content: Sanitizer.sanitize(request.content), source: request.source,
        tags: Limits.normalizeTags(request.tags.map(Sanitizer.sanitize)),
        relationships: Self.dedupeRelationships(request.relationships), priority: request.priority,
        createdAt: now, updatedAt: now)
    }
    for (i, (item, request)) in zip(items, requests).enumerated() {
      let fields = Self.textFields(of: item).map { ("requests[\(i)].\($0.0)", $0.1) }
      try Self.refuseCredentials(in: fields, allowed: request.allowCredentials)
    }
    return try store.write { tx in
      try tx.requireKnowledgeCapacity(adding: items.count)
      var batch: [(document: IndexedDocument, key: Int64)] = []
      batch.reserveCapacity(items.count)
      for item in items {
        let rowid = try tx.insertKnowledge(item, capacityChecked: true)
        batch.append((IndexedDocument(item), LexicalIndexStore.key(knowledgeRowID: rowid)))
      }
      try LexicalIndexStore.index(batch: batch, in: tx)
      guard !items.isEmpty else { return (items, nil) }
      let d = try DigestBuilder.build(tx, id: environment.makeID(), now: environment.now(), trigger: .manual)
      try tx.insertDigest(d)
      return (items, d)
    }
  }

  static func dedupeRelationships(_ r: [KnowledgeRelationship]) -> [KnowledgeRelationship] {
    var seen = Set<KnowledgeRelationship>()
    return r.filter { seen.insert($0).inserted }
  }

  /// Inserts an already-built item with its index rows and the automatic digest.
  func captureInTransaction(_ item: KnowledgeItem, _ tx: WorkspaceTransaction) throws -> CaptureResult {
    let rowid = try tx.insertKnowledge(item)
    try LexicalIndexStore.index(knowledge: item, rowID: rowid, in: tx)
    // A handoff summary built by rules marks superseded items: one carrying an item this new
    // one supersedes is rebuilt.
    let rebuilt = try Self.rebuildGeneratedSummaries(carryingAny: Self.supersedeTargets(of: item), tx)
    var digest: Digest?
    let count = try tx.knowledgeCount()
    if count > 0, count % Self.autoDigestInterval == 0 {
      let d = try DigestBuilder.build(
        tx, id: environment.makeID(), now: environment.now(), trigger: .captureThreshold(count: count))
      try tx.insertDigest(d)
      digest = d
    }
    return CaptureResult(item: item, digest: digest, rebuiltHandoffIDs: rebuilt)
  }

  /// Replaces the content of knowledge item `id` (sanitized and checked like a capture), bumps
  /// its revision, sets `updatedAt` to now and re-indexes it, in one transaction. Nothing
  /// changes, and the stored item is returned as is, when the sanitized content is the same.
  /// - Parameters:
  ///   - content: at most 16,000 characters.
  ///   - allowCredentials: as in ``CaptureRequest/allowCredentials``; only a person's explicit
  ///     choice may set it.
  /// - Returns: the item as stored afterwards.
  /// - Throws: `.notFound`; `.validation` naming `content` (limit as given, credential-looking
  ///   text, or text of only white space, control or invisible characters — as a capture refuses
  ///   it; an empty content is allowed and means none).
  public func reviseContent(of id: UUID, to content: String, allowCredentials: Bool = false) throws -> KnowledgeItem {
    let sanitized: String
    do { sanitized = try Limits.sanitizedInput("content", content, limit: Limits.content) } catch {
      throw WorkspaceError.validation(error)
    }
    try Self.refuseCredentials(in: [("content", sanitized)], allowed: allowCredentials)
    let now = environment.now()
    return try store.write { tx in
      guard var item = try tx.knowledge(id: id) else {
        throw WorkspaceError.notFound(recordType: "knowledge item", id: id.uuidString)
      }
      guard item.content != sanitized else { return item }
      item.content = sanitized
      item.revision += 1
      // A clock that went back never dates a change before the item's creation or last change
      // (an import refuses updatedAt < createdAt, and an export must import).
      item.updatedAt = max(now, item.updatedAt)
      let rowid = try tx.updateKnowledge(item)
      try LexicalIndexStore.reindex(knowledge: item, rowID: rowid, in: tx)
      return item
    }
  }

  /// The knowledge item `id`.
  /// - Throws: ``WorkspaceError/notFound(recordType:id:)``.
  public func knowledge(id: UUID) throws -> KnowledgeItem {
    try store.read { tx in
      guard let item = try tx.knowledge(id: id) else {
        throw WorkspaceError.notFound(recordType: "knowledge item", id: id.uuidString)
      }
      return item
    }
  }

  /// Knowledge items, newest first, filtered by kinds and tag (compared with case and
  /// diacritics folded, as in ``knowledgeListing(kinds:tag:limit:)``), at most `limit`.
  public func listKnowledge(kinds: [KnowledgeKind] = [], tag: String? = nil, limit: Int? = nil) throws
    -> [KnowledgeItem]
  {
    try store.read { tx in
      try tx.listKnowledge(
        kinds: kinds, taggedWithAny: tag.map { try Self.storedTags(matching: $0, tx) }, limit: limit)
    }
  }

  /// The stored tags a tag filter selects: those equal to `filter` once both are folded as the
  /// search tokenizer folds words (``Tokenizer/fold(_:)``: NFKC, full case folding, diacritics,
  /// Latin letters without a decomposition), so `cafe`, `Café` and `CAFÉ` select `café`,
  /// `strasse` selects `straße`, and `oresund` selects `øresund`; and, both ways, those whose
  /// Greek letters in scientific notation the tokenizer spells out as the filter writes them
  /// (``Tokenizer/tagComparisonKey(_:)``), so `tnf-alpha` selects `tnf-α` and `tnf-α` selects
  /// `tnf-alpha`. Stored tags are compared, never rewritten.
  /// - Complexity: O(*t*) in the total length of the workspace's distinct tags.
  static func storedTags(matching filter: String, _ tx: WorkspaceTransaction) throws -> [String] {
    let folded = Tokenizer.fold(filter)
    let filterIsASCII = filter.utf8.allSatisfy { $0 < 0x80 }
    let filterKey = Tokenizer.tagComparisonKey(filter)
    return try tx.knowledgeTagNames().filter { tag in
      if tag == filter || Tokenizer.fold(tag) == folded { return true }
      // Two ASCII tags have no Greek letter to spell out: folding said it all.
      if filterIsASCII && tag.utf8.allSatisfy({ $0 < 0x80 }) { return false }
      return Tokenizer.tagComparisonKey(tag) == filterKey
    }.sorted()
  }

  /// Knowledge items, newest first, filtered by kinds and tag, with how many match and, when
  /// none does, why — so an empty list can say whether the workspace is empty, nothing carries
  /// the tag, or only items of other kinds do. Read in one transaction.
  ///
  /// - Parameters:
  ///   - kinds: keep only these kinds (empty: all kinds).
  ///   - tag: keep only items carrying this tag (normalized by
  ///     ``Limits/tagFilter(_:label:)``), compared as search compares words: case, width and
  ///     diacritics folded, so `cafe` finds items tagged `café`, and Greek letters in notation
  ///     spelled out, so `tnf-alpha` finds `tnf-α` and back; nil for no tag filter.
  ///   - limit: at most this many items; nil for all.
  ///   - offset: how many matching items to skip first, in that order (0, the default, skips
  ///     none): a page that starts where an earlier one stopped (MCP `knowledge_list`).
  /// - Returns: the items, `total` (the matching items, all of them without filters) and the
  ///   ``KnowledgeListing/EmptyReason`` when `total` is 0.
  /// - Throws: ``ValidationError`` for an empty tag or one over 48 characters; storage errors.
  public func knowledgeListing(kinds: [KnowledgeKind] = [], tag: String? = nil, limit: Int? = nil, offset: Int = 0)
    throws -> KnowledgeListing
  {
    let tag = try tag.map { raw throws(ValidationError) in try Limits.tagFilter(raw) }
    var seen = Set<KnowledgeKind>()
    let kinds = kinds.filter { seen.insert($0).inserted }
    return try store.read { tx in
      let tags = try tag.map { try Self.storedTags(matching: $0, tx) }
      let items = try tx.listKnowledge(kinds: kinds, taggedWithAny: tags, limit: limit ?? (offset > 0 ? -1 : nil), offset: offset)
      let all = try tx.knowledgeCount()
      let total: Int
      if kinds.isEmpty && tag == nil {
        total = all
      } else if offset > 0 || limit.map({ items.count >= $0 }) == true {
        total = try tx.listKnowledge(kinds: kinds, taggedWithAny: tags).count
      } else {
        total = items.count
      }
      var reason: KnowledgeListing.EmptyReason?
      if total == 0 {
        if all == 0 {
          reason = .noKnowledge
        } else if let tags {
          let tagged = try !tx.listKnowledge(taggedWithAny: tags, limit: 1).isEmpty
          reason = tagged ? .noItemWithTagInKinds : .noItemWithTag
        } else {
          reason = .noItemInKinds
        }
      }
      var listing = KnowledgeListing(items: items, total: total, kinds: kinds, tag: tag, emptyReason: reason)
      listing.offset = offset
      return listing
    }
  }

  // MARK: Memories

  /// What a memory save stored: the memory and its knowledge mirror.
  public struct MemorySaveResult: Sendable, Equatable {
    public var memory: MemoryItem
    /// The mirror (kind `context`, source `legacyMemory`, `memoryID` = the memory's id).
    public var mirror: KnowledgeItem
    public var digest: Digest?
  }

  /// Saves a legacy memory and mirrors it as a knowledge item with source `legacyMemory`, in
  /// one transaction. The mirror counts toward the automatic digest.
  /// - Parameters:
  ///   - text: the memory (sanitized, trimmed).
  ///   - tags: its tags (normalized).
  ///   - allowCredentials: store credential-looking text instead of refusing it. Only the
  ///     user's explicit choice (`--allow-credentials`) may set it; agent and MCP paths never do.
  /// - Throws: `.validation` (text ≤ 16,000 characters as given and after sanitizing, text
  ///   with no printable character, tags, credential-looking text), `.capacity`.
  public func saveMemory(text: String, tags: [String] = [], allowCredentials: Bool = false) throws
    -> MemorySaveResult
  {
    let (clean, normalizedTags) = try Self.checkedMemoryText(text, tags: tags, allowCredentials: allowCredentials)
    let now = environment.now()
    let memoryID = environment.makeID()
    let mirrorID = environment.makeID()
    let memory = MemoryItem(id: memoryID, text: clean, tags: normalizedTags, createdAt: now, knowledgeID: mirrorID)
    let mirror = KnowledgeItem(
      id: mirrorID, kind: .context, title: Self.mirrorTitle(for: clean), content: clean,
      source: .legacyMemory, tags: normalizedTags, createdAt: now, memoryID: memoryID)
    return try store.write { tx in
      let rowid = try tx.insertMemory(memory)
      try LexicalIndexStore.index(memory: memory, rowID: rowid, in: tx)
      let r = try captureInTransaction(mirror, tx)
      return MemorySaveResult(memory: memory, mirror: r.item, digest: r.digest)
    }
  }

  /// A memory's text and tags as ``saveMemory(text:tags:allowCredentials:)`` stores them,
  /// after refusing credential-looking text unless `allowCredentials`.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming `text` or `tags[i]`.
  static func checkedMemoryText(_ text: String, tags: [String], allowCredentials: Bool) throws(WorkspaceError)
    -> (text: String, tags: [String])
  {
    let clean: String
    let normalizedTags: [String]
    do {
      clean = try Limits.sanitizedInput("text", text, limit: Limits.memoryText, trimming: true, required: true)
      normalizedTags = try Limits.normalizedTags(tags)
    } catch { throw WorkspaceError.validation(error) }
    try refuseCredentials(
      in: [("text", clean)] + normalizedTags.enumerated().map { ("tags[\($0.offset)]", $0.element) },
      allowed: allowCredentials)
    return (clean, normalizedTags)
  }

  /// The first line of a memory, cut to 80 characters with an ellipsis, as its mirror's title
  /// and as the title a search shows for the memory.
  ///
  /// Lines end at any line break (`\n`, U+2028 and the others ``TerminalText/singleLine(_:)``
  /// folds); a tab in the first line becomes a space, so the title is one line.
  public static func mirrorTitle(for text: String) -> String {
    let firstLine = text.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? text
    let t = TerminalText.singleLine(firstLine).trimmingCharacters(in: .whitespaces)
    return t.count <= 80 ? t : String(t.prefix(79)) + "…"
  }

  /// Memories, newest first.
  public func listMemories(limit: Int? = nil) throws -> [MemoryItem] {
    try store.read { tx in try tx.listMemories(limit: limit) }
  }

  /// Memories, newest first, with how many there are in all (read together, so the count
  /// matches the page).
  /// - Parameter limit: list at most this many; nil lists all.
  public func memoryListing(limit: Int? = nil) throws -> MemoryListing {
    try store.read { tx in
      let memories = try tx.listMemories(limit: limit)
      return MemoryListing(
        memories: memories, total: try tx.memoryCount(),
        supersededBy: Self.memorySuccessors(of: memories, in: try tx.supersedeGraph()))
    }
  }

  /// The memory `id`. - Throws: `.notFound`.
  public func memory(id: UUID) throws -> MemoryItem {
    try store.read { tx in
      guard let m = try tx.memory(id: id) else { throw WorkspaceError.notFound(recordType: "memory", id: id.uuidString) }
      return m
    }
  }

  // MARK: Tasks

  /// Adds an open task.
  /// - Parameter allowCredentials: store credential-looking title or notes instead of refusing
  ///   them. Only the user's explicit choice (`--allow-credentials`) may set it; agent and MCP
  ///   paths never do.
  /// - Throws: `.validation` (title ≤ 300, notes ≤ 4,000 — as given and after sanitizing —, text
  ///   with no printable character, ≤ 64 existing knowledge ids, credential-looking text),
  ///   `.capacity`.
  public func addTask(
    title: String, notes: String = "", priority: Priority = .normal, knowledgeIDs: [UUID] = [],
    allowCredentials: Bool = false
  ) throws -> TaskItem {
    let (cleanTitle, cleanNotes) = try Self.checkedTaskText(title: title, notes: notes, allowCredentials: allowCredentials)
    let task = TaskItem(
      id: environment.makeID(), title: cleanTitle, notes: cleanNotes, priority: priority, createdAt: environment.now(),
      knowledgeIDs: Self.unique(knowledgeIDs))
    try store.write { tx in try tx.insertTask(task) }
    return task
  }

  /// A task's title and notes as ``addTask(title:notes:priority:knowledgeIDs:allowCredentials:)``
  /// stores them, after refusing credential-looking text unless `allowCredentials`.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming `title` or `notes`.
  static func checkedTaskText(title: String, notes: String, allowCredentials: Bool) throws(WorkspaceError)
    -> (title: String, notes: String)
  {
    let cleanTitle: String
    let cleanNotes: String
    do {
      cleanTitle = try Limits.sanitizedInput("title", title, limit: Limits.taskTitle, trimming: true, required: true)
      cleanNotes = try Limits.sanitizedInput("notes", notes, limit: Limits.taskNotes)
    } catch { throw WorkspaceError.validation(error) }
    try refuseCredentials(in: [("title", cleanTitle), ("notes", cleanNotes)], allowed: allowCredentials)
    return (cleanTitle, cleanNotes)
  }

  /// Marks a task completed (idempotent: an already completed task keeps its completion time).
  /// - Throws: `.notFound`.
  public func completeTask(id: UUID) throws -> TaskItem {
    try completeTaskReportingOutcome(id: id).task
  }

  /// Marks a task completed, and says whether it already was (idempotent: an already completed
  /// task keeps its completion time and nothing is written), so a caller can tell the user
  /// that nothing changed. The completion is dated now, and never before the task's creation
  /// (a clock set back since it was added dates it at its creation). A handoff summary built by
  /// rules that carries the task is rebuilt (it lists open and completed tasks apart), and the
  /// result names those handoffs (``TaskStatusChange/rebuiltHandoffIDs``); one written by hand is
  /// kept as written.
  /// - Throws: `.notFound`; ``WorkspaceError/validation(_:)`` when the stored task holds text
  ///   over a bound (``requireStoredTaskWithinBounds(_:change:)``), with nothing written.
  public func completeTaskReportingOutcome(id: UUID) throws -> TaskStatusChange {
    let now = environment.now()
    return try store.write { tx in
      var t = try Self.taskForStatusChange(id, to: .completed, tx)
      guard t.status == .open else { return TaskStatusChange(task: t, wasAlreadyInStatus: true) }
      t.status = .completed
      // Never before its creation: a clock set back since the task was added would otherwise
      // store a completion that `import` refuses (review 19-c, #10).
      t.completedAt = max(now, t.createdAt)
      t.recordChange(at: now)
      try tx.updateTask(t)
      // A handoff summary built by rules lists open and completed tasks apart (review 18-b B3).
      let rebuilt = try Self.rebuildGeneratedSummaries(carryingAny: [id], tx)
      return TaskStatusChange(task: t, wasAlreadyInStatus: false, rebuiltHandoffIDs: rebuilt)
    }
  }

  /// Reopens a completed task (idempotent). - Throws: `.notFound`.
  public func reopenTask(id: UUID) throws -> TaskItem {
    try reopenTaskReportingOutcome(id: id).task
  }

  /// Reopens a completed task, and says whether it was open already (idempotent: an open task
  /// is left as it is and nothing is written), so a caller can tell the user that nothing
  /// changed. A handoff summary built by rules that carries the task is rebuilt, as for a
  /// completion, and named in ``TaskStatusChange/rebuiltHandoffIDs``.
  /// - Throws: `.notFound`; ``WorkspaceError/validation(_:)`` when the stored task holds text
  ///   over a bound (``requireStoredTaskWithinBounds(_:change:)``), with nothing written.
  public func reopenTaskReportingOutcome(id: UUID) throws -> TaskStatusChange {
    let now = environment.now()
    return try store.write { tx in
      var t = try Self.taskForStatusChange(id, to: .open, tx)
      guard t.status == .completed else { return TaskStatusChange(task: t, wasAlreadyInStatus: true) }
      t.status = .open
      t.completedAt = nil
      t.recordChange(at: now)
      try tx.updateTask(t)
      let rebuilt = try Self.rebuildGeneratedSummaries(carryingAny: [id], tx)
      return TaskStatusChange(task: t, wasAlreadyInStatus: false, rebuiltHandoffIDs: rebuilt)
    }
  }

  /// Tasks, open first (see ``WorkspaceTransaction/listTasks(status:limit:offset:)``).
  public func listTasks(status: TaskStatus? = nil) throws -> [TaskItem] {
    try store.read { tx in try tx.listTasks(status: status) }
  }

  /// Tasks, open first (see ``WorkspaceTransaction/listTasks(status:limit:offset:)``), with how many
  /// have the status in all (read together, so the count matches the page).
  /// - Parameters:
  ///   - status: only tasks with this status; nil lists both.
  ///   - limit: list at most this many; nil lists all (at most ``Limits/tasks`` exist).
  ///   - offset: skip this many first, in that order (default 0): the next page after one that
  ///     listed `offset` tasks.
  public func taskListing(status: TaskStatus? = nil, limit: Int? = nil, offset: Int = 0) throws -> TaskListing {
    try store.read { tx in
      TaskListing(
        tasks: try tx.listTasks(status: status, limit: limit, offset: offset), total: try tx.taskCount(status: status),
        offset: offset)
    }
  }
}
