import Foundation

/// Every bound of the workspace in one place.
///
/// Units: text lengths are counted in `Character`s (extended grapheme clusters), never bytes
/// or UTF-16 units; code-analysis input is counted in UTF-8 bytes. A text bounded to n
/// characters also holds at most n × ``unicodeScalarsPerCharacter`` (10) Unicode scalars in
/// all (``unicodeScalarLimit(forCharacters:)``): a `Character` has no size bound of its own (an
/// `e` with 60,000 combining marks is one), so without it a 300-character title could be any
/// number of bytes. Real text stays within it even at a field's character limit (most
/// characters are 1 scalar, an emoji with a skin tone or a flag 2, a Devanagari conjunct 3–4,
/// the longest standard emoji 10), so only text made to evade the bound reaches it. User input over a bound is rejected with ``ValidationError`` naming the field,
/// the limit and the actual size; derived output is truncated with ``Truncation/marker``.
public enum Limits {
  // Knowledge
  public static let title = 300
  public static let content = 16_000
  public static let tagsPerItem = 16
  public static let tagLength = 48
  public static let relationshipsPerItem = 32
  /// Default cap on knowledge items; ``Settings/knowledgeItemLimit`` may raise it.
  public static let knowledgeItemsDefault = 10_000
  /// The highest value ``Settings/knowledgeItemLimit`` accepts.
  public static let knowledgeItemsMaximum = 100_000
  public static let revision = 1_000_000

  // Legacy memories
  public static let memories = 10_000
  public static let memoryText = 16_000

  // Tasks
  public static let tasks = 5_000
  public static let taskTitle = 300
  public static let taskNotes = 4_000

  // Handoffs
  public static let handoffs = 200
  public static let handoffFocus = 300
  public static let handoffSummary = 4_000
  public static let handoffNextSteps = 12
  public static let handoffNextStepLength = 300
  /// Each id list of a handoff or task (knowledge ids, task ids).
  public static let idsPerList = 64
  public static let handoffExcerpts = 12
  public static let handoffExcerptLength = 500

  // Derived and activity data (the oldest by date pruned first: ``KeptCollection``)
  public static let digestsKept = 50
  public static let receiptsKept = 10_000
  public static let checkpointsKept = 1_000
  public static let messagesKept = 10_000
  /// A receipt's `message`, in characters: the agent writes at most 500; an import accepts up to
  /// a task's notes' bound (review 18-c, C7: two million characters were imported).
  public static let receiptMessage = 4_000
  /// A run checkpoint's `note`, in characters: the agent loop writes at most 300.
  public static let checkpointNote = 4_000
  /// A receipt's `tool` (the tool's name), in characters: the runtime records at most 100
  /// (review 18-d, M5: two million characters were imported).
  public static let receiptTool = 100
  /// A receipt's `callID`, in characters: the runtime records at most 200.
  public static let receiptCallID = 200
  /// A receipt's `arguments` (canonical JSON text), in characters: the runtime records at most
  /// 2,000 (a longer call's are kept as `{"truncated":true,"characters":n,"prefix":…}`); an import
  /// or migration accepts up to a knowledge item's content bound.
  public static let receiptArguments = 16_000
  /// The canonical arguments a tool call's receipt records, in characters (2,000): a longer
  /// call's are kept as `{"truncated":true,"characters":n,"prefix":…}`. ``receiptArguments`` is
  /// what an import or migration accepts (review 28-c, 8: `dolphin limits` listed only that).
  public static let receiptArgumentsRecorded = 2_000
  /// A chat message's text, in characters: what `dolphin ask` takes and stores, and an import or
  /// migration accepts — the bound of ``content``, since a message may carry a capture's body.
  public static let chatMessage = content
  /// A receipt's `changedIDs`: a tool call changes a few records; an import accepts up to this
  /// many ids (review 18-d, M5: 20,000 were imported).
  public static let receiptChangedIDs = 1_000
  /// An export header's `generator` (`dolphin 0.1.0`), in characters.
  public static let exportGenerator = 300
  /// A quarantined record's `reason`, in characters: the legacy importer's reasons are a line.
  public static let quarantineReason = 4_000
  /// A quarantined record's `raw` JSON text, in UTF-8 bytes (16 MiB): the one record the legacy
  /// importer kept aside, verbatim (a conversation carries its messages).
  public static let quarantineRawBytes = 16 << 20

