import Foundation

/// Builds the rule-based project digest: deterministic templates over the workspace, no model.
///
/// ## Sections and bounds
///
/// | section | what | order | cap |
/// |---|---|---|---|
/// | decisions, preferences, goals | items of that kind | standing | 8 each |
/// | open tasks | open tasks | task order | 10 |
/// | recent context | the active handoff, then `context`, `fact`, `insight`, `code` items | newest `updatedAt` first | 6 |
/// | priorities | `high`/`critical` items and `high`/`critical` open tasks | priority; within one, items (standing) before tasks (task order) | 8 |
/// | questions | items titled `…?` (or `？`, `﹖`, `؟`, `⸮`, Greek `;`) or tagged `question`/`open-question` | standing | 6 |
///
/// An item that another item supersedes (a `supersedes` relationship targets it) is left out
/// of every section: it is history, and its successor stands in its place. Items that
/// supersede each other in a cycle (``SupersedeGraph``; only older data or a direct database
/// edit can hold one) have no successor standing: they stay in their sections, and the
/// questions section opens with one line per cycle naming them and asking which one stands.
///
/// *Standing* is priority (critical first), then `updatedAt` (newest first: within a
/// priority, a section cut to its cap shows the latest items), then title (natural order:
/// digit runs by numeric value, so `item 2` precedes `item 10`, the rest and ties by UTF-8
/// code unit; ``NaturalOrder``), then id; *task order* is priority, then creation time (oldest
/// first), then id. The priorities section is in priority order across items and tasks: a
/// critical task comes before a high decision. When a section has more candidates than its
/// cap, the section's count in ``DigestSections/omitted`` says how many it left out
/// (renderings print it after the lines as `… and N more … (not shown)`); it is not a line.
/// Every line carries the ids of the records it quotes (a task line also cites up to 8 of the
/// task's knowledge ids, and counts the rest in ``DigestLine/evidenceTotal``; a cited item that another item supersedes is marked in the line's
/// text, `<id> superseded by <successor id>`, as ``KnowledgeEngine/supersededNote(_:)`` marks
/// it everywhere). Lines are one line of at most ``lineLimit`` characters, cut with
/// ``Truncation/marker``. An item's detail is the first sentence of the first
/// ``contentPrefix`` Unicode scalars of its content.
///
/// ## Determinism and cost
///
/// Nothing depends on insertion order, the clock, the locale or the time zone: the same
/// workspace gives the same sections in any process. The builder never decodes whole records:
/// one scan reads a light projection of every item (id, kind, title, priority, dates; no
/// content, no relationships) into bounded selections, then the content of the few shown items
/// is read by row id, and the task sections are `ORDER BY … LIMIT` queries.
/// - Complexity: O(*n*) for *n* knowledge items (one pass, no sort), plus O(shown lines) reads.
public enum DigestBuilder {
  /// The label stored in ``Digest/algorithm``.
  public static let algorithm = "rule-based-digest"
  /// The version stored in ``Digest/algorithmVersion``. Version 2: bounded sections with
  /// evidence-free marker lines, byte-order titles, questions from titles and tags only.
  /// Version 3: marker lines agree in number ("… and 1 more goal"). Version 4: items that
  /// another item supersedes are left out of every section (they are history, not where the
  /// project stands). Version 5: `supersedes` relationships inside a cycle hide nothing, and
  /// each cycle is an open question. Version 6: titles in natural order (`item 2` before
  /// `item 10`). Version 7: what a section leaves out is a count in
  /// ``DigestSections/omitted``, not a marker line; a question whose title already starts with
  /// `Open question:` is not prefixed again. Version 8: within a priority, the knowledge
  /// sections prefer the newest `updatedAt` (version 7 ordered them by title, so a section cut
  /// to its cap dropped the latest decisions); the priorities section is in priority order
  /// across items and tasks (version 7 listed every item before every task); an open task's
  /// line marks each cited item that another item supersedes (`superseded by <id>`). Stored
  /// digests of earlier versions keep their lines as they were built and stay valid. Version 9:
  /// an item in a `contradicts` relationship that neither side's supersession settles is marked
  /// `(contradicts <id>)` wherever it is shown (version 8 showed two contradicting decisions as
  /// both current); the recent-context omission count says `older items`, not the section's
  /// kinds. Version 10: a title ending in the question mark of another script (`？`, `﹖`, `؟`,
  /// `⸮`, the Greek `;`) is an open question, as one ending in `?` is. Version 11: every line
  /// records how many records it is about (``DigestLine/evidenceTotal``), so that a task line
  /// citing its task and 8 of 18 knowledge items says that 10 more were left out (version 10
  /// dropped them with no marker; review 24-a, 10). Version 12: a question mark followed only by
  /// closing quotes or brackets (`What about "quotes?"`, `Is it fast?)`) ends a question too
  /// (review 31-a, 10: such titles landed in recent context).
  public static let version = "12"
  /// How every digest is produced: templates and rules, no model.
  public static let method = "rule-based"
  /// Maximum characters per digest line.
  public static let lineLimit = 240
  /// How many Unicode scalars of an item's content the detail is taken from.
  public static let contentPrefix = 400
  /// Lines per decisions, preferences, goals and priorities section.
  public static let sectionCap = 8
  /// Lines of the open-tasks section.
  public static let taskCap = 10
  /// Lines of the recent-context section.
  public static let recentCap = 6
  /// Lines of the questions section.
  public static let questionCap = 6
  /// Knowledge ids cited per task line, besides the task's own id.
  public static let taskEvidenceCap = 8
  /// The most evidence ids a line cites: a task line's, the task and ``taskEvidenceCap`` of its
  /// knowledge ids.
  public static let lineEvidenceCap = 1 + taskEvidenceCap

