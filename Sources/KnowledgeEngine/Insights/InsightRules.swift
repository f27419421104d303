import Foundation

/// Evaluates the insight rules (see ``InsightRule``) over one transaction.
///
/// Rule-based and synchronous: nothing runs in the background and nothing is stored. The
/// knowledge table is read once, as a light projection (id, kind, title, priority, creation
/// time, tags; the first characters of content for decisions and preferences only), the
/// relationship table once, and the task table through two bounded queries. The similarity
/// rules join titles with ``TrigramSets`` (candidates from trigram postings, never all pairs).
/// Messages are built only for the insights that can be shown.
enum InsightRules {
  static let algorithm = "rule-based-insights"
  static let version = "1"
  /// Titles quoted by an aggregate message.
  static let quotedTitles = 3

  /// An insight with its position inside its rule, built on demand.
  struct Ranked {
    var key: [String]
    var make: () -> Insight
  }

  /// The insights of one rule, all of the same priority: the first ``Limits/insights`` by key,
  /// and how many fired in all.
  struct Fired {
    var rule: InsightRule
    var priority: Priority
    var total: Int
    var ranked: [Ranked]

    init(_ rule: InsightRule, _ priority: Priority, _ all: [Ranked]) {
      self.rule = rule
      self.priority = priority
      total = all.count
      ranked = Array(all.sorted { $0.key.lexicographicallyPrecedes($1.key) }.prefix(Limits.insights))
    }
  }

  /// What the rules read from the knowledge table, in one pass.
  struct Scan {
    var headers: [KnowledgeHeader] = []
    /// Titles of the items in `contradicts` relationships, by id.
    var contradictionTitles: [UUID: String] = [:]
    /// Every item's title.
    var titles = TrigramSets()
    /// The titles of decisions and preferences, and the header index of each.
    var conflictTitles = TrigramSets()
    var conflictHeader: [Int] = []
    var untagged = BoundedSelection<KnowledgeHeader>(capacity: Limits.idsPerList, by: KnowledgeOrder.importance)
    var unrelated = BoundedSelection<KnowledgeHeader>(capacity: Limits.idsPerList, by: KnowledgeOrder.importance)
    var newer = BoundedSelection<KnowledgeHeader>(capacity: Limits.idsPerList - 1, by: KnowledgeOrder.creation)
  }

