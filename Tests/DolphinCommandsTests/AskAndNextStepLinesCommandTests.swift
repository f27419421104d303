import Foundation
import Testing
import TestSupport

/// Review 29-b, 7: `--next -` counted U+2028 and U+2029 as line breaks when naming the input line
/// of a step, and `dolphin ask "👍"` was answered as small talk.
@Suite("ask without words, and --next - input lines", .serialized)
struct AskAndNextStepLinesCommandTests {
  @Test("handoff create --next -: U+2028 and U+2029 end a step without starting a line; \\n and \\r\\n start one")
  func nextStepSeparatorsShareALine() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let long = String(repeating: "x", count: 301)
    let input = "Check\u{2028}Rotate\u{2029}Ship\r\n\(long)\nDone\n"
    let r = try cli.run(["handoff", "create", "--focus", "Storage", "--next", "-"], stdin: input)
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr.contains("--next - line 2 (step #4) is 301 characters"), "\(r.stderr)")
    // The steps a separator splits are still steps of their own, each on the line it stands on.
    let ok = try cli.run(["handoff", "create", "--focus", "Storage", "--next", "-", "--json"], stdin: "Check\u{2028}Rotate\nShip\n")
    #expect(ok.status == 0, "\(ok.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(ok.stdout.utf8)) as? [String: Any])
    #expect((json["handoff"] as? [String: Any])?["nextSteps"] as? [String] == ["Check", "Rotate", "Ship"])
    let third = try cli.run(["handoff", "create", "--focus", "Storage", "--next", "-"], stdin: "a\u{2028}b\n\nc\u{2029}\(long)\n")
    #expect(third.stderr.contains("--next - line 3 (step #4) is 301 characters"), "\(third.stderr)")
  }

  /// Review 30-b, 7: a lone `\r` (an old Mac line end) ended a step but not a line, so the third
  /// line of `a\rb\r<301 characters>` was named line 1.
  @Test("handoff create --next -: a lone \\r ends a line as \\n and \\r\\n do, in any mix")
  func loneCarriageReturnEndsALine() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let long = String(repeating: "x", count: 301)
    let r = try cli.run(["handoff", "create", "--focus", "Storage", "--next", "-"], stdin: "a\rb\r\(long)")
    #expect(r.status == 4, "\(r.stderr)")
    #expect(r.stderr.contains("--next - line 3 (step #3) is 301 characters"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: cli.workspace), "a refused handoff creates no workspace")
    // Mixed line ends, blank lines among them: each \n, \r\n and lone \r is one line end; a
    // U+2028 still ends a step on the same line (review 29-b, 7).
    let mixed = try cli.run(
      ["handoff", "create", "--focus", "Storage", "--next", "-"], stdin: "a\r\n\rb\n\r\n c \r\u{2028}d\r\(long)\n")
    #expect(mixed.status == 4, "\(mixed.stderr)")
    #expect(mixed.stderr.contains("--next - line 7 (step #5) is 301 characters"), "\(mixed.stderr)")
    let ok = try cli.run(["handoff", "create", "--focus", "Storage", "--next", "-", "--json"], stdin: "Check\rRotate\r\rShip\r")
    #expect(ok.status == 0, "\(ok.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(ok.stdout.utf8)) as? [String: Any])
    #expect((json["handoff"] as? [String: Any])?["nextSteps"] as? [String] == ["Check", "Rotate", "Ship"])
    // A focus of exactly its bound read from standard input ends in a lone \r as it may in \n.
    let focus = try cli.run(["handoff", "create", "--focus", "-"], stdin: String(repeating: "f", count: 300) + "\r")
    #expect(focus.status == 0, "\(focus.stderr)")
  }

  @Test("ask with only emoji: nothing to act on, how to ask, nothing run or created")
  func askEmojiOnly() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    for message in ["👍", "🎉🎉", "?!"] {
      let r = try cli.run(["ask", message])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(
        r.stdout.contains(
          "Nothing to act on: the message holds no words, only emoji, symbols or punctuation. Ask in words (a question, "
            + "or words to search your knowledge for), or send /help for the commands."), "\(r.stdout)")
      #expect(!r.stdout.contains("small talk") && !r.stderr.contains("small talk"), "\(r.stdout) \(r.stderr)")
      #expect(r.stderr.contains("route: conversation — no words to act on"), "\(r.stderr)")
    }
    #expect(try cli.run(["status"]).status == 3, "no workspace was created")
  }
}
