import Foundation

extension Limits {
  /// Trims, lowercases and deduplicates tags (first occurrence wins), dropping those that show
  /// nothing (``Sanitizer/showsNothing(_:)``): empty, whitespace, or only invisible characters
  /// such as the Braille blank U+2800 or soft hyphens, which ``Sanitizer/sanitize(_:)`` keeps
  /// and which would otherwise be stored as a tag that displays blank.
  /// - Complexity: O(n) in the total length of the tags.
  public static func normalizeTags(_ tags: [String]) -> [String] {
    var seen = Set<String>()
    var out: [String] = []
    for raw in tags {
      let t = Self.withoutLetterJoiners(trimmedWhitespace(raw).lowercased())
      if !Sanitizer.showsNothing(t), seen.insert(t).inserted { out.append(t) }
    }
    return out
  }

  /// `tag` without the zero-width non-joiners and joiners that stand between letters (those of
  /// an emoji sequence, after an emoji or U+FE0F, are kept): text keeps them as part of the
  /// spelling (Persian `می‌خواهم`), but a tag is matched as typed, so `می‌خواهم` and `میخواهم`,
  /// which a filter already treats as one, are stored as one tag too (review 19-d).
  static func withoutLetterJoiners(_ tag: String) -> String {
    guard tag.unicodeScalars.contains(where: { $0 == "\u{200C}" || $0 == "\u{200D}" }) else { return tag }
    var kept = String.UnicodeScalarView()
    for scalar in tag.unicodeScalars {
      if scalar == "\u{200C}" { continue }
      if scalar == "\u{200D}", let previous = kept.last, !(previous == "\u{FE0F}" || (!previous.isASCII && previous.properties.isEmoji)) {
        continue
      }
      kept.append(scalar)
    }
    return String(kept)
  }

  /// Tags as given (by a user, a tool call or a file), checked and then sanitized and normalized
  /// as ``normalizeTags(_:)`` does.
  /// - Parameters:
  ///   - raw: the tags as given.
  ///   - field: the field named in errors.
  ///   - refusingCommas: refuse a tag holding a comma (``checkNewTag(_:_:)``); false for tags
  ///     that name stored ones (tags to remove), which an earlier build may have stored so.
  /// - Throws: ``ValidationError`` (field `tags[i]`, `i` counting the tags as given) for a tag
  ///   holding a line break, a tab or another control character (``checkTagCharacters(_:_:)``),
  ///   or a comma (``checkTagSeparator(_:_:)``).
  public static func normalizedTags(
    _ raw: [String], field: String = "tags", refusingCommas: Bool = true
  ) throws(ValidationError) -> [String] {
    for (i, tag) in raw.enumerated() {
      if refusingCommas { try checkNewTag("\(field)[\(i)]", tag) } else { try checkTagCharacters("\(field)[\(i)]", tag) }
    }
    return normalizeTags(raw.map(Sanitizer.sanitize))
  }

  /// Throws when a tag holds a comma. The command line takes tags as a comma-separated list
  /// (`--tags a,b` is two tags) and shows them so (`tags: a, b`), so a tag `a,b` could be
  /// neither told from two tags nor removed with `--remove-tags` (review 19-b, F6). Every path
  /// that stores a new tag refuses it — capture, `knowledge edit`, `memory save`, the MCP tools,
  /// `import` on a record it writes, and `migrate`, which quarantines such a memory — while a
  /// tag an earlier build stored so is read, edited around and exported as stored, and `dolphin
  /// doctor` names it with a fix (``tagWithoutCommas(_:)``).
  /// - Parameters:
  ///   - field: the field named in errors, e.g. `tags[0]`.
  ///   - tag: the tag as given.
  /// - Throws: ``ValidationError`` naming the field, the tag, the position of its first comma
  ///   (1-based, in `Character`s) and the tag written without commas.
  public static func checkTagSeparator(_ field: String, _ tag: String) throws(ValidationError) {
    guard let comma = tag.firstIndex(of: ",") else { return }
    let position = tag.distance(from: tag.startIndex, to: comma) + 1
    let joined = tagWithoutCommas(tag)
    let instead = joined.isEmpty ? "leave it out" : "give each part as a tag of its own, or write it \(quoted(joined, cutAt: 60))"
    throw ValidationError(
      field: field,
      message: "\(field) \(quoted(tag, cutAt: 60)) contains a comma (at character \(position)); a tag holds no comma, since "
        + "tags are given and shown as a comma-separated list (`--tags a,b` is two tags): \(instead)")
  }

