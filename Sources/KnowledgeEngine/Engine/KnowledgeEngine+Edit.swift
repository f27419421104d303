import Foundation

/// The changes of one edit of a knowledge item (``KnowledgeEngine/editKnowledge(id:_:)``). A
/// field left `nil` (or a list left empty) is kept as stored; the id, source, memory link and
/// creation date never change.
///
/// Tags are applied in this order: ``tags`` replaces them all (an empty list removes every tag),
/// then ``removeTags`` takes tags away, then ``addTags`` appends the ones not already held.
/// Relationships: ``removeRelationshipsTo`` drops every relationship to those items, then
/// ``addRelationships`` appends the ones not already held.
public struct KnowledgeEdit: Sendable, Equatable {
  /// A new title (at most ``Limits/title`` characters; required, so not blank).
  public var title: String?
  /// New content (at most ``Limits/content`` characters; empty means none).
  public var content: String?
  /// A new kind.
  public var kind: KnowledgeKind?
  /// A new priority.
  public var priority: Priority?
  /// Every tag, replacing the stored ones (normalized as at capture).
  public var tags: [String]?
  /// Tags to add (normalized as at capture).
  public var addTags: [String]
  /// Tags to remove; each must be held (after ``tags``). A tag removes every held tag that the
  /// tag filter would select for it (case, accents and Greek letters in notation folded:
  /// `cafe` removes `café` and `cafe`; see `storedTags(matching:_:)`).
  public var removeTags: [String]
  /// Relationships to add; their targets must exist, and not be the item itself.
  public var addRelationships: [KnowledgeRelationship]
  /// Items whose every relationship from this item is removed; each must have one.
  public var removeRelationshipsTo: [UUID]
  /// Store new text that looks like a credential instead of refusing it — a person's explicit
  /// choice only, as ``CaptureRequest/allowCredentials``. Only the text this edit sets is checked.
  public var allowCredentials: Bool

  public init(
    title: String? = nil, content: String? = nil, kind: KnowledgeKind? = nil, priority: Priority? = nil,
    tags: [String]? = nil, addTags: [String] = [], removeTags: [String] = [],
    addRelationships: [KnowledgeRelationship] = [], removeRelationshipsTo: [UUID] = [], allowCredentials: Bool = false
  ) {
    self.title = title
    self.content = content
    self.kind = kind
    self.priority = priority
    self.tags = tags
    self.addTags = addTags
    self.removeTags = removeTags
    self.addRelationships = addRelationships
    self.removeRelationshipsTo = removeRelationshipsTo
    self.allowCredentials = allowCredentials
  }

  /// Whether the edit names no change at all.
  public var isEmpty: Bool {
    title == nil && content == nil && kind == nil && priority == nil && tags == nil && addTags.isEmpty
      && removeTags.isEmpty && addRelationships.isEmpty && removeRelationshipsTo.isEmpty
  }
}

/// What an edit stored.
public struct KnowledgeEditResult: Sendable, Equatable {
  /// The item as stored afterwards (unchanged when ``changed`` is empty).
  public var item: KnowledgeItem
  /// The fields whose stored value changed, in the order kind, title, content, tags,
  /// relationships, priority; empty when the edit left the item as it was (then neither its
  /// revision nor its `updatedAt` moved).
  public var changed: [String]
  /// Stored digests that cite the item, when its title or content changed: snapshots that still
  /// quote its earlier text (`dolphin erase --kind digests` removes them). 0 otherwise.
  public var digestsQuotingEarlierText: Int = 0
  /// The handoffs whose rule-built summary the edit rewrote (it names the item's kind and
  /// title, and marks superseded items), in listing order (newest first); empty when none.
  public var rebuiltHandoffIDs: [UUID] = []
}

