import Foundation

// Reading a v4 file. Frozen with the format.

extension WorkspaceV4 {
  /// Decodes a v4 file; bad records go to `context`'s quarantine.
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
      settings: context.decodeSettings(document.optionalValue("settings")),
      tasks: context.decodeTasks(try document.array("tasks")),
      receipts: context.decodeReceipts(try document.array("receipts")),
      checkpoints: context.decodeRecords(
        "checkpoints", try document.array("checkpoints"), limit: Limits.checkpointsKept,
        limitName: "Limits.checkpointsKept", id: \.id, decode: Checkpoint.init(json:)))
  }
}

extension WorkspaceV4.Memory {
  /// `{id, text, tags?, createdAt}`; as v1, plus tags (default `[]`) that must fit
  /// ``Limits/tagsPerItem`` and ``Limits/tagLength`` once normalized (``LegacyTags``).
  init(json: LegacyJSONValue) throws(LegacyRecordProblem) {
    let record = try LegacyRecord(json, allowedFields: Self.fields, kind: "v4 memory")
    let id = try record.uuid("id")
    let text = try record.string("text", nonEmpty: true, limit: Limits.memoryText)
    let tags = try record.optionalStrings("tags") ?? []
    try LegacyTags.validate(tags, field: "tags")
    self.init(id: id, text: text, tags: tags, createdAt: try record.date("createdAt"))
  }
}

extension WorkspaceV4.Checkpoint {
  /// `{id, runID, step, state, note?, createdAt}`; `step` ≥ 0, note default `""` and at most
  /// ``Limits/checkpointNote`` characters (as `dolphin import` bounds it).
  init(json: LegacyJSONValue) throws(LegacyRecordProblem) {
    let record = try LegacyRecord(json, allowedFields: Self.fields, kind: "checkpoint")
    self.init(
      id: try record.uuid("id"), runID: try record.uuid("runID"),
      step: try record.integer("step", atLeast: 0),
      state: try record.choice("state", as: WorkspaceV4.RunState.self),
      note: try record.optionalString("note", limit: Limits.checkpointNote) ?? "", createdAt: try record.date("createdAt"))
  }
}
