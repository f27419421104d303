import Foundation

/// Injected time and id generation, so tests and benchmarks can be deterministic.
public struct Environment: Sendable {
  /// Returns the current time.
  public var now: @Sendable () -> Date
  /// Returns a fresh id.
  public var makeID: @Sendable () -> UUID

  public init(now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID) {
    self.now = now
    self.makeID = makeID
  }

  /// The system clock (truncated to whole milliseconds, the stored precision) and random UUIDs.
  public static let live = Environment(
    now: {
      let t = Date().timeIntervalSince1970
      return Date(timeIntervalSince1970: (t * 1000).rounded(.down) / 1000)
    },
    makeID: { randomUUID() })

  /// A random (version 4) UUID, RFC 9562 section 5.4: 122 random bits from `generator`, the
  /// version nibble set to 4 and the variant bits to `10`.
  ///
  /// The live environment draws them from `SystemRandomNumberGenerator` (the `getrandom` system
  /// call on Linux, `arc4random_buf` on Apple platforms), which needs no file descriptor.
  /// Foundation's `UUID()` on Linux reads `/dev/urandom` and, when that cannot be opened (no file
  /// descriptor left: `ulimit -n`), returned `00000000-0000-4000-8000-000000000000` for every
  /// record, which then collided across records (review 29-b, 2).
  /// - Parameter generator: the source of the random bits.
  public static func randomUUID<G: RandomNumberGenerator>(using generator: inout G) -> UUID {
    let high = generator.next() as UInt64
    let low = generator.next() as UInt64
    var bytes = [UInt8](repeating: 0, count: 16)
    for i in 0..<8 {
      bytes[i] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(i)))
      bytes[8 + i] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(i)))
    }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }

  /// A random (version 4) UUID from `SystemRandomNumberGenerator`
  /// (``randomUUID(using:)``).
  public static func randomUUID() -> UUID {
    var generator = SystemRandomNumberGenerator()
    return randomUUID(using: &generator)
  }
}
