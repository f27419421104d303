import Foundation

/// Why one legacy record was refused; becomes ``QuarantinedRecord/reason``.
struct LegacyRecordProblem: Error, Sendable, Equatable {
  var reason: String
}

/// Typed, checked access to the fields of one legacy record (a JSON object).
///
/// Every accessor throws a ``LegacyRecordProblem`` whose reason names the field, what was
/// found and what was expected. Optional fields that are missing or `null` read as nil so
/// the caller can apply the documented default.
struct LegacyRecord {
  private let fields: [String: LegacyJSONValue]

  /// Checks that `value` is an object whose names are unique and all in `allowedFields`.
  ///
  /// - Parameters:
  ///   - allowedFields: the record's fields in documentation order (used in messages).
  ///   - kind: the record type for messages, e.g. `v1 memory`.
  init(_ value: LegacyJSONValue, allowedFields: [String], kind: String)
    throws(LegacyRecordProblem)
  {
    guard case .object(let members) = value else {
      throw LegacyRecordProblem(reason: "expected a \(kind) object, found \(value.kindDescription)")
    }
    var fields: [String: LegacyJSONValue] = [:]
    for member in members {
      guard fields[member.name] == nil else {
        throw LegacyRecordProblem(reason: "field '\(member.name)' appears twice")
      }
      guard allowedFields.contains(member.name) else {
        throw LegacyRecordProblem(
          reason: "unknown field '\(member.name)'; a \(kind) record has only "
            + allowedFields.joined(separator: ", "))
      }
      fields[member.name] = member.value
    }
    self.fields = fields
  }

  /// The raw value of an optional field; nil when missing or `null`.
  func optionalValue(_ name: String) -> LegacyJSONValue? {
    guard let value = fields[name], value != .null else { return nil }
    return value
  }

  /// The raw value of a required field.
  func value(_ name: String, expected: String) throws(LegacyRecordProblem) -> LegacyJSONValue {
    switch fields[name] {
    case nil: throw LegacyRecordProblem(reason: "missing required field '\(name)'")
    case .null?:
      throw LegacyRecordProblem(
        reason: "field '\(name)' is null; it is required and must be \(expected)")
    case let value?: return value
    }
  }

  // MARK: Strings

  /// A required string; with `nonEmpty`, blank text is refused; with `limit`, more than
  /// `limit` characters is refused.
  func string(_ name: String, nonEmpty: Bool = false, limit: Int? = nil)
    throws(LegacyRecordProblem) -> String
  {
    try checked(name, try stringValue(name, try value(name, expected: "a string")), nonEmpty, limit)
  }

  /// An optional string; nil when missing or `null`.
  func optionalString(_ name: String, nonEmpty: Bool = false, limit: Int? = nil)
    throws(LegacyRecordProblem) -> String?
  {
    guard let raw = optionalValue(name) else { return nil }
    return try checked(name, try stringValue(name, raw), nonEmpty, limit)
  }

  private func stringValue(_ name: String, _ raw: LegacyJSONValue) throws(LegacyRecordProblem)
    -> String
  {
    guard case .string(let text) = raw else { throw mismatch(name, raw, expected: "a string") }
    return text
  }

  private func checked(_ name: String, _ text: String, _ nonEmpty: Bool, _ limit: Int?)
    throws(LegacyRecordProblem) -> String
  {
    do {
      // A NUL is refused as import and capture refuse it, not silently dropped.
      try Limits.refuseNUL("field '\(name)'", text)
      // Judged as it will be stored: text that is only controls and invisible characters
      // (an escape sequence, a bidi override) is blank once sanitized.
      if nonEmpty { try Limits.checkNotEmpty("field '\(name)'", Sanitizer.sanitize(text)) }
      if let limit { try Limits.check("field '\(name)'", text, limit: limit) }
    } catch {
      throw LegacyRecordProblem(reason: error.message)
    }
    return text
  }

  // MARK: Identifiers, dates, numbers, booleans

