import Synchronization

/// A transport held entirely in memory, for tests and previews: the test plays the client,
/// writing inbound bytes and reading the lines the server sent (after NIO's `EmbeddedChannel`,
/// with its `writeInbound` / `readOutbound` vocabulary).
///
/// Inbound bytes go through the same ``LineFramer`` as ``StdioTransport``, so framing and the
/// size limit behave as they do on a pipe.
///
/// ```swift
/// let transport = InMemoryTransport()
/// let serving = Task { await server.run(transport: transport) }
/// transport.writeInbound(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
/// await transport.nextOutbound()   // {"id":1,"jsonrpc":"2.0","result":{}}
/// transport.finishInbound()
/// await serving.value
/// ```
public final class InMemoryTransport: MCPTransport {
  private struct Outbound {
    var lines: [String] = []
    var waiters: [(id: Int, continuation: CheckedContinuation<String?, Never>)] = []
    var nextWaiter = 0
    var closed = false
  }

  private let stream: AsyncStream<TransportFrame>
  private let continuation: AsyncStream<TransportFrame>.Continuation
  private let framer: Mutex<LineFramer>
  private let outbound = Mutex(Outbound())

  /// A transport whose inbound lines are limited to `maximumMessageBytes` (see
  /// ``JSONRPCLimits``).
  public init(maximumMessageBytes: Int = JSONRPCLimits().maximumMessageBytes) {
    (stream, continuation) = AsyncStream.makeStream(of: TransportFrame.self)
    framer = Mutex(LineFramer(maximumLineBytes: maximumMessageBytes))
  }

  // MARK: The client's side

  /// Delivers `line` followed by a newline, as if the client had written it.
  public func writeInbound(_ line: String) {
    writeInbound(bytes: Array(line.utf8) + [0x0A])
  }

  /// Delivers raw bytes; they are split into frames at newlines, as on a pipe.
  public func writeInbound(bytes: [UInt8]) {
    let frames = framer.withLock { $0.append(bytes) }
    for frame in frames { continuation.yield(frame) }
  }

  /// Ends the input, as if the client had closed the server's standard input.
  ///
  /// A pending unterminated line is delivered first.
  public func finishInbound() {
    if let last = framer.withLock({ $0.finish() }) { continuation.yield(last) }
    continuation.finish()
  }

  /// Makes every later ``send(_:)`` fail, as if the client had closed its end of the output.
  public func closeOutbound() {
    outbound.withLock { $0.closed = true }
  }

  /// The oldest line the server wrote that has not been read yet, or nil when there is none.
  public func readOutbound() -> String? {
    outbound.withLock { state in state.lines.isEmpty ? nil : state.lines.removeFirst() }
  }

  /// Waits for the next line the server writes, up to `timeout`; nil when none arrives in time.
  public func nextOutbound(timeout: Duration = .seconds(10)) async -> String? {
    await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
      enum Claim {
        case line(String)
        case waiting(Int)
      }
      let claim = outbound.withLock { state -> Claim in
        if !state.lines.isEmpty { return .line(state.lines.removeFirst()) }
        state.nextWaiter += 1
        state.waiters.append((state.nextWaiter, continuation))
        return .waiting(state.nextWaiter)
      }
      switch claim {
      case .line(let line):
        continuation.resume(returning: line)
      case .waiting(let id):
        Task {
          try? await Task.sleep(for: timeout)
          self.expireWaiter(id)
        }
      }
    }
  }

  private func expireWaiter(_ id: Int) {
    let expired = outbound.withLock { state in
      state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0).continuation }
    }
    expired?.resume(returning: nil)
  }

  // MARK: The server's side

  /// The frames written with ``writeInbound(_:)`` and ``writeInbound(bytes:)``.
  public func inbound() -> AsyncStream<TransportFrame> { stream }

  /// Records `message` as one outbound line (or hands it to a waiting reader).
  ///
  /// - Throws: ``MCPServerError/transport(_:)`` after ``closeOutbound()``.
  public func send(_ message: [UInt8]) async throws {
    let line = String(decoding: message, as: UTF8.self)
    let waiter = try outbound.withLock { state -> CheckedContinuation<String?, Never>? in
      if state.closed {
        throw MCPServerError.transport("the in-memory transport's output is closed")
      }
      if !state.waiters.isEmpty { return state.waiters.removeFirst().continuation }
      state.lines.append(line)
      return nil
    }
    waiter?.resume(returning: line)
  }
}
