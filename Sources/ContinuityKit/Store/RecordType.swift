import Foundation

/// The type of record an id belongs to, for pointing a user who gave an id to the command (or
/// tool) that takes it. Ids are UUIDs made fresh for each record, so at most one record of a
/// workspace normally has a given id.
public enum RecordType: String, Sendable, Codable, CaseIterable {
  /// A knowledge item.
  case knowledge
  /// A legacy memory.
  case memory
  /// A task.
  case task
  /// A handoff.
  case handoff
  /// A stored digest.
  case digest
  /// An activity receipt (what an agent or MCP tool call executed).
  case receipt

  /// The record in words, without an article: `knowledge item`, `legacy memory`, `task`,
  /// `handoff`, `stored digest`, `activity receipt`.
  public var noun: String {
    switch self {
    case .knowledge: "knowledge item"
    case .memory: "legacy memory"
    case .task: "task"
    case .handoff: "handoff"
    case .digest: "stored digest"
    case .receipt: "activity receipt"
    }
  }

  /// The record with its article: `a task`, `an activity receipt`.
  public var withArticle: String {
    (noun.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + noun
  }

  /// Whose id it is, for a sentence: `a task's id`, `an activity receipt's id`.
  public var possessiveID: String { withArticle + "'s id" }

  /// The note an error about an id that no record of the type asked for has adds when a record
  /// of this type has it: ` (it is a task's id; give it as --task)`; without advice, ` (it is a
  /// task's id, not a knowledge item's)` or ` (it is a task's id)`. One helper for every such
  /// hint (review 28-b, 10: `knowledge delete` and `task delete` given the other's id said only
  /// "no … has the id", while `handoff create --knowledge` named the owner), so that each says
  /// it the same way.
  /// - Parameters:
  ///   - advice: what to do instead (`give it as taskIDs`, `` `dolphin task get ID` shows it
  ///     ``), after a semicolon; nil for none.
  ///   - expected: without advice, the type the id was given for, named after a comma.
  /// - Returns: the note, starting with a space.
  public func heldIDNote(_ advice: String?, expected: RecordType? = nil) -> String {
    if let advice { return " (it is \(possessiveID); \(advice))" }
    return " (it is \(possessiveID)" + (expected.map { ", not \($0.withArticle)'s" } ?? "") + ")"
  }
}

extension WorkspaceTransaction {
  /// Which record, if any, has `id`: knowledge items first, then memories, tasks, handoffs,
  /// stored digests and activity receipts.
  /// - Returns: its type, or nil when no record has the id.
  /// - Throws: storage errors.
  public func recordType(of id: UUID) throws(WorkspaceError) -> RecordType? {
    for type in RecordType.allCases where try holdsID(id, inTable: type.rawValue) { return type }
    return nil
  }
}
