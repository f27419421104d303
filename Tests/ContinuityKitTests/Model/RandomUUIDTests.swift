import ContinuityKit
import Foundation
import Testing

/// Review 29-b, 2: under `ulimit -n 9` Foundation's `UUID()` could not open `/dev/urandom` and
/// gave every new record the id 00000000-0000-4000-8000-000000000000. Ids now come from
/// ``Environment/randomUUID(using:)`` over the system generator, which needs no descriptor.
@Suite("Random record ids")
struct RandomUUIDTests {
  /// A generator that returns the words it was given, in order.
  struct Replay: RandomNumberGenerator {
    var words: [UInt64]
    mutating func next() -> UInt64 { words.removeFirst() }
  }

  @Test("the bits come from the generator, with version 4 and variant 10 set (RFC 9562, 5.4)")
  func layout() {
    var all = Replay(words: [.max, .max])
    #expect(Environment.randomUUID(using: &all).uuidString == "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF")
    var none = Replay(words: [0, 0])
    #expect(Environment.randomUUID(using: &none).uuidString == "00000000-0000-4000-8000-000000000000")
    var counted = Replay(words: [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210])
    #expect(Environment.randomUUID(using: &counted).uuidString == "01234567-89AB-4DEF-BEDC-BA9876543210")
  }

  @Test("the live environment's ids are version 4 and all distinct")
  func liveIDs() {
    let ids = (0..<2000).map { _ in Environment.live.makeID() }
    #expect(Set(ids).count == ids.count)
    for id in ids.prefix(50) {
      let text = id.uuidString
      #expect(text[text.index(text.startIndex, offsetBy: 14)] == "4", "\(text)")
      #expect("89AB".contains(text[text.index(text.startIndex, offsetBy: 19)]), "\(text)")
    }
  }
}
