import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension KnowledgeEngine {
  /// Plans erasing one kind of data, or everything: lists every record, reference, digest,
  /// index row and file the erase will remove or change. Writes nothing.
  /// - Throws: storage errors.
  public func planErase(_ scope: EraseScope) throws -> ErasePlan {
    let target = EraseTarget(scope)
    let directory = (store as? SQLiteWorkspaceStore).flatMap(Self.erasableDirectory)
    return try store.read { tx in try Self.makePlan(target, tx, directory: directory) }
  }

  /// Plans "clear chat & run activity": every chat message, activity receipt and run
  /// checkpoint, and the chat excerpts copied into retained handoffs (conversations, handoffs
  /// and everything else stay). Writes nothing.
  public func planClearChatAndActivity() throws -> ErasePlan {
    // The directory only names the legacy files kept on purpose; this erase removes none.
    let directory = (store as? SQLiteWorkspaceStore).flatMap(Self.erasableDirectory)
    return try store.read { tx in try Self.makePlan(.chatAndActivity, tx, directory: directory) }
  }

  /// Plans finishing an `erase --kind all` that was interrupted after it erased the records and
  /// before it removed its files (``interruptedEraseFiles()``): removing only the files its marker
  /// names that are still there, and clearing the marker. No record is touched, so records stored
  /// since the interruption stay (review 29-b, 3: the advice to run the whole erase again erased
  /// them too). Writes nothing.
  ///
  /// The plan is empty when no erase was interrupted. Applied by ``apply(_:acceptingChanges:)``,
  /// which removes the files as an erase does (zeroed, then unlinked), compacts the database (the
  /// interrupted erase may have stopped before it did) and then clears the marker.
  /// - Throws: storage errors.
  public func planFinishInterruptedErase() throws -> ErasePlan {
    let directory = (store as? SQLiteWorkspaceStore).flatMap(Self.erasableDirectory)
    return try store.read { tx in try Self.makePlan(.finishInterrupted, tx, directory: directory) }
  }

  /// Applies an erase plan, then makes sure the removed bytes do not survive on disk and checks
  /// that they do not.
  ///
  /// Steps: recompute the plan in a write transaction and refuse when it changed; delete and
  /// unlink everything in it in that ONE transaction (the database runs with `secure_delete`);
  /// compact the database (``SQLiteWorkspaceStore/compact()``: checkpoint, `VACUUM`, `TRUNCATE`
  /// checkpoint); zero and unlink the plan's files; then
  /// read every byte of every file under the workspace directory and look for the ids of the
  /// erased records — an id found there that no live record still mentions is reported as
  /// leaked (``EraseVerification/leakedIDs``).
  /// - Parameters:
  ///   - plan: the plan shown (``planErase(_:)``, ``planClearChatAndActivity()``,
  ///     ``planFinishInterruptedErase()``, which removes files only and scans for no id).
  ///   - acceptingChanges: erase what the plan's scope holds when the erase runs, even if records
  ///     were written since the plan was made — for an erase approved for its scope rather than
  ///     for the plan's exact records (`dolphin erase --yes`, where nobody reads the plan). Under
  ///     a steady writer (an MCP client capturing every few seconds) an erase that insists on the
  ///     plan shown could never run (review, s17). The report's ``EraseReport/plan`` is then the
  ///     plan applied.
  /// - Throws: ``WorkspaceError/concurrentChange(operation:)`` when the workspace changed since
  ///   the plan was made (unless `acceptingChanges`); storage and filesystem errors.
  public func apply(_ plan: ErasePlan, acceptingChanges: Bool = false) throws -> EraseReport {
    guard let target = EraseTarget(rawValue: plan.target) else {
      throw WorkspaceError.validation(ValidationError(field: "target", message: "unknown erase target '\(plan.target)'"))
    }
    let sqlite = store as? SQLiteWorkspaceStore
    // The directory as checked at open, links resolved (``SQLiteWorkspaceStore/verifiedDirectory``).
    let directory = sqlite.flatMap(Self.erasableDirectory)
    let now = environment.now()
    var (removed, changed, erasedIDs, applied) = try store.write {
      tx -> ([String: Int], [String: Int], Set<UUID>, ErasePlan) in
      var current = try Self.makePlan(target, tx, directory: directory)
      // The files kept are only named, never touched: a backup the first write made meanwhile
      // (a legacy `workspace.json` imported by it) is no reason to refuse; the verification
      // names every copy it finds.
      current.keptFiles = plan.keptFiles
      guard current == plan || acceptingChanges else {
        throw WorkspaceError.concurrentChange(operation: "erase")
      }
      let (removed, changed, erasedIDs) = try Self.executeErase(target, tx, now: now)
      // Review 29a, 2: an erase killed after this commit and before its files are removed left
      // them holding the erased data, and nothing could tell. The marker commits with the erase
      // and is cleared once the files are gone (``interruptedEraseFiles()``); an erase with no
      // files to remove clears one an earlier, interrupted erase left.
      // The marker names the files, so that finishing the erase removes those and no file made
      // since (a backup of a later `dolphin migrate`).
      if target == .all {
        try tx.setMeta(
          Self.eraseMarkerKey,
          current.files.isEmpty ? nil : try StableJSON.string(EraseMarker(erasedAt: now, files: current.files)))
      }
      return (removed, changed, erasedIDs, current)
    }
    let plan = applied
    var verification = EraseVerification(
      filesScanned: [], bytesScanned: 0, idsChecked: erasedIDs.count, leakedIDs: [], filesWithLeaks: [], walBytes: 0,
      retainedCopies: [], freePages: 0, notes: [])
    if let sqlite {
      let compaction = try sqlite.compact()
      verification.walBytes = compaction.walBytes
      verification.freePages = compaction.freePages
      if compaction.checkpointBusy || compaction.walBytes > 0 {
        verification.notes.append(
          "another process has the workspace open, so the WAL could not be emptied; close it and run the erase again")
      }
    }
    var removedFiles: [String] = []
    // A legacy `workspace.json` goes first: left alone without its backup by an erase killed
    // in between, the next write would import it again as a new legacy file (review 29a, 2).
    // Backups are never imported by themselves.
    let legacyFirst = plan.files.filter { URL(fileURLWithPath: $0).lastPathComponent == Self.legacyFileName && !$0.contains("/\(Self.legacyBackupFolder)/") }
    for path in legacyFirst + plan.files.filter({ !legacyFirst.contains($0) }) {
      try SecureFile.removeSecurely(URL(fileURLWithPath: path))
      removedFiles.append(path)
    }
    if let dir = directory {
      // The backup folder goes too once empty (rmdir never removes anything else).
      rmdir(dir.appendingPathComponent(Self.legacyBackupFolder).path)
    }
    if (target == .all && !plan.files.isEmpty) || (target == .finishInterrupted && !plan.isEmpty) {
      // Every file is gone (each removal above throws otherwise): the erase is complete.
      let cleared = try store.write { tx -> Bool in
        guard try tx.meta(Self.eraseMarkerKey) != nil,
          try Self.interruptedFiles(tx, directory: directory)?.isEmpty ?? true
        else { return false }
        try tx.setMeta(Self.eraseMarkerKey, nil)
        return true
      }
      if cleared, target == .finishInterrupted { changed["clearEraseMarker"] = 1 }
    }
    // Finishing an interrupted erase removes files only: there is no erased id to look for.
    if let sqlite, target != .finishInterrupted {
      if let dir = Self.erasableDirectory(sqlite) ?? sqlite.directory {
        // A partial erase keeps the legacy files on purpose (the plan for `all` removes them).
        let kept = Set(try store.read { tx in try Self.eraseFiles(tx, directory: dir) })
        try EraseVerifier.verify(erasedIDs, in: dir, keptFiles: kept, store: store, into: &verification)
        if !verification.retainedCopies.isEmpty {
          verification.notes.append(
            "legacy backups kept on purpose still hold copies of some erased records: "
              + verification.retainedCopies.joined(separator: ", ") + "; `\(command: "dolphin erase --kind all")` removes them")
        }
        // Ids left in the database by objects dolphin did not create — a trigger copying deleted
        // rows into a table of the user's — are named, not left to guess (review 27-b, 8).
        if !verification.leakedIDs.isEmpty, let difference = try? schemaDifference() {
          let foreign = difference.unexpected.filter { ["table", "trigger", "view"].contains($0.object.type) }
          if !foreign.isEmpty {
            verification.notes.append(
              "the database holds objects dolphin did not create, which may keep copies of erased records: "
                + foreign.prefix(5).map { "\($0.object.type) \($0.object.name)" + ($0.object.type == "trigger" ? " on \($0.table)" : "") }
                  .joined(separator: ", ") + (foreign.count > 5 ? ", …" : "")
                + "; `\(command: "dolphin doctor")` lists them, and removing such copies is up to whoever made them")
          }
        }
      } else {
        verification.notes.append("in-memory workspace: there are no files to scan")
      }
    }
    return EraseReport(
      plan: plan, removed: removed, changed: changed, removedFiles: removedFiles, verification: verification)
  }

  /// The folder inside a workspace directory that holds legacy backups.
  static let legacyBackupFolder = "legacy-backups"

  /// The `meta` key set by an `erase --kind all` in its transaction when it has files to remove
  /// (its value: an ``EraseMarker``), and cleared once they are removed (review 29a, 2).
  static let eraseMarkerKey = "eraseInterrupted"

  /// The value of the ``eraseMarkerKey`` row: when the erase committed, and the files it was to
  /// remove. A marker written before the files were named (its value a date alone) names none:
  /// the files such an erase would remove now stand for them.
  struct EraseMarker: Codable, Equatable {
    var erasedAt: Date
    /// The paths, sorted.
    var files: [String]
  }

  /// The files an interrupted `erase --kind all` left holding erased data: those its marker
  /// names (legacy backups, a legacy `workspace.json`) that are still there, when an erase
  /// committed and was stopped (killed, or a removal failed) before it removed them. Reads only.
  ///
  /// `dolphin erase --finish` (``planFinishInterruptedErase()``) removes them and clears the
  /// marker, touching no record.
  /// - Returns: the paths, sorted; nil when no erase was interrupted, when the files are gone
  ///   since (an erase killed after removing them), or for a workspace without a directory.
  /// - Throws: storage errors.
  public func interruptedEraseFiles() throws -> [String]? {
    guard let sqlite = store as? SQLiteWorkspaceStore, let directory = Self.erasableDirectory(sqlite) else { return nil }
    return try store.read { tx -> [String]? in
      guard let files = try Self.interruptedFiles(tx, directory: directory), !files.isEmpty else { return nil }
      return files
    }
  }

  /// The files the ``eraseMarkerKey`` marker names that an erase would remove now
  /// (``eraseFiles(_:directory:)``): never a path only because the database names it (review,
  /// s15: a recorded path, put there by whoever could write the database, had an erase zero and
  /// unlink a file of their choosing). Sorted; nil without a marker; for a marker that names no
  /// files (written by an earlier build), every file an erase would remove now.
  static func interruptedFiles(_ tx: WorkspaceTransaction, directory: URL?) throws -> [String]? {
    guard let value = try tx.meta(eraseMarkerKey) else { return nil }
    let removable = try eraseFiles(tx, directory: directory)
    guard let marker = try? StableJSON.decoder().decode(EraseMarker.self, from: Data(value.utf8)) else {
      return removable
    }
    let named = Set(marker.files)
    return removable.filter(named.contains)
  }

  /// The directory whose legacy files an erase removes: the workspace directory as checked when
  /// `store` opened its files (``SQLiteWorkspaceStore/verifiedDirectory``), never the path as
  /// given; nil while it has none.
  static func erasableDirectory(_ store: SQLiteWorkspaceStore) -> URL? {
    store.verifiedDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
  }
}

