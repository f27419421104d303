import ContinuityKit

/// The Markdown rendering of a digest served as `dolphin://digest/current`.
///
/// Deterministic: a heading, a line naming the algorithm, then one `##` section per non-empty
/// digest section in a fixed order, each line followed by its evidence ids in brackets. The
/// digest's id and time are left out, since the digest is computed for the read and not stored.
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

  /// Renders `digest`.
  static func render(_ digest: Digest) -> String {
    var lines = [
      "# Project digest",
      "",
      "Computed for this read by \(digest.algorithm) v\(digest.algorithmVersion) (rules, no model); "
        + "not stored. Evidence ids are in brackets.",
    ]
    var empty = true
    for (heading, section) in sections(digest) where !section.isEmpty {
      empty = false
      lines += ["", "## \(heading)", ""]
      for line in section {
        let ids = line.evidenceIDs.map(\.uuidString).joined(separator: ", ")
        lines.append("- \(line.text)" + (ids.isEmpty ? "" : " [\(ids)]"))
      }
    }
    if empty { lines += ["", "The workspace holds nothing to summarize yet."] }
    return lines.joined(separator: "\n") + "\n"
  }
}