  // Outputs and queries
  public static let searchResultsDefault = 10
  public static let searchResultsMaximum = 50
  /// Records a listing gives when no limit is asked for: the CLI's `knowledge list`,
  /// `memory list` and `activity`, the MCP tools `task_list` and `handoff_list`. Each says how
  /// many it left out; a larger limit, up to the collection's own bound, lists more.
  public static let listedRecordsDefault = 50
  public static let promptEvidenceItems = 8
  public static let promptEvidenceCharacters = 4_000
  public static let insights = 25
  /// Code-analysis input, in UTF-8 bytes.
  public static let codeAnalysisBytes = 200_000
  public static let codeAnalysisFindings = 500
  public static let renderedToolOutput = 8_000
  /// The part of a query that is searched, in characters: a longer query (a pasted stack trace
  /// or compiler error) is searched by its first 500 characters, cut at a word boundary, and the
  /// response says so; it is not refused unless it is over ``queryInput``.
  public static let query = 500
  /// The longest query accepted, in Unicode scalars (code points, as JSON Schema's `maxLength`
  /// counts them, so the MCP tools' schema gives exactly this bound): a longer one is refused
  /// with ``ValidationError`` naming `query`, the limit and the size given. Only the first
  /// ``query`` characters of a query within it are searched.
  public static let queryInput = 5_000

  // Unicode scalars per character
  /// Unicode scalars allowed per allowed `Character`, over a whole text: a field limited to n
  /// characters holds at most n × 10 Unicode scalars (3,000 for a title, 160,000 for content),
  /// and so at most n × 40 UTF-8 bytes.
  ///
  /// 10 is the smallest value that accepts every field filled to its character limit with any
  /// standard emoji: the longest RGI emoji sequences (Unicode's `emoji-zwj-sequences.txt`, UTS
  /// #51) are the kiss and couple-with-heart sequences of two people with skin tones, such as
  /// `👩🏻‍❤️‍💋‍👨🏿` (U+1F469 U+1F3FB U+200D U+2764 U+FE0F U+200D U+1F48B U+200D U+1F468 U+1F3FF),
  /// 10 scalars; a four-person family `👨‍👩‍👧‍👦` is 7, a subdivision flag such as England's
  /// `🏴󠁧󠁢󠁥󠁮󠁧󠁿` 7, a person facing right with a skin tone and gender 8. Other real text averages
  /// well under 2 (a flag or an emoji with a skin tone is 2, a Devanagari conjunct such as `क्षि`
  /// 4). The bound is there for text made of a few characters each carrying thousands of
  /// combining marks, which would otherwise pass any character limit at any size.
  public static let unicodeScalarsPerCharacter = 10

  /// The most Unicode scalars a text limited to `characters` `Character`s may hold:
  /// `characters` × ``unicodeScalarsPerCharacter``.
  /// - Parameter characters: the field's bound in `Character`s, e.g. ``title``.
  /// - Returns: the bound in Unicode scalars, e.g. 3,000 for ``title``.
  public static func unicodeScalarLimit(forCharacters characters: Int) -> Int {
    characters * unicodeScalarsPerCharacter
  }

  // Input read from files and standard input
  /// Bytes read per allowed `Character` when text comes from a file or standard input: a
  /// field limited to n characters reads at most n × 40 bytes (640,000 for content) and
  /// refuses a larger file from its size, before reading it. That is the most UTF-8 a text
  /// within the field's Unicode scalar bound can take (``unicodeScalarsPerCharacter`` scalars of
  /// at most 4 bytes each), so a larger file is over the bound, and only such text reaches it
  /// (16,000 of the longest standard emoji, 35 bytes each, are 560,000 bytes).
  public static let inputBytesPerCharacter = unicodeScalarsPerCharacter * 4
  /// An export document or legacy workspace file given to `import` or `migrate`, in bytes
  /// (1 GiB): a full workspace at the default limits is a few hundred megabytes.
  public static let importDocumentBytes = 1 << 30
  /// Standard input read for `handoff create --next -` (one step per non-blank line), in bytes
  /// (1 MiB): ``handoffNextSteps`` steps at ``handoffNextStepLength`` characters and their
  /// Unicode scalar bound take at most 144,000 bytes, so the rest is room for blank lines and
  /// white space, which count toward no bound; a larger input is refused, whatever is piped in.
  public static let handoffNextStepsInputBytes = 1 << 20

