/// Splits a byte stream into newline-delimited frames with a bounded line length.
///
/// A line longer than ``maximumLineBytes`` is not buffered whole: once it passes the limit only
/// its first ``headBytes`` bytes are kept, the rest counted and dropped until the newline, and it
/// yields ``TransportFrame/oversized(byteCount:head:)``, so one huge line costs at most the
/// limit in memory while it arrives and ``headBytes`` once it is refused. A last line without a
/// newline is delivered by ``finish()``.
///
/// - Complexity: O(n) in the bytes appended.
public struct LineFramer: Sendable {
  /// How many bytes of an oversized line are kept by default (``headBytes``): 64 KiB, room for
  /// an envelope whose `id` comes before its large `params`, as clients write it.
  public static let defaultHeadBytes = 64 * 1024

  /// The longest line kept, in bytes, without the newline.
  public let maximumLineBytes: Int
  /// How many leading bytes of an oversized line its frame carries, so that the request's id
  /// can still be read from them (``JSONRPCMessage/requestID(inStartOf:)``).
  public let headBytes: Int
  private var buffer: [UInt8] = []
  /// The length so far of a line being discarded, or nil when keeping bytes.
  private var discarded: Int?
  /// The first bytes of the line being discarded, at most ``headBytes``.
  private var head: [UInt8] = []

  /// A framer keeping lines of at most `maximumLineBytes` bytes, and the first `headBytes`
  /// bytes (default ``defaultHeadBytes``) of a longer one.
  public init(maximumLineBytes: Int, headBytes: Int = LineFramer.defaultHeadBytes) {
    self.maximumLineBytes = maximumLineBytes
    self.headBytes = max(0, headBytes)
  }

  /// Consumes `chunk` and returns the frames it completes, in order.
  public mutating func append(_ chunk: some Collection<UInt8>) -> [TransportFrame] {
    var frames: [TransportFrame] = []
    var rest = chunk[...]
    while !rest.isEmpty {
      let newline = rest.firstIndex(of: 0x0A)
      let piece = rest[..<(newline ?? rest.endIndex)]
      if let count = discarded {
        discarded = count + piece.count
        keepHead(piece)
      } else if buffer.count + piece.count > maximumLineBytes {
        discarded = buffer.count + piece.count
        head = Array(buffer.prefix(headBytes))
        buffer = []
        keepHead(piece)
      } else {
        buffer.append(contentsOf: piece)
      }
      guard let newline else { break }
      frames.append(takeLine())
      rest = rest[rest.index(after: newline)...]
    }
    return frames
  }

  /// The final line when the input ended without a newline, or nil when nothing is pending.
  public mutating func finish() -> TransportFrame? {
    guard discarded != nil || !buffer.isEmpty else { return nil }
    return takeLine()
  }

  /// Adds the start of `piece` to ``head`` while it holds fewer than ``headBytes`` bytes.
  private mutating func keepHead(_ piece: some Collection<UInt8>) {
    let room = headBytes - head.count
    if room > 0 { head.append(contentsOf: piece.prefix(room)) }
  }

  private mutating func takeLine() -> TransportFrame {
    defer {
      buffer = []
      discarded = nil
      head = []
    }
    if let count = discarded { return .oversized(byteCount: count, head: head) }
    return .message(buffer)
  }
}
