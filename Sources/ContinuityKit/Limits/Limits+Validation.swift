import Foundation

extension Limits {
  /// Trims, lowercases and deduplicates tags (first occurrence wins), dropping empty ones.
  /// - Complexity: O(n) in the total length of the tags.
  public static func normalizeTags(_ tags: [String]) -> [String] {
    var seen = Set<String>()
    var out: [String] = []
    for raw in tags {
      let t = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
      if !t.isEmpty, seen.insert(t).inserted { out.append(t) }
    }
    return out
  }

  /// A tag to filter by, normalized as stored tags are (trimmed, lowercased).
  ///
  /// - Parameters:
  ///   - raw: the tag as given.
  ///   - label: how the caller names it in messages (`tag`, or `--tag` on the command line).
  /// - Returns: the normalized tag, 1…``tagLength`` (48) characters.
  /// - Throws: ``ValidationError`` (field `tag`) when it is empty after trimming or longer than
  ///   ``tagLength`` characters — no stored tag could match it.
  public static func tagFilter(_ raw: String, label: String = "tag") throws(ValidationError)
    -> String
  {
    let tag = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    guard !tag.isEmpty else {
      throw ValidationError(field: "tag", message: "\(label) must not be empty")
    }
    guard tag.count <= tagLength else {
      throw ValidationError(
        field: "tag", limit: tagLength, actual: tag.count,
        message: "\(label) is \(tag.count) characters; the limit is \(tagLength) characters")
    }
    return tag
  }

  /// Checks tag count and each tag's length.
  public static func validateTags(_ tags: [String], field: String = "tags") throws(ValidationError) {
    try checkCount(field, tags.count, limit: tagsPerItem, unit: "tags")
    for (i, t) in tags.enumerated() where t.count > tagLength {
      throw ValidationError(
        field: "\(field)[\(i)]", limit: tagLength, actual: t.count,
        message: "\(field)[\(i)] ('\(t.prefix(20))…') is \(t.count) characters; the limit is \(tagLength) characters")
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

  /// Checks settings.
  public static func validateSettings(_ settings: Settings) throws(ValidationError) {
    try check("assistantName", settings.assistantName, limit: title)
  }
}
