import ContinuityKit

/// The Markdown rendering of a digest served as `dolphin://digest/current`.
///
/// Deterministic: a heading, a line naming the algorithm, then one `##` section per non-empty
/// digest section in a fixed order, each line as ``EvidenceLine`` prints it (`- [ids] text`:
/// the evidence ids first, the text folded onto one line), as the CLI and the MCP tools print
/// them, so that no stored title can pose as evidence or start a line of its own. The digest's
/// id and time are left out, since the digest is computed for the read and not stored.
enum DigestMarkdown {
  /// The sections in rendering order, with their headings and the count of what each left
  /// out (``DigestOmissions/marker(for:)``).
  static func sections(_ digest: Digest) -> [(heading: String, lines: [DigestLine], marker: String?)] {
    let headings = [
      "decisions": "Decisions", "preferences": "Preferences", "goals": "Goals", "openTasks": "Open tasks",
      "recentContext": "Recent context", "priorities": "Priorities", "questions": "Open questions",
    ]
    return digest.sections.namedWithMarkers.map { (headings[$0.name] ?? $0.name, $0.lines, $0.marker) }
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
    for (heading, section, marker) in sections(digest) where !section.isEmpty {
      empty = false
      lines += ["", "## \(heading)", ""]
      lines += section.map(\.rendered)
      // A paragraph after the list, not an item of it: it cites nothing.
      if let marker { lines += ["", marker] }
    }
    if let absence {
      lines += ["", MCPWorkspace.sentence(absence)]
    } else if empty {
      lines += ["", "The workspace holds nothing to summarize yet."]
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
