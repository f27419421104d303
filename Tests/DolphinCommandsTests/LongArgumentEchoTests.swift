import Foundation
import Testing
import TestSupport

/// Some errors quoted a value from the command line in full: a 100,000-character path or
/// `--relates` value gave a 100 KB error message (400 KB from `dolphin mcp`, which names the
/// workspace path in several places). Every such message now shows the start of the value and
/// its length, and still names the field or option at fault.
@Suite("A 100,000-character argument gives a short error that says its size", .serialized)
struct LongArgumentEchoTests {
  static let long = String(repeating: "x", count: 100_000)

  struct Case: CustomTestStringConvertible, Sendable {
    var testDescription: String { name }
    var name: String
    /// The arguments, given the long value, before `--workspace`.
    var args: @Sendable (String) -> [String]
    var status: Int32
    /// What the message says of the field and the size given.
    var says: [String]
  }

  static let cases: [Case] = [
    Case(
      name: "an unknown --kind", args: { ["knowledge", "list", "--kind", $0] }, status: 2,
      says: ["--kind '", "…' (100000 characters) is not one of"]),
    Case(
      name: "a malformed id for knowledge get", args: { ["knowledge", "get", $0] }, status: 4,
      says: ["id '", "…' (100000 characters) is not a UUID"]),
    Case(
      name: "an over-long tag", args: { ["capture", "fact", "x", "--tags", $0] }, status: 4,
      says: ["--tags ('", "is 100000 characters; the limit is 48 characters"]),
    Case(
      name: "a malformed --relates", args: { ["capture", "fact", "x", "--relates", $0] }, status: 4,
      says: ["--relates '", "…' (100000 characters) must be KIND:UUID"]),
    Case(
      name: "an import file path", args: { ["import", "/tmp/" + $0] }, status: 4,
      says: ["/tmp/xxx", "… (100005 characters): cannot be reached"]),
    Case(
      name: "an analyze path", args: { ["analyze", "/tmp/" + $0] }, status: 4,
      says: ["/tmp/xxx", "… (100005 characters): cannot be reached"]),
    Case(
      name: "a --content-file path", args: { ["capture", "fact", "x", "--content-file", "/tmp/" + $0] }, status: 4,
      says: ["--content-file: /tmp/xxx", "… (100005 characters): cannot be reached"]),
    Case(
      name: "an --output path longer than a path may be", args: { ["export", "--output", "/tmp/" + $0 + "/out.json"] },
      status: 4, says: ["--output: the path /tmp/xxx", "… (100005 characters) is longer than the 4095 bytes a path may have"]),
  ]

  @Test("the message stays under 1,000 bytes, on stderr and in the JSON error, and names the field and size", arguments: cases)
  func shortMessage(_ c: Case) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "seed"]).status == 0)
    let r = try cli.run(c.args(Self.long))
    #expect(r.status == c.status, "\(r.stderr.prefix(500))")
    #expect(r.stderr.utf8.count < 1_000, "\(r.stderr.utf8.count) bytes: \(r.stderr.prefix(500))")
    for part in c.says { #expect(r.stderr.contains(part), "\(part) in \(r.stderr.prefix(500))") }
    let json = try cli.run(c.args(Self.long) + ["--json"])
    #expect(json.stdout.utf8.count < 1_500, "\(json.stdout.utf8.count) bytes: \(json.stdout.prefix(500))")
  }

  @Test("a 100,000-character --workspace gives short messages: the CLI's error, doctor's report, and dolphin mcp's warning")
  func longWorkspace() throws {
    let workspace = "/tmp/" + Self.long
    let status = try runDolphin(["status", "--workspace", workspace])
    #expect(status.status == 5)
    #expect(status.stderr.utf8.count < 1_000, "\(status.stderr.utf8.count) bytes")
    #expect(status.stderr.contains("… (100005 characters): cannot open the workspace directory"), "\(status.stderr.prefix(500))")

    let doctor = try runDolphin(["doctor", "--workspace", workspace])
    #expect(doctor.status == 5)
    #expect(doctor.stdout.utf8.count + doctor.stderr.utf8.count < 3_000, "\(doctor.stdout.prefix(500))")

    let moved = try runDolphin(["--workspace", workspace, "status"])
    #expect(moved.status == 2)
    #expect(moved.stderr.utf8.count < 1_000, "\(moved.stderr.utf8.count) bytes")

    let mcp = try MCPRun(workspace: workspace, lines: initializeLines)
    #expect(mcp.stderr.utf8.count < 2_000, "\(mcp.stderr.utf8.count) bytes: \(mcp.stderr.prefix(500))")
    #expect(mcp.stderr.contains("… (100005 characters) cannot be used"), "\(mcp.stderr.prefix(500))")
  }
}