  static func evaluate(
    _ tx: WorkspaceTransaction, now: Date, minimumPriority: Priority, thresholds t: InsightThresholds = .v1
  ) throws -> InsightReport {
    var related = Set<UUID>()
    var linked = Set<[UUID]>()
    var contradictions: [[UUID]] = []
    var contradictionSet = Set<[UUID]>()
    for e in try tx.relationshipEdges() {
      guard let source = UUID(uuidString: e.source), let target = UUID(uuidString: e.target) else { continue }
      related.insert(source)
      related.insert(target)
      let pair = orderedPair(source, target)
      linked.insert(pair)
      if e.kind == RelationshipKind.contradicts.rawValue, contradictionSet.insert(pair).inserted {
        contradictions.append(pair)
      }
    }
    let contradictionIDs = Set(contradictions.joined())
    let handoff = try tx.activeHandoffID().flatMap { try tx.handoff(id: $0) }

    var scan = Scan()
    try tx.forEachKnowledgeHeader(
      createdAfter: handoff?.createdAt, detailKinds: [.decision, .preference], contentPrefix: t.conflictContentPrefix
    ) { h in
      if contradictionIDs.contains(h.id) { scan.contradictionTitles[h.id] = h.title }
      scan.titles.append(h.title)
      if h.kind == .decision || h.kind == .preference {
        scan.conflictTitles.append(h.title)
        scan.conflictHeader.append(scan.headers.count)
      }
      if h.isUntagged { scan.untagged.consider(h) }
      if h.kind == .decision || h.kind == .goal, !related.contains(h.id) { scan.unrelated.consider(h) }
      if !h.createdAt.isEmpty { scan.newer.consider(h) }
      scan.headers.append(h)
    }

    var fired: [Fired] = []
    fired.append(Fired(.contradiction, .high, contradictionInsights(contradictions, scan)))
    let (conflicts, duplicates) = similarityInsights(scan, linked: linked, t)
    fired.append(Fired(.possibleConflict, .normal, conflicts))
    if let handoff, let f = staleHandoff(handoff, scan, now: now, t) { fired.append(f) }
    fired.append(try unsupportedTasks(tx, t))
    fired.append(Fired(.nearDuplicates, .normal, duplicates))
    fired.append(aggregate(.missingRelationships, scan.unrelated, t) { total, quoted in
      (total == 1 ? "1 decision or goal has" : "\(total) decisions and goals have")
        + " no relationships: \(quoted); relate them to what supports or depends on them."
    })
    fired.append(aggregate(.missingTags, scan.untagged, t) { total, quoted in
      (total == 1 ? "1 item has" : "\(total) items have") + " no tags: \(quoted); tags make them easier to find."
    })

    let kept = fired.filter { $0.priority >= minimumPriority && $0.total > 0 }.sorted {
      $0.priority != $1.priority ? $0.priority > $1.priority : $0.rule.orderIndex < $1.rule.orderIndex
    }
    var insights: [Insight] = []
    for f in kept {
      for r in f.ranked where insights.count < Limits.insights { insights.append(r.make()) }
    }
    let total = kept.reduce(0) { $0 + $1.total }
    return InsightReport(
      method: "rule-based", algorithm: algorithm, algorithmVersion: version, thresholds: t,
      minimumPriority: minimumPriority, insights: insights, total: total, truncated: total > insights.count)
  }

  static func quote(_ s: String) -> String {
    "\"" + Truncation.truncate(s.replacingOccurrences(of: "\n", with: " "), to: 80) + "\""
  }

  /// `"A", "B", "C" and 9 more`.
  static func quoteList(_ titles: [String], total: Int) -> String {
    let shown = titles.prefix(quotedTitles)
    let list = shown.map(quote).joined(separator: ", ")
    return total > shown.count ? "\(list) and \(total - shown.count) more" : list
  }

  /// The two ids in ``UUID/uuidString`` order.
  static func orderedPair(_ a: UUID, _ b: UUID) -> [UUID] { KnowledgeHeader.precedes(b, a) ? [b, a] : [a, b] }

  /// `n` as ten digits with leading zeros, so text order is numeric order.
  static func padded(_ n: Int) -> String {
    let s = String(n)
    return String(repeating: "0", count: max(0, 10 - s.count)) + s
  }

