import Foundation

/// What to put in a new handoff, before sanitizing and validation.
public struct HandoffRequest: Sendable, Equatable {
  /// What the user was working on (1…``Limits/handoffFocus`` characters).
  public var focus: String
  /// A summary (≤ ``Limits/handoffSummary``); nil builds one by rules from the selected records.
  public var summary: String?
  /// What comes next (≤ ``Limits/handoffNextSteps`` steps of ≤ ``Limits/handoffNextStepLength``).
  public var nextSteps: [String]
  /// Knowledge items to carry (≤ ``Limits/idsPerList``, existing).
  public var knowledgeIDs: [UUID]
  /// Tasks to carry (≤ ``Limits/idsPerList``, existing).
  public var taskIDs: [UUID]
  /// Chat lines copied from the session (≤ ``Limits/handoffExcerpts`` of
  /// ≤ ``Limits/handoffExcerptLength``); scrubbed later by "clear chat & run activity".
  public var recentExcerpts: [String]
  /// Also select the knowledge items and open tasks that best match `focus` with the
  /// continuity ranker (see ``KnowledgeEngine/continuityRankingMode``).
  public var autoSelect: Bool
  /// Store focus, summary and steps even when they look like credentials. Only the command
  /// line's explicit `--allow-credentials` sets this; agent and MCP paths never do.
  public var allowCredentials: Bool
  /// Also mark the new handoff active, in the same transaction (as restoring it would, without
  /// returning a brief). False by default: creating a handoff leaves the active one as it was.
  public var activate: Bool

  /// A request; only `focus` is required.
  public init(
    focus: String, summary: String? = nil, nextSteps: [String] = [], knowledgeIDs: [UUID] = [],
    taskIDs: [UUID] = [], recentExcerpts: [String] = [], autoSelect: Bool = false, allowCredentials: Bool = false,
    activate: Bool = false
  ) {
    self.allowCredentials = allowCredentials
    self.activate = activate
    self.focus = focus
    self.summary = summary
    self.nextSteps = nextSteps
    self.knowledgeIDs = knowledgeIDs
    self.taskIDs = taskIDs
    self.recentExcerpts = recentExcerpts
    self.autoSelect = autoSelect
  }
}

/// What ``KnowledgeEngine/createHandoff(_:)`` stored and how.
public struct HandoffCreation: Sendable, Equatable, Codable {
  /// The records auto-selection added to a handoff: those the ranker matched to the focus and
  /// next steps or, when it matched none, the fallback (``fallback``).
  public struct AutoSelection: Sendable, Equatable, Codable {
    /// The retrieval mode that ranked the records, `hybrid-lexical` (with ``fallback``: the mode
    /// that matched nothing).
    public var mode: String
    /// Knowledge items added (not given explicitly): by the ranker, best first; with
    /// ``fallback``, the newest current items, newest `updatedAt` first.
    public var knowledgeIDs: [UUID]
    /// Open tasks added (not given explicitly): by the ranker, best first; with ``fallback``,
    /// the open tasks in task order (priority, critical first, then oldest first).
    public var taskIDs: [UUID]
    /// Knowledge items the ranker placed within the selection but that were left out because
    /// another item supersedes them (they are history, as in the digest), in rank order; at
    /// most ``KnowledgeEngine/autoSelectKnowledgeCount``. Empty when none was.
    public var supersededLeftOut: [UUID]
    /// Present when the focus and next steps matched no open task and no current knowledge item,
    /// so the selection fell back to where the project stands: a sentence saying so, lower case,
    /// no final period, either ``KnowledgeEngine/autoSelectFallbackNote`` (records were selected
    /// instead) or ``KnowledgeEngine/autoSelectNothingNote`` (there was nothing to select). Nil
    /// (absent from JSON) when the ranker matched some record.
    public var fallback: String?

    /// Makes an auto-selection report.
    public init(
      mode: String, knowledgeIDs: [UUID], taskIDs: [UUID], supersededLeftOut: [UUID] = [], fallback: String? = nil
    ) {
      self.mode = mode
      self.knowledgeIDs = knowledgeIDs
      self.taskIDs = taskIDs
      self.supersededLeftOut = supersededLeftOut
      self.fallback = fallback
    }

    private enum CodingKeys: String, CodingKey { case mode, knowledgeIDs, taskIDs, supersededLeftOut, fallback }

