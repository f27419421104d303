import ContinuityKit
import Foundation

extension ImportAnalysis {
  /// What a knowledge item says about the memory link, as the import will leave it.
  struct MirrorSide {
    var source: String
    var memoryID: UUID?
    /// Where it is, for messages: `workspace.knowledge[3] in the file` or `in this workspace`.
    var location: String

    /// Whether it is the mirror of memory `id`: source `legacyMemory`, `memoryID` = `id`.
    func mirrors(_ id: UUID) -> Bool { source == KnowledgeSource.legacyMemory.rawValue && memoryID == id }

    /// `its source is user and it has no memoryID`, for a refusal.
    var linkDescription: String {
      "its source is \(source) and "
        + (memoryID.map { "its memoryID is \($0.uuidString)" } ?? "it has no memoryID")
    }
  }

  /// The memory ↔ mirror links must pair up as a memory save makes them: a memory's
  /// `knowledgeID` names a knowledge item of source `legacyMemory` whose `memoryID` names that
  /// memory, and a `legacyMemory` item's `memoryID` names a memory whose `knowledgeID` names that
  /// item; only a `legacyMemory` item has a `memoryID`. Checked for every link the import
  /// writes — its own records', and the stored records' that point at a record it writes —
  /// against the records as they will be (the file's where it writes them, the workspace's
  /// otherwise), so `dolphin memory delete` never takes an unrelated item for a mirror.
  /// Links between records the import leaves alone are not checked again (`doctor` reports
  /// them). A missing memory or mirror was refused by ``checkReferences(_:)`` already.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the record's JSON path and both ids.
  func checkMirrorLinks(_ tx: WorkspaceTransaction) throws(WorkspaceError) {
    let memories = workspace.memories.enumerated().filter { isWritten("memories", $0.element.id) }
    let knowledge = workspace.knowledge.enumerated().filter { isWritten("knowledge", $0.element.id) }
    guard !memories.isEmpty || !knowledge.isEmpty else { return }

    // The links as the import leaves them: the stored ones, overlaid with the written records'.
    var memoryLink: [UUID: UUID?] = [:]
    var linkingMemories: [UUID: [UUID]] = [:]  // knowledge id → stored memories naming it
    for m in try tx.memoryIdentities() {
      memoryLink[m.id] = m.knowledgeID
      if let k = m.knowledgeID { linkingMemories[k, default: []].append(m.id) }
    }
    var storedSide: [UUID: MirrorSide] = [:]
    var storedMirrors: [UUID: [UUID]] = [:]  // memory id → stored legacyMemory items naming it
    for k in try tx.knowledgeMemoryLinks() {
      storedSide[k.id] = MirrorSide(source: k.source, memoryID: k.memoryID, location: "in this workspace")
      if k.source == KnowledgeSource.legacyMemory.rawValue { storedMirrors[k.memoryID, default: []].append(k.id) }
    }
    var writtenSide: [UUID: MirrorSide] = [:]
    for (i, k) in knowledge {
      writtenSide[k.id] = MirrorSide(
        source: k.source.rawValue, memoryID: k.memoryID, location: "workspace.knowledge[\(i)] in the file")
    }
    let writtenMemories = Set(memories.map(\.element.id))
    for (_, m) in memories { memoryLink[m.id] = m.knowledgeID }

    func side(_ id: UUID) throws(WorkspaceError) -> MirrorSide {
      if let s = writtenSide[id] { return s }
      if let s = storedSide[id] { return s }
      // Stored (checkReferences found it) without a memoryID; its source is only for the message.
      let source = try tx.knowledge(id: id)?.source.rawValue ?? "unknown"
      return MirrorSide(source: source, memoryID: nil, location: "in this workspace")
    }
    func fail(_ path: String, _ owner: UUID, _ message: String) -> WorkspaceError {
      .validation(ValidationError(field: path, message: "\(path) (in record \(owner.uuidString)): \(message)"))
    }
    let fix =
      "a memory links only to the legacyMemory item that mirrors it, and that item's memoryID names the memory; "
      + "correct or remove the link in the file"

    // A written memory's link, and a stored memory's link to a written item.
    for (i, m) in memories {
      guard let k = m.knowledgeID else { continue }
      let s = try side(k)
      if !s.mirrors(m.id) {
        throw fail(
          "workspace.memories[\(i)].knowledgeID", m.id,
          "knowledge item \(k.uuidString) (\(s.location)) is not this memory's mirror: \(s.linkDescription); \(fix)")
      }
    }
    for (i, k) in knowledge {
      let s = try side(k.id)
      for m in linkingMemories[k.id] ?? [] where !writtenMemories.contains(m) && !s.mirrors(m) {
        throw fail(
          "workspace.knowledge[\(i)]", k.id,
          "memory \(m.uuidString) in this workspace links to this item as its mirror, but \(s.linkDescription); \(fix)")
      }
    }
    // A written item's memoryID, and a stored mirror of a written memory.
    for (i, k) in knowledge {
      guard let m = k.memoryID else { continue }
      guard k.source == .legacyMemory else {
        throw fail(
          "workspace.knowledge[\(i)].memoryID", k.id,
          "only a knowledge item of source legacyMemory mirrors a memory, and this one's source is "
            + "\(k.source.rawValue); remove its memoryID (\(m.uuidString)) or correct its source in the file")
      }
      let link = memoryLink[m] ?? nil
      if link != k.id {
        throw fail(
          "workspace.knowledge[\(i)].memoryID", k.id,
          "memory \(m.uuidString) (\(writtenMemories.contains(m) ? "in the file" : "in this workspace")) does not link "
            + "back to this item: its knowledgeID is \(link?.uuidString ?? "absent"); \(fix)")
      }
    }
    try checkMirrorText(tx, memories: memories, knowledge: knowledge)
    for (i, m) in memories {
      for k in storedMirrors[m.id] ?? [] where writtenSide[k] == nil && m.knowledgeID != k {
        throw fail(
          "workspace.memories[\(i)].knowledgeID", m.id,
          "knowledge item \(k.uuidString) in this workspace mirrors this memory, but this memory's knowledgeID is "
            + "\(m.knowledgeID?.uuidString ?? "absent"); \(fix)")
      }
    }
  }

