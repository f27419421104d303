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
package enum EvidenceLine {
  /// `- [ids] text`, on one line.
  /// - Parameters:
  ///   - evidenceIDs: the records the line cites, in the order given.
  ///   - text: what the line says; its line breaks and tabs become spaces.
  /// - Returns: the line, holding no line break.
  package static func render(evidenceIDs: [UUID], text: String) -> String {
    let ids = evidenceIDs.map(\.uuidString).joined(separator: ", ")
    return "- [" + ids + "] " + TerminalText.singleLine(text)
  }
}

extension DigestLine {
  /// This line as ``EvidenceLine`` prints it: `- [ids] text`.
  package var rendered: String { EvidenceLine.render(evidenceIDs: evidenceIDs, text: text) }
}
