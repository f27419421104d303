/// Splits a byte stream into newline-delimited frames with a bounded line length.
///
/// A line longer than ``maximumLineBytes`` is not buffered whole: once it passes the limit its
/// bytes are counted and dropped until the newline, and it yields
/// ``TransportFrame/oversized(byteCount:)``, so one huge line costs at most the limit in
/// memory. A last line without a newline is delivered by ``finish()``.
///
/// - Complexity: O(n) in the bytes appended.
public struct LineFramer: Sendable {
  /// The longest line kept, in bytes, without the newline.
  public let maximumLineBytes: Int
  private var buffer: [UInt8] = []
  /// The length so far of a line being discarded, or nil when keeping bytes.
  private var discarded: Int?

  /// A framer keeping lines of at most `maximumLineBytes` bytes.
  public init(maximumLineBytes: Int) {
    self.maximumLineBytes = maximumLineBytes
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
      } else if buffer.count + piece.count > maximumLineBytes {
        discarded = buffer.count + piece.count
        buffer = []
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

  private mutating func takeLine() -> TransportFrame {
    defer {
      buffer = []
      discarded = nil
    }
    if let count = discarded { return .oversized(byteCount: count) }
    return .message(buffer)
  }
}
