import Foundation

extension WorkspaceTransaction {
  /// Mirrors (source `legacyMemory`) whose memory is gone, at most `?` of them. It reads the
  /// partial index `knowledge_memory_mirror` (schema step 0005), not every item: `+k.id` keeps
  /// SQLite from scanning the id index just to return rows in id order.
  package static let orphanMirrorsSQL = """
    SELECT k.id, k.memory_id FROM knowledge k LEFT JOIN memory m ON m.id = k.memory_id
    WHERE k.memory_id IS NOT NULL AND k.source = 'legacyMemory' AND m.id IS NULL ORDER BY +k.id LIMIT ?
    """

  /// How a stored `supersedes` cycle is reported (by `status` and `doctor`).
  package static func supersedeCycleProblem(_ cycle: [UUID]) -> String {
    let ids = cycle.map(\.uuidString)
    let what =
      ids.count == 1
      ? "knowledge \(ids[0]) supersedes itself"
      : "knowledge \(ids.joined(separator: ", ")) supersede each other in a cycle"
    return what
      + "; none of them stands as the successor, so the digest shows them all and asks which one stands "
      + "(delete one, or export, remove one supersedes relationship and import with --on-conflict replace)"
  }

  /// Referential problems, each naming the ids involved, found with indexed SQL joins (no
  /// full decode): relationships to missing items, memory/mirror links that point nowhere,
  /// task and handoff references to missing records, an active-handoff marker that points
  /// at a missing handoff, and `supersedes` cycles (which only older data or a direct edit of
  /// the database can hold: new ones are refused).
  /// - Parameter limit: at most this many problems per check.
  /// - Complexity: one pass over each referencing table.
  public func referenceProblems(limit: Int = 100) throws(WorkspaceError) -> [String] {
    requireValid()
    let l = SQLValue.integer(Int64(limit))
    var out: [String] = []
    out += try db.all(
      """
      SELECT r.source_id, r.kind, r.target_id FROM knowledge_relationship r
      LEFT JOIN knowledge k ON k.id = r.target_id WHERE k.id IS NULL ORDER BY r.source_id, r.ordinal LIMIT ?
      """, [l]
    ) { "knowledge \($0.text(0)) has a \($0.text(1)) relationship to missing item \($0.text(2))" }
    out += try db.all(Self.orphanMirrorsSQL, [l]) { "knowledge \($0.text(0)) mirrors missing memory \($0.text(1))" }
    out += try db.all(
      """
      SELECT m.id, m.knowledge_id FROM memory m LEFT JOIN knowledge k ON k.id = m.knowledge_id
      WHERE m.knowledge_id IS NOT NULL AND k.id IS NULL ORDER BY m.id LIMIT ?
      """, [l]
    ) { "memory \($0.text(0)) links to missing knowledge mirror \($0.text(1))" }
    out += try db.all(
      """
      SELECT t.id, j.value FROM task t, json_each(t.knowledge_ids) j
      LEFT JOIN knowledge k ON k.id = j.value WHERE k.id IS NULL ORDER BY t.id, j.key LIMIT ?
      """, [l]
    ) { "task \($0.text(0)) references missing knowledge item \($0.text(1))" }
    out += try db.all(
      """
      SELECT h.id, j.value FROM handoff h, json_each(h.knowledge_ids) j
      LEFT JOIN knowledge k ON k.id = j.value WHERE k.id IS NULL ORDER BY h.id, j.key LIMIT ?
      """, [l]
    ) { "handoff \($0.text(0)) references missing knowledge item \($0.text(1))" }
    out += try db.all(
      """
      SELECT h.id, j.value FROM handoff h, json_each(h.task_ids) j
      LEFT JOIN task t ON t.id = j.value WHERE t.id IS NULL ORDER BY h.id, j.key LIMIT ?
      """, [l]
    ) { "handoff \($0.text(0)) references missing task \($0.text(1))" }
    if let active = try meta("activeHandoffID"), try db.integer("SELECT count(*) FROM handoff WHERE id = ?", [.text(active)]) == 0 {
      out.append("the active handoff marker points at missing handoff \(active)")
    }
    for cycle in try supersedeGraph().cycles.prefix(limit) { out.append(Self.supersedeCycleProblem(cycle)) }
    return out
  }
}
