import Foundation

/// Messages for export documents that do not decode, in the terms of the file rather than of
/// Swift: the JSON path, the value given and what is allowed, e.g.
/// `workspace.knowledge[0].kind: 'bogus' is not one of decision, goal, …`.
///
/// Foundation's texts (`Cannot initialize KnowledgeKind from invalid String value bogus`,
/// `Attempted to decode UUID from invalid UUID string.`) name Swift types; they are read here
/// only to learn which type failed, and shown only when nothing better is known.
extension WorkspaceExport {
  /// The path of the value `error` is about, e.g. `workspace.tasks[2].status`.
  static func codingPath(_ error: DecodingError) -> String {
    var out = ""
    for key in codingKeys(error) {
      if let i = key.intValue {
        out += "[\(i)]"
      } else {
        out += (out.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return out
  }

  /// What is wrong with the value `error` is about, without a final period: `expected a
  /// string, got 5`, `'bogus' is not one of …`, `'xyz' is not a UUID …`, `missing required
  /// field`.
  /// - Parameter data: the document, to quote the value that was given.
  static func message(_ error: DecodingError, in data: Data) -> String {
    switch error {
    case .typeMismatch(let type, let c):
      let given = value(at: c.codingPath, in: data).map { ", got \(describe($0))" } ?? ""
      return "expected \(expectation(type))\(given)"
    case .valueNotFound(let type, _):
      return "expected \(expectation(type)), got null"
    case .keyNotFound:
      return "missing required field"
    case .dataCorrupted(let c):
      let given = value(at: c.codingPath, in: data)
      let text = c.debugDescription
      if let type = rejectedEnumerationType(text) {
        let shown = given.map(describe) ?? "the value"
        guard let allowed = choices[type] else { return "\(shown) is not an allowed value here" }
        return "\(shown) is not one of \(allowed.joined(separator: ", "))"
      }
      if text.contains("UUID"), case .string(let s)? = given, UUID(uuidString: s) == nil {
        return "\(describe(.string(s))) is not a UUID (expected e.g. 3F2504E0-4F89-11D3-9A0C-0305E82C3301)"
      }
      return sentence(underlyingMessage(c))
    @unknown default:
      return sentence("\(error)")
    }
  }

  /// `not valid JSON at line 3, column 7 (byte 41): …` for a document the JSON decoder refused,
  /// located by ``JSONParser``; Foundation's own text when that parser accepts it. A lone
  /// surrogate escape (`"\ud800"`), which Foundation refuses without saying where, is located
  /// and quoted: the parser is asked to refuse it too (``JSONParser/LoneSurrogatePolicy/reject``).
  static func invalidJSONMessage(_ data: Data, _ context: DecodingError.Context) -> String {
    let parser = JSONParser(
      options: .init(maximumDepth: 1_000, maximumBytes: data.count, loneSurrogates: .reject))
    do {
      _ = try parser.parse(data)
    } catch {
      return "not valid JSON at \(location(of: error, in: data)): \(error.explanation(in: data))"
    }
    return "not valid JSON (\(sentence(underlyingMessage(context))))"
  }

  /// `not valid JSON at line 3, column 15 (byte 60): \ud800 is a UTF-16 surrogate escape without
  /// its partner; …` for a document holding a `\uD800`–`\uDFFF` escape that is not half of a
  /// pair, which no Unicode text can hold. Foundation's decoder refuses such a document too, but
  /// says only "The given data was not valid JSON"; `dolphin mcp` refuses such a message the
  /// same way. Only a document holding `\ud`/`\uD` is parsed for it.
  /// - Returns: the refusal, or nil when the document holds no lone surrogate escape.
  static func loneSurrogateRefusal(in data: Data) -> String? {
    let mayHoldOne = data.withUnsafeBytes { buffer -> Bool in
      guard buffer.count >= 4 else { return false }
      for i in 0..<(buffer.count - 3)
      where buffer[i] == UInt8(ascii: "\\") && buffer[i + 1] == UInt8(ascii: "u")
        && (buffer[i + 2] | 0x20) == UInt8(ascii: "d")
      {
        return true
      }
      return false
    }
    guard mayHoldOne else { return nil }
    let parser = JSONParser(
      options: .init(maximumDepth: 1_000, maximumBytes: data.count, loneSurrogates: .reject))
    do {
      _ = try parser.parse(data)
    } catch {
      guard case .loneSurrogate = error.reason else { return nil }
      return "not valid JSON at \(location(of: error, in: data)): \(error.explanation(in: data))"
    }
    return nil
  }

  /// `line L, column C (byte B)` of a parse error, lines and columns counted from 1.
  static func location(of error: JSONParseError, in data: Data) -> String {
    let prefix = data.prefix(error.byteOffset)
    let line = prefix.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    let column = error.byteOffset - (prefix.lastIndex(of: 0x0A).map { $0 - data.startIndex + 1 } ?? 0) + 1
    return "line \(line), column \(column) (byte \(error.byteOffset))"
  }

  /// The refusal of a document holding an object with the same key twice, as
  /// ``strictRefusal(in:)`` words it, or nil when it has none (or is not JSON): what a refused
  /// header says first, since the header decoder took one of the two values (review 28-b, 8).
  static func duplicateKeyRefusal(in data: Data) -> String? {
    do {
      _ = try JSONParser(options: .init(maximumDepth: 1_000, maximumBytes: data.count)).parse(data)
      return nil
    } catch {
      guard case .duplicateKey = error.reason else { return nil }
      return "not acceptable JSON at \(location(of: error, in: data)): \(error.explanation)"
    }
  }

  /// What the strict parser (``JSONParser``) refuses in a document Foundation's decoder took,
  /// read in one parse:
  /// - an object holding the same key twice (`not acceptable JSON at line 3, column 5 (byte
  ///   40): the key "title" appears twice in one object; keep one`). Foundation silently keeps
  ///   one of the two values, so an edited or hand-made file could import something other than
  ///   what its reader sees;
  /// - the first string of the header (`generator`, say) holding a NUL (U+0000), worded by
  ///   ``Limits/refuseNUL(_:_:)`` with its JSON path (`generator contains a NUL character …`).
  ///   A NUL in a record (under `workspace` or `quarantine`) is not refused here: an import
  ///   refuses it only on a record it writes (``WorkspaceExport/refusedTextFields``), so that a
  ///   workspace holding one that another program wrote imports its own export back.
  ///
  /// - Returns: the refusal, or nil when the document has neither.
  static func strictRefusal(in data: Data) -> String? {
    let root: JSONValue
    do {
      root = try JSONParser(options: .init(maximumDepth: 1_000, maximumBytes: data.count)).parse(data)
    } catch {
      guard case .duplicateKey = error.reason else { return nil }
      return "not acceptable JSON at \(location(of: error, in: data)): \(error.explanation)"
    }
    // JSON writes a NUL only as the escape `\u0000`: a document without it needs no walk.
    guard data.range(of: Data("\\u0000".utf8)) != nil else { return nil }
    func find(_ value: JSONValue, _ path: String) -> String? {
      switch value {
      case .string(let text):
        do { try Limits.refuseNUL(path, text) } catch { return error.message }
        return nil
      case .array(let items):
        for (i, item) in items.enumerated() {
          if let found = find(item, "\(path)[\(i)]") { return found }
        }
        return nil
      case .object(let members):
        // The records are checked record by record, where the import knows which it writes.
        for key in members.keys where !(path.isEmpty && (key == "workspace" || key == "quarantine")) {
          if let member = members[key], let found = find(member, path.isEmpty ? key : "\(path).\(key)") { return found }
        }
        return nil
      default:
        return nil
      }
    }
    return find(root, "")
  }

  /// The number that does not fit its field (`1.5`, `1e400` or `99999999999999999999` where a
  /// whole number is expected), which Foundation's `JSONDecoder` reports only as "The given data
  /// was not valid JSON", without a coding path.
  ///
  /// Every number in an export is an integer, so each number `Int` cannot hold is a candidate;
  /// a candidate is confirmed by decoding again with it replaced by a string, which the decoder
  /// then reports as a type mismatch at its path. Only the first 100 candidates are tried.
  /// - Returns: the path and the message (`expected a whole number, got 1e400`), or nil when no
  ///   number is to blame.
  static func numberMismatch<T: Decodable>(
    _ type: T.Type, in data: Data, decoder: JSONDecoder
  ) -> (path: String, message: String)? {
    guard let root = try? JSONParser(options: .init(maximumDepth: 1_000, maximumBytes: data.count)).parse(data)
    else { return nil }
    var candidates: [([AnyCodingKey], JSONNumber)] = []
    func collect(_ value: JSONValue, _ path: [AnyCodingKey]) {
      guard candidates.count < 100 else { return }
      switch value {
      case .number(let n) where n.int == nil: candidates.append((path, n))
      case .array(let items):
        for (i, item) in items.enumerated() { collect(item, path + [AnyCodingKey(intValue: i)]) }
      case .object(let members):
        for key in members.keys { collect(members[key] ?? .null, path + [AnyCodingKey(stringValue: key)]) }
      default: break
      }
    }
    collect(root, [])
    for (path, number) in candidates {
      let probe = replacing(root, at: path[...], with: .string("?"))
      do {
        _ = try decoder.decode(T.self, from: Data(probe.serialized()))
      } catch DecodingError.typeMismatch(_, let c) where samePath(c.codingPath, path) {
        // Not `Int`'s range: the field's own bounds (a revision's 1…1000000) are narrower and
        // are named by the record validation once the number fits.
        let error = DecodingError.typeMismatch(Int.self, c)
        // A whole number too large is out of range, not of the wrong kind (review 20-a, #12).
        let literal = number.literal
        let whole = literal.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || $0 == 45 }
        if whole, path.last?.stringValue == "revision" {
          return (codingPath(error), "\(literal) is out of range; a revision is between 1 and \(Limits.revision)")
        }
        if whole {
          return (codingPath(error), "\(literal) is out of range: no field of an export holds a number that large")
        }
        return (codingPath(error), "expected a whole number, got \(literal)")
      } catch {
        continue
      }
    }
    return nil
  }

  /// Whether two coding paths name the same value (an index by its number: Foundation names
  /// index 0 `Index 0`).
  private static func samePath(_ a: [any CodingKey], _ b: [AnyCodingKey]) -> Bool {
    a.count == b.count
      && zip(a, b).allSatisfy { x, y in
        x.intValue != nil || y.intValue != nil ? x.intValue == y.intValue : x.stringValue == y.stringValue
      }
  }

  private static func replacing(_ value: JSONValue, at path: ArraySlice<AnyCodingKey>, with new: JSONValue) -> JSONValue {
    guard let key = path.first else { return new }
    switch value {
    case .array(var items):
      guard let i = key.intValue, items.indices.contains(i) else { return value }
      items[i] = replacing(items[i], at: path.dropFirst(), with: new)
      return .array(items)
    case .object(var members):
      guard let member = members[key.stringValue] else { return value }
      members[key.stringValue] = replacing(member, at: path.dropFirst(), with: new)
      return .object(members)
    default:
      return value
    }
  }

  /// The allowed values of each closed set of strings an export holds, by Swift type name (as
  /// the standard library's `RawRepresentable` decoding names it).
  static let choices: [String: [String]] = Dictionary(
    uniqueKeysWithValues: [
      allowedValues(KnowledgeKind.self), allowedValues(KnowledgeSource.self), allowedValues(Priority.self),
      allowedValues(RelationshipKind.self), allowedValues(TaskStatus.self), allowedValues(ChatRole.self),
      allowedValues(ReceiptOutcome.self), allowedValues(ResponseStyle.self),
    ])

  private static func allowedValues<T: CaseIterable & RawRepresentable>(_ type: T.Type) -> (String, [String])
  where T.RawValue == String {
    (String(describing: type), type.allCases.map(\.rawValue))
  }

  /// `KnowledgeKind` from the standard library's `Cannot initialize KnowledgeKind from invalid
  /// String value bogus`; nil for any other text.
  static func rejectedEnumerationType(_ text: String) -> String? {
    let head = "Cannot initialize "
    guard text.hasPrefix(head), let from = text.range(of: " from invalid ") else { return nil }
    return String(text[text.index(text.startIndex, offsetBy: head.count)..<from.lowerBound])
  }

  /// The value at `path` in `data`, or nil when the document cannot be read that far (the
  /// decoder and ``JSONParser`` disagree, or the path leaves the document).
  static func value(at path: [any CodingKey], in data: Data) -> JSONValue? {
    guard var current = try? JSONParser(options: .init(maximumDepth: 1_000, maximumBytes: data.count)).parse(data)
    else { return nil }
    for key in path {
      switch current {
      case .array(let items):
        guard let i = key.intValue, items.indices.contains(i) else { return nil }
        current = items[i]
      case .object(let members):
        guard let member = members[key.stringValue] else { return nil }
        current = member
      default:
        return nil
      }
    }
    return current
  }

  /// A value as a message quotes it: `'bogus'` (at most 60 characters, else cut as
  /// ``Limits/quoted(_:cutAt:escaping:)`` cuts: `'first 60…' (N characters)`), `5`, `true`,
  /// `null`, `an array`, `an object`.
  static func describe(_ value: JSONValue) -> String {
    switch value {
    case .string(let s): return Limits.quoted(s, cutAt: 60)
    case .array, .object: return value.kindWithArticle
    case .null, .bool, .number: return value.jsonString(sortedKeys: true)
    }
  }

  /// What a JSON value of `type` looks like, for messages: `an array`, `a string`, ….
  static func expectation(_ type: Any.Type) -> String {
    let name = String(describing: type)
    if name.hasPrefix("Array") { return "an array" }
    if name.hasPrefix("Dictionary") { return "an object" }
    switch name {
    case "String": return "a string"
    case "Int", "Int64", "Int32", "UInt", "UInt64", "Double", "Float": return "a number"
    case "Bool": return "true or false"
    case "UUID": return "a UUID string"
    case "Date": return "a date string"
    default: return choices[name] != nil ? "a string" : "a \(name) value"
    }
  }

  private static func codingKeys(_ error: DecodingError) -> [any CodingKey] {
    switch error {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): c.codingPath
    case .keyNotFound(let key, let c): c.codingPath + [key]
    @unknown default: []
    }
  }

  private static func underlyingMessage(_ c: DecodingError.Context) -> String {
    if let underlying = c.underlyingError as NSError? {
      return underlying.userInfo[NSDebugDescriptionErrorKey] as? String ?? underlying.localizedDescription
    }
    return c.debugDescription
  }

  /// `text` without its final periods: the message is followed by `. Nothing was imported`.
  private static func sentence(_ text: String) -> String {
    var out = Substring(text)
    while out.last == "." { out = out.dropLast() }
    return String(out)
  }
}