  /// A memory and its mirror carry the same text, as a memory save makes them and as no command
  /// changes one without the other (review 20-a, #4: a file whose memory text differed from its
  /// mirror's was imported, and `search --include-memories` then showed the old text under the
  /// memory's id): the mirror's `content` is the memory's `text`, its `title` the memory's first
  /// line (``KnowledgeEngine/mirrorTitle(for:)``), its `tags` the memory's. Checked for every pair
  /// the import writes either side of, against the records as they will be, once the links pair up.
  /// - Throws: ``WorkspaceError/validation(_:)`` naming the written record's JSON path, both ids
  ///   and the first field that differs.
  func checkMirrorText(
    _ tx: WorkspaceTransaction, memories: [(offset: Int, element: MemoryItem)],
    knowledge: [(offset: Int, element: KnowledgeItem)]
  ) throws(WorkspaceError) {
    let writtenItems = Dictionary(knowledge.map { ($0.element.id, $0.element) }, uniquingKeysWith: { a, _ in a })
    let writtenMemories = Dictionary(memories.map { ($0.element.id, $0.element) }, uniquingKeysWith: { a, _ in a })
    /// The first field in which `item` is not `memory`'s mirror, as `field: value vs value`.
    func difference(_ memory: MemoryItem, _ item: KnowledgeItem) -> String? {
      if item.content != memory.text {
        return "its content \(Limits.quoted(item.content, cutAt: 60)) is not the memory's text "
          + Limits.quoted(memory.text, cutAt: 60)
      }
      let title = KnowledgeEngine.mirrorTitle(for: memory.text)
      if item.title != title {
        return "its title \(Limits.quoted(item.title, cutAt: 60)) is not the memory's first line \(Limits.quoted(title, cutAt: 60))"
      }
      if item.tags != memory.tags {
        return "its tags [\(item.tags.joined(separator: ", "))] are not the memory's tags [\(memory.tags.joined(separator: ", "))]"
      }
      return nil
    }
    func fail(_ path: String, _ memory: MemoryItem, _ item: KnowledgeItem, _ memoryWhere: String, _ itemWhere: String, _ what: String)
      -> WorkspaceError
    {
      .validation(
        ValidationError(
          field: path,
          message: "\(path): memory \(memory.id.uuidString) (\(memoryWhere)) and knowledge item \(item.id.uuidString) "
            + "(\(itemWhere)), its mirror, disagree: \(what). A memory and its mirror carry the same text and tags "
            + "(search shows the memory through its mirror); make them agree in the file, or remove both"))
    }
    for (i, m) in memories {
      guard let k = m.knowledgeID else { continue }
      let written = writtenItems[k]
      var found = written
      if found == nil { found = try tx.knowledge(id: k) }
      guard let item = found, item.source == .legacyMemory, item.memoryID == m.id,
        let what = difference(m, item)
      else { continue }
      throw fail(
        "workspace.memories[\(i)]", m, item, "workspace.memories[\(i)] in the file",
        written == nil ? "in this workspace" : "in the file", what)
    }
    for (i, k) in knowledge where k.source == .legacyMemory && writtenMemories[k.memoryID ?? k.id] == nil {
      guard let m = k.memoryID, let memory = try tx.memory(id: m), memory.knowledgeID == k.id,
        let what = difference(memory, k)
      else { continue }
      throw fail("workspace.knowledge[\(i)]", memory, k, "in this workspace", "workspace.knowledge[\(i)] in the file", what)
    }
  }
}
