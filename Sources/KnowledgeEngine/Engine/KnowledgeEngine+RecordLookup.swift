import ContinuityKit
import Foundation

/// A record found by its id, with what a message needs to name a command (or tool) that shows
/// that one record (review 28-a, 2 and 8: a memory's id was sent to `memory list`, whose first
/// page need not hold it).
public struct RecordLocation: Sendable, Equatable {
  /// The type of the record.
  public var type: RecordType
  /// Its id.
  public var id: UUID
  /// For a legacy memory: its knowledge mirror, whose content is the memory's text; nil when it
  /// has none (an `erase --kind knowledge` removed it), and for the other types.
  public var mirrorID: UUID?
  /// Where the record stands in the list that shows records of its type, counted from 1: for a
  /// legacy memory, in `memory list` order (newest first); for a task, in `task list --status
  /// all` order (open first, then priority and age); for an activity receipt, among the newest
  /// (`activity --limit N` shows the newest N); nil for the other types.
  public var listPosition: Int?
  /// For a knowledge item that mirrors a legacy memory: that memory's id (review 28-c, 12:
  /// `memory delete <the mirror's id>`, the id `knowledge list` shows, said only "no memory has
  /// the id"); nil for other items and types.
  public var mirroredMemoryID: UUID?

  /// Makes a location.
  public init(type: RecordType, id: UUID, mirrorID: UUID? = nil, listPosition: Int? = nil, mirroredMemoryID: UUID? = nil) {
    self.type = type
    self.id = id
    self.mirrorID = mirrorID
    self.listPosition = listPosition
    self.mirroredMemoryID = mirroredMemoryID
  }
}

extension KnowledgeEngine {
  /// Which record, if any, has `id`: knowledge items first, then memories, tasks, handoffs,
  /// stored digests and activity receipts (ids are UUIDs, so at most one normally does).
  /// - Returns: its type, or nil when no record has the id.
  /// - Throws: ``WorkspaceError`` from the store.
  public func recordType(of id: UUID) throws -> RecordType? {
    try store.read { tx in try tx.recordType(of: id) }
  }

  /// The record that has `id`, with its knowledge mirror (a memory) or its place in its list
  /// (a memory, a task, a receipt), read in one transaction (``RecordLocation``).
  /// - Returns: nil when no record has the id.
  /// - Complexity: O(*n*) in the records of its type for a memory without a mirror, a task or
  ///   a receipt (at most ``Limits/memories``, ``Limits/tasks``, ``Limits/receiptsKept``).
  /// - Throws: ``WorkspaceError`` from the store.
  public func recordLocation(of id: UUID) throws -> RecordLocation? {
    try store.read { tx in
      guard let type = try tx.recordType(of: id) else { return nil }
      var location = RecordLocation(type: type, id: id)
      switch type {
      case .memory:
        // A mirror still stored shows the memory's text; else its place in `memory list`.
        if let mirror = try tx.memory(id: id)?.knowledgeID, try tx.knowledge(id: mirror) != nil {
          location.mirrorID = mirror
        } else {
          location.listPosition = try tx.listMemories().firstIndex { $0.id == id }.map { $0 + 1 }
        }
      case .task: location.listPosition = try tx.listTasks().firstIndex { $0.id == id }.map { $0 + 1 }
      case .receipt:
        let receipts = try tx.listReceipts()
        location.listPosition = receipts.lastIndex { $0.id == id }.map { receipts.count - $0 }
      case .knowledge: location.mirroredMemoryID = try tx.knowledge(id: id)?.memoryID
      case .handoff, .digest: break
      }
      return location
    }
  }
}

/// What a search says of a query that is a whole record id, since it matches words, not ids
/// (review 28-a, 2: only the CLI's text said it; `--json` and MCP did not): which record has
/// the id and what shows it, or that no record has it. Each face (the CLI, the MCP tools) fills
/// in its own command or tool (``SearchResponse/idLookup``).
public struct IDLookup: Sendable, Equatable, Codable {
  /// The id the query is (upper case in JSON).
  public var id: UUID
  /// The type of the record that has it; nil (absent in JSON) when no record of the workspace
  /// has it.
  public var recordType: RecordType?
  /// What shows that record: a command for the CLI (`dolphin task get <id>`), a tool call for
  /// MCP (`knowledge_get {"id": "<id>"}`); nil (absent in JSON) when no record has the id, or
  /// nothing of that face shows it by id.
  public var shownBy: String?
  /// The pointer in words, as the text output prints it: `<id> is a task's id; search matches
  /// words, not ids: dolphin task get <id> shows it`.
  public var message: String

