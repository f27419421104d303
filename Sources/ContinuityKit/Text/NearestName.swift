/// "Did you mean …?" suggestions for misspelled names (options, fields, enum values, tools).
public enum NearestName {
  /// The candidate closest to `word` by edit distance, if it is close enough: at most
  /// `min(3, max(1, word.count / 3))` edits. Among equally close candidates, one that starts
  /// with the same letter wins (a slip rarely hits the first letter: `tsk` is `task`, not `ask`),
  /// then the earlier candidate. Case-insensitive.
  /// - Complexity: O(*c* · *n* · *m*) for *c* candidates of length *m* and a word of length *n*.
  public static func suggest(_ word: String, in candidates: some Sequence<String>) -> String? {
    let w = word.lowercased()
    let allowed = min(3, max(1, w.count / 3))
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

  /// Levenshtein distance over `Character`s (insertions, deletions, substitutions cost 1).
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a), y = Array(b)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var prev = Array(0...y.count)
    var cur = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
      cur[0] = i
      for j in 1...y.count {
        cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
      }
      swap(&prev, &cur)
    }
    return prev[y.count]
  }
}
