import Foundation

/// JSON coding with a stable, locale-free shape: sorted keys, ISO-8601 UTC dates with
/// millisecond precision, no escaped slashes.
public enum StableJSON {
  /// An encoder that sorts keys and writes dates as `2026-11-29T18:19:32.123Z`.
  public static func encoder(pretty: Bool = false) -> JSONEncoder {
    let e = JSONEncoder()
    e.outputFormatting = pretty
      ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    e.dateEncodingStrategy = .custom { date, encoder in
      var c = encoder.singleValueContainer()
      try c.encode(ISO8601.string(from: date))
    }
    return e
  }

  /// A decoder for the dates ``encoder(pretty:)`` writes; also accepts ISO-8601 without
  /// fractional seconds, and with more than three fraction digits, kept to whole milliseconds
  /// (``ISO8601/millisecondDate(from:)``) as the store keeps every date: a record read from a
  /// file then equals the one stored from it.
  public static func decoder() -> JSONDecoder {
    let d = JSONDecoder()
    d.dateDecodingStrategy = .custom { decoder in
      let c = try decoder.singleValueContainer()
      let s = try c.decode(String.self)
      guard let date = ISO8601.millisecondDate(from: s) else {
        throw DecodingError.dataCorruptedError(
          in: c,
          debugDescription: "expected an ISO-8601 date such as 2026-11-29T18:19:32Z, got '\(s)'"
            + (ISO8601.calendarProblem(in: s).map { " (\($0))" } ?? ""))
      }
      return date
    }
    return d
  }

  /// Encodes `value` as a UTF-8 string with sorted keys.
  public static func string<T: Encodable>(_ value: T, pretty: Bool = false) throws -> String {
    String(decoding: try encoder(pretty: pretty).encode(value), as: UTF8.self)
  }
}