  /// One row per bound, as `dolphin limits` lists it (text, and `--json`), and for tests.
  public static let table: [(name: String, value: Int, unit: String)] = [
    ("title", title, "characters"),
    ("content", content, "characters"),
    ("tags per item", tagsPerItem, "tags"),
    ("tag length", tagLength, "characters"),
    ("relationships per item", relationshipsPerItem, "relationships"),
    ("knowledge items (default)", knowledgeItemsDefault, "items"),
    ("knowledge items (maximum setting)", knowledgeItemsMaximum, "items"),
    ("revision", revision, "revisions"),
    ("memories", memories, "memories"),
    ("memory text", memoryText, "characters"),
    ("tasks", tasks, "tasks"),
    ("task title", taskTitle, "characters"),
    ("task notes", taskNotes, "characters"),
    ("handoffs", handoffs, "handoffs"),
    ("handoff focus", handoffFocus, "characters"),
    ("handoff summary", handoffSummary, "characters"),
    ("handoff next steps", handoffNextSteps, "steps"),
    ("handoff next step length", handoffNextStepLength, "characters"),
    ("ids per list", idsPerList, "ids"),
    ("handoff excerpts", handoffExcerpts, "excerpts"),
    ("handoff excerpt length", handoffExcerptLength, "characters"),
    ("digests kept", digestsKept, "digests"),
    ("receipts kept", receiptsKept, "receipts"),
    ("checkpoints kept", checkpointsKept, "checkpoints"),
    ("messages kept", messagesKept, "messages"),
    ("chat message", chatMessage, "characters"),
    ("receipt message", receiptMessage, "characters"),
    ("checkpoint note", checkpointNote, "characters"),
    ("receipt tool", receiptTool, "characters"),
    ("receipt call id", receiptCallID, "characters"),
    ("receipt arguments", receiptArguments, "characters"),
    ("receipt arguments recorded per tool call", receiptArgumentsRecorded, "characters"),
    ("receipt changed ids", receiptChangedIDs, "ids"),
    ("export generator", exportGenerator, "characters"),
    ("quarantine reason", quarantineReason, "characters"),
    ("quarantine raw record", quarantineRawBytes, "UTF-8 bytes"),
    ("search results (default)", searchResultsDefault, "results"),
    ("search results (maximum)", searchResultsMaximum, "results"),
    ("listed records (default)", listedRecordsDefault, "records"),
    ("prompt evidence items", promptEvidenceItems, "items"),
    ("prompt evidence", promptEvidenceCharacters, "characters"),
    ("insights", insights, "insights"),
    ("code analysis input", codeAnalysisBytes, "UTF-8 bytes"),
    ("code analysis findings", codeAnalysisFindings, "findings"),
    ("rendered tool output", renderedToolOutput, "characters"),
    ("query (searched)", query, "characters"),
    ("query (accepted)", queryInput, "Unicode code points"),
    ("Unicode scalars per allowed character (whole text)", unicodeScalarsPerCharacter, "Unicode scalars"),
    ("input read per allowed character", inputBytesPerCharacter, "UTF-8 bytes"),
    ("import or legacy document", importDocumentBytes, "bytes"),
    ("handoff next steps read from standard input", handoffNextStepsInputBytes, "bytes"),
  ]
}

