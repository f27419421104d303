import Foundation

/// Relevance metrics for measuring a ranker against judged queries (pure math, no I/O).
///
/// The definitions match `trec_eval` (`ndcg_cut.k` with linear gain, `recall.k`), so figures
/// compare with BEIR results and `pytrec_eval`.
public enum RetrievalEvaluation {
  /// nDCG@k with linear gain, as `trec_eval`'s `ndcg_cut.k`.
  ///
  ///     DCG@k  = Σ_{i=1..k} rel(d_i) / log2(i + 1)
  ///     IDCG@k = the same over the judged grades sorted descending
  ///     nDCG@k = DCG@k / IDCG@k   (0 when nothing is relevant)
  ///
  /// Source: Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
  /// ACM TOIS 20(4), 2002.
  ///
  /// - Parameters:
  ///   - ranking: document ids, best first (duplicates count once, at their first rank).
  ///   - relevance: graded judgments; ids absent or graded ≤ 0 are not relevant.
  ///   - k: the cut-off (≥ 1).
  /// - Returns: a value in 0…1.
  /// - Complexity: O(*k* + *r* log *r*) for *r* judgments.
  public static func ndcg<ID: Hashable>(_ ranking: [ID], relevance: [ID: Int], at k: Int)
    -> Double
  {
    var seen = Set<ID>()
    var dcg = 0.0
    var rank = 0
    for id in ranking where rank < k {
      guard seen.insert(id).inserted else { continue }
      rank += 1
      let gain = relevance[id] ?? 0
      if gain > 0 { dcg += Double(gain) / log2(Double(rank) + 1) }
    }
    let ideal = relevance.values.filter { $0 > 0 }.sorted(by: >).prefix(k)
    var idcg = 0.0
    for (i, gain) in ideal.enumerated() { idcg += Double(gain) / log2(Double(i + 2)) }
    return idcg > 0 ? dcg / idcg : 0
  }

  /// Recall@k: the share of relevant documents found in the first `k` results.
  ///
  /// - Parameters:
  ///   - ranking: document ids, best first.
  ///   - relevance: graded judgments; grade > 0 means relevant.
  ///   - k: the cut-off (≥ 1).
  /// - Returns: a value in 0…1; 0 when nothing is relevant.
  /// - Complexity: O(*k* + *r*).
  public static func recall<ID: Hashable>(_ ranking: [ID], relevance: [ID: Int], at k: Int)
    -> Double
  {
    let relevant = Set(relevance.filter { $0.value > 0 }.keys)
    guard !relevant.isEmpty else { return 0 }
    let found = Set(ranking.prefix(k)).intersection(relevant)
    return Double(found.count) / Double(relevant.count)
  }

  /// The arithmetic mean; 0 for no values.
  public static func mean(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
  }

  /// A paired bootstrap confidence interval of the mean per-query difference `a − b`.
  ///
  /// Resamples the queries with replacement `resamples` times (Efron & Tibshirani, *An
  /// Introduction to the Bootstrap*, 1993) using SplitMix64 seeded with `seed`, so the
  /// interval is reproducible, and takes the percentile interval.
  ///
  /// - Parameters:
  ///   - a: per-query scores of one system.
  ///   - b: per-query scores of the other, same queries in the same order.
  ///   - confidence: e.g. 0.95.
  ///   - resamples: number of bootstrap samples (≥ 1).
  ///   - seed: the generator seed.
  /// - Returns: the observed mean difference and the interval; all 0 when the inputs are empty
  ///   or of different lengths.
  /// - Complexity: O(`resamples` × *n*).
  public static func pairedBootstrap(
    _ a: [Double], _ b: [Double], confidence: Double = 0.95, resamples: Int = 10_000,
    seed: UInt64 = 0
  ) -> (meanDifference: Double, lower: Double, upper: Double) {
    guard !a.isEmpty, a.count == b.count else { return (0, 0, 0) }
    let differences = zip(a, b).map { $0 - $1 }
    let n = differences.count
    var state = seed
    var means: [Double] = []
    means.reserveCapacity(max(1, resamples))
    for _ in 0..<max(1, resamples) {
      var sum = 0.0
      for _ in 0..<n {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        sum += differences[Int(z % UInt64(n))]
      }
      means.append(sum / Double(n))
    }
    means.sort()
    let alpha = (1 - confidence) / 2
    let lowerIndex = min(means.count - 1, max(0, Int((alpha * Double(means.count)).rounded(.down))))
    let upperIndex = min(
      means.count - 1, max(0, Int(((1 - alpha) * Double(means.count)).rounded(.up)) - 1))
    return (mean(differences), means[lowerIndex], means[upperIndex])
  }
}
