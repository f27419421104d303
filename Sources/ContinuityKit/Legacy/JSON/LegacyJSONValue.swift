/// A JSON value exactly as a legacy workspace file wrote it.
///
/// Unlike `JSONSerialization` output, numbers keep their source text (so `1.50` and
/// `12345678901234567890` survive verbatim) and objects keep every member in file order,
/// duplicate names included, so a quarantined record can be reproduced without loss.
enum LegacyJSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// The number's source text, already checked against the RFC 8259 number grammar.
  case number(String)
  case string(String)
  case array([LegacyJSONValue])
  /// Members in file order; names may repeat (the importer reports that).
  case object([LegacyJSONMember])
}

/// One `"name": value` pair of a JSON object.
struct LegacyJSONMember: Sendable, Equatable {
  var name: String
  var value: LegacyJSONValue
}

extension LegacyJSONValue {
  /// The kind of value with its article, for messages: `a string`, `an object`, `null`.
  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// Canonical JSON text: no insignificant whitespace, object members sorted by the UTF-8
  /// bytes of their names (stable, so repeated names keep their file order), numbers as
  /// written, strings escaped minimally (`"`, `\`, and control characters only).
  var canonicalText: String {
    var out = ""
    writeCanonical(to: &out)
    return out
  }

  /// ``canonicalText`` cut to at most `limit` characters with `…` appended, for messages.
  func excerpt(limit: Int = 60) -> String {
    let text = canonicalText
    return text.count <= limit ? text : String(text.prefix(limit)) + "…"
  }

  private func writeCanonical(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .number(let text): out += text
    case .string(let text): Self.writeString(text, to: &out)
    case .array(let elements):
      out += "["
      for (i, element) in elements.enumerated() {
        if i > 0 { out += "," }
        element.writeCanonical(to: &out)
      }
      out += "]"
    case .object(let members):
      // Swift's sort is not guaranteed stable: sort (name bytes, file position) pairs instead.
      let order = members.indices.sorted { a, b in
        let (x, y) = (members[a].name.utf8, members[b].name.utf8)
        if x.elementsEqual(y) { return a < b }
        return x.lexicographicallyPrecedes(y)
      }
      out += "{"
      for (n, i) in order.enumerated() {
        if n > 0 { out += "," }
        Self.writeString(members[i].name, to: &out)
        out += ":"
        members[i].value.writeCanonical(to: &out)
      }
      out += "}"
    }
  }

  private static func writeString(_ text: String, to out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16, uppercase: false)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
