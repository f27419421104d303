import Foundation

// Reading a v2 file. Frozen with the format.

extension WorkspaceV2 {
  /// Decodes a v2 file; bad records go to `context`'s quarantine.
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
      tasks: context.decodeTasks(try document.array("tasks")))
  }
}

extension WorkspaceV2.TaskRecord {
  /// `{id, title, notes?, isCompleted, priority?, createdAt, completedAt?}`.
  ///
  /// Title non-blank and ≤ ``Limits/taskTitle``; notes ≤ ``Limits/taskNotes`` (default `""`);
  /// priority default `normal`; `completedAt` present exactly when `isCompleted` is true, and
  /// not before `createdAt`.
  init(json: LegacyJSONValue) throws(LegacyRecordProblem) {
    let record = try LegacyRecord(json, allowedFields: Self.fields, kind: "task")
    let id = try record.uuid("id")
    let title = try record.string("title", nonEmpty: true, limit: Limits.taskTitle)
    let notes = try record.optionalString("notes", limit: Limits.taskNotes) ?? ""
    let isCompleted = try record.bool("isCompleted")
    let priority =
      try record.optionalChoice("priority", as: WorkspaceV2.TaskPriority.self) ?? .normal
    let createdAt = try record.date("createdAt")
    let completedAt = try record.optionalDate("completedAt")
    if isCompleted, completedAt == nil {
      throw LegacyRecordProblem(
        reason: "isCompleted is true but completedAt is missing; a completed task records "
          + "when it was completed")
    }
    if !isCompleted, completedAt != nil {
      throw LegacyRecordProblem(
        reason: "completedAt is set but isCompleted is false; the two disagree")
    }
    // As `dolphin import` refuses it (review 18-d, S1: stored, it failed `doctor` and made the
    // workspace's own export unimportable).
    if let completedAt, completedAt < createdAt {
      throw LegacyRecordProblem(
        reason: "completedAt \(ISO8601.string(from: completedAt)) is earlier than createdAt "
          + "\(ISO8601.string(from: createdAt)); a task cannot be completed before it was created")
    }
    self.init(
      id: id, title: title, notes: notes, isCompleted: isCompleted, priority: priority,
      createdAt: createdAt, completedAt: completedAt)
  }
}

extension LegacyDecodingContext {
  /// The `tasks` array of v2 and later.
  mutating func decodeTasks(_ elements: [LegacyJSONValue]) -> [WorkspaceV2.TaskRecord] {
    decodeRecords(
      "tasks", elements, limit: Limits.tasks, limitName: "Limits.tasks", id: \.id,
      decode: WorkspaceV2.TaskRecord.init(json:))
  }
}
