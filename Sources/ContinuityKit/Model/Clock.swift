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
    makeID: { UUID() })
}