  /// A required UUID string (either letter case).
  func uuid(_ name: String) throws(LegacyRecordProblem) -> UUID {
    let raw = try value(name, expected: "a UUID string")
    guard case .string(let text) = raw else { throw mismatch(name, raw, expected: "a UUID string") }
    guard let id = UUID(uuidString: text) else {
      throw LegacyRecordProblem(
        reason: "field '\(name)' is not a UUID: \(raw.excerpt()); expected a form like "
          + "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
    }
    return id
  }

  /// A required ISO-8601 date string (`2025-03-14T09:12:44Z`, fractional seconds and
  /// `±hh:mm` offsets accepted).
  func date(_ name: String) throws(LegacyRecordProblem) -> Date {
    try dateValue(name, try value(name, expected: "an ISO-8601 date string"))
  }

  /// An optional ISO-8601 date string; nil when missing or `null`.
  func optionalDate(_ name: String) throws(LegacyRecordProblem) -> Date? {
    guard let raw = optionalValue(name) else { return nil }
    return try dateValue(name, raw)
  }

  private func dateValue(_ name: String, _ raw: LegacyJSONValue) throws(LegacyRecordProblem) -> Date
  {
    guard case .string(let text) = raw else {
      throw mismatch(name, raw, expected: "an ISO-8601 date string")
    }
    guard let date = ISO8601.date(from: text) else {
      throw LegacyRecordProblem(
        reason: "field '\(name)' is not an ISO-8601 date: \(raw.excerpt())"
          + (ISO8601.calendarProblem(in: text).map { " (\($0))" } ?? "") + "; expected a form like 2025-03-14T09:12:44Z")
    }
    return date
  }

  /// A required boolean.
  func bool(_ name: String) throws(LegacyRecordProblem) -> Bool {
    let raw = try value(name, expected: "true or false")
    guard case .bool(let flag) = raw else { throw mismatch(name, raw, expected: "true or false") }
    return flag
  }

  /// An optional boolean; nil when missing or `null`.
  func optionalBool(_ name: String) throws(LegacyRecordProblem) -> Bool? {
    guard let raw = optionalValue(name) else { return nil }
    guard case .bool(let flag) = raw else { throw mismatch(name, raw, expected: "true or false") }
    return flag
  }

  /// A required whole number (no fraction or exponent) of at least `minimum`.
  func integer(_ name: String, atLeast minimum: Int) throws(LegacyRecordProblem) -> Int {
    let expected = "a whole number of at least \(minimum)"
    let raw = try value(name, expected: expected)
    guard case .number(let text) = raw else { throw mismatch(name, raw, expected: expected) }
    guard let number = Int(text), number >= minimum else {
      throw LegacyRecordProblem(reason: "field '\(name)' is \(text); expected \(expected)")
    }
    return number
  }

  // MARK: Enumerations and containers

  /// A required string that must be one of `E`'s raw values.
  func choice<E: RawRepresentable & CaseIterable>(_ name: String, as _: E.Type)
    throws(LegacyRecordProblem) -> E where E.RawValue == String
  {
    try choiceValue(name, try value(name, expected: Self.oneOf(E.self)))
  }

  /// An optional string that must be one of `E`'s raw values; nil when missing or `null`.
  func optionalChoice<E: RawRepresentable & CaseIterable>(_ name: String, as _: E.Type)
    throws(LegacyRecordProblem) -> E? where E.RawValue == String
  {
    guard let raw = optionalValue(name) else { return nil }
    return try choiceValue(name, raw)
  }

  private func choiceValue<E: RawRepresentable & CaseIterable>(
    _ name: String, _ raw: LegacyJSONValue
  )
    throws(LegacyRecordProblem) -> E where E.RawValue == String
  {
    guard case .string(let text) = raw else {
      throw mismatch(name, raw, expected: Self.oneOf(E.self))
    }
    guard let value = E(rawValue: text) else {
      throw LegacyRecordProblem(
        reason: "field '\(name)' has unknown value \(raw.excerpt()); expected \(Self.oneOf(E.self))"
      )
    }
    return value
  }

  /// A required array (elements unchecked).
  func array(_ name: String) throws(LegacyRecordProblem) -> [LegacyJSONValue] {
    let raw = try value(name, expected: "an array")
    guard case .array(let elements) = raw else { throw mismatch(name, raw, expected: "an array") }
    return elements
  }

  /// An optional array of strings; nil when missing or `null`.
  func optionalStrings(_ name: String) throws(LegacyRecordProblem) -> [String]? {
    guard let raw = optionalValue(name) else { return nil }
    guard case .array(let elements) = raw else {
      throw mismatch(name, raw, expected: "an array of strings")
    }
    var strings: [String] = []
    for (i, element) in elements.enumerated() {
      guard case .string(let text) = element else {
        throw LegacyRecordProblem(
          reason: "field '\(name)[\(i)]' is \(element.kindDescription) (\(element.excerpt())); "
            + "expected a string")
      }
      strings.append(text)
    }
    return strings
  }

  /// A required JSON object, returned unchanged.
  func object(_ name: String) throws(LegacyRecordProblem) -> LegacyJSONValue {
    let raw = try value(name, expected: "an object")
    guard case .object = raw else { throw mismatch(name, raw, expected: "an object") }
    return raw
  }

  // MARK: Messages

  private func mismatch(_ name: String, _ raw: LegacyJSONValue, expected: String)
    -> LegacyRecordProblem
  {
    LegacyRecordProblem(
      reason: "field '\(name)' is \(raw.kindDescription) (\(raw.excerpt())); expected \(expected)")
  }

  private static func oneOf<E: RawRepresentable & CaseIterable>(_: E.Type) -> String
  where E.RawValue == String {
    "one of " + E.allCases.map(\.rawValue).joined(separator: ", ")
  }
}
