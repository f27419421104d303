import Foundation
import Synchronization

/// What importing a legacy JSON workspace did.
public struct LegacyMigrationReport: Sendable, Equatable, Codable {
  /// The file that was read (never modified).
  public var sourcePath: String
  /// sha256 of the file's bytes; a file with a recorded sha256 is never imported twice.
  public var sha256: String
  /// True when this exact file had been imported before; nothing was changed.
  public var alreadyImported: Bool
  public var sourceVersion: Int?
  /// The 0600 copy of the original kept in the workspace directory.
  public var backupPath: String?
  /// Records imported, by collection (the file's records left out as older than those kept are
  /// not counted: see ``olderThanKept``).
  public var imported: [String: Int]
  /// Records kept aside verbatim in the quarantine table.
  public var quarantined: [QuarantinedRecord]
  public var integrityProblems: [String]
  /// Of the collections a workspace keeps only the newest of (``KeptCollection``: `messages`,
  /// `receipts`, `checkpoints`, `digests`), this workspace's records the migration removed because
  /// the newest kept, across the workspace's and the file's, are newer (for digests, to make room
  /// for the one the migration stores at the end), by collection; only collections with some.
  /// As ``ImportPlan/Collection/pruned`` counts them for `import`.
  public var pruned: [String: Int] = [:]
  /// For the same collections, the file's records that were not imported because they are older
  /// than the newest the workspace keeps, by collection; only collections with some. The backup
  /// of the file still holds them. As ``ImportPlan/Collection/olderThanKept`` counts them.
  public var olderThanKept: [String: Int] = [:]
  /// When this file was first imported into this workspace; set when ``alreadyImported`` is
  /// true, and for an import `again`.
  public var firstImportedAt: Date? = nil
  /// True for an import `again` (``KnowledgeEngine/importLegacyWorkspace(file:named:backupDirectory:again:)``)
  /// of a file imported before: only the records this workspace no longer holds were imported.
  public var importedAgain: Bool = false
  /// For an import `again`: the file's records this workspace still holds (by id), left as they
  /// are, by collection; only collections with some.
  public var alreadyHeld: [String: Int] = [:]
  /// True when a first import of the file left the workspace's settings as they were: the
  /// workspace has settings of its own (not the defaults), or holds records of the file. The
  /// file's settings are then not imported (`imported["settings"]` is 0).
  public var settingsKept: Bool = false
}

extension KnowledgeEngine {
  /// The legacy file name looked for in a workspace directory on first use.
  public static let legacyFileName = "workspace.json"

  /// Imports a legacy v1–v4 JSON workspace (the app's earlier format) into this workspace.
  ///
  /// Steps: read the bytes and hash them (a file already recorded is skipped); decode it with
  /// ``LegacyWorkspaceImporter`` (a malformed or newer file fails here and nothing is
  /// imported); then, in ONE transaction, insert every conversation, message, setting, memory,
  /// task, receipt and checkpoint, keep invalid records verbatim in the quarantine table, index
  /// the memories, record the sha256, store one digest, and — last, once everything else was
  /// accepted — copy the original to `backupDirectory` as a 0600 file (the original is never
  /// modified). A refused import writes no backup, and creates no backup directory. Text of memories and tasks is
  /// sanitized as at capture (``Sanitizer/sanitize(_:)``) and tags normalized; the quarantine
  /// and the backup keep the original bytes.
  /// - Parameters:
  ///   - file: the legacy JSON file.
  ///   - name: how every error message names the file — the path as the user gave it, say;
  ///     nil for `file`'s absolute path.
  ///   - backupDirectory: where the backup copy goes (created 0700 if missing).
  ///   - again: for a file imported before (its sha256 recorded), import the records of the
  ///     file that this workspace no longer holds — erased or deleted since, by id — and leave
  ///     every record it holds as it is; the settings, the quarantine and the import record are
  ///     not touched, and the backup is kept. Without it such a file is skipped
  ///     (``LegacyMigrationReport/alreadyImported``). For a file never imported, the records this
  ///     workspace holds already (by id: restored through `dolphin import`, or an earlier save of
  ///     the same app workspace) are left as they are too (without `again` they refuse the
  ///     import). Settings: see ``importLegacy(_:in:environment:again:)``.
  /// - Throws: ``LegacyImportError`` for a file that cannot be imported;
  ///   ``WorkspaceError`` for storage problems or records that clash with existing ones
  ///   (nothing is imported then).
  public func importLegacyWorkspace(file: URL, named name: String? = nil, backupDirectory: URL, again: Bool = false) throws
    -> LegacyMigrationReport
  {
    let name = name ?? file.path
    let data = try Self.readLegacyFile(file, named: name)
    let digest = SHA256.hash(Array(data)).hexString
    // The same file was to be imported by this store's first write: import it here instead,
    // and report it (a new workspace's stand-in already shows it, so it is not asked).
    let wasPending = (store as? SQLiteWorkspaceStore)?.removeWritePreamble(key: Self.preambleKey(digest)) ?? false
    if !wasPending, !again, let previous = try store.read({ tx in try tx.legacyImport(sha256: digest) }) {
      return Self.alreadyImported(file: file, sha256: digest, previous: previous)
    }
    let now = environment.now()
    let source = LegacyImportSource(
      file: file, name: name, data: data, sha256: digest,
      decoded: Self.applyingImportRules(try LegacyWorkspaceImporter.decode(data, fileName: name), data: data, now: now),
      backupDirectory: backupDirectory, digestID: environment.makeID(), importedAt: now)
    var wroteBackup = false
    do {
      return try store.write { tx in
        let (report, wrote) = try Self.importLegacy(source, in: tx, environment: environment, again: again)
        wroteBackup = wrote
        return report
      }
    } catch {
      // The import did not happen: the backup of a file that was not imported is removed again.
      if wroteBackup { try? FileManager.default.removeItem(at: source.backupURL) }
      throw error
    }
  }