/// An erase target: a scope, or "clear chat & run activity".
enum EraseTarget: String, Sendable {
  case knowledge, memories, tasks, handoffs, digests, conversations, activity, all, chatAndActivity
  /// The files an interrupted `all` left, and its marker; no record.
  case finishInterrupted

  init(_ scope: EraseScope) {
    // Every scope has a target of the same name.
    self = EraseTarget(rawValue: scope.rawValue) ?? .all
  }
}

extension KnowledgeEngine {
  // MARK: Planning

  static func makePlan(_ target: EraseTarget, _ tx: WorkspaceTransaction, directory: URL?) throws -> ErasePlan {
    var steps: [ErasePlan.Step] = []
    func add(_ action: String, _ count: Int, _ detail: String) {
      if count > 0 { steps.append(.init(action: action, count: count, detail: detail)) }
    }
    func digestsCiting(_ ids: some Sequence<UUID>, _ what: String) throws {
      let n = try tx.digestIDs(citingAny: ids).count
      add("deleteDigests", n, "delete \(n) digest(s) that cite the erased \(what) (digests hold copies of their text)")
    }
    var files: [String] = []
    switch target {
    case .knowledge:
      let items = try tx.knowledgeIdentities()
      add("deleteKnowledge", items.count, "delete \(items.count) knowledge item(s) (legacy-memory mirrors included) with their tags, relationships and search-index rows")
      try knowledgeCascadeSteps(Set(items.map(\.id)), tx, add: add, digests: digestsCiting)
    case .memories:
      let memories = try tx.memoryIdentities()
      let mirrors = try mirrorIdentities(of: memories, tx)
      add("deleteMemories", memories.count, "delete \(memories.count) legacy memory(ies) with their search-index rows")
      add("deleteMirrors", mirrors.count, "delete their \(mirrors.count) knowledge mirror(s)")
      let mirrorIDs = Set(mirrors.map(\.id))
      let n = try mirrorIDs.reduce(0) { $0 + (try tx.relationships(targeting: $1).filter { !mirrorIDs.contains($0.sourceID) }.count) }
      add("removeRelationships", n, "remove \(n) relationship(s) of other items that point at those mirrors")
      try referenceSteps(mirrorIDs, tx, add: add)
      try digestsCiting(memories.map(\.id) + Array(mirrorIDs), "memories")
    case .tasks:
      let ids = try tx.allIDs(.task)
      add("deleteTasks", ids.count, "delete \(ids.count) task(s)")
      let set = Set(ids)
      let n = try tx.listHandoffs().filter { !set.isDisjoint(with: $0.taskIDs) }.count
      add("unlinkHandoffs", n, "remove task references from \(n) handoff(s) (summaries built by rules are rebuilt; written ones are kept)")
      try digestsCiting(ids, "tasks")
    case .handoffs:
      let ids = try tx.allIDs(.handoff)
      add("deleteHandoffs", ids.count, "delete \(ids.count) handoff(s) with their summaries, next steps and chat excerpts")
      add("clearActiveHandoff", try tx.activeHandoffID() == nil ? 0 : 1, "clear the active-handoff marker")
      try digestsCiting(ids, "handoffs")
    case .digests:
      let n = try tx.rowCount(.digest)
      add("deleteDigests", n, "delete \(n) stored digest(s)")
    case .conversations:
      let c = try tx.rowCount(.conversation)
      add("deleteConversations", c, "delete \(c) conversation(s)")
      try chatSteps(tx, add: add)
    case .activity:
      try activitySteps(tx, add: add)
    case .chatAndActivity:
      try chatSteps(tx, add: add)
      try activitySteps(tx, add: add)
    case .all:
      let tables: [(WorkspaceTransaction.EraseTable, String, String)] = [
        (.knowledge, "deleteKnowledge", "knowledge item(s) with their tags and relationships"),
        (.memory, "deleteMemories", "legacy memory(ies)"),
        (.task, "deleteTasks", "task(s)"),
        (.handoff, "deleteHandoffs", "handoff(s) with their chat excerpts"),
        (.digest, "deleteDigests", "digest(s)"),
        (.conversation, "deleteConversations", "conversation(s)"),
        (.message, "deleteMessages", "chat message(s)"),
        (.receipt, "deleteReceipts", "activity receipt(s)"),
        (.checkpoint, "deleteCheckpoints", "run checkpoint(s)"),
        (.quarantine, "deleteQuarantine", "quarantined record(s) kept aside by imports"),
        (.legacyImport, "deleteLegacyImports", "legacy-import record(s) (file names and sha256)"),
      ]
      for (table, action, what) in tables {
        let n = try tx.rowCount(table)
        add(action, n, "delete \(n) \(what)")
      }
      add("clearActiveHandoff", try tx.activeHandoffID() == nil ? 0 : 1, "clear the active-handoff marker")
      add("resetSettings", try tx.hasStoredSettings() ? 1 : 0, "reset the settings to their defaults")
      let indexed = try tx.lexicalTables().isEmpty ? 0 : 1
      add("clearSearchIndex", indexed, "empty the search index (dolphin's own lexical_* tables; no other table)")
      files = try eraseFiles(tx, directory: directory)
    case .finishInterrupted:
      files = try interruptedFiles(tx, directory: directory) ?? []
      add(
        "clearEraseMarker", try tx.meta(eraseMarkerKey) == nil ? 0 : 1,
        "clear the marker of the interrupted erase (no record is touched: records stored since it stay)")
    }
    // Said before the user confirms (review, s16: only the verification afterwards mentioned
    // the backups that still hold copies of erased records).
    let kept = target == .all ? [] : try eraseFiles(tx, directory: directory).filter { !files.contains($0) }
    var plan = ErasePlan(target: target.rawValue, steps: steps, files: files, keptFiles: kept)
    plan.keptCopies = try keptCopies(target, tx)
    if target == .all, try tx.meta(eraseMarkerKey) != nil {
      // An interrupted erase removed every record before it stopped: those here came since.
      plan.storedSinceInterruptedErase = steps.filter { $0.action.hasPrefix("delete") }.reduce(0) { $0 + $1.count }
    }
    return plan
  }

