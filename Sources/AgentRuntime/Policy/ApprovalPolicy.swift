import ContinuityKit
import Foundation

/// What the user is asked to approve: one exact call.
public struct ApprovalRequest: Sendable, Equatable {
  public var callID: String
  public var tool: String
  public var risk: RiskClass
  /// The normalized arguments exactly as they will execute (canonical sorted-key JSON).
  public var canonicalArguments: String
  /// What the call will also change besides the records its arguments name, one clause each,
  /// e.g. `rewrite the rule-built summary of handoff 5D… "Beta release"` (a task completed, an
  /// item superseded); empty when nothing else. Read from the workspace before the request is
  /// made (``ToolDefinition/alsoChanges``), so a prompt can show it beside the call.
  public var alsoChanges: [String]

  /// Makes a request.
  /// - Parameters:
  ///   - callID: the caller's id for the call.
  ///   - tool: the tool's canonical name.
  ///   - risk: its risk class.
  ///   - canonicalArguments: the normalized arguments (canonical sorted-key JSON).
  ///   - alsoChanges: what else the call will change (``alsoChanges``); none by default.
  public init(callID: String, tool: String, risk: RiskClass, canonicalArguments: String, alsoChanges: [String] = []) {
    self.callID = callID
    self.tool = tool
    self.risk = risk
    self.canonicalArguments = canonicalArguments
    self.alsoChanges = alsoChanges
  }

  /// A one-line description for a prompt: `knowledge_capture {"kind":"decision",…}`.
  public var summary: String { "\(tool) \(canonicalArguments)" }

  /// ``alsoChanges`` as one sentence for a prompt, `It will also rewrite the rule-built summary
  /// of handoff … and …`; nil when there is nothing else.
  public var alsoChangesSentence: String? {
    alsoChanges.isEmpty ? nil : "It will also " + alsoChanges.joined(separator: "; and ") + "."
  }
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