extension KnowledgeEngine {
  /// Changes a knowledge item in place, in one transaction: the text is checked and sanitized
  /// as a capture checks it, the revision goes up by one, `updatedAt` becomes now (never before
  /// the last change, if the clock went back) and the search index follows. An edit that
  /// changes nothing stores nothing. Stored digests keep the text they were built from: they
  /// are snapshots.
  ///
  /// A handoff summary built by rules that names the item is rebuilt when its title or kind
  /// changes, as a deletion rebuilds it, and one that names an item this edit starts or stops
  /// superseding is rebuilt too (it marks superseded items); a summary written by hand is kept
  /// as written.
  ///
  /// The item's source stays as it was (provenance is never rewritten). An item that mirrors a
  /// legacy memory (source `legacyMemory` with a memory id) is not edited: search shows the
  /// memory through its mirror, so an edited mirror would show text the memory does not hold
  /// under the memory's id (review, s17); memories are kept as saved.
  /// - Parameters:
  ///   - id: the item to change.
  ///   - edit: the changes; see ``KnowledgeEdit`` for the order they apply in.
  /// - Returns: the item as stored and the fields that changed.
  /// - Throws: ``WorkspaceError/notFound(recordType:id:)`` for an unknown item (or a relationship
  ///   target that does not exist); ``WorkspaceError/validation(_:)`` naming the field — an empty
  ///   edit, text over its limit or blank, a tag to remove that the item does not hold, no
  ///   relationship to remove, more than ``Limits/tagsPerItem`` tags or
  ///   ``Limits/relationshipsPerItem`` relationships (field `addTags` or `addRelationships` when
  ///   the additions pass the bound, saying how many were held and added), a relationship to itself or a `supersedes`
  ///   cycle, credential-looking new text, an item already at revision ``Limits/revision``, an
  ///   item that mirrors a legacy memory (field `id`), and an item whose stored text is over a
  ///   bound this edit does not fix (its message says it is the stored field, and which option
  ///   fixes it: ``storedTextFix(recordType:id:field:)``).
  ///   Nothing is written on error.
  public func editKnowledge(id: UUID, _ edit: KnowledgeEdit) throws -> KnowledgeEditResult {
    guard !edit.isEmpty else {
      throw WorkspaceError.validation(
        ValidationError(field: "edit", message: "the edit names no change: give a title, content, kind, priority, tags or relationships"))
    }
    let title: String?
    let content: String?
    let replacement: [String]?
    let added: [String]
    let removed: [String]
    do {
      title = try edit.title.map { (t) throws(ValidationError) in
        try Limits.sanitizedInput("title", t, limit: Limits.title, trimming: true, required: true)
      }
      if let title { try Limits.checkNotEmpty("title", title) }
      content = try edit.content.map { (c) throws(ValidationError) in try Limits.sanitizedInput("content", c, limit: Limits.content) }
      replacement = try edit.tags.map { (t) throws(ValidationError) in try Limits.normalizedTags(t) }
      added = try Limits.normalizedTags(edit.addTags, field: "addTags")
      // Tags to remove name stored ones, which an earlier build may have stored with a comma.
      removed = try Limits.normalizedTags(edit.removeTags, field: "removeTags", refusingCommas: false)
    } catch { throw WorkspaceError.validation(error) }
    // Added and removed at once says nothing clear (review, s17: it reordered the tags and
    // counted as a change).
    if let both = added.first(where: removed.contains) {
      throw WorkspaceError.validation(
        ValidationError(
          field: "removeTags",
          message: "removeTags: the tag \(Limits.quoted(both, cutAt: 48, sayingLength: false)) is also to be added; "
            + "give it to one of addTags and removeTags; nothing was changed"))
    }
    // Only the text this edit sets: an item stored with --allow-credentials keeps what it holds.
    let newText = [("title", title), ("content", content)].compactMap { name, text in text.map { (name, $0) } }
      + (replacement ?? []).enumerated().map { ("tags[\($0.offset)]", $0.element) }
      + added.enumerated().map { ("addTags[\($0.offset)]", $0.element) }
    try Self.refuseCredentials(in: newText, allowed: edit.allowCredentials)
    let now = environment.now()
    return try store.write { tx in
      guard let stored = try tx.knowledge(id: id) else {
        throw WorkspaceError.notFound(recordType: "knowledge item", id: id.uuidString)
      }
      if stored.source == .legacyMemory, let memoryID = stored.memoryID {
        throw WorkspaceError.validation(
          ValidationError(
            field: "id",
            message: "knowledge item \(id.uuidString) mirrors legacy memory \(memoryID.uuidString): search shows the memory "
              + "through it, so it is not edited (memories are kept as saved); capture a new item that supersedes it, "
              + "or delete the memory and save it again; nothing was changed"))
      }
      var item = stored
      if let kind = edit.kind { item.kind = kind }
      if let title { item.title = title }
      if let content { item.content = content }
      if let priority = edit.priority { item.priority = priority }
      var tags = replacement ?? item.tags
      for tag in removed {
        // Every tag the filter `--tag <tag>` selects goes, compared as it compares them (case,
        // accents, Greek letters in notation), so none that the filter still finds is left
        // (review 21-a, 9: `--remove-tags cafe` left `café`).
        let folded = Tokenizer.fold(tag), key = Tokenizer.tagComparisonKey(tag)
        let matching = tags.filter { $0 == tag || Tokenizer.fold($0) == folded || Tokenizer.tagComparisonKey($0) == key }
        guard !matching.isEmpty else {
          throw WorkspaceError.validation(
            ValidationError(
              field: "removeTags",
              message: "removeTags: the item has no tag \(Limits.quoted(tag, cutAt: 48, sayingLength: false))"
                + (tags.isEmpty ? " (it has none)" : " (its tags: \(tags.joined(separator: ", ")))") + "; nothing was changed"))
        }
        tags.removeAll { matching.contains($0) }
      }
      let heldTags = tags.count
      for tag in added where !tags.contains(tag) { tags.append(tag) }
      // Named by what the user added, with what was held (review 18-b, B12: `--add-tags x,y`
      // was reported as "--tags has 17 tags").
      if tags.count > Limits.tagsPerItem, tags.count > heldTags {
        throw WorkspaceError.validation(
          Self.countError(
            "addTags", held: heldTags, added: tags.count - heldTags, limit: Limits.tagsPerItem, unit: "tags"))
      }
      item.tags = tags
      var relationships = item.relationships
      for target in Self.unique(edit.removeRelationshipsTo) {
        guard relationships.contains(where: { $0.targetID == target }) else {
          throw WorkspaceError.validation(
            ValidationError(
              field: "removeRelationshipsTo",
              message: "removeRelationshipsTo: the item has no relationship to \(target.uuidString); nothing was changed"))
        }
        relationships.removeAll { $0.targetID == target }
      }
      let heldRelationships = relationships.count
      for r in Self.dedupeRelationships(edit.addRelationships) where !relationships.contains(r) { relationships.append(r) }
      if relationships.count > Limits.relationshipsPerItem, relationships.count > heldRelationships {
        throw WorkspaceError.validation(
          Self.countError(
            "addRelationships", held: heldRelationships, added: relationships.count - heldRelationships,
            limit: Limits.relationshipsPerItem, unit: "relationships"))
      }
      item.relationships = relationships
      let changed = Self.changedFields(from: stored, to: item)
      guard !changed.isEmpty else { return KnowledgeEditResult(item: stored, changed: []) }
      guard stored.revision < Limits.revision else {
        throw WorkspaceError.validation(
          ValidationError(
            field: "revision", limit: Limits.revision, actual: stored.revision + 1,
            message: "revision: the item is at revision \(stored.revision), the most kept (\(Limits.revision)); capture a "
              + "new item that supersedes it instead; nothing was changed"))
      }
      item.revision = stored.revision + 1
      item.updatedAt = max(now, stored.updatedAt)
      // The text this edit gives was checked above: a bound broken now is the stored text's
      // (review 19-b, F13), but for a relationship to itself that this edit adds.
      do throws(ValidationError) { try Limits.validate(item) } catch {
        guard error.field == "relationships", edit.addRelationships.contains(where: { $0.targetID == id }) else {
          throw Self.storedKnowledgeRefusal(error, id: id, doing: "edited")
        }
        throw WorkspaceError.validation(error)
      }
      let rowid = try tx.updateKnowledge(item)
      try LexicalIndexStore.reindex(knowledge: item, rowID: rowid, in: tx)
      // A handoff summary built by rules names its items' kinds and titles: rebuilt, as a
      // deletion rebuilds it; one written by hand is the user's text and kept as written.
      // It also marks superseded items, so a `supersedes` relationship added or removed
      // rebuilds the summaries that carry its target.
      var named = Self.supersedeTargets(of: stored).symmetricDifference(Self.supersedeTargets(of: item))
      if changed.contains("title") || changed.contains("kind") { named.insert(id) }
      let rebuilt = try Self.rebuildGeneratedSummaries(carryingAny: named, tx)
      // Said, since the old text lives on there (review, s17: a credential edited out of an
      // item stayed in a digest).
      let quoting = changed.contains("title") || changed.contains("content") ? try tx.digestIDs(citingAny: [id]).count : 0
      return KnowledgeEditResult(
        item: item, changed: changed, digestsQuotingEarlierText: quoting, rebuiltHandoffIDs: rebuilt)
    }
  }

  /// The items `item` supersedes by its own relationships.
  static func supersedeTargets(of item: KnowledgeItem) -> Set<UUID> {
    Set(item.relationships.filter { $0.kind == .supersedes }.map(\.targetID))
  }

  /// The error for additions that take a list past its bound, e.g. `addTags would make 17 tags
  /// (15 held + 2 added); the limit is 16; nothing was changed`.
  static func countError(_ field: String, held: Int, added: Int, limit: Int, unit: String) -> ValidationError {
    ValidationError(
      field: field, limit: limit, actual: held + added,
      message: "\(field) would make \(held + added) \(unit) (\(held) held + \(added) added); the limit is \(limit); "
        + "nothing was changed")
  }

  /// The fields of a knowledge item that differ between `old` and `new`, in a fixed order.
  static func changedFields(from old: KnowledgeItem, to new: KnowledgeItem) -> [String] {
    var changed: [String] = []
    if old.kind != new.kind { changed.append("kind") }
    if old.title != new.title { changed.append("title") }
    if old.content != new.content { changed.append("content") }
    if old.tags != new.tags { changed.append("tags") }
    if old.relationships != new.relationships { changed.append("relationships") }
    if old.priority != new.priority { changed.append("priority") }
    return changed
  }
}
