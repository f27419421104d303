import Foundation
import Testing
import TestSupport

/// Review 28-d, 9 and review 28-c: advice that, followed as printed, does what was asked, and
/// errors that name what the user can find.
@Suite("dolphin: review 28-d wording — advice that works pasted, input lines named", .serialized)
struct Review28dWordingCommandTests {
  /// The command between the first pair of backticks after `marker` in `text`, as words (the
  /// values here hold no character a shell would need quoted, but `'New title'`, which is
  /// unquoted here as a shell would).
  static func command(in text: String, after marker: String) throws -> [String] {
    let start = try #require(text.range(of: marker), "\(text)").upperBound
    let rest = text[start...]
    let open = try #require(rest.firstIndex(of: "`"), "\(text)")
    let close = try #require(rest[rest.index(after: open)...].firstIndex(of: "`"), "\(text)")
    return shellWords(String(rest[rest.index(after: open)..<close]))
  }

  /// Splits a command line as a shell does for words and single-quoted words.
  static func shellWords(_ line: String) -> [String] {
    var words: [String] = []
    var word = ""
    var quoted = false
    var inWord = false
    for ch in line {
      if ch == "'" {
        quoted.toggle()
        inWord = true
      } else if ch == " " && !quoted {
        if inWord { words.append(word) }
        word = ""
        inWord = false
      } else {
        word.append(ch)
        inWord = true
      }
    }
    if inWord { words.append(word) }
    return words
  }

