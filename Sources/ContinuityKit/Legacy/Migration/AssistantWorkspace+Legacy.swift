// The last legacy step, v4 → schema v5. Every v4 field has a v5 home; v5 fields that v4 did
// not have get their defaults. Frozen once shipped, like the other steps.

extension AssistantWorkspace {
  /// Converts a v4 workspace to schema v5.
  ///
  /// - Conversations keep their order; their messages become ``ChatMessage`` values with
  ///   `conversationID` set, listed conversation by conversation in display order.
  /// - Memories become ``MemoryItem`` with normalized tags and `knowledgeID` nil: migrated
  ///   memories are not mirrored into knowledge, so the importer creates no new records.
  /// - Tasks: `isCompleted` becomes `status`; priorities map by name; `knowledgeIDs` `[]`.
  /// - Receipts: `risk` and `approval` keep their names; `arguments` becomes canonical
  ///   sorted-key JSON text; `changedIDs` `[]` and `message` `""` (v4 did not record them).
  /// - Settings: `knowledgeItemLimit` gets its default.
  /// - Knowledge, handoffs, digests and the active handoff start empty.
  init(legacy v4: WorkspaceV4) {
    self.init(
      memories: v4.memories.map {
        MemoryItem(
          id: $0.id, text: $0.text, tags: LegacyTags.normalized($0.tags), createdAt: $0.createdAt)
      },
      tasks: v4.tasks.map {
        TaskItem(
          id: $0.id, title: $0.title, notes: $0.notes, status: $0.isCompleted ? .completed : .open,
          priority: Priority(legacy: $0.priority), createdAt: $0.createdAt,
          completedAt: $0.completedAt)
      },
      conversations: v4.conversations.map {
        Conversation(id: $0.id, title: $0.title, createdAt: $0.createdAt, updatedAt: $0.updatedAt)
      },
      messages: v4.conversations.flatMap { conversation in
        conversation.messages.map {
          ChatMessage(
            id: $0.id, conversationID: conversation.id, role: ChatRole(legacy: $0.role),
            text: $0.text, createdAt: $0.createdAt)
        }
      },
      settings: Settings(
        assistantName: v4.settings.assistantName,
        responseStyle: ResponseStyle(legacy: v4.settings.responseStyle),
        calendarAccessEnabled: v4.settings.calendarAccessEnabled),
      receipts: v4.receipts.map {
        ActivityReceipt(
          id: $0.id, callID: $0.callID, tool: $0.tool, risk: $0.risk.rawValue,
          arguments: $0.arguments.canonicalText, outcome: ReceiptOutcome(legacy: $0.outcome),
          startedAt: $0.startedAt, finishedAt: $0.finishedAt, approval: $0.approval?.rawValue)
      },
      checkpoints: v4.checkpoints.map {
        RunCheckpoint(
          id: $0.id, runID: $0.runID, step: $0.step, state: $0.state.rawValue, note: $0.note,
          createdAt: $0.createdAt)
      })
  }
}

// Exhaustive switches (not raw-value lookups), so a v5 enum change that drops a legacy value
// fails to compile instead of failing at run time.

extension Priority {
  init(legacy: WorkspaceV2.TaskPriority) {
    switch legacy {
    case .low: self = .low
    case .normal: self = .normal
    case .high: self = .high
    }
  }
}

extension ChatRole {
  init(legacy: WorkspaceV1.Role) {
    switch legacy {
    case .user: self = .user
    case .assistant: self = .assistant
    case .system: self = .system
    case .tool: self = .tool
    }
  }
}

extension ResponseStyle {
  init(legacy: WorkspaceV1.ResponseStyle) {
    switch legacy {
    case .concise: self = .concise
    case .balanced: self = .balanced
    case .detailed: self = .detailed
    }
  }
}

extension ReceiptOutcome {
  init(legacy: WorkspaceV3.Outcome) {
    switch legacy {
    case .succeeded: self = .succeeded
    case .failed: self = .failed
    case .denied: self = .denied
    case .cancelled: self = .cancelled
    }
  }
}