  /// The most lines the builder writes in the section named `section` (its JSON name, as in
  /// ``DigestSections/named``): ``sectionCap``, ``taskCap``, ``recentCap`` or ``questionCap``.
  public static func lineCap(ofSection section: String) -> Int {
    switch section {
    case "openTasks": taskCap
    case "recentContext": recentCap
    case "questions": questionCap
    default: sectionCap
    }
  }

  /// The bounded, ordered candidates of every section and how many there were in all.
  struct Inputs {
    var decisions = BoundedSelection<KnowledgeHeader>(capacity: sectionCap, by: KnowledgeOrder.priorityThenRecency)
    var preferences = BoundedSelection<KnowledgeHeader>(capacity: sectionCap, by: KnowledgeOrder.priorityThenRecency)
    var goals = BoundedSelection<KnowledgeHeader>(capacity: sectionCap, by: KnowledgeOrder.priorityThenRecency)
    var recent = BoundedSelection<KnowledgeHeader>(capacity: recentCap, by: KnowledgeOrder.recency)
    var urgent = BoundedSelection<KnowledgeHeader>(capacity: sectionCap, by: KnowledgeOrder.priorityThenRecency)
    var questions = BoundedSelection<KnowledgeHeader>(capacity: questionCap, by: KnowledgeOrder.priorityThenRecency)
    /// Row ids tagged `question` or `open-question`.
    var questionTagged: Set<Int64> = []
    /// Ids of items that another item supersedes: left out of every section.
    var superseded: Set<UUID> = []
    /// The `supersedes` graph, for the successors an open task's line names.
    var supersedes = SupersedeGraph(edges: [(source: UUID, target: UUID)]())
    /// For each item in an unsettled `contradicts` relationship (neither item superseded), the
    /// items it contradicts, in either direction, in ``UUID/uuidString`` order.
    var contradicts: [UUID: [UUID]] = [:]
    /// Groups of items that supersede each other in a cycle (``SupersedeGraph/cycles``).
    var cycles: [[UUID]] = []
    /// The headers of the items on a cycle, by id, for the questions' cycle lines.
    var cycleMembers: [UUID: KnowledgeHeader] = [:]
    /// Ids on a cycle, to look headers up during the scan.
    var onCycle: Set<UUID> = []
    /// Content prefixes of the items shown with a detail, by row id.
    var content: [Int64: String] = [:]
    var openTasks: [TaskItem] = []
    var openTaskTotal = 0
    var urgentTasks: [TaskItem] = []
    var urgentTaskTotal = 0
    var activeHandoff: Handoff?

    /// Routes one item to the sections it belongs to.
    mutating func consider(_ h: KnowledgeHeader) {
      if onCycle.contains(h.id) { cycleMembers[h.id] = h }
      guard !superseded.contains(h.id) else { return }
      switch h.kind {
      case .decision: decisions.consider(h)
      case .preference: preferences.consider(h)
      case .goal: goals.consider(h)
      case .context, .fact, .insight, .code: recent.consider(h)
      }
      if h.priority >= .high { urgent.consider(h) }
      if questionTagged.contains(h.rowID) || DigestBuilder.isQuestionTitle(h.title) { questions.consider(h) }
    }

