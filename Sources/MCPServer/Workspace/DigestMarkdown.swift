import ContinuityKit

/// The Markdown rendering of a digest served as `dolphin://digest/current`.
///
/// Deterministic: a heading, a line naming the algorithm, then one `##` section per non-empty
/// digest section in a fixed order, each line as ``EvidenceLine`` prints it (`- [ids] text`:
/// the evidence ids first, the text folded onto one line), as the CLI and the MCP tools print
/// them, so that no stored title can pose as evidence or start a line of its own. The digest's
/// id and time are left out, since the digest is computed for the read and not stored.
enum DigestMarkdown {
  /// The sections in rendering order, with their headings.
  static func sections(_ digest: Digest) -> [(heading: String, lines: [DigestLine])] {
    let s = digest.sections
    return [
      ("Decisions", s.decisions), ("Preferences", s.preferences), ("Goals", s.goals),
      ("Open tasks", s.openTasks), ("Recent context", s.recentContext),
      ("Priorities", s.priorities), ("Open questions", s.questions),
    ]
  }

  /// Renders `digest`; `absence` (``MCPWorkspace/absenceNotice(of:)``) says that no workspace
  /// exists yet, in place of "nothing to summarize".
  static func render(_ digest: Digest, absence: String? = nil) -> String {
    var lines = [
      "# Project digest",
      "",
      "Computed for this read by \(digest.algorithm) v\(digest.algorithmVersion) (rules, no model); "
        + "not stored. Each line starts with its evidence ids in brackets.",
    ]
    var empty = true
    for (heading, section) in sections(digest) where !section.isEmpty {
      empty = false
      lines += ["", "## \(heading)", ""]
      lines += section.map(\.rendered)
    }
    if let absence {
      lines += ["", MCPWorkspace.sentence(absence)]
    } else if empty {
      lines += ["", "The workspace holds nothing to summarize yet."]
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
