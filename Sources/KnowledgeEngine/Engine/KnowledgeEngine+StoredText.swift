import ContinuityKit
import Foundation

// Stored text over a bound of this build — an earlier dolphin stored it before the bound existed,
// or another program did — blocks a command that rewrites its record. Such a refusal names the
// record and says that it is its stored text, not the text the user gave (review 19-b, F13:
// `knowledge edit ID --priority high` said "`--title` is 400 characters", and `knowledge delete B`
// named neither the related item A nor "stored"), with the way out that keeps the record where
// there is one.
extension KnowledgeEngine {
  /// How to bring a stored record's `field` within its bound, in words with the command:
  /// for a knowledge item, `knowledge edit` with the option that sets the field (it keeps the
  /// item's id, relationships and the references to it); a memory, task or handoff has no edit,
  /// so it is deleted and stored again.
  /// - Parameters:
  ///   - recordType: `knowledge`, `memory`, `task` or `handoff` (``TextOverBoundReport/Entry/recordType``).
  ///   - id: the record's id as stored.
  ///   - field: the field as validation names it: `title`, `content`, `tags[1]`, `relationships`, …
  /// - Returns: e.g. ``give it a title within the bound: `dolphin knowledge edit 5D… --title …`
  ///   (it keeps its id and relationships)``.
  public static func storedTextFix(recordType: String, id: String, field: String) -> String {
    let base = field.prefix { $0 != "[" }
    switch (recordType, base) {
    case ("knowledge", "title"):
      return "give it a title within the bound: `\(command: "dolphin knowledge edit \(id) --title …")` (it keeps its id and relationships)"
    case ("knowledge", "content"):
      return "give it content within the bound: `\(command: "dolphin knowledge edit \(id) --content …")` (it keeps its id and "
        + "relationships)"
    case ("knowledge", "tags"):
      return "give it tags within the bound: `\(command: "dolphin knowledge edit \(id) --tags …")` replaces them all, "
        + "`--remove-tags …` drops some (it keeps its id and relationships)"
    case ("knowledge", "relationships"):
      return "remove relationships from it: `\(command: "dolphin knowledge edit \(id) --unrelate ID")` (it keeps its id)"
    case ("knowledge", _):
      return "capture a new item within the bound that supersedes it (`\(command: "dolphin capture … --relates supersedes:\(id)")`)"
    case ("memory", _):
      return "delete it (`\(command: "dolphin memory delete \(id)")`) and save it again within the bound; memories have no edit"
    case ("task", _):
      return "delete it (`\(command: "dolphin task delete \(id)")`) and add it again within the bound; tasks have no edit, and "
        + "a handoff that carries the task no longer does"
    case ("handoff", _):
      return "delete it (`\(command: "dolphin handoff delete \(id)")`) and create it again within the bound; handoffs have no edit"
    default:
      return "delete it and store it again within the bound"
    }
  }

  /// The refusal of an edit of knowledge item `id` whose stored text `error` found over a bound
  /// (the text the edit gives was checked before): it is the stored field, and the option that
  /// fixes it in the same command.
  static func storedKnowledgeRefusal(_ error: ValidationError, id: UUID, doing: String) -> WorkspaceError {
    let field = error.field.prefix { $0 != "[" }
    return .validation(
      ValidationError(
        field: error.field, limit: error.limit, actual: error.actual,
        message: "knowledge item \(id.uuidString) cannot be \(doing): its stored \(error.message). It was stored "
          + "before this bound existed, or by another program; nothing was changed. To fix it, "
          + storedTextFix(recordType: "knowledge", id: id.uuidString, field: String(field))
          + (field == "title" || field == "content" || field == "tags" ? ", in this edit or before it" : "")))
  }

  /// Refuses, before anything is written, a deletion of `target` that must rewrite `record` (an
  /// item that relates to it, a task or handoff that refers to it) when `record`, as the deletion
  /// leaves it, is over a bound: its stored text is, since the deletion only takes something away.
  /// - Parameters:
  ///   - recordType: `knowledge`, `task` or `handoff`.
  ///   - id: the record rewritten.
  ///   - relation: how it refers to the target, e.g. `relates to it (supports)`.
  ///   - target: what is deleted, e.g. `knowledge item 5D…`.
  ///   - check: validates the record as the deletion leaves it (``Limits/validate(_:)-…``).
  /// - Throws: ``WorkspaceError/validation(_:)`` naming both records, the stored field, its bound
  ///   and size, and what fixes it.
  static func requireRewritable(
    _ recordType: String, _ id: UUID, _ relation: String, deleting target: String,
    _ check: () throws(ValidationError) -> Void
  ) throws(WorkspaceError) {
    do { try check() } catch {
      let name = recordType == "knowledge" ? "knowledge item" : recordType
      throw .validation(
        ValidationError(
          field: error.field, limit: error.limit, actual: error.actual,
          message: "cannot delete \(target): \(name) \(id.uuidString) \(relation), and the deletion rewrites it, but its "
            + "stored \(error.message). It was stored before this bound existed, or by another program; nothing was "
            + "changed. To fix it first, " + storedTextFix(recordType: recordType, id: id.uuidString, field: error.field)
            + "; then delete again"))
    }
  }
}