  /// Review 28-d, 9: `task edit <knowledge id> --title x` advised `dolphin knowledge edit ID`,
  /// which, pasted, failed with "nothing to change".
  @Test("task edit given a knowledge item's id: the advised knowledge edit carries --title and, pasted, renames it")
  func taskEditOfKnowledgeCarriesOptions() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require(try cli.record("item", ["capture", "decision", "Use SQLite"])["id"] as? String)
    let wrong = try cli.run(["task", "edit", k, "--title", "New title", "--priority", "high"])
    #expect(wrong.status == 3, "\(wrong.stderr)")
    #expect(
      wrong.stderr.contains(
        "(it is a knowledge item's id; give it to `dolphin knowledge edit \(k) --title 'New title' --priority high --workspace \(cli.workspace)`)"),
      "\(wrong.stderr)")
    let advised = try Self.command(in: wrong.stderr, after: "give it to ")
    let followed = try runDolphin(Array(advised.dropFirst()))
    #expect(followed.status == 0, "\(advised): \(followed.stderr)")
    let item = try cli.record("item", ["knowledge", "get", k])
    #expect(item["title"] as? String == "New title" && item["priority"] as? String == "high")
  }

  @Test("an option the other edit does not take is named, and the advice given still works")
  func optionsNotTakenAreNamed() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let k = try #require(try cli.record("item", ["capture", "fact", "WAL mode is on"])["id"] as? String)
    // Nothing carries over: the bare command would fail, so only where the options are is said.
    let notes = try cli.run(["task", "edit", k, "--notes", "Checked on staging"])
    #expect(notes.status == 3)
    #expect(
      notes.stderr.contains(
        "(it is a knowledge item's id; `knowledge edit` takes no --notes (`dolphin knowledge edit --help --workspace \(cli.workspace)` lists its options))"),
      "\(notes.stderr)")
    let help = try runDolphin(Array(try Self.command(in: notes.stderr, after: "takes no --notes (").dropFirst()))
    #expect(help.status == 0 && help.stdout.contains("--content"), "\(help.stderr)")
    // Some carry over: the command with those, and the others named.
    let t = try #require(try cli.record("task", ["task", "add", "Benchmark WAL"])["id"] as? String)
    let mixed = try cli.run(["knowledge", "edit", t, "--title", "Benchmark WAL mode", "--content", "On the staging box"])
    #expect(mixed.status == 3)
    #expect(
      mixed.stderr.contains(
        "(it is a task's id; give it to `dolphin task edit \(t) --title 'Benchmark WAL mode' --workspace \(cli.workspace)`; "
          + "`task edit` takes no --content (`dolphin task edit --help --workspace \(cli.workspace)` lists its options))"),
      "\(mixed.stderr)")
    let followed = try runDolphin(Array(try Self.command(in: mixed.stderr, after: "give it to ").dropFirst()))
    #expect(followed.status == 0, "\(followed.stderr)")
    #expect(try cli.record("task", ["task", "get", t])["title"] as? String == "Benchmark WAL mode")
    // A flag the other command takes is carried too: `--yes`, so the pasted delete asks nothing.
    let delete = try cli.run(["knowledge", "delete", t, "--yes"])
    #expect(delete.status == 3)
    let advised = try Self.command(in: delete.stderr, after: "give it to ")
    #expect(advised == ["dolphin", "task", "delete", t, "--yes", "--workspace", cli.workspace], "\(delete.stderr)")
    #expect(try runDolphin(Array(advised.dropFirst())).status == 0)
  }

  /// Review 28-d, 9: with blank lines before it, a 301-character fourth line was `--next #2 is
  /// 301 characters`, a number the user does not see in the input.
  @Test("handoff create --next -: an error about a step names its input line")
  func nextStepErrorNamesInputLine() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let long = String(repeating: "x", count: 301)
    let input = "\n\u{2800}\n Check the WAL size\n\n\(long)\nShip it\n"
    let r = try cli.run(["handoff", "create", "--focus", "Storage", "--next", "-"], stdin: input)
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr.contains("--next - line 5 (step #2) is 301 characters"), "\(r.stderr)")
    #expect(!r.stderr.contains("--next #2"), "\(r.stderr)")
    // A step given as an argument is still counted among the steps.
    let arg = try cli.run(["handoff", "create", "--focus", "Storage", "--next", "Fine", "--next", long])
    #expect(arg.stderr.contains("--next #2 is 301 characters"), "\(arg.stderr)")
  }

  /// Review 28-d, 9: `\u{2800}x` was stored with the invisible Braille blank before the text.
  @Test("handoff create --next -: invisible characters around a line's text are dropped, an emoji's selector kept")
  func invisibleEndsTrimmed() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let input = "\u{2800}Check the logs\n\u{200B}Rotate the key\u{2800}\u{3164}\nShip it \u{2764}\u{FE0F}\n"
    let r = try cli.run(["handoff", "create", "--focus", "Storage", "--next", "-", "--json"], stdin: input)
    #expect(r.status == 0, "\(r.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let h = try #require(json["handoff"] as? [String: Any])
    #expect(h["nextSteps"] as? [String] == ["Check the logs", "Rotate the key", "Ship it \u{2764}\u{FE0F}"], "\(h)")
  }

  /// Review 28-c: `/task` with two lines stored both in the title.
  @Test("ask '/task' with a title of two lines: refused with exit 2, nothing stored")
  func askTaskTwoLines() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["ask", "/task Buy milk\n/remember B", "--yes"])
    #expect(r.status == 2, "\(r.stdout) \(r.stderr)")
    #expect(r.stderr.contains("/task needs a title on one line"), "\(r.stderr)")
    #expect(try cli.run(["status"]).status == 3, "no workspace was created")
  }

  /// Review 28-d, 9: the cut fragment `he` of `hello` was reported as a word not searched.
  @Test("ask with a message past the query bound: no fragment searched, and the cut said")
  func askLongMessage() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.run(["capture", "fact", "Hello world greeting"])
    let r = try cli.run(["ask", "-"], stdin: String(repeating: "hello ", count: 2_000))
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!r.stdout.contains("'he'") && !r.stderr.contains("'he'"), "\(r.stdout)")
    #expect(r.stderr.contains("the message is 11999 characters, and only its first"), "\(r.stderr)")
  }

  /// Review 28-c: `status` flagged credential-holding records without doctor's advice of where
  /// each came from and what removes it.
  @Test("status with credential-holding records points to doctor, which names the removal command")
  func statusPointsToDoctor() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "Staging key", "--content", "aws key AKIAIOSFODNN7EXAMPLE", "--allow-credentials"]).status == 0)
    let status = try cli.run(["status"])
    #expect(status.status == 0)
    let line = "  Rotate any real secret; `dolphin doctor --workspace \(cli.workspace)` says where each type of record came from and the command that removes it."
    #expect(status.stdout.contains(line), "\(status.stdout)")
    let doctor = try runDolphin(Array(try Self.command(in: status.stdout, after: "Rotate any real secret; ").dropFirst()))
    #expect(doctor.stdout.contains("`dolphin knowledge delete ID --workspace \(cli.workspace)`"), "\(doctor.stdout)")
    // None held: nothing added.
    let clean = CLI()
    defer { clean.dir.remove() }
    _ = try clean.run(["capture", "fact", "No secret here"])
    #expect(!(try clean.run(["status"])).stdout.contains("Rotate any real secret"))
  }
}
