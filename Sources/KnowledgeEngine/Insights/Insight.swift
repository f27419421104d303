import Foundation

/// The rules that produce insights, in their tie-breaking order.
public enum InsightRule: String, Codable, Sendable, CaseIterable {
  /// Two items joined by a `contradicts` relationship (one insight per pair), unless either is
  /// superseded by another item (the contradiction is then settled). Priority high.
  case contradiction
  /// Two decisions (or two preferences) that share a tag and have similar titles (trigram
  /// similarity ≥ ``InsightThresholds/conflictTitleSimilarity``), and no relationship links
  /// them (one insight per pair), when either their titles disagree on their own or their
  /// opening content differs. Titles disagree (``TitleContrast``) when they say opposite things
  /// — one holds a negation (`not`, `no`, `never`, `don't`, `do not`, `without`, …) or the
  /// second word of an antonym pair (enable/disable, allow/deny, always/never, use/avoid,
  /// on/off, add/remove, include/exclude, accept/reject, increase/decrease, show/hide,
  /// start/stop, …) that the other does not balance —, when the words that differ hold a number
  /// or a URL, path or address (different values), or when one to three words differ on each
  /// side with no word in common (different choices: `Use tabs for indentation` / `Use spaces
  /// for indentation`); such a pair is a possible conflict even with no content or the same
  /// content. Titles with their negations left out and antonyms read as the first word of the
  /// pair are joined too, so `Do not use SQLite WAL mode` meets `Use SQLite WAL mode for the
  /// workspace` (similarity 0.45 as written). Titles that name different choices or say
  /// opposite things are also compared word by word, whatever their trigram similarity
  /// (``TitleContrast/choicePairs(_:)``): at most 12 words, one to three differing on each side
  /// (as many on both sides or not), and at least as many shared as differ on the longer side
  /// (words that only set polarity uncounted), one of them not a stop word — `Use Postgres for
  /// analytics` / `Use DuckDB for analytics` (0.47), `Store dates in UTC` / `Store dates in local
  /// time`, `Enable telemetry` / `Turn off telemetry`, not `Cache API responses` / `Cache DB
  /// queries`. The same title twice whose contents agree but for what one adds (one empty, or
  /// one opening with, or leading into, the other's) is no possible conflict but a
  /// ``nearDuplicates`` group to merge (review 27-a, 15); with contents that differ otherwise it
  /// is one. Titles that
  /// differ only in a sequence number — a number after a word that names a place in a plan or
  /// document, such as `step`, `phase`, `part`, `sprint`, `section` or `#` (`Migration step 2` / `Migration step
  /// 10`, `Phase II` / `Phase III`, `Step 2a` / `Step 2b`; ``NumberedTitle/sequenceLabels``),
  /// spelled out after the word (`Part one` / `Part two`) or as an ordinal before it (`first
  /// phase` / `second phase`) — are steps of one series, not a conflict; other numbers are
  /// values and still count, versions among them (`port 8080` / `port 8081`, `API v1` / `API
  /// v2`, `TLS version 1.2` / `1.3`, `compression level 3` / `19`). Priority normal.
  case possibleConflict = "possible-conflict"
  /// The active handoff predates later captures (any knowledge item captured after it) or edits
  /// of a knowledge item it carries (its `updatedAt` later than the handoff), or is older than ``InsightThresholds/staleHandoffDays`` days, compared as a duration (that many
  /// times 24 hours: 14 days and 1 hour is older than 14 days). Priority high when both hold,
  /// else normal.
  case staleHandoff = "stale-handoff"
  /// Open tasks that cite no knowledge item (one aggregate insight). Priority normal.
  case unsupportedTasks = "unsupported-tasks"
  /// An open task that cites knowledge, all of which other items supersede: it rests on
  /// replaced knowledge (one insight per task, naming each cited item and the items that
  /// supersede it, as the `superseded by <id>` marks read them; a `supersedes` relationship
  /// inside a cycle supersedes nothing). It cites the task, the superseded items, then their
  /// successors. A task that also cites a current item is not reported. Priority normal.
  case supersededEvidence = "superseded-evidence"
  /// Groups of items whose titles are nearly the same (trigram similarity ≥
  /// ``InsightThresholds/nearDuplicateSimilarity``; one insight per group, and titles that
  /// differ only in a sequence number never linked, as for ``possibleConflict``). Items another
  /// item supersedes are left out (they are history). The two items of a `contradicts` pair
  /// that the ``contradiction`` rule reports, or of a ``possibleConflict`` pair, are not linked
  /// to each other (that rule's advice is the one that fits), but each is still grouped with
  /// any other item near it. Priority normal. The advice is to merge them when the openings of
  /// their content (the first ``InsightThresholds/conflictContentPrefix`` characters, compared
  /// as the possible-conflict rule compares them) all agree — into the one with the fullest
  /// content when some only add to the others' (an empty content, or one that opens with, or
  /// leads into, another's; review 27-a, 15) —, and otherwise to review them: keep one or
  /// reconcile them; a group that holds both items of such a pair through other items
  /// is always advised to be reviewed. A group two of whose titles say opposite things or
  /// state different values (``TitleContrast``, the first 8 titles compared pairwise) is never
  /// advised to be merged: it is asked which one holds. Otherwise the advice is to merge them,
  /// or link them (supersedes, contradicts) if they disagree. The message calls titles
  /// `identical` when they are the same text, and `the same apart from case and punctuation`
  /// when they have the same words.
  case nearDuplicates = "near-duplicates"
  /// Groups of open tasks whose titles are nearly the same, by the rule ``nearDuplicates``
  /// applies to knowledge titles (trigram similarity ≥ ``InsightThresholds/nearDuplicateSimilarity``,
  /// identical titles included, titles that differ only in a sequence number never linked); one
  /// insight per group, citing the tasks. Completed tasks are not compared. As for
  /// ``nearDuplicates``, a group two of whose titles say opposite things or state different
  /// values (`Benchmark capture at 10k items` / `… at 100k items`, `Node 18` / `Node 20`) is
  /// asked which one holds, naming the words that differ; only the others are told to complete
  /// or delete the extra ones. Priority normal.
  case duplicateTasks = "duplicate-tasks"
  /// Decisions and goals with no relationship in either direction (one aggregate insight).
  /// Priority low.
  case missingRelationships = "missing-relationships"
  /// Items with no tags (one aggregate insight), mirrors of legacy memories left out: they are
  /// kept as saved and `knowledge edit` does not tag them (a memory saved with `--tags` is
  /// mirrored with its tags). Priority low.
  case missingTags = "missing-tags"

