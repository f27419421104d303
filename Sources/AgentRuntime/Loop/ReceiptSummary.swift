import ContinuityKit
import Foundation

/// A fixed sentence, built by rules from a run's receipts, that says what the run changed:
/// `By its receipts, this run changed nothing (1 read-only call).` or `By its receipts, this run
/// changed 2 records (knowledge_capture ×2).`
///
/// Shown and stored before a model's answer (review 19-c, item 12: a model that answered "Done!
/// I deleted all 50 items" had its claim copied into a handoff's excerpts, and on into the
/// restore brief, with nothing setting it against what ran). Model text is never a receipt: this
/// sentence reads the receipts alone, so the same receipts always give the same sentence.
public enum ReceiptSummary {
  /// How every sentence starts, so a reader (and a test) can tell it from the model's words.
  public static let prefix = "By its receipts, this run changed "

  /// The sentence for `receipts` (one run's, in call order).
  ///
  /// *Changed* counts the distinct records named by the receipts of calls that succeeded
  /// (``ActivityReceipt/changedIDs``). The parenthesis lists the calls: each local-write tool
  /// that succeeded, in the order first called, with `×N` when called more than once; then how
  /// many read-only calls succeeded, and how many calls were denied, failed or cancelled; `no
  /// tool call` for none.
  /// - Parameter receipts: the run's receipts.
  /// - Returns: one line, ending in a period.
  public static func sentence(for receipts: [ActivityReceipt]) -> String {
    let succeeded = receipts.filter { $0.outcome == .succeeded }
    let changed = Set(succeeded.flatMap(\.changedIDs)).count
    var writes: [(tool: String, count: Int)] = []
    for r in succeeded where r.risk == RiskClass.localWrite.rawValue {
      if let i = writes.firstIndex(where: { $0.tool == r.tool }) { writes[i].count += 1 } else { writes.append((r.tool, 1)) }
    }
    var parts = writes.map { $0.count == 1 ? $0.tool : "\($0.tool) ×\($0.count)" }
    let reads = succeeded.filter { $0.risk != RiskClass.localWrite.rawValue }.count
    if reads > 0 { parts.append(counted(reads, "read-only call")) }
    for outcome in [ReceiptOutcome.denied, .failed, .cancelled] {
      let n = receipts.filter { $0.outcome == outcome }.count
      if n > 0 { parts.append(counted(n, "\(outcome.rawValue) call")) }
    }
    if parts.isEmpty { parts = ["no tool call"] }
    let what = changed == 0 ? "nothing" : counted(changed, "record")
    return prefix + what + " (" + parts.joined(separator: ", ") + ")."
  }

  /// `1 record`, `2 records`.
  static func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