/// User input that breaks a bound or a format rule.
///
/// `description` names the field, the limit and what was given, e.g.
/// `title is 301 characters; the limit is 300`.
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The field, e.g. `title`, `tags[3]`, `relationships`.
  public var field: String
  /// The bound that was broken, when the error is about a bound.
  public var limit: Int?
  /// The size that was given, in the bound's unit.
  public var actual: Int?
  /// The full human-readable message.
  public var message: String
  /// The record the field refers to that does not exist, when that is what is wrong (a
  /// relationship or a list of ids naming an unknown record); nil otherwise. Callers that tell
  /// "not found" from "invalid" (the CLI's exit 3 and 4) read this, never the message.
  public var missingRecord: MissingRecord?
  /// What looked like a credential, when that is why the text was refused
  /// (``CredentialDetector/requireNoCredential(in:field:consequence:)``); nil otherwise. The
  /// message says how to remove it but offers no override, since only the caller knows whether
  /// its user has one: a caller that does (the CLI's `--allow-credentials`) reads this, never
  /// the message, to say so.
  public var credential: CredentialFinding?

  /// A record that a field names by id and that does not exist.
  public struct MissingRecord: Sendable, Equatable {
    /// What kind of record, as messages name it, e.g. `knowledge item`, `task`.
    public var recordType: String
    /// The id that was given, e.g. `3F2504E0-4F89-11D3-9A0C-0305E82C3301`.
    public var id: String

    public init(recordType: String, id: String) {
      self.recordType = recordType
      self.id = id
    }
  }

  public init(
    field: String, limit: Int? = nil, actual: Int? = nil, message: String, missingRecord: MissingRecord? = nil,
    credential: CredentialFinding? = nil
  ) {
    self.field = field
    self.limit = limit
    self.actual = actual
    self.message = message
    self.missingRecord = missingRecord
    self.credential = credential
  }

  /// `field: no recordType has the id id`, marked as ``missingRecord``.
  public static func unknownID(_ field: String, recordType: String, id: UUID) -> ValidationError {
    ValidationError(
      field: field, message: "\(field): no \(recordType) has the id \(id.uuidString)",
      missingRecord: MissingRecord(recordType: recordType, id: id.uuidString))
  }

  /// `field` is `actual` `unit`; the limit is `limit`.
  public static func tooLong(_ field: String, limit: Int, actual: Int, unit: String = "characters")
    -> ValidationError
  {
    ValidationError(
      field: field, limit: limit, actual: actual,
      message: "\(field) is \(actual) \(unit); the limit is \(limit) \(unit)")
  }

  /// `field is c characters but s Unicode scalars …; the limit is l characters and at most m
  /// Unicode scalars in all`: text within its `Character` bound whose characters carry too many
  /// combining marks, joiners or modifiers (``Limits/unicodeScalarsPerCharacter``). ``limit``
  /// and ``actual`` are in Unicode scalars.
  /// - Parameters:
  ///   - field: the field, e.g. `title`.
  ///   - characterLimit: the field's bound in `Character`s, e.g. 300.
  ///   - characters: the text's length in `Character`s.
  ///   - scalars: the text's length in Unicode scalars, over
  ///     ``Limits/unicodeScalarLimit(forCharacters:)`` of `characterLimit`.
  public static func tooManyUnicodeScalars(_ field: String, characterLimit: Int, characters: Int, scalars: Int)
    -> ValidationError
  {
    let limit = Limits.unicodeScalarLimit(forCharacters: characterLimit)
    return ValidationError(
      field: field, limit: limit, actual: scalars,
      message: "\(field) is \(characters) \(characters == 1 ? "character" : "characters") but \(scalars) Unicode "
        + "scalars (each combining mark, joiner or modifier counts as one); the limit is \(characterLimit) "
        + "characters and at most \(limit) Unicode scalars in all (\(Limits.unicodeScalarsPerCharacter) per character)")
  }

  /// `field` has `actual` entries; the limit is `limit`.
  public static func tooMany(_ field: String, limit: Int, actual: Int, unit: String) -> ValidationError {
    ValidationError(
      field: field, limit: limit, actual: actual,
      message: "\(field) has \(actual) \(unit); the limit is \(limit)")
  }

  public var description: String { message }
}

