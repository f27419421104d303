/// One unit of input from the client: a message's bytes, or the size of a line that was too
/// long to keep.
public enum TransportFrame: Sendable, Equatable {
  /// The bytes of one line, without its newline.
  case message([UInt8])
  /// A line longer than the transport's limit; its bytes were discarded as they arrived.
  /// `byteCount` is the line's full length without the newline; `head` its first bytes (at
  /// most ``LineFramer/headBytes``), from which the request's id may still be read.
  case oversized(byteCount: Int, head: [UInt8] = [])
}

/// A bidirectional, message-framed connection to one MCP client.
///
/// Implementations: ``StdioTransport`` (newline-delimited JSON on stdin/stdout, the MCP stdio
/// transport) and ``InMemoryTransport`` (for tests, after NIO's `EmbeddedChannel`).
///
/// - Source: MCP 2025-11-25, Base Protocol › Transports › stdio.
public protocol MCPTransport: Sendable {
  /// The frames the client sends, in order; the stream finishes when the client closes its
  /// side. Call once: the stream has a single consumer.
  func inbound() -> AsyncStream<TransportFrame>

  /// Writes one message (a JSON text without newline) followed by a newline. Concurrent calls
  /// never interleave their bytes.
  ///
  /// - Throws: ``MCPServerError/transport(_:)`` when the output is closed or fails.
  func send(_ message: [UInt8]) async throws

  /// Whether the client has closed the output already, as far as can be told without writing
  /// (a pipe whose reading end is closed); false when it cannot be told. The session asks before
  /// handling each message, so that no request arrives at a tool once nobody can read its
  /// answer.
  func outputIsClosed() -> Bool
}

extension MCPTransport {
  /// Cannot be told without writing: false.
  public func outputIsClosed() -> Bool { false }
}
