import ContinuityKit
import Foundation
import KnowledgeEngine

extension Render {
  /// How many of an import's new records (``ImportPlan/newRecords``) the text plan names.
  static let importNewRecordsShown = 20

  /// - Parameter unknownFieldsIgnored: how many fields of the file the format does not define
  ///   (warned about, and not kept): then a restore into an empty workspace is not called lossless.
  static func importPlan(_ p: ImportPlan, unknownFieldsIgnored: Int = 0) -> String {
    // A repeat kept once is something the file held that the workspace will not (review 26-a, #4).
    let repeats = p.droppedRepeatedIDs > 0 ? "; \(p.droppedRepeatedIDs) repeated id(s) kept once, see below" : ""
    // Records the export could not decode are kept aside, not restored (review 29-a, 8).
    let unreadable =
      p.unreadableKeptAside > 0 ? "; \(p.unreadableKeptAside) unreadable record(s) kept aside, see below" : ""
    let restore =
      unknownFieldsIgnored == 0 && repeats.isEmpty && unreadable.isEmpty
      ? "empty workspace: lossless restore"
      : unknownFieldsIgnored == 0
        ? "empty workspace: restore of every " + (unreadable.isEmpty ? "record" : "readable record") + repeats + unreadable
        : "empty workspace: restore of every field the format defines; \(unknownFieldsIgnored) unknown field(s) ignored" + repeats
          + unreadable
    var lines = [
      "Import plan for \(inert(p.source)) (on conflict: \(p.policy.rawValue); "
        + (p.intoEmptyWorkspace ? restore + ")" : "merging into a workspace that has records)"),
      "  " + "collection".padding(toLength: 14, withPad: " ", startingAt: 0) + "   new  same  conflicting",
    ]
    func num(_ n: Int, _ width: Int) -> String { String(repeating: " ", count: max(0, width - String(n).count)) + String(n) }
    for c in p.collections {
      var line = "  " + c.name.padding(toLength: 14, withPad: " ", startingAt: 0) + num(c.new, 6) + num(c.same, 6) + num(c.conflicting, 13)
      if let kept = retentionNote(c) { line += "   (\(kept))" }
      lines.append(line)
    }
    // The values a `new` settings object changes, as a conflict lists them (review 20-a, #5);
    // a file naming no active handoff leaves this workspace's marker as it is (#10).
    let settings =
      p.settings == "new" && !(p.settingChanges ?? []).isEmpty
      ? "new, adopted (" + inert((p.settingChanges ?? []).map(\.description).joined(separator: ", ")) + ")" : p.settings
    let active = p.activeHandoff == "none" ? "unchanged (the file names none)" : p.activeHandoff
    lines.append("  settings: \(settings); active handoff: \(active); quarantine: \(p.quarantineNew) new, \(p.quarantineSame) already present")
    if p.unreadableKeptAside > 0 {
      lines.append(
        "  \(p.unreadableKeptAside) record(s) of the file's `unreadable` section (records its export could not decode) are "
          + "not imported as records: each is kept aside verbatim in the quarantine (`\(command: "dolphin quarantine")` lists them); "
          + "repair one and capture it again to use it")
    }
    if let new = p.newRecords {
      // Named, so that a record deleted here since the export is seen coming back (review 19-c, finding 9).
      lines.append(
        "  New knowledge, memories, tasks and handoffs (\(new.count); not in this workspace, "
          + "so any deleted here since the export come back):")
      for r in new.records.prefix(importNewRecordsShown) {
        lines.append("    - \(r.collection) \(r.id.uuidString) \(inertQuoted(Truncation.truncate(r.title, to: 80)))")
      }
      if new.count > importNewRecordsShown { lines.append("    … and \(new.count - importNewRecordsShown) more") }
    }
    if p.credentials.count > 0 {
      lines.append("  \(p.credentials.count) record(s) hold text that looks like a credential; they are imported and flagged (see `\(command: "dolphin status")`):")
      for f in p.credentials.flags { lines.append("    - " + credentialFlag(f)) }
    }
    if p.hasConflicts {
      // Settings and the active-handoff marker are no records with an id of their own: named as
      // what they are (review 18-d; review 19-c, finding 13).
      var kinds: [String] = []
      if p.conflicts.contains(where: \.isRecord) { kinds.append("same id, different content") }
      if p.conflicts.contains(where: { $0.collection == "settings" }) { kinds.append("the workspace settings differ") }
      if p.conflicts.contains(where: { $0.collection == "activeHandoffID" }) { kinds.append("the file marks another handoff active") }
      lines.append("  Conflicts (\(p.conflicts.count)) — " + kinds.joined(separator: "; ") + ":")
      for c in p.conflicts.prefix(50) {
        let details =
          c.collection == "activeHandoffID"
          ? "the file marks this handoff active, this workspace another" : c.details
        let fields = details.isEmpty ? "" : " (\(inert(escapingLineBreaks(details))))"
        lines.append("    - \(c.collection)" + (c.id.map { " \($0.uuidString)" } ?? "") + fields)
      }
      if p.conflicts.count > 50 { lines.append("    … and \(p.conflicts.count - 50) more") }
      switch p.policy {
      case .refuse: lines.append("  On conflict: refuse — nothing will be imported.")
      case .skip: lines.append("  On conflict: skip — this workspace's versions are kept.")
      case .replace: lines.append("  On conflict: replace — the file's versions overwrite these records.")
      }
    }
    if p.droppedNextSteps > 0 {
      lines.append(
        "  \(p.droppedNextSteps) blank handoff next step\(p.droppedNextSteps == 1 ? "" : "s") dropped "
          + "(nothing visible in \(p.droppedNextSteps == 1 ? "it" : "them"); capture never stores one).")
    }
    if p.droppedRepeatedIDs > 0 {
      lines.append(
        "  \(p.droppedRepeatedIDs) repeated id(s) dropped from tasks' and handoffs' id lists and knowledge items' "
          + "relationships (each is kept once, at its first place, as capture keeps it; the bound of \(Limits.idsPerList) "
          + "ids counts distinct ones).")
    }
    if p.storesDigest { lines.append("  One rule-based digest will be stored at the end.") }
    return lines.joined(separator: "\n")
  }