extension Limits {
  /// Throws when `text` has more than `limit` `Character`s, or more Unicode scalars than
  /// ``unicodeScalarLimit(forCharacters:)`` allows for `limit`.
  /// - Parameters:
  ///   - field: the field named in errors, e.g. `title`.
  ///   - text: the text to measure.
  ///   - limit: the field's bound in `Character`s.
  /// - Throws: ``ValidationError/tooLong(_:limit:actual:unit:)`` (in characters), else
  ///   ``ValidationError/tooManyUnicodeScalars(_:characterLimit:characters:scalars:)``.
  /// - Complexity: O(1) for text of at most `limit` UTF-8 bytes, else O(n).
  public static func check(_ field: String, _ text: String, limit: Int) throws(ValidationError) {
    // No more bytes than the limit: no more characters or scalars either.
    if text.utf8.count <= limit { return }
    let n = text.count
    if n > limit { throw .tooLong(field, limit: limit, actual: n) }
    try checkUnicodeScalars(field, text, characters: n, limit: limit)
  }

  /// Throws when `text` holds more than `limit` Unicode scalars (code points): a bound counted
  /// as JSON Schema counts `maxLength`, for input that is cut rather than refused below it
  /// (``queryInput``).
  /// - Throws: ``ValidationError`` naming `field`, e.g. `query is 5012 Unicode code points;
  ///   the limit is 5000 Unicode code points`.
  /// - Complexity: O(1) for text of at most `limit` UTF-8 bytes, else O(n).
  public static func checkCodePoints(_ field: String, _ text: String, limit: Int) throws(ValidationError) {
    if text.utf8.count <= limit { return }
    let n = text.unicodeScalars.count
    if n > limit { throw .tooLong(field, limit: limit, actual: n, unit: "Unicode code points") }
  }

  /// Whether `text` is within a bound of `limit` `Character`s: at most `limit` of them, and
  /// at most ``unicodeScalarLimit(forCharacters:)`` Unicode scalars — what
  /// ``check(_:_:limit:)`` accepts, for derived text that is fitted to a bound rather than
  /// refused.
  /// - Complexity: O(1) for text of at most `limit` UTF-8 bytes, else O(n).
  public static func fits(_ text: String, limit: Int) -> Bool {
    text.utf8.count <= limit || (text.count <= limit && text.unicodeScalars.count <= unicodeScalarLimit(forCharacters: limit))
  }

  /// Throws when `text`, already known to be within `limit` `Character`s, holds more Unicode
  /// scalars than ``unicodeScalarLimit(forCharacters:)`` allows for `limit`: the part of
  /// ``check(_:_:limit:)`` for callers that counted the characters themselves.
  /// - Parameters:
  ///   - field: the field named in errors.
  ///   - text: the text to measure.
  ///   - characters: `text.count`, for the message.
  ///   - limit: the field's bound in `Character`s.
  /// - Throws: ``ValidationError/tooManyUnicodeScalars(_:characterLimit:characters:scalars:)``.
  /// - Complexity: O(n) in the length of `text`.
  public static func checkUnicodeScalars(_ field: String, _ text: String, characters: Int, limit: Int)
    throws(ValidationError)
  {
    let scalars = text.unicodeScalars.count
    if scalars > unicodeScalarLimit(forCharacters: limit) {
      throw .tooManyUnicodeScalars(field, characterLimit: limit, characters: characters, scalars: scalars)
    }
  }

  /// Throws when `text` holds a NUL (U+0000). A NUL is refused, not dropped with the other
  /// control characters: it is never part of text a person wrote (the CLI refuses input holding
  /// one as not text), and dropping it would store a value that was not given (`x\u{0}y` as
  /// `xy`). Shared by tool arguments (MCP) and imported documents.
  /// - Throws: ``ValidationError`` naming the field and the character position (1-based, in
  ///   `Character`s — a NUL is a grapheme cluster of its own, so where an editor shows it).
  public static func refuseNUL(_ field: String, _ text: String) throws(ValidationError) {
    guard let nul = text.firstIndex(of: "\u{0}") else { return }
    let position = text.distance(from: text.startIndex, to: nul) + 1
    throw ValidationError(
      field: field,
      message: "\(field) contains a NUL character (U+0000) at character \(position); NUL is not text, remove it")
  }

