import DolphinCommands
import Foundation
import Testing
import TestSupport

/// `import --on-conflict replace` overwrites stored versions: it asks on a terminal and takes
/// --yes, as erase and delete do (review 18-c, C9: it printed the plan and replaced at once).
@Suite("import --on-conflict replace confirms before it overwrites", .serialized)
struct ImportReplaceConfirmationTests {
  /// A workspace holding one fact, and an export of it in which the fact's title was changed.
  static func conflicting(_ dir: TemporaryDirectory) async throws -> (ws: String, file: String, id: String) {
    let ws = dir.appending("ws").path
    let capture = Console()
    #expect(await DolphinCLI.run(["capture", "fact", "Original title", "--json", "--workspace", ws], console: capture) == 0)
    let item = (try JSONSerialization.jsonObject(with: Data(capture.standardOutput.utf8)) as? [String: Any])?["item"]
    let id = try #require((item as? [String: Any])?["id"] as? String)
    let export = Console()
    #expect(await DolphinCLI.run(["export", "--workspace", ws], console: export) == 0)
    let edited = export.standardOutput.replacingOccurrences(of: "Original title", with: "Title from the file")
    let file = dir.appending("repl.json").path
    try Data(edited.utf8).write(to: URL(fileURLWithPath: file))
    return (ws, file, id)
  }

  static func title(_ ws: String, _ id: String) async throws -> String? {
    let get = Console()
    _ = await DolphinCLI.run(["knowledge", "get", id, "--json", "--workspace", ws], console: get)
    let json = try JSONSerialization.jsonObject(with: Data(get.standardOutput.utf8)) as? [String: Any]
    return (json?["item"] as? [String: Any])?["title"] as? String
  }

  @Test("declined on a terminal, nothing is replaced; accepted, the file's version is stored")
  func asksOnATerminal() async throws {
    let dir = TemporaryDirectory("import-replace")
    defer { dir.remove() }
    let (ws, file, id) = try await Self.conflicting(dir)
    let declined = Console(isInteractive: true, input: ["n"])
    let code = await DolphinCLI.run(["import", file, "--on-conflict", "replace", "--workspace", ws], console: declined)
    #expect(code == ExitCode.aborted, "\(declined.standardError)")
    #expect(declined.standardError.contains("Replace 1 stored record(s) with the file's versions? This cannot be undone. [y/N]"))
    #expect(try await Self.title(ws, id) == "Original title")

    let accepted = Console(isInteractive: true, input: ["y"])
    #expect(await DolphinCLI.run(["import", file, "--on-conflict", "replace", "--workspace", ws], console: accepted) == 0)
    #expect(try await Self.title(ws, id) == "Title from the file")
  }

  @Test("without a terminal, replace needs --yes; with it, no question is asked")
  func scriptsPassYes() async throws {
    let dir = TemporaryDirectory("import-replace-yes")
    defer { dir.remove() }
    let (ws, file, id) = try await Self.conflicting(dir)
    let refused = Console()
    let code = await DolphinCLI.run(["import", file, "--on-conflict", "replace", "--workspace", ws], console: refused)
    #expect(code == ExitCode.aborted, "\(refused.standardError)")
    #expect(refused.standardError.contains("needs confirmation: run it in a terminal, or pass --yes; nothing was changed"))
    #expect(try await Self.title(ws, id) == "Original title")
    let yes = Console()
    #expect(await DolphinCLI.run(["import", file, "--on-conflict", "replace", "--yes", "--workspace", ws], console: yes) == 0)
    #expect(!yes.standardError.contains("[y/N]"))
    #expect(try await Self.title(ws, id) == "Title from the file")
    // Nothing to replace: no question, no --yes needed.
    let same = Console()
    #expect(await DolphinCLI.run(["import", file, "--on-conflict", "replace", "--workspace", ws], console: same) == 0)
  }

  /// Review 19-b (F14): `cat e.json | dolphin import - --on-conflict replace` at a terminal was
  /// told to "run it in a terminal, or pass --yes": standard input held the document, so no
  /// answer could be read from it, and --yes is the only way.
  @Test("import - : standard input holds the document, so replace says --yes is the only way, terminal or not")
  func standardInputHoldsTheDocument() async throws {
    let dir = TemporaryDirectory("import-replace-stdin")
    defer { dir.remove() }
    let (ws, file, id) = try await Self.conflicting(dir)
    let document = try String(contentsOfFile: file, encoding: .utf8)
    for interactive in [true, false] {
      // Standard input is the document, read to its end: no question is asked at a terminal either.
      let console = Console(isInteractive: interactive, input: [document])
      let code = await DolphinCLI.run(["import", "-", "--on-conflict", "replace", "--workspace", ws], console: console)
      #expect(code == ExitCode.aborted, "\(console.standardError)")
      #expect(
        console.standardError.contains(
          "replacing 1 stored record(s) with the file's versions needs confirmation, and standard input held the document "
            + "(`import -`), so no answer can be read from it: pass --yes to apply it (or give the input as a file, to be "
            + "asked at a terminal); nothing was changed"), "\(console.standardError)")
      #expect(!console.standardError.contains("[y/N]"), "\(console.standardError)")
      #expect(try await Self.title(ws, id) == "Original title")
    }
    let piped = try runDolphin(["import", "-", "--on-conflict", "replace", "--json", "--workspace", ws], stdin: document)
    #expect(piped.status == 1, "\(piped.stderr)")
    let error = (try JSONSerialization.jsonObject(with: Data(piped.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any]
    #expect(error?["kind"] as? String == "aborted" && error?["plan"] != nil, "\(piped.stdout)")
    #expect((error?["message"] as? String)?.contains("pass --yes to apply it") == true, "\(piped.stdout)")
    let yes = try runDolphin(["import", "-", "--on-conflict", "replace", "--yes", "--workspace", ws], stdin: document)
    #expect(yes.status == 0, "\(yes.stderr)")
    #expect(try await Self.title(ws, id) == "Title from the file")
  }

  // Review 18-d: the plan listed the settings, which have no id, under "same id, different content".
  @Test("the plan names conflicting settings as settings, and records as same-id conflicts")
  func settingsConflictWording() async throws {
    let dir = TemporaryDirectory("import-replace-settings")
    defer { dir.remove() }
    let (ws, file, _) = try await Self.conflicting(dir)
    let plain = Console()
    _ = await DolphinCLI.run(["import", file, "--dry-run", "--workspace", ws], console: plain)
    #expect(plain.standardOutput.contains("same id, different content:"), "\(plain.standardOutput)")
    #expect(await DolphinCLI.run(["settings", "set", "knowledgeItemLimit", "500", "--workspace", ws], console: Console()) == 0)
    let both = Console()
    _ = await DolphinCLI.run(["import", file, "--dry-run", "--workspace", ws], console: both)
    #expect(both.standardOutput.contains("same id, different content; the workspace settings differ:"), "\(both.standardOutput)")
    #expect(both.standardOutput.contains("- settings"), "\(both.standardOutput)")
  }
}
