/// The seam for readable context: the server lists and reads resources through it.
///
/// URIs are the provider's to design (Dolphin uses `dolphin://…`). Throw
/// ``MCPServerError/resourceNotFound(uri:reason:)`` for an unknown URI (answered -32002) and
/// ``MCPServerError/invalidCursor(_:)`` for a cursor you did not issue (-32602); other errors
/// are answered -32603 with their description.
///
/// - Source: MCP 2025-11-25, Server Features › Resources; Utilities › Pagination.
public protocol MCPResourceProvider: Sendable {
  /// One page of resources. `cursor` is nil for the first page, else a ``MCPResourcePage/nextCursor``
  /// this provider returned earlier (opaque to the client).
  func listResources(cursor: String?) async throws -> MCPResourcePage

  /// The URI templates clients can fill in (`resources/templates/list`); default none.
  func listResourceTemplates() async throws -> [MCPResourceTemplate]

  /// The contents of the resource at `uri` (usually one item).
  func readResource(uri: String) async throws -> [MCPResourceContents]
}

extension MCPResourceProvider {
  /// No templates.
  public func listResourceTemplates() async throws -> [MCPResourceTemplate] { [] }
}

/// One page of `resources/list`.
public struct MCPResourcePage: Sendable, Equatable {
  /// The resources on this page.
  public var resources: [MCPResource]
  /// The cursor for the next page, or nil on the last page.
  public var nextCursor: String?

  /// Memberwise: each parameter sets the property of the same name.
  public init(resources: [MCPResource], nextCursor: String? = nil) {
    self.resources = resources
    self.nextCursor = nextCursor
  }
}

/// A resource the client can read (`Resource`).
public struct MCPResource: Sendable, Equatable {
  /// The unique URI, such as `dolphin://digest/current`.
  public var uri: String
  /// The programmatic name.
  public var name: String
  /// The display name (sent from revision 2025-06-18 on).
  public var title: String?
  /// What it holds.
  public var description: String?
  /// Its MIME type, such as `text/markdown` or `application/json`.
  public var mimeType: String?
  /// Its size in bytes, when known.
  public var size: Int?

  /// Memberwise: each parameter sets the property of the same name.
  public init(
    uri: String, name: String, title: String? = nil, description: String? = nil,
    mimeType: String? = nil, size: Int? = nil
  ) {
    self.uri = uri
    self.name = name
    self.title = title
    self.description = description
    self.mimeType = mimeType
    self.size = size
  }
}

/// A family of resources named by an RFC 6570 URI template (`ResourceTemplate`).
public struct MCPResourceTemplate: Sendable, Equatable {
  /// The template, such as `dolphin://knowledge/{id}`.
  public var uriTemplate: String
  /// The programmatic name.
  public var name: String
  /// The display name (sent from revision 2025-06-18 on).
  public var title: String?
  /// What the resources hold.
  public var description: String?
  /// Their MIME type.
  public var mimeType: String?

  /// Memberwise: each parameter sets the property of the same name.
  public init(
    uriTemplate: String, name: String, title: String? = nil, description: String? = nil,
    mimeType: String? = nil
  ) {
    self.uriTemplate = uriTemplate
    self.name = name
    self.title = title
    self.description = description
    self.mimeType = mimeType
  }
}

/// The text contents of a resource (`TextResourceContents`).
public struct MCPResourceContents: Sendable, Equatable {
  /// The URI these contents belong to.
  public var uri: String
  /// Their MIME type.
  public var mimeType: String?
  /// The text.
  public var text: String

  /// Memberwise: each parameter sets the property of the same name.
  public init(uri: String, mimeType: String? = nil, text: String) {
    self.uri = uri
    self.mimeType = mimeType
    self.text = text
  }
}