  /// Throws when `text` is empty after trimming whitespace.
  public static func checkNotEmpty(_ field: String, _ text: String) throws(ValidationError) {
    if trimmedWhitespace(text).isEmpty {
      throw ValidationError(field: field, message: "\(field) must not be empty")
    }
  }

  /// Throws ``ValidationError/tooMany(_:limit:actual:unit:)`` when `count > limit`.
  public static func checkCount(_ field: String, _ count: Int, limit: Int, unit: String)
    throws(ValidationError)
  {
    if count > limit { throw .tooMany(field, limit: limit, actual: count, unit: unit) }
  }
}

extension Limits {
  /// User-given text, checked as given and then sanitized.
  ///
  /// The length is checked on the text exactly as given, before ``Sanitizer/sanitize(_:)``
  /// drops control and invisible characters — so 20,000 `\u{1}` characters are over a
  /// 16,000-character limit, not an empty string under it. Text that had something besides
  /// whitespace but loses all of it to the sanitizer is refused instead of being stored empty;
  /// without `trimming` (fields kept as given, where an empty value means none), so is
  /// non-empty text of only white space (``onlyWhitespace(_:_:consequence:)``).
  /// Callers still validate the sanitized result (sanitizing can, rarely, split a character).
  /// - Parameters:
  ///   - field: the field named in errors, e.g. `content`.
  ///   - raw: the text as the user (or a tool call) gave it.
  ///   - limit: the field's bound in `Character`s.
  ///   - trimming: trim whitespace and newlines from the sanitized text.
  ///   - required: the field may not be empty: non-empty text of only white space is refused
  ///     with ``requiredButBlank(_:_:consequence:)`` rather than trimmed to nothing (an empty
  ///     value is left to the caller's ``checkNotEmpty(_:_:)``).
  /// - Returns: the sanitized (and, with `trimming`, trimmed) text.
  /// - Throws: ``ValidationError/tooLong(_:limit:actual:unit:)`` naming the field, the limit and
  ///   the length given (or ``ValidationError/tooManyUnicodeScalars(_:characterLimit:characters:scalars:)``
  ///   for text within the limit whose characters carry too many combining marks); a
  ///   ``ValidationError`` saying the text had no printable characters.
  /// - Complexity: O(n) in the length of `raw`.
  public static func sanitizedInput(
    _ field: String, _ raw: String, limit: Int, trimming: Bool = false, required: Bool = false
  ) throws(ValidationError) -> String
  {
    try check(field, raw, limit: limit)
    let clean = sanitized(raw, trimming: trimming)
    if lostToSanitizer(raw, sanitized: clean) {
      throw nothingPrintable(field, raw, consequence: "nothing was stored")
    }
    // Text kept as given (content, notes) that is only white space: refused like invisible
    // text, never stored as blanks (review, s16: `--content "   "` was stored as three spaces).
    if !trimming && !raw.isEmpty && Sanitizer.showsNothing(clean) {
      throw onlyWhitespace(field, raw, consequence: "nothing was stored")
    }
    // A required field given only white space: named as such, as the tools name it, not
    // called empty (s17: `--next "  "` said "must not be empty").
    if required && !raw.isEmpty && Sanitizer.showsNothing(clean) {
      throw requiredButBlank(field, raw, consequence: "nothing was stored")
    }
    return clean
  }

  /// The refusal of non-empty text that is only white space for a field that may not be
  /// empty: `focus has nothing printable: all 3 character(s) given are white space, and a
  /// value is required; nothing was stored`.
  /// - Parameters:
  ///   - field: the field named in the message, e.g. `title`.
  ///   - raw: the text as given (its length in `Character`s is reported).
  ///   - consequence: what did not happen, e.g. `nothing was stored`.
  public static func requiredButBlank(_ field: String, _ raw: String, consequence: String) -> ValidationError {
    ValidationError(
      field: field,
      message: "\(field) has nothing printable: all \(raw.count) character(s) given are white space, "
        + "and a value is required; \(consequence)")
  }

