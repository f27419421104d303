import ContinuityKit
import Foundation

/// A strict JSON Schema for tool arguments: the single source of truth for the schema a client
/// sees (``jsonSchema``) and for validation and normalization (``validate(_:path:)``).
///
/// Supported (a subset of JSON Schema draft 2020-12): objects with named properties,
/// `required`, `additionalProperties: false`; strings with `minLength`/`maxLength`, `enum`,
/// `format: uuid`, `pattern` (published, not matched here: see ``StringRules/pattern``); integers with `minimum`/`maximum`; booleans; arrays with `items`,
/// `minItems`/`maxItems` (a folded list, whose repeats are kept once, states its bound on distinct
/// values in its description instead: ``boundDescription``).
///
/// Text is bounded in `Character`s (grapheme clusters, as displayed) and, as everywhere
/// (``Limits/check(_:_:limit:)``), in Unicode scalars: at most
/// ``Limits/unicodeScalarLimit(forCharacters:)`` of the character bound. JSON Schema counts
/// `maxLength` in code points, so the published schema gives the scalar bound as `maxLength` (a
/// validator then enforces it exactly, an outer bound that every text the server accepts meets)
/// and states the character bound in the property's `description` (``StringRules/advertisedMaxLength``,
/// ``boundDescription``): a client validating 300 emoji with skin tones (600 code points) against
/// `maxLength: 300` would refuse a title the server accepts.
public indirect enum ToolSchema: Sendable {
  case object([ToolProperty])
  case string(StringRules)
  case integer(minimum: Int, maximum: Int)
  case boolean
  case array(items: ToolSchema, minItems: Int, maxItems: Int, unique: Bool)

  /// Rules and normalization for a string value.
  public struct StringRules: Sendable {
    public var minLength: Int
    public var maxLength: Int
    /// Allowed values (matched case-insensitively, returned in canonical spelling).
    public var allowed: [String]?
    /// Must parse as a UUID; normalized to upper case.
    public var isUUID: Bool
    /// Normalization applied before the length check.
    public var normalization: Normalization
    /// A bound in UTF-8 bytes besides `maxLength` (code to analyze is bounded in bytes), checked
    /// first; the schema a client sees gives it as `maxLength` (``advertisedMaxLength``).
    public var maxUTF8Bytes: Int?
    /// A bound in Unicode code points that replaces the character bound (a query, which is
    /// searched by its first ``Limits/query`` characters and refused only over
    /// ``Limits/queryInput`` code points): checked on the text as given, and published as
    /// `maxLength` unchanged, so a client validating against the schema and the server accept
    /// exactly the same texts.
    public var maxCodePoints: Int?
    /// A regular expression (ECMA-262, as JSON Schema reads `pattern`) published for a client
    /// that validates, describing the values the tool accepts. The server does not match it:
    /// the library checks such a value where it is used and names the argument, what was given
    /// and what is accepted (``ToolDefinition/argumentError(from:)``).
    public var pattern: String?

    /// The `maxLength` the published schema gives, in Unicode code points as JSON Schema counts
    /// them: an outer bound that every value the server accepts meets. For text, the Unicode
    /// scalar bound of ``maxLength`` (``Limits/unicodeScalarLimit(forCharacters:)``: 3,000 for a
    /// 300-character title); for a text bounded in UTF-8 bytes, that byte bound (no text holds
    /// more code points than bytes); for an enum or a UUID, whose values are ASCII, ``maxLength``.
    public var advertisedMaxLength: Int {
      if let maxCodePoints { return maxCodePoints }
      if let maxUTF8Bytes { return maxUTF8Bytes }
      if allowed != nil || isUUID || pattern != nil { return maxLength }
      return Limits.unicodeScalarLimit(forCharacters: maxLength)
    }

    /// The bound in words, for the description of the property that holds such a string: `at
    /// most 300 characters (grapheme clusters, as displayed); maxLength, 3000, bounds its
    /// Unicode code points (10 per character)`. Nil for an enum or a UUID, which the schema says
    /// whole, and for text bounded in UTF-8 bytes, whose property says so itself (`maxLength`
    /// is then the byte bound, which no text within it exceeds in code points).
    public var boundDescription: String? {
      if let maxCodePoints {
        return "at most \(maxCodePoints) Unicode code points (maxLength, as JSON Schema counts them); the first "
          + "\(Limits.query) characters are searched, cut between words, and a response that searched less than the "
          + "whole query says so (queryCutAt)"
      }
      if maxUTF8Bytes != nil || allowed != nil || isUUID || pattern != nil { return nil }
      return "at most \(maxLength) characters (grapheme clusters, as displayed); maxLength, \(advertisedMaxLength), "
        + "bounds its Unicode code points (\(Limits.unicodeScalarsPerCharacter) per character)"
    }

    public init(
      minLength: Int = 0, maxLength: Int, allowed: [String]? = nil, isUUID: Bool = false,
      normalization: Normalization = .sanitize, maxUTF8Bytes: Int? = nil, maxCodePoints: Int? = nil,
      pattern: String? = nil
    ) {
      self.pattern = pattern
      self.maxCodePoints = maxCodePoints
      self.minLength = minLength
      self.maxLength = maxLength
      self.allowed = allowed
      self.isUUID = isUUID
      self.normalization = normalization
      self.maxUTF8Bytes = maxUTF8Bytes
    }
  }

  /// How a string argument is normalized.
  public enum Normalization: Sendable {
    /// ``Sanitizer/sanitize(_:)`` then trim surrounding whitespace.
    case sanitize
    /// ``Sanitizer/sanitize(_:)`` only: white space around the text is kept, as the CLI keeps
    /// it in content and notes (``Limits/sanitizedInput(_:_:limit:trimming:)`` without trimming).
    case sanitizeKeepingWhiteSpace
    /// Sanitize, trim and lowercase (tags).
    case tag
    /// Keep the text exactly (code to analyze: sanitizing would change what is analyzed).
    case verbatim
  }

  /// A UUID string.
  public static let uuid = ToolSchema.string(StringRules(minLength: 1, maxLength: 64, isUUID: true, normalization: .verbatim))

  /// How a handoff is named (``KnowledgeEngine/resolveHandoffReference(_:field:hints:)``): its
  /// UUID, `latest` (any case), or the start of its id, at least
  /// ``KnowledgeEngine/handoffIDPrefixMinimum`` hexadecimal digits with hyphens where the UUID
  /// has them or with none; white space around it is ignored. Published with ``handoffReferencePattern``
  /// instead of `format: uuid`; the engine resolves it, refusing a malformed value or a prefix
  /// that more than one handoff has, naming the argument.
  public static let handoffReference = ToolSchema.string(
    StringRules(minLength: 1, maxLength: 64, normalization: .sanitize, pattern: handoffReferencePattern))

  /// ``handoffReference``'s `pattern`: `latest`, or a prefix of a UUID's text of at least 8
  /// hexadecimal digits (`3F2504E0`, `3f2504e0-4f89`, a whole UUID), or of its 32 digits without
  /// hyphens (`3f2504e04f89`), white space around it allowed.
  public static let handoffReferencePattern: String = {
    let h = "[0-9A-Fa-f]"
    // Each group of the UUID (8-4-4-4-12): whole and followed by the next group's start, or begun.
    let last = "-\(h){0,12}"
    let fourth = "-(?:\(h){4}(?:\(last))?|\(h){0,3})"
    let third = "-(?:\(h){4}(?:\(fourth))?|\(h){0,3})"
    let second = "-(?:\(h){4}(?:\(third))?|\(h){0,3})"
    return "^\\s*(?:[Ll][Aa][Tt][Ee][Ss][Tt]|\(h){8}(?:\(second))?|\(h){9,32})\\s*$"
  }()

  /// A string enum.
  public static func oneOf(_ values: [String]) -> ToolSchema {
    .string(StringRules(minLength: 1, maxLength: 64, allowed: values, normalization: .sanitize))
  }

  /// Text of at most `maxLength` characters (sanitized, trimmed).
  public static func text(min: Int = 0, max: Int) -> ToolSchema {
    .string(StringRules(minLength: min, maxLength: max))
  }

  /// A search query: at most ``Limits/queryInput`` Unicode code points as given (sanitized,
  /// trimmed), of which the search reads the first ``Limits/query`` characters
  /// (``StringRules/maxCodePoints``).
  public static let query = ToolSchema.string(
    StringRules(minLength: 1, maxLength: Limits.queryInput, maxCodePoints: Limits.queryInput))

  /// Body text of at most `max` characters, optional: sanitized, with its surrounding white
  /// space kept (content, notes).
  public static func body(max: Int) -> ToolSchema {
    .string(StringRules(minLength: 0, maxLength: max, normalization: .sanitizeKeepingWhiteSpace))
  }

  /// Tags: lowercased, deduplicated, bounded by ``Limits``.
  public static let tags = ToolSchema.array(
    items: .string(StringRules(minLength: 1, maxLength: Limits.tagLength, normalization: .tag)),
    minItems: 0, maxItems: Limits.tagsPerItem, unique: true)

  /// A list of UUIDs, deduplicated.
  public static func uuids(max: Int = Limits.idsPerList) -> ToolSchema {
    .array(items: .uuid, minItems: 0, maxItems: max, unique: true)
  }

  /// The schema as a JSON Schema document.
  public var jsonSchema: JSONValue {
    switch self {
    case .object(let props):
      var properties = JSONObject()
      for p in props {
        var s = p.schema.jsonSchema.object ?? JSONObject()
        s["description"] = .string(p.schema.boundDescription.map { p.description + " " + $0 } ?? p.description)
        if let d = p.defaultValue { s["default"] = d }
        properties[p.name] = .object(s)
      }
      return .object([
        "type": "object",
        "properties": .object(properties),
        "required": .array(props.filter(\.isRequired).map { .string($0.name) }),
        "additionalProperties": false,
      ])
    case .string(let r):
      var o: JSONObject = ["type": "string"]
      if r.minLength > 0 { o["minLength"] = .integer(r.minLength) }
      o["maxLength"] = .integer(r.advertisedMaxLength)
      if let allowed = r.allowed { o["enum"] = .array(allowed.map { .string($0) }) }
      if r.isUUID { o["format"] = "uuid" }
      if let pattern = r.pattern { o["pattern"] = .string(pattern) }
      return .object(o)
    case .integer(let lo, let hi):
      return .object(["type": "integer", "minimum": .integer(lo), "maximum": .integer(hi)])
    case .boolean:
      return .object(["type": "boolean"])
    case .array(let items, let lo, let hi, let unique):
      // A folded list (`unique`) takes repeats and counts its distinct values once normalized
      // (review 25-a, #4), so neither `uniqueItems` nor a `maxItems` on the raw array is what the
      // server enforces: its bound is stated in the description instead (``boundDescription``;
      // review 26-a, #5: a client trusting the schema was told such calls were invalid).
      var o: JSONObject = ["type": "array", "items": items.jsonSchema]
      if !unique { o["maxItems"] = .integer(hi) }
      if lo > 0 { o["minItems"] = .integer(lo) }
      return .object(o)
    }
  }

  /// The bound of a text property (or of each text of a list) as a sentence for its published
  /// `description`, since JSON Schema has no word for a length in characters:
  /// `At most 300 characters (grapheme clusters, as displayed); maxLength, 3000, bounds its
  /// Unicode code points (10 per character).`, `Each at most 48 characters …`; nil for other
  /// schemas (numbers, enums, UUIDs, objects), whose bounds the schema states itself.
  ///
  /// For a folded list (`unique`), which publishes no `maxItems`, the bound on its distinct
  /// values comes first: `At most 64 distinct ids; a value given more than once (compared as
  /// normalized) is accepted and kept once.`
  public var boundDescription: String? {
    switch self {
    case .string(let r): return r.boundDescription.map { "At most " + $0.dropFirst("at most ".count) + "." }
    case .array(let items, _, let hi, let unique):
      var parts: [String] = []
      if unique {
        parts.append(
          "At most \(hi) distinct \(items.pluralNoun); a value given more than once (compared as normalized) is "
            + "accepted and kept once.")
      }
      if case .string(let r) = items, let each = r.boundDescription {
        parts.append("Each at most " + each.dropFirst("at most ".count) + ".")
      }
      return parts.isEmpty ? nil : parts.joined(separator: " ")
    default: return nil
    }
  }

  /// What a list of this schema's values holds, for ``boundDescription``: `ids`, `tags`
  /// (trimmed and lowercased), `values` (an enum), `entries` (objects), else `items`.
  private var pluralNoun: String {
    switch self {
    case .string(let r) where r.isUUID: "ids"
    case .string(let r) where r.normalization == .tag: "tags (trimmed and lowercased)"
    case .string(let r) where r.allowed != nil: "values"
    case .object: "entries"
    default: "items"
    }
  }

  /// Validates `value` and returns it normalized (strings sanitized/trimmed, enums in canonical
  /// spelling, UUIDs upper-cased, unique arrays deduplicated, defaults filled in).
  /// - Parameter path: the field path for messages, e.g. `arguments.tags[2]`.
  /// - Throws: ``ToolArgumentError`` naming the field, what was expected and what was given,
  ///   with the nearest valid name for unknown fields and enum values. A string holding a NUL
  ///   (U+0000) is refused whatever its normalization; other control characters are dropped
  ///   by the sanitizer.
  public func validate(_ value: JSONValue, path: String) throws(ToolArgumentError) -> JSONValue {
    switch self {
    case .object(let props):
      guard case .object(let given) = value else {
        throw ToolArgumentError(field: path, message: "\(path) must be an object, got \(value.kindWithArticle)")
      }
      let names = props.map(\.name)
      for key in given.keys where !names.contains(key) {
        let hint = NearestName.suggest(key, in: names).map { "; did you mean '\($0)'?" } ?? ""
        let shown = Self.quotable(key, limit: 40)
        let allowed =
          !names.isEmpty ? "allowed: \(names.joined(separator: ", "))"
          : path == "arguments" ? "this tool takes no arguments" : "\(path) has no fields"
        throw ToolArgumentError(field: "\(path).\(shown)", message: "unknown field '\(shown)' in \(path)\(hint) (\(allowed))")
      }
      var out = JSONObject()
      for p in props {
        let field = "\(path).\(p.name)"
        if let v = given[p.name], !v.isNull {
          out[p.name] = try p.schema.validate(v, path: field)
        } else if let d = p.defaultValue {
          out[p.name] = d
        } else if p.isRequired {
          // Null is no value: said as given (review 31-a, 10: `{"id": null}` read as omitted).
          let given = given[p.name] == nil ? "" : "; null was given"
          throw ToolArgumentError(field: field, message: "\(field) is required\(given)")
        }
      }
      return .object(out)
    case .string(let r):
      guard case .string(let raw) = value else {
        throw ToolArgumentError(field: path, message: "\(path) must be a string, got \(value.kindWithArticle)")
      }
      // A NUL is refused, not dropped with the other controls (as in imports and CLI input).
      do { try Limits.refuseNUL(path, raw) } catch { throw ToolArgumentError(field: path, message: error.message) }
      if r.normalization == .tag {
        do { try Limits.checkNewTag(path, raw) } catch {
          throw ToolArgumentError(field: path, message: error.message)
        }
      }
      // The bounds hold for the text as given, as the CLI and the library check them: sanitizing
      // first composes (NFC) a letter with a run of combining marks, which let 3,001 scalars
      // pass a bound of 3,000 here while `dolphin capture` refused them.
      if let maxCodePoints = r.maxCodePoints {
        do { try Limits.checkCodePoints(path, raw, limit: maxCodePoints) } catch {
          throw ToolArgumentError(field: path, message: error.message, limit: error.limit, actual: error.actual)
        }
      }
      // A text bounded in UTF-8 bytes is measured in bytes first, so that its message names the
      // bound that holds (review 23-a: 200,001 ASCII bytes were "200001 characters").
      if let maxBytes = r.maxUTF8Bytes, raw.utf8.count > maxBytes {
        let bytes = raw.utf8.count
        throw ToolArgumentError(
          field: path, message: "\(path) is \(bytes) UTF-8 bytes; the limit is \(maxBytes) UTF-8 bytes", limit: maxBytes, actual: bytes)
      }
      do { try Limits.check(path, raw, limit: r.maxLength) } catch {
        throw ToolArgumentError(field: path, message: error.message, limit: error.limit, actual: error.actual)
      }
      var s: String
      switch r.normalization {
      case .sanitize: s = Sanitizer.sanitize(raw).trimmingCharacters(in: .whitespacesAndNewlines)
      case .sanitizeKeepingWhiteSpace: s = Sanitizer.sanitize(raw)
      case .tag: s = Sanitizer.sanitize(raw).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
      case .verbatim: s = raw
      }
      // Text given that shows nothing is refused as the CLI refuses it, also where the argument
      // may be empty (review, s16: `content: "   "` or `"\u{200B}"` was stored as no content,
      // and a blank summary read as none, where `dolphin capture` and `handoff create` refuse).
      // Tags are not: one that shows nothing is dropped by the engine, as `--tags` drops it.
      if r.normalization == .sanitize || r.normalization == .sanitizeKeepingWhiteSpace, !raw.isEmpty,
        Sanitizer.showsNothing(s)
      {
        if Limits.lostToSanitizer(raw, sanitized: s) {
          throw ToolArgumentError(field: path, message: Limits.nothingPrintable(path, raw, consequence: "the call was not run").message)
        }
        if r.minLength >= 1 {
          throw ToolArgumentError(field: path, message: Limits.requiredButBlank(path, raw, consequence: "the call was not run").message)
        }
        throw ToolArgumentError(field: path, message: Limits.onlyWhitespace(path, raw, consequence: "the call was not run").message)
      }
      if r.isUUID {
        // White space around an id is no part of it, a line break included (review 19-a: a
        // pasted id ending in a line break was refused, and the message showed the break as a
        // space, which is accepted); inside one, every control shows as its escape (`\n`).
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let id = UUID(uuidString: t) else {
          throw ToolArgumentError(
            field: path,
            message: "\(path) '\(Self.quotable(Limits.escaped(t), limit: 60))' is not a UUID (expected e.g. 3F2504E0-4F89-11D3-9A0C-0305E82C3301)")
        }
        return .string(id.uuidString)
      }
      if let allowed = r.allowed {
        if let match = allowed.first(where: { $0 == s }) ?? allowed.first(where: { $0.lowercased() == s.lowercased() }) {
          return .string(match)
        }
        let hint = NearestName.suggest(s, in: allowed).map { "; did you mean '\($0)'?" } ?? ""
        throw ToolArgumentError(field: path, message: "\(path) '\(Self.quotable(s, limit: 40))' is not one of: \(allowed.joined(separator: ", "))\(hint)")
      }
      // Refused as an argument, naming it (review, s17: code over its byte bound failed inside
      // the tool as `kind: failed` without a field).
      if let maxBytes = r.maxUTF8Bytes, s.utf8.count > maxBytes {
        let bytes = s.utf8.count
        throw ToolArgumentError(
          field: path, message: "\(path) is \(bytes) UTF-8 bytes; the limit is \(maxBytes) UTF-8 bytes", limit: maxBytes, actual: bytes)
      }
      let n = s.count
      if n > r.maxLength {
        throw ToolArgumentError(field: path, message: "\(path) is \(n) characters; the limit is \(r.maxLength) characters", limit: r.maxLength, actual: n)
      }
      // A character has no size of its own (one `e` may carry 60,000 combining marks).
      do { try Limits.checkUnicodeScalars(path, s, characters: n, limit: r.maxLength) } catch {
        throw ToolArgumentError(field: path, message: error.message, limit: error.limit, actual: error.actual)
      }
      if n < r.minLength {
        // Only control or invisible characters: said as the CLI says it, not "empty".
        if r.normalization != .verbatim, Limits.lostToSanitizer(raw, sanitized: s) {
          throw ToolArgumentError(field: path, message: Limits.nothingPrintable(path, raw, consequence: "the call was not run").message)
        }
        throw ToolArgumentError(field: path, message: r.minLength == 1 ? "\(path) must not be empty" : "\(path) is \(n) characters; at least \(r.minLength) are required")
      }
      return .string(s)
    case .integer(let lo, let hi):
      guard case .number(let num) = value else {
        throw ToolArgumentError(field: path, message: "\(path) must be an integer, got \(value.kindWithArticle)")
      }
      let shown = Truncation.truncate(num.description, to: 40)
      guard let i = num.int else {
        // An integer too large for any bound (`1e30`) is refused for its range, as `51` is
        // (review 19-a: it was called "not an integer").
        if num.isInteger {
          throw ToolArgumentError(field: path, message: "\(path) is \(shown); it must be between \(lo) and \(hi)", limit: hi)
        }
        throw ToolArgumentError(field: path, message: "\(path) must be an integer, got \(shown)")
      }
      guard (lo...hi).contains(i) else {
        throw ToolArgumentError(field: path, message: "\(path) is \(i); it must be between \(lo) and \(hi)", limit: hi, actual: i)
      }
      return .integer(i)
    case .boolean:
      guard case .bool = value else {
        throw ToolArgumentError(field: path, message: "\(path) must be true or false, got \(value.kindWithArticle)")
      }
      return value
    case .array(let items, let lo, let hi, let unique):
      guard case .array(let elements) = value else {
        throw ToolArgumentError(field: path, message: "\(path) must be an array, got \(value.kindWithArticle)")
      }
      // A list of unique items is counted once its repeats (as normalized: `SQLite` and
      // `sqlite ` are one tag) are dropped, as the CLI and import count tags (review 25-a, 4:
      // twenty copies of one tag were refused here and taken there as one tag).
      if !unique, elements.count > hi {
        throw ToolArgumentError(field: path, message: "\(path) has \(elements.count) items; the limit is \(hi)", limit: hi, actual: elements.count)
      }
      var out: [JSONValue] = []
      var seen = Set<JSONValue>()
      for (i, e) in elements.enumerated() {
        let v = try items.validate(e, path: "\(path)[\(i)]")
        if unique, !seen.insert(v).inserted { continue }
        out.append(v)
      }
      if out.count > hi {
        throw ToolArgumentError(
          field: path, message: "\(path) has \(out.count) distinct items; the limit is \(hi)", limit: hi, actual: out.count)
      }
      if out.count < lo {
        throw ToolArgumentError(field: path, message: "\(path) needs at least \(lo) item(s)")
      }
      return .array(out)
    }
  }
}