  /// Position in the tie-breaking order (0 = first).
  public var orderIndex: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// A rule-based follow-up suggestion derived from the workspace (never stored).
public struct Insight: Codable, Sendable, Equatable {
  /// The rule that fired.
  public var rule: InsightRule
  /// How urgent it is; `--min-priority` filters on it.
  public var priority: Priority
  /// One human-readable sentence naming the records involved.
  public var message: String
  /// The records the insight is about (at most ``Limits/idsPerList``); for a pair or a group,
  /// in the order the message names them.
  public var evidenceIDs: [UUID]
  /// How many records the insight is about in all; more than `evidenceIDs.count` when the
  /// evidence was cut to ``Limits/idsPerList`` (80 open tasks cite no knowledge: 64 ids, total
  /// 80).
  public var evidenceTotal: Int
  /// Whether `evidenceIDs` was cut: `evidenceTotal > evidenceIDs.count`.
  public var evidenceTruncated: Bool

  /// An insight as a rule reports it.
  /// - Parameters:
  ///   - evidenceIDs: the cited records, at most ``Limits/idsPerList``.
  ///   - evidenceTotal: how many records the insight is about in all (`nil`: exactly the
  ///     cited ones).
  public init(rule: InsightRule, priority: Priority, message: String, evidenceIDs: [UUID], evidenceTotal: Int? = nil) {
    self.rule = rule
    self.priority = priority
    self.message = message
    self.evidenceIDs = evidenceIDs
    self.evidenceTotal = max(evidenceTotal ?? evidenceIDs.count, evidenceIDs.count)
    self.evidenceTruncated = self.evidenceTotal > evidenceIDs.count
  }

  private enum CodingKeys: String, CodingKey {
    case rule, priority, message, evidenceIDs, evidenceTotal, evidenceTruncated
  }

