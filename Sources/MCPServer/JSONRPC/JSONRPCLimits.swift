/// Bounds on what one inbound JSON-RPC message may cost.
public struct JSONRPCLimits: Sendable, Equatable {
  /// The largest message accepted, in UTF-8 bytes, not counting the newline that ends it.
  ///
  /// Default 4 MiB (4,194,304 bytes). A longer line is discarded without being buffered whole
  /// and answered with a -32600 error whose id is `null`; the session keeps serving.
  public var maximumMessageBytes: Int
  /// The deepest nesting of arrays and objects accepted.
  ///
  /// The envelope counts: a tool's `arguments` object sits at depth 3. Default 64; deeper
  /// messages get -32700.
  public var maximumDepth: Int

  /// Limits; defaults as documented on each property.
  public init(maximumMessageBytes: Int = 4 * 1024 * 1024, maximumDepth: Int = 64) {
    self.maximumMessageBytes = maximumMessageBytes
    self.maximumDepth = maximumDepth
  }
}
