import ContinuityKit
import Foundation
import Testing
import TestSupport

/// The warning `dolphin export` prints for a stored supersede cycle: ids, relationships, fix.
@Suite("Export: supersede cycles")
struct WorkspaceExportSupersedeCycleTests {
  static func document(_ edges: [(Int, Int)], items: Int = 3) -> WorkspaceExport {
    var workspace = AssistantWorkspace()
    workspace.knowledge = (1...items).map { n in
      KnowledgeItem(
        id: sequentialID(n), kind: .decision, title: "Decision \(n)",
        relationships: edges.filter { $0.0 == n }.map { KnowledgeRelationship(kind: .supersedes, targetID: sequentialID($0.1)) },
        createdAt: Date(timeIntervalSince1970: 1_790_000_000))
    }
    return WorkspaceExport(exportedAt: Date(timeIntervalSince1970: 1_790_000_000), generator: "test", workspace: workspace, quarantine: [])
  }

  @Test("no cycle, no warning; an ordinary chain is not a cycle")
  func none() {
    let d = Self.document([(2, 1), (3, 2)])
    #expect(d.supersedeCycles.isEmpty)
    #expect(d.supersedeCycleWarnings(file: "x.json").isEmpty)
  }

  @Test("a two-item cycle names both ids, both relationships, the refusal and the fix")
  func twoItems() throws {
    let d = Self.document([(1, 2), (2, 1), (3, 1)])
    let (a, b) = (sequentialID(1).uuidString, sequentialID(2).uuidString)
    #expect(d.supersedeCycles == [[sequentialID(1), sequentialID(2)]])
    let warning = try #require(d.supersedeCycleWarnings(file: "/tmp/x.json").first)
    #expect(warning.hasPrefix("knowledge \(a), \(b) supersede each other in a cycle (\(a) supersedes \(b); \(b) supersedes \(a))"), "\(warning)")
    #expect(!warning.contains(sequentialID(3).uuidString), "a relationship into the cycle is not part of it")
    #expect(warning.contains("`dolphin import` refuses a file holding a supersede cycle"))
    #expect(warning.contains("`dolphin import /tmp/x.json --on-conflict replace`"))
    #expect(d.supersedeCycleWarnings(file: nil).first?.contains("`dolphin import <file> --on-conflict replace`") == true)
  }

  @Test("an item superseding itself")
  func selfCycle() throws {
    let d = Self.document([(3, 3)])
    let id = sequentialID(3).uuidString
    let warning = try #require(d.supersedeCycleWarnings(file: nil).first)
    #expect(warning.hasPrefix("knowledge \(id) supersedes itself (\(id) supersedes \(id))"), "\(warning)")
  }
}