    /// Takes what the sections need from the `supersedes` graph.
    mutating func setSupersedes(_ graph: SupersedeGraph) {
      supersedes = graph
      superseded = graph.superseded
      cycles = graph.cycles
      onCycle = Set(graph.cycles.joined())
    }

    /// Takes the `contradicts` relationships (call after ``setSupersedes(_:)``): a pair either
    /// of whose items another item supersedes is settled and left out.
    mutating func setContradictions(_ edges: [(source: UUID, target: UUID)]) {
      var partners: [UUID: Set<UUID>] = [:]
      for e in edges where e.source != e.target && !superseded.contains(e.source) && !superseded.contains(e.target) {
        partners[e.source, default: []].insert(e.target)
        partners[e.target, default: []].insert(e.source)
      }
      contradicts = partners.mapValues { $0.sorted { $0.uuidString < $1.uuidString } }
    }

    /// Row ids whose content detail is shown.
    var detailRowIDs: [Int64] {
      (decisions.elements + preferences.elements + goals.elements + recent.elements).map(\.rowID)
    }
  }

  static let questionTags = ["question", "open-question"]

  /// Computes (does not store) a digest of the workspace seen by `tx`.
  /// - Parameters:
  ///   - tx: a read or write transaction.
  ///   - id: the digest's id.
  ///   - now: its creation time (only stored, never used in the text).
  ///   - trigger: why it is made.
  /// - Throws: ``WorkspaceError`` from the store.
  public static func build(_ tx: WorkspaceTransaction, id: UUID, now: Date, trigger: DigestTrigger) throws -> Digest {
    Digest(
      id: id, createdAt: now, trigger: trigger, sections: try sections(tx), algorithm: algorithm,
      algorithmVersion: version)
  }

  /// The digest sections of the workspace seen by `tx` (no id, no time).
  /// - Throws: ``WorkspaceError`` from the store.
  public static func sections(_ tx: WorkspaceTransaction) throws -> DigestSections {
    try sections(from: inputs(tx))
  }

  /// Computes a digest from explicit inputs (pure; gives the same sections as the
  /// transaction-based builder over a workspace holding exactly these records).
  public static func build(
    knowledge: [KnowledgeItem], openTasks: [TaskItem], activeHandoff: Handoff?, id: UUID, now: Date,
    trigger: DigestTrigger
  ) -> Digest {
    Digest(
      id: id, createdAt: now, trigger: trigger,
      sections: sections(from: inputs(knowledge: knowledge, openTasks: openTasks, activeHandoff: activeHandoff)),
      algorithm: algorithm, algorithmVersion: version)
  }

  // MARK: - Gathering

  /// One scan of the knowledge headers (no content), then point reads of the shown details.
  static func inputs(_ tx: WorkspaceTransaction) throws -> Inputs {
    var i = Inputs()
    i.questionTagged = try tx.knowledgeRowIDs(taggedWithAny: questionTags)
    i.setSupersedes(try tx.supersedeGraph())
    i.setContradictions(try tx.relationshipEdges(of: .contradicts))
    try tx.forEachKnowledgeHeader(updatedAt: true, detailKinds: []) { i.consider($0) }
    i.content = try tx.contentPrefixes(rowIDs: i.detailRowIDs, length: contentPrefix)
    i.openTasks = try tx.tasks(status: .open, limit: taskCap)
    i.openTaskTotal = try tx.taskCount(status: .open)
    i.urgentTasks = try tx.tasks(status: .open, minimumPriority: .high, limit: sectionCap)
    i.urgentTaskTotal = try tx.taskCount(status: .open, minimumPriority: .high, unsupportedOnly: false)
    i.activeHandoff = try tx.activeHandoffID().flatMap { try tx.handoff(id: $0) }
    return i
  }

