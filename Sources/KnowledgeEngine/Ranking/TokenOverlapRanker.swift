import Foundation

/// A deterministic fallback ranker: counts the query's words found in each record.
///
/// Text is folded (case and diacritics, no locale), split into runs of letters and digits, and
/// words of one character and a few English stop words are dropped. Each distinct query word
/// found in the title scores 2, else in the tags 1.5, else in the body (content or notes, first
/// ``bodyPrefix`` Unicode scalars) 1. Records with no match are left out. Order: score
/// (highest first), then title (UTF-8 byte order), then id.
///
/// It stands in for `hybrid-lexical-v1` until that ranker is wired into
/// ``ContinuityRanker`` (see the `RETRIEVAL-HOOK` notes there).
/// - Complexity: O(*n* · *m*) for *n* records of at most *m* characters read.
package enum TokenOverlapRanker {
  /// The mode label outputs report.
  package static let mode = "token-overlap-fallback"
  /// How much of a record's body is read.
  package static let bodyPrefix = 2_000

  static let stopWords: Set<String> = [
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on", "or",
    "that", "the", "this", "to", "was", "with",
  ]

  /// The distinct folded words of `text`, in first-seen order.
  package static func words(_ text: String) -> [String] {
    let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    var out: [String] = []
    var seen = Set<String>()
    var current = ""
    func flush() {
      if current.count > 1, !stopWords.contains(current), seen.insert(current).inserted { out.append(current) }
      current = ""
    }
    for ch in folded {
      if ch.isLetter || ch.isNumber { current.append(ch) } else { flush() }
    }
    flush()
    return out
  }

  struct Scored {
    var match: RankedMatch
    var title: String
  }

  static func score(query: [String], title: String, tags: String, body: String) -> (Double, [String]) {
    let t = Set(words(title)), g = Set(words(tags)), b = Set(words(body))
    var score = 0.0
    var matched: [String] = []
    for q in query {
      if t.contains(q) {
        score += 2
      } else if g.contains(q) {
        score += 1.5
      } else if b.contains(q) {
        score += 1
      } else {
        continue
      }
      matched.append(q)
    }
    return (score, matched)
  }

  static func ordered(_ scored: [Scored], limit: Int) -> [RankedMatch] {
    scored.sorted { a, b in
      if a.match.score != b.match.score { return a.match.score > b.match.score }
      if a.title != b.title { return a.title.utf8.lexicographicallyPrecedes(b.title.utf8) }
      return a.match.id.uuidString < b.match.id.uuidString
    }.prefix(limit).map(\.match)
  }

  /// Ranks every knowledge item for `query`.
  package static func rankKnowledge(_ query: String, limit: Int, _ tx: WorkspaceTransaction) throws -> [RankedMatch] {
    let q = words(query)
    guard !q.isEmpty else { return [] }
    var scored: [Scored] = []
    try tx.forEachKnowledgeHeader(contentPrefix: bodyPrefix) { h in
      let (s, m) = score(query: q, title: h.title, tags: h.tagsJSON, body: h.contentPrefix)
      if s > 0 { scored.append(Scored(match: RankedMatch(id: h.id, score: s, matchedTerms: m), title: h.title)) }
    }
    return ordered(scored, limit: limit)
  }

  /// Ranks the tasks (with `status` when given) for `query`.
  package static func rankTasks(_ query: String, status: TaskStatus?, limit: Int, _ tx: WorkspaceTransaction) throws
    -> [RankedMatch]
  {
    let q = words(query)
    guard !q.isEmpty else { return [] }
    var scored: [Scored] = []
    for t in try tx.tasksByID(status: status) {
      let body = String(t.notes.unicodeScalars.prefix(bodyPrefix))
      let (s, m) = score(query: q, title: t.title, tags: "", body: body)
      if s > 0 { scored.append(Scored(match: RankedMatch(id: t.id, score: s, matchedTerms: m), title: t.title)) }
    }
    return ordered(scored, limit: limit)
  }
}