    /// Decodes a report; one written before ``supersededLeftOut`` existed has it empty, and one
    /// written before ``fallback`` existed has none.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      mode = try c.decode(String.self, forKey: .mode)
      knowledgeIDs = try c.decode([UUID].self, forKey: .knowledgeIDs)
      taskIDs = try c.decode([UUID].self, forKey: .taskIDs)
      supersededLeftOut = try c.decodeIfPresent([UUID].self, forKey: .supersededLeftOut) ?? []
      fallback = try c.decodeIfPresent(String.self, forKey: .fallback)
    }
  }

  /// The stored handoff.
  public var handoff: Handoff
  /// True when the summary was built by rules (no `summary` was given).
  public var summaryGenerated: Bool
  /// Present when the request asked for auto-selection.
  public var autoSelection: AutoSelection?
  /// True when the request asked to mark the new handoff active (``HandoffRequest/activate``)
  /// and it was; nil (absent from JSON) when it did not ask.
  public var activated: Bool? = nil
  /// With ``activated``: the handoff that was active before, if another one was.
  public var previouslyActiveID: UUID? = nil
  /// With ``activated``: present when the new handoff carries no knowledge item and no task
  /// while the handoff it replaced as the active one carries some — a sentence naming that
  /// handoff and what it carries (``KnowledgeEngine/emptyActivationWarning(replacing:)``), lower
  /// case, no final period. The handoff is still stored and marked active; nil (absent from
  /// JSON) otherwise.
  public var activationWarning: String? = nil
}

/// The stored handoffs and which one is active.
public struct HandoffList: Sendable, Equatable, Codable {
  /// Newest first, then by id; at most the requested limit.
  public var handoffs: [Handoff]
  /// How many handoffs the workspace holds, listed or not.
  public var total: Int
  /// The handoff marked active, if any (it may be one that the limit left out).
  public var activeHandoffID: UUID?
  /// How many handoffs, newest first, were skipped before the first one in ``handoffs`` (the
  /// `offset` asked for; 0 for the first page). Decoded as 0 when absent.
  public var offset: Int

  /// Makes a list.
  /// - Parameters:
  ///   - handoffs: the page, newest first.
  ///   - total: how many handoffs the workspace holds.
  ///   - activeHandoffID: the active handoff, if any.
  ///   - offset: how many were skipped before the page (default 0).
  public init(handoffs: [Handoff], total: Int, activeHandoffID: UUID?, offset: Int = 0) {
    self.handoffs = handoffs
    self.total = total
    self.activeHandoffID = activeHandoffID
    self.offset = offset
  }

  private enum CodingKeys: String, CodingKey {
    case handoffs, total, activeHandoffID, offset
  }

  /// Decodes a list; a missing `offset` reads as 0.
  /// - Throws: `DecodingError` for a missing or mistyped member other than `offset`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    handoffs = try c.decode([Handoff].self, forKey: .handoffs)
    total = try c.decode(Int.self, forKey: .total)
    activeHandoffID = try c.decodeIfPresent(UUID.self, forKey: .activeHandoffID)
    offset = try c.decodeIfPresent(Int.self, forKey: .offset) ?? 0
  }

  /// Whether handoffs come after this page (`offset + handoffs.count < total`): the limit
  /// stopped the listing before the oldest. False on the last page and past the end (review
  /// 23-a, 3: it was `handoffs.count < total`, true on every later page). Not encoded (a
  /// computed property); the CLI and MCP write it as `truncated`.
  public var isTruncated: Bool { offset + handoffs.count < total }

  /// The offset of the next page (`offset + handoffs.count`) while ``isTruncated``; nil on the
  /// last page and past the end.
  public var nextOffset: Int? { isTruncated ? offset + handoffs.count : nil }
}

/// A record a handoff brief names: its id, what it is and its title.
public struct BriefReference: Sendable, Equatable, Codable {
  /// The record's id.
  public var id: UUID
  /// A knowledge kind (`decision`, …), `task`, or `missing` when the record is gone.
  public var kind: String
  /// The record's title now (or a placeholder when it is gone).
  public var title: String
  /// For tasks: `open` or `completed` as stored now (restoring never changes it).
  public var status: String?
  /// For knowledge another item supersedes (as the digest reads the `supersedes`
  /// relationships): the items that supersede it, sorted by `uuidString`; nil (absent from
  /// JSON) when none does. Such an item is history, not where the project stands.
  public var supersededBy: [UUID]? = nil
  /// For an item captured since the handoff: the items it supersedes, sorted by
  /// `uuidString` (they may be in the brief's knowledge); nil (absent from JSON) when none.
  public var supersedes: [UUID]? = nil
  /// For a task in ``HandoffBrief/tasksSince``: what happened to it after the handoff was
  /// made, `added`, `completed`, `added and completed`, or `updated` (changed otherwise: edited,
  /// reopened, a cited knowledge item deleted — its ``TaskItem/updatedAt``). For a knowledge
  /// item in ``HandoffBrief/knowledge``: `edited` when it was edited after the handoff was made
  /// (its ``KnowledgeItem/updatedAt`` is later; ``revision`` says which revision it is now).
  /// Nil (absent from JSON) elsewhere.
  public var change: String? = nil
  /// For a knowledge item in ``HandoffBrief/knowledge`` edited after the handoff was made
  /// (``change`` `edited`): its ``KnowledgeItem/revision`` now (the title shown is that
  /// revision's, not the one the handoff was made with); nil (absent from JSON) elsewhere.
  public var revision: Int? = nil
}

