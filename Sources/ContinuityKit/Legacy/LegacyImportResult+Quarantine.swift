import Foundation

/// One record of a decoded legacy file, by its collection and id: what
/// ``LegacyImportResult/quarantining(_:from:)`` moves to the quarantine.
public enum LegacyRecordReference: Sendable, Hashable {
  case memory(UUID)
  case task(UUID)
  /// A conversation, with the messages embedded in it.
  case conversation(UUID)
  case message(UUID)
  case receipt(UUID)
  case checkpoint(UUID)
  /// The settings object; the default settings are used in its place.
  case settings
}

extension LegacyImportResult {
  /// This result with `refused` records taken out of ``workspace`` and kept verbatim in
  /// ``quarantined`` (their file element as canonical JSON, collection and index as the decoder
  /// names them), each named in ``integrityProblems``: for rules checked after decoding, such as
  /// `dolphin import`'s (review 20-a, #3: a migration stored records an import of its own export
  /// then refused), so that one record never fails the file.
  ///
  /// A refused conversation takes its messages with it (they are in its JSON); refused settings
  /// give way to the defaults.
  /// - Parameters:
  ///   - refused: the records and why each is refused (a sentence, without a final period).
  ///   - data: the file's bytes, as given to ``LegacyWorkspaceImporter/decode(_:fileName:)``.
  /// - Returns: the result without those records; unchanged when `refused` is empty.
  /// - Complexity: O(n) in the file's size (it is parsed again to find the records' text).
  public func quarantining(_ refused: [(record: LegacyRecordReference, reason: String)], from data: Data)
    -> LegacyImportResult
  {
    guard !refused.isEmpty else { return self }
    var out = self
    let root = try? LegacyJSONParser.parse([UInt8](data))
    let members: [LegacyJSONMember] = if case .object(let m)? = root { m } else { [] }
    func array(_ key: String) -> [LegacyJSONValue] {
      if case .array(let a)? = members.last(where: { $0.name == key })?.value { return a }
      return []
    }
    func idOf(_ value: LegacyJSONValue) -> UUID? {
      guard case .object(let m) = value, case .string(let text)? = m.first(where: { $0.name == "id" })?.value else {
        return nil
      }
      return UUID(uuidString: text)
    }
    /// Where the accepted record `id` sits in `collection`: elements quarantined while decoding
    /// are passed over (a duplicate id's first element may be one).
    func locate(_ collection: String, _ elements: [LegacyJSONValue], _ id: UUID) -> (Int, LegacyJSONValue)? {
      let taken = Set(quarantined.filter { $0.collection == collection }.compactMap(\.index))
      for (i, e) in elements.enumerated() where !taken.contains(i) && idOf(e) == id { return (i, e) }
      return nil
    }
    /// Removes the decoded records `matches` picks from `path` and returns where the record sits
    /// in the file's `collection`, with the decoded record's JSON for when the file's text is
    /// not found.
    func take<T: Encodable>(
      _ path: WritableKeyPath<AssistantWorkspace, [T]>, _ collection: String, _ id: UUID, _ matches: (T) -> Bool
    ) -> (String, (Int, LegacyJSONValue)?, String) {
      let fallback = out.workspace[keyPath: path].first(where: matches).flatMap { try? StableJSON.string($0) } ?? "{}"
      out.workspace[keyPath: path].removeAll(where: matches)
      return (collection, locate(collection, array(collection), id), fallback)
    }
    for (record, reason) in refused {
      var collection: String
      var found: (Int, LegacyJSONValue)?
      var fallback: String
      var note = ""
      switch record {
      case .memory(let id):
        (collection, found, fallback) = take(\.memories, "memories", id) { $0.id == id }
      case .task(let id):
        (collection, found, fallback) = take(\.tasks, "tasks", id) { $0.id == id }
      case .receipt(let id):
        (collection, found, fallback) = take(\.receipts, "receipts", id) { $0.id == id }
      case .checkpoint(let id):
        (collection, found, fallback) = take(\.checkpoints, "checkpoints", id) { $0.id == id }
      case .conversation(let id):
        collection = "conversations"
        found = locate(collection, array(collection), id)
        fallback = out.workspace.conversations.first { $0.id == id }.flatMap { try? StableJSON.string($0) } ?? "{}"
        let messages = out.workspace.messages.filter { $0.conversationID == id }.count
        if messages > 0 { note = " with its \(messages) embedded message\(messages == 1 ? "" : "s")" }
        out.workspace.conversations.removeAll { $0.id == id }
        out.workspace.messages.removeAll { $0.conversationID == id }
      case .message(let id):
        collection = "conversations"
        found = nil
        let message = out.workspace.messages.first { $0.id == id }
        fallback = message.flatMap { try? StableJSON.string($0) } ?? "{}"
        out.workspace.messages.removeAll { $0.id == id }
        for (c, conversation) in array("conversations").enumerated() {
          guard case .object(let m) = conversation, case .array(let list)? = m.first(where: { $0.name == "messages" })?.value
          else { continue }
          let name = "conversations[\(c)].messages"
          if let hit = locate(name, list, id) {
            collection = name
            found = hit
            break
          }
        }
      case .settings:
        collection = "settings"
        fallback = (try? StableJSON.string(out.workspace.settings)) ?? "{}"
        found = members.last(where: { $0.name == "settings" }).map { (-1, $0.value) }
        out.workspace.settings = .default
        note = " and the default settings were used"
      }
      let index = found.map(\.0).flatMap { $0 < 0 ? nil : $0 }
      let raw = found?.1.canonicalText ?? fallback
      out.quarantined.append(QuarantinedRecord(collection: collection, index: index, reason: reason, rawJSON: raw))
      var location = index.map { "\(collection)[\($0)]" } ?? collection
      switch record {
      case .memory(let id), .task(let id), .conversation(let id), .message(let id), .receipt(let id), .checkpoint(let id):
        location += " (id \(id.uuidString))"
      case .settings: break
      }
      out.integrityProblems.append("\(location): \(reason); the record was quarantined\(note)")
    }
    return out
  }
}