  static func inputs(knowledge: [KnowledgeItem], openTasks: [TaskItem], activeHandoff: Handoff?) -> Inputs {
    var i = Inputs()
    let headers = knowledge.enumerated().map { n, k in KnowledgeHeader(k, rowID: Int64(n + 1), contentPrefix: contentPrefix) }
    for (n, k) in knowledge.enumerated() where k.tags.contains(where: questionTags.contains) {
      i.questionTagged.insert(Int64(n + 1))
    }
    i.setSupersedes(
      SupersedeGraph(
        edges: knowledge.flatMap { k in
          k.relationships.filter { $0.kind == .supersedes }.map { (source: k.id, target: $0.targetID) }
        }))
    i.setContradictions(
      knowledge.flatMap { k in
        k.relationships.filter { $0.kind == .contradicts }.map { (source: k.id, target: $0.targetID) }
      })
    for h in headers { i.consider(h) }
    for h in headers { i.content[h.rowID] = h.contentPrefix }
    let tasks = openTasks.filter { $0.status == .open }.sorted(by: taskOrder)
    i.openTasks = Array(tasks.prefix(taskCap))
    i.openTaskTotal = tasks.count
    let urgentTasks = tasks.filter { $0.priority >= .high }
    i.urgentTasks = Array(urgentTasks.prefix(sectionCap))
    i.urgentTaskTotal = urgentTasks.count
    i.activeHandoff = activeHandoff
    return i
  }

  /// Task order: priority (critical first), then creation time (oldest first), then id.
  static func taskOrder(_ a: TaskItem, _ b: TaskItem) -> Bool {
    if a.priority != b.priority { return a.priority > b.priority }
    let x = ISO8601.string(from: a.createdAt), y = ISO8601.string(from: b.createdAt)
    if x != y { return x < y }
    return a.id.uuidString < b.id.uuidString
  }

  /// The question marks a title may end with, whatever comes before them: `?`, the full-width
  /// `？` U+FF1F (Chinese, Japanese), the small `﹖` U+FE56, the Arabic `؟` U+061F and the
  /// reversed `⸮` U+2E2E. The Greek question mark U+037E is not among them: `Character`
  /// compares by canonical equivalence, under which it *is* `;` (see ``isQuestionTitle(_:)``).
  static let questionMarks: Set<Character> = ["?", "\u{FF1F}", "\u{FE56}", "\u{061F}", "\u{2E2E}"]

  /// Closing quotes and brackets a question mark may stand before at a title's end (`"Why?"`,
  /// `(is it fast?)`, `「どれ？」`): `"`, `'`, `)`, `]`, `}`, `”`, `’`, `»`, `›`, `」`, `』`, `）`,
  /// `］`, `】`.
  static let closingPunctuation: Set<Character> = [
    "\"", "'", ")", "]", "}", "\u{201D}", "\u{2019}", "\u{00BB}", "\u{203A}", "\u{300D}", "\u{300F}",
    "\u{FF09}", "\u{FF3D}", "\u{3011}",
  ]

  /// A title ending with a question mark (``questionMarks``; trailing white space and closing
  /// quotes or brackets after it ignored: ``closingPunctuation``) reads as an open question. The Greek question mark U+037E is canonically equivalent to `;`, so
  /// NFC (which capture applies) stores it as `;`: a title ending in `;` (either one) counts when
  /// the letter before it is Greek (`Ποια βάση δεδομένων;`), and not otherwise (`a; b;`,
  /// `TNF-α dose 10 mg;`).
  static func isQuestionTitle(_ title: String) -> Bool {
    var t = Substring(title)
    while let last = t.last, last.isWhitespace || closingPunctuation.contains(last) { t.removeLast() }
    guard let last = t.last else { return false }
    if questionMarks.contains(last) { return true }
    guard last == ";" else { return false }
    t.removeLast()
    while t.last?.isWhitespace == true { t.removeLast() }
    return t.last.map(isGreekLetter) ?? false
  }

  /// Whether `c` is a letter of the Greek and Coptic (U+0370–U+03FF) or Greek Extended
  /// (U+1F00–U+1FFF) blocks.
  static func isGreekLetter(_ c: Character) -> Bool {
    guard c.isLetter, let scalar = c.unicodeScalars.first else { return false }
    return (0x370...0x3FF).contains(scalar.value) || (0x1F00...0x1FFF).contains(scalar.value)
  }

  // MARK: - Templates

