import ContinuityKit
import Foundation
import KnowledgeEngine

extension Render {
  static func importPlan(_ p: ImportPlan) -> String {
    var lines = [
      "Import plan for \(inert(p.source)) (on conflict: \(p.policy.rawValue); "
        + (p.intoEmptyWorkspace ? "empty workspace: lossless restore)" : "merging into a workspace that has records)"),
      "  " + "collection".padding(toLength: 14, withPad: " ", startingAt: 0) + "   new  same  conflicting",
    ]
    func num(_ n: Int, _ width: Int) -> String { String(repeating: " ", count: max(0, width - String(n).count)) + String(n) }
    for c in p.collections {
      var line = "  " + c.name.padding(toLength: 14, withPad: " ", startingAt: 0) + num(c.new, 6) + num(c.same, 6) + num(c.conflicting, 13)
      if c.pruned > 0 { line += "   (\(c.pruned) oldest existing will be pruned)" }
      lines.append(line)
    }
    lines.append("  settings: \(p.settings); active handoff: \(p.activeHandoff); quarantine: \(p.quarantineNew) new, \(p.quarantineSame) already present")
    if p.credentials.count > 0 {
      lines.append("  \(p.credentials.count) record(s) hold text that looks like a credential; they are imported and flagged (see `dolphin status`):")
      for f in p.credentials.flags { lines.append("    - " + credentialFlag(f)) }
    }
    if p.hasConflicts {
      lines.append("  Conflicts (\(p.conflicts.count)) — same id, different content:")
      for c in p.conflicts.prefix(50) {
        let fields = c.differingFields.isEmpty ? "" : " (\(c.differingFields.joined(separator: ", ")) differ)"
        lines.append("    - \(c.collection)" + (c.id.map { " \($0.uuidString)" } ?? "") + fields)
      }
      if p.conflicts.count > 50 { lines.append("    … and \(p.conflicts.count - 50) more") }
      switch p.policy {
      case .refuse: lines.append("  On conflict: refuse — nothing will be imported.")
      case .skip: lines.append("  On conflict: skip — this workspace's versions are kept.")
      case .replace: lines.append("  On conflict: replace — the file's versions overwrite these records.")
      }
    }
    if p.storesDigest { lines.append("  One rule-based digest will be stored at the end.") }
    return lines.joined(separator: "\n")
  }
}
