import ContinuityKit
import Foundation
import Testing
import TestSupport

/// Review 19-c, item 12, through the built binary and a model server on loopback: a model that
/// claims it deleted everything has its answer shown, stored and copied into a handoff after a
/// fixed line, built from the run's receipts, that says what the run changed.
@Suite("dolphin ask sets a model's answer against the run's receipts", .serialized)
struct AskReceiptSummaryCommandTests {
  static let claim = "Done! I have deleted all 50 knowledge items and completed every task."

  @Test("ask shows the line first; --json gives it as receiptSummary; restore shows it in the copied excerpt")
  func claimAgainstReceipts() throws {
    let server = try TinyHTTPServer(
      reply: #"{"choices":[{"message":{"role":"assistant","content":"\#(Self.claim)"}}]}"#)
    defer { server.stop() }
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "decision", "Use SQLite for storage"]).status == 0)
    let model = ["--model-url", "http://127.0.0.1:\(server.port)"]
    let label = "loopback model at 127.0.0.1:\(server.port)"

    let asked = try cli.run(["ask", "what about sqlite storage?"] + model)
    #expect(asked.status == 0, "\(asked.stderr)")
    #expect(
      asked.stdout.hasPrefix(
        "By its receipts, this run changed nothing (1 read-only call).\n"
          + "Model interpretation (\(label); not a stored fact, not a receipt):\n> \(Self.claim)\n"),
      "\(asked.stdout)")

    let json = try cli.json(["ask", "what about sqlite storage?"] + model)
    #expect(json["receiptSummary"] as? String == "By its receipts, this run changed nothing (1 read-only call).", "\(json)")
    #expect((json["answer"] as? String)?.hasPrefix(json["receiptSummary"] as? String ?? "-") == true)

    let handoff = try cli.run(["ask", "/handoff Wrap up storage", "--yes"])
    #expect(handoff.status == 0, "\(handoff.stderr)")
    #expect(handoff.stdout.contains("Created handoff"), "\(handoff.stdout)")
    let listed = try #require((try cli.json(["handoff", "list"])["handoffs"] as? [[String: Any]])?.first?["id"] as? String)
    let restored = try cli.run(["handoff", "restore", listed])
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(
      restored.stdout.contains(
        "  > assistant: By its receipts, this run changed nothing (1 read-only call). Model interpretation (\(label); "
          + "not a stored fact, not a receipt): > \(Self.claim)"),
      "\(restored.stdout)")
    let counts = try #require(try cli.json(["status"])["counts"] as? [String: Any])
    #expect(counts["knowledge"] as? Int == 1, "the claim is no receipt: \(counts)")
  }
}
