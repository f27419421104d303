extension CredentialDetector {
  /// What is shown in place of text withheld because it looks like a credential:
  /// `[withheld: looks like a credential (KIND)]`, e.g. `[withheld: looks like a credential
  /// (GitHub token)]`. It names the kind, never the text.
  public static func withheldText(_ kind: CredentialKind) -> String {
    "[withheld: looks like a credential (\(kind.displayName))]"
  }

  /// `text` with each span that looks like a credential (a token, or an assignment's key and
  /// value) replaced by ``withheldText(_:)``; the rest as it is.
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  public static func withholding(in text: String) -> String {
    let spans = spans(in: text)
    guard !spans.isEmpty else { return text }
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var at = 0
    for span in spans {
      out += bytes[at..<span.bytes.lowerBound]
      out += Array(withheldText(span.kind).utf8)
      at = span.bytes.upperBound
    }
    out += bytes[at...]
    // A span starts on an ASCII byte and ends before one or at the end: no character is cut.
    return String(decoding: out, as: UTF8.self)
  }

  /// The texts of `text` that look like credentials (each finding's span), or `text` itself
  /// when it holds none as it reads (its finding was in its JSON escaping or beside its key).
  package static func secretParts(of text: String) -> [String] {
    let parts = spans(in: text).map { String(decoding: Array(text.utf8)[$0.bytes], as: UTF8.self) }
    return parts.isEmpty ? [text] : parts
  }

  /// What a JSON document withholds: the document with every string value and every member
  /// key that looks like a credential replaced by ``withheldText(_:)``, and the texts replaced,
  /// each with its finding, in document order.
  ///
  /// A text is read as its reader sees it, decoded — not as the escaped JSON text, where
  /// `PASSWORD="Tr0ub4dor&3"` reads `PASSWORD=\"Tr0ub4dor&3\"` and no value follows the `=`
  /// (review 24-a, 1) — and as it is written in JSON, escapes included. A string value is also
  /// read with the key it is the value of, as `"key": "value"` and as `key=value`, so that
  /// `{"password": "hunter2xyz99"}` withholds its value. A withheld key that another member
  /// already has once withheld is numbered (`… (GitHub token)] 2`), so no member is lost.
  /// - Parameter value: any JSON value.
  /// - Complexity: O(*n*) in the length of the document's text.
  public static func withholding(inJSON value: JSONValue) -> (
    value: JSONValue, withheld: [(text: String, finding: CredentialFinding)]
  ) {
    var withheld: [(text: String, finding: CredentialFinding)] = []
    func finding(_ text: String) -> CredentialFinding? {
      if let f = firstFinding(in: text) { return f }
      let written = JSONValue.string(text).jsonString()
      // Only text that JSON escapes reads otherwise written (`"` `\` controls).
      if written.utf8.count != text.utf8.count + 2, let f = firstFinding(in: written) { return f }
      // JSON text kept as a string (a receipt's arguments cut to a `prefix` by an earlier
      // version, review 24-b, 1): read with one level of escapes undone, as it was written.
      guard text.utf8.contains(UInt8(ascii: "\\")) else { return nil }
      let unescaped = unescapingJSONOnce(text)
      return unescaped == text ? nil : firstFinding(in: unescaped)
    }
    func memberFinding(_ key: String, _ text: String) -> CredentialFinding? {
      guard isCredentialKey(key) else { return nil }
      return firstFinding(in: JSONValue.object([key: .string(text)]).jsonString()) ?? firstFinding(in: "\(key)=\(text)")
    }
    // A value of any shape under a credential-named key: each string in it is read as that
    // key's value (`{"password": ["…"]}`, `{"password": {"v": "…"}}`, review 24-b, 2).
    func underKey(_ key: String, _ value: JSONValue) -> JSONValue {
      switch value {
      case .string(let text):
        guard let f = memberFinding(key, text) else { return value }
        withheld.append((text, f))
        return .string(withheldText(f.kind))
      case .array(let items):
        return .array(items.map { underKey(key, $0) })
      case .object(let members):
        var out = JSONObject()
        for (name, member) in members { out[name] = underKey(key, member) }
        return .object(out)
      default:
        return value
      }
    }
    func walk(_ value: JSONValue) -> JSONValue {
      switch value {
      case .string(let text):
        guard let f = finding(text) else { return value }
        withheld.append((text, f))
        return .string(withheldText(f.kind))
      case .array(let items):
        return .array(items.map(walk))
      case .object(let members):
        var out = JSONObject()
        for (key, member) in members {
          var shownKey = key
          if let f = finding(key) {
            withheld.append((key, f))
            shownKey = withheldText(f.kind)
            var n = 2
            while members.contains(shownKey) || out.contains(shownKey) {
              shownKey = withheldText(f.kind) + " \(n)"
              n += 1
            }
          }
          var shown = walk(member)
          if case .string(let text) = member, shown == member, let f = memberFinding(key, text) {
            withheld.append((text, f))
            shown = .string(withheldText(f.kind))
          } else if isCredentialKey(key) {
            switch member {
            case .array, .object: shown = underKey(key, shown)
            default: break
            }
          }
          out[shownKey] = shown
        }
        return .object(out)
      default:
        return value
      }
    }
    let shown = walk(value)
    return (shown, withheld)
  }

  /// `text` with one level of JSON string escapes undone (`\"` → `"`, `\\` → `\`, `\n` → a line
  /// break, `\u0041` → `A`); an escape cut short or unknown is kept as written. For JSON text
  /// stored inside a string, possibly cut (it need not parse).
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  package static func unescapingJSONOnce(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    let scalars = Array(text.unicodeScalars)
    var i = 0
    while i < scalars.count {
      let c = scalars[i]
      guard c == "\\", i + 1 < scalars.count else {
        out.append(c)
        i += 1
        continue
      }
      let next = scalars[i + 1]
      switch next {
      case "\"", "\\", "/": out.append(next)
      case "n": out.append("\n")
      case "t": out.append("\t")
      case "r": out.append("\r")
      case "b": out.append("\u{08}")
      case "f": out.append("\u{0C}")
      case "u":
        if i + 5 < scalars.count, let value = UInt32(String(String.UnicodeScalarView(scalars[(i + 2)...(i + 5)])), radix: 16),
          let scalar = Unicode.Scalar(value)
        {
          out.append(scalar)
          i += 6
          continue
        }
        out.append(c)
        i += 1
        continue
      default:
        out.append(c)
        i += 1
        continue
      }
      i += 2
    }
    return String(out)
  }

  /// The first finding in a JSON document read as ``withholding(inJSON:)`` reads it: its string
  /// values and keys decoded and as written, each value with its key.
  public static func firstFinding(inJSON value: JSONValue) -> CredentialFinding? {
    withholding(inJSON: value).withheld.first?.finding
  }

  /// The first finding in stored JSON text (a receipt's arguments, a digest's sections): in its
  /// values and keys as ``firstFinding(inJSON:)`` reads them, else in the text as it is; text
  /// that is not JSON is read as it is.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func firstFinding(inJSONText text: String) -> CredentialFinding? {
    let parser = JSONParser(options: .init(maximumDepth: 1_000, maximumBytes: .max))
    if let value = try? parser.parse(text), let f = firstFinding(inJSON: value) { return f }
    return firstFinding(in: text)
  }
}
