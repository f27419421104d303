import ContinuityKit
import Foundation

/// What a tool returns: structured content, a deterministic text rendering, and the ids of
/// records it created or changed.
public struct ToolOutput: Sendable, Equatable {
  /// A JSON object (MCP `structuredContent`).
  public var structured: JSONValue
  /// The deterministic rendering, at most the tool's output cap (cut with a marker).
  public var text: String
  /// Ids of the records the call created or changed — derived ones included: a digest it
  /// stored, a handoff whose rule-built summary it rewrote. The receipt records them.
  public var changedIDs: [UUID]
  /// For a tool that lists records (`task_list`, `knowledge_search`, …): how the output is cut,
  /// between whole records, when a host bounds it in bytes (``fitted(to:finishingText:)``); nil
  /// for any other tool.
  public var listing: Listing?

  /// An output; see each property.
  public init(structured: JSONValue, text: String, changedIDs: [UUID] = [], listing: Listing? = nil) {
    self.structured = structured
    self.text = text
    self.changedIDs = changedIDs
    self.listing = listing
  }

  /// Equal structured output, text and changed ids, and listings of the same field (a
  /// listing's text closure cannot be compared).
  public static func == (lhs: ToolOutput, rhs: ToolOutput) -> Bool {
    lhs.structured == rhs.structured && lhs.text == rhs.text && lhs.changedIDs == rhs.changedIDs
      && lhs.listing?.field == rhs.listing?.field
  }
}

extension ToolOutput {
  /// How a listing tool's output is cut when it is over a byte bound: the structured output
  /// keeps the first records of ``field``, each whole, and the text is rendered again to say so.
  public struct Listing: Sendable {
    /// The member of the structured output that holds the listed records, in order
    /// (`tasks`, `handoffs`, `results`, `insights`, `findings`).
    public var field: String
    /// The text of the output once `cut` is applied (before the executor's sanitizing and cap,
    /// as a handler's text is).
    public var text: @Sendable (_ cut: SizeCut) -> String

    /// A listing of `field` whose cut output reads `text`.
    public init(field: String, text: @escaping @Sendable (_ cut: SizeCut) -> String) {
      self.field = field
      self.text = text
    }
  }

  /// The cut of a listing to a byte bound: how many records it keeps, of how many.
  public struct SizeCut: Sendable, Equatable {
    /// Records kept: the first ones of the listing, each whole.
    public var kept: Int
    /// Records the call listed before the cut (more than ``kept``).
    public var listed: Int
    /// The bound the text names, in bytes: what the host holds a whole response to (the MCP
    /// server's ``ToolOutputBound/statedBytes``).
    public var boundBytes: Int

    /// Records left out: ``listed`` − ``kept``.
    public var omitted: Int { listed - kept }

    /// A cut keeping `kept` of `listed` records under a bound of `boundBytes` bytes.
    public init(kept: Int, listed: Int, boundBytes: Int) {
      self.kept = kept
      self.listed = listed
      self.boundBytes = boundBytes
    }
  }
}

/// A bound in bytes on a tool's output as a host sends it: the MCP server holds each response
/// line to its response bound (`JSONRPCLimits.maximumResponseBytes`, 4 MiB), which a listing of
/// 5,000 long tasks would pass many times over (review 19-a: one 36 MB line).
///
/// An output is measured as ``ToolOutput/byteCount``: its text as a JSON string (quotes and
/// escapes included) plus its structured output as compact JSON, both in UTF-8.
public struct ToolOutputBound: Sendable, Equatable {
  /// The most bytes the output may take (``ToolOutput/byteCount``); what is left of the
  /// response bound once the host's own framing (the JSON-RPC envelope, the request's id, the
  /// MCP result's members) is counted.
  public var bytes: Int
  /// The bound a cut listing's text names, in bytes: the host's bound on a whole response.
  public var statedBytes: Int

  /// A bound of `bytes` on the output, under a response bound of `statedBytes` bytes.
  public init(bytes: Int, statedBytes: Int) {
    self.bytes = bytes
    self.statedBytes = statedBytes
  }
}
