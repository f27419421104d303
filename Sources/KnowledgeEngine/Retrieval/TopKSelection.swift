/// A bounded selection of the best `capacity` candidates, keeping everything tied with the
/// worst kept one, so the final order can break those ties on fields it has not read yet.
///
/// Candidates compare by coverage tier (more distinct query terms matched is better; every
/// candidate of a long query has tier 0), then by score (higher is better), then by kind order
/// (lower is better).
/// - Complexity: O(log *k*) per insertion; memory O(*k* + ties).
struct TopKSelection {
  struct Candidate {
    var document: Int64
    /// How many distinct query terms the document matched, when the query is short enough to
    /// be ordered by it first (``HybridLexicalRanker/Parameters/coverageOrderMaximumTerms``);
    /// otherwise 0.
    var tier: Int
    var score: Double
    var kindOrder: Int
    /// BM25F sum over the matched query terms (fuzzy variants included).
    var base: Double
    var phrase: Double
    /// Bit *g* set when query term *g* matched.
    var matchedGroups: UInt64
  }

  let capacity: Int
  /// A binary min-heap: `heap[0]` is the worst kept candidate.
  private(set) var heap: [Candidate] = []
  /// Candidates beyond the capacity with the same key as `heap[0]`.
  private(set) var ties: [Candidate] = []

  init(capacity: Int) {
    self.capacity = max(1, capacity)
    heap.reserveCapacity(self.capacity)
  }

  var isFull: Bool { heap.count >= capacity }

  /// The tier and score a new candidate must reach (ties included) to be kept, once full.
  var threshold: (tier: Int, score: Double)? {
    guard isFull, let worst = heap.first else { return nil }
    return (worst.tier, worst.score)
  }

  /// Whether a candidate of `tier` scoring at most `bound` could still be kept.
  func admits(tier: Int, bound: Double) -> Bool {
    guard let threshold else { return true }
    return tier != threshold.tier ? tier > threshold.tier : bound >= threshold.score
  }

  /// Everything kept: the best `capacity` and the candidates tied with the worst of them.
  var candidates: [Candidate] { heap + ties }

  mutating func insert(_ candidate: Candidate) {
    guard isFull else {
      heap.append(candidate)
      siftUp(heap.count - 1)
      return
    }
    let worst = heap[0]
    if Self.isWorse(candidate, than: worst) { return }
    if !Self.isWorse(worst, than: candidate) {
      ties.append(candidate)
      return
    }
    heap[0] = candidate
    siftDown(0)
    if Self.isWorse(worst, than: heap[0]) {
      ties.removeAll(keepingCapacity: true)
    } else {
      ties.append(worst)
    }
  }

  static func isWorse(_ a: Candidate, than b: Candidate) -> Bool {
    if a.tier != b.tier { return a.tier < b.tier }
    return a.score != b.score ? a.score < b.score : a.kindOrder > b.kindOrder
  }

  private mutating func siftUp(_ index: Int) {
    var child = index
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.isWorse(heap[child], than: heap[parent]) else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ index: Int) {
    var parent = index
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var worst = parent
      if left < heap.count && Self.isWorse(heap[left], than: heap[worst]) { worst = left }
      if right < heap.count && Self.isWorse(heap[right], than: heap[worst]) { worst = right }
      if worst == parent { return }
      heap.swapAt(parent, worst)
      parent = worst
    }
  }
}
