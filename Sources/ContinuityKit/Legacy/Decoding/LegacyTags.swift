import Foundation

/// Tag normalization for legacy memories: the schema-v5 rule (trimmed, lowercased,
/// deduplicated in first-seen order; blank tags dropped).
enum LegacyTags {
  /// The v5 form of `tags`.
  static func normalized(_ tags: [String]) -> [String] {
    var seen = Set<String>()
    var result: [String] = []
    for tag in tags {
      let normal = tag.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
      if !normal.isEmpty, seen.insert(normal).inserted { result.append(normal) }
    }
    return result
  }

  /// Refuses tags that hold a line break, tab or other control character, or a comma (as every
  /// other write path does: ``Limits/checkNewTag(_:_:)``), and tags that, normalized, are more
  /// than ``Limits/tagsPerItem`` or longer than ``Limits/tagLength`` characters.
  static func validate(_ tags: [String], field: String) throws(LegacyRecordProblem) {
    let normal = normalized(tags)
    do {
      for (i, tag) in tags.enumerated() { try Limits.checkNewTag("field '\(field)'[\(i)]", tag) }
      try Limits.checkCount(
        "field '\(field)'", normal.count, limit: Limits.tagsPerItem, unit: "tags")
      for tag in normal { try Limits.check("tag \"\(tag)\"", tag, limit: Limits.tagLength) }
    } catch {
      throw LegacyRecordProblem(reason: error.message)
    }
  }
}