  /// Decodes an insight; one written before `evidenceTotal` existed counts its cited ids.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      rule: try c.decode(InsightRule.self, forKey: .rule), priority: try c.decode(Priority.self, forKey: .priority),
      message: try c.decode(String.self, forKey: .message), evidenceIDs: try c.decode([UUID].self, forKey: .evidenceIDs),
      evidenceTotal: try c.decodeIfPresent(Int.self, forKey: .evidenceTotal))
  }
}

/// The documented thresholds of the insight rules (version 1).
public struct InsightThresholds: Codable, Sendable, Equatable {
  /// Near-duplicates: trigram Jaccard similarity of two titles, at least this.
  public var nearDuplicateSimilarity = 0.8
  /// Possible conflicts: trigram Jaccard similarity of two titles, at least this — unless the
  /// titles name different choices or say opposite things word by word
  /// (``TitleContrast/choicePairs(_:)``), which needs no similarity.
  public var conflictTitleSimilarity = 0.5
  /// Possible conflicts need different content: the first this many characters (Unicode
  /// scalars) of the two contents, lowercased with punctuation and spacing ignored, differ —
  /// and, for the same title twice, neither is empty nor only adds to the other, an addition
  /// holding a negation or a correction (`… Actually do not retry`; English words only, whole
  /// and not joined by a hyphen or an underscore, so `no-cache`, `NO_PROXY` and `not only … but
  /// also` add) adding nothing (``InsightRules/openingsAgree(_:_:)``, review 27-a, 15; review
  /// 28-d, 7; review 29-b, 5). Near-duplicate groups use the same
  /// comparison to choose between "merge them" and "review them: keep one or reconcile them".
  public var conflictContentPrefix = 100
  /// In the near-duplicate join, a trigram found in more titles than this generates no
  /// candidates (it would pair up too many titles). Identical titles are always found.
  public var nearDuplicateGeneratorFrequency = 256
  /// In the possible-conflict join (decisions and preferences only, at the lower similarity),
  /// a trigram found in more titles than this generates no candidates.
  public var conflictGeneratorFrequency = 32
  /// The active handoff is stale when older than this many days, compared as a duration (this
  /// many times 24 hours), not in whole days. (It is also stale once a knowledge item is
  /// captured after it, or one it carries is edited after it, whatever its age.)
  public var staleHandoffDays = 14
  /// Evidence ids an aggregate insight carries at most.
  public var aggregateEvidence = Limits.idsPerList

  /// The thresholds of rule version 1.
  public static let v1 = InsightThresholds()
}

/// Every insight that fired, in a stable order, at most ``Limits/insights``.
public struct InsightReport: Codable, Sendable, Equatable {
  /// Always `rule-based`: fixed rules over the stored records, no model, no background work.
  public var method: String
  /// `rule-based-insights`.
  public var algorithm: String
  /// `7` (title-only possible conflicts — opposite titles, different values, different choices
  /// — and near-duplicate advice that does not merge opposite titles or different values came
  /// in 7; the superseded-evidence rule, near-duplicates that skip only the link inside a
  /// contradicting or possibly conflicting pair, and missing-tags without memory mirrors came
  /// in 6; the duplicate-tasks rule, `contradicts` pairs left out of near-duplicates, the
  /// stale-handoff age compared as a duration and evidence totals came in 5; titles that differ
  /// only in a sequence number stopped being possible conflicts or near-duplicates in 4; the
  /// order of insights within a rule, and of the items each names, changed in 3).
  public var algorithmVersion: String
  /// The thresholds the rules used.
  public var thresholds: InsightThresholds
  /// Only insights at or above this priority were kept.
  public var minimumPriority: Priority
  /// Ordered by priority (highest first), then rule order, then within a rule: larger
  /// near-duplicate groups first, then the higher similarity (as shown, two decimals), then the
  /// titles of the items named in natural order (`step 2` before `step 10`), then their ids.
  /// The items of a pair or group are named, and cited in `evidenceIDs`, in the same title
  /// order.
  public var insights: [Insight]
  /// How many insights fired at or above `minimumPriority` before the cap.
  public var total: Int
  /// Whether `insights` was cut to ``Limits/insights``.
  public var truncated: Bool
  /// How many insights fired below `minimumPriority` and were left out (0 without a filter).
  public var belowMinimumPriority: Int = 0
}
