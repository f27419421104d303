import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Memories have no kind, so a kind filter cannot select them: asking for both is refused
/// instead of returning memories that no kind asked for.
@Suite("Search: kinds and memories")
struct SearchKindsAndMemoriesTests {
  @Test("kinds with includeMemories is refused naming both; each alone still works")
  func kindsWithMemoriesRefused() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use tabs for indentation"))
    _ = try engine.saveMemory(text: "Prefers tabs over spaces")
    let error = #expect(throws: ValidationError.self) {
      _ = try engine.search("tabs", kinds: [.decision], includeMemories: true)
    }
    #expect(error?.field == "includeMemories")
    #expect(error?.message.hasPrefix("includeMemories cannot be combined with kinds") == true, "\(error?.message ?? "")")
    #expect(try engine.search("tabs", kinds: [.decision]).results.map(\.kind.name) == ["decision"])
    #expect(try engine.search("tabs", includeMemories: true).results.count == 2)
    // memory_search's own call (only memories) is not a kind filter.
    #expect(try engine.search("tabs", includeMemories: true, memoriesOnly: true).results.count == 1)
  }

  // Review 18-d, M1: the library took a tag with includeMemories, left the memories out and said
  // it had searched them (scope knowledgeAndMemories); the CLI refused the pair.
  @Test("a tag with includeMemories is refused naming includeMemories; nothing about it is searched")
  func tagWithMemoriesRefused() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use tabs for indentation", tags: ["style"]))
    _ = try engine.saveMemory(text: "Prefers tabs over spaces")
    let error = #expect(throws: ValidationError.self) {
      _ = try engine.search("tabs", includeMemories: true, tag: "style")
    }
    #expect(error?.field == "includeMemories")
    #expect(error?.message.hasPrefix("includeMemories cannot be combined with tag") == true, "\(error?.message ?? "")")
    #expect(try engine.search("tabs", tag: "style").results.count == 1)
  }

  // Review 26-a, #3: the refusal said "memories have no tags", while a memory keeps its tags
  // (`memory save --tags`) and the memory search ranks on them.
  @Test("the tag refusal says the filter is for knowledge items, not that memories have no tags; memories keep and rank on tags")
  func tagRefusalIsTruthful() throws {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory(), environment: fixedEnvironment())
    let memory = try engine.saveMemory(text: "Prefers tabs over spaces", tags: ["style"]).memory
    #expect(memory.tags == ["style"])
    let error = KnowledgeEngine.searchFilterConflict(kinds: [], includeMemories: true, tag: "style")
    let message = error?.message ?? ""
    #expect(message.contains("the tag filter applies to knowledge items only"), "\(message)")
    #expect(message.contains("dolphin memory search"), "\(message)")
    #expect(!message.contains("no tags"), "\(message)")
    // The memory search reads the memory's own tags: a word found only in them finds it.
    let found = try engine.search("style", includeMemories: true, memoriesOnly: true)
    #expect(found.results.map(\.id) == [memory.id], "\(found.results)")
  }
}
