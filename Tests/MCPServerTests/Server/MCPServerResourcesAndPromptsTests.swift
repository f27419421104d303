import ContinuityKit
import MCPServer
import Testing

@Suite("MCPServer resources and prompts")
struct MCPServerResourcesAndPromptsTests {
  @Test("resources/list pages with cursors until nextCursor is absent")
  func pagination() async throws {
    let client = TestClient()
    try await client.initialize()
    var uris: [String] = []
    var cursor: JSONValue? = nil
    var pages = 0
    repeat {
      let params: JSONValue = cursor.map { JSONValue.object(["cursor": $0]) } ?? [:]
      let result = try #require(
        try await client.request(pages + 1, "resources/list", params)["result"])
      uris += result["resources"]?.array?.compactMap { $0["uri"]?.string } ?? []
      cursor = result["nextCursor"]
      pages += 1
    } while cursor != nil && pages < 10
    #expect(pages == 3)
    #expect(uris == (1...5).map { "dolphin://knowledge/\($0)" })
    let bad = try await client.request(20, "resources/list", ["cursor": "offset:99"])
    #expect(bad.errorCode == -32602)
    #expect(try await client.request(21, "resources/list", ["cursor": 2]).errorCode == -32602)
    try await client.expectPing()
  }

  @Test("resources/read returns contents; an unknown URI is -32002 with the uri")
  func read() async throws {
    let client = TestClient()
    try await client.initialize()
    let result = try await client.request(1, "resources/read", ["uri": "dolphin://knowledge/2"])[
      "result"]
    #expect(
      result == [
        "contents": [
          ["uri": "dolphin://knowledge/2", "mimeType": "text/markdown", "text": "Body of item-2"]
        ]
      ])
    let missing = try await client.request(2, "resources/read", ["uri": "dolphin://knowledge/99"])
    #expect(missing.errorCode == -32002)
    #expect(missing["error"]?["data"] == ["uri": "dolphin://knowledge/99"])
    #expect(try await client.request(3, "resources/read").errorCode == -32602)
    let templates = try await client.request(4, "resources/templates/list")["result"]?[
      "resourceTemplates"]
    #expect(
      templates == [
        [
          "uriTemplate": "dolphin://knowledge/{id}", "name": "knowledge", "title": "Knowledge item",
          "mimeType": "text/markdown",
        ]
      ])
    try await client.expectPing()
  }

  @Test("prompts/list and prompts/get; argument checks are -32602")
  func prompts() async throws {
    let client = TestClient()
    try await client.initialize()
    let list = try await client.request(1, "prompts/list", nil)["result"]?["prompts"]
    #expect(
      list == [
        [
          "name": "restore_session", "title": "Restore a session",
          "description": "Context from a handoff.",
          "arguments": [
            ["name": "handoff_id", "description": "The handoff's UUID.", "required": true]
          ],
        ]
      ])
    let got = try await client.request(
      2, "prompts/get", ["name": "restore_session", "arguments": ["handoff_id": "H1"]])
    #expect(
      got["result"]
        == [
          "description": "Restore H1",
          "messages": [
            ["role": "user", "content": ["type": "text", "text": "Context for handoff H1"]]
          ],
        ])
    #expect(try await client.request(3, "prompts/get", ["name": "nope"]).errorCode == -32602)
    let missing = try await client.request(4, "prompts/get", ["name": "restore_session"])
    #expect(missing["error"]?["message"] == "prompt restore_session needs the argument handoff_id")
    let extra = try await client.request(
      5, "prompts/get", ["name": "restore_session", "arguments": ["handoff_id": "H", "x": "y"]])
    #expect(
      extra["error"]?["message"] == "prompt restore_session has no argument x; it takes: handoff_id"
    )
    let typed = try await client.request(
      6, "prompts/get", ["name": "restore_session", "arguments": ["handoff_id": 1]])
    #expect(
      typed["error"]?["message"] == "prompt argument handoff_id must be a string, got a number")
    try await client.expectPing()
  }
}
