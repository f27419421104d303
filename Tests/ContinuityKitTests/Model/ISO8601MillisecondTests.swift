import ContinuityKit
import Foundation
import Testing

/// Every whole-millisecond date reads and writes back unchanged, before 1970 too (review 20-a,
/// #6: about half of the pre-1970 ones were stored a millisecond early, and importing the same
/// file twice then reported a conflict with itself).
struct ISO8601MillisecondTests {
  /// The review's dates, each written back as read.
  @Test(arguments: [
    "1969-12-31T23:59:59.999Z", "1965-10-19T09:42:33.379Z", "1929-03-27T04:55:42.358Z",
    "1969-06-01T10:00:00.001Z", "0001-01-01T00:00:00.001Z", "1970-01-01T00:00:00.000Z",
    "2026-09-21T14:13:20.123Z", "9999-12-31T23:59:59.999Z",
  ])
  func reviewDatesRoundTrip(_ text: String) throws {
    let date = try #require(ISO8601.date(from: text))
    #expect(ISO8601.string(from: date) == text)
    #expect(ISO8601.millisecondDate(from: text) == date)
    // Through the coder an export and an import use.
    let encoded = try StableJSON.encoder().encode([date])
    let decoded = try StableJSON.decoder().decode([Date].self, from: encoded)
    #expect(decoded == [date])
    #expect(String(decoding: encoded, as: UTF8.self) == "[\"\(text)\"]")
  }

  /// Fewer than three fraction digits, and none, name the same millisecond as three.
  @Test func shortFractionsAreMilliseconds() throws {
    #expect(ISO8601.date(from: "1965-10-19T09:42:33.3Z") == ISO8601.date(from: "1965-10-19T09:42:33.300Z"))
    #expect(ISO8601.date(from: "1965-10-19T09:42:33.37Z") == ISO8601.date(from: "1965-10-19T09:42:33.370Z"))
    #expect(ISO8601.date(from: "1965-10-19T09:42:33Z") == ISO8601.date(from: "1965-10-19T09:42:33.000Z"))
    // A finer fraction is kept to the millisecond below, before 1970 as after.
    #expect(ISO8601.millisecondDate(from: "1969-12-31T23:59:59.9995Z") == ISO8601.date(from: "1969-12-31T23:59:59.999Z"))
    #expect(ISO8601.millisecondDate(from: "1965-10-19T09:42:33.3799Z") == ISO8601.date(from: "1965-10-19T09:42:33.379Z"))
  }

  /// A sweep of whole milliseconds from year 1 to 9999 (a fixed generator, so a failure
  /// repeats): none is changed by reading and writing it.
  @Test func sweepOfMillisecondsRoundTrips() throws {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let lowest: Int64 = -62_135_596_800_000  // 0001-01-01T00:00:00.000Z
    let highest: Int64 = 253_402_300_799_999  // 9999-12-31T23:59:59.999Z
    var changed: [String] = []
    for _ in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let ms = lowest + Int64((state >> 11) % UInt64(highest - lowest))
      let text = ISO8601.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
      guard let date = ISO8601.date(from: text), ISO8601.string(from: date) == text else {
        changed.append(text)
        continue
      }
    }
    #expect(changed.isEmpty, "\(changed.count) changed, e.g. \(changed.prefix(5))")
  }
}