  /// What keeping the newest records of a kept collection did in an import or a migration, or
  /// nil when it left nothing out: `Kept the newest 10000 messages: 3 of the file's, older, were
  /// not imported; 2 older of this workspace's were pruned` (no final period). Nil too for a
  /// name that is no kept collection.
  static func keptNewest(_ name: String, olderThanKept: Int, pruned: Int) -> String? {
    guard olderThanKept > 0 || pruned > 0, let kept = KeptCollection(rawValue: name) else { return nil }
    let older = olderThanKept > 0 ? "\(olderThanKept) of the file's, older, were not imported" : nil
    let pruned = pruned > 0 ? "\(pruned) older of this workspace's were pruned" : nil
    return "Kept the newest \(kept.limit) \(name): " + [older, pruned].compactMap { $0 }.joined(separator: "; ")
  }

  /// What keeping the newest records of a kept collection does in an import, or nil: `2 oldest
  /// existing will be pruned; 48 of the file's digests are older than the newest 50 kept and
  /// will not be imported`.
  static func retentionNote(_ c: ImportPlan.Collection) -> String? {
    var parts: [String] = []
    if c.pruned > 0 { parts.append("\(c.pruned) oldest existing will be pruned") }
    if c.olderThanKept > 0, let kept = KeptCollection(rawValue: c.name) {
      parts.append(
        "\(c.olderThanKept) of the file's \(c.name) \(c.olderThanKept == 1 ? "is" : "are") older than the newest "
          + "\(kept.limit) kept and will not be imported")
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  static func erasePlan(_ p: ErasePlan) -> String {
    let finishing = p.target == "finishInterrupted"
    let title =
      p.target == "chatAndActivity"
      ? "Clear chat & run activity plan:"
      : finishing ? "Plan to finish the interrupted erase of everything:" : "Erase plan (\(p.target)):"
    var lines = [title]
    if p.isEmpty {
      lines.append(finishing ? "  nothing to finish: no erase was interrupted" : "  nothing to erase")
    } else {
      for s in p.steps { lines.append("  - \(inertLine(s.detail))") }
      for f in p.files { lines.append("  - remove the file \(inert(f)) (overwritten with zeros, then unlinked)") }
    }
    if finishing {
      if !p.isEmpty { lines.append("  Then: checkpoint the WAL and VACUUM the database.") }
      return lines.joined(separator: "\n")
    }
    lines.append("  Then: checkpoint the WAL, VACUUM the database, and scan every workspace file for the erased ids.")
    if let since = p.storedSinceInterruptedErase, since > 0 {
      // Review 29-b, 3: said before the erase is confirmed, with what keeps them.
      lines.append(
        "  Note: an earlier erase of everything was interrupted before it removed its files; all \(since) record(s) "
          + "this erase removes were stored since then. To finish only that erase and keep them, run "
          + "`\(command: "dolphin erase --finish")` instead.")
    }
    if !p.keptFiles.isEmpty, !p.isEmpty {
      lines.append(
        "  Kept on purpose: " + p.keptFiles.map(inert).joined(separator: ", ")
          // The workspace.json is the user's original, not a copy (review 27-a, 10).
          + " (legacy files: the backups made when a workspace.json was migrated, and a workspace.json itself; they may "
          + "hold records this erase removes, "
          + "and `\(command: "dolphin erase --kind all")` removes them).")
    }
    if !p.keptCopies.isEmpty, !p.isEmpty {
      let parts = p.keptCopies.map { copy in
        switch copy.collection {
        case "messages": "\(copy.count) chat message(s)"
        case "receipts": "\(copy.count) activity receipt(s)"
        case "handoffExcerpts": "the chat excerpts of \(copy.count) handoff(s)"
        case "conversations": "the titles of \(copy.count) conversation(s)"
        default: "\(copy.count) \(copy.collection)"
        }
      }
      lines.append(
        "  Kept: " + parts.joined(separator: ", ")
          + ", which may quote what this erase removes (an answer that cites it, a call's arguments); "
          + "`\(command: "dolphin activity clear")` removes chat and activity, `\(command: "dolphin erase --kind conversations")` the conversations, "
          + "`\(command: "dolphin erase --kind all")` everything.")
    }
    return lines.joined(separator: "\n")
  }

  static func verification(_ v: EraseVerification) -> String {
    var lines: [String] = []
    if !v.unscanned.isEmpty, v.idsChecked > 0 {
      lines.append(
        "Verification INCOMPLETE: \(v.unscanned.count) path(s) under the workspace directory could not be read, so "
          + "the erase is not verified there (read \(v.filesScanned.count) file(s), \(v.bytesScanned) bytes"
          + (v.leakedIDs.isEmpty ? "" : "; \(v.leakedIDs.count) erased id(s) still found") + "); see the notes.")
    } else if v.filesScanned.isEmpty {
      lines.append("Verification: no files to scan.")
    } else if v.passed && v.mentionedByKeptRecords > 0 {
      lines.append(
        "Verified: read \(v.filesScanned.count) file(s), \(v.bytesScanned) bytes; no erased record remains on disk"
          + (v.retainedCopies.isEmpty ? "" : " outside the legacy backups kept on purpose") + ", but "
          + "\(v.mentionedByKeptRecords) of the \(v.idsChecked) erased id(s) "
          + (v.mentionedByKeptRecords == 1 ? "is" : "are")
          + " still found in records you kept, which may also hold copies of the erased text (chat messages, "
          + "activity receipts, handoff excerpts, or text that quotes an id; `\(command: "dolphin activity clear")` removes chat and "
          + "activity, `\(command: "dolphin erase --kind all")` everything). WAL \(v.walBytes) bytes, \(v.freePages) free page(s).")
    } else if v.passed {
      // Copies in the legacy files kept on purpose are not leaks, but "none remains" would be
      // untrue of them (review, s16): the note below names the files.
      let outside = v.retainedCopies.isEmpty ? "" : " outside the legacy backups kept on purpose"
      lines.append(
        "Verified: read \(v.filesScanned.count) file(s), \(v.bytesScanned) bytes; none of the \(v.idsChecked) erased "
          + "record id(s) remains on disk\(outside). WAL \(v.walBytes) bytes, \(v.freePages) free page(s).")
    } else {
      lines.append(
        "Verification FAILED: \(v.leakedIDs.count) erased id(s) still found on disk: "
          + v.leakedIDs.map(\.uuidString).joined(separator: ", ") + " (in "
          + v.filesWithLeaks.map(inert).joined(separator: ", ") + ")")
    }
    for n in v.notes { lines.append("Note: \(inert(n))") }
    return lines.joined(separator: "\n")
  }
}
