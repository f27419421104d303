import AgentRuntime
import ContinuityKit

extension RegistryToolProvider {
  /// How receipts record an approval given through MCP elicitation.
  public static let elicitationApproval = "mcp:elicitation"

  /// The form shown with an approval request: one boolean, unticked by default (review 20-b,
  /// #7: a client that renders the default showed the box ticked, so Enter approved), so that
  /// only accepting with the box ticked approves; unticked, declined or dismissed refuses.
  public static let approvalSchema: JSONObject = [
    "type": "object",
    "properties": [
      "approve": [
        "type": "boolean", "title": "Approve this local write",
        "description": "Run exactly this call once. Nothing is written unless you approve.",
        "default": false,
      ]
    ],
    "required": ["approve"],
  ]

  /// The message an approval request shows: the exact call, tool and canonical arguments, and
  /// what else the call will change (``ApprovalRequest/alsoChangesSentence``: the rule-built
  /// summaries of handoffs it rewrites) when there is anything.
  public static func approvalMessage(_ request: ApprovalRequest) -> String {
    let also = request.alsoChangesSentence.map { "\n\n" + $0 } ?? ""
    return """
      Dolphin asks to write to your local workspace. Approve this exact call?

      \(request.summary)\(also)

      Tool \(request.tool) (risk \(request.risk.rawValue)), call id \(request.callID). \
      The approval covers this one call only; nothing is written unless you accept.
      """
  }

  /// The text of the tool error for a local write refused under ``MCPWritePolicy/ask`` because
  /// the client cannot ask the user.
  public static let cannotAskMessage =
    "approval needed: this is a local write, and this MCP client cannot ask you to approve it "
    + "(asking needs form-mode elicitation: the client must declare the `elicitation` capability "
    + "with form mode, in protocol revision 2025-06-18 or later, and send notifications/initialized "
    + "first), so the server refused it under its "
    + "default policy --writes ask. Nothing was written. To allow writes, restart the server as "
    + "`dolphin mcp --writes allow` (writes then run without asking), or use a client that "
    + "supports MCP elicitation so that each write is shown to you first."

  /// The reason for refusing an accepted elicitation whose content lacks the required
  /// `approve` field: a client that drops the form's values has not shown the user's consent.
  public static let missingApprovalMessage =
    "the elicitation was accepted without the required \"approve\" field, so there is no "
    + "approval; nothing was written"

  /// The reason of the refusal of a write whose approval request got no answer within the
  /// server's ``MCPServer/Configuration/clientRequestTimeout``: `the approval timed out: no
  /// answer to the approval request within 600 seconds, so the call was refused as denied;
  /// nothing was written. Send it again to be asked again`.
  public static func approvalTimedOutMessage(after timeout: Duration) -> String {
    "the approval timed out: no answer to the approval request within \(MCPServerError.spoken(timeout)), so the "
      + "call was refused as denied; nothing was written. Send it again to be asked again"
  }

  /// The text of the refusal under ``MCPWritePolicy/deny``.
  public static let deniedByPolicyMessage =
    "the server runs with --writes deny, which refuses every local write; nothing was written. "
    + "Restart it without --writes deny to allow approved writes."

  /// Decides on the local writes of one call.
  ///
  /// - With ``MCPWritePolicy/deny``: refused.
  /// - When `context.canElicit`: the client shows ``approvalMessage(_:)`` with
  ///   ``approvalSchema``; accept with `approve: true` approves as
  ///   ``elicitationApproval``; decline, cancel, an unticked box, an accept without a boolean
  ///   `approve` (``missingApprovalMessage``), no answer within the server's
  ///   ``MCPServer/Configuration/clientRequestTimeout`` (``approvalTimedOutMessage(after:)``),
  ///   a client error or a cancelled call refuse, and the executor writes a `denied` receipt and
  ///   nothing else.
  /// - Otherwise ``MCPWritePolicy/allow`` approves as `policy:allow` and
  ///   ``MCPWritePolicy/ask`` refuses with ``cannotAskMessage``.
  public func approver(for context: MCPToolCallContext) -> any ApprovalProvider {
    let policy = writes
    return ClosureApprovalProvider { request in
      if policy == .deny { return .denied(reason: Self.deniedByPolicyMessage) }
      guard context.canElicit else {
        return policy == .allow
          ? .approved(by: "policy:allow") : .denied(reason: Self.cannotAskMessage)
      }
      let answer: MCPElicitationResult
      do {
        answer = try await context.elicit(
          message: Self.approvalMessage(request), requestedSchema: Self.approvalSchema)
      } catch is CancellationError {
        return .denied(reason: "the call was cancelled while waiting for approval")
      } catch MCPServerError.clientTimeout(let timeout) {
        // Review 22, 6: said as what happened, not as an approval that could not be asked.
        return .denied(reason: Self.approvalTimedOutMessage(after: timeout))
      } catch {
        return .denied(reason: "approval could not be asked: \(error)")
      }
      switch answer.action {
      case .accept:
        // Consent is the required boolean itself: an accepted form without it (or with
        // anything but `true`) is not an approval, whatever the client meant.
        switch answer.content?["approve"] {
        case .bool(true)?:
          return .approved(by: Self.elicitationApproval)
        case .bool(false)?:
          return .denied(reason: "the user did not tick \"approve\" (elicitation accepted unticked)")
        case nil:
          return .denied(reason: Self.missingApprovalMessage)
        case let other?:
          return .denied(
            reason: "the elicitation was accepted with \"approve\" set to \(other.kindWithArticle), not a "
              + "boolean, which is not an approval; nothing was written")
        }
      case .decline:
        return .denied(reason: "the user declined the approval request (elicitation)")
      case .cancel:
        return .denied(reason: "the user dismissed the approval request (elicitation cancelled)")
      }
    }
  }
}
