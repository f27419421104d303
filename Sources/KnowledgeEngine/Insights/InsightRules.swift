import Foundation
import Synchronization

/// Evaluates the insight rules (see ``InsightRule``) over one transaction.
///
/// Rule-based and synchronous: nothing runs in the background and nothing is stored. The
/// knowledge table is read once, as a light projection (id, kind, title, priority, creation
/// time, tags, from the covering index, without content; the first characters of content are
/// read afterwards for the possible-conflict candidates only), the
/// relationship table once, the memory mirrors through their partial index, and the open tasks
/// once (plus a count and a bounded query for the unsupported ones). The similarity
/// rules join titles with ``TrigramSets`` (candidates from trigram postings, never all pairs).
/// Messages are built only for the insights that can be shown.
///
/// The call uses up to two threads and returns only when all its work is done: title trigrams
/// are built on a serial queue while SQLite reads the rows, and the two title joins run side
/// by side. Neither changes the result, which is ordered by fixed keys.
enum InsightRules {
  static let algorithm = "rule-based-insights"
  /// Version 2: a contradiction is resolved once either item is superseded by another item.
  /// Version 3: insights of a rule are ordered by strength, then by their items' titles in
  /// natural order, then by id (version 2 ordered them by id alone), and the items of a pair or
  /// group are named, and cited, in title order.
  /// Version 4: titles that differ only in a sequence number (`step 2` / `step 10`, `phase 1` /
  /// `phase 2`, `#3` / `#4`; ``NumberedTitle``) are neither a possible conflict nor
  /// near-duplicates; so are places spelled out (`part one` / `part two`, `first phase` /
  /// `second phase`). Versions (`v1` / `v2`) are values, not sequence numbers.
  /// Version 5: the duplicate-tasks rule; items of a reported `contradicts` pair are not
  /// near-duplicates; the stale-handoff age is compared as a duration (14 days and 1 hour is
  /// older than 14 days; version 4 counted whole days); every insight carries its evidence
  /// total.
  /// Version 7: decisions and preferences whose titles say opposite things (a negation or an
  /// antonym, ``TitleContrast``), state different values or name different choices are a
  /// possible conflict even when their content is empty or the same (version 6 needed
  /// different content, so title-only decisions never conflicted), and the join also reads
  /// their titles without negations (`Do not use X` meets `Use X …`); near-duplicate groups
  /// whose titles say opposite things or state different values are not advised to be merged;
  /// identical titles are called identical (review 20-b, #1 and #16).
  /// Version 6: near-duplicates leave out only the link between the two items of a
  /// `contradicts` pair or of a possible-conflict pair, not every link of those items (version
  /// 5 dropped them from all grouping, hiding their near-duplicates elsewhere); a group that
  /// still holds such a pair through other items is advised to be reviewed, not merged; the
  /// superseded-evidence rule; memory mirrors are left out of missing-tags (`knowledge edit`
  /// does not change them).
  /// Version 8: an item another item supersedes is in no possible conflict either — it is
  /// history, and "link them (supersedes, contradicts)" was already done (review 21-a, 5).
  /// Version 9: open tasks whose titles state different values or say opposite things are
  /// asked which one holds, as near-duplicate knowledge is, never told to delete the extra ones
  /// (review 23-a, 2); decisions or preferences whose titles name different choices in otherwise
  /// the same words are a possible conflict whatever their trigram similarity, found word by word
  /// (``TitleContrast/choicePairs(_:)``: `Use Postgres for analytics` / `Use DuckDB for
  /// analytics`; review 23-a, 10).
  /// Version 10: when one title only adds a negation (`Allow X` / `Do not allow X`), the
  /// possible conflict names the negated word on both sides (`allow / do not allow`), not
  /// one side with nothing (`— / do not`, review 24-b, 6). Which insights are found is unchanged.
  /// Version 11: a modal is named on both sides (`must validate / must not validate`; `may`,
  /// `might`, `could`, `would` and `shall` are read as auxiliaries too); the negated
  /// contractions `aren't`, `wasn't`, `weren't`, `didn't`, `hasn't`, `haven't`, `mustn't`,
  /// `couldn't`, `wouldn't` flip polarity (`Retries aren't idempotent` says the opposite of
  /// `Retries are idempotent`); titles sharing only `do not` (`Do not enable telemetry` / `Do
  /// not use tabs`) are not found word by word as different choices (review 25-b, 7).
  /// Version 12: titles under one shared negation (`Never log passwords` / `Never log tokens`)
  /// are two prohibitions, not different choices; a side that ends with its negation names the
  /// word it negates on both sides (`must not validate / should validate`, not `must not /
  /// should`; review 26-b, 11).
  /// Version 13: titles that exchange two phrases around a rejection say opposite things (`Use
  /// spaces, not tabs` / `Use tabs, not spaces`, named `not tabs / not spaces`; `Prefer tabs over
  /// spaces` / `Prefer spaces over tabs`; ``TitleContrast/exchangedRejection(_:_:middles:_:)``,
  /// review 27-a, 12): a possible conflict, no longer near-duplicates to check before merging.
  /// Words that differ name different choices only where a choice is named — after a choosing
  /// verb (`use`, `prefer`, `choose`, `adopt`, `switch to`…) or preposition (`with`, `via`, `in`,
  /// `on`, `as`, `over`; ``TitleContrast/namesChoice(_:_:)``) —, so two tasks or actions that hold
  /// together (`Run tests on CI` / `Run linters on CI`, `Encrypt backups at rest` / `Compress
  /// backups at rest`) are neither found word by word nor a possible conflict on their titles
  /// alone: similar titles among them still are one when their content differs, worded "similar
  /// titles … but different content" (review 27-a, 13). `no` is named with the word it negates
  /// (`an orm / no orm`, not `an / no`; review 27-a, 16).
  /// Version 14 (review 27-a, 14 and 15): titles are compared word by word when the words that
  /// differ are one to three a side even if not as many on both sides (`Store dates in UTC` /
  /// `Store dates in local time`, `Deploy with Kubernetes` / `Deploy with Docker Compose`), and
  /// pairs found that way that say opposite things are a possible conflict too (`Enable
  /// telemetry` / `Turn off telemetry`); words that only set polarity are not counted among those
  /// that differ (``TitleContrast/choicePairs(_:)``). `needn't`, `shan't`, `mightn't`, `oughtn't`
  /// and `hadn't` are negations (`Needn't sign commits` / `Need to sign commits`); `log to` names
  /// a choice (`Log to stdout` / `Log to stderr`), and so do words after one modifier of a short
  /// list after a choosing verb (``TitleContrast/choiceModifiers``: `Use managed Postgres` / `Use
  /// managed MySQL`; `Use Swift concurrency` / `Use Swift packages` and `Use Postgres for
  /// analytics` / `Use Postgres for reporting` still hold together). The same title twice, one
  /// content empty or only adding to the other's (``openingsAgree(_:_:)``), is no longer a
  /// possible conflict "but different content": it is a near-duplicate, advised to be merged into
  /// the one with the fullest content; an addition holding a negation or a correcting word
  /// (`Retry three times` / `Retry three times. Actually do not retry at all`) adds nothing: such
  /// a pair is still a possible conflict (review 28-d, 7); a negation there is a word of its own,
  /// not one joined by a hyphen or an underscore (`no-cache`, `NO_PROXY`, `--no-verify`), nor
  /// the `not` of `not only` (review 29-b, 5). Items another item supersedes are left out of
  /// missing-tags too (review 28-b, 3).
  static let version = "14"
  /// Titles quoted by an aggregate message.
  static let quotedTitles = 3

  /// An insight's position inside its rule: `major` ascending, then `strength` descending,
  /// then the titles in ``NaturalOrder`` (`step 2` before `step 10`), then the ids in
  /// ``UUID/uuidString`` order — a total order that never depends on storage order.
  struct RankKey {
    var major = 0
    /// The similarity the insight reports, in hundredths as shown: a stronger match first, and
    /// two that read the same are ordered by their titles.
    var strength = 0
    var titles: [String] = []
    var ids: [UUID]

    static func precedes(_ a: RankKey, _ b: RankKey) -> Bool {
      if a.major != b.major { return a.major < b.major }
      if a.strength != b.strength { return a.strength > b.strength }
      for (x, y) in zip(a.titles, b.titles) where x != y { return NaturalOrder.precedes(x, y) }
      if a.titles.count != b.titles.count { return a.titles.count < b.titles.count }
      for (x, y) in zip(a.ids, b.ids) where x != y { return KnowledgeHeader.precedes(x, y) }
      return a.ids.count < b.ids.count
    }
  }

