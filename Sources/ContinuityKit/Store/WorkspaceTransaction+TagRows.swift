import Foundation

/// The `knowledge_tag` rows a tag filter reads (`knowledge list --tag`, `search --tag`) are
/// derived from each item's stored `knowledge.tags`: every write through dolphin writes both in
/// one transaction, so they disagree only after another program edits or deletes items
/// (`sqlite3 … "UPDATE knowledge SET tags = …"`). These find and rebuild them.
extension WorkspaceTransaction {
  /// `1` when `knowledge.tags` of row `k` is a readable JSON list, else `0`. `CASE` evaluates its
  /// branches in order, so `json_type` only sees valid JSON; records whose tags are not a list
  /// are named by ``malformedJSON(limit:)`` and their tag rows are left alone.
  private static let readableTags = "CASE WHEN NOT json_valid(k.tags) THEN 0 WHEN json_type(k.tags) <> 'array' THEN 0 ELSE 1 END"

  /// The tag rows `knowledge.tags` calls for: (tag, row id) of every text entry of every
  /// readable list.
  private static let expectedTagRows = """
    SELECT j.value AS tag, k.rowid AS rid FROM knowledge k,
      json_each(CASE WHEN \(readableTags) = 1 THEN k.tags ELSE '[]' END) j WHERE j.type = 'text'
    """

  /// Replaces the tag filter's rows with ones derived from every item's stored tags: drops the
  /// rows of items deleted outside dolphin (which would otherwise tag an item stored later under
  /// the same row id) and brings those of items edited outside dolphin to their stored tags.
  /// Items whose tags are not a readable list keep their rows. Call it inside a write
  /// transaction; `dolphin reindex` does, with the search index rebuild.
  /// - Returns: how many tag rows were removed or added.
  /// - Complexity: O(*n*) in the number of items and tag rows.
  @discardableResult
  package func rebuildTagRows() throws(WorkspaceError) -> Int {
    requireValid()
    let before = try db.integer("SELECT count(*) FROM knowledge_tag")
    try db.execute("CREATE TEMP TABLE IF NOT EXISTS knowledge_tag_expected (tag TEXT NOT NULL, rid INTEGER NOT NULL, PRIMARY KEY (tag, rid)) WITHOUT ROWID")
    defer { try? db.execute("DROP TABLE IF EXISTS temp.knowledge_tag_expected") }
    try db.run("DELETE FROM temp.knowledge_tag_expected")
    try db.run("INSERT OR IGNORE INTO temp.knowledge_tag_expected(tag, rid) \(Self.expectedTagRows)")
    let removed = try db.run(
      """
      DELETE FROM knowledge_tag WHERE NOT EXISTS (SELECT 1 FROM temp.knowledge_tag_expected e
          WHERE e.tag = knowledge_tag.tag AND e.rid = knowledge_tag.knowledge_rowid)
        AND NOT EXISTS (SELECT 1 FROM knowledge k WHERE k.rowid = knowledge_tag.knowledge_rowid AND \(Self.readableTags) = 0)
      """)
    try db.run("INSERT OR IGNORE INTO knowledge_tag(tag, knowledge_rowid) SELECT tag, rid FROM temp.knowledge_tag_expected")
    let added = Int(try db.integer("SELECT count(*) FROM knowledge_tag") - before) + removed
    return removed + added
  }

  /// Where the tag filter's rows disagree with the stored tags, as problems that name the
  /// items (the first `limit`) and say that `dolphin reindex` repairs them: items whose tag rows
  /// are not their stored tags, and tag rows whose item is gone. Reads only; items whose tags
  /// are not a readable list are left to ``malformedJSON(limit:)``.
  /// - Parameter limit: how many item ids to name.
  /// - Returns: problems found (empty when the rows agree).
  /// - Complexity: O(*n*) in the number of items and tag rows.
  package func tagRowProblems(limit: Int = 20) throws(WorkspaceError) -> [String] {
    requireValid()
    var problems: [String] = []
    let ids = try db.all(
      """
      WITH expected(tag, rid) AS (\(Self.expectedTagRows)),
        actual(tag, rid) AS (
          SELECT t.tag, t.knowledge_rowid FROM knowledge_tag t JOIN knowledge k ON k.rowid = t.knowledge_rowid
            WHERE \(Self.readableTags) = 1),
        differing(rid) AS (
          SELECT rid FROM (SELECT tag, rid FROM expected EXCEPT SELECT tag, rid FROM actual)
          UNION SELECT rid FROM (SELECT tag, rid FROM actual EXCEPT SELECT tag, rid FROM expected))
      SELECT k.id FROM knowledge k WHERE k.rowid IN differing ORDER BY k.rowid
      """
    ) { row in Self.shownID(row.text(0)) }
    if !ids.isEmpty {
      let shown = ids.prefix(max(0, limit))
      let more = ids.count - shown.count
      problems.append(
        "\(ids.count) knowledge item(s) have tag filter rows that are not their stored tags (changed outside dolphin), "
          + "so `--tag` filters find them by other tags: " + shown.joined(separator: ", ")
          + (more > 0 ? ", and \(more) more" : "") + " (run `\(command: "dolphin reindex")`)")
    }
    let orphans = try db.integer(
      "SELECT count(*) FROM knowledge_tag t WHERE NOT EXISTS (SELECT 1 FROM knowledge k WHERE k.rowid = t.knowledge_rowid)")
    if orphans > 0 {
      problems.append(
        "\(orphans) tag filter row(s) belong to no knowledge item (deleted outside dolphin), and would tag an item "
          + "stored later under the same row id (run `\(command: "dolphin reindex")`)")
    }
    return problems
  }
}
