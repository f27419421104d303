import Foundation

// Reading a v3 file. Frozen with the format.

extension WorkspaceV3 {
  /// Decodes a v3 file; bad records go to `context`'s quarantine.
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
      receipts: context.decodeReceipts(try document.array("receipts")))
  }
}

extension WorkspaceV3.Receipt {
  /// `{id, callID, tool, risk, arguments, outcome, startedAt, finishedAt, approval?}`;
  /// `callID` and `tool` non-blank, `arguments` an object; `callID`, `tool` and `arguments` (as
  /// canonical JSON text) within ``Limits/receiptCallID``, ``Limits/receiptTool`` and
  /// ``Limits/receiptArguments`` characters, as `dolphin import` bounds them.
  init(json: LegacyJSONValue) throws(LegacyRecordProblem) {
    let record = try LegacyRecord(json, allowedFields: Self.fields, kind: "receipt")
    let arguments = try record.object("arguments")
    do {
      try Limits.check("field 'arguments' (as JSON text)", arguments.canonicalText, limit: Limits.receiptArguments)
    } catch {
      throw LegacyRecordProblem(reason: error.message)
    }
    self.init(
      id: try record.uuid("id"), callID: try record.string("callID", nonEmpty: true, limit: Limits.receiptCallID),
      tool: try record.string("tool", nonEmpty: true, limit: Limits.receiptTool),
      risk: try record.choice("risk", as: WorkspaceV3.Risk.self),
      arguments: arguments,
      outcome: try record.choice("outcome", as: WorkspaceV3.Outcome.self),
      startedAt: try record.date("startedAt"), finishedAt: try record.date("finishedAt"),
      approval: try record.optionalChoice("approval", as: WorkspaceV3.Approval.self))
  }
}

extension LegacyDecodingContext {
  /// The `receipts` array of v3 and later.
  mutating func decodeReceipts(_ elements: [LegacyJSONValue]) -> [WorkspaceV3.Receipt] {
    decodeRecords(
      "receipts", elements, limit: Limits.receiptsKept, limitName: "Limits.receiptsKept",
      id: \.id, decode: WorkspaceV3.Receipt.init(json:))
  }
}
