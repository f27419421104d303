import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing

/// Review 19-b, F4: an import accepted a digest whose `decisions` section held 200 lines of 50,000
/// characters each (10 MB), or one line of 200,000 characters, far beyond what the digest builder
/// writes (8 lines a section, lines cut at 240 characters), and `doctor` then called the workspace
/// healthy. Imported digests are now held to the builder's bounds, and refused naming the path.
struct ImportDigestBoundsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var edit: @Sendable (inout DigestSections, UUID) -> Void
    var error: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "200 lines of 50,000 characters",
      edit: { s, id in
        s.decisions = (0..<200).map { _ in DigestLine(text: String(repeating: "d", count: 50_000), evidenceIDs: [id]) }
      },
      error: "workspace.digests[0] (id {id}): sections.decisions has 200 lines; the digest builder writes at most 8 there; "
        + "remove this digest from the file (`dolphin context --save` stores a new one). Nothing was imported"),
    Case(
      name: "one line of 200,000 characters",
      edit: { s, id in s.decisions = [DigestLine(text: String(repeating: "d", count: 200_000), evidenceIDs: [id])] },
      error: "workspace.digests[0] (id {id}): sections.decisions[0].text is 200000 characters; the limit is 240 characters "
        + "(the digest builder cuts a line there); remove this digest from the file"),
    Case(
      name: "11 open-task lines",
      edit: { s, id in s.openTasks = (0..<11).map { DigestLine(text: "task \($0)", evidenceIDs: [id]) } },
      error: "sections.openTasks has 11 lines; the digest builder writes at most 10 there"),
    Case(
      name: "a line citing 10 ids",
      edit: { s, id in s.questions = [DigestLine(text: "Open question: which?", evidenceIDs: Array(repeating: id, count: 10))] },
      error: "sections.questions[0].evidenceIDs has 10 ids; the digest builder cites at most 9 on a line"),
  ]

  static func document() throws -> (WorkspaceExport, UUID) {
    let engine = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    let item = try engine.capture(CaptureRequest(kind: .decision, title: "Adopt Postgres 16", content: "For billing.")).item
    _ = try engine.saveDigest()
    let document = try WorkspaceExport.decode(
      try engine.exportWorkspace(generator: "dolphin test").jsonData(), fileName: "export.json")
    return (document, item.id)
  }

  @Test("a digest beyond what the builder writes is refused, naming the section or line", arguments: cases)
  func refused(_ c: Case) throws {
    var (document, item) = try Self.document()
    c.edit(&document.workspace.digests[0].sections, item)
    let digest = document.workspace.digests[0].id
    let fresh = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    #expect {
      try fresh.planImport(document, source: "export.json")
    } throws: { error in
      "\(error)".contains(c.error.replacingOccurrences(of: "{id}", with: digest.uuidString))
    }
    // Doctor's check lists it, with the digest's removal as its fix.
    let refusals = KnowledgeEngine.importRefusals(of: document)
    #expect(refusals.count == 1, "\(refusals)")
    #expect(refusals.first?.collection == "digests" && refusals.first?.id == digest)
    #expect(refusals.first?.fixStatement == "DELETE FROM digest WHERE id = '\(digest.uuidString)' COLLATE NOCASE")
  }

  @Test("at the builder's bounds a digest imports, and every digest the builder writes does")
  func atBounds() throws {
    var (document, item) = try Self.document()
    let line = DigestLine(text: String(repeating: "é", count: DigestBuilder.lineLimit), evidenceIDs: [item])
    document.workspace.digests[0].sections.decisions = Array(repeating: line, count: DigestBuilder.sectionCap)
    document.workspace.digests[0].sections.openTasks = Array(
      repeating: DigestLine(text: "t", evidenceIDs: Array(repeating: item, count: DigestBuilder.lineEvidenceCap)),
      count: DigestBuilder.taskCap)
    let fresh = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    _ = try fresh.applyImport(document, source: "export.json")
    #expect(KnowledgeEngine.importRefusals(of: document).isEmpty)
  }

  @Test("a first-version digest may hold the marker line and its ids that version wrote")
  func firstVersion() throws {
    var (document, item) = try Self.document()
    document.workspace.digests[0].algorithmVersion = "1"
    let line = DigestLine(text: "decision", evidenceIDs: [item])
    document.workspace.digests[0].sections.decisions =
      Array(repeating: line, count: DigestBuilder.sectionCap)
      + [DigestLine(text: "… and 64 more decision items", evidenceIDs: Array(repeating: item, count: Limits.idsPerList))]
    #expect(KnowledgeEngine.importRefusals(of: document).isEmpty)
    document.workspace.digests[0].sections.decisions.append(line)
    #expect(KnowledgeEngine.importRefusals(of: document).count == 1)
  }

  // Review 19-d, #12: a count of 999,999,999,999 lines left out was imported, and doctor said nothing.
  @Test("a count of lines left out over what a workspace can hold is refused naming the path and the bound")
  func omittedOverWhatAWorkspaceHolds() throws {
    var (document, _) = try Self.document()
    let digest = document.workspace.digests[0].id
    document.workspace.digests[0].sections.omitted.recentContext = 999_999_999_999
    let fresh = KnowledgeEngine(store: SQLiteWorkspaceStore.inMemory())
    #expect {
      try fresh.applyImport(document, source: "dg_big.json")
    } throws: { error in
      "\(error)".contains(
        "dg_big.json: workspace.digests[0] (id \(digest.uuidString)): sections.omitted.recentContext is 999999999999; "
          + "a digest's count of lines left out there is at most 100000, the knowledge items a workspace can hold")
    }
    #expect(try fresh.store.read { tx in try tx.listDigests() }.isEmpty)
    let refusals = KnowledgeEngine.importRefusals(of: document)
    #expect(refusals.count == 1 && refusals.first?.rule == .digestCount, "\(refusals)")
    #expect(refusals.first?.field == "sections.omitted.recentContext")
    #expect(refusals.first?.fixStatement == "DELETE FROM digest WHERE id = '\(digest.uuidString)' COLLATE NOCASE")

    // Each section at its bound imports; one more is refused.
    let bounds = ["decisions": 100_000, "openTasks": 5_000, "priorities": 105_000, "questions": 200_000]
    for (name, most) in bounds {
      var at = document
      at.workspace.digests[0].sections.omitted = DigestOmissions()
      at.workspace.digests[0].sections.omitted[section: name] = most
      #expect(KnowledgeEngine.importRefusals(of: at).isEmpty, "\(name)")
      at.workspace.digests[0].sections.omitted[section: name] = most + 1
      #expect(KnowledgeEngine.importRefusals(of: at).map(\.field) == ["sections.omitted.\(name)"], "\(name)")
    }
  }
}
