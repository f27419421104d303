/// Renders values the way Python prints them, so `dolphin-bench` output can be compared with
/// the reference scripts' output by `diff`.
enum PythonText {
  /// `repr(list_of_str)`: `['a', 'b']`.
  ///
  /// Exact for ASCII; other scalars are written as they are (Python escapes the few it deems
  /// unprintable).
  static func list(_ strings: [String]) -> String {
    "[" + strings.map(repr).joined(separator: ", ") + "]"
  }

  /// `repr(str)`: single quotes unless the text has a `'` and no `"`.
  static func repr(_ string: String) -> String {
    let quote: Unicode.Scalar = string.contains("'") && !string.contains("\"") ? "\"" : "'"
    var out = String(quote)
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case quote: out += "\\" + String(quote)
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        out += "\\x" + hex(scalar.value, digits: 2)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out.unicodeScalars.append(quote)
    return out
  }

  /// `json.dumps(str)` with its default `ensure_ascii=True`.
  static func json(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case _ where scalar.value < 0x20:
        out += "\\u" + hex(scalar.value, digits: 4)
      case _ where scalar.value < 0x80:
        out.unicodeScalars.append(scalar)
      default:
        for unit in String(scalar).utf16 {
          out += "\\u" + hex(UInt32(unit), digits: 4)
        }
      }
    }
    return out + "\""
  }

  /// `json.dumps([str, …])`.
  static func json(_ strings: [String]) -> String {
    "[" + strings.map(json).joined(separator: ", ") + "]"
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
