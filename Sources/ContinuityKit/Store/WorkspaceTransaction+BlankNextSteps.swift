import Foundation

/// Stored handoff next steps that show nothing (``Handoff/isBlankNextStep(_:)``): what `doctor`
/// reports. Capture refuses such a step and an import drops it, but imports by earlier builds
/// stored some, and schema step 0007 (``StoredTextCleanupStep``) removes those; a step written
/// into the database by another program afterwards is found here too.
public struct BlankNextStepReport: Sendable, Equatable, Codable {
  /// One handoff holding next steps that show nothing.
  public struct Entry: Sendable, Equatable, Codable {
    /// The handoff's id as stored.
    public var handoffID: String
    /// The 1-based positions of its blank next steps, ascending (as `handoff get` numbers them).
    public var positions: [Int]

    /// A handoff's entry: its stored id and its blank steps' 1-based positions.
    public init(handoffID: String, positions: [Int]) {
      self.handoffID = handoffID
      self.positions = positions
    }
  }

  /// How many next steps show nothing, across every handoff.
  public var count: Int
  /// How many handoffs hold at least one.
  public var handoffCount: Int
  /// The first handoffs holding some, by id, at most the `limit` asked for.
  public var handoffs: [Entry]
  /// True when the limit cut ``handoffs``: `handoffCount` exceeds the handoffs listed.
  public var truncated: Bool

  /// A report; the defaults make the empty one (every stored next step shows something).
  /// ``truncated`` is set when `handoffs` lists fewer than `handoffCount`.
  public init(count: Int = 0, handoffCount: Int = 0, handoffs: [Entry] = []) {
    self.count = count
    self.handoffCount = handoffCount
    self.handoffs = handoffs
    self.truncated = handoffCount > handoffs.count
  }

  private enum CodingKeys: String, CodingKey {
    case count, handoffCount, handoffs, truncated
  }

  /// Decodes a report; one written before ``truncated`` existed gets it from the counts.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      count: try c.decode(Int.self, forKey: .count), handoffCount: try c.decode(Int.self, forKey: .handoffCount),
      handoffs: try c.decode([Entry].self, forKey: .handoffs))
    if let truncated = try c.decodeIfPresent(Bool.self, forKey: .truncated) { self.truncated = truncated }
  }
}

extension WorkspaceTransaction {
  /// A handoff row whose stored next steps include some that show nothing.
  package struct BlankNextStepRow: Sendable, Equatable {
    /// The row's `rowid`.
    package var rowID: Int64
    /// The handoff's id as stored.
    package var id: String
    /// Every next step as stored.
    package var steps: [String]
    /// The 0-based indexes of the steps that show nothing, ascending.
    package var blankIndexes: [Int]

    /// The steps that show something, as stored, in order.
    package var visibleSteps: [String] {
      steps.indices.filter { !blankIndexes.contains($0) }.map { steps[$0] }
    }
  }

  /// The handoffs whose `next_steps` hold a step that shows nothing, by id. A list that is not
  /// a JSON list of strings is skipped: ``malformedJSON(limit:)`` names it, and nothing here
  /// may stop on it.
  /// - Complexity: one pass over the handoff table, O(total length of the next steps).
  package static func blankNextStepRows(in conn: SQLiteConnection) throws(WorkspaceError) -> [BlankNextStepRow] {
    let rows = try conn.all("SELECT rowid, id, next_steps FROM handoff ORDER BY id") {
      ($0.int64(0), $0.text(1), $0.text(2))
    }
    let decoder = StableJSON.decoder()
    return rows.compactMap { rowID, id, json in
      guard let steps = try? decoder.decode([String].self, from: Data(json.utf8)) else { return nil }
      let blank = steps.indices.filter { Handoff.isBlankNextStep(steps[$0]) }
      return blank.isEmpty ? nil : BlankNextStepRow(rowID: rowID, id: id, steps: steps, blankIndexes: blank)
    }
  }

  /// The stored handoff next steps that show nothing (``Handoff/isBlankNextStep(_:)``: empty,
  /// whitespace, control or invisible characters only), counted and located by handoff.
  /// - Parameter limit: at most this many handoffs are listed (the counts cover all of them).
  /// - Returns: an empty report when every stored next step shows something.
  /// - Throws: storage errors.
  /// - Complexity: one pass over the handoff table.
  public func blankNextSteps(limit: Int = 20) throws(WorkspaceError) -> BlankNextStepReport {
    requireValid()
    let rows = try Self.blankNextStepRows(in: db)
    return BlankNextStepReport(
      count: rows.reduce(0) { $0 + $1.blankIndexes.count }, handoffCount: rows.count,
      handoffs: rows.prefix(limit).map { row in
        BlankNextStepReport.Entry(handoffID: row.id, positions: row.blankIndexes.map { $0 + 1 })
      })
  }
}