  /// Arranges for `<directory>/workspace.json`, when it exists and has not been imported yet,
  /// to be imported by the first write to `store` that succeeds, in that write's transaction
  /// (``SQLiteWorkspaceStore/setWritePreamble(_:)``). Whether it was imported already is decided
  /// again inside each write transaction, under SQLite's write lock, so processes that open a
  /// new workspace at the same time import it once. A write that fails imports nothing and
  /// leaves no backup (and on a workspace not created yet, no file at all). Until the first
  /// write, a workspace that does not exist yet reads as holding the legacy records
  /// (``SQLiteWorkspaceStore/writeToStandIn(_:)``).
  ///
  /// The file's records this workspace already holds (by id) are left as they are (as
  /// `dolphin migrate --again`): a `workspace.json` the old app saved again after its import, or
  /// one whose records came back through `dolphin import`, adds what is new and refuses nothing
  /// (review 26-a, 1). Its settings follow the rule of every legacy import
  /// (``importLegacy(_:in:environment:again:)``): imported only while the workspace's own are the
  /// defaults, so a `workspace.json` put into a workspace whose settings came from an import
  /// leaves them as they are (review 26-b, 3).
  ///
  /// A file that differs from a legacy file imported here before is never imported
  /// automatically (it would bring back what was deleted or erased since):
  /// `notImported(.changedSinceImport)`.
  ///
  /// The file is read and decoded now. One that cannot be read or decoded — damaged, empty,
  /// too large, from a newer app — or whose import fails (it is run in a savepoint of the
  /// write's transaction, rolled back alone) is not imported: `notImported(.failed)` is called
  /// once with the reason, and the writes go on without it, the file untouched. It is
  /// read only from the directory checked when `store` was opened, by its resolved path
  /// (``SQLiteWorkspaceStore/verifiedDirectory``): a workspace directory that did not exist then
  /// has no legacy file of this user's, and one that appeared since may be another user's, made
  /// through a path they changed meanwhile (review, s14), so nothing is imported from it.
  /// - Parameters:
  ///   - directory: the workspace directory `store` was opened at.
  ///   - store: the workspace store, opened writable.
  ///   - imported: called once the write that imported the file has committed, with its report.
  ///   - notImported: called at most once, with why the file is not imported
  ///     (``LegacyFileNotImported``).
  /// - Returns: false when there is nothing to import (no legacy file, a read-only store, a
  ///   directory that did not exist when `store` was opened, or a file imported before), when
  ///   the file cannot be read or decoded (`notImported` was called), or when it is
  ///   not imported here: a directory other users may change (a workspace shared with users who
  ///   may write its database: ``WorkspaceTrust/othersMayChange(directory:user:)``), a
  ///   `workspace.json` that is a symbolic link or another user's file.
  /// - Throws: ``WorkspaceError`` for a storage problem reading the workspace.
  @discardableResult
  public static func importLegacyWorkspaceAtFirstWrite(
    in directory: URL, store: SQLiteWorkspaceStore, environment: Environment = .live,
    imported: @escaping @Sendable (LegacyMigrationReport) -> Void,
    notImported: @escaping @Sendable (LegacyFileNotImported) -> Void = { _ in }
  ) throws -> Bool {
    // Read in the directory as checked, every link resolved then, never through the path as
    // given again (review, s15).
    // Only where no one else may change the directory, and only a file of this user's or root's
    // that is not a link (review, s15: in a directory shared with those who may write the
    // database, another user's link named `workspace.json` read root's private file into it).
    guard let checked = store.verifiedDirectory, !store.isReadOnly, !WorkspaceTrust.othersMayChange(directory: checked)
    else { return false }
    let base = URL(fileURLWithPath: checked, isDirectory: true)
    let file = base.appendingPathComponent(legacyFileName)
    var status = stat()
    guard lstat(file.path, &status) == 0 else { return false }
    if (status.st_mode & S_IFMT) == S_IFLNK || (status.st_uid != geteuid() && status.st_uid != 0) {
      // Never imported by itself, but no longer skipped in silence (s28, the open end of review
      // 27-b, 7): said at each process's first write, as a damaged file is — unless the bytes it
      // leads to were imported here already (a `dolphin migrate` of it, as advised).
      if try importedRecord(of: file, store: store) == nil {
        notImported(
          .notImportedByItself(
            reason: try notImportedByItselfReason(
              file: directory.standardizedFileURL.appendingPathComponent(legacyFileName), status: status,
              workspace: directory.standardizedFileURL, store: store)))
      }
      return false
    }
    let name = directory.appendingPathComponent(legacyFileName).path
    let data: Data
    do {
      data = try readLegacyFile(file, named: name)
    } catch {
      notImported(.failed(reason: "\(error)"))
      return false
    }
    let digest = SHA256.hash(Array(data)).hexString
    if try store.read({ tx in try tx.legacyImport(sha256: digest) }) != nil { return false }
    let now = environment.now()
    let decoded: LegacyImportResult
    do {
      decoded = try LegacyWorkspaceImporter.decode(data, fileName: name)
    } catch {
      notImported(.failed(reason: "\(error)"))
      return false
    }
    // A legacy file was imported here before: this one is a changed save of it (or another).
    // Imported again automatically, it would bring back what was deleted or erased since
    // (review 26-b, 1); only `dolphin migrate --again`, asked for, does that. Said only of a file
    // that command can read (review 27-a, 2: a damaged one was advised to be imported again), and
    // only after an import of a workspace.json: a `dolphin migrate` of another file is no earlier
    // version of this one (review 27-b, 6).
    if let earlier = try store.read({ tx in try tx.latestLegacyImport(named: legacyFileName) }) {
      notImported(.changedSinceImport(earlierFile: earlier.fileName, importedAt: earlier.importedAt))
      return false
    }
    // Imported before, though the workspace's record of it is gone (a table dropped and made
    // again by hand): imported again it would bring back what was deleted since (review 27-b, 3).
    if let backup = importedBackup(of: data, sha256: digest, in: base.appendingPathComponent(legacyBackupFolder)) {
      notImported(.importRecordLost(backupPath: backup.path))
      return false
    }
    let source: LegacyImportSource
    do {
      source = LegacyImportSource(
        file: file, name: name, data: data, sha256: digest,
        decoded: applyingImportRules(decoded, data: data, now: now),
        backupDirectory: base.appendingPathComponent(legacyBackupFolder),
        digestID: environment.makeID(), importedAt: now)
      try store.writeToStandIn { tx in _ = try importLegacy(source, in: tx, environment: environment, again: true) }
    } catch {
      notImported(.failed(reason: "\(error)"))
      return false
    }
    // Once the import failed, later writes of this process neither try it again nor say so again.
    let gaveUp = LegacyImportLatch()
    // Captures no store or engine: the store keeps the preamble, and must not keep itself.
    store.setWritePreamble(key: preambleKey(digest)) { tx in
      // Imported already (by another process that raced this one, or an earlier write): nothing
      // to do, and nothing to say. Asked here, under the write lock, before the import, whose
      // `again` would otherwise report the file as imported again.
      // Nor while an `erase --kind all` is unfinished (review 29a, 2): the file holds data it
      // erased (the erase deleted the record of its import too), and the erase's own write
      // that clears the marker must not bring it back from the bytes read at open.
      guard !gaveUp.isSet, try tx.legacyImport(sha256: source.sha256) == nil,
        try tx.latestLegacyImport(named: legacyFileName) == nil,
        try tx.meta(KnowledgeEngine.eraseMarkerKey) == nil
      else { return nil }
      // In a savepoint, so that a file whose import fails is rolled back alone and the write
      // goes on (review 26-a, 1: a changed or damaged workspace.json refused every write).
      try tx.db.execute("SAVEPOINT legacy_import")
      let outcome: (report: LegacyMigrationReport, wroteBackup: Bool)
      do {
        outcome = try importLegacy(source, in: tx, environment: environment, again: true)
        try tx.db.execute("RELEASE legacy_import")
      } catch {
        // SQLite may have rolled back the whole transaction (a full disk): the write cannot go on.
        guard !tx.db.isAutocommit else { throw error }
        try tx.db.execute("ROLLBACK TO legacy_import")
        try tx.db.execute("RELEASE legacy_import")
        if gaveUp.set() { notImported(.failed(reason: "\(error)")) }
        return nil
      }
      guard !outcome.report.alreadyImported, !tx.isRehearsal else { return nil }
      return { committed in
        if committed {
          imported(outcome.report)
        } else if outcome.wroteBackup {
          try? FileManager.default.removeItem(at: source.backupURL)
        }
      }
    }
    return true
  }

