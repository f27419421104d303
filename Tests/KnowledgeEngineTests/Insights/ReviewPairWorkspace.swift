import ContinuityKit
import Foundation
import Testing
import TestSupport

@testable import KnowledgeEngine

/// Two decision titles from a review, and the end of the possible conflict's message that should
/// name them, after the shared tag (nil: no possible conflict): the form reviews 27-a and later
/// hand their insight findings in.
struct ReviewPair: CustomStringConvertible, Sendable {
  var a: String
  var b: String
  /// The end of the possible conflict's message after the shared tag, or nil for none.
  var how: String?
  var description: String { "\(a) / \(b)" }

  /// Each pair as two title-only decisions under a tag of its own (`pair0`, `pair1`, …), with
  /// the ids `2k + 1` and `2k + 2` (``sequentialID(_:)``).
  static func items(_ pairs: [ReviewPair]) -> [KnowledgeItem] {
    pairs.enumerated().flatMap { k, pair in
      [
        InsightsTests.item(2 * k + 1, .decision, pair.a, tags: ["pair\(k)"]),
        InsightsTests.item(2 * k + 2, .decision, pair.b, tags: ["pair\(k)"]),
      ]
    }
  }

  /// The insight report of ``items(_:)``, after checking that exactly the pairs with a `how`
  /// are possible conflicts, each with one message that `matches` (given the pair, its tag
  /// index and the message).
  static func checkConflicts(
    _ pairs: [ReviewPair], version: String, matches: (ReviewPair, Int, String) -> Bool
  ) throws -> InsightReport {
    let report = try InsightsTests.engine(items(pairs)).insights()
    #expect(report.algorithmVersion == version)
    let conflicts = report.insights.filter { $0.rule == .possibleConflict }
    for (k, pair) in pairs.enumerated() {
      let ids = [sequentialID(2 * k + 1), sequentialID(2 * k + 2)]
      let found = conflicts.filter { Set($0.evidenceIDs) == Set(ids) }
      guard pair.how != nil else {
        #expect(found.isEmpty, "\(pair): \(found.map(\.message))")
        continue
      }
      let message = try #require(found.first?.message, "\(pair): \(conflicts.map(\.message))")
      #expect(matches(pair, k, message), "\(message)")
    }
    #expect(conflicts.count == pairs.filter { $0.how != nil }.count, "\(conflicts.map(\.message))")
    return report
  }
}