  static func sections(from i: Inputs) -> DigestSections {
    func detail(_ h: KnowledgeHeader) -> String { firstSentence(i.content[h.rowID] ?? "") }
    func itemLine(_ h: KnowledgeHeader) -> DigestLine {
      let mark = h.priority >= .high ? " [\(h.priority.rawValue)]" : ""
      return markedLine(h.title, mark, detail(h), h, i.contradicts[h.id] ?? [])
    }
    var omitted = DigestOmissions()
    func kindSection(_ s: BoundedSelection<KnowledgeHeader>, _ name: String) -> [DigestLine] {
      omitted[section: name] = s.total - s.elements.count
      return s.elements.map(itemLine)
    }
    let taskLines = i.openTasks.map { taskLine($0, i.supersedes) }
    omitted.openTasks = i.openTaskTotal - i.openTasks.count

    var recent: [DigestLine] = []
    if let h = i.activeHandoff { recent.append(line("Active handoff: \(h.focus)", [h.id])) }
    let recentItems = i.recent.elements.prefix(recentCap - recent.count)
    recent += recentItems.map { h in
      markedLine("\(h.kind.rawValue): \(h.title)", "", detail(h), h, i.contradicts[h.id] ?? [])
    }
    omitted.recentContext = i.recent.total - recentItems.count

    // Both lists are already in order and each holds at most the cap, so their merge holds
    // the first `sectionCap` of all: by priority, an item before a task of the same priority.
    var priorities: [DigestLine] = []
    var items = i.urgent.elements[...], tasks = i.urgentTasks[...]
    while priorities.count < sectionCap {
      if let h = items.first, tasks.first.map({ h.priority >= $0.priority }) ?? true {
        priorities.append(
          markedLine("\(priorityLabel(h.priority)) \(h.kind.rawValue): \(h.title)", "", "", h, i.contradicts[h.id] ?? []))
        items.removeFirst()
      } else if let t = tasks.first {
        priorities.append(line("\(priorityLabel(t.priority)) task: \(t.title)", [t.id]))
        tasks.removeFirst()
      } else {
        break
      }
    }
    omitted.priorities = i.urgent.total + i.urgentTaskTotal - priorities.count

    // Cycles first: they are questions about records the other sections may show.
    let cycleLines = i.cycles.prefix(questionCap).map { cycleLine($0, i.cycleMembers) }
    let questionItems = i.questions.elements.prefix(questionCap - cycleLines.count)
    let questions = cycleLines + questionItems.map { h in line(questionText(h.title), [h]) }
    omitted.questions = i.cycles.count - cycleLines.count + i.questions.total - questionItems.count

    return DigestSections(
      decisions: kindSection(i.decisions, "decisions"), preferences: kindSection(i.preferences, "preferences"),
      goals: kindSection(i.goals, "goals"), openTasks: taskLines, recentContext: recent, priorities: priorities,
      questions: questions, omitted: omitted)
  }

  static let questionPrefix = "Open question:"

  /// `Open question: <title>`, unless the title already starts with the words *open question*
  /// or *open questions* (in any case, leading spaces ignored, followed by anything but a
  /// letter: `Open question:`, `Open Question - dash?`, `Open questions: X`; review 18-d): then
  /// the title as it is. `Open questionnaire` is prefixed.
  static func questionText(_ title: String) -> String {
    let trimmed = title.drop { $0 == " " }
    let lower = trimmed.lowercased()
    for words in ["open questions", "open question"] where lower.hasPrefix(words) {
      if lower.dropFirst(words.count).first.map({ !$0.isLetter }) ?? true { return String(trimmed) }
    }
    return "\(questionPrefix) \(title)"
  }

  static func line(_ text: String, _ headers: [KnowledgeHeader]) -> DigestLine {
    line(text, headers.map(\.id))
  }

  /// `Critical` / `High` / `Normal` / `Low` — spelled out, never locale-dependent.
  static func priorityLabel(_ p: Priority) -> String {
    switch p {
    case .critical: return "Critical"
    case .high: return "High"
    case .normal: return "Normal"
    case .low: return "Low"
    }
  }

  /// A line citing `ids`, about `total` records in all (nil: exactly those).
  static func line(_ text: String, _ ids: [UUID], total: Int? = nil) -> DigestLine {
    DigestLine(
      text: Truncation.truncate(TerminalText.singleLine(text), to: lineLimit), evidenceIDs: ids,
      evidenceTotal: total ?? ids.count)
  }

  /// `Supersede cycle: A; B supersede each other — decide which one stands`, citing the items
  /// (at most ``taskEvidenceCap`` of them, titles in importance order; further ones are
  /// counted, not named).
  static func cycleLine(_ cycle: [UUID], _ members: [UUID: KnowledgeHeader]) -> DigestLine {
    let headers = cycle.compactMap { members[$0] }.sorted(by: KnowledgeOrder.importance)
    let shown = headers.prefix(taskEvidenceCap)
    let titles = shown.map(\.title).joined(separator: "; ")
    let more = headers.count > shown.count ? " and \(headers.count - shown.count) more" : ""
    let text =
      headers.count == 1
      ? "Supersede cycle: \(titles) supersedes itself — decide whether it stands"
      : "Supersede cycle: \(titles)\(more) supersede each other — decide which one stands"
    return line(text, shown.map(\.id), total: headers.count)
  }