  /// Why a `workspace.json` that is a symbolic link or another user's file (`status`, from
  /// `lstat(2)`) is not imported by any command by itself, with the `dolphin migrate` that imports
  /// it, naming `workspace`: said by the notice at a write and by `dolphin doctor`.
  ///
  /// When a `workspace.json` was imported here before (`store`'s latest legacy import of that
  /// name), what it leads to now is a changed save of it: the command is `migrate … --again`,
  /// which imports only the records the workspace lacks, as a plain `migrate` refuses a file
  /// whose records the workspace holds (review 28-d, 3).
  /// - Throws: storage errors reading `store`.
  static func notImportedByItselfReason(file: URL, status: stat, workspace: URL, store: (any WorkspaceStore)?) throws
    -> String
  {
    let again = try store?.read({ tx in try tx.latestLegacyImport(named: legacyFileName) }) != nil
    // One interpolation per word: each is shell-quoted as one word.
    let command = again ? SuggestedCommand("dolphin migrate \(file.path) --again") : SuggestedCommand("dolphin migrate \(file.path)")
    let migrate = "`\(command.naming(workspace: workspace.path))`"
    let imports =
      again
      ? "imports its records this workspace does not hold (a workspace.json was imported here before; records "
        + "deleted or erased since come back too)"
      : (status.st_mode & S_IFMT) == S_IFLNK ? "imports the file it points to" : "imports it"
    if (status.st_mode & S_IFMT) == S_IFLNK {
      return "\(file.path) is a symbolic link, which no command follows by itself; \(migrate) \(imports)"
    }
    return "\(file.path) belongs to another user (uid \(status.st_uid)), so no command imports it by itself; \(migrate) \(imports)"
  }

  /// The import recorded in `store` of the bytes `file` leads to — read as `dolphin migrate`
  /// reads it, through a link of this user's (``BoundedInput/readFile(atPath:maxBytes:stopsRegularFiles:stop:)``)
  /// — or nil when none is, or when it cannot be read.
  /// - Throws: storage errors reading the workspace.
  static func importedRecord(of file: URL, store: any WorkspaceStore) throws -> (sha256: String, importedAt: Date)? {
    guard let data = try? readLegacyFile(file, named: file.path) else { return nil }
    let digest = SHA256.hash(Array(data)).hexString
    guard let record = try store.read({ tx in try tx.legacyImport(sha256: digest) }) else { return nil }
    return (digest, record.importedAt)
  }

  /// Where this workspace keeps legacy backups: `legacy-backups` in the workspace directory as
  /// checked when the store opened its files (``SQLiteWorkspaceStore/verifiedDirectory``, links
  /// resolved); nil for a store without one.
  public var legacyBackupDirectory: URL? {
    (store as? SQLiteWorkspaceStore).flatMap(Self.erasableDirectory)?.appendingPathComponent(Self.legacyBackupFolder)
  }

  /// Imports `<directory>/workspace.json` when it exists and has not been imported yet.
  /// - Returns: the report, or nil when there is no legacy file or it was imported before.
  public func importLegacyWorkspaceIfPresent(in directory: URL) throws -> LegacyMigrationReport? {
    let file = directory.appendingPathComponent(Self.legacyFileName)
    guard FileManager.default.fileExists(atPath: file.path), !store.isReadOnly else { return nil }
    let report = try importLegacyWorkspace(file: file, backupDirectory: directory.appendingPathComponent(Self.legacyBackupFolder))
    return report.alreadyImported ? nil : report
  }

  /// `decoded` with every record that `dolphin import` would refuse moved to the quarantine
  /// (``LegacyImportResult/quarantining(_:from:)``), so that a migrated workspace's export always
  /// restores (review 20-a, #3: receipt arguments nested 65–256 levels deep, and messages or
  /// receipts dated in 2099, were stored, and the export of the workspace was then refused).
  /// Each record is checked alone, as ``importRefusals(of:)`` checks a stored one
  /// (``PreparedImport/checkedRecords(_:deferringTagsOf:now:)``: bounds, sanitized text, dates no
  /// more than a day after `now`, receipt arguments that are JSON, settings in range); tags are
  /// normalized as the migration stores them, never a reason to quarantine.
  /// - Parameters:
  ///   - decoded: the file as ``LegacyWorkspaceImporter/decode(_:fileName:)`` read it.
  ///   - data: the file's bytes (to keep each quarantined record verbatim).
  ///   - now: the migration's clock.
  /// - Returns: `decoded`, less the refused records, which are quarantined with the import's reason.
  /// - Complexity: one check of the whole workspace; when it fails, one per record.
  static func applyingImportRules(_ decoded: LegacyImportResult, data: Data, now: Date) -> LegacyImportResult {
    let ws = decoded.workspace
    let tagged = Set(ws.memories.map(\.id))
    if (try? PreparedImport.checkedRecords(ws, deferringTagsOf: tagged, now: now)) != nil { return decoded }
    var refused: [(record: LegacyRecordReference, reason: String)] = []
    func check(_ record: LegacyRecordReference, _ one: AssistantWorkspace) {
      do throws(WorkspaceError) {
        _ = try PreparedImport.checkedRecords(one, deferringTagsOf: tagged, now: now)
      } catch {
        guard case .validation(let e) = error else { return }
        // `workspace.receipts[0] (id …): arguments …` as `arguments …`: the quarantine names the record.
        var problem = e.message
        if problem.hasPrefix("workspace."), let cut = problem.range(of: "): ") { problem = String(problem[cut.upperBound...]) }
        refused.append((record, problem + " (`dolphin import` refuses such a record, so it is kept here instead)"))
      }
    }
    for m in ws.memories { check(.memory(m.id), AssistantWorkspace(memories: [m])) }
    for t in ws.tasks { check(.task(t.id), AssistantWorkspace(tasks: [t])) }
    var refusedConversations = Set<UUID>()
    for c in ws.conversations {
      let before = refused.count
      check(.conversation(c.id), AssistantWorkspace(conversations: [c]))
      if refused.count > before { refusedConversations.insert(c.id) }
    }
    for m in ws.messages where !refusedConversations.contains(m.conversationID) {
      check(.message(m.id), AssistantWorkspace(messages: [m]))
    }
    for r in ws.receipts { check(.receipt(r.id), AssistantWorkspace(receipts: [r])) }
    for c in ws.checkpoints { check(.checkpoint(c.id), AssistantWorkspace(checkpoints: [c])) }
    check(.settings, AssistantWorkspace(settings: ws.settings))
    return decoded.quarantining(refused, from: data)
  }

