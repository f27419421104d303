import Foundation

/// Schema step 0007: stored tags brought to today's form once more, and handoff next steps that
/// show nothing removed.
///
/// Step 0006 (``TagNormalizationStep``) normalized stored tags with the rules of its day. Tags
/// are now also dropped when they show nothing (``Limits/normalizeTags(_:)``: a Braille blank
/// U+2800, soft hyphens, a Hangul filler), so a workspace that ran 0006 before that change may
/// still hold such tags, listed as blank; this step runs the same normalization again
/// (``TagNormalizationStep/apply(_:)``, idempotent: a tag list already in today's form is not
/// written). It also removes the handoff next steps that show nothing
/// (``Handoff/isBlankNextStep(_:)``), which imports by earlier builds stored and which capture
/// refuses and an import drops: they hold no text, so nothing is lost, and the other steps keep
/// their text and order.
///
/// Only the changed columns of the changed rows are written: `tags` and `knowledge_tag` rows
/// (plus a `lexical_stale` row each, so KnowledgeEngine indexes those documents again), and
/// `next_steps`. No record is removed, and no other field changes (not `updatedAt`, not
/// `revision`: this is a change of form, not an edit).
package enum StoredTextCleanupStep {
  /// The step's name in `schema_migration`.
  package static let name = "0007-renormalize-tags-drop-blank-next-steps"

  /// No schema change: the step only rewrites data (``apply(_:)``), using the `lexical_stale`
  /// table step 0006 created.
  package static let sql = ""

  /// What the step rewrote.
  package struct Changes: Sendable, Equatable {
    /// Knowledge items and memories whose tags it rewrote.
    package var knowledge = 0
    package var memories = 0
    /// Handoffs whose next steps it rewrote, and how many next steps it removed from them.
    package var handoffs = 0
    package var nextStepsRemoved = 0

    package init(knowledge: Int = 0, memories: Int = 0, handoffs: Int = 0, nextStepsRemoved: Int = 0) {
      self.knowledge = knowledge
      self.memories = memories
      self.handoffs = handoffs
      self.nextStepsRemoved = nextStepsRemoved
    }
  }

  /// Rewrites, inside the step's transaction, every tag list ``TagNormalizationStep/normalized(_:)``
  /// changes and every handoff's next steps without those that show nothing. A column that is
  /// not a JSON list of strings is left as it is (reading that record reports it as damaged, as
  /// before; nothing is dropped).
  /// - Returns: what was rewritten.
  /// - Throws: storage errors (the step's transaction is then rolled back).
  @discardableResult
  package static func apply(_ conn: SQLiteConnection) throws(WorkspaceError) -> Changes {
    let tags = try TagNormalizationStep.apply(conn)
    var changes = Changes(knowledge: tags.knowledge, memories: tags.memories)
    for row in try WorkspaceTransaction.blankNextStepRows(in: conn) {
      let json: String
      do { json = try StableJSON.string(row.visibleSteps) } catch {
        throw .storage(file: conn.displayName, code: 0, message: "cannot encode next steps: \(error)")
      }
      try conn.run("UPDATE handoff SET next_steps = ? WHERE rowid = ?", [.text(json), .integer(row.rowID)])
      changes.handoffs += 1
      changes.nextStepsRemoved += row.blankIndexes.count
    }
    return changes
  }
}