  /// The kept records that may quote what `target` erases (``ErasePlan/keptCopies``).
  static func keptCopies(_ target: EraseTarget, _ tx: WorkspaceTransaction) throws -> [ErasePlan.KeptCopies] {
    switch target {
    case .knowledge, .memories, .tasks, .handoffs:
      var copies: [ErasePlan.KeptCopies] = []
      let messages = try tx.rowCount(.message)
      if messages > 0 { copies.append(.init(collection: "messages", count: messages)) }
      let receipts = try tx.rowCount(.receipt)
      if receipts > 0 { copies.append(.init(collection: "receipts", count: receipts)) }
      if target != .handoffs {
        let excerpts = try tx.listHandoffs().filter { !$0.recentExcerpts.isEmpty }.count
        if excerpts > 0 { copies.append(.init(collection: "handoffExcerpts", count: excerpts)) }
      }
      // A conversation's title is written from its first message (review, s17: left out).
      let conversations = try tx.rowCount(.conversation)
      if conversations > 0 { copies.append(.init(collection: "conversations", count: conversations)) }
      return copies
    case .digests, .conversations, .activity, .all, .chatAndActivity, .finishInterrupted:
      return []
    }
  }

  static func knowledgeCascadeSteps(
    _ ids: Set<UUID>, _ tx: WorkspaceTransaction, add: (String, Int, String) -> Void,
    digests: (Set<UUID>, String) throws -> Void
  ) throws {
    try referenceSteps(ids, tx, add: add)
    let links = try tx.memoryIdentities().filter { $0.knowledgeID.map(ids.contains) ?? false }.count
    add("clearMemoryLinks", links, "keep \(links) legacy memory(ies) but clear their links to the erased mirrors")
    try digests(ids, "knowledge")
  }

