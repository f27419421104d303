/// "Did you mean …?" suggestions for misspelled names (options, fields, enum values, tools).
public enum NearestName {
  /// The candidate closest to `word` by edit distance (``editDistance(_:_:)``), if it is close
  /// enough: at most `min(3, max(1, word.count / 3))` edits, and at most `maximumDistance` when
  /// given. Among equally close candidates, one that starts with the same letter wins (a slip
  /// rarely hits the first letter: `tsk` is `task`, not `ask`), then the earlier candidate.
  /// Case-insensitive.
  /// - Complexity: O(*c* · *n* · *m*) for *c* candidates of length *m* and a word of length *n*.
  public static func suggest(_ word: String, in candidates: some Sequence<String>, maximumDistance: Int? = nil) -> String? {
    let w = word.lowercased()
    let allowed = min(maximumDistance ?? Int.max, min(3, max(1, w.count / 3)))
    var best: (name: String, distance: Int, otherFirst: Bool)?
    for c in candidates {
      let lowered = c.lowercased()
      let d = editDistance(w, lowered)
      guard d <= allowed else { continue }
      let otherFirst = lowered.first != w.first
      if let current = best, (current.distance, current.otherFirst ? 1 : 0) <= (d, otherFirst ? 1 : 0) { continue }
      best = (c, d, otherFirst)
    }
    return best?.name
  }

  /// Damerau–Levenshtein distance over `Character`s in its optimal string alignment form:
  /// insertions, deletions, substitutions and transpositions of two adjacent characters cost 1
  /// (`stauts` is one edit from `status`), and no substring is edited twice.
  /// - Complexity: O(*n* · *m*) time and O(*m*) space for lengths *n* and *m*.
  /// - Note: Damerau, "A technique for computer detection and correction of spelling errors",
  ///   Communications of the ACM 7(3), 1964.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a), y = Array(b)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var beforePrevious = [Int](repeating: 0, count: y.count + 1)
    var previous = Array(0...y.count)
    var current = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
      current[0] = i
      for j in 1...y.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
        if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[y.count]
  }
}