  /// Set once a legacy import at first write failed: its later writes skip it.
  final class LegacyImportLatch: Sendable {
    private let flag = Mutex(false)
    /// Whether it is set.
    var isSet: Bool { flag.withLock { $0 } }
    /// Sets it; true when it was not set before.
    func set() -> Bool { flag.withLock { was in defer { was = true }; return !was } }
  }

  /// The key of the write preamble that imports the legacy file with hash `sha256`.
  static func preambleKey(_ sha256: String) -> String { "legacy-import:\(sha256)" }

  /// A legacy file read, hashed and decoded: what ``importLegacy(_:in:environment:)`` stores.
  struct LegacyImportSource: Sendable {
    var file: URL
    /// How messages name the file (see ``KnowledgeEngine/importLegacyWorkspace(file:named:backupDirectory:)``).
    var name: String
    var data: Data
    var sha256: String
    var decoded: LegacyImportResult
    var backupDirectory: URL
    /// The id of the digest the import stores, and when it imports: fixed when the file is read,
    /// so that every run of the import — the stand-in of a new workspace, a plan's rehearsal
    /// (``SQLiteWorkspaceStore/readsIncludeWritePreamble``), the write — stores the same records,
    /// and a plan that lists the digest (a deletion of a task it cites) is the one applied.
    var digestID: UUID
    var importedAt: Date
    var backupURL: URL { KnowledgeEngine.backupURL(named: file.lastPathComponent, sha256: sha256, in: backupDirectory) }
  }

  /// The report for a file whose sha256 is recorded already: nothing was changed.
  static func alreadyImported(file: URL, sha256: String, previous: WorkspaceTransaction.LegacyImportRecord)
    -> LegacyMigrationReport
  {
    LegacyMigrationReport(
      sourcePath: file.path, sha256: sha256, alreadyImported: true, sourceVersion: previous.sourceVersion,
      backupPath: previous.backupPath, imported: [:], quarantined: [], integrityProblems: [],
      firstImportedAt: previous.importedAt)
  }

