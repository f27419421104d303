// The legacy migration steps v1 → v2 → v3 → v4. Each is frozen once shipped: a later format
// gets a new step, and an old step is never edited. Each step adds what its version
// introduced, with the documented defaults, and carries everything else over unchanged.

extension WorkspaceV2 {
  /// v1 → v2: no tasks yet.
  init(migrating v1: WorkspaceV1) {
    self.init(
      conversations: v1.conversations, memories: v1.memories, settings: v1.settings, tasks: [])
  }
}

extension WorkspaceV3 {
  /// v2 → v3: no receipts yet.
  init(migrating v2: WorkspaceV2) {
    self.init(
      conversations: v2.conversations, memories: v2.memories, settings: v2.settings,
      tasks: v2.tasks, receipts: [])
  }
}

extension WorkspaceV4 {
  /// v3 → v4: no checkpoints yet; every memory gets the tag default `[]`.
  init(migrating v3: WorkspaceV3) {
    self.init(
      conversations: v3.conversations,
      memories: v3.memories.map {
        Memory(id: $0.id, text: $0.text, tags: [], createdAt: $0.createdAt)
      },
      settings: v3.settings, tasks: v3.tasks, receipts: v3.receipts, checkpoints: [])
  }
}
