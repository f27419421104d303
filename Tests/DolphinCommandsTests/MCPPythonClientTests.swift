import Foundation
import Testing
import TestSupport

/// Runs the real MCP client (the official Python SDK, Tests/MCPClient/test_mcp_client.py)
/// against the built `dolphin mcp`.
///
/// The interpreter is `$DOLPHIN_TEST_PYTHON` when set (CI: `.ci/run` creates `.venv-test`
/// from scripts/requirements-test.txt and exports it); a set variable always runs the test, so
/// a broken environment fails rather than skips. Without it, `python3` runs the test when
/// `import mcp` works there; otherwise the test is skipped with the reason.
@Suite("The official MCP Python SDK drives dolphin mcp")
struct MCPPythonClientTests {
  /// The interpreter and how it was found, or why there is none.
  static let python: (command: [String]?, reason: String) = {
    let environment = ProcessInfo.processInfo.environment
    if let configured = environment["DOLPHIN_TEST_PYTHON"], !configured.isEmpty {
      return ([configured], "DOLPHIN_TEST_PYTHON=\(configured)")
    }
    let probe = try? runProcess("/usr/bin/env", ["python3", "-c", "import mcp"])
    if probe?.status == 0 {
      return (["/usr/bin/env", "python3"], "python3 on PATH has the mcp package")
    }
    return (
      nil,
      "the real MCP client test needs the `mcp` Python package. Set DOLPHIN_TEST_PYTHON "
        + "to an interpreter that has it (`python3 -m venv .venv-test && .venv-test/bin/pip "
        + "install -r scripts/requirements-test.txt`, then DOLPHIN_TEST_PYTHON=$PWD/.venv-test/bin/python), "
        + "or run .ci/run, which does this"
    )
  }()

  @Test(
    "initialize, tools, elicitation accept/decline, resources, prompt, policies, concurrency",
    .enabled(if: python.command != nil, Comment(rawValue: python.reason)),
    .timeLimit(.minutes(5)))
  func realClient() throws {
    let command = try #require(Self.python.command)
    let script = repositoryRoot.appendingPathComponent("Tests/MCPClient/test_mcp_client.py").path
    let result = try runProcess(
      command[0], Array(command.dropFirst()) + [script, "--dolphin", dolphinExecutable().path],
      environment: ["PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"])
    let closing = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
    #expect(
      result.status == 0,
      "the MCP client failed (\(Self.python.reason)), exit \(result.status):\n\(result.stderr.suffix(6000))\n\(result.stdout.suffix(2000))"
    )
    #expect(closing.hasPrefix("mcp-client: OK — mcp "), "closing line: \(closing)")
    // The counts, for the test log.
    print(closing)
  }
}