  /// Two decimals, locale-free.
  static func format(_ x: Double) -> String {
    let hundredths = Int((x * 100).rounded())
    let frac = hundredths % 100
    return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac)"
  }

  // MARK: Rules

  static func contradictionInsights(_ pairs: [[UUID]], _ scan: Scan) -> [Ranked] {
    pairs.map { pair in
      Ranked(key: pair.map(\.uuidString)) {
        let a = scan.contradictionTitles[pair[0]] ?? pair[0].uuidString
        let b = scan.contradictionTitles[pair[1]] ?? pair[1].uuidString
        return Insight(
          rule: .contradiction, priority: .high,
          message: "Conflicting knowledge: \(quote(a)) and \(quote(b)) contradict each other; decide which one stands and supersede the other.",
          evidenceIDs: pair)
      }
    }
  }

  /// Possible conflicts and near-duplicate groups, from two trigram joins over the titles.
  static func similarityInsights(_ scan: Scan, linked: Set<[UUID]>, _ t: InsightThresholds)
    -> (conflicts: [Ranked], duplicates: [Ranked])
  {
    let headers = scan.headers
    // Possible conflicts: same kind (decision or preference), a shared tag, similar titles,
    // different opening content, no relationship between them.
    var conflicts: [Ranked] = []
    var conflicting = Set<[Int]>()
    let titlePairs = scan.conflictTitles.similarPairs(
      threshold: t.conflictTitleSimilarity, maximumGeneratorFrequency: t.conflictGeneratorFrequency
    ).map { p in
      TrigramSets.Pair(first: scan.conflictHeader[p.first], second: scan.conflictHeader[p.second], similarity: p.similarity)
    }
    var tagCache: [Int: [Substring]] = [:]
    func tags(_ i: Int) -> [Substring] {
      if let cached = tagCache[i] { return cached }
      let elements = jsonArrayElements(headers[i].tagsJSON)
      tagCache[i] = elements
      return elements
    }
    for p in titlePairs where headers[p.first].kind == headers[p.second].kind {
      let a = headers[p.first], b = headers[p.second]
      let pair = orderedPair(a.id, b.id)
      if linked.contains(pair) { continue }
      // Tags compare in their stored (JSON-escaped) spelling: one encoder wrote them all.
      let shared = Set(tags(p.first)).intersection(tags(p.second))
      guard let rawTag = shared.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) else { continue }
      if normalizedOpening(a.contentPrefix) == normalizedOpening(b.contentPrefix) { continue }
      conflicting.insert([p.first, p.second])
      let similarity = p.similarity
      conflicts.append(
        Ranked(key: pair.map(\.uuidString)) {
          let noun = a.kind == .decision ? "Decisions" : "Preferences"
          let (x, y) = pair[0] == a.id ? (a, b) : (b, a)
          let tag = (try? StableJSON.decoder().decode(String.self, from: Data(rawTag.utf8))) ?? String(rawTag)
          return Insight(
            rule: .possibleConflict, priority: .normal,
            message: "Possible conflict: \(noun) \(quote(x.title)) and \(quote(y.title)) share the tag \(quote(tag)) and have similar titles (trigram similarity \(format(similarity))) but different content; link them (supersedes, contradicts) or reword one.",
            evidenceIDs: pair)
        })
    }

    // Near-duplicates: connected groups of titles at or above the threshold (pairs reported as
    // possible conflicts excepted).
    let join = scan.titles.join(
      threshold: t.nearDuplicateSimilarity, maximumGeneratorFrequency: t.nearDuplicateGeneratorFrequency)
    var parent = Array(0..<headers.count)
    func root(_ x: Int) -> Int {
      var x = x
      while parent[x] != x {
        parent[x] = parent[parent[x]]
        x = parent[x]
      }
      return x
    }
    func union(_ a: Int, _ b: Int) {
      let (ra, rb) = (root(a), root(b))
      if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }
    var best: [Int: Double] = [:]
    var linkedAny = Set<Int>()
    for p in join.expandedPairs where !conflicting.contains([p.first, p.second]) {
      union(p.first, p.second)
      linkedAny.insert(p.first)
      linkedAny.insert(p.second)
      best[p.first] = max(best[p.first] ?? 0, p.similarity)
    }
    var groups: [Int: [Int]] = [:]
    for m in linkedAny { groups[root(m), default: []].append(m) }
    var duplicates: [Ranked] = []
    for (_, group) in groups {
      let members = group.sorted { KnowledgeHeader.precedes(headers[$0].id, headers[$1].id) }
      let similarity = members.compactMap { best[$0] }.max() ?? t.nearDuplicateSimilarity
      let ids = members.prefix(t.aggregateEvidence).map { headers[$0].id }
      duplicates.append(
        Ranked(key: [padded(1_000_000_000 - members.count), ids[0].uuidString]) {
          Insight(
            rule: .nearDuplicates, priority: .normal,
            message: "\(members.count) items have near-identical titles (trigram similarity up to \(format(similarity))): \(quoteList(members.map { headers[$0].title }, total: members.count)); merge them or make the titles distinct.",
            evidenceIDs: Array(ids))
        })
    }
    return (conflicts, duplicates)
  }

  /// The elements of a JSON array of strings as written (quotes and escapes kept), split at the
  /// top-level commas.
  static func jsonArrayElements(_ json: String) -> [Substring] {
    var out: [Substring] = []
    var start: String.Index?
    var inString = false, escaped = false
    for i in json.indices {
      let c = json[i]
      if inString {
        if escaped {
          escaped = false
        } else if c == "\\" {
          escaped = true
        } else if c == "\"" {
          inString = false
          if let s = start { out.append(json[s...i]) }
          start = nil
        }
      } else if c == "\"" {
        inString = true
        start = i
      }
    }
    return out
  }

  /// Letters and digits of `text`, lowercased, single-spaced: two openings that differ only in
  /// case, spacing or punctuation are the same.
  static func normalizedOpening(_ text: String) -> String {
    var out = ""
    var pendingSpace = false
    for ch in text.lowercased() {
      if ch.isLetter || ch.isNumber {
        if pendingSpace, !out.isEmpty { out.append(" ") }
        pendingSpace = false
        out.append(ch)
      } else {
        pendingSpace = true
      }
    }
    return out
  }

  static func staleHandoff(_ h: Handoff, _ scan: Scan, now: Date, _ t: InsightThresholds) -> Fired? {
    let newer = scan.newer.total
    let ageDays = Int(now.timeIntervalSince(h.createdAt) / 86_400)
    let old = ageDays > t.staleHandoffDays
    guard newer > 0 || old else { return nil }
    let priority: Priority = old && newer > 0 ? .high : .normal
    let evidence = scan.newer.elements.map(\.id)
    return Fired(
      .staleHandoff, priority,
      [
        Ranked(key: [h.id.uuidString]) {
          var reasons: [String] = []
          if old { reasons.append("it is \(ageDays) days old (more than \(t.staleHandoffDays))") }
          if newer > 0 {
            reasons.append(newer == 1 ? "1 knowledge item was captured after it" : "\(newer) knowledge items were captured after it")
          }
          return Insight(
            rule: .staleHandoff, priority: priority,
            message: "The active handoff \(quote(h.focus)) may be stale: \(reasons.joined(separator: " and ")); create a new handoff or deactivate it.",
            evidenceIDs: [h.id] + evidence)
        }
      ])
  }

  static func unsupportedTasks(_ tx: WorkspaceTransaction, _ t: InsightThresholds) throws -> Fired {
    let total = try tx.taskCount(status: .open, minimumPriority: nil, unsupportedOnly: true)
    guard total > 0 else { return Fired(.unsupportedTasks, .normal, []) }
    let tasks = try tx.tasks(status: .open, unsupportedOnly: true, limit: t.aggregateEvidence)
    let subject = total == 1 ? "1 open task cites" : "\(total) open tasks cite"
    let insight = Insight(
      rule: .unsupportedTasks, priority: .normal,
      message: "\(subject) no supporting knowledge: \(quoteList(tasks.map(\.title), total: total)); link the decisions or facts they depend on.",
      evidenceIDs: tasks.map(\.id))
    return Fired(.unsupportedTasks, .normal, [Ranked(key: []) { insight }])
  }

  /// One insight over a bounded selection; `message` gets the total and the quoted titles.
  static func aggregate(
    _ rule: InsightRule, _ selection: BoundedSelection<KnowledgeHeader>, _ t: InsightThresholds,
    _ message: @escaping (Int, String) -> String
  ) -> Fired {
    guard selection.total > 0 else { return Fired(rule, .low, []) }
    let items = selection.elements
    let total = selection.total
    return Fired(
      rule, .low,
      [
        Ranked(key: []) {
          Insight(
            rule: rule, priority: .low, message: message(total, quoteList(items.map(\.title), total: total)),
            evidenceIDs: Array(items.prefix(t.aggregateEvidence).map(\.id)))
        }
      ])
  }
}