  /// Makes a pointer.
  public init(id: UUID, recordType: RecordType?, shownBy: String?, message: String) {
    self.id = id
    self.recordType = recordType
    self.shownBy = shownBy
    self.message = message
  }
}

extension SearchResponse {
  /// The id the query is, when it is one whole UUID (white space around it ignored) and the
  /// search found nothing: what ``idLookup`` is made for. Nil otherwise.
  public var queryID: UUID? {
    results.isEmpty ? UUID(uuidString: query.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
  }
}

/// How one face — the CLI's commands, the MCP tools, `ask`'s slash commands — names what takes
/// or shows a record, for the note ``KnowledgeEngine/idOwnerNote(for:givenID:advice:)`` adds to
/// an error about an id given for the wrong type of record. The wording of the note is the
/// engine's, so that every face says it alike (review 28-d, 4: the MCP tools and `ask` said only
/// "no knowledge item has the id …" where the CLI named the owner).
public struct IDOwnerAdvice: Sendable {
  /// What to do with the id of the record at the location given, in this face's words, said
  /// after a semicolon: `` give it to `dolphin task get <id>` ``, `knowledge_get {"id": "<id>"}
  /// shows it`; nil when nothing of this face takes or shows such a record.
  public var forRecord: @Sendable (RecordLocation) -> String?
  /// For the id of a knowledge item that mirrors a legacy memory, given where a memory's id is
  /// taken: the command that takes that memory's id (`` `dolphin memory delete <id>` ``); nil
  /// when the face has none, and the note then names the knowledge item as any other.
  public var forMirroredMemory: @Sendable (_ memoryID: UUID) -> String?

  /// Makes the advice of one face.
  /// - Parameters:
  ///   - forRecord: see ``forRecord``.
  ///   - forMirroredMemory: see ``forMirroredMemory``; by default none.
  public init(
    forRecord: @escaping @Sendable (RecordLocation) -> String?,
    forMirroredMemory: @escaping @Sendable (_ memoryID: UUID) -> String? = { _ in nil }
  ) {
    self.forRecord = forRecord
    self.forMirroredMemory = forMirroredMemory
  }
}

extension KnowledgeEngine {
  /// The note an error adds when it says that no record of the type asked for has `givenID`
  /// (``WorkspaceError/notFound(recordType:id:)``) and a record of another type has it:
  /// ` (it is a task's id; <advice>)` (``RecordType/heldIDNote(_:expected:)``), or, for the id
  /// of a knowledge item mirroring a memory given where a memory's id is taken, ` (it is the id
  /// of the knowledge item mirroring memory <id>; give that memory's id: <command>)`. One helper
  /// for the CLI, the MCP tools and `ask` (review 28-a, 2; review 28-b, 10; review 28-c, 12;
  /// review 28-d, 4), each naming its own commands or tools through `advice`.
  /// - Parameters:
  ///   - error: what the command or tool threw.
  ///   - givenID: the id the user or client gave; an error about any other id gets no note.
  ///   - advice: how the face names what takes or shows the record.
  /// - Returns: the note, starting with a space; nil for any other error, an id no record has,
  ///   or one a record of the type asked for has (a legacy memory's id given to a memory
  ///   command), or when the store cannot be read.
  public func idOwnerNote(for error: any Error, givenID: UUID, advice: IDOwnerAdvice) -> String? {
    guard case WorkspaceError.notFound(let type, let text) = error, UUID(uuidString: text) == givenID,
      let place = try? recordLocation(of: givenID),
      place.type.noun != type, !(place.type == .memory && type == "memory")
    else { return nil }
    // A memory command given the id of a memory's knowledge mirror (the id `knowledge list`
    // shows): the memory it mirrors is what the command is about (review 28-c, 12).
    if type == "memory", let memory = place.mirroredMemoryID, let command = advice.forMirroredMemory(memory) {
      return " (it is the id of the knowledge item mirroring memory \(memory.uuidString); give that memory's id: \(command))"
    }
    return place.type.heldIDNote(advice.forRecord(place))
  }
}
