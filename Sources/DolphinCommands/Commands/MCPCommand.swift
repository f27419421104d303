import ContinuityKit
import Foundation
import KnowledgeEngine
import MCPServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `dolphin mcp`: the workspace as a local MCP server over stdio.
enum MCPCommands {
  static let all = [mcp]

  static let mcp = Command(
    spec: CommandSpec(
      path: ["mcp"],
      summary: "Serve the workspace to MCP clients (Claude, Cursor, VS Code) over stdio.",
      options: [
        OptionSpec(
          name: "writes", value: "POLICY",
          help: "Local writes when the client cannot ask you: ask (default: refuse and explain), "
            + "allow, or deny (refuse always)."),
        OptionSpec(name: "verbose", value: nil, help: "Log every tool call to stderr."),
      ],
      discussion: """
        Speaks MCP (JSON-RPC 2.0, one message per line) on stdin and stdout until stdin closes.
        Nothing but JSON-RPC is written to stdout; notices and logs go to stderr.
        A client that supports elicitation shows you every local write as the exact call first;
        an approval left unanswered for 10 minutes counts as refused, and nothing is written.
        Register it with a client, e.g.:
          claude mcp add dolphin -- /path/to/dolphin mcp --workspace /path/to/workspace
        A missing workspace is created by the first write that succeeds; reads there create nothing and say that no workspace exists yet
        (so a mistyped --workspace shows). A damaged one does not stop the server (calls report it).
        One that could not be written at start is served read-only; a write is checked again, and runs once the files can be written.
        Exit status: 0 once standard input closes and every answer was written; 5 when the server stopped
        because it could not write to standard output (a closed pipe, a full disk, a closed descriptor).
        """,
      noJSONReason: "`dolphin mcp` writes only JSON-RPC to stdout; --json does not apply"),
    run: { ctx in
      let policy =
        try ctx.arguments.value("writes").map {
          try ctx.parseEnum(MCPWritePolicy.self, $0, name: "--writes")
        } ?? .ask
      let verbose = ctx.arguments.has("verbose")
      let directory = ctx.workspaceDirectory
      let console = ctx.console
      // From here on the process's standard output is standard error: only the transport holds
      // the real stdout, so no stray print can ever corrupt the JSON-RPC stream.
      let protocolOutput = divertStandardOutput()
      let workspace = MCPWorkspace(
        path: directory.path, notice: { console.printDiagnostic(MCPServer.logLine("dolphin mcp: notice: " + $0)) }
      ) {
        try openEngine(directory: directory, console: console)
      }
      if verbose {
        console.printError(
          "dolphin mcp: dolphin \(DolphinCLI.version), workspace \(directory.path), "
            + "--writes \(policy.rawValue); serving MCP on stdio")
      }
      // Open the workspace (notices, a legacy import) beside the protocol, not before it: the
      // client's `initialize` is answered at once, and a call that needs the workspace waits
      // for this open (MCPWorkspace serializes opening).
      // The commands its messages suggest name its workspace, given or not: the client's user
      // reads them in another shell, whose DOLPHIN_HOME may not be the server's.
      let opening = Task.detached {
        SuggestedCommand.$workspace.withValue(directory.path) {
          do {
            _ = try workspace.engine()
          } catch {
            console.printDiagnostic(MCPServer.logLine("dolphin mcp: warning: \(error)"))
          }
        }
      }
      // A `-wal` or `-shm` deleted while the server holds the workspace: what it held is copied
      // into the database within about a second, calls or not (review 29-b, 1).
      let watch = Task.detached { await workspace.watchSideFiles(every: .seconds(1)) }
      let server = MCPServer.workspaceServer(
        workspace: workspace, writes: policy, version: DolphinCLI.version, verbose: verbose)
      let end = await SuggestedCommand.$workspace.withValue(directory.path) {
        await server.serve(transport: StdioTransport(output: protocolOutput))
      }
      watch.cancel()
      await opening.value
      await watch.value
      // Closed here, not whenever the store is released: the process may end first, leaving the
      // -wal and -shm beside the database.
      workspace.close()
      // A broken transport is not a clean shutdown: exit 5 (storage and I/O), so that a
      // supervisor or client wrapper can tell the two apart (review 29a, 7). The log already
      // said when it broke; this last line says why the exit code is not 0.
      if case .outputFailed(let reason) = end {
        throw ReportedFailure(
          code: ExitCode.storage,
          message: "dolphin mcp stopped because its output failed (\(reason)); messages read after that "
            + "were not handled, and calls already in flight ran to their end")
      }
      if verbose { console.printError("dolphin mcp: standard input closed; stopping") }
    })

  /// Opens the workspace for the server, as the other commands do, with every notice (open
  /// warnings, read-only reasons, an earlier build's upgrade left for a writable open, a legacy
  /// import) on standard error. A search index made by
  /// another tokenizer version is left for the first tool call that ranks, which rebuilds it
  /// (or searches in memory) and says so once on standard error.
  static func openEngine(directory: URL, console: Console) throws -> KnowledgeEngine {
    // Created by the first write that succeeds (for the server, the first local-write tool call
    // that succeeds), not by starting the server or by a read.
    let store = try SQLiteWorkspaceStore.open(directory: directory, creation: .atFirstWrite)
    for warning in store.warnings { console.printDiagnostic("dolphin mcp: warning: \(warning)") }
    if let reason = store.readOnlyReason {
      console.printDiagnostic(
        "dolphin mcp: notice: \(store.databasePath) is read-only (\(reason)); reads work, "
          + "tools that write will fail")
    }
    // As for the other commands: an earlier build's workspace is read as stored, with a notice;
    // an interrupted first run fails the open, which each tool call then reports.
    try WorkspaceOpening.checkPendingUpgrade(of: store, console: console, program: "dolphin mcp")
    try WorkspaceOpening.afterOpen(store: store, directory: directory, console: console, program: "dolphin mcp")
    return KnowledgeEngine(
      store: store,
      searchIndexObserver: WorkspaceOpening.searchIndexNotices(console: console, program: "dolphin mcp"),
      searchIndexRebuildStarting: WorkspaceOpening.searchIndexRebuildStart(console: console, program: "dolphin mcp"))
  }

  /// Gives the protocol a private copy of standard output and points descriptor 1 at standard
  /// error.
  ///
  /// - Returns: the descriptor to write JSON-RPC messages to; standard output itself when it
  ///   cannot be duplicated.
  static func divertStandardOutput() -> Int32 {
    let copy = dup(STDOUT_FILENO)
    guard copy >= 0 else { return STDOUT_FILENO }
    guard dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else { return copy }
    return copy
  }
}
