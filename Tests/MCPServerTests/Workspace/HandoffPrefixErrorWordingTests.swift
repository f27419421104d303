import AgentRuntime
import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer
import Testing
import TestSupport

/// Review 28-d, 9: the ambiguous-prefix error of `handoff_get` was read as starting `run:
/// invalid arguments: …` and `handoff_restore`'s as `invalid arguments: …`. Both read as every
/// other refused argument does — `<tool> was not run: invalid arguments: arguments.id …` — in
/// the text and in `structuredContent.error.message`, whether or not the client can be asked
/// for approval (the write's approval path runs its checks first).
@Suite("MCP handoff_get and handoff_restore: one wording for an ambiguous id prefix")
struct HandoffPrefixErrorWordingTests {
  @Test("the same shape as any invalid argument, with and without elicitation", arguments: [false, true])
  func sameShape(_ canElicit: Bool) async throws {
    let (fixture, _, _, _) = try HandoffParityTests.referencedWorkspace()
    let client = FakeElicitation { MCPElicitationResult(action: .accept, content: ["approve": true]) }
    let provider = RegistryToolProvider(workspace: fixture.workspace)
    let detail =
      "invalid arguments: arguments.id 'abcdef01' begins 2 handoff ids, so it names none of them: "
      + "ABCDEF01-0000-4000-8000-000000000002 \"Twin two\"; ABCDEF01-0000-4000-8000-000000000001 \"Twin one\". Give more of the id"
    for tool in ["handoff_get", "handoff_restore", "knowledge_get"] {
      let arguments: JSONObject = ["id": tool == "knowledge_get" ? "not-an-id" : "abcdef01"]
      let result = await provider.callTool(name: tool, arguments: arguments, context: client.context(canElicit: canElicit))
      #expect(result.isError)
      #expect(result.text.hasPrefix("\(tool) was not run: invalid arguments: arguments.id '"), "\(result.text)")
      if tool != "knowledge_get" { #expect(result.text.hasPrefix("\(tool) was not run: \(detail)"), "\(result.text)") }
      #expect(result.structuredContent?["error"]?["message"]?.string == result.text, "\(result.structuredContent ?? [:])")
      #expect(result.structuredContent?["error"]?["kind"] == "invalidArguments")
    }
    #expect(client.requests.isEmpty, "nobody was asked to approve a call that cannot run")
  }
}
