import Foundation

/// Writes and removes the persisted lexical index rows of one document inside the caller's
/// transaction. (Filled in by the retrieval work; until then it writes nothing.)
enum LexicalIndexStore {
  static func index(knowledge item: KnowledgeItem, rowID: Int64, in tx: WorkspaceTransaction) throws {}
  static func index(memory: MemoryItem, rowID: Int64, in tx: WorkspaceTransaction) throws {}
  static func remove(knowledgeRowID: Int64, in tx: WorkspaceTransaction) throws {}
  static func remove(memoryRowID: Int64, in tx: WorkspaceTransaction) throws {}
}
