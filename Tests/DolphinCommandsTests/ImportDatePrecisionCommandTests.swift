import Foundation
import Testing
import TestSupport

/// Regression case from a review (s8/h5): a receipt whose `finishedAt` had more than
/// millisecond precision imported into an empty workspace (stored cut to milliseconds), and a
/// dry run of the same file then reported `finishedAt differs`: the file conflicted with itself.
@Suite("Import date precision", .serialized)
struct ImportDatePrecisionCommandTests {
  @Test("a file with sub-millisecond dates imports, and importing it again finds every record unchanged")
  func subMillisecondDatesDoNotConflict() throws {
    let source = CLI()
    defer { source.dir.remove() }
    #expect(try source.run(["capture", "fact", "Template"]).status == 0)
    let probe = source.dir.appending("probe.json")
    #expect(try source.run(["export", "--output", probe.path]).status == 0)
    var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: probe)) as? [String: Any])
    var workspace = try #require(document["workspace"] as? [String: Any])
    workspace["receipts"] = [
      [
        "id": "00000000-0000-0000-0000-000000000901", "callID": "call-fine", "tool": "knowledge_capture",
        "risk": "localWrite", "arguments": "{}", "outcome": "succeeded", "changedIDs": [String](),
        "startedAt": "2026-11-30T12:07:36.1234567Z", "finishedAt": "2026-11-30T12:07:36.6000004Z", "message": "",
      ]
    ]
    var items = try #require(workspace["knowledge"] as? [[String: Any]])
    items[0]["createdAt"] = "2026-11-30T12:00:00.9999999Z"
    items[0]["updatedAt"] = "2026-11-30T12:00:01.0000001+00:00"
    workspace["knowledge"] = items
    document["workspace"] = workspace
    let file = source.dir.appending("fine.json")
    try JSONSerialization.data(withJSONObject: document).write(to: file)

    let cli = CLI()
    defer { cli.dir.remove() }
    let imported = try cli.run(["import", file.path])
    try #require(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
    let again = try cli.run(["import", file.path, "--dry-run"])
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    #expect(!again.stdout.contains("differ"), "\(again.stdout)")
    let plan = try cli.json(["import", file.path, "--dry-run"])
    #expect(((plan["plan"] as? [String: Any])?["conflicts"] as? [Any])?.isEmpty == true, "\(plan)")
    let activity = try cli.json(["activity"])
    let receipt = try #require((activity["receipts"] as? [[String: Any]])?.first)
    #expect(receipt["finishedAt"] as? String == "2026-11-30T12:07:36.600Z")
    #expect(receipt["startedAt"] as? String == "2026-11-30T12:07:36.123Z")
  }
}
