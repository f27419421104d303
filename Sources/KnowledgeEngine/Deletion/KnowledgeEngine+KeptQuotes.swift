import ContinuityKit
import Foundation

extension KnowledgeEngine {
  /// The fewest characters a title must have to be looked for in kept text
  /// (``DeletionPlan/keptQuotes``): a shorter one (`Go`, `DB`) would be found in most messages
  /// by chance. The id is always looked for.
  static let quotedTitleMinimumLength = 4

  /// The texts a deletion of `request` looks for in the records it keeps: the ids of the
  /// records it removes (the target, and a memory's mirrors) and their titles (a knowledge
  /// item's or task's title, a handoff's focus, a memory's first line as its mirror's title,
  /// without the cut marker), those of at least ``quotedTitleMinimumLength`` characters.
  static func quotedNeedles(_ request: DeletionRequest, _ tx: WorkspaceTransaction) throws -> [String] {
    var ids: [UUID] = []
    var titles: [String] = []
    switch request {
    case .knowledge(let id):
      ids = [id]
      titles = [try tx.knowledge(id: id)?.title].compactMap { $0 }
    case .memory(let id):
      ids = [id] + Array(try tx.mirrors(ofMemory: id))
      if let memory = try tx.memory(id: id) {
        var first = mirrorTitle(for: memory.text)
        if first.hasSuffix("…"), first.count == 80 { first.removeLast() }
        titles = [first]
      }
    case .task(let id):
      ids = [id]
      titles = [try tx.task(id: id)?.title].compactMap { $0 }
    case .handoff(let id):
      ids = [id]
      titles = [try tx.handoff(id: id)?.focus].compactMap { $0 }
    }
    let longEnough = titles.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
      .filter { $0.count >= quotedTitleMinimumLength }
    var seen = Set<String>()
    return (ids.map(\.uuidString) + longEnough).filter { seen.insert($0.lowercased()).inserted }
  }

  /// The records a deletion of `request` keeps whose text quotes what it removes
  /// (``quotedNeedles(_:_:)``, found by a case-insensitive literal match): chat messages, activity
  /// receipts (arguments — their string values and keys decoded, so that a title holding `"` or
  /// `\` is found as the call gave it (review 24-a, 5) — message, changed ids), run checkpoints (notes), handoffs whose copied
  /// chat excerpts quote it (the handoff deleted excepted) and conversation titles — counted
  /// by collection in that order, collections with none left out.
  ///
  /// Said in the plan (review 19-c, finding 2: the plan of a `knowledge delete` said "nothing
  /// else refers to it" while a chat message and a handoff excerpt still quoted the item).
  /// - Complexity: O(*n* × *k*) in the length *n* of the kept activity text and the *k* needles.
  static func keptQuotes(_ request: DeletionRequest, _ tx: WorkspaceTransaction) throws -> [DeletionPlan.KeptQuotes] {
    let needles = try quotedNeedles(request, tx)
    guard !needles.isEmpty else { return [] }
    func quotes(_ text: String) -> Bool {
      needles.contains { text.range(of: $0, options: .caseInsensitive) != nil }
    }
    let removedIDs = Set(needles.compactMap(UUID.init(uuidString:)))
    var kept: [DeletionPlan.KeptQuotes] = []
    func add(_ collection: String, _ count: Int) {
      if count > 0 { kept.append(.init(collection: collection, count: count)) }
    }
    add("messages", try tx.listMessages().filter { quotes($0.text) }.count)
    add(
      "receipts",
      try tx.listReceipts().filter { r in
        r.changedIDs.contains(where: removedIDs.contains) || quotes(r.arguments) || quotes(r.message)
          || decodedStrings(ofJSONText: r.arguments).contains(where: quotes)
      }.count)
    add("checkpoints", try tx.listCheckpoints().filter { quotes($0.note) }.count)
    let deletedHandoff: UUID? = if case .handoff(let id) = request { id } else { nil }
    add(
      "handoffExcerpts",
      try tx.listHandoffs().filter { $0.id != deletedHandoff && $0.recentExcerpts.contains(where: quotes) }.count)
    add("conversations", try tx.listConversations().filter { quotes($0.title) }.count)
    return kept
  }

  /// The string values and member keys of the JSON document `text` (a receipt's arguments),
  /// decoded (`Use "strict" mode`, where the text reads `Use \"strict\" mode`), in document
  /// order; none when it is not JSON.
  static func decodedStrings(ofJSONText text: String) -> [String] {
    guard let value = try? JSONParser(options: .init(maximumDepth: 1_000, maximumBytes: .max)).parse(text) else { return [] }
    var strings: [String] = []
    func walk(_ value: JSONValue) {
      switch value {
      case .string(let s): strings.append(s)
      case .array(let items): items.forEach(walk)
      case .object(let members):
        for (key, member) in members {
          strings.append(key)
          walk(member)
        }
      default: break
      }
    }
    walk(value)
    return strings
  }
}
