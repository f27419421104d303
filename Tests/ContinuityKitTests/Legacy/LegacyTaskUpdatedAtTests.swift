import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Legacy files (v2–v4) hold no date of a task's last change: each task is read as changed
/// last at its completion, or at its creation when it has none, as schema step 0009 dates the
/// tasks a workspace stored before it.
@Suite("Legacy tasks: updatedAt")
struct LegacyTaskUpdatedAtTests {
  @Test("every task of the v2, v3 and v4 fixtures is dated updatedAt = completedAt ?? createdAt", arguments: [
    "workspace-v2.json", "workspace-v3.json", "workspace-v4.json",
  ])
  func defaulted(_ name: String) throws {
    let result = try LegacyWorkspaceImporter.decode(try legacyFixture(name), fileName: name)
    let tasks = result.workspace.tasks
    #expect(!tasks.isEmpty, "\(name) has tasks")
    for t in tasks { #expect(t.updatedAt == (t.completedAt ?? t.createdAt), "\(name): \(t.title)") }
  }

  @Test("the v4 fixture's completed task is dated at its completion, an open one at its creation")
  func v4Dates() throws {
    let result = try LegacyWorkspaceImporter.decode(try legacyFixture("workspace-v4.json"), fileName: "workspace-v4.json")
    let completed = try #require(result.workspace.tasks.first { $0.status == .completed })
    #expect(ISO8601.string(from: completed.updatedAt) == "2025-04-09T20:15:00.000Z")
    let open = try #require(result.workspace.tasks.first { $0.status == .open })
    #expect(open.updatedAt == open.createdAt)
  }
}