/// What restoring a handoff returns: context only.
///
/// Restoring marks the handoff active and does nothing else: no tool is re-run, no approval is
/// reused, no task is completed, and nothing here claims that work was done.
public struct HandoffBrief: Sendable, Equatable, Codable {
  /// The restored handoff, as stored.
  public var handoff: Handoff
  /// The handoff's knowledge items, in its order; each edited after the handoff was made is
  /// marked (``BriefReference/change`` `edited`, ``BriefReference/revision``).
  public var knowledge: [BriefReference]
  /// How many of the knowledge items the handoff carries were edited after it was made (review
  /// 31-a, 2: a carried decision reversed since read as though it had always said so). Such an
  /// edit makes the handoff stale (``HandoffStaleness/editedAfter``).
  public var editedSince: Int = 0
  /// The handoff's tasks, in its order, with their current status.
  public var tasks: [BriefReference]
  /// Knowledge captured after the handoff was made: the newest
  /// ``KnowledgeEngine/briefCapturedSinceLimit``, shown oldest first (review 28-b, 6: the oldest
  /// were kept, hiding what was captured last).
  public var capturedSince: [BriefReference]
  /// How many knowledge items were captured after the handoff was made.
  public var capturedSinceTotal: Int
  /// Tasks added, completed or otherwise changed after the handoff was made (by their
  /// ``TaskItem/updatedAt`` too: an edit, a reopening), whether the handoff carries them or
  /// not, each with its ``BriefReference/change`` and current status, ordered by their latest
  /// change (oldest first): the ``KnowledgeEngine/briefCapturedSinceLimit`` changed latest.
  public var tasksSince: [BriefReference]
  /// How many tasks were added, completed or otherwise changed after the handoff was made.
  public var tasksSinceTotal: Int
  /// Where the knowledge items captured since that ``capturedSince`` leaves out stand in the
  /// knowledge listing (most recently changed first: `dolphin knowledge list`, MCP
  /// `knowledge_list`): the page that holds every one of them, with the items changed between
  /// them; nil (absent from JSON) when none is left out (review 28-d, 6: the brief said
  /// `knowledge list` lists them, and its first 50 need not).
  public var capturedSinceLeftOut: ListingSpan? = nil
  /// Where the tasks changed since that ``tasksSince`` leaves out stand in the task listing
  /// (`dolphin task list --status all`, MCP `task_list` with `status` `all`: open first, then by
  /// priority and age): the page that holds every one of them, with the tasks between them; nil
  /// (absent from JSON) when none is left out (review 28-d, 6).
  public var tasksSinceLeftOut: ListingSpan? = nil
  /// The handoff that was active before, if another one was.
  public var previouslyActiveID: UUID?
  /// The fixed statement of what restoring did and did not do: ``KnowledgeEngine/restoreNotice``,
  /// or ``KnowledgeEngine/alreadyActiveNotice`` when the handoff was the active one already
  /// (``KnowledgeEngine/briefOfActiveHandoff(id:)``).
  public var notice: String
}

/// Consecutive records of a listing, in its order: those after the first ``offset``, at most
/// ``limit`` of them — what `--limit offset+limit` lists last on the command line, and what
/// the MCP list tools' `offset` and `limit` arguments select.
public struct ListingSpan: Sendable, Equatable, Codable {
  /// How many records of the listing come before the span (0 for none).
  public var offset: Int
  /// How many records the span holds (at least 1).
  public var limit: Int
  /// The records up to and with the span's last: the `--limit` of a listing that starts at the
  /// first record and holds the whole span.
  public var end: Int { offset + limit }

  /// Makes a span.
  public init(offset: Int, limit: Int) {
    self.offset = offset
    self.limit = limit
  }
}
