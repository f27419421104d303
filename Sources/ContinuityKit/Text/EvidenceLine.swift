import Foundation

/// A line of a text rendering that cites evidence: `- [id, id] text`.
///
/// Every text rendering of a digest line, a review line or an insight prints it this way (the
/// CLI's `context`, `review`; the MCP tools `project_context`, `project_review`,
/// `continuity_insights`; the `dolphin://digest/current` resource): the bullet, the evidence
/// ids in brackets (`[]` when there are none), a space, then the text folded onto one line
/// (``TerminalText/singleLine(_:)``). The ids sit at a fixed place that no stored text reaches,
/// so text cannot pose as evidence: a title ending in `[<uuid>]` reads as text after the real
/// ids, and a title holding a line break followed by `- [<uuid>] …` stays on the same line.
/// Evidence cut to a bound is counted inside the brackets, `- [ids, and 10 more] text`, so that
/// a line never reads as citing all it is about when it does not (review 24-a, 10).
package enum EvidenceLine {
  /// `- [ids] text`, or `- [ids, and N more] text` when `leftOut` records are not cited, on
  /// one line.
  /// - Parameters:
  ///   - evidenceIDs: the records the line cites, in the order given.
  ///   - leftOut: how many more records the line is about without citing them.
  ///   - text: what the line says; its line breaks and tabs become spaces.
  /// - Returns: the line, holding no line break.
  package static func render(evidenceIDs: [UUID], leftOut: Int = 0, text: String) -> String {
    "- [" + citation(evidenceIDs.map(\.uuidString), leftOut: leftOut) + "] " + TerminalText.singleLine(text)
  }

  /// What goes between the brackets: `ids` joined by `, `, then `, and N more` (or `N more`
  /// alone) when `leftOut` is more than 0.
  package static func citation(_ ids: [String], leftOut: Int) -> String {
    let more = leftOut > 0 ? "\(ids.isEmpty ? "" : ", and ")\(leftOut) more" : ""
    return ids.joined(separator: ", ") + more
  }
}

extension DigestLine {
  /// This line as ``EvidenceLine`` prints it: `- [ids] text`, `- [ids, and 10 more] text`
  /// when the builder cut its evidence.
  package var rendered: String { EvidenceLine.render(evidenceIDs: evidenceIDs, leftOut: evidenceLeftOut, text: text) }
}
