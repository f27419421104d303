import ContinuityKit
import Foundation

/// What the user is asked to approve: one exact call.
public struct ApprovalRequest: Sendable, Equatable {
  public var callID: String
  public var tool: String
  public var risk: RiskClass
  /// The normalized arguments exactly as they will execute (canonical sorted-key JSON).
  public var canonicalArguments: String

  public init(callID: String, tool: String, risk: RiskClass, canonicalArguments: String) {
    self.callID = callID
    self.tool = tool
    self.risk = risk
    self.canonicalArguments = canonicalArguments
  }

  /// A one-line description for a prompt: `knowledge_capture {"kind":"decision",…}`.
  public var summary: String { "\(tool) \(canonicalArguments)" }
}

/// The user's answer for one call. An approval applies to that call only.
public enum ApprovalDecision: Sendable, Equatable {
  /// Approved; `by` says how (`user`, `policy:allow`, `mcp:elicitation`).
  case approved(by: String)
  case denied(reason: String)
}

/// Decides on local writes. Asked once per `localWrite` call, never for read-only ones; no
/// answer is cached or carried to another call, run or restored handoff.
public protocol ApprovalProvider: Sendable {
  func decide(_ request: ApprovalRequest) async -> ApprovalDecision
}

/// A fixed policy (`--writes allow|deny`, tests).
public struct StaticApprovalPolicy: ApprovalProvider {
  public var decision: ApprovalDecision
  public init(_ decision: ApprovalDecision) { self.decision = decision }
  public static let allow = StaticApprovalPolicy(.approved(by: "policy:allow"))
  public static func deny(_ reason: String) -> StaticApprovalPolicy { StaticApprovalPolicy(.denied(reason: reason)) }
  public func decide(_ request: ApprovalRequest) async -> ApprovalDecision { decision }
}

/// Asks a closure (a terminal prompt, an MCP elicitation).
public struct ClosureApprovalProvider: ApprovalProvider {
  let body: @Sendable (ApprovalRequest) async -> ApprovalDecision
  public init(_ body: @escaping @Sendable (ApprovalRequest) async -> ApprovalDecision) { self.body = body }
  public func decide(_ request: ApprovalRequest) async -> ApprovalDecision { await body(request) }
}