  /// Task and handoff references to knowledge items that go.
  static func referenceSteps(_ ids: Set<UUID>, _ tx: WorkspaceTransaction, add: (String, Int, String) -> Void) throws {
    let tasks = try tx.listTasks().filter { !ids.isDisjoint(with: $0.knowledgeIDs) }.count
    add("unlinkTasks", tasks, "remove knowledge references from \(tasks) task(s)")
    let handoffs = try tx.listHandoffs().filter { !ids.isDisjoint(with: $0.knowledgeIDs) }.count
    add("unlinkHandoffs", handoffs, "remove knowledge references from \(handoffs) handoff(s) (summaries built by rules are rebuilt; written ones are kept)")
  }

  static func chatSteps(_ tx: WorkspaceTransaction, add: (String, Int, String) -> Void) throws {
    let m = try tx.rowCount(.message)
    add("deleteMessages", m, "delete \(m) chat message(s)")
    let h = try tx.listHandoffs().filter { !$0.recentExcerpts.isEmpty }.count
    add("scrubExcerpts", h, "remove the chat excerpts copied into \(h) handoff(s) (the handoffs stay)")
  }

  static func activitySteps(_ tx: WorkspaceTransaction, add: (String, Int, String) -> Void) throws {
    let r = try tx.rowCount(.receipt)
    add("deleteReceipts", r, "delete \(r) activity receipt(s)")
    let c = try tx.rowCount(.checkpoint)
    add("deleteCheckpoints", c, "delete \(c) run checkpoint(s)")
  }

