import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// Records whose JSON columns the store cannot decode are named (table, column, record id) by
/// the integrity checks, which `status` and `doctor` report, instead of passing as healthy or
/// stopping the check with SQLite's own "malformed JSON".
@Suite("Malformed JSON columns")
struct MalformedJSONTests {
  struct Case: CustomStringConvertible, Sendable {
    var table: String
    var column: String
    var stored: String
    var problem: String
    var description: String { "\(table).\(column) = \(stored)" }
  }

  static let cases: [Case] = WorkspaceTransaction.jsonColumns.flatMap { table, column, shape -> [Case] in
    let bad: [(String, String)]
    switch shape {
    case .strings:
      bad = [("[\"A\",", "malformed JSON"), ("{}", "JSON that is not a list"), ("[1]", "a list with an entry that is not text")]
    case .ids:
      bad = [
        ("oops", "malformed JSON"), ("\"x\"", "JSON that is not a list of record ids"),
        ("[\"nope\"]", "a list with an entry that is not a record id"),
      ]
    case .object:
      bad = [("oops", "malformed JSON"), ("[]", "JSON that is not an object")]
    }
    return bad.map { Case(table: table, column: column, stored: $0.0, problem: $0.1) }
  }

  @Test("a record the store refuses to decode is named by the integrity checks", arguments: cases)
  func namesTheRecord(_ c: Case) throws {
    let store = SQLiteWorkspaceStore.inMemory()
    let engine = KnowledgeEngine(store: store, environment: fixedEnvironment())
    try SampleWorkspace.populate(engine)
    #expect(try store.read { try $0.malformedJSON() } == [], "positive control: a sound workspace has none")
    let id = try store.write { tx -> String in
      let id = try #require(try tx.db.first("SELECT id FROM \(c.table) ORDER BY rowid LIMIT 1") { $0.text(0) })
      try tx.db.run("UPDATE \(c.table) SET \(c.column) = ? WHERE id = ?", [.text(c.stored), .text(id)])
      return id
    }
    // The store refuses it…
    #expect(throws: WorkspaceError.self) { try store.read { try $0.snapshot() } }
    // …and the checks name it, without failing themselves.
    let found = try store.read { try $0.malformedJSON() }
    #expect(found.map { [$0.table, $0.column, $0.id, $0.problem, $0.stored] } == [[c.table, c.column, id, c.problem, c.stored]])
    let status = try engine.status()
    #expect(status.integrityProblems.first == "\(c.table) \(id): \(c.table).\(c.column) holds \(c.problem) ('\(c.stored)')")
  }
}
