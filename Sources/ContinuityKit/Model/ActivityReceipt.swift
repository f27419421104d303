import Foundation

/// What happened to an agent or MCP tool call.
public enum ReceiptOutcome: String, Codable, Sendable, CaseIterable {
  case succeeded
  case failed
  case denied
  case cancelled
}

/// An append-only record of one tool call, written by the runtime from what executed —
/// never from model text. At most 10,000 are kept; the oldest are pruned first.
public struct ActivityReceipt: Codable, Sendable, Equatable, Identifiable {
  public var id: UUID
  /// The tool call id this receipt is correlated to.
  public var callID: String
  public var tool: String
  /// `readOnly` or `localWrite`.
  public var risk: String
  /// Canonical (sorted-key) JSON of the normalized arguments, bounded.
  public var arguments: String
  public var outcome: ReceiptOutcome
  /// Ids of the records the call created or changed.
  public var changedIDs: [UUID]
  public var startedAt: Date
  public var finishedAt: Date
  /// How the call was approved (`notRequired`, `user`, `policy:allow`), or nil when denied.
  public var approval: String?
  /// A short, bounded status message (error text for failures).
  public var message: String

  public init(
    id: UUID, callID: String, tool: String, risk: String, arguments: String,
    outcome: ReceiptOutcome, changedIDs: [UUID] = [], startedAt: Date, finishedAt: Date,
    approval: String? = nil, message: String = ""
  ) {
    self.id = id
    self.callID = callID
    self.tool = tool
    self.risk = risk
    self.arguments = arguments
    self.outcome = outcome
    self.changedIDs = changedIDs
    self.startedAt = startedAt
    self.finishedAt = finishedAt
    self.approval = approval
    self.message = message
  }
}

/// Progress of an agent run, recorded step by step. At most 1,000 are kept.
public struct RunCheckpoint: Codable, Sendable, Equatable, Identifiable {
  public var id: UUID
  public var runID: UUID
  public var step: Int
  /// One of ``states``.
  public var state: String
  public var note: String
  public var createdAt: Date

  /// The states the agent loop records (and the legacy v4 format allows): `planned`,
  /// `awaitingApproval`, `executing`, `finished`, `cancelled`.
  public static let states = ["planned", "awaitingApproval", "executing", "finished", "cancelled"]

  public init(id: UUID, runID: UUID, step: Int, state: String, note: String = "", createdAt: Date) {
    self.id = id
    self.runID = runID
    self.step = step
    self.state = state
    self.note = note
    self.createdAt = createdAt
  }
}
