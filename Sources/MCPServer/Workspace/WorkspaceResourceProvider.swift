import ContinuityKit
import Foundation
import KnowledgeEngine

/// Offers the workspace as readable MCP resources.
///
/// | URI | MIME type | Contents |
/// |---|---|---|
/// | `dolphin://digest/current` | `text/markdown` | the rule-based digest, computed on each read, never stored |
/// | `dolphin://handoff/active` | `application/json` | the active handoff; listed only while one is active |
/// | `dolphin://knowledge/<UUID>` | `application/json` | one knowledge item (upper-case UUID), with `supersededBy` when other items supersede it |
///
/// Superseded items are history everywhere (as `knowledge_get` shows them): the JSON of such an
/// item carries `supersededBy`, the ids of the items that supersede it
/// (``KnowledgeEngine/knowledgeWithSuccessors(id:)``), and its `resources/list` title ends with
/// ` (superseded by <id>)` (``KnowledgeEngine/supersededNote(_:)``).
///
/// `resources/list` pages through the knowledge items in id order, ``pageSize`` at a time;
/// the first page starts with the digest and the active handoff. The cursor is opaque (base64
/// of the last id shown), so pages stay stable while items are added or removed: an item
/// present throughout is listed exactly once. A cursor this provider did not issue is
/// ``MCPServerError/invalidCursor(_:)``; an unknown URI is
/// ``MCPServerError/resourceNotFound(uri:reason:)``; a workspace that cannot be opened is
/// ``MCPServerError/workspaceUnavailable(path:reason:)``.
///
/// Reading never writes: no receipt, no stored digest, no change to the active handoff, and
/// no workspace is created; where none exists yet, the digest and the not-found reasons say so
/// (``MCPWorkspace/absenceNotice(of:)``).
///
/// Text meant to be read — the digest's Markdown and every resource's title and description —
/// is sanitized again on the way out (``Sanitizer/sanitize(_:)``), as tool text is: a workspace
/// written by another program, or before a sanitizer rule existed, may hold a role or tool
/// delimiter or a terminal escape, which must not reach a model live (review, s17). Its control
/// characters are shown first, never dropped: as escapes (`\u{1B}`) in titles and
/// descriptions, as pictures (`␛`) in the digest. The JSON resources are the records as stored,
/// data for a client to parse.
public struct WorkspaceResourceProvider: MCPResourceProvider {
  /// The computed digest.
  public static let digestURI = "dolphin://digest/current"
  /// The active handoff.
  public static let activeHandoffURI = "dolphin://handoff/active"
  /// The prefix of knowledge item URIs; the UUID follows.
  public static let knowledgeURIPrefix = "dolphin://knowledge/"

  /// The workspace read.
  public let workspace: MCPWorkspace
  /// Knowledge items per `resources/list` page (at least 1).
  public let pageSize: Int

  /// A provider over `workspace`.
  ///
  /// - Parameters:
  ///   - workspace: the workspace to read.
  ///   - pageSize: knowledge items per page (default 100; values below 1 count as 1).
  public init(workspace: MCPWorkspace, pageSize: Int = 100) {
    self.workspace = workspace
    self.pageSize = max(1, pageSize)
  }

  /// The URI of knowledge item `id`.
  public static func knowledgeURI(_ id: UUID) -> String { knowledgeURIPrefix + id.uuidString }

  /// One page of resources: see the type's discussion.
  ///
  /// - Throws: ``MCPServerError/invalidCursor(_:)``,
  ///   ``MCPServerError/workspaceUnavailable(path:reason:)``, storage errors.
  public func listResources(cursor: String?) throws -> MCPResourcePage {
    var after: UUID?
    if let cursor {
      guard let id = KnowledgePageCursor.decode(cursor) else {
        throw MCPServerError.invalidCursor(cursor)
      }
      after = id
    }
    let engine = try workspace.engine()
    let limit = pageSize
    let (items, successors, active) = try engine.store.read { tx in
      let items = try tx.listKnowledge(afterID: after, limit: limit + 1)
      let graph = try tx.supersedeGraph()
      let successors = items.map { graph.successors(of: $0.id) }
      let active = after == nil ? try tx.activeHandoffID().flatMap { try tx.handoff(id: $0) } : nil
      return (items, successors, active)
    }
    var resources: [MCPResource] = []
    if after == nil {
      resources.append(Self.digestResource)
      if let active { resources.append(Self.handoffResource(active)) }
    }
    let page = items.prefix(limit)
    resources += zip(page, successors).map { Self.knowledgeResource($0, supersededBy: $1) }
    let next = items.count > limit ? page.last.map { KnowledgePageCursor.encode($0.id) } : nil
    return MCPResourcePage(resources: resources, nextCursor: next)
  }

  /// `dolphin://knowledge/{id}`.
  public func listResourceTemplates() -> [MCPResourceTemplate] {
    [
      MCPResourceTemplate(
        uriTemplate: Self.knowledgeURIPrefix + "{id}", name: "knowledge",
        title: "Knowledge item",
        description: "One knowledge item by UUID, as JSON (id, kind, title, content, tags, "
          + "relationships, priority, source, dates; supersededBy, the ids of the items that supersede it, when any do: "
          + "it is then history, not current).",
        mimeType: "application/json")
    ]
  }

