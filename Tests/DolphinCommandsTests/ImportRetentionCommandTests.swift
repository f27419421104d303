import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 19-b, F1 (reproduced as the review did): a default `import` of 50 digests and 10,000
/// chat messages dated 2020 into a workspace holding its own of today printed "2 oldest existing
/// will be pruned" and deleted the workspace's own digests and messages. The newest are now kept by
/// date across both sides: the file's older records are left out, and the plan says so.
@Suite("import keeps the newest digests and messages by date", .serialized)
struct ImportRetentionCommandTests {
  @Test("an export of older digests and 10,000 older messages leaves the workspace's own newest in place")
  func olderRecordsLeftOut() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for i in 1...5 { #expect(try cli.run(["capture", "fact", "alpha \(i)"]).status == 0) }
    #expect(try cli.run(["context", "--save"]).status == 0)
    #expect(try cli.run(["ask", "/search alpha"]).status == 0)
    let counts = try #require(try cli.json(["status"])["counts"] as? [String: Any])
    let ownDigests = try #require(counts["digest"] as? Int)
    let ownMessages = try #require(counts["message"] as? Int)
    try #require(ownDigests > 0 && ownMessages > 0, "\(counts)")

    let export = try cli.run(["export"])
    var document = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
    var ws = try #require(document["workspace"] as? [String: Any])
    let template = try #require((ws["digests"] as? [[String: Any]])?.first)
    let conversation = try #require((ws["conversations"] as? [[String: Any]])?.first?["id"] as? String)
    let ownDigestIDs = Set(((ws["digests"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
    func date(_ i: Int) -> String { ISO8601.string(from: Date(timeIntervalSince1970: 1_577_836_800 + Double(i))) }
    ws["digests"] = (0..<Limits.digestsKept).map { i -> [String: Any] in
      var d = template
      d["id"] = String(format: "00000000-0000-4000-8000-%012X", 0xD000 + i)
      d["createdAt"] = date(i)
      return d
    }
    ws["messages"] = (0..<Limits.messagesKept).map { i -> [String: Any] in
      [
        "id": String(format: "00000000-0000-4000-8000-%012X", 0x100000 + i), "conversationID": conversation,
        "role": i % 2 == 0 ? "user" : "assistant", "text": "old message \(i)", "createdAt": date(i),
      ]
    }
    ws["receipts"] = []
    ws["checkpoints"] = []
    document["workspace"] = ws
    let path = cli.dir.appending("old.json").path
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))

    let r = try cli.run(["import", path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.contains(
        "(\(ownDigests) of the file's digests \(ownDigests == 1 ? "is" : "are") older than the newest 50 kept and will not be imported)"),
      "\(r.stdout)")
    #expect(
      r.stdout.contains(
        "(\(ownMessages) of the file's messages \(ownMessages == 1 ? "is" : "are") older than the newest 10000 kept and will "
          + "not be imported)"),
      "\(r.stdout)")
    #expect(!r.stdout.contains("oldest existing will be pruned"), "\(r.stdout)")
    #expect(r.stdout.contains("Kept the newest 50 digests: \(ownDigests) of the file's, older, were not imported."), "\(r.stdout)")

    // The workspace's own digests and messages are still there, and they are the newest.
    let after = try cli.run(["export"])
    let afterWS = try #require(
      (try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])?["workspace"] as? [String: Any])
    let digests = try #require(afterWS["digests"] as? [[String: Any]])
    #expect(digests.count == Limits.digestsKept)
    #expect(ownDigestIDs.isSubset(of: Set(digests.compactMap { $0["id"] as? String })), "the workspace's own digests are kept")
    let messages = try #require(afterWS["messages"] as? [[String: Any]])
    #expect(messages.count == Limits.messagesKept)
    #expect(messages.filter { ($0["text"] as? String)?.hasPrefix("old message") == false }.count == ownMessages)

    // The JSON plan carries the count: importing the file again leaves the same older ones out.
    let dry = try cli.run(["import", path, "--dry-run", "--json"])
    let plan = try #require(
      (try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])?["plan"] as? [String: Any])
    let collections = try #require(plan["collections"] as? [[String: Any]])
    let planned = try #require(collections.first { $0["name"] as? String == "digests" })
    #expect(planned["new"] as? Int == ownDigests && planned["same"] as? Int == Limits.digestsKept - ownDigests, "\(planned)")
    #expect(planned["olderThanKept"] as? Int == ownDigests && planned["pruned"] as? Int == 0, "\(planned)")
  }
}