extension ToolSchema {
  /// A given key or value as it may be quoted in a message: sanitized (``Sanitizer/sanitize(_:)``,
  /// so no role or tool delimiter survives), on one line (``TerminalText/singleLine(_:)``, so it
  /// cannot start what reads as a line of its own) and cut to `limit` characters
  /// (``Truncation/truncate(_:to:)``). Error messages reach the client and the model verbatim,
  /// and a receipt stores them: a value that looks like a credential is not quoted but
  /// withheld, as `[withheld: looks like a credential (KIND)]` (review 24-a, 1: `arguments.kinds[0]
  /// 'ghp_…' is not one of …` kept the token in the receipt; cut, it no longer read as one).
  static func quotable(_ given: String, limit: Int) -> String {
    if let finding = CredentialDetector.firstFinding(in: given) { return CredentialDetector.withheldText(finding.kind) }
    // Control characters and bidi controls shown as escapes (`\u{7F}`, `\u{202E}`), as
    // the CLI's errors show them, before the sanitizer would drop them and quote `a\u{202E}b` or
    // `x\u{7F}y` as `ab` or `xy`, a value the client never sent.
    return Truncation.truncate(
      TerminalText.singleLine(Sanitizer.sanitize(TerminalText.escapingControls(TerminalText.escapingBidiControls(given)))), to: limit)
  }
}

