/// Bounds on the JSON-RPC messages of a session: what one inbound message may cost, and how
/// large one response may be.
public struct JSONRPCLimits: Sendable, Equatable {
  /// The largest message accepted, in UTF-8 bytes, not counting the newline that ends it.
  ///
  /// Default 4 MiB (4,194,304 bytes). A longer line is discarded without being buffered whole
  /// and answered with a -32600 error under the request's id when its first
  /// ``LineFramer/defaultHeadBytes`` bytes hold it (``JSONRPCMessage/requestID(inStartOf:)``),
  /// else with id `null`; the session keeps serving.
  public var maximumMessageBytes: Int
  /// The deepest nesting of arrays and objects accepted.
  ///
  /// The envelope counts: a tool's `arguments` object sits at depth 3. Default 64; deeper
  /// messages get -32700, under the request's id when it can be read past the deep value
  /// (``JSONRPCMessage/requestID(inStartOf:)``).
  public var maximumDepth: Int
  /// The largest response the server sends, in UTF-8 bytes, not counting the newline that ends
  /// its line: the response's envelope and the request's id, echoed, included.
  ///
  /// Default 4 MiB (4,194,304 bytes), what the server accepts: a client that can send a message
  /// can read the answer (review 19-a: `task_list` on 5,000 long tasks sent one 36 MB line).
  /// A tool that lists records keeps its first ones, each whole, within what is left of the
  /// bound, and says how many it left out (`omittedForSize` beside `truncated: true`, and a
  /// last line of text). A result still over it — one record larger than the bound — is not
  /// sent: a tool call gets an `isError` result saying so, any other request a -32603 error.
  /// The one line that answers a JSON-RPC batch (revision 2025-03-26 only) is held to it too:
  /// its responses are kept whole in batch order while they fit, and each later one that does
  /// not is replaced by such an error. Only errors can pass it, by the ids they echo: one to a
  /// request whose id alone nearly fills ``maximumMessageBytes`` (the id is echoed whole), or a
  /// batch's errors and stand-ins (each a few hundred bytes beside its id, at most
  /// ``maximumBatchMessages`` of them) whose ids together nearly fill it.
  public var maximumResponseBytes: Int
  /// The most messages one JSON-RPC batch may hold (requests, notifications and responses
  /// alike; revision 2025-03-26 only, the one that has batches).
  ///
  /// Default 100. A longer batch is refused whole, before any of it runs, with a -32600 error
  /// whose id is `null`, naming the limit and the count given (`data.count`, `data.limit`);
  /// the session keeps serving. Each request of a batch runs at once beside the others, so a
  /// 4 MiB line of 100,000 requests would otherwise start 100,000 calls together.
  public var maximumBatchMessages: Int

  /// Limits; defaults as documented on each property.
  public init(
    maximumMessageBytes: Int = 4 * 1024 * 1024, maximumDepth: Int = 64, maximumResponseBytes: Int = 4 * 1024 * 1024,
    maximumBatchMessages: Int = 100
  ) {
    self.maximumMessageBytes = maximumMessageBytes
    self.maximumDepth = maximumDepth
    self.maximumResponseBytes = maximumResponseBytes
    self.maximumBatchMessages = maximumBatchMessages
  }
}