/// Locale-free ISO-8601 formatting in UTC.
public enum ISO8601 {
  /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC. Dates are rounded down to whole milliseconds; a date
  /// that is a whole millisecond (as ``date(from:)`` and ``Clock`` make them) is written as that
  /// millisecond, though `timeIntervalSince1970 * 1000` may fall a hair below it (review 20-a,
  /// #6: before 1970 about half of them were written a millisecond early).
  public static func string(from date: Date) -> String {
    let ms = milliseconds(of: date)
    let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
    let millis = ms - seconds * 1000
    let (y, mo, d, h, mi, s) = civil(fromUnixSeconds: seconds)
    guard (0...9999).contains(y) else {
      // A year outside four digits keeps `%04d`'s own form (`-001`, `10000`).
      return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", y, mo, d, h, mi, s, Int(millis))
    }
    // Written digit by digit: `String(format:)` cost about a fifth of writing an export's JSON.
    var bytes = [UInt8](repeating: 0, count: 24)
    func put(_ value: Int, _ width: Int, at offset: Int) {
      var v = value
      for i in stride(from: offset + width - 1, through: offset, by: -1) {
        bytes[i] = UInt8(48 + v % 10)
        v /= 10
      }
    }
    put(y, 4, at: 0)
    put(mo, 2, at: 5)
    put(d, 2, at: 8)
    put(h, 2, at: 11)
    put(mi, 2, at: 14)
    put(s, 2, at: 17)
    put(Int(millis), 3, at: 20)
    for (offset, separator) in Self.separators { bytes[offset] = separator }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whole milliseconds since 1970 in `date`, rounded down; a date made from a whole number of
  /// milliseconds (``date(fromMilliseconds:)``) gives that number back exactly, whichever way the
  /// floating-point product rounded.
  static func milliseconds(of date: Date) -> Int64 {
    let scaled = date.timeIntervalSince1970 * 1000
    guard scaled.isFinite, abs(scaled) < 9e18 else { return scaled < 0 ? Int64.min / 2 : Int64.max / 2 }
    let floor = Int64(scaled.rounded(.down))
    // The product of a whole millisecond can land just below it: then the next one up names
    // exactly this date.
    return date == self.date(fromMilliseconds: floor + 1) ? floor + 1 : floor
  }

  /// The date `milliseconds` after 1970-01-01T00:00:00Z, made the one way every whole
  /// millisecond is made, so that equal milliseconds give equal dates.
  static func date(fromMilliseconds milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }
  /// The separators of ``string(from:)``'s 24 bytes, by offset.
  private static let separators: [(Int, UInt8)] = [
    (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")),
    (16, UInt8(ascii: ":")), (19, UInt8(ascii: ".")), (23, UInt8(ascii: "Z")),
  ]

  /// Parses `yyyy-MM-ddTHH:mm:ss[.fraction](Z|±hh:mm)` and keeps whole milliseconds, rounded
  /// down as ``string(from:)`` writes them: the date the store keeps for `string`, so
  /// `2026-11-30T12:07:36.6000004Z` is the same date as `2026-11-30T12:07:36.600Z`.
  /// - Parameter string: an ISO-8601 date as ``date(from:)`` reads it.
  /// - Returns: the date, or nil for anything ``date(from:)`` does not read.
  public static func millisecondDate(from string: String) -> Date? {
    guard let date = date(from: string) else { return nil }
    // Three fraction digits or fewer already denote whole milliseconds; only a finer fraction
    // needs the round trip through the stored form (cheap enough, and rare).
    let u = string.utf8
    guard let dot = u.firstIndex(of: UInt8(ascii: ".")),
      u[u.index(after: dot)...].prefix(while: { $0 >= 48 && $0 <= 57 }).count > 3
    else { return date }
    return self.date(from: self.string(from: date))
  }

  /// Parses `yyyy-MM-ddTHH:mm:ss[.fraction](Z|±hh:mm)`; nil for anything else. Every fraction
  /// digit is kept; ``millisecondDate(from:)`` keeps what the store keeps.
  ///
  /// A day the month does not have (`2026-02-30`, `2026-02-29`, `2026-04-31`) and a leap second
  /// (`23:59:60`, which no `Date` can name) are refused, not moved to a later day (review 18-c,
  /// C5); ``calendarProblem(in:)`` says which part is wrong.
  public static func date(from string: String) -> Date? {
    let u = Array(string.utf8)
    func num(_ a: Int, _ n: Int) -> Int? {
      guard a + n <= u.count else { return nil }
      var v = 0
      for i in a..<(a + n) {
        let c = u[i]
        guard c >= 48, c <= 57 else { return nil }
        v = v * 10 + Int(c - 48)
      }
      return v
    }
    guard u.count >= 20, let y = num(0, 4), u[4] == 45, let mo = num(5, 2), u[7] == 45,
      let d = num(8, 2), u[10] == 84 || u[10] == 116, let h = num(11, 2), u[13] == 58,
      let mi = num(14, 2), u[16] == 58, let s = num(17, 2),
      (1...12).contains(mo), d >= 1, d <= daysInMonth(y, mo), h < 24, mi < 60, s < 60
    else { return nil }
    var i = 19
    // The first three fraction digits are whole milliseconds, counted as an integer: summed as
    // floating-point tenths, hundredths and thousandths they fell a hair short, and a date
    // before 1970 was then written a millisecond early (review 20-a, #6). Finer digits are a
    // fraction of a millisecond.
    var millis: Int64 = 0
    var subMillisecond = 0.0
    if i < u.count, u[i] == 46 {
      i += 1
      var digits = 0
      var scale = 0.1
      let start = i
      while i < u.count, u[i] >= 48, u[i] <= 57 {
        if digits < 3 {
          millis = millis * 10 + Int64(u[i] - 48)
        } else {
          subMillisecond += Double(u[i] - 48) * scale
          scale /= 10
        }
        digits += 1
        i += 1
      }
      if i == start { return nil }
      while digits < 3 {
        millis *= 10
        digits += 1
      }
    }
    var offset = 0
    guard i < u.count else { return nil }
    if u[i] == 90 || u[i] == 122 {
      i += 1
    } else if u[i] == 43 || u[i] == 45 {
      // RFC 3339 offsets run from -23:59 to +23:59 (review 28-b, 9: `-24:00` was read as a day).
      guard let oh = num(i + 1, 2), u.count > i + 3, u[i + 3] == 58, let om = num(i + 4, 2), oh < 24, om < 60
      else { return nil }
      offset = (oh * 3600 + om * 60) * (u[i] == 45 ? -1 : 1)
      i += 6
    } else {
      return nil
    }
    guard i == u.count else { return nil }
    let days = daysFromCivil(y, mo, d)
    let ms = Int64(days * 86_400 + h * 3600 + mi * 60 + s - offset) * 1000 + millis
    guard subMillisecond > 0 else { return date(fromMilliseconds: ms) }
    return Date(timeIntervalSince1970: (Double(ms) + subMillisecond) / 1000)
  }

  /// The number of days of month `month` (1…12) of year `year` in the proleptic Gregorian
  /// calendar: 28 or 29 for February (a leap year is divisible by 4, and by 400 if by 100).
  static func daysInMonth(_ year: Int, _ month: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Why `string`, shaped as a date ``date(from:)`` reads, names no moment: `2026-02 has 28
  /// days, so day 30 does not exist`, `second 60 (a leap second) is not accepted`, or `the offset
  /// -24:00 is out of range: offsets run from -23:59 to +23:59`; nil
  /// when the string is not shaped so, or names a moment.
  public static func calendarProblem(in string: String) -> String? {
    let u = Array(string.utf8)
    func num(_ a: Int, _ n: Int) -> Int? {
      guard a + n <= u.count else { return nil }
      var v = 0
      for i in a..<(a + n) {
        guard u[i] >= 48, u[i] <= 57 else { return nil }
        v = v * 10 + Int(u[i] - 48)
      }
      return v
    }
    guard u.count >= 19, let y = num(0, 4), let mo = num(5, 2), (1...12).contains(mo), let d = num(8, 2) else {
      return nil
    }
    let days = daysInMonth(y, mo)
    if d > days && d <= 31 {
      return String(format: "%04d-%02d has %d days, so day %d does not exist", y, mo, days, d)
    }
    if let s = num(17, 2), s == 60 { return "second 60 (a leap second) is not accepted" }
    // The offset after the time (and its fraction): RFC 3339's run to ±23:59.
    var i = 19
    if i < u.count, u[i] == 46 {
      i += 1
      while i < u.count, u[i] >= 48, u[i] <= 57 { i += 1 }
    }
    if i + 6 == u.count, u[i] == 43 || u[i] == 45, u[i + 3] == 58, let oh = num(i + 1, 2), let om = num(i + 4, 2),
      oh >= 24 || om >= 60
    {
      // Said of the part that is wrong (review 28-d, 9: `+05:60` was said to be outside ±23:59).
      let offset = String(decoding: u[i...], as: UTF8.self)
      return oh >= 24
        ? "the offset \(offset) is out of range: offsets run from -23:59 to +23:59"
        : "the offset \(offset) has minute \(om); minutes run from 00 to 59"
    }
    return nil
  }

  // Howard Hinnant's civil-date algorithms (public domain), proleptic Gregorian calendar.
  static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  static func civil(fromUnixSeconds t: Int64) -> (Int, Int, Int, Int, Int, Int) {
    var days = t / 86_400
    var rem = t % 86_400
    if rem < 0 {
      rem += 86_400
      days -= 1
    }
    let z = Int(days) + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp + (mp < 10 ? 3 : -9)
    let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
    return (y, m, d, Int(rem / 3600), Int(rem % 3600 / 60), Int(rem % 60))
  }
}