  /// Puts `source` into the workspace in `tx`: every conversation, message, setting, memory,
  /// task, receipt and checkpoint, the quarantine, the memories' index rows, the sha256 and one
  /// digest, then — last, and not in a rehearsal — the 0600 backup. Does nothing when `tx`
  /// already records the file's sha256 (another process imported it first), unless `again`:
  /// then only the file's records `tx` does not hold are stored (``heldRemoved(from:in:)``),
  /// and the settings, the quarantine and the import record are left as they are.
  ///
  /// The file's settings (assistant name, response style, calendar access) are imported only on
  /// a first import, of a file none of whose records the workspace holds, into a workspace whose
  /// own settings are the defaults (``hasOwnSettings(_:)``): a `workspace.json` put into a
  /// workspace in use, or `dolphin migrate` of another file, never replaces settings the
  /// workspace got from an import (review 26-b, 3; review 27-a, 3 and 4). The report says which
  /// (``LegacyMigrationReport/settingsKept``).
  /// - Returns: the report, and whether a backup file was written.
  static func importLegacy(
    _ source: LegacyImportSource, in tx: WorkspaceTransaction, environment: Environment, again: Bool = false
  ) throws -> (LegacyMigrationReport, wroteBackup: Bool) {
    let file = source.file
    let previous = try tx.legacyImport(sha256: source.sha256)
    if let previous, !again {
      return (alreadyImported(file: file, sha256: source.sha256, previous: previous), false)
    }
    let ownSettings = hasOwnSettings(try tx.settings())
    let result = source.decoded
    let backup = source.backupURL
    let now = source.importedAt
    // Stored text is inert whatever its origin: text of memories and tasks is sanitized and
    // tags normalized as at capture and at import (chat messages are kept verbatim, as import
    // keeps activity).
    var ws = ImportAnalysis.sanitized(result.workspace)
    var held: [String: Int] = [:]
    if previous != nil || again {
      (ws, held) = try heldRemoved(from: ws, in: tx)
      // Nothing missing: nothing changes, not even a digest.
      if let previous, ws.conversations.isEmpty, ws.messages.isEmpty, ws.memories.isEmpty, ws.tasks.isEmpty,
        ws.receipts.isEmpty, ws.checkpoints.isEmpty
      {
        var report = alreadyImported(file: file, sha256: source.sha256, previous: previous)
        report.alreadyImported = false
        report.importedAgain = true
        report.alreadyHeld = held
        report.imported = Dictionary(uniqueKeysWithValues: Self.reportedCollections.map { ($0, 0) })
        return (report, false)
      }
    }
    // The file's own records past a capacity were quarantined when it was decoded; records the
    // workspace holds already count too. A file that would take memories or tasks past theirs is
    // refused as a whole, with the true counts and the file's name (review 18-c, C4: the store's
    // refusal of the one record that did not fit said "holds 10000" of a workspace holding 3).
    try requireRoom(for: ws, in: tx, named: source.name)
    // The newest of each kept collection, across the workspace's records and the file's, as
    // `import` keeps them (review 19-c: records were pruned one insert at a time, the newest
    // stored spared, and nothing said so): the workspace's older ones go first, so that storing
    // the file's, and the digest at the end, prunes nothing more.
    let kept = try keepNewest(of: ws, in: tx)
    for c in ws.conversations {
      try naming("conversation \(c.id.uuidString)", in: source.name) { try tx.insertConversation(c) }
    }
    let messages = ws.messages.filter { !kept.left[.messages, default: []].contains($0.id) }
    let receipts = ws.receipts.filter { !kept.left[.receipts, default: []].contains($0.id) }
    let checkpoints = ws.checkpoints.filter { !kept.left[.checkpoints, default: []].contains($0.id) }
    for m in messages { try naming("message \(m.id.uuidString)", in: source.name) { try tx.insertMessage(m) } }
    // The file's settings only on a first import into a workspace that holds none of its records:
    // a later save of the same app workspace, or a file whose records came back through an
    // export, leaves the workspace's own settings as they are.
    let importsSettings = previous == nil && held.isEmpty && !ownSettings
    if importsSettings {
      var settings = ws.settings
      settings.knowledgeItemLimit = try tx.settings().knowledgeItemLimit
      // The importer quarantines settings the store would refuse; named as every other record is,
      // should one get through (review 19-b, F2: an over-bound assistantName named neither).
      try naming("settings", in: source.name) { try tx.setSettings(settings) }
    }
    for m in ws.memories {
      try naming("memory \(m.id.uuidString)", in: source.name) {
        let rowid = try tx.insertMemory(m)
        try LexicalIndexStore.index(memory: m, rowID: rowid, in: tx)
      }
    }
    for t in ws.tasks { try naming("task \(t.id.uuidString)", in: source.name) { try tx.insertTask(t) } }
    for r in receipts { try naming("receipt \(r.id.uuidString)", in: source.name) { try tx.insertReceipt(r) } }
    for c in checkpoints {
      try naming("checkpoint \(c.id.uuidString)", in: source.name) { try tx.insertCheckpoint(c) }
    }
    // Imported again: the first import kept the file's refused records aside, and recorded it.
    // A first import of a changed file does not keep aside again what an earlier version of it
    // already did (the same record, byte for byte).
    let alreadyQuarantined =
      previous == nil && !held.isEmpty ? Set(try tx.listQuarantine().map { "\($0.collection)\u{0}\($0.raw)" }) : []
    let quarantined = previous == nil ? result.quarantined.filter { !alreadyQuarantined.contains("\($0.collection)\u{0}\($0.rawJSON)") } : []
    for q in quarantined {
      try tx.insertQuarantine(
        .init(sourceFile: file.lastPathComponent, collection: q.collection, recordIndex: q.index ?? -1,
              reason: q.reason, raw: q.rawJSON, quarantinedAt: now))
    }
    if previous == nil {
      try tx.recordLegacyImport(
        .init(sha256: source.sha256, fileName: file.lastPathComponent, backupPath: backup.path,
              sourceVersion: result.sourceVersion, importedAt: now))
    }
    // A digest of what changed; none when the file brought nothing (every record held already).
    let importedNothing =
      !importsSettings && ws.conversations.isEmpty && messages.isEmpty && ws.memories.isEmpty && ws.tasks.isEmpty
      && receipts.isEmpty && checkpoints.isEmpty
    if !importedNothing {
      let d = try DigestBuilder.build(tx, id: source.digestID, now: now, trigger: .manual)
      try tx.insertDigest(d)
    }
    // Inside the transaction, so a failed backup imports nothing; not in a rehearsal on a
    // workspace that does not exist yet, which must leave no file behind.
    var wroteBackup = false
    if !tx.isRehearsal {
      // A backup already there (imported again) is kept whatever happens to this import.
      let existed = FileManager.default.fileExists(atPath: backup.path)
      _ = try writeBackup(source.data, named: file.lastPathComponent, sha256: source.sha256, in: source.backupDirectory)
      wroteBackup = !existed
    }
    let report = LegacyMigrationReport(
      sourcePath: file.path, sha256: source.sha256, alreadyImported: false, sourceVersion: result.sourceVersion,
      backupPath: backup.path,
      imported: [
        "conversations": ws.conversations.count, "messages": messages.count, "memories": ws.memories.count,
        "tasks": ws.tasks.count, "receipts": receipts.count, "checkpoints": checkpoints.count,
        "settings": importsSettings ? 1 : 0,
      ],
      quarantined: quarantined, integrityProblems: result.integrityProblems,
      pruned: kept.pruned, olderThanKept: kept.left.filter { !$0.value.isEmpty }.reduce(into: [:]) { $0[$1.key.rawValue] = $1.value.count },
      firstImportedAt: previous?.importedAt, importedAgain: previous != nil, alreadyHeld: held,
      settingsKept: previous == nil && !importsSettings)
    return (report, wroteBackup)
  }

  /// Whether `settings` differ from the defaults in what a legacy file sets (assistant name,
  /// response style, calendar access; the knowledge item limit is the workspace's own and never
  /// imported): settings an import gave the workspace, which a legacy import leaves as they are.
  static func hasOwnSettings(_ settings: Settings) -> Bool {
    var compared = settings
    compared.knowledgeItemLimit = Settings.default.knowledgeItemLimit
    return compared != .default
  }

  /// Refuses `ws` (the file's records the workspace does not hold) when it would take the
  /// memories or tasks past their capacity, with the true counts and the file's `name`.
  /// - Throws: ``WorkspaceError`` (a capacity refusal naming the file).
  static func requireRoom(for ws: AssistantWorkspace, in tx: WorkspaceTransaction, named name: String) throws {
    let room: [(CappedCollection, held: Int, adding: Int, limit: Int)] = [
      (.memories, try tx.memoryCount(), ws.memories.count, Limits.memories),
      (.tasks, try tx.taskCount(), ws.tasks.count, Limits.tasks),
    ]
    for (what, held, adding, limit) in room where held + adding > limit {
      throw ImportAnalysis.capacityRefusal(
        WorkspaceError.capacity(what: what, limit: limit, held: held, adding: adding), source: name)
    }
  }

  /// The collections a report counts, in the order `dolphin migrate` names them.
  static let reportedCollections = ["conversations", "messages", "memories", "tasks", "receipts", "checkpoints", "settings"]

  /// `ws` less every record `tx` holds by id (conversations, messages, memories, tasks, receipts,
  /// checkpoints), for an import again of a file imported before: what was erased or deleted
  /// since comes back, and what is still held — edited since, perhaps — is left as it is.
  /// - Returns: what is left to import, and per collection how many records were held (only
  ///   collections with some).
  /// - Complexity: one lookup by primary key per record of the file.
  static func heldRemoved(from ws: AssistantWorkspace, in tx: WorkspaceTransaction) throws
    -> (AssistantWorkspace, held: [String: Int])
  {
    var out = ws
    var held: [String: Int] = [:]
    func keep<T>(_ records: [T], _ name: String, _ isHeld: (T) throws -> Bool) throws -> [T] {
      let left = try records.filter { try !isHeld($0) }
      if left.count < records.count { held[name] = records.count - left.count }
      return left
    }
    out.conversations = try keep(ws.conversations, "conversations") { try tx.conversation(id: $0.id) != nil }
    out.messages = try keep(ws.messages, "messages") { try tx.message(id: $0.id) != nil }
    out.memories = try keep(ws.memories, "memories") { try tx.memory(id: $0.id) != nil }
    out.tasks = try keep(ws.tasks, "tasks") { try tx.task(id: $0.id) != nil }
    out.receipts = try keep(ws.receipts, "receipts") { try tx.receipt(id: $0.id) != nil }
    out.checkpoints = try keep(ws.checkpoints, "checkpoints") { try tx.checkpoint(id: $0.id) != nil }
    return (out, held)
  }