  /// Knowledge mirrors of `memories`: the items they link to and items that mirror them.
  static func mirrorIdentities(
    of memories: [(id: UUID, rowID: Int64, knowledgeID: UUID?)], _ tx: WorkspaceTransaction
  ) throws -> [(id: UUID, rowID: Int64, memoryID: UUID?)] {
    let memoryIDs = Set(memories.map(\.id))
    let linked = Set(memories.compactMap(\.knowledgeID))
    return try tx.knowledgeIdentities().filter { k in
      linked.contains(k.id) || (k.memoryID.map(memoryIDs.contains) ?? false)
    }
  }

  /// Legacy backups (everything but directories in `<workspace>/legacy-backups`) and a legacy
  /// `workspace.json` in the workspace directory, which would otherwise be imported again on
  /// next use.
  ///
  /// Only what is there, never where a link leads: a `legacy-backups` that is not a directory of
  /// this user's or root's is left out, a link inside it is removed as a link
  /// (``SecureFile/removeSecurely(_:)``), and the backup paths the workspace records are not read
  /// (review, s15: a recorded path, or a link named `legacy-backups`, put there by whoever could
  /// write the database or the directory, had root's erase zero and unlink files of their choosing).
  static func eraseFiles(_ tx: WorkspaceTransaction, directory: URL?) throws -> [String] {
    guard let directory else { return [] }
    var paths = Set<String>()
    var status = stat()
    let backups = directory.appendingPathComponent(legacyBackupFolder)
    if lstat(backups.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR,
      status.st_uid == geteuid() || status.st_uid == 0,
      let names = try? FileManager.default.contentsOfDirectory(atPath: backups.path)
    {
      for name in names {
        let path = backups.appendingPathComponent(name).path
        if lstat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR { paths.insert(path) }
      }
    }
    // A rehearsal of the write (a plan made while a legacy `workspace.json` waits for the first
    // write, see SQLiteWorkspaceStore.readsIncludeWritePreamble) imports the file but writes no
    // backup; the write will, before it erases, so the plan names that backup too (review 18-d, M4).
    // Only its name is taken from the record, and only for the backup directory checked above.
    if tx.isRehearsal, let latest = try tx.latestLegacyImport() {
      let recorded = URL(fileURLWithPath: latest.backupPath)
      let pending = backups.appendingPathComponent(recorded.lastPathComponent).path
      if recorded.deletingLastPathComponent().path == backups.path, lstat(pending, &status) != 0 {
        paths.insert(pending)
      }
    }
    let legacy = directory.appendingPathComponent(legacyFileName).path
    if lstat(legacy, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR { paths.insert(legacy) }
    return paths.sorted()
  }

  // MARK: Executing

  /// Removes everything the target covers in `tx`; a kept task that loses a knowledge id
  /// records a change at `now`.
  /// - Returns: counts of records removed by action, counts of records kept but changed by
  ///   action (see ``EraseReport/changed``), and the ids of every removed record.
  static func executeErase(_ target: EraseTarget, _ tx: WorkspaceTransaction, now: Date) throws
    -> ([String: Int], [String: Int], Set<UUID>)
  {
    var removed: [String: Int] = [:]
    var changed: [String: Int] = [:]
    var erased = Set<UUID>()
    func note(_ action: String, _ ids: [UUID]) {
      guard !ids.isEmpty else { return }
      removed[action, default: 0] += ids.count
      erased.formUnion(ids)
    }
    func noteChanged(_ counts: [String: Int]) {
      for (action, n) in counts where n > 0 { changed[action, default: 0] += n }
    }
    func deleteDigests(citing ids: some Sequence<UUID>) throws {
      let digests = try tx.digestIDs(citingAny: ids)
      for d in digests.sorted(by: { $0.uuidString < $1.uuidString }) where try tx.digest(id: d) != nil {
        try tx.deleteDigest(id: d)
      }
      note("deleteDigests", Array(digests))
    }
    switch target {
    case .knowledge:
      let items = try tx.knowledgeIdentities()
      try deleteDigests(citing: items.map(\.id))
      noteChanged(try eraseKnowledge(items, tx, now: now))
      note("deleteKnowledge", items.map(\.id))
    case .memories:
      let memories = try tx.memoryIdentities()
      let mirrors = try mirrorIdentities(of: memories, tx)
      try deleteDigests(citing: memories.map(\.id) + mirrors.map(\.id))
      // The memories that linked to the mirrors go too, so their links are not "changed".
      noteChanged(try eraseKnowledge(mirrors, tx, now: now).filter { $0.key != "clearMemoryLinks" })
      for m in memories {
        try LexicalIndexStore.remove(memoryRowID: m.rowID, in: tx)
        try tx.deleteMemory(id: m.id)
      }
      note("deleteMirrors", mirrors.map(\.id))
      note("deleteMemories", memories.map(\.id))
    case .tasks:
      let ids = try tx.allIDs(.task)
      let set = Set(ids)
      try deleteDigests(citing: ids)
      for var h in try tx.listHandoffs() where !set.isDisjoint(with: h.taskIDs) {
        h.taskIDs.removeAll(where: set.contains)
        try tx.updateHandoff(try refreshingSummary(h, tx))
        changed["unlinkHandoffs", default: 0] += 1
      }
      try tx.deleteAllRows(.task)
      note("deleteTasks", ids)
    case .handoffs:
      let ids = try tx.allIDs(.handoff)
      try deleteDigests(citing: ids)
      if try tx.activeHandoffID() != nil { changed["clearActiveHandoff"] = 1 }
      try tx.deleteAllRows(.handoff)
      note("deleteHandoffs", ids)
    case .digests:
      let ids = try tx.allIDs(.digest)
      try tx.deleteAllRows(.digest)
      note("deleteDigests", ids)
    case .conversations:
      let ids = try tx.allIDs(.conversation)
      changed["scrubExcerpts"] = try eraseChat(tx, note: note)
      try tx.deleteAllRows(.conversation)
      note("deleteConversations", ids)
    case .activity:
      try eraseActivity(tx, note: note)
    case .chatAndActivity:
      changed["scrubExcerpts"] = try eraseChat(tx, note: note)
      try eraseActivity(tx, note: note)
    case .finishInterrupted:
      // Files only, removed after the commit; the marker is cleared once they are gone.
      return (removed, changed, erased)
    case .all:
      // Checked first: deleting the handoffs clears the marker.
      if try tx.activeHandoffID() != nil { changed["clearActiveHandoff"] = 1 }
      if try tx.hasStoredSettings() { changed["resetSettings"] = 1 }
      if try !tx.lexicalTables().isEmpty { changed["clearSearchIndex"] = 1 }
      let tables: [(WorkspaceTransaction.EraseTable, String)] = [
        (.knowledge, "deleteKnowledge"), (.memory, "deleteMemories"), (.task, "deleteTasks"),
        (.handoff, "deleteHandoffs"), (.digest, "deleteDigests"), (.conversation, "deleteConversations"),
        (.message, "deleteMessages"), (.receipt, "deleteReceipts"), (.checkpoint, "deleteCheckpoints"),
      ]
      for (table, action) in tables {
        let ids = try tx.allIDs(table)
        try tx.deleteAllRows(table)
        note(action, ids)
      }
      for (table, action) in [(WorkspaceTransaction.EraseTable.quarantine, "deleteQuarantine"), (.legacyImport, "deleteLegacyImports")] {
        let n = try tx.rowCount(table)
        try tx.deleteAllRows(table)
        if n > 0 { removed[action] = n }
      }
      try tx.clearSettingsAndMarkers()
      try tx.clearLexicalIndex()
      try LexicalIndexStore.recordTokenizerVersion(tx)
    }
    try tx.pruneUnusedLexicalTerms()
    return (removed, changed, erased)
  }

  /// Deletes knowledge items with their whole cascade, set-wise: relationships pointing at
  /// them, task and handoff references (a task that loses one records a change at `now`),
  /// memory links, index rows. (Digests are the caller's.)
  /// - Returns: what was changed in kept records, by plan action: `removeRelationships` (the
  ///   relationships of kept items that pointed at the erased ones), `unlinkTasks`,
  ///   `unlinkHandoffs` and `clearMemoryLinks` (records counted once each).
  static func eraseKnowledge(
    _ items: [(id: UUID, rowID: Int64, memoryID: UUID?)], _ tx: WorkspaceTransaction, now: Date
  ) throws -> [String: Int] {
    guard !items.isEmpty else { return [:] }
    var changed: [String: Int] = [:]
    let ids = Set(items.map(\.id))
    changed["removeRelationships"] = try ids.reduce(0) {
      $0 + (try tx.relationships(targeting: $1).filter { !ids.contains($0.sourceID) }.count)
    }
    try tx.deleteRelationships(targetingAny: ids)
    for var t in try tx.listTasks() where !ids.isDisjoint(with: t.knowledgeIDs) {
      t.knowledgeIDs.removeAll(where: ids.contains)
      t.recordChange(at: now)
      try tx.updateTask(t)
      changed["unlinkTasks", default: 0] += 1
    }
    for var h in try tx.listHandoffs() where !ids.isDisjoint(with: h.knowledgeIDs) {
      h.knowledgeIDs.removeAll(where: ids.contains)
      try tx.updateHandoff(try refreshingSummary(h, tx))
      changed["unlinkHandoffs", default: 0] += 1
    }
    for m in try tx.memoryIdentities() where m.knowledgeID.map(ids.contains) ?? false {
      try tx.setMemoryKnowledgeID(m.id, nil)
      changed["clearMemoryLinks", default: 0] += 1
    }
    for k in items {
      try LexicalIndexStore.remove(knowledgeRowID: k.rowID, in: tx)
      try tx.deleteKnowledge(id: k.id)
    }
    return changed.filter { $0.value > 0 }
  }

  /// Deletes every chat message and empties the excerpts copied into handoffs (which stay).
  /// - Returns: how many handoffs were scrubbed, or nil for none.
  static func eraseChat(_ tx: WorkspaceTransaction, note: (String, [UUID]) -> Void) throws -> Int? {
    let ids = try tx.allIDs(.message)
    try tx.deleteAllRows(.message)
    note("deleteMessages", ids)
    var scrubbed = 0
    for var h in try tx.listHandoffs() where !h.recentExcerpts.isEmpty {
      h.recentExcerpts = []
      try tx.updateHandoff(h)
      scrubbed += 1
    }
    return scrubbed > 0 ? scrubbed : nil
  }

  static func eraseActivity(_ tx: WorkspaceTransaction, note: (String, [UUID]) -> Void) throws {
    let receipts = try tx.allIDs(.receipt)
    try tx.deleteAllRows(.receipt)
    note("deleteReceipts", receipts)
    let checkpoints = try tx.allIDs(.checkpoint)
    try tx.deleteAllRows(.checkpoint)
    note("deleteCheckpoints", checkpoints)
  }
}
