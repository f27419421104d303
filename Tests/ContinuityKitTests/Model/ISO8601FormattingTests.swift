@testable import ContinuityKit
import Foundation
import Testing

/// `ISO8601.string(from:)` writes its digits itself since s20 (`String(format:)` was a fifth of
/// writing an export's JSON); every date must come out as before.
@Suite("ISO-8601 formatting")
struct ISO8601FormattingTests {
  @Test("ISO-8601 dates are written digit by digit as `String(format:)` wrote them, whatever the year")
  func iso8601DigitsAsFormatted() {
    /// The formatting before s20 (`String(format:)`), of the whole milliseconds the writer takes
    /// (``ISO8601/milliseconds(of:)``: a whole millisecond whose product falls a hair below it
    /// counts as itself, review 20-a #6), so only the writing of the digits is compared.
    func formatted(_ date: Date) -> String {
      let ms = ISO8601.milliseconds(of: date)
      let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
      let (y, mo, d, h, mi, s) = ISO8601.civil(fromUnixSeconds: seconds)
      return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", y, mo, d, h, mi, s, Int(ms - seconds * 1000))
    }
    // Years -1 to 10,001, every few months, at odd seconds and milliseconds.
    var seconds = -62_230_000_000.0
    while seconds < 253_500_000_000 {
      let date = Date(timeIntervalSince1970: seconds)
      #expect(ISO8601.string(from: date) == formatted(date))
      seconds += 7_777_777.789
    }
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: -62_167_219_200)) == "0000-01-01T00:00:00.000Z")
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: -62_198_755_200)) == "-001-01-01T00:00:00.000Z")
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: 253_402_300_800)) == "10000-01-01T00:00:00.000Z")
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: 1_790_000_000.999)) == "2026-09-21T14:13:20.999Z")
  }
}