  /// Keeps the newest records of each kept collection (``KeptCollection``) across the
  /// workspace's and `ws`'s (``NewestKept``): removes the workspace's older ones now, in `tx`,
  /// and says which of the file's are older than those kept. For digests, the one the migration
  /// stores at the end takes one place (a legacy file holds none).
  ///
  /// A file's record whose id the workspace holds is refused when it is stored (nothing is
  /// imported then); so that it still is, a stored record with such an id is never removed here.
  /// - Returns: per collection, the file's record ids left out (older than those kept), and the
  ///   number of the workspace's records removed (only collections with some).
  /// - Throws: storage errors.
  static func keepNewest(of ws: AssistantWorkspace, in tx: WorkspaceTransaction)
    throws -> (left: [KeptCollection: Set<UUID>], pruned: [String: Int])
  {
    var left: [KeptCollection: Set<UUID>] = [:]
    var pruned: [String: Int] = [:]
    for collection in KeptCollection.allCases {
      let incoming: [(id: UUID, date: Date)] =
        switch collection {
        case .digests: []
        case .messages: ws.messages.map { ($0.id, $0.createdAt) }
        case .receipts: ws.receipts.map { ($0.id, $0.startedAt) }
        case .checkpoints: ws.checkpoints.map { ($0.id, $0.createdAt) }
        }
      let room = collection.limit - (collection == .digests ? 1 : 0)
      let stored = try tx.retentionOrder(collection)
      let clashing = Set(stored.map(\.id)).intersection(incoming.map(\.id))
      let newest = NewestKept(stored: stored, incoming: incoming, room: room, sparing: clashing)
      try tx.removeKept(collection, ids: newest.prunedStored)
      if !newest.prunedStored.isEmpty { pruned[collection.rawValue] = newest.prunedStored.count }
      left[collection] = Set(newest.olderIncoming)
    }
    return (left, pruned)
  }

  /// Reads a legacy file, bounded: a FIFO, a device or a runaway file never fills memory.
  /// - Throws: ``WorkspaceError/validation(_:)`` for a file over ``Limits/importDocumentBytes``,
  ///   a directory, or a FIFO, socket or device (refused without blocking, unread);
  ///   ``WorkspaceError/fileSystem(path:message:)`` when it cannot be read.
  /// - Parameter name: how messages name the file.
  static func readLegacyFile(_ file: URL, named name: String) throws -> Data {
    do {
      // Stops at the first NUL byte, as `import` does: a device or a binary file is refused
      // after one chunk instead of being read up to the bound.
      let read = try BoundedInput.readFile(
        atPath: file.path, maxBytes: Limits.importDocumentBytes, stopsRegularFiles: true,
        stop: BoundedInput.stopAtFirstNUL())
      if UTF8Validation.startsWithUTF16ByteOrderMark(read.bytes) {
        // Named as UTF-16, as `import` names it, not by its first NUL (review 21-a, 12).
        throw WorkspaceError.validation(
          ValidationError(
            field: "file",
            message: "\(name) is saved as UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8. "
              + "Nothing was imported"))
      }
      if let nul = read.bytes.firstIndex(of: 0) {
        throw WorkspaceError.validation(
          ValidationError(
            field: "file",
            message: "\(name) is not text: it holds a NUL byte (at byte \(nul)). Nothing was imported"))
      }
      guard !read.truncated else {
        throw WorkspaceError.validation(
          ValidationError(
            field: "file", limit: Limits.importDocumentBytes,
            message: "\(name) is more than \(Limits.importDocumentBytes) bytes; "
              + "the limit is \(Limits.importDocumentBytes) bytes. Nothing was imported"))
      }
      return Data(read.bytes)
    } catch let failure as BoundedInput.Failure {
      if case .tooLarge(_, let size, let maxBytes) = failure {
        throw WorkspaceError.validation(
          ValidationError(
            field: "file", limit: maxBytes, actual: Int(clamping: size),
            message: "\(name) is \(size) bytes; the limit is \(maxBytes) bytes, so it was not read. "
              + "Nothing was imported"))
      }
      if case .isDirectory = failure {
        // Not a storage fault: the argument names the wrong thing (as `import DIR`, exit 4).
        throw WorkspaceError.validation(
          ValidationError(
            field: "file",
            message: "\(name) is a directory, not a file; name the workspace JSON file. Nothing was imported"))
      }
      if case .notRegularFile(_, let kind) = failure {
        // A FIFO, socket or device is refused before it is opened for reading: none can block
        // the import or run on without end.
        throw WorkspaceError.validation(
          ValidationError(
            field: "file",
            message: "\(name) is \(kind), not a regular file; name the workspace JSON file. Nothing was imported"))
      }
      throw WorkspaceError.fileSystem(path: name, message: "cannot read the legacy workspace file: \(failure)")
    }
  }

  /// Writes `data` to `<directory>/<name>.<sha12>.backup`, mode 0600 from creation, atomically
  /// (``SecureFile/writeAtomically(_:to:overwrite:)``: a temporary file, fsynced, then moved into
  /// place), so a crash or a full disk never leaves a partial backup under that name. An
  /// existing backup with the same bytes is kept; one with other bytes (cut short by an older
  /// build) is replaced.
  /// - Throws: ``WorkspaceError/fileSystem(path:message:)`` naming the cause.
  ///
  /// Only in a directory of this user's or root's (never a symbolic link) inside a workspace
  /// directory no other user may change (``WorkspaceTrust/othersMayChange(directory:user:)``;
  /// review, s15: another user's link named `legacy-backups` in a shared directory got root's
  /// backup written where the link led).
  static func writeBackup(_ data: Data, named name: String, sha256: String, in directory: URL) throws -> URL {
    let fm = FileManager.default
    if let problem = backupDirectoryProblem(directory) { throw problem }
    if !fm.fileExists(atPath: directory.path) {
      do {
        try fm.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw WorkspaceError.fileSystem(path: directory.path, message: "cannot create the backup directory: \(error.localizedDescription)")
      }
    }
    let url = backupURL(named: name, sha256: sha256, in: directory)
    removeStaleTemporaries(in: directory)
    if let existing = fm.contents(atPath: url.path) {
      if existing == data { return url }
      try SecureFile.writeAtomically(data, to: url, overwrite: true)
      return url
    }
    do {
      try SecureFile.writeAtomically(data, to: url, overwrite: false)
    } catch {
      // Another process may have written the same backup meanwhile.
      if fm.contents(atPath: url.path) == data { return url }
      throw error
    }
    return url
  }

