import ContinuityKit
import Foundation
import KnowledgeEngine

/// Deterministic renderings and JSON conversions shared by the tools.
enum ToolRendering {
  static func json<T: Encodable>(_ value: T) throws -> JSONValue { try JSONValue(encoding: value) }

  static func knowledgeLine(_ k: KnowledgeItem) -> String {
    let tags = k.tags.isEmpty ? "" : " [\(k.tags.joined(separator: ", "))]"
    let provenance = k.source == .legacyMemory ? " (legacy memory)" : ""
    return "- \(k.kind.rawValue) \"\(k.title)\"\(tags)\(provenance) (id \(k.id.uuidString))"
  }

  static func knowledgeDetail(_ k: KnowledgeItem) -> String {
    var lines = [
      "\(k.kind.rawValue): \(k.title)", "id: \(k.id.uuidString)", "priority: \(k.priority.rawValue); source: \(k.source.rawValue)",
      "tags: " + (k.tags.isEmpty ? "none" : k.tags.joined(separator: ", ")),
    ]
    for r in k.relationships { lines.append("\(r.kind.rawValue) → \(r.targetID.uuidString)") }
    if !k.content.isEmpty { lines += ["", k.content] }
    return lines.joined(separator: "\n")
  }

  static func taskLine(_ t: TaskItem) -> String {
    "- [\(t.status == .completed ? "x" : " ")] \(t.title) (\(t.priority.rawValue); id \(t.id.uuidString))"
  }

  static func digestText(_ d: Digest) -> String {
    var lines = ["Project context (rule-based digest \(d.algorithm) v\(d.algorithmVersion); evidence ids in brackets)"]
    let sections: [(String, [DigestLine])] = [
      ("Decisions", d.sections.decisions), ("Preferences", d.sections.preferences), ("Goals", d.sections.goals),
      ("Open tasks", d.sections.openTasks), ("Recent context", d.sections.recentContext),
      ("Priorities", d.sections.priorities), ("Open questions", d.sections.questions),
    ]
    for (title, section) in sections where !section.isEmpty {
      lines.append("\(title):")
      for l in section { lines.append("- \(l.text) [\(l.evidenceIDs.map(\.uuidString).joined(separator: ", "))]") }
    }
    if lines.count == 1 { lines.append("(the workspace holds nothing to summarize yet)") }
    return lines.joined(separator: "\n")
  }

  static func uuid(_ args: JSONObject, _ key: String) -> UUID? { args[key]?.string.flatMap(UUID.init(uuidString:)) }
  static func uuids(_ args: JSONObject, _ key: String) -> [UUID] { args[key]?.array?.compactMap { $0.string.flatMap(UUID.init(uuidString:)) } ?? [] }
  static func strings(_ args: JSONObject, _ key: String) -> [String] { args[key]?.array?.compactMap(\.string) ?? [] }

  /// A generic object output schema with the given top-level properties.
  static func outputSchema(_ properties: [String: JSONValue], required: [String] = []) -> JSONValue {
    .object([
      "type": "object", "properties": .object(JSONObject(properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })),
      "required": .array(required.map { .string($0) }),
    ])
  }
  static let anyObject: JSONValue = .object(["type": "object"])
  static let anyArray: JSONValue = .object(["type": "array"])
  static let string: JSONValue = .object(["type": "string"])
  static let integer: JSONValue = .object(["type": "integer"])
}