/// One named property of an object schema.
public struct ToolProperty: Sendable {
  public var name: String
  public var schema: ToolSchema
  public var isRequired: Bool
  public var description: String
  public var defaultValue: JSONValue?

  public init(_ name: String, _ schema: ToolSchema, required: Bool = false, default defaultValue: JSONValue? = nil, _ description: String) {
    self.name = name
    self.schema = schema
    self.isRequired = required
    self.description = description
    self.defaultValue = defaultValue
  }
}

/// A tool call's arguments broke the tool's schema.
public struct ToolArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The field path, e.g. `arguments.kind`.
  public var field: String
  public var message: String
  public var limit: Int?
  public var actual: Int?

  /// The engine's refusal of a tool argument, as the schema's refusals name it: field
  /// `arguments.<field>`, and a message that starts with the field named so (review, s17:
  /// `tag 'a\nb' contains a line break` beside `arguments.tag …` from the schema).
  public init(arguments validation: ValidationError) {
    let message =
      validation.message.hasPrefix(validation.field + " ") ? "arguments." + validation.message : validation.message
    self.init(
      field: "arguments.\(validation.field)", message: message, limit: validation.limit, actual: validation.actual)
  }

  public init(field: String, message: String, limit: Int? = nil, actual: Int? = nil) {
    self.field = field
    self.message = message
    self.limit = limit
    self.actual = actual
  }

  public var description: String { message }
}
