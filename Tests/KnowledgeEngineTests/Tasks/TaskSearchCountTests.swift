import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Task search says how many tasks matched, not only how many it lists.
@Suite("Task search counts")
struct TaskSearchCountTests {
  @Test("total counts every matching task; truncated says when the limit left some out")
  func totalAndTruncated() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    for title in ["Write the release notes", "Review the release checklist", "Tag the release", "Plan the release party"] {
      _ = try engine.addTask(title: title)
    }
    _ = try engine.addTask(title: "Water the plants")
    let cut = try engine.searchTasks("release", limit: 2)
    #expect(cut.results.count == 2)
    #expect(cut.total == 4)
    #expect(cut.truncated)
    let all = try engine.searchTasks("release", limit: 10)
    #expect(all.results.count == 4 && all.total == 4 && !all.truncated)
    let none = try engine.searchTasks("invoice")
    #expect(none.results.isEmpty && none.total == 0 && !none.truncated)
  }
}
