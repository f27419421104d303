import Foundation
import Testing
import TestSupport

/// Regression (review, s14): a stored digest citing a record deleted outside dolphin
/// (`sqlite3 workspace.sqlite "DELETE FROM knowledge WHERE …"`) passed `dolphin doctor` as
/// "References: ok", though the digest still quotes the deleted text. Doctor now names the digest
/// and the missing ids. Dolphin's own deletions and erases remove every digest citing what they
/// remove (DESIGN: digests hold copies of its text), so no state dolphin leaves is flagged.
@Suite("doctor names digests citing records deleted outside dolphin", .serialized)
struct DigestCitationDoctorTests {
  func sqlite3(_ cli: CLI, _ sql: String) throws {
    let run = try runProcess("/usr/bin/env", ["sqlite3", cli.workspace + "/workspace.sqlite", sql])
    try #require(run.status == 0, "sqlite3 is needed to edit the workspace outside dolphin: \(run.stderr)")
  }

  func capture(_ cli: CLI, _ args: [String]) throws -> String {
    let r = try cli.json(["capture"] + args)
    return try #require((r["item"] as? [String: Any])?["id"] as? String, "\(r)")
  }

  @Test("a knowledge item deleted with sqlite3: doctor names the digest and the missing id, exit 5")
  func deletedOutside() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let gone = try capture(cli, ["decision", "Adopt Postgres 16", "--content", "Replaces MySQL in billing."])
    _ = try capture(cli, ["goal", "Ship billing v2 by June"])
    let saved = try cli.json(["context", "--save"])
    let digestID = try #require((saved["digest"] as? [String: Any])?["id"] as? String, "\(saved)")
    try sqlite3(cli, "DELETE FROM knowledge WHERE id = '\(gone)'")

    let doctor = try cli.run(["doctor"])
    #expect(doctor.status == 5)
    #expect(doctor.stdout.contains("References: 1 problem(s)"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("digest \(digestID) cites 1 missing record(s): \(gone)."), "\(doctor.stdout)")
    let json = try JSONSerialization.jsonObject(with: Data(try cli.run(["doctor", "--json"]).stdout.utf8)) as? [String: Any]
    let problems = json?["referenceProblems"] as? [String] ?? []
    #expect(problems.count == 1 && problems[0].hasPrefix("digest \(digestID) cites 1 missing record(s): \(gone)."), "\(problems)")

    // The way out the problem names.
    #expect(try cli.run(["erase", "--kind", "digests", "--yes"]).status == 0)
    #expect(try cli.run(["doctor"]).stdout.contains("References: ok"))
  }

  @Test("what dolphin's own deletions and erases leave is not flagged")
  func dolphinsOwnDeletions() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let deleted = try capture(cli, ["decision", "Adopt Postgres 16", "--content", "Replaces MySQL in billing."])
    _ = try capture(cli, ["goal", "Ship billing v2 by June", "--priority", "high"])
    #expect(try cli.run(["task", "add", "Migrate the invoices table"]).status == 0)
    #expect(try cli.run(["memory", "save", "The billing database lives on db-2"]).status == 0)
    let handoff = try cli.json(["handoff", "create", "--focus", "Billing migration"])
    let handoffID = try #require((handoff["handoff"] as? [String: Any])?["id"] as? String, "\(handoff)")
    #expect(try cli.run(["handoff", "restore", handoffID]).status == 0)
    #expect(try cli.run(["context", "--save"]).status == 0)

    #expect(try cli.run(["knowledge", "delete", deleted, "--yes"]).status == 0)
    #expect(try cli.run(["context", "--save"]).status == 0)
    #expect(try cli.run(["erase", "--kind", "tasks", "--yes"]).status == 0)
    #expect(try cli.run(["context", "--save"]).status == 0)
    #expect(try cli.run(["erase", "--kind", "handoffs", "--yes"]).status == 0)
    #expect(try cli.run(["context", "--save"]).status == 0)
    #expect(try cli.run(["erase", "--kind", "memories", "--yes"]).status == 0)

    let doctor = try cli.run(["doctor"])
    #expect(doctor.stdout.contains("References: ok"), "\(doctor.stdout)")
    #expect(doctor.status == 0 && doctor.stdout.hasSuffix("Doctor: healthy.\n"), "\(doctor.stdout)")
  }
}