  /// The contents at `uri`: see the type's discussion.
  ///
  /// - Throws: ``MCPServerError/resourceNotFound(uri:reason:)`` for an unknown URI, a knowledge id
  ///   that is not a UUID or not in the workspace, or no active handoff;
  ///   ``MCPServerError/workspaceUnavailable(path:reason:)``; storage errors.
  public func readResource(uri: String) throws -> [MCPResourceContents] {
    switch uri {
    case Self.digestURI:
      let engine = try workspace.engine()
      let digest = try engine.store.read { tx in
        try DigestBuilder.build(
          tx, id: engine.environment.makeID(), now: engine.environment.now(), trigger: .manual)
      }
      return [
        MCPResourceContents(
          uri: uri, mimeType: "text/markdown",
          // Stored controls shown as pictures, as tool text shows them, not dropped.
          text: Sanitizer.sanitize(
            TerminalText.inert(
              TerminalText.escapingBidiControls(DigestMarkdown.render(digest, absence: workspace.absenceNotice(of: engine))))))
      ]
    case Self.activeHandoffURI:
      let engine = try workspace.engine()
      let active = try engine.store.read { tx in
        try tx.activeHandoffID().flatMap { try tx.handoff(id: $0) }
      }
      guard let active else {
        // Listed only while one is active; a client that kept the URI learns why it is gone.
        throw MCPServerError.resourceNotFound(
          uri: uri,
          reason: "no handoff is active; "
            + (workspace.absenceNotice(of: engine) ?? "handoff_restore makes one active, handoff_list lists them"))
      }
      return [
        MCPResourceContents(
          uri: uri, mimeType: "application/json", text: try StableJSON.string(active, pretty: true))
      ]
    case _ where uri.hasPrefix(Self.knowledgeURIPrefix):
      guard let id = UUID(uuidString: String(uri.dropFirst(Self.knowledgeURIPrefix.count))) else {
        throw MCPServerError.resourceNotFound(
          uri: uri, reason: "what follows \(Self.knowledgeURIPrefix) is not a UUID (expected e.g. 3F2504E0-4F89-11D3-9A0C-0305E82C3301)")
      }
      let engine = try workspace.engine()
      let found: (item: KnowledgeItem, supersededBy: [(id: UUID, title: String)])
      do {
        found = try engine.knowledgeWithSuccessors(id: id)
      } catch WorkspaceError.notFound {
        throw MCPServerError.resourceNotFound(
          uri: uri,
          reason: "no knowledge item has the id \(id.uuidString)" + (workspace.absenceNotice(of: engine).map { "; " + $0 } ?? ""))
      }
      // The record as stored, and who supersedes it, as `knowledge_get` gives both (review 19-a).
      var json = try JSONValue(encoding: found.item)
      if !found.supersededBy.isEmpty, case .object(var members) = json {
        members["supersededBy"] = .array(found.supersededBy.map { .string($0.id.uuidString) })
        json = .object(members)
      }
      return [
        MCPResourceContents(
          uri: uri, mimeType: "application/json", text: try StableJSON.string(json, pretty: true))
      ]
    default:
      throw MCPServerError.resourceNotFound(uri: uri)
    }
  }

  // MARK: Descriptions

  static let digestResource = MCPResource(
    uri: digestURI, name: "digest-current", title: "Project digest (computed now)",
    description: "The rule-based digest of the workspace, computed on each read and never "
      + "stored: decisions, preferences, goals, open tasks, recent context, priorities and open "
      + "questions, each line with the ids of its evidence.",
    mimeType: "text/markdown")

  /// Stored text as a title or description shows it: each control but a tab or line break, and
  /// each bidirectional control, written as an escape (`\u{7}`, `\u{202E}`), as `dolphin`
  /// prints a title (the sanitizer would drop them and show another title), then sanitized
  /// again.
  static func shown(_ text: String) -> String {
    Sanitizer.sanitize(TerminalText.escapingControls(TerminalText.escapingBidiControls(text)))
  }

  static func handoffResource(_ handoff: Handoff) -> MCPResource {
    MCPResource(
      uri: activeHandoffURI, name: "handoff-active",
      title: "Active handoff: " + Truncation.truncate(shown(handoff.focus), to: 120),
      description: "The handoff restored most recently (\(handoff.id.uuidString)), as JSON: "
        + "focus, summary, next steps, knowledge and task ids, excerpts.",
      mimeType: "application/json")
  }

  /// The listing of `item`, whose title ends with ` (superseded by <id>)` when `supersededBy`
  /// (the ids of the items that supersede it) is not empty.
  static func knowledgeResource(_ item: KnowledgeItem, supersededBy: [UUID] = []) -> MCPResource {
    let firstLine = shown(item.content).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    // After the title, which is cut first, so that no title can push the mark out or forge one.
    let superseded = supersededBy.isEmpty ? "" : " (\(KnowledgeEngine.supersededNote(supersededBy)))"
    return MCPResource(
      uri: knowledgeURI(item.id), name: "knowledge-\(item.id.uuidString)",
      title: "\(item.kind.rawValue): \(Truncation.truncate(TerminalText.singleLine(shown(item.title)), to: 200))" + superseded,
      description: firstLine.isEmpty ? nil : Truncation.truncate(firstLine, to: 200),
      mimeType: "application/json")
  }
}

/// The opaque `resources/list` cursor: base64 of `knowledge-after:<UUID>`.
enum KnowledgePageCursor {
  private static let prefix = "knowledge-after:"

  /// The cursor that continues after `id`.
  static func encode(_ id: UUID) -> String {
    Data((prefix + id.uuidString).utf8).base64EncodedString()
  }

  /// The id a cursor continues after, or nil when this provider did not issue it.
  static func decode(_ cursor: String) -> UUID? {
    guard cursor.utf8.count <= 128, let data = Data(base64Encoded: cursor),
      let text = String(data: data, encoding: .utf8), text.hasPrefix(prefix),
      let id = UUID(uuidString: String(text.dropFirst(prefix.count))),
      encode(id) == cursor
    else { return nil }
    return id
  }
}
