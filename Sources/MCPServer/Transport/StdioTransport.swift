import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The MCP stdio transport: newline-delimited JSON-RPC messages read from standard input and
/// written to standard output.
///
/// Only JSON-RPC messages are ever written to the output descriptor, one per line; everything
/// else the process says belongs on standard error. Reading happens on a dedicated thread so
/// that a blocking `read(2)` never occupies a Swift concurrency thread; at most 64 frames wait
/// unread (the reader pauses when the consumer falls behind). Writing happens on a serial
/// dispatch queue, one whole line per `write(2)` sequence, so concurrent sends never interleave.
///
/// Creating a transport sets `SIGPIPE` to be ignored, so that a client that closed its end
/// produces a write error instead of killing the process.
///
/// - Source: MCP 2025-11-25, Base Protocol › Transports › stdio ("messages are delimited by
///   newlines, and MUST NOT contain embedded newlines"; "The server MUST NOT write anything to
///   its stdout that is not a valid MCP message").
public final class StdioTransport: MCPTransport {
  private let input: Int32
  private let output: Int32
  private let maximumMessageBytes: Int
  private let writer = DispatchQueue(label: "dolphin.mcp.stdio.writer")
  private let started = Mutex(false)
  private let stream: AsyncStream<TransportFrame>
  private let continuation: AsyncStream<TransportFrame>.Continuation

  /// A transport over two file descriptors.
  ///
  /// - Parameters:
  ///   - input: the descriptor to read messages from (default standard input).
  ///   - output: the descriptor to write messages to (default standard output).
  ///   - maximumMessageBytes: the longest line kept (see ``JSONRPCLimits``); longer lines
  ///     arrive as ``TransportFrame/oversized(byteCount:head:)``.
  public init(
    input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO,
    maximumMessageBytes: Int = JSONRPCLimits().maximumMessageBytes
  ) {
    self.input = input
    self.output = output
    self.maximumMessageBytes = maximumMessageBytes
    (stream, continuation) = AsyncStream.makeStream(
      of: TransportFrame.self, bufferingPolicy: .bufferingOldest(64))
    signal(SIGPIPE, SIG_IGN)
  }

  /// Starts the reader thread on the first call and returns the frames it reads.
  public func inbound() -> AsyncStream<TransportFrame> {
    let first = started.withLock { started in
      defer { started = true }
      return !started
    }
    if first {
      let input = self.input
      let limit = maximumMessageBytes
      let continuation = self.continuation
      let thread = Thread {
        StdioTransport.readLoop(input: input, limit: limit, continuation: continuation)
      }
      thread.name = "dolphin.mcp.stdio.reader"
      thread.start()
    }
    return stream
  }

  /// Whether the output descriptor reports an error or hang-up without waiting (`poll` with a
  /// zero timeout): on Linux, the writing end of a pipe whose reading end was closed reports
  /// `POLLERR`, as the next write would fail with `EPIPE`. A terminal or a file reports neither.
  public func outputIsClosed() -> Bool {
    var descriptor = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
    guard poll(&descriptor, 1, 0) > 0 else { return false }
    return descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
  }

  /// Writes `message` and a newline to the output descriptor.
  ///
  /// - Throws: ``MCPServerError/transport(_:)`` with the system error when the write fails
  ///   (for example `EPIPE` once the client has gone).
  public func send(_ message: [UInt8]) async throws {
    let output = self.output
    let line = message + [0x0A]
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
      writer.async {
        done.resume(with: StdioTransport.writeAll(line, to: output))
      }
    }
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Result<Void, any Error> {
    bytes.withUnsafeBytes { raw -> Result<Void, any Error> in
      var offset = 0
      while offset < raw.count {
        let written = write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
        if written < 0 {
          let code = errno
          if code == EINTR { continue }
          return .failure(
            MCPServerError.transport(
              "writing to descriptor \(descriptor) failed: \(String(cString: strerror(code)))"))
        }
        offset += written
      }
      return .success(())
    }
  }

  private static func readLoop(
    input: Int32, limit: Int, continuation: AsyncStream<TransportFrame>.Continuation
  ) {
    var framer = LineFramer(maximumLineBytes: limit)
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    func deliver(_ frame: TransportFrame) -> Bool {
      // The buffer holds 64 frames; when it is full, wait for the consumer instead of dropping.
      while true {
        switch continuation.yield(frame) {
        case .enqueued: return true
        case .terminated: return false
        case .dropped: usleep(1_000)
        @unknown default: return false
        }
      }
    }
    reading: while true {
      let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        break
      }
      if count == 0 { break }
      for frame in framer.append(chunk[0..<count]) {
        guard deliver(frame) else { break reading }
      }
    }
    if let last = framer.finish() { _ = deliver(last) }
    continuation.finish()
  }
}