  /// Whether the item titled `a` (id `aID`) is named before the one titled `b`: titles in
  /// ``NaturalOrder``, then ids.
  static func namedBefore(_ a: String, _ aID: UUID, _ b: String, _ bID: UUID) -> Bool {
    a != b ? NaturalOrder.precedes(a, b) : KnowledgeHeader.precedes(aID, bID)
  }

  /// A similarity in hundredths, as ``format(_:)`` shows it.
  static func hundredths(_ x: Double) -> Int { Int((x * 100).rounded()) }

  /// An insight with its position inside its rule, built on demand.
  struct Ranked {
    var key: RankKey
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
      var top = BoundedSelection<Ranked>(capacity: Limits.insights) { RankKey.precedes($0.key, $1.key) }
      for r in all { top.consider(r) }
      self.init(rule, priority, total: all.count, top: top.elements)
    }

    /// A rule whose caller already selected the first insights (`top`, in order).
    init(_ rule: InsightRule, _ priority: Priority, total: Int, top: [Ranked]) {
      self.rule = rule
      self.priority = priority
      self.total = total
      ranked = top
    }
  }

  /// What the rules read from the knowledge table, in one pass.
  struct Scan {
    var headers: [KnowledgeHeader] = []
    /// Titles of the items in `contradicts` relationships, by id.
    var contradictionTitles: [UUID: String] = [:]
    /// Positions in `headers` of the items in `contradicts` relationships, by id.
    var contradictionIndices: [UUID: Int] = [:]
    /// Every item's title, in `headers` order.
    var titles = TrigramSets()
    /// Which headers are decisions or preferences (the possible-conflict join), then `true`
    /// for each neutral title appended after the headers' titles.
    var conflictEligible: [Bool] = []
    /// The header each neutral title stands for: decisions and preferences whose titles hold a
    /// negation or an antonym (``TitleContrast/neutralTitle(_:)``), read also without them by
    /// the possible-conflict join. Their neutral titles follow the headers' titles in `titles`,
    /// in this order.
    var neutralOf: [Int] = []
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
    var superseded = Set<UUID>()
    var supersedeEdges: [(source: UUID, target: UUID)] = []
    for e in try tx.relationshipEdges() {
      guard let source = UUID(uuidString: e.source), let target = UUID(uuidString: e.target) else { continue }
      related.insert(source)
      related.insert(target)
      let pair = orderedPair(source, target)
      linked.insert(pair)
      if e.kind == RelationshipKind.contradicts.rawValue, contradictionSet.insert(pair).inserted {
        contradictions.append(pair)
      }
      if e.kind == RelationshipKind.supersedes.rawValue {
        superseded.insert(target)
        supersedeEdges.append((source, target))
      }
    }
    // The advice was "decide which one stands and supersede the other": once either item of a
    // contradicting pair is superseded, the contradiction is settled.
    contradictions.removeAll { superseded.contains($0[0]) || superseded.contains($0[1]) }
    let contradictionIDs = Set(contradictions.joined())
    let handoff = try tx.activeHandoffID().flatMap { try tx.handoff(id: $0) }
    // Mirrors of legacy memories are kept as saved: `knowledge edit` refuses to tag them, so
    // missing-tags does not ask for it (review 19-c).
    let mirrors = Set(try tx.knowledgeMemoryLinks().filter { $0.source == KnowledgeSource.legacyMemory.rawValue }.map(\.id))

    var scan = Scan()
    // Title trigrams, and the neutral titles of decisions and preferences, are built on a
    // second thread, batch by batch, while SQLite steps through the rows on this one;
    // `finish()` waits for the last batch.
    let trigrams = TrigramBuilder()
    var batch: [(title: String, eligible: Bool)] = []
    batch.reserveCapacity(TrigramBuilder.batchSize)
    try tx.forEachKnowledgeHeader(createdAfter: handoff?.createdAt, detailKinds: [.decision, .preference]) { h in
      if contradictionIDs.contains(h.id) {
        scan.contradictionTitles[h.id] = h.title
        scan.contradictionIndices[h.id] = scan.headers.count
      }
      let eligible = h.kind == .decision || h.kind == .preference
      batch.append((h.title, eligible))
      if batch.count == TrigramBuilder.batchSize {
        trigrams.add(batch)
        batch.removeAll(keepingCapacity: true)
      }
      scan.conflictEligible.append(eligible)
      // A superseded item is history (review 28-b, 3: it was asked to be tagged).
      if h.isUntagged, !mirrors.contains(h.id), !superseded.contains(h.id) { scan.untagged.consider(h) }
      if h.kind == .decision || h.kind == .goal, !related.contains(h.id) { scan.unrelated.consider(h) }
      if !h.createdAt.isEmpty { scan.newer.consider(h) }
      scan.headers.append(h)
    }
    // Titles naming different choices word by word read only the decisions' and preferences'
    // titles: found on another thread from here on, beside the trigram sets and their joins.
    let choiceTitles = scan.headers.indices.filter { scan.headers[$0].kind == .decision || scan.headers[$0].kind == .preference }
      .map { (index: $0, title: scan.headers[$0].title) }
    let choices = BackgroundResult { TitleContrast.choicePairs(choiceTitles) }
    trigrams.add(batch)
    (scan.titles, scan.neutralOf) = trigrams.finish()
    scan.conflictEligible += Array(repeating: true, count: scan.neutralOf.count)

    var fired: [Fired] = []
    fired.append(Fired(.contradiction, .high, contradictionInsights(contradictions, scan)))
    let (conflicts, duplicates) = try similarityInsights(
      scan, linked: linked, superseded: superseded, contradictions: contradictions, choices: choices, t, tx)
    fired.append(conflicts)
    if let handoff,
      let f = staleHandoff(
        handoff, scan, edited: try tx.knowledgeRevisions(editedAfter: handoff.createdAt, among: handoff.knowledgeIDs),
        newest: try KnowledgeEngine.freshNewerHandoff(than: handoff, now: now, thresholds: t, tx), now: now, t)
    {
      fired.append(f)
    }
    fired.append(try unsupportedTasks(tx, t))
    let openTasks = try tx.tasks(status: .open, limit: nil)
    fired.append(try supersededEvidence(openTasks, SupersedeGraph(edges: supersedeEdges), tx, t))
    fired.append(duplicates)
    fired.append(duplicateTasks(openTasks, t))
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
    let below = fired.filter { $0.priority < minimumPriority }.reduce(0) { $0 + $1.total }
    return InsightReport(
      method: "rule-based", algorithm: algorithm, algorithmVersion: version, thresholds: t,
      minimumPriority: minimumPriority, insights: insights, total: total, truncated: total > insights.count,
      belowMinimumPriority: below)
  }

  /// A title in a message: on one line, cut to 80 characters, quoted with `\\` and `"` escaped
  /// (``TerminalText/quoted(_:)``), so that a quote in one title cannot end it and read as the
  /// start of another.
  static func quote(_ s: String) -> String {
    TerminalText.quoted(Truncation.truncate(s, to: 80))
  }

  /// `"A", "B", "C" and 9 more`.
  static func quoteList(_ titles: [String], total: Int) -> String {
    let shown = titles.prefix(quotedTitles)
    let list = shown.map(quote).joined(separator: ", ")
    return total > shown.count ? "\(list) and \(total - shown.count) more" : list
  }

  /// `A`, `A and B`, `A, B and C`.
  static func listed(_ items: [String]) -> String {
    guard let last = items.last, items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + last
  }

  /// The words of a title in order, lowercased, without punctuation: what "the same title"
  /// means for the merge advice.
  static func titleWords(_ title: String) -> [String] {
    // An ASCII title from its bytes: for ASCII, letters are `A`–`Z` and `a`–`z` (lowercased to
    // the latter), numbers `0`–`9`; the same words.
    var words: [String] = []
    var word: [UInt8] = []
    for byte in title.utf8 {
      guard byte < 0x80 else { return title.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init) }
      if let folded = asciiWordByte(byte) {
        word.append(folded)
      } else if !word.isEmpty {
        words.append(String(decoding: word, as: UTF8.self))
        word.removeAll(keepingCapacity: true)
      }
    }
    if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
    return words
  }

  /// An ASCII letter lowercased, or an ASCII digit, as is; `nil` for any other byte.
  static func asciiWordByte(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39, 0x61...0x7A: return byte
    case 0x41...0x5A: return byte + 0x20
    default: return nil
    }
  }

  /// How a message names a group's titles (review 20-b, #16): `identical titles` when they are
  /// the same text, `titles that are the same apart from case and punctuation` when they have
  /// the same words (``titleWords(_:)``), else `near-identical titles (trigram similarity up to
  /// 0.93)`.
  static func similarTitles(_ titles: [String], _ similarity: Double) -> String {
    if Set(titles).count == 1 { return "identical titles" }
    if Set(titles.map(titleWords)).count == 1 { return "titles that are the same apart from case and punctuation" }
    return "near-identical titles (trigram similarity up to \(format(similarity)))"
  }

  /// Titles of a group compared pairwise (the first ``contrastMembers`` of them, in naming
  /// order): the first pair that says opposite things, else the first that states different
  /// values, else `nil`.
  static func strongestContrast(_ titles: [String]) -> TitleContrast? {
    let shown = titles.prefix(contrastMembers)
    var values: TitleContrast?
    for i in shown.indices {
      for j in shown.indices where j > i {
        let c = TitleContrast(shown[i], shown[j])
        if c.kind == .opposite { return c }
        if c.kind == .differentValues, values == nil { values = c }
      }
    }
    return values
  }

  /// Members of a near-duplicate group whose titles are compared pairwise for a contrast.
  static let contrastMembers = 8

  /// The opening of an item's content as the rules compare it: ``normalizedOpening(_:)`` of the
  /// content's first ``InsightThresholds/conflictContentPrefix`` characters, and whether the
  /// content may go on past them.
  struct Opening: Equatable {
    /// The normalized opening: lowercased words separated by one space.
    var text: String
    /// The words of ``text``, in order.
    var words: [String]
    /// For each of ``words``, whether it is joined to the one before or after it by a hyphen or
    /// an underscore (`no-cache`, `NO_PROXY`, `--no-verify`, `cannot-miss`): part of a
    /// compound word or an identifier, never a negation or a correction on its own.
    var joined: [Bool]
    /// For each of ``words``, whether it labels what follows it (`Update:` starting a sentence:
    /// ``openingWords(_:)``).
    var labels: [Bool]
    /// Whether the content filled the prefix read, so its last word may be cut.
    var cut: Bool

    /// The opening of `prefix`, read as at most `length` characters (Unicode scalars, as
    /// SQLite's `substr` counts them).
    init(_ prefix: String, length: Int) {
      (words, joined, labels) = openingWords(prefix)
      text = words.joined(separator: " ")
      cut = prefix.unicodeScalars.count >= length
    }

    /// How many words the opening has.
    var wordCount: Int { words.count }

    /// The words at `range` that may negate or correct what the opening says
    /// (``openingsAgree(_:_:)``): not those joined to another by a hyphen or an underscore, nor
    /// the `not` of `not only` and `not just`, which add rather than take back (`not only on
    /// Fridays but also on Mondays`). A correcting lead-in (``correctingLeadIns``: `Update:`
    /// starting a sentence) is given as the word `correction`, which it means there.
    func polarityWords(_ range: Range<Int>) -> ArraySlice<String> {
      var out: [String] = []
      for i in range where !joined[i] {
        // `Update: we switched to Postgres` (review 30-b, 4: read as an addition, "merge them").
        if labels[i], Self.correctingLeadIns.contains(words[i]) {
          out.append("correction")
          continue
        }
        let next = i + 1 < words.count ? words[i + 1] : nil
        let afterNext = i + 2 < words.count ? words[i + 2] : nil
        if words[i] == "not", next == "only" || next == "just" { continue }
        // Phrases that add or insist rather than take back (review 30-b, 4): `don't forget`,
        // `no problem`, `no exceptions`, `without exception`, `no more than 4`, `X instead of Y`.
        let negates = TitleContrast.negations.contains(words[i]) || (words[i] == "t" && i > 0 && !joined[i - 1])
        if negates, next == "forget" { continue }
        if words[i] == "no", let next, Self.addingAfterNo.contains(next) { continue }
        if words[i] == "no", let next, Self.comparativesAfterNo.contains(next), afterNext == "than" { continue }
        if words[i] == "without", next == "exception" || next == "exceptions" { continue }
        // `tabs instead of spaces` compares; `instead of that, …` still corrects.
        if words[i] == "instead", next == "of", let afterNext, !Self.pointingBack.contains(afterNext) { continue }
        out.append(words[i])
      }
      return out[...]
    }

    /// Words that, starting a sentence with a colon after them, say that what follows replaces
    /// what was said before (`Update: we switched to Postgres`, `Edit: …`, `Changed: …`, `Now:
    /// …`): a correction, not an addition (review 30-b, 4). Without the colon, or inside a
    /// sentence, they are ordinary words (`Update the docs too`, `Last update: May`, `now with
    /// tests`). English only, as ``correctionWords``.
    static let correctingLeadIns: Set<String> = ["update", "updated", "edit", "edited", "changed", "now"]
    /// Words after which `no` insists rather than negates (`no problem`, `no exceptions`,
    /// `no doubt`).
    static let addingAfterNo: Set<String> = ["problem", "problems", "exception", "exceptions", "doubt", "matter"]
    /// Words by which `instead of` points back at what was said (`instead of that, …`).
    static let pointingBack: Set<String> = ["that", "this", "it", "those", "these", "them"]
    /// Comparatives after which `no … than` states a bound (`no more than 4 workers`).
    static let comparativesAfterNo: Set<String> = ["more", "less", "fewer", "later", "earlier", "sooner", "longer"]
  }

  /// How the contents of a near-duplicate group compare: all ``Opening``s the same, each saying
  /// what the fullest says or less (``openingsAgree(_:_:)``), or some differing.
  enum GroupContent: Equatable { case same, added, different }

  /// Whether two openings say the same thing, one perhaps saying more (review 27-a, 15): they
  /// are equal; or one is empty; or the words of the shorter, whole and not cut, stand in order
  /// within the longer's (it opens with them, `100 requests per minute` in `100 requests per
  /// minute, burst 20`, or leads into them), with no negation or antonym and no value (a number,
  /// URL or path, ``TitleContrast/isValue(_:)``) among the longer's words before them: `use
  /// tabs` in `do not use tabs` is no elaboration, nor `100 requests per minute` in `200
  /// requests per minute, up from 100 requests per minute`. Nor is an addition, before or
  /// after them, that holds a negation (``TitleContrast/negations``, `don't` read as `don t`) or
  /// a word that corrects (``correctionWords``): `Retry three times. Actually do not retry at
  /// all`, `Sign commits: no, never`, `100 requests per minute is wrong; use 500` take back what
  /// they repeat (review 28-d, 7: they were near-duplicates to merge). A longer opening that is
  /// cut loses its last word first, which may be cut too (`limit 1000` read as `limit 100`).
  ///
  /// Negations and correcting words are read in English only (``TitleContrast/negations``,
  /// ``correctionWords``): an addition in another language is read as adding. They count as
  /// whole words only (`notice`, `note`, `knot`, `nothing`, `non` are none), not when a hyphen
  /// or an underscore joins them to another word (`no-cache`, `NO_PROXY`, `no_proxy`,
  /// `--no-verify`, `cannot-miss`: a compound or an identifier), and `not` is none in `not only`
  /// and `not just` (``Opening/polarityWords(_:)``; review 29-b, 5: such additions made a
  /// possible conflict of what only added), nor in phrases that add or insist: `don't forget`,
  /// `no problem`, `no exceptions`, `without exception`, `no more than 4`, `tabs instead of
  /// spaces` (review 30-b, 4). `Scratch that`, `reverted`, `retracted` and `correction` correct,
  /// and so does a correcting lead-in starting a sentence, a colon after it
  /// (``Opening/correctingLeadIns``: `Update:`, `Updated:`, `Edit:`, `Edited:`, `Changed:`,
  /// `Now:`), though it holds no negation (review 30-b, 4: `… Update: we switched to Postgres`
  /// was advised to be merged).
  /// - Complexity: O(*a* · *b*) in the two openings' words (at most a hundred characters each).
  static func openingsAgree(_ a: Opening, _ b: Opening) -> Bool {
    if a.text == b.text || a.text.isEmpty || b.text.isEmpty { return true }
    let (short, long) = a.wordCount <= b.wordCount ? (a, b) : (b, a)
    guard !short.cut else { return false }
    let whole = long.cut ? long.words.count - 1 : long.words.count
    guard whole >= short.wordCount else { return false }
    for k in 0...(whole - short.wordCount) where long.words[k..<(k + short.wordCount)].elementsEqual(short.words) {
      let before = long.polarityWords(0..<k)
      return TitleContrast.flips(before) == 0 && !long.words[..<k].contains(where: TitleContrast.isValue)
        && !takesBack(before) && !takesBack(long.polarityWords((k + short.wordCount)..<whole))
    }
    return false
  }

  /// Words that correct what an opening repeats when added to it (`… is wrong; use 500`,
  /// `Actually …`, `… instead`): an addition holding one is no elaboration
  /// (``openingsAgree(_:_:)``, review 28-d, 7).
  static let correctionWords: Set<String> = [
    "actually", "instead", "wrong", "incorrect", "mistaken", "untrue", "false", "outdated", "obsolete",
    "reverted", "retracted", "correction",
  ]

  /// Whether `words` (of a ``normalizedOpening(_:)``, as ``Opening/polarityWords(_:)`` keeps
  /// them) hold a negation or a correcting word (``correctionWords``), both English only. A
  /// contraction reads as two words there (`don't` as `don t`): `t` after `don`, `isn`, `can`… is
  /// the negation they make.
  /// - Complexity: O(*n*) in the words.
  static func takesBack(_ words: ArraySlice<String>) -> Bool {
    var previous: String?
    for w in words {
      if TitleContrast.negations.contains(w) || correctionWords.contains(w) { return true }
      if w == "t", let p = previous, TitleContrast.negations.contains(p + "t") { return true }
      // `Scratch that: retry once` (review 30-b, 4); `from scratch` alone corrects nothing.
      if w == "that", previous == "scratch" { return true }
      previous = w
    }
    return false
  }

  /// The two ids in ``UUID/uuidString`` order.
  static func orderedPair(_ a: UUID, _ b: UUID) -> [UUID] { KnowledgeHeader.precedes(b, a) ? [b, a] : [a, b] }

  /// Two decimals, locale-free.
  static func format(_ x: Double) -> String {
    let hundredths = Int((x * 100).rounded())
    let frac = hundredths % 100
    return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac)"
  }

  // MARK: Rules

  static func contradictionInsights(_ pairs: [[UUID]], _ scan: Scan) -> [Ranked] {
    pairs.map { pair in
      var named = pair.map { (id: $0, title: scan.contradictionTitles[$0] ?? $0.uuidString) }
      if !namedBefore(named[0].title, named[0].id, named[1].title, named[1].id) { named.swapAt(0, 1) }
      let (a, b) = (named[0], named[1])
      return Ranked(key: RankKey(titles: [a.title, b.title], ids: [a.id, b.id])) {
        Insight(
          rule: .contradiction, priority: .high,
          message: "Conflicting knowledge: \(quote(a.title)) and \(quote(b.title)) contradict each other; decide which one stands and supersede the other.",
          evidenceIDs: [a.id, b.id])
      }
    }
  }

  /// Possible conflicts and near-duplicate groups, from two trigram joins over the titles.
  /// - Parameters:
  ///   - linked: every pair of items joined by a relationship (ids in ``orderedPair(_:_:)``
  ///     order): never a possible conflict.
  ///   - superseded: items another item supersedes: in no near-duplicate group and no
  ///     possible conflict.
  ///   - contradictions: the `contradicts` pairs the contradiction rule reports: their two
  ///     items are not linked as near-duplicates of each other.
  static func similarityInsights(
    _ scan: Scan, linked: Set<[UUID]>, superseded: Set<UUID> = [], contradictions: [[UUID]] = [],
    choices: BackgroundResult<[(Int, Int)]>, _ t: InsightThresholds, _ tx: WorkspaceTransaction
  )
    throws -> (conflicts: Fired, duplicates: Fired)
  {
    let headers = scan.headers
    let (conflictJoin, join) = joins(scan, t)
    let choicePairs = choices.wait()
    // Members of a numbered series (`step 2`, `step 10`) are meant to coexist: read on demand,
    // for the pairs the joins found.
    var numberedCache: [Int: NumberedTitle] = [:]
    func numbered(_ i: Int) -> NumberedTitle {
      if let cached = numberedCache[i] { return cached }
      let title = NumberedTitle(headers[i].title)
      numberedCache[i] = title
      return title
    }
    // Most titles have no label word: said from their bytes first, without reading them whole.
    // 0: not read yet, 1: no label, 2: may have one.
    var mayBeNumbered = [UInt8](repeating: 0, count: headers.count)
    func mayHaveSequenceLabel(_ i: Int) -> Bool {
      if mayBeNumbered[i] == 0 { mayBeNumbered[i] = NumberedTitle.mayHaveSequenceLabel(headers[i].title) ? 2 : 1 }
      return mayBeNumbered[i] == 2
    }
    func inOneSeries(_ i: Int, _ j: Int) -> Bool {
      mayHaveSequenceLabel(i) && mayHaveSequenceLabel(j) && numbered(i).differsOnlyInSequenceNumbers(from: numbered(j))
    }
    // Possible conflicts: same kind (decision or preference), a shared tag, similar titles (or
    // titles naming different choices in otherwise the same words) that are not one numbered
    // series, different opening content or titles that disagree, no relationship between them.
    var conflicts: [Ranked] = []
    // Pairs of items (positions in `headers`, the lower first) the user already related or a
    // possible conflict names: they are never linked to each other as near-duplicates.
    var separated = Set<Int>()
    func pairKey(_ a: Int, _ b: Int) -> Int { min(a, b) * headers.count + max(a, b) }
    // The words of titles the contrast reads (``TitleContrast/tokens(_:)``), read once each.
    var tokenCache: [Int: [String]] = [:]
    func titleTokens(_ i: Int) -> [String] {
      if let cached = tokenCache[i] { return cached }
      let tokens = TitleContrast.tokens(headers[i].title)
      tokenCache[i] = tokens
      return tokens
    }
    func contrastKind(_ i: Int, _ j: Int) -> TitleContrast.Kind { TitleContrast.kind(tokens: titleTokens(i), titleTokens(j)) }
    var tagCache: [Int: [Substring]] = [:]
    func tags(_ i: Int) -> [Substring] {
      if let cached = tagCache[i] { return cached }
      let elements = jsonArrayElements(headers[i].tagsJSON)
      tagCache[i] = elements
      return elements
    }
    // Pairs of the same kind, not linked, sharing a tag (the smallest, by UTF-8 bytes). A pair
    // found through a neutral title (``Scan/neutralOf``) is a pair of the headers it stands
    // for, at their own titles' similarity; below the threshold it counts only when the titles
    // say opposite things (`Do not use X` / `Use X for Y`).
    var candidates: [(pair: TrigramSets.Pair, ids: [UUID], rawTag: Substring)] = []
    var candidateKeys = Set<Int>()
    let n = headers.count
    for found in conflictJoin.expandedPairs {
      let (i, j) = (found.first < n ? found.first : scan.neutralOf[found.first - n], found.second < n ? found.second : scan.neutralOf[found.second - n])
      guard i != j, headers[i].kind == headers[j].kind, candidateKeys.insert(pairKey(i, j)).inserted else { continue }
      var p = TrigramSets.Pair(first: min(i, j), second: max(i, j), similarity: found.similarity)
      if found.first >= n || found.second >= n {
        p.similarity = scan.titles.similarity(p.first, p.second)
        if p.similarity < t.conflictTitleSimilarity,
          contrastKind(p.first, p.second) != .opposite
        {
          continue
        }
      }
      let pair = orderedPair(headers[p.first].id, headers[p.second].id)
      if linked.contains(pair) || inOneSeries(p.first, p.second) { continue }
      // Superseded items are history (version 8): whatever they said was settled by the link.
      if superseded.contains(pair[0]) || superseded.contains(pair[1]) { continue }
      // Tags compare in their stored (JSON-escaped) spelling: one encoder wrote them all.
      let shared = Set(tags(p.first)).intersection(tags(p.second))
      guard let rawTag = shared.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) else { continue }
      candidates.append((p, pair, rawTag))
    }
    // Titles that name different choices in otherwise the same words, compared word by word:
    // short titles whose differing words are long fall below the trigram threshold (`Use
    // Postgres for analytics` / `Use DuckDB for analytics`, 0.47; review 23-a, 10).
    for (i, j) in choicePairs where headers[i].kind == headers[j].kind {
      guard candidateKeys.insert(pairKey(i, j)).inserted else { continue }
      let pair = orderedPair(headers[i].id, headers[j].id)
      if linked.contains(pair) || inOneSeries(i, j) || superseded.contains(pair[0]) || superseded.contains(pair[1]) {
        continue
      }
      let shared = Set(tags(i)).intersection(tags(j))
      guard let rawTag = shared.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) else { continue }
      candidates.append((TrigramSets.Pair(first: i, second: j, similarity: scan.titles.similarity(i, j)), pair, rawTag))
    }
    // Openings of content only for those candidates (the scan skipped content).
    let prefixes = try tx.contentPrefixes(
      rowIDs: candidates.flatMap { [headers[$0.pair.first].rowID, headers[$0.pair.second].rowID] },
      length: t.conflictContentPrefix)
    var openingCache: [Int: Opening] = [:]
    func opening(_ i: Int) -> Opening {
      if let cached = openingCache[i] { return cached }
      let read = Opening(prefixes[headers[i].rowID] ?? "", length: t.conflictContentPrefix)
      openingCache[i] = read
      return read
    }
    // Deterministic order whatever the join's: by positions.
    candidates.sort { ($0.pair.first, $0.pair.second) < ($1.pair.first, $1.pair.second) }
    for (p, _, rawTag) in candidates {
      let a = headers[p.first], b = headers[p.second]
      // Titles that disagree on their own (opposite, other values, other choices) are a
      // possible conflict whatever the content, empty or equal included (review 20-b, #1).
      let kind = contrastKind(p.first, p.second)
      if !kind.disagrees && opening(p.first).text == opening(p.second).text { continue }
      // The same title twice, one content empty or adding to the other's (`Use tabs` / `Use
      // tabs`: "Indent with tabs everywhere"), is one item saved twice: a near-duplicate to
      // merge, not a conflict to settle (review 27-a, 15). Contents that differ otherwise (`100
      // requests per minute` / `200 requests per minute`) still are one.
      if kind == .sameWords && openingsAgree(opening(p.first), opening(p.second)) { continue }
      separated.insert(pairKey(p.first, p.second))
      let similarity = p.similarity
      let (x, y) = namedBefore(a.title, a.id, b.title, b.id) ? (a, b) : (b, a)
      conflicts.append(
        Ranked(key: RankKey(strength: hundredths(similarity), titles: [x.title, y.title], ids: [x.id, y.id])) {
          let noun = a.kind == .decision ? "Decisions" : "Preferences"
          let tag = (try? StableJSON.decoder().decode(String.self, from: Data(rawTag.utf8))) ?? String(rawTag)
          // The contrast read in naming order (`enable / disable` for "Enable …", "Disable …").
          let named = TitleContrast(x.title, y.title)
          let how: String
          switch named.kind {
          case .opposite: how = "have titles that say opposite things (\(named.detail))"
          case .differentValues:
            how = "have similar titles (trigram similarity \(format(similarity))) that state different values (\(named.detail))"
          case .alternatives where similarity < t.conflictTitleSimilarity:
            // Found word by word (``TitleContrast/choicePairs(_:)``), not as similar trigrams.
            how = "have titles that are the same but for words naming different choices (\(named.detail))"
          case .alternatives:
            how = "have similar titles (trigram similarity \(format(similarity))) that name different choices (\(named.detail))"
          // Reworded titles reach here only with different content; so do similar titles whose
          // differing words name no choice (`Run tests on CI` / `Run linters on CI`, review 27-a, 13).
          case .sameWords, .reworded: how = "have similar titles (trigram similarity \(format(similarity))) but different content"
          }
          return Insight(
            rule: .possibleConflict, priority: .normal,
            message: "Possible conflict: \(noun) \(quote(x.title)) and \(quote(y.title)) share the tag \(quote(tag)) and \(how); link them (supersedes, contradicts) or reword one.",
            evidenceIDs: [x.id, y.id])
        })
    }

    // Near-duplicates: connected groups of near-identical titles. Items another item supersedes
    // are left out (a successor is expected to resemble what it replaces; merging them is not
    // the advice). The two items of a reported contradiction, or of a possible conflict, are
    // not linked to each other (the user said they disagree, or the other rule asks which one
    // stands), but each is still linked to any other item near it (review 19-c: a third item
    // contradicting one of two rate limits hid that the two disagree).
    for pair in contradictions {
      if let a = scan.contradictionIndices[pair[0]], let b = scan.contradictionIndices[pair[1]] {
        separated.insert(pairKey(a, b))
      }
    }
    var excluded = [Bool](repeating: false, count: headers.count)
    for i in headers.indices where superseded.contains(headers[i].id) { excluded[i] = true }
    var flagged = [Bool](repeating: false, count: headers.count)
    for key in separated {
      flagged[key / headers.count] = true
      flagged[key % headers.count] = true
    }
    var groupsOf = SimilarityGroups(count: headers.count)
    func root(_ x: Int) -> Int { groupsOf.root(x) }
    var linkedAny: [Int] = []
    func link(_ a: Int, _ b: Int, _ similarity: Double) {
      if a == b || excluded[a] || excluded[b] || separated.contains(pairKey(a, b)) { return }
      groupsOf.link(a, b, similarity)
      linkedAny.append(a)
      linkedAny.append(b)
    }
    // Identical titles link to the first of them that is in no separated pair (their anchor);
    // similar representatives link through their anchors. An item of a separated pair links
    // to the anchors and to the other such items one by one, so only its partner is skipped;
    // such items are few (two per pair).
    var anchor = [Int](repeating: -1, count: headers.count)
    var flaggedMembers: [Int: [Int]] = [:]
    for (i, r) in join.representative.enumerated() where r >= 0 && !excluded[i] {
      if flagged[i] {
        flaggedMembers[r, default: []].append(i)
      } else if anchor[r] < 0 {
        anchor[r] = i
      } else {
        link(anchor[r], i, 1)
      }
    }
    // Links the separated-pair items among the texts of representatives `r` and `q` (the same
    // one for identical titles) to the other side's anchor and separated-pair items.
    func linkFlagged(_ r: Int, _ q: Int, _ similarity: Double) {
      let mine = flaggedMembers[r] ?? [], theirs = flaggedMembers[q] ?? []
      for f in mine {
        if anchor[q] >= 0 { link(f, anchor[q], similarity) }
        for g in theirs { link(f, g, similarity) }
      }
      if r != q, anchor[r] >= 0 { for g in theirs { link(anchor[r], g, similarity) } }
    }
    for r in flaggedMembers.keys.sorted() { linkFlagged(r, r, 1) }
    // Titles of one numbered series are not linked (identical titles never are a series).
    for p in join.pairs where !inOneSeries(p.first, p.second) {
      if anchor[p.first] >= 0 && anchor[p.second] >= 0 { link(anchor[p.first], anchor[p.second], p.similarity) }
      if flaggedMembers[p.first] != nil || flaggedMembers[p.second] != nil { linkFlagged(p.first, p.second, p.similarity) }
    }
    // Group sizes, first member (by title) and best similarity per root, without
    // materializing groups.
    func named(_ i: Int, before j: Int) -> Bool {
      namedBefore(headers[i].title, headers[i].id, headers[j].title, headers[j].id)
    }
    var size = [Int](repeating: 0, count: headers.count)
    var first = [Int](repeating: -1, count: headers.count)
    var groupBest = [Double](repeating: 0, count: headers.count)
    var seen = [Bool](repeating: false, count: headers.count)
    var roots: [Int] = []
    for m in linkedAny where !seen[m] {
      seen[m] = true
      let r = root(m)
      if size[r] == 0 { roots.append(r) }
      size[r] += 1
      groupBest[r] = max(groupBest[r], groupsOf.best[m])
      if first[r] < 0 || named(m, before: first[r]) { first[r] = m }
    }
    // The order of the insights' keys below: larger groups, then closer titles, then the first
    // title (natural order), then its id.
    var top = BoundedSelection<Int>(capacity: Limits.insights) { a, b in
      if size[a] != size[b] { return size[a] > size[b] }
      let (sa, sb) = (hundredths(groupBest[a]), hundredths(groupBest[b]))
      if sa != sb { return sa > sb }
      return named(first[a], before: first[b])
    }
    for r in roots { top.consider(r) }
    var members: [Int: [Int]] = [:]
    let chosen = Set(top.elements)
    for m in 0..<headers.count where seen[m] && chosen.contains(root(m)) { members[root(m), default: []].append(m) }
    // A group can still hold both items of a separated pair, joined through other items: it is
    // not advised to be merged.
    var holdsSeparatedPair = Set<Int>()
    for key in separated {
      let (a, b) = (key / headers.count, key % headers.count)
      if seen[a], seen[b], root(a) == root(b) { holdsSeparatedPair.insert(root(a)) }
    }
    // Merging is safe advice only when the items say the same thing: the openings of their
    // content (as the possible-conflict rule compares them) must all be the same, or each say
    // what the fullest says, or less (``openingsAgree(_:_:)``; review 27-a, 15). Read for the
    // groups that can be shown, stopping at the first that differs.
    func groupContent(_ group: [Int]) throws -> GroupContent {
      var fullest: Opening?
      var same = true
      for m in group {
        let row = headers[m].rowID
        let o = Opening(try tx.contentPrefixes(rowIDs: [row], length: t.conflictContentPrefix)[row] ?? "", length: t.conflictContentPrefix)
        guard let f = fullest else {
          fullest = o
          continue
        }
        if o.text == f.text { continue }
        same = false
        guard openingsAgree(o, f) else { return .different }
        // Each opening read so far stands within the fullest; so it does within one that holds it.
        if o.wordCount > f.wordCount { fullest = o }
      }
      return same ? .same : .added
    }
    var duplicates: [Ranked] = []
    for r in top.elements {
      let group = (members[r] ?? []).sorted { named($0, before: $1) }
      let similarity = groupBest[r]
      // Trigram sets ignore word order ("tabs over spaces" / "spaces over tabs" score 1.00):
      // titles that are the same words in another order are not advised to be merged.
      let words = group.map { titleWords(headers[$0].title) }
      let reordered = Set(words).count > 1 && Set(words.map { $0.sorted() }).count == 1
      let disputed = holdsSeparatedPair.contains(r)
      let content = disputed ? GroupContent.different : try groupContent(group)
      let key = RankKey(
        major: -group.count, strength: hundredths(similarity), titles: [headers[first[r]].title], ids: [headers[first[r]].id])
      duplicates.append(Ranked(key: key) {
        let memberTitles = group.map { headers[$0].title }
        let titles = similarTitles(memberTitles, similarity)
        let list = quoteList(memberTitles, total: group.count)
        let contrast = strongestContrast(memberTitles)
        let message: String
        if disputed {
          message = "\(group.count) items have \(titles): \(list); some of them contradict each other or may conflict (see those insights), so review them before merging any: keep one or reconcile them, or make the titles distinct."
        } else if let c = contrast, c.kind == .opposite {
          message = "\(group.count) items have \(titles) that say opposite things (\(c.detail)): \(list); decide which one holds: link them (supersedes, contradicts) or reword one."
        } else if let c = contrast, c.kind == .differentValues {
          message = "\(group.count) items have \(titles) that may state different values (\(c.detail)): \(list); check which one holds: supersede the outdated one, or make the titles distinct if both hold."
        } else if content == .different {
          message = "\(group.count) items have \(titles) but different content: \(list); review them: keep one or reconcile them, or make the titles distinct."
        } else if content == .added && !reordered {
          let adds = group.count == 2 ? "the content of one only adds to the other's" : "the content of some only adds to the others'"
          let others = group.count == 2 ? "the other" : "the others"
          message = "\(group.count) items have \(titles), and \(adds): \(list); merge them into the one with the fullest content, or link them (supersedes) if one replaces \(others), or make the titles distinct."
        } else if reordered {
          message = "\(group.count) items have titles made of nearly the same letters (trigram similarity up to \(format(similarity))) but in a different order: \(list); check whether they say the same thing before merging them."
        } else {
          message = "\(group.count) items have \(titles): \(list); merge them, or link them (supersedes, contradicts) if they disagree, or make the titles distinct."
        }
        return Insight(
          rule: .nearDuplicates, priority: .normal, message: message,
          evidenceIDs: group.prefix(t.aggregateEvidence).map { headers[$0].id }, evidenceTotal: group.count)
      })
    }
    return (
      Fired(.possibleConflict, .normal, conflicts),
      Fired(.nearDuplicates, .normal, total: roots.count, top: duplicates)
    )
  }

  /// Builds ``TrigramSets`` from batches of titles on a serial queue, in the order the batches
  /// were added, so building overlaps with whatever the caller does between ``add(_:)`` calls;
  /// it also reads the neutral title (``TitleContrast/neutralTitle(_:)``) of each title marked
  /// eligible, and ``finish()`` appends those after every title, in title order (the layout of
  /// ``Scan/titles`` and ``Scan/neutralOf``).
  final class TrigramBuilder: @unchecked Sendable {
    /// Titles per batch: large enough that a batch's cost dwarfs the hand-off, small enough
    /// that the last batch is quick.
    static let batchSize = 1_024
    // Touched only on `queue` (and read by `finish()` after the queue drained).
    private var sets = TrigramSets()
    /// Titles added so far: the index of the next one.
    private var added = 0
    private var neutrals: [String] = []
    private var neutralOf: [Int] = []
    private let queue = DispatchQueue(label: "dolphin.insights.trigrams")

    /// Adds titles in order; the neutral title is read for those with `eligible` set.
    func add(_ titles: [(title: String, eligible: Bool)]) {
      guard !titles.isEmpty else { return }
      queue.async {
        self.sets.append(contentsOf: titles.lazy.map(\.title))
        for (k, t) in titles.enumerated() where t.eligible {
          if let neutral = TitleContrast.neutralTitle(t.title) {
            self.neutralOf.append(self.added + k)
            self.neutrals.append(neutral)
          }
        }
        self.added += titles.count
      }
    }

    /// Waits for every batch, appends the neutral titles, and returns the sets with, for each
    /// neutral title (in the order they follow the titles), the index of the title it stands for.
    func finish() -> (sets: TrigramSets, neutralOf: [Int]) {
      queue.sync {
        if !neutrals.isEmpty { sets.append(contentsOf: neutrals) }
        return (sets, neutralOf)
      }
    }
  }

  /// The two title joins: possible conflicts (decisions and preferences only, at
  /// ``InsightThresholds/conflictTitleSimilarity``) and near-duplicates (every item, at
  /// ``InsightThresholds/nearDuplicateSimilarity``). They read the same titles and nothing else,
  /// so they run side by side (`DispatchQueue.concurrentPerform`, the calling thread taking one);
  /// the result does not depend on which finishes first.
  static func joins(_ scan: Scan, _ t: InsightThresholds) -> (conflicts: TrigramSets.Join, nearDuplicates: TrigramSets.Join) {
    let titles = scan.titles, eligible = scan.conflictEligible
    // The neutral titles after the headers' take part in the possible-conflict join only.
    let headersOnly: [Bool]? =
      scan.neutralOf.isEmpty ? nil : [Bool](repeating: true, count: scan.headers.count) + [Bool](repeating: false, count: scan.neutralOf.count)
    let results = Mutex<[TrigramSets.Join?]>([nil, nil])
    DispatchQueue.concurrentPerform(iterations: 2) { which in
      let join =
        which == 0
        ? titles.join(
          threshold: t.conflictTitleSimilarity, maximumGeneratorFrequency: t.conflictGeneratorFrequency, include: eligible)
        : titles.join(
          threshold: t.nearDuplicateSimilarity, maximumGeneratorFrequency: t.nearDuplicateGeneratorFrequency,
          include: headersOnly)
      results.withLock { $0[which] = join }
    }
    let joins = results.withLock { $0 }
    guard let conflicts = joins[0], let nearDuplicates = joins[1] else {
      preconditionFailure("concurrentPerform returned before both joins ran")
    }
    return (conflicts, nearDuplicates)
  }

  /// Work started on another thread (a global queue) whose result a later step waits for.
  final class BackgroundResult<Value: Sendable>: @unchecked Sendable {
    // Written once on the worker before `group.leave()`, read after `group.wait()`.
    private var value: Value?
    private let group = DispatchGroup()

    init(_ work: @escaping @Sendable () -> Value) {
      group.enter()
      DispatchQueue.global().async {
        self.value = work()
        self.group.leave()
      }
    }

    /// Waits for the work and returns its result.
    func wait() -> Value {
      group.wait()
      guard let value else { preconditionFailure("background work left no result") }
      return value
    }
  }

  /// The elements of a JSON array of strings as written (quotes and escapes kept), split at the
  /// top-level commas.
  static func jsonArrayElements(_ json: String) -> [Substring] {
    // Quotes and backslashes are ASCII, so a walk over the UTF-8 view finds every boundary.
    var out: [Substring] = []
    let bytes = json.utf8
    var start: String.Index?
    var inString = false, escaped = false
    var i = bytes.startIndex
    while i < bytes.endIndex {
      let c = bytes[i]
      if inString {
        if escaped {
          escaped = false
        } else if c == UInt8(ascii: "\\") {
          escaped = true
        } else if c == UInt8(ascii: "\"") {
          inString = false
          if let s = start { out.append(json[s..<bytes.index(after: i)]) }
          start = nil
        }
      } else if c == UInt8(ascii: "\"") {
        inString = true
        start = i
      }
      i = bytes.index(after: i)
    }
    return out
  }

  /// Letters and digits of `text`, lowercased, single-spaced: two openings that differ only in
  /// case, spacing or punctuation are the same.
  static func normalizedOpening(_ text: String) -> String {
    openingWords(text).words.joined(separator: " ")
  }

  /// The words of ``normalizedOpening(_:)`` (runs of letters and digits, lowercased), each with
  /// whether a hyphen or an underscore joins it to a neighbour: the text between it and the word
  /// before ends with one (`no` in `no-cache`, `--no-verify`, `x_no`), or the text between it and
  /// the word after is only such characters (`no` in `no-cache`, `NO_PROXY`). `-`, `_`, U+2010
  /// and U+2011 join; a dash between spaces (`no - never`) does not.
  ///
  /// `labels` marks each word that labels what follows it: it starts the text or a sentence (the
  /// text before it holds `.`, `!`, `?`, `;`, `(`, `[` or a line break) and a colon follows it,
  /// white space aside (`Update:` in `Use MySQL. Update: we switched`; not `update` in `Last
  /// update: May`, nor in `Update the docs`).
  /// - Complexity: O(*n*) in the length of `text`.
  static func openingWords(_ text: String) -> (words: [String], joined: [Bool], labels: [Bool]) {
    var words: [String] = []
    var joined: [Bool] = []
    // For each word: whether it starts the text or a sentence; whether a colon follows it.
    var startsSentence: [Bool] = []
    var colonAfter: [Bool] = []
    // The text since the last word: whether it is empty, ends with a joiner, is only joiners,
    // ends a sentence, is only white space.
    var separatorLength = 0
    var separatorEndsWithJoiner = false
    var separatorOnlyJoiners = true
    var separatorEndsSentence = false
    var separatorOnlySpaces = true
    func startWord() {
      let afterJoiner = separatorLength > 0 && separatorEndsWithJoiner
      if afterJoiner, separatorOnlyJoiners, !joined.isEmpty { joined[joined.count - 1] = true }
      joined.append(afterJoiner)
      startsSentence.append(joined.count == 1 || separatorEndsSentence)
      colonAfter.append(false)
      separatorLength = 0
      separatorEndsWithJoiner = false
      separatorOnlyJoiners = true
      separatorEndsSentence = false
      separatorOnlySpaces = true
    }
    func separator(isJoiner: Bool, endsSentence: Bool, isColon: Bool, isSpace: Bool) {
      if isColon, separatorOnlySpaces, !colonAfter.isEmpty { colonAfter[colonAfter.count - 1] = true }
      separatorLength += 1
      separatorEndsWithJoiner = isJoiner
      if !isJoiner { separatorOnlyJoiners = false }
      if endsSentence { separatorEndsSentence = true }
      if !isSpace { separatorOnlySpaces = false }
    }
    func labels() -> [Bool] { zip(startsSentence, colonAfter).map { $0 && $1 } }
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      // ASCII from its bytes (see ``titleWords(_:)``): the same letters and digits.
      var word: [UInt8] = []
      for byte in text.utf8 {
        if let folded = asciiWordByte(byte) {
          if word.isEmpty { startWord() }
          word.append(folded)
        } else {
          if !word.isEmpty {
            words.append(String(decoding: word, as: UTF8.self))
            word.removeAll(keepingCapacity: true)
          }
          separator(
            isJoiner: byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_"),
            endsSentence: Self.asciiSentenceEnds.contains(byte), isColon: byte == UInt8(ascii: ":"),
            isSpace: byte == 0x20 || byte == 0x09)
        }
      }
      if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
      return (words, joined, labels())
    }
    var word = ""
    for ch in text.lowercased() {
      if ch.isLetter || ch.isNumber {
        if word.isEmpty { startWord() }
        word.append(ch)
      } else {
        if !word.isEmpty {
          words.append(word)
          word = ""
        }
        separator(
          isJoiner: ch == "-" || ch == "_" || ch == "\u{2010}" || ch == "\u{2011}",
          endsSentence: ch.isNewline || ".!?;([".contains(ch), isColon: ch == ":",
          isSpace: ch.isWhitespace && !ch.isNewline)
      }
    }
    if !word.isEmpty { words.append(word) }
    return (words, joined, labels())
  }

  /// The bytes that end a sentence, or open a new one, for ``openingWords(_:)``'s labels: `.`,
  /// `!`, `?`, `;`, `(`, `[`, line feed and carriage return.
  static let asciiSentenceEnds: Set<UInt8> = Set(".!?;([\n\r".utf8)

  /// The stale-handoff insight for the active handoff `h`, or nil when it is not stale
  /// (``HandoffStaleness/evaluate(_:capturedAfter:newest:now:thresholds:)``, the test a restore
  /// brief applies too).
  ///
  /// Its advice is what clears it (``HandoffStaleness/commandAdvice``): restoring `newest` when
  /// that handoff was made after `h` (creating a handoff does not make it active, so "create a
  /// new one" alone changed nothing: review 20-b, 4) and is not stale itself
  /// (``KnowledgeEngine/freshNewerHandoff(than:now:thresholds:_:)``, review 31-a, 6), otherwise
  /// creating one made active with `--activate`; or deactivating `h`.
  ///
  /// - Parameter edited: the revisions of the knowledge items `h` carries that were edited after
  ///   it (``WorkspaceTransaction/knowledgeRevisions(editedAfter:among:)``); they are cited after
  ///   those captured after it, in the handoff's order.
  static func staleHandoff(
    _ h: Handoff, _ scan: Scan, edited: [UUID: Int], newest: Handoff?, now: Date, _ t: InsightThresholds
  ) -> Fired? {
    let newer = scan.newer.total
    guard
      let stale = HandoffStaleness.evaluate(
        h, capturedAfter: newer, editedAfter: edited.count, newest: newest, now: now, thresholds: t)
    else {
      return nil
    }
    let editedIDs = KnowledgeEngine.unique(h.knowledgeIDs).filter { edited[$0] != nil }
    let evidence = scan.newer.elements.map(\.id) + editedIDs
    return Fired(
      .staleHandoff, stale.priority,
      [
        Ranked(key: RankKey(ids: [h.id])) {
          Insight(
            rule: .staleHandoff, priority: stale.priority,
            message: "The active handoff \(quote(h.focus)) may be stale: \(stale.reason); " + stale.commandAdvice,
            evidenceIDs: [h.id] + evidence, evidenceTotal: 1 + newer + editedIDs.count)
        }
      ])
  }

  /// An age in whole days and hours, rounded down: `15 days`, `14 days and 23 hours`,
  /// `1 day and 1 hour`; minutes when it is past a whole day by less than an hour (`14 days and
  /// 1 minute`), and `just over 14 days` when by less than a minute.
  static func ageText(_ seconds: TimeInterval) -> String {
    let hoursTotal = Int(max(0, seconds) / 3_600)
    let (days, hours) = (hoursTotal / 24, hoursTotal % 24)
    let d = days == 1 ? "1 day" : "\(days) days"
    guard hours > 0 else {
      // Past a whole day by less than an hour: said, so "14 days old (older than 14 days)" does
      // not contradict itself (review 18-d).
      let minutes = Int(max(0, seconds).truncatingRemainder(dividingBy: 3_600) / 60)
      if minutes > 0 { return "\(d) and " + (minutes == 1 ? "1 minute" : "\(minutes) minutes") }
      return max(0, seconds) > Double(days) * 86_400 ? "just over \(d)" : d
    }
    return "\(d) and " + (hours == 1 ? "1 hour" : "\(hours) hours")
  }

  /// Groups of open tasks with near-identical titles (``InsightRule/duplicateTasks``): the
  /// near-duplicate join over the open tasks' titles, identical titles grouped first, titles of
  /// one numbered series never linked.
  ///
  /// The advice follows the titles, read as the near-duplicate knowledge rule reads them
  /// (``strongestContrast(_:)``): a group whose titles say opposite things (`Enable X` /
  /// `Disable X`) is asked to decide which one holds, one whose titles state different values
  /// (`… at 10k items` / `… at 100k items`, `Node 18` / `Node 20`) is asked which one holds,
  /// naming the values; only the rest is told to complete or delete the extra ones (review
  /// 23-a, 2: two benchmarks at different sizes are two pieces of work).
  /// - Parameter tasks: every open task (at most ``Limits/tasks``).
  /// - Complexity: one trigram join over the open tasks' titles.
  static func duplicateTasks(_ tasks: [TaskItem], _ t: InsightThresholds) -> Fired {
    guard tasks.count > 1 else { return Fired(.duplicateTasks, .normal, []) }
    var sets = TrigramSets()
    sets.append(contentsOf: tasks.map(\.title))
    let join = sets.join(threshold: t.nearDuplicateSimilarity, maximumGeneratorFrequency: t.nearDuplicateGeneratorFrequency)
    var groupsOf = SimilarityGroups(count: tasks.count)
    for (i, r) in join.representative.enumerated() where r >= 0 && r != i { groupsOf.link(r, i, 1) }
    for p in join.pairs
    where !NumberedTitle(tasks[p.first].title).differsOnlyInSequenceNumbers(from: NumberedTitle(tasks[p.second].title)) {
      groupsOf.link(p.first, p.second, p.similarity)
    }
    let best = groupsOf.best
    var groups: [Int: [Int]] = [:]
    for i in tasks.indices where best[i] > 0 { groups[groupsOf.root(i), default: []].append(i) }
    func named(_ i: Int, before j: Int) -> Bool { namedBefore(tasks[i].title, tasks[i].id, tasks[j].title, tasks[j].id) }
    // Sorted here, so nothing below depends on the dictionary's order.
    let ranked: [Ranked] = groups.values.map { members in
      let group = members.sorted { named($0, before: $1) }
      let similarity = group.map { best[$0] }.max() ?? 1
      let titles = group.map { tasks[$0].title }
      let key = RankKey(
        major: -group.count, strength: hundredths(similarity), titles: [titles[0]], ids: [tasks[group[0]].id])
      return Ranked(key: key) {
        let how = Set(titles).count == 1 ? "the same title" : similarTitles(titles, similarity)
        let list = quoteList(titles, total: group.count)
        let message: String
        switch strongestContrast(titles) {
        case let c? where c.kind == .opposite:
          message = "\(group.count) open tasks have \(how) that say opposite things (\(c.detail)): \(list); decide which one holds: complete or delete the other, or reword one."
        case let c? where c.kind == .differentValues:
          message = "\(group.count) open tasks have \(how) that may state different values (\(c.detail)): \(list); check which one holds: complete or delete the outdated one, or make the titles distinct if both are work to do."
        default:
          message = "\(group.count) open tasks have \(how): \(list); complete or delete the extra ones, or make the titles distinct."
        }
        return Insight(
          rule: .duplicateTasks, priority: .normal, message: message,
          evidenceIDs: group.prefix(t.aggregateEvidence).map { tasks[$0].id }, evidenceTotal: group.count)
      }
    }
    return Fired(.duplicateTasks, .normal, ranked)
  }

  /// Open tasks that cite knowledge, every cited item of which another item supersedes
  /// (``InsightRule/supersededEvidence``): one insight per task, naming each cited item and
  /// what supersedes it (``SupersedeGraph/successors(of:)``, as the `superseded by` marks
  /// read it), citing the task, the superseded items, then their successors.
  /// - Parameter tasks: every open task.
  /// - Complexity: O(*k*) graph lookups for *k* cited ids, then one title read per id named.
  static func supersededEvidence(
    _ tasks: [TaskItem], _ graph: SupersedeGraph, _ tx: WorkspaceTransaction, _ t: InsightThresholds
  ) throws -> Fired {
    var found: [(task: TaskItem, cited: [(id: UUID, successors: [UUID])])] = []
    for task in tasks where !task.knowledgeIDs.isEmpty {
      var cited: [(id: UUID, successors: [UUID])] = []
      var seen = Set<UUID>()
      for id in task.knowledgeIDs where seen.insert(id).inserted {
        let successors = graph.successors(of: id)
        if successors.isEmpty { break }
        cited.append((id, successors))
      }
      if cited.count == seen.count { found.append((task, cited)) }
    }
    guard !found.isEmpty else { return Fired(.supersededEvidence, .normal, []) }
    let titles = try tx.knowledgeTitles(Array(Set(found.flatMap { f in f.cited.flatMap { [$0.id] + $0.successors } })))
    func title(_ id: UUID) -> String { titles[id]?.title ?? id.uuidString }
    let ranked = found.map { task, cited in
      Ranked(key: RankKey(major: -task.priority.rank, titles: [task.title], ids: [task.id])) {
        let named = cited.prefix(quotedTitles).map { c in
          "\(quote(title(c.id))) is superseded by " + listed(c.successors.map { quote(title($0)) })
        }
        let more = cited.count > named.count ? " and \(cited.count - named.count) more" : ""
        var evidence = [task.id]
        for id in cited.map(\.id) + cited.flatMap(\.successors) where !evidence.contains(id) { evidence.append(id) }
        return Insight(
          rule: .supersededEvidence, priority: .normal,
          message: "Open task \(quote(task.title)) rests on replaced knowledge: \(named.joined(separator: "; "))\(more); check that the task still holds under what replaced it: complete or delete it, or add a task that cites the successor.",
          evidenceIDs: Array(evidence.prefix(t.aggregateEvidence)), evidenceTotal: evidence.count)
      }
    }
    return Fired(.supersededEvidence, .normal, ranked)
  }

  static func unsupportedTasks(_ tx: WorkspaceTransaction, _ t: InsightThresholds) throws -> Fired {
    let total = try tx.taskCount(status: .open, minimumPriority: nil, unsupportedOnly: true)
    guard total > 0 else { return Fired(.unsupportedTasks, .normal, []) }
    let tasks = try tx.tasks(status: .open, unsupportedOnly: true, limit: t.aggregateEvidence)
    let subject = total == 1 ? "1 open task cites" : "\(total) open tasks cite"
    let insight = Insight(
      rule: .unsupportedTasks, priority: .normal,
      message: "\(subject) no supporting knowledge: \(quoteList(tasks.map(\.title), total: total)); link the decisions or facts they depend on.",
      evidenceIDs: tasks.map(\.id), evidenceTotal: total)
    return Fired(.unsupportedTasks, .normal, [Ranked(key: RankKey(ids: [])) { insight }])
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
        Ranked(key: RankKey(ids: [])) {
          Insight(
            rule: rule, priority: .low, message: message(total, quoteList(items.map(\.title), total: total)),
            evidenceIDs: Array(items.prefix(t.aggregateEvidence).map(\.id)), evidenceTotal: total)
        }
      ])
  }
}

/// Groups of near-identical titles: union–find over indices (path halving; the smaller root
/// wins, so a group's root is its first index), with the best similarity each index was linked at.
struct SimilarityGroups {
  private var parent: [Int]
  /// Per index, the highest similarity it was linked at; 0 when never linked.
  private(set) var best: [Double]

  init(count: Int) {
    parent = Array(0..<count)
    best = Array(repeating: 0, count: count)
  }

  /// The root of `x`'s group.
  mutating func root(_ x: Int) -> Int {
    var x = x
    while parent[x] != x {
      parent[x] = parent[parent[x]]
      x = parent[x]
    }
    return x
  }

  /// Puts `a` and `b` in one group, linked at `similarity` (0…1).
  mutating func link(_ a: Int, _ b: Int, _ similarity: Double) {
    let (ra, rb) = (root(a), root(b))
    if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    best[a] = max(best[a], similarity)
    best[b] = max(best[b], similarity)
  }
}