  /// The refusal of non-empty text that is only white space (and characters that show nothing)
  /// where an empty value means "none": `content has nothing printable: all 3 character(s)
  /// given are white space; give text, or an empty value for none; nothing was stored`.
  /// - Parameters:
  ///   - field: the field named in the message, e.g. `content`.
  ///   - raw: the text as given (its length in `Character`s is reported).
  ///   - consequence: what did not happen, e.g. `nothing was stored`.
  public static func onlyWhitespace(_ field: String, _ raw: String, consequence: String) -> ValidationError {
    ValidationError(
      field: field,
      message: "\(field) has nothing printable: all \(raw.count) character(s) given are white space; "
        + "give text, or an empty value for none; \(consequence)")
  }

  /// Text sanitized (``Sanitizer/sanitize(_:)``) and, with `trimming`, trimmed of whitespace and
  /// line breaks at both ends: what capture stores for a field, and what an import stores for
  /// the same field. Capture trims a knowledge item's title, a memory's text, a task's title and
  /// a handoff's focus, summary and next steps; content and notes keep their whitespace.
  /// - Complexity: O(n) in the length of `raw`.
  public static func sanitized(_ raw: String, trimming: Bool) -> String {
    let clean = Sanitizer.sanitize(raw)
    return trimming ? trimmedWhitespace(clean) : clean
  }

  /// `text` trimmed as `trimmingCharacters(in: .whitespacesAndNewlines)` trims it. Text that
  /// neither starts nor ends with white space or a line break — nearly all stored text — is
  /// returned as it is, without Foundation's copy of the whole text through `NSString`, which
  /// was a quarter of the time of checking an export for import.
  /// - Complexity: O(1) for text with nothing to trim; O(*n*) otherwise.
  static func trimmedWhitespace(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard let first = scalars.first, let last = scalars.last else { return text }
    let space = CharacterSet.whitespacesAndNewlines
    guard space.contains(first) || space.contains(last) else { return text }
    return text.trimmingCharacters(in: space)
  }

  /// The refusal of text that had something besides whitespace but nothing visible once
  /// sanitized (``lostToSanitizer(_:sanitized:)``): `query has nothing printable: all 1
  /// character(s) given are control or invisible characters, which are removed or show nothing;
  /// nothing was searched`. One wording for
  /// every field (a capture's title, a chat message, a search query), so that such text is never
  /// called empty.
  /// - Parameters:
  ///   - field: the field named in the message, e.g. `query`.
  ///   - raw: the text as given (its length in `Character`s is reported).
  ///   - consequence: what did not happen, e.g. `nothing was stored`.
  public static func nothingPrintable(_ field: String, _ raw: String, consequence: String) -> ValidationError {
    ValidationError(
      field: field,
      message: "\(field) has nothing printable: all \(raw.count) character(s) given are "
        + (raw.unicodeScalars.contains(where: \.properties.isWhitespace) ? "white space, control or " : "control or ")
        + "invisible characters, which are removed or show nothing; \(consequence)")
  }

  /// Whether `raw` has something besides whitespace, but nothing visible once
  /// ``Sanitizer/sanitize(_:)`` has removed control and invisible characters: `sanitized` is
  /// blank or holds only characters that show nothing (``Sanitizer/showsNothing(_:)``: the
  /// soft hyphen U+00AD, a Hangul filler, the Braille blank U+2800 and every other
  /// Default_Ignorable_Code_Point, which the sanitizer keeps inside words).
  ///
  /// Whitespace is Unicode's White_Space, judged scalar by scalar (the same on every platform),
  /// so a zero-width space alone counts as invisible, not as blank, and so does a space carrying
  /// a combining grapheme joiner (which `Character.isWhitespace` would call whitespace).
  public static func lostToSanitizer(_ raw: String, sanitized: String) -> Bool {
    Sanitizer.showsNothing(sanitized) && !raw.unicodeScalars.allSatisfy(\.properties.isWhitespace)
  }
}
