import Foundation

// Reading a v1 file. Frozen with the format: the record rules below are what v1 meant.
// Bounds come from today's ``Limits`` because every record must also fit schema v5.

extension WorkspaceV1 {
  /// Decodes a v1 file; bad records go to `context`'s quarantine.
  /// - Throws: ``LegacyImportError/notAWorkspace(file:detail:)`` for a structural problem.
  init(decoding document: LegacyDocument, context: inout LegacyDecodingContext)
    throws(LegacyImportError)
  {
    try document.requireOnlyKeys(Self.topLevelKeys)
    self.init(
      conversations: context.decodeConversations(try document.array("conversations")),
      memories: context.decodeRecords(
        "memories", try document.array("memories"), limit: Limits.memories,
        limitName: "Limits.memories", id: \.id, decode: Memory.init(json:)),
      settings: context.decodeSettings(document.optionalValue("settings")))
  }
}

extension WorkspaceV1.Memory {
  /// `{id, text, createdAt}`; text is non-blank and at most ``Limits/memoryText`` characters.
  init(json: LegacyJSONValue) throws(LegacyRecordProblem) {
    let record = try LegacyRecord(json, allowedFields: Self.fields, kind: "v1–v3 memory")
    self.init(
      id: try record.uuid("id"),
      text: try record.string("text", nonEmpty: true, limit: Limits.memoryText),
      createdAt: try record.date("createdAt"))
  }
}

extension WorkspaceV1.Message {
  /// `{id, role, text, createdAt}`; text may be empty (e.g. a tool call's placeholder) and is at
  /// most ``Limits/content`` characters, as schema v5 stores a message (review 19-b, F2: one
  /// longer message failed the whole migration instead of being quarantined).
  init(json: LegacyJSONValue) throws(LegacyRecordProblem) {
    let record = try LegacyRecord(json, allowedFields: Self.fields, kind: "message")
    self.init(
      id: try record.uuid("id"), role: try record.choice("role", as: WorkspaceV1.Role.self),
      text: try record.string("text", limit: Limits.content), createdAt: try record.date("createdAt"))
  }
}

extension WorkspaceV1.Settings {
  /// Every field optional, with the documented defaults; `assistantName` must not be blank, and
  /// is at most ``Limits/title`` characters, as schema v5 stores it (``Limits/validateSettings(_:)``).
  init(json: LegacyJSONValue) throws(LegacyRecordProblem) {
    let record = try LegacyRecord(json, allowedFields: Self.fields, kind: "settings")
    let defaults = Self.default
    self.init(
      assistantName: try record.optionalString("assistantName", nonEmpty: true, limit: Limits.title)
        ?? defaults.assistantName,
      responseStyle: try record.optionalChoice("responseStyle", as: WorkspaceV1.ResponseStyle.self)
        ?? defaults.responseStyle,
      calendarAccessEnabled: try record.optionalBool("calendarAccessEnabled")
        ?? defaults.calendarAccessEnabled)
  }
}

extension LegacyDecodingContext {
  /// Settings, or the defaults when the key is missing or the object is quarantined.
  mutating func decodeSettings(_ value: LegacyJSONValue?) -> WorkspaceV1.Settings {
    guard let value else { return .default }
    return decodeSingle(
      "settings", value, decode: WorkspaceV1.Settings.init(json:),
      fallback: " and the default settings were used") ?? .default
  }

  /// Conversations with their embedded messages.
  ///
  /// A conversation whose own fields are bad is quarantined whole, messages included (they
  /// are in its raw JSON). In a good conversation, each bad message is quarantined alone
  /// under `conversations[i].messages`. Message ids are unique across all conversations.
  mutating func decodeConversations(_ elements: [LegacyJSONValue]) -> [WorkspaceV1.Conversation] {
    var conversationTally = Tally(label: "conversations", limit: Int.max, limitName: "")
    var messageTally = Tally(
      label: "messages (all conversations)", limit: Limits.messagesKept,
      limitName: "Limits.messagesKept")
    var conversations: [WorkspaceV1.Conversation] = []
    for (index, element) in elements.enumerated() {
      let header = admit(
        element, collection: "conversations", index: index, tally: &conversationTally,
        id: \.id, decode: ConversationHeader.init(json:),
        quarantineNote: { json in
          guard case .object(let members) = json,
            case .array(let messages)? = members.first(where: { $0.name == "messages" })?.value,
            !messages.isEmpty
          else { return "" }
          return " with its \(messages.count) embedded message\(messages.count == 1 ? "" : "s")"
        })
      guard let header else { continue }
      var messages: [WorkspaceV1.Message] = []
      for (messageIndex, message) in header.messages.enumerated() {
        if let decoded = admit(
          message, collection: "conversations[\(index)].messages", index: messageIndex,
          tally: &messageTally, id: \.id, decode: WorkspaceV1.Message.init(json:))
        {
          messages.append(decoded)
        }
      }
      conversations.append(
        WorkspaceV1.Conversation(
          id: header.id, title: header.title, createdAt: header.createdAt,
          updatedAt: header.updatedAt, messages: messages))
    }
    return conversations
  }
}

/// A conversation's own fields, with its messages still undecoded.
private struct ConversationHeader {
  var id: UUID
  var title: String
  var createdAt: Date
  var updatedAt: Date
  var messages: [LegacyJSONValue]

  /// `{id, title, createdAt, updatedAt, messages}`; the title may be empty, and is at most
  /// ``Limits/title`` characters, as schema v5 stores a conversation. A conversation whose title is
  /// longer is quarantined whole, with its messages, as for any other bad field of its own: the
  /// quarantine keeps the record verbatim, where a cut title would not be.
  init(json: LegacyJSONValue) throws(LegacyRecordProblem) {
    let record = try LegacyRecord(
      json, allowedFields: WorkspaceV1.Conversation.fields, kind: "conversation")
    id = try record.uuid("id")
    title = try record.string("title", limit: Limits.title)
    createdAt = try record.date("createdAt")
    updatedAt = try record.date("updatedAt")
    messages = try record.array("messages")
  }
}