  /// The backup in `backupDirectory` (a workspace's `legacy-backups`, when it is a directory of
  /// this user's) of a `workspace.json` holding exactly `data`: the file was imported into this
  /// workspace before, whatever its `legacy_import` table says now. Nil when there is none.
  static func importedBackup(of data: Data, sha256: String, in backupDirectory: URL) -> URL? {
    var status = stat()
    guard lstat(backupDirectory.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR,
      status.st_uid == geteuid() || status.st_uid == 0
    else { return nil }
    let url = backupURL(named: legacyFileName, sha256: sha256, in: backupDirectory)
    guard lstat(url.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
      FileManager.default.contents(atPath: url.path) == data
    else { return nil }
    return url
  }

  /// Why no backup can be written in `directory` (a workspace's `legacy-backups`), or nil: the
  /// workspace directory is one other users may change, or `directory` is there and is not a
  /// directory of this user's or root's (a file, a symbolic link, another user's directory).
  static func backupDirectoryProblem(_ directory: URL) -> WorkspaceError? {
    let workspace = directory.deletingLastPathComponent().path
    if WorkspaceTrust.othersMayChange(directory: workspace) {
      return WorkspaceError.fileSystem(
        path: directory.path,
        message: "dolphin keeps legacy backups only in a workspace directory no other user may change, and other users "
          + "may change \(Limits.shownPath(workspace)) (its mode, group or access control list lets them write it, or it "
          + "is not a directory of its own); nothing was imported. Import into a workspace directory of your own "
          + "(mode 700)")
    }
    var status = stat()
    if lstat(directory.path, &status) == 0,
      (status.st_mode & S_IFMT) != S_IFDIR || (status.st_uid != geteuid() && status.st_uid != 0)
    {
      // Not "run the command again": at a first write the command went on, and run again it
      // stored its record twice (review 27-a, 8).
      return WorkspaceError.fileSystem(
        path: directory.path,
        message: "not a directory of this user's (a symbolic link, a file, or another user's directory), so no backup "
          + "of the legacy file can be written there, and nothing of the file was imported. Move it aside; the next "
          + "import of the file writes its backup there")
    }
    return nil
  }

  /// Where ``writeBackup(_:named:sha256:in:)`` puts the backup of a file named `name` with
  /// hash `sha256`: `<directory>/<name>.<first 12 hex digits>.backup`.
  static func backupURL(named name: String, sha256: String, in directory: URL) -> URL {
    directory.appendingPathComponent("\(name).\(sha256.prefix(12)).backup")
  }

  /// Removes temporary backup files that an atomic write left behind when its process was
  /// killed (`.<name>.backup.tmp-*`, see ``SecureFile/writeAtomically(_:to:overwrite:)``). Only
  /// files older than a minute go, so a write still in progress in another process is left alone.
  static func removeStaleTemporaries(in directory: URL) {
    let fm = FileManager.default
    guard let names = try? fm.contentsOfDirectory(atPath: directory.path) else { return }
    for name in names where name.hasPrefix(".") && name.contains(".backup.tmp-") {
      let path = directory.appendingPathComponent(name).path
      var status = stat()
      guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid() else { continue }
      let modified = (try? fm.attributesOfItem(atPath: path)[.modificationDate]) as? Date
      if let modified, Date().timeIntervalSince(modified) > 60 { try? fm.removeItem(atPath: path) }
    }
  }
}

extension KnowledgeEngine {
  /// Runs `body`; a validation error it throws (a clash with a record already in the
  /// workspace) is reworded to name the file and the record, and that nothing was imported:
  /// `workspace.json: memory 3F25…: a memory with id 3F25… already exists. Nothing was imported`.
  static func naming(_ record: String, in file: String, _ body: () throws -> Void) throws {
    do {
      try body()
    } catch WorkspaceError.validation(var error) {
      // A record held already (review 26-a, 2): the file, or records of it, came in before — an
      // earlier save of the same app workspace, or an export of a workspace that migrated it.
      let held =
        error.field == "id" && error.message.hasSuffix("already exists")
        ? "; this workspace already holds records of this file (an earlier version of it was imported, or an "
          + "export holding them); `\(command: "dolphin migrate \(file) --again")` imports only those it does not hold"
        : ""
      error.message = "\(file): \(record): \(error.message)\(held). Nothing was imported"
      throw WorkspaceError.validation(error)
    }
  }
}

/// Why a legacy `workspace.json` in a workspace directory was not imported by the first write
/// (``KnowledgeEngine/importLegacyWorkspaceAtFirstWrite(in:store:environment:imported:notImported:)``).
public enum LegacyFileNotImported: Sendable, Equatable {
  /// It cannot be read or decoded (damaged, empty, too large, not a legacy workspace, from a
  /// newer app), or its import failed (a capacity, a backup directory that is a file). `reason`
  /// names the file, says what is wrong and what to do about it. A later process's first write
  /// tries it again.
  case failed(reason: String)
  /// A legacy file was imported into this workspace before (`earlierFile`, at `importedAt`) and
  /// this one differs from it: a changed save of it, or another. It is never imported
  /// automatically, so records deleted or erased since stay gone; `dolphin migrate FILE --again`
  /// imports the records of it the workspace does not hold (review 26-b, 1).
  case changedSinceImport(earlierFile: String, importedAt: Date)
  /// The file was imported here before — `backupPath`, in the workspace's `legacy-backups`,
  /// holds the same bytes — but the workspace no longer records that import (its
  /// `legacy_import` table was dropped, or emptied, and made again). Imported again it would bring
  /// back what was deleted or erased since, so it is not (review 27-b, 3).
  case importRecordLost(backupPath: String)
  /// It is a symbolic link or another user's file, which no command imports by itself (review,
  /// s15: another user's link read root's private file into a shared workspace), and what it
  /// leads to was not imported here. `reason` names it and gives the `dolphin migrate` that
  /// imports it. Said at each process's first write until the file is moved out (s28: it was
  /// skipped in silence, only `dolphin doctor` named it).
  case notImportedByItself(reason: String)
}

/// Where a legacy `workspace.json` in a workspace directory stands (``KnowledgeEngine/legacyFileStatus(in:)``):
/// what `dolphin doctor` says of it.
public struct LegacyFileStatus: Sendable, Equatable, Encodable {
  /// `imported` (its sha256 is recorded), `pending` (the next write imports it; the records
  /// the workspace holds already are left as they are), `changed` (it differs from a legacy file
  /// imported here before, so it is not imported automatically: `dolphin migrate FILE --again`
  /// imports what the workspace lacks), `importRecordLost` (its backup shows it was imported,
  /// but the workspace's record of that import is gone; not imported automatically either) or
  /// `notImportable` (it cannot be read or decoded, or its import would be refused; writes go on
  /// without it).
  public var state: String
  /// The file's path.
  public var path: String
  /// sha256 of its bytes; nil when it could not be read.
  public var sha256: String?
  /// When it was imported (state `imported`).
  public var importedAt: Date?
  /// Why it cannot be imported (state `notImportable`), naming the file.
  public var reason: String?
  /// For state `changed`: the file name and import time of the legacy file imported before.
  public var earlierFile: String? = nil
  public var earlierImportedAt: Date? = nil
}

extension KnowledgeEngine {
  /// Where `<directory>/workspace.json` stands: imported (its sha256 recorded), changed (it
  /// differs from a legacy file imported before, and is not imported automatically), pending
  /// (the next write imports it, as ``importLegacyWorkspaceAtFirstWrite(in:store:environment:imported:notImported:)``
  /// would), or not importable (read or decoded with an error: damaged, empty, too large, not a
  /// legacy workspace; or its import would be refused: the memories or tasks it adds exceed
  /// their capacity, or no backup can be written — review 26-b, 5: such a file was called "not
  /// imported yet" while every write failed to import it). Reads the file and the workspace;
  /// changes nothing.
  /// - Returns: nil when the directory holds nothing of that name.
  /// - Throws: storage errors reading the workspace.
  /// - Complexity: one read and decode of the file (at most ``Limits/importDocumentBytes``).
  public func legacyFileStatus(in directory: URL) throws -> LegacyFileStatus? {
    try Self.legacyFileStatus(in: directory, store: store, now: environment.now())
  }

  /// ``legacyFileStatus(in:)`` for the workspace in `store`, or for a workspace directory that
  /// holds no workspace yet (`store` nil: nothing imported, no record held), as `dolphin
  /// doctor` and `status` report it before the first write (review 27-a, 5 and 6). Something
  /// named `workspace.json` that no write imports — a symbolic link, a directory, a FIFO,
  /// another user's file — is `notImportable`, with the reason.
  /// - Parameters:
  ///   - directory: the workspace directory.
  ///   - store: the workspace, or nil when there is none yet.
  ///   - now: the clock the import would use (dates more than a day ahead are refused).
  /// - Returns: nil when the directory holds nothing of that name.
  /// - Throws: storage errors reading the workspace.
  public static func legacyFileStatus(in directory: URL, store: (any WorkspaceStore)?, now: Date) throws
    -> LegacyFileStatus?
  {
    let directory = directory.standardizedFileURL
    let file = directory.appendingPathComponent(legacyFileName)
    var status = stat()
    guard lstat(file.path, &status) == 0 else { return nil }
    func refused(_ reason: String, sha256: String? = nil) -> LegacyFileStatus {
      LegacyFileStatus(state: "notImportable", path: file.path, sha256: sha256, reason: reason)
    }
    if (status.st_mode & S_IFMT) == S_IFLNK {
      // The first write imports a workspace.json only as a file of its own, never through a link;
      // what the link leads to is read here only to tell whether it was migrated by hand (s28).
      if let store, let imported = try importedRecord(of: file, store: store) {
        return LegacyFileStatus(state: "imported", path: file.path, sha256: imported.sha256, importedAt: imported.importedAt)
      }
      return refused(try notImportedByItselfReason(file: file, status: status, workspace: directory, store: store))
    }
    let data: Data
    do {
      data = try readLegacyFile(file, named: file.path)
    } catch {
      // A file refused for what it holds (UTF-16, a NUL byte) still has a sha256 to compare
      // with a copy (s28: doctor --json gave none); a directory, a FIFO, one too large has none.
      let raw = try? BoundedInput.readFile(atPath: file.path, maxBytes: Limits.importDocumentBytes)
      return refused("\(error)", sha256: raw.map { SHA256.hash($0.bytes).hexString })
    }
    let digest = SHA256.hash(Array(data)).hexString
    let imported = try store?.read({ tx in try tx.legacyImport(sha256: digest) })
    if let imported {
      return LegacyFileStatus(state: "imported", path: file.path, sha256: digest, importedAt: imported.importedAt)
    }
    // The first write imports only a file of this user's or root's (another user's file in a
    // workspace directory is not taken for this user's data).
    if status.st_uid != geteuid(), status.st_uid != 0 {
      return refused(
        try notImportedByItselfReason(file: file, status: status, workspace: directory, store: store), sha256: digest)
    }
    do {
      // What the import at first write checks before it stores anything, read-only here: the
      // file decodes (review 27-a, 2: a damaged file was called `changed`, and the advised
      // `migrate --again` failed on it), then whether it changed since an earlier import, then
      // the refusals its import would meet.
      let decoded = try LegacyWorkspaceImporter.decode(data, fileName: file.path)
      if let earlier = try store?.read({ tx in try tx.latestLegacyImport(named: legacyFileName) }) {
        return LegacyFileStatus(
          state: "changed", path: file.path, sha256: digest, earlierFile: earlier.fileName,
          earlierImportedAt: earlier.importedAt)
      }
      if let backup = importedBackup(of: data, sha256: digest, in: directory.appendingPathComponent(legacyBackupFolder)) {
        return LegacyFileStatus(
          state: "importRecordLost", path: file.path, sha256: digest,
          reason: "\(file.path) was imported into this workspace before (\(backup.path) holds the same bytes), but the "
            + "workspace's record of that import is gone, so no command imports it again by itself")
      }
      let ws = ImportAnalysis.sanitized(applyingImportRules(decoded, data: data, now: now).workspace)
      try store?.read { tx in
        let (left, _) = try Self.heldRemoved(from: ws, in: tx)
        try Self.requireRoom(for: left, in: tx, named: file.path)
      }
      if let problem = backupDirectoryProblem(directory.appendingPathComponent(legacyBackupFolder)) {
        throw problem
      }
    } catch let error as WorkspaceError {
      // The refusals the import would meet; storage errors reading the workspace are thrown.
      switch error {
      case .validation, .capacity, .fileSystem: break
      default: throw error
      }
      return refused("\(error)", sha256: digest)
    } catch let error as LegacyImportError {
      return refused("\(error)", sha256: digest)
    }
    return LegacyFileStatus(state: "pending", path: file.path, sha256: digest)
  }
}