  /// `<title> [<priority>]`, then — when another item supersedes some of the cited items —
  /// ` (<id> superseded by <id>; …)`, citing the task and up to ``taskEvidenceCap`` of its
  /// knowledge ids. Marks are given whole, as many as fit in ``lineLimit`` beside at least
  /// ``minimumTitle`` characters of the title, and the rest counted (`; and 3 more superseded`,
  /// or `(2 cited items superseded)` when none fits), never cut inside an id (review 19-d); the
  /// title is then cut to what the line leaves it.
  static func taskLine(_ t: TaskItem, _ supersedes: SupersedeGraph) -> DigestLine {
    let mark = t.priority >= .high ? " [\(t.priority.rawValue)]" : ""
    let cited = Array(t.knowledgeIDs.prefix(taskEvidenceCap))
    let notes = cited.compactMap { id -> String? in
      let successors = supersedes.successors(of: id)
      return successors.isEmpty ? nil : "\(id.uuidString) \(KnowledgeEngine.supersededNote(successors))"
    }
    let total = 1 + t.knowledgeIDs.count
    guard !notes.isEmpty else { return line(t.title + mark, [t.id] + cited, total: total) }
    let title = TerminalText.singleLine(t.title)
    let titleKept = min(title.count, minimumTitle)
    func suffix(showing shown: Int) -> String {
      let more = notes.count - shown
      if shown == 0 { return mark + " (\(more) cited item\(more == 1 ? "" : "s") superseded)" }
      return mark + " (" + notes.prefix(shown).joined(separator: "; ") + (more > 0 ? "; and \(more) more superseded" : "") + ")"
    }
    var shown = 0
    while shown < notes.count, titleKept + suffix(showing: shown + 1).count <= lineLimit { shown += 1 }
    let end = suffix(showing: shown)
    return line(Truncation.truncate(title, to: max(titleKept, lineLimit - end.count)) + end, [t.id] + cited, total: total)
  }

  /// Items of a `contradicts` relationship a line names at most; more are counted.
  static let contradictionMarks = 2

  /// `<head><mark> — <detail>`, and when the item is in unsettled `contradicts` relationships
  /// (review 20-b, #9: two opposite decisions read as both current), ` (contradicts <id>)`
  /// after the mark: up to ``contradictionMarks`` ids, then `and N more`, never cut, the head
  /// cut to what the line leaves it (at least ``minimumTitle`` characters). Cites the item, then
  /// the ids it names.
  static func markedLine(_ head: String, _ mark: String, _ detail: String, _ h: KnowledgeHeader, _ contradicted: [UUID])
    -> DigestLine
  {
    guard !contradicted.isEmpty else {
      return line(detail.isEmpty ? head + mark : "\(head)\(mark) — \(detail)", [h])
    }
    let shown = contradicted.prefix(contradictionMarks)
    let more = contradicted.count - shown.count
    let note = mark + " (contradicts " + shown.map(\.uuidString).joined(separator: ", ") + (more > 0 ? " and \(more) more" : "") + ")"
    let single = TerminalText.singleLine(head)
    let kept = Truncation.truncate(single, to: max(min(single.count, minimumTitle), lineLimit - note.count))
    return line(detail.isEmpty ? kept + note : "\(kept)\(note) — \(detail)", [h.id] + shown, total: 1 + contradicted.count)
  }

  /// The fewest characters of a task's title that a line keeps to fit its superseded marks.
  static let minimumTitle = 60

  /// The text up to and including the first `.`, `!` or `?` followed by a space or the end,
  /// at most 160 characters (cut with ``Truncation/marker``).
  static func firstSentence(_ text: String) -> String {
    let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
    var out = ""
    var count = 0
    var previousWasTerminal = false
    for ch in t {
      if previousWasTerminal, ch == " " || ch == "\n" { break }
      out.append(ch)
      count += 1
      previousWasTerminal = ch == "." || ch == "!" || ch == "?"
      if count >= 160 { return Truncation.truncate(t, to: 160) }
    }
    return out
  }
}
