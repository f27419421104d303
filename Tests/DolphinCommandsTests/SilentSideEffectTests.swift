import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Review 18-b (B14): two messages hid a side effect or its cause.
@Suite("Side effects are said", .serialized)
struct SilentSideEffectTests {
  static func engine(_ cli: CLI) throws -> KnowledgeEngine {
    KnowledgeEngine(
      store: try SQLiteWorkspaceStore.open(directory: URL(fileURLWithPath: cli.workspace), creation: .immediately),
      environment: fixedEnvironment())
  }

  @Test("context --save at the digest bound names the oldest digest it dropped (text and JSON)")
  func contextSaveNamesDropped() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let engine = try Self.engine(cli)
    _ = try engine.capture(CaptureRequest(kind: .decision, title: "Use SQLite"))
    let first = try engine.saveDigestReportingDropped().digest.id
    for _ in 1..<Limits.digestsKept { _ = try engine.saveDigestReportingDropped() }
    let second = try #require(try engine.listDigests().map(\.id).dropLast().last)
    let text = try cli.run(["context", "--save"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout.contains("Dropped the oldest digest(s) to keep at most 50: \(first.uuidString)."), "\(text.stdout)")
    let json = try cli.json(["context", "--save"])
    #expect(json["droppedDigestIDs"] as? [String] == [second.uuidString], "\(json)")
  }

  @Test("context --save below the bound says nothing was dropped by saying nothing, and JSON lists none")
  func contextSaveBelowBound() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.run(["capture", "decision", "Use SQLite"])
    let text = try cli.run(["context", "--save"])
    #expect(!text.stdout.contains("Dropped"), "\(text.stdout)")
    #expect((try cli.json(["context", "--save"])["droppedDigestIDs"] as? [String]) == [])
  }

  @Test("handoff create --auto with a full knowledge list says the list was full, not only 0 auto-selected")
  func autoWithFullList() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let engine = try Self.engine(cli)
    let ids = try (0..<Limits.idsPerList).map {
      try engine.capture(CaptureRequest(kind: .fact, title: "Workspace store fact \($0)")).item.id.uuidString
    }
    _ = try engine.capture(CaptureRequest(kind: .fact, title: "Workspace store fact extra"))
    let r = try cli.run(["handoff", "create", "--focus", "workspace store", "--auto"] + ids.flatMap { ["--knowledge", $0] })
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.contains(
        "0 knowledge item(s), 0 open task(s) (the knowledge list holds 64 ids, the most a handoff carries, so no more could be added)."),
      "\(r.stdout)")
    let some = try cli.run(["handoff", "create", "--focus", "workspace store", "--auto"])
    #expect(!some.stdout.contains("the most a handoff carries"), "\(some.stdout)")
  }
}
