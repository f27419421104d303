import Foundation

/// Builds the rule-based project digest: deterministic templates over the workspace, no model.
///
/// Sections and caps: decisions, preferences and goals ≤ 8 lines each; open tasks ≤ 10;
/// recent context ≤ 6 (the active handoff first); priorities ≤ 8; questions ≤ 6. Each line is
/// at most ``lineLimit`` characters (cut with ``Truncation/marker``) and carries the ids it came
/// from. Orders never depend on insertion order: priority (highest first), then title, then
/// id — except recent context, which is by `updatedAt` (newest first), then title, then id.
public enum DigestBuilder {
  /// The label stored in ``Digest/algorithm``.
  public static let algorithm = "rule-based-digest"
  /// The version stored in ``Digest/algorithmVersion``.
  public static let version = "1"
  /// Maximum characters per digest line.
  public static let lineLimit = 240
  static let sectionCap = 8
  static let taskCap = 10
  static let recentCap = 6
  static let questionCap = 6

  /// Computes (does not store) a digest of the workspace seen by `tx`.
  public static func build(_ tx: WorkspaceTransaction, id: UUID, now: Date, trigger: DigestTrigger) throws -> Digest {
    let knowledge = try tx.listKnowledge()
    let openTasks = try tx.listTasks(status: .open)
    let active = try tx.activeHandoffID().flatMap { try tx.handoff(id: $0) }
    return build(knowledge: knowledge, openTasks: openTasks, activeHandoff: active, id: id, now: now, trigger: trigger)
  }

  /// Computes a digest from explicit inputs (pure; same inputs give the same digest).
  public static func build(
    knowledge: [KnowledgeItem], openTasks: [TaskItem], activeHandoff: Handoff?, id: UUID, now: Date,
    trigger: DigestTrigger
  ) -> Digest {
    func byImportance(_ a: KnowledgeItem, _ b: KnowledgeItem) -> Bool {
      if a.priority != b.priority { return a.priority > b.priority }
      if a.title != b.title { return a.title < b.title }
      return a.id.uuidString < b.id.uuidString
    }
    func line(_ text: String, _ ids: [UUID]) -> DigestLine {
      let oneLine = text.replacingOccurrences(of: "\n", with: " ")
      return DigestLine(text: Truncation.truncate(oneLine, to: lineLimit), evidenceIDs: ids)
    }
    func itemLine(_ k: KnowledgeItem) -> DigestLine {
      let detail = firstSentence(k.content)
      let marker = k.priority >= .high ? " [\(k.priority.rawValue)]" : ""
      return line(detail.isEmpty ? k.title + marker : "\(k.title)\(marker) — \(detail)", [k.id])
    }
    func section(_ kind: KnowledgeKind) -> [DigestLine] {
      let items = knowledge.filter { $0.kind == kind }.sorted(by: byImportance)
      var lines = items.prefix(sectionCap).map(itemLine)
      if items.count > sectionCap {
        lines.append(line("… and \(items.count - sectionCap) more \(kind.rawValue) items", Array(items.dropFirst(sectionCap).prefix(Limits.idsPerList).map(\.id))))
      }
      return lines
    }
    let tasks = openTasks.sorted {
      if $0.priority != $1.priority { return $0.priority > $1.priority }
      if $0.createdAt != $1.createdAt { return $0.createdAt < $1.createdAt }
      return $0.id.uuidString < $1.id.uuidString
    }
    var taskLines = tasks.prefix(taskCap).map { t in
      line("\(t.title)" + (t.priority >= .high ? " [\(t.priority.rawValue)]" : ""), [t.id] + t.knowledgeIDs.prefix(8))
    }
    if tasks.count > taskCap { taskLines.append(line("… and \(tasks.count - taskCap) more open tasks", [])) }

    var recent: [DigestLine] = []
    if let h = activeHandoff {
      recent.append(line("Active handoff: \(h.focus)", [h.id]))
    }
    let contextKinds: Set<KnowledgeKind> = [.context, .fact, .insight, .code]
    let recentItems = knowledge.filter { contextKinds.contains($0.kind) }.sorted {
      if $0.updatedAt != $1.updatedAt { return $0.updatedAt > $1.updatedAt }
      if $0.title != $1.title { return $0.title < $1.title }
      return $0.id.uuidString < $1.id.uuidString
    }
    recent += recentItems.prefix(recentCap - recent.count).map(itemLine)

    var priorities: [DigestLine] = []
    let urgentItems = knowledge.filter { $0.priority >= .high }.sorted(by: byImportance)
    let urgentTasks = tasks.filter { $0.priority >= .high }
    for k in urgentItems.prefix(sectionCap) {
      priorities.append(line("\(k.priority.rawValue.capitalized) \(k.kind.rawValue): \(k.title)", [k.id]))
    }
    for t in urgentTasks.prefix(max(0, sectionCap - priorities.count)) {
      priorities.append(line("\(t.priority.rawValue.capitalized) task: \(t.title)", [t.id]))
    }

    let questionItems = knowledge.filter(isOpenQuestion).sorted(by: byImportance)
    let questions = questionItems.prefix(questionCap).map { k in line("Open question: \(k.title)", [k.id]) }

    return Digest(
      id: id, createdAt: now, trigger: trigger,
      sections: DigestSections(
        decisions: section(.decision), preferences: section(.preference), goals: section(.goal),
        openTasks: taskLines, recentContext: recent, priorities: priorities, questions: Array(questions)),
      algorithm: algorithm, algorithmVersion: version)
  }

  /// An item is an open question when its title ends with `?` or its content has a line that
  /// does, or it is tagged `question` or `open-question`.
  static func isOpenQuestion(_ k: KnowledgeItem) -> Bool {
    if k.tags.contains("question") || k.tags.contains("open-question") { return true }
    if k.title.trimmingCharacters(in: .whitespaces).hasSuffix("?") { return true }
    return k.content.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasSuffix("?") }
  }

  /// The text up to and including the first `.`, `!` or `?` followed by a space or the end,
  /// at most 160 characters.
  static func firstSentence(_ text: String) -> String {
    let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
    var out = ""
    var previousWasTerminal = false
    for ch in t {
      if previousWasTerminal, ch == " " || ch == "\n" { break }
      out.append(ch)
      previousWasTerminal = ch == "." || ch == "!" || ch == "?"
      if out.count >= 160 { return Truncation.truncate(t, to: 160) }
    }
    return out
  }
}