  /// What a tag given to be stored must meet: one line without tabs or control characters
  /// (``checkTagCharacters(_:_:)``) and no comma (``checkTagSeparator(_:_:)``).
  /// - Throws: ``ValidationError`` naming the field and the tag.
  public static func checkNewTag(_ field: String, _ tag: String) throws(ValidationError) {
    try checkTagCharacters(field, tag)
    try checkTagSeparator(field, tag)
  }

  /// `tag` with its commas replaced as `dolphin doctor`'s fix replaces them: its parts between
  /// commas, trimmed, the empty ones dropped, joined by `-` (`a,b` → `a-b`, `x, y,` → `x-y`, `,`
  /// → empty).
  public static func tagWithoutCommas(_ tag: String) -> String {
    tag.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
      .joined(separator: "-")
  }

  /// Throws when a tag, trimmed, holds a line break, a tab or another control character: a tag
  /// is one line, shown on one line (`[x y]` for `x\ny`) and matched exactly by a filter, so
  /// such a tag could be neither told apart nor found.
  /// - Parameters:
  ///   - field: the field named in errors, e.g. `tags[0]`.
  ///   - tag: the tag as given.
  /// - Throws: ``ValidationError`` naming the field, the kind of character and the tag with its
  ///   control characters escaped (`'x\ny'`).
  public static func checkTagCharacters(_ field: String, _ tag: String) throws(ValidationError) {
    // Printable ASCII holds no line break, tab or control character: most tags, and an export's
    // checks read every one.
    if tag.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return }
    let trimmed = trimmedWhitespace(tag)
    let problem: String
    if trimmed.contains(where: \.isNewline) {
      problem = "a line break"
    } else if trimmed.contains("\t") {
      problem = "a tab"
    } else if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      problem = "a control character"
    } else {
      return
    }
    throw ValidationError(
      field: field,
      message: "\(field) \(quoted(tag, cutAt: 60)) contains \(problem); a tag is one line without tabs or control characters")
  }

  /// A value quoted into a one-line error message, cut when long with the cut shown: `'value'`,
  /// or `'its first limit characters…' (N characters)`, so that a 10,000-character id is not
  /// quoted as if its first 60 characters were all of it.
  ///
  /// The quoted part holds at most `limit` `Character`s and
  /// ``unicodeScalarLimit(forCharacters:)`` of `limit` Unicode scalars; when the value is cut
  /// for its scalars alone, the note says both lengths (`(1 character of 60001 Unicode scalars)`).
  /// When not even the first character fits (one letter carrying thousands of combining marks),
  /// the quote shows its first Unicode scalar (`'x…'`), so that the value can still be told apart.
  /// - Parameters:
  ///   - value: the value as given.
  ///   - limit: the most `Character`s to quote, e.g. 60.
  ///   - escape: how the quoted part is made one line; ``escaped(_:)`` by default.
  ///   - sayingLength: whether a cut value is followed by its length; false for a message that
  ///     states the length itself (`tags[1] ('abc…') is 49 characters`).
  /// - Returns: the value between single quotes, with `…` inside them and (with `sayingLength`)
  ///   the full length after them when it was cut.
  /// - Complexity: O(`limit`) for the part quoted, plus O(n) to count a value that was cut.
  package static func quoted(
    _ value: String, cutAt limit: Int, escaping escape: (String) -> String = escaped, sayingLength: Bool = true
  ) -> String {
    let budget = unicodeScalarLimit(forCharacters: limit)
    var end = value.startIndex
    var kept = 0
    var scalars = 0
    while end < value.endIndex, kept < limit {
      let next = value.index(after: end)
      let n = value.unicodeScalars[end..<next].count
      guard scalars + n <= budget else { break }
      scalars += n
      kept += 1
      end = next
    }
    if end == value.endIndex { return "'" + escape(value) + "'" }
    let shown =
      end == value.startIndex && limit > 0
      ? String(value.unicodeScalars.prefix(1)) : String(value[..<end])
    guard sayingLength else { return "'" + escape(shown) + "…'" }
    let length = value.count
    let unit = length == 1 ? "character" : "characters"
    // Within `limit` characters, it was cut for its scalars: say how many.
    let note = length > limit ? "\(length) \(unit)" : "\(length) \(unit) of \(value.unicodeScalars.count) Unicode scalars"
    return "'" + escape(shown) + "…' (\(note))"
  }

  /// How many characters of a path the user gave a message shows before cutting it
  /// (``shownPath(_:)``): more than any path in practical use, far less than one that could fill
  /// a screen (a 100,000-character argument).
  package static let shownPathLength = 300

  /// A path the user gave, as a message shows it without quotes: as it is, or, longer than
  /// ``shownPathLength`` characters, its first ``shownPathLength`` characters, `…` and its
  /// length — `/tmp/xxx… (100005 characters)` — so that a message about a path no system could
  /// open (longer than `PATH_MAX`) stays short and never passes for the whole path.
  /// - Parameter path: the path as given.
  /// - Returns: `path`, or its start and length.
  /// - Complexity: O(n) in the length of `path`.
  package static func shownPath(_ path: String) -> String {
    let budget = unicodeScalarLimit(forCharacters: shownPathLength)
    let length = path.count
    let scalars = path.unicodeScalars.count
    guard length > shownPathLength || scalars > budget else { return path }
    // One character may carry thousands of combining marks: the scalars are bounded too.
    let shown = String(String.UnicodeScalarView(path.prefix(shownPathLength).unicodeScalars.prefix(budget)))
    let unit = length == 1 ? "character" : "characters"
    let note = length > shownPathLength ? "\(length) \(unit)" : "\(length) \(unit) of \(scalars) Unicode scalars"
    return shown + "… (\(note))"
  }

  /// `text` with line breaks, tabs and other control characters written as escapes (`\n`, `\t`,
  /// `\u{1}`), so that a message quoting it stays on one line.
  public static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}":
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A tag to filter by, sanitized and normalized as stored tags are (``normalizedTags(_:field:)``:
  /// invisible characters dropped, trimmed, lowercased), so `a\u{200B}b` finds the tag `ab`.
  ///
  /// - Parameters:
  ///   - raw: the tag as given.
  ///   - label: how the caller names it in messages (`tag`, or `--tag` on the command line).
  /// - Returns: the normalized tag, 1…``tagLength`` (48) characters.
  /// - Throws: ``ValidationError`` (field `tag`) when it is empty after trimming or longer than
  ///   ``tagLength`` characters (or their Unicode scalar bound,
  ///   ``unicodeScalarLimit(forCharacters:)``), or when it holds a line break, a tab or another
  ///   control character (``checkTagCharacters(_:_:)``) — no stored tag could match it.
  public static func tagFilter(_ raw: String, label: String = "tag") throws(ValidationError)
    -> String
  {
    guard !raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw ValidationError(field: "tag", message: "\(label) must not be empty")
    }
    // A comma is kept: the filter is one tag, and finds one an earlier build stored with a
    // comma (an empty result says `--tag` takes one tag).
    do { try checkTagCharacters(label, raw) } catch { throw ValidationError(field: "tag", message: error.message) }
    // Only invisible characters (e.g. a zero-width space) left nothing to match.
    guard let tag = normalizeTags([Sanitizer.sanitize(raw)]).first else {
      throw ValidationError(field: "tag", message: "\(label) must not be empty")
    }
    guard tag.count <= tagLength else {
      throw ValidationError(
        field: "tag", limit: tagLength, actual: tag.count,
        message: "\(label) is \(tag.count) characters; the limit is \(tagLength) characters")
    }
    do { try checkUnicodeScalars(label, tag, characters: tag.count, limit: tagLength) } catch {
      throw ValidationError(field: "tag", limit: error.limit, actual: error.actual, message: error.message)
    }
    return tag
  }

  /// Checks tag count, each tag's length (in `Character`s, and in Unicode scalars as
  /// ``check(_:_:limit:)`` does) and that each is one line without control characters.
  ///
  /// A comma is not refused here, at the store's boundary, but where a tag is given to be stored
  /// (``normalizedTags(_:field:refusingCommas:)``, ``checkNewTag(_:_:)``): a record an earlier
  /// build stored with one stays editable (its priority, say) until `dolphin doctor`'s fix runs.
  ///
  /// A tag over a length bound is named by its position and its value, quoted and cut to 20
  /// characters (``quoted(_:cutAt:escaping:sayingLength:)``), since tags are stored deduplicated
  /// and a caller may show the list without positions: `tags[1] ('zalg…') is 5 characters but 605
  /// Unicode scalars …`, `tags[1] ('tttt…') is 49 characters; the limit is 48 characters`.
  /// - Throws: ``ValidationError`` naming the list (`tags`) when it has more than
  ///   ``tagsPerItem`` tags; naming the tag (`tags[i]`) when one holds a control character
  ///   (``checkTagCharacters(_:_:)``), is over ``tagLength`` characters (``ValidationError/limit``
  ///   and ``ValidationError/actual`` in characters), or is over its Unicode scalar bound (in
  ///   Unicode scalars).
  public static func validateTags(_ tags: [String], field: String = "tags") throws(ValidationError) {
    try checkCount(field, tags.count, limit: tagsPerItem, unit: "tags")
    for (i, t) in tags.enumerated() { try checkTagCharacters("\(field)[\(i)]", t) }
    for (i, t) in tags.enumerated() {
      // No more bytes than the bound: no more characters or Unicode scalars either.
      if t.utf8.count <= tagLength { continue }
      let n = t.count
      let named = "\(field)[\(i)] (\(quoted(t, cutAt: 20, sayingLength: false)))"
      if n > tagLength {
        throw ValidationError(
          field: "\(field)[\(i)]", limit: tagLength, actual: n,
          message: "\(named) is \(n) characters; the limit is \(tagLength) characters")
      }
      do { try checkUnicodeScalars(named, t, characters: n, limit: tagLength) } catch {
        throw ValidationError(field: "\(field)[\(i)]", limit: error.limit, actual: error.actual, message: error.message)
      }
    }
  }

  /// Checks every bound of a knowledge item (not its relationships' targets, which need the
  /// store).
  public static func validate(_ item: KnowledgeItem) throws(ValidationError) {
    try checkNotEmpty("title", item.title)
    try check("title", item.title, limit: title)
    try check("content", item.content, limit: content)
    try validateTags(item.tags)
    try checkCount("relationships", item.relationships.count, limit: relationshipsPerItem, unit: "relationships")
    if item.relationships.contains(where: { $0.targetID == item.id }) {
      throw ValidationError(field: "relationships", message: "relationships: an item cannot relate to itself")
    }
    guard (1...revision).contains(item.revision) else {
      throw ValidationError(
        field: "revision", limit: revision, actual: item.revision,
        message: "revision is \(item.revision); it must be between 1 and \(revision)")
    }
  }

  /// Checks the bounds of a legacy memory.
  public static func validate(_ memory: MemoryItem) throws(ValidationError) {
    try checkNotEmpty("text", memory.text)
    try check("text", memory.text, limit: memoryText)
    try validateTags(memory.tags)
  }

  /// Checks the bounds of a task.
  public static func validate(_ task: TaskItem) throws(ValidationError) {
    try checkNotEmpty("title", task.title)
    try check("title", task.title, limit: taskTitle)
    try check("notes", task.notes, limit: taskNotes)
    try checkCount("knowledgeIDs", task.knowledgeIDs.count, limit: idsPerList, unit: "ids")
  }

  /// Checks the bounds of a handoff.
  public static func validate(_ handoff: Handoff) throws(ValidationError) {
    try checkNotEmpty("focus", handoff.focus)
    try check("focus", handoff.focus, limit: handoffFocus)
    try check("summary", handoff.summary, limit: handoffSummary)
    try checkCount("nextSteps", handoff.nextSteps.count, limit: handoffNextSteps, unit: "steps")
    for (i, s) in handoff.nextSteps.enumerated() {
      try check("nextSteps[\(i)]", s, limit: handoffNextStepLength)
    }
    try checkCount("knowledgeIDs", handoff.knowledgeIDs.count, limit: idsPerList, unit: "ids")
    try checkCount("taskIDs", handoff.taskIDs.count, limit: idsPerList, unit: "ids")
    try checkCount("recentExcerpts", handoff.recentExcerpts.count, limit: handoffExcerpts, unit: "excerpts")
    for (i, s) in handoff.recentExcerpts.enumerated() {
      try check("recentExcerpts[\(i)]", s, limit: handoffExcerptLength)
    }
  }

  /// Checks settings: the assistant's name is at most ``title`` characters and shows something
  /// once sanitized (review 20-a, #11: `""` was imported, where the legacy migration quarantines
  /// it as blank).
  /// - Throws: ``ValidationError`` naming `assistantName`.
  public static func validateSettings(_ settings: Settings) throws(ValidationError) {
    try check("assistantName", settings.assistantName, limit: title)
    try checkNotEmpty("assistantName", Sanitizer.sanitize(settings.assistantName))
  }
}
