import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Text read from standard input or a file is bounded before it is read whole, binary input is
/// refused, and what is already stored is untouched by every refusal.
@Suite("Input bounds of the content readers", .serialized)
struct InputBoundsCommandTests {
  /// Runs `producer | dolphin args` through the shell.
  static func pipeline(_ producer: String, _ args: [String]) throws -> ProcessResult {
    let quoted = ([dolphinExecutable().path] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    return try runProcess("/bin/sh", ["-c", "\(producer) | " + quoted.joined(separator: " ")])
  }

  /// The workspace with one item stored, and a check that it is still exactly that.
  struct Stored {
    let cli = CLI()
    init() throws {
      let r = try cli.run(["capture", "fact", "kept", "--content", "already stored"])
      #expect(r.status == 0, "\(r.stderr)")
    }
    func expectUnchanged() throws {
      let list = try cli.json(["knowledge", "list"])
      let items = try #require(list["items"] as? [[String: Any]])
      #expect(items.count == 1 && items.first?["title"] as? String == "kept")
      #expect(items.first?["content"] as? String == "already stored")
      #expect(try cli.json(["memory", "list"])["memories"] as? [Any] != nil)
      #expect((try cli.json(["memory", "list"])["memories"] as? [Any])?.isEmpty == true)
    }
  }

  @Test("`yes | capture --content -` and `yes | memory save -` stop at the limit: exit 4, field, limit")
  func endlessStandardInput() throws {
    let s = try Stored()
    defer { s.cli.dir.remove() }
    let capture = try Self.pipeline("yes", ["capture", "fact", "x", "--content", "-", "--workspace", s.cli.workspace])
    #expect(capture.status == 4, "\(capture.stderr)")
    #expect(capture.stderr.contains("content is more than 16000 characters; the limit is 16000"), "\(capture.stderr)")
    let memory = try Self.pipeline("yes", ["memory", "save", "-", "--workspace", s.cli.workspace])
    #expect(memory.status == 4, "\(memory.stderr)")
    #expect(memory.stderr.contains("text is more than 16000 characters; the limit is 16000"), "\(memory.stderr)")
    let zeros = try Self.pipeline("cat /dev/zero", ["capture", "fact", "x", "--content", "-", "--workspace", s.cli.workspace])
    #expect(zeros.status == 4 && zeros.stderr.contains("is not text: it holds a NUL byte"), "\(zeros.stderr)")
    let importYes = try Self.pipeline("yes", ["import", "-", "--workspace", s.cli.workspace])
    #expect(importYes.status == 4 && importYes.stderr.contains("stdin: expected a JSON object (a dolphin export), got text that is not JSON. Nothing was imported"), "\(importYes.stderr)")
    let importZeros = try Self.pipeline("cat /dev/zero", ["import", "-", "--workspace", s.cli.workspace])
    #expect(importZeros.status == 4 && importZeros.stderr.contains("holds a NUL byte"), "\(importZeros.stderr)")
    try s.expectUnchanged()
  }

  @Test("exactly the limit from standard input is stored; one more character is refused")
  func limitFromStandardInput() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    // Multi-byte characters: the limit counts characters, not bytes.
    let atLimit = String(repeating: "é", count: 15_999) + "👨‍👩‍👧‍👦"
    let ok = try cli.run(["capture", "fact", "x", "--content", "-", "--json"], stdin: atLimit)
    #expect(ok.status == 0, "\(ok.stderr)")
    let item = try #require((try JSONSerialization.jsonObject(with: Data(ok.stdout.utf8)) as? [String: Any])?["item"] as? [String: Any])
    #expect(item["content"] as? String == atLimit)
    let over = try cli.run(["capture", "fact", "y", "--content", "-"], stdin: atLimit + "x")
    #expect(over.status == 4)
    #expect(over.stderr.contains("content is more than 16000 characters; the limit is 16000 characters"), "\(over.stderr)")
  }

  /// Review 30-a, 13: over the limit on standard input, the message named no size. The read stays
  /// bounded, so it names what was read before it stopped, a lower bound of what was given.
  @Test("over the limit on standard input: the field, the limit, and at least how much was given")
  func overTheLimitNamesWhatWasRead() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(["capture", "fact", "x", "--content", "-"], stdin: String(repeating: "x", count: 20_000))
    #expect(r.status == 4, "\(r.stderr)")
    let read = try #require(Self.readAtLeast(r.stderr), "\(r.stderr)")
    #expect(read.characters > 16_000 && read.characters <= 20_000 && read.bytes == read.characters, "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "content is more than 16000 characters; the limit is 16000 characters (standard input holds at least "
          + "\(read.characters) characters, \(read.bytes) bytes: it was read only until that was clear)"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: cli.workspace), "nothing was stored")
    // Endless input is still read only up to the bound in bytes (40 per allowed character).
    let endless = try Self.pipeline("yes", ["task", "add", "Ship", "--notes", "-", "--workspace", cli.workspace])
    #expect(endless.status == 4, "\(endless.stderr)")
    let bounded = try #require(Self.readAtLeast(endless.stderr), "\(endless.stderr)")
    #expect(bounded.characters > 4_000 && bounded.bytes <= 4_000 * Limits.inputBytesPerCharacter + 1, "\(endless.stderr)")
    #expect(endless.stderr.contains("--notes is more than 4000 characters; the limit is 4000 characters (standard input holds at least"))
  }

  /// The `N characters, M bytes` of a message saying what was read of input over the limit.
  static func readAtLeast(_ message: String) -> (characters: Int, bytes: Int)? {
    guard let start = message.range(of: "holds at least ") else { return nil }
    let words = message[start.upperBound...].split(separator: " ", maxSplits: 3)
    guard words.count >= 3, words[1] == "characters,", let characters = Int(words[0]), let bytes = Int(words[2]) else {
      return nil
    }
    return (characters, bytes)
  }

  @Test("--content-file: size checked before reading, NUL bytes refused as not text, the limit checked before sanitizing")
  func contentFiles() throws {
    let s = try Stored()
    defer { s.cli.dir.remove() }
    let dir = s.cli.dir
    func capture(_ file: String) throws -> ProcessResult { try s.cli.run(["capture", "fact", "t", "--content-file", file]) }

    let big = dir.appending("zeros").path
    let fd = open(big, O_CREAT | O_WRONLY, 0o600)
    try #require(fd >= 0)
    #expect(ftruncate(fd, 100_000_000) == 0)  // 100 MB, sparse
    close(fd)
    let r1 = try capture(big)
    #expect(r1.status == 4)
    #expect(r1.stderr.contains("content file '\(big)' is 100000000 bytes; the limit is 16000 characters"), "\(r1.stderr)")

    let nul = dir.appending("nul")
    try Data("some text\u{0}more".utf8).write(to: nul)
    let r2 = try capture(nul.path)
    #expect(r2.status == 4 && r2.stderr.contains("content from '\(nul.path)' is not text: it holds a NUL byte (at byte 9)"), "\(r2.stderr)")

    // A device is not read at all (it may never end): refused for what it is.
    let r3 = try capture("/dev/zero")
    #expect(
      r3.status == 4 && r3.stderr.contains("--content-file: '/dev/zero' is a character device, not a regular file"),
      "\(r3.stderr)")

    let controls = dir.appending("controls")
    try Data(repeating: 1, count: 20_000).write(to: controls)
    let r4 = try capture(controls.path)
    #expect(r4.status == 4)
    #expect(r4.stderr.contains("content is 20000 characters; the limit is 16000 characters"), "\(r4.stderr)")

    let fewControls = dir.appending("few-controls")
    try Data(repeating: 1, count: 2_000).write(to: fewControls)
    let r5 = try capture(fewControls.path)
    #expect(r5.status == 4 && r5.stderr.contains("content has nothing printable"), "\(r5.stderr)")

    let notUTF8 = dir.appending("latin1")
    try Data([0x63, 0x61, 0x66, 0xE9]).write(to: notUTF8)
    let r6 = try capture(notUTF8.path)
    #expect(r6.status == 4 && r6.stderr.contains("is not UTF-8 text"), "\(r6.stderr)")

    let r7 = try capture(dir.path)
    #expect(r7.status == 4 && r7.stderr.contains("is a directory"), "\(r7.stderr)")

    try s.expectUnchanged()

    // Text of many bytes per character within the character limit is accepted whole.
    let hindi = dir.appending("hindi")
    let text = String(repeating: "क्षि", count: 15_000)  // 15,000 characters, 180,000 bytes
    try Data(text.utf8).write(to: hindi)
    let r8 = try s.cli.run(["capture", "fact", "hindi", "--content-file", hindi.path, "--json"])
    #expect(r8.status == 0, "\(r8.stderr)")
    let item = try #require((try JSONSerialization.jsonObject(with: Data(r8.stdout.utf8)) as? [String: Any])?["item"] as? [String: Any])
    #expect((item["content"] as? String)?.count == 15_000)
  }

  @Test("a title or content of few characters carrying thousands of combining marks is refused: exit 4, field, limit, size")
  func combiningMarksCannotEvadeTheBounds() throws {
    let s = try Stored()
    defer { s.cli.dir.remove() }
    // One `e` and 60,000 combining acute accents: 1 Character, 120,001 bytes.
    let title = try s.cli.run(["capture", "fact", "e" + String(repeating: "\u{301}", count: 60_000)])
    #expect(title.status == 4, "\(title.stderr)")
    #expect(
      title.stderr.contains(
        "title is 1 character but 60001 Unicode scalars (each combining mark, joiner or modifier counts as one); "
          + "the limit is 300 characters and at most 3000 Unicode scalars in all (10 per character)"),
      "\(title.stderr)")

    // 500 KB of such text from a file, under the 640,000 bytes read for content.
    let file = s.cli.dir.appending("marks")
    try Data(("e" + String(repeating: "\u{301}", count: 250_000)).utf8).write(to: file)
    let content = try s.cli.run(["capture", "fact", "t", "--content-file", file.path])
    #expect(content.status == 4, "\(content.stderr)")
    #expect(
      content.stderr.contains(
        "content is 1 character but 250001 Unicode scalars (each combining mark, joiner or modifier counts as one); "
          + "the limit is 16000 characters and at most 160000 Unicode scalars in all (10 per character) "
          + "(read from '\(file.path)')"),
      "\(content.stderr)")
    let stdin = try s.cli.run(["capture", "fact", "t", "--content", "-"], stdin: "e" + String(repeating: "\u{301}", count: 200_000))
    #expect(stdin.status == 4 && stdin.stderr.contains("content is 1 character but 200001 Unicode scalars"), "\(stdin.stderr)")
    try s.expectUnchanged()
  }

  @Test("the longest RGI emoji (10 Unicode scalars each) fill a title and a content file to their limits; one scalar more is refused")
  func longestEmojiAtTheLimits() throws {
    let s = try Stored()
    defer { s.cli.dir.remove() }
    // kiss: woman, man, light skin tone, dark skin tone: 1 character, 10 Unicode scalars, 35 bytes.
    let kiss = "\u{1F469}\u{1F3FB}\u{200D}\u{2764}\u{FE0F}\u{200D}\u{1F48B}\u{200D}\u{1F468}\u{1F3FF}"
    let title = String(repeating: kiss, count: 300)
    let file = s.cli.dir.appending("kisses")
    try Data(String(repeating: kiss, count: 16_000).utf8).write(to: file)  // 560,000 bytes
    let r = try s.cli.run(["capture", "fact", title, "--content-file", file.path, "--tags", String(repeating: kiss, count: 48), "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let item = try #require((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["item"] as? [String: Any])
    #expect(item["title"] as? String == title)
    #expect((item["content"] as? String)?.count == 16_000)
    #expect((item["content"] as? String)?.unicodeScalars.count == 160_000)

    // 299 such emoji and a letter with ten combining marks: 300 characters, 3,001 scalars.
    let over = try s.cli.run(["capture", "fact", String(repeating: kiss, count: 299) + "x" + String(repeating: "\u{301}", count: 10)])
    #expect(over.status == 4, "\(over.stderr)")
    #expect(
      over.stderr.contains(
        "title is 300 characters but 3001 Unicode scalars (each combining mark, joiner or modifier counts as one); "
          + "the limit is 300 characters and at most 3000 Unicode scalars in all (10 per character)"),
      "\(over.stderr)")
  }

  @Test("a tag over its Unicode scalar bound is named by its value, as one over its character limit is")
  func tagOverTheScalarBoundIsNamed() throws {
    let s = try Stored()
    defer { s.cli.dir.remove() }
    // Stored NFC: `zalg` and an `ó` carrying 599 more marks, 5 characters and 604 scalars.
    let zalgo = "zalgo" + String(repeating: "\u{301}", count: 600)
    for args in [["capture", "fact", "t", "--tags", "ok," + zalgo], ["memory", "save", "m", "--tags", "ok," + zalgo]] {
      let r = try s.cli.run(args)
      #expect(r.status == 4, "\(args[0]): \(r.stderr)")
      #expect(
        r.stderr.contains("--tags ('zalg…') is 5 characters but 604 Unicode scalars (each combining mark"),
        "\(args[0]): \(r.stderr)")
    }
    let long = try s.cli.run(["capture", "fact", "t", "--tags", "ok," + String(repeating: "t", count: 49)])
    #expect(long.status == 4 && long.stderr.contains("--tags ('tttttttttttttttttttt…') is 49 characters; the limit is 48 characters"), "\(long.stderr)")
    try s.expectUnchanged()
  }

  @Test("import refuses a file over the document bound from its size, and binary input")
  func importDocuments() throws {
    let s = try Stored()
    defer { s.cli.dir.remove() }
    let nul = s.cli.dir.appending("nul.json")
    try Data("{\u{0}}".utf8).write(to: nul)
    let r = try s.cli.run(["import", nul.path])
    #expect(r.status == 4 && r.stderr.contains("holds a NUL byte"), "\(r.stderr)")
    // One byte over the 1 GiB document bound (a sparse file): refused from its size, unread,
    // by import and by migrate alike.
    let big = s.cli.dir.appending("big.json")
    #expect(FileManager.default.createFile(atPath: big.path, contents: Data("{".utf8)))
    let fd = open(big.path, O_WRONLY)
    #expect(fd >= 0)
    #expect(ftruncate(fd, off_t(Limits.importDocumentBytes + 1)) == 0)
    close(fd)
    // A large binary file is refused at the first NUL byte by both, not read up to the bound
    // (`BoundedInputTests` checks that the read stops after one chunk); a device is not read.
    let zeros = s.cli.dir.appending("zeros.json")
    #expect(FileManager.default.createFile(atPath: zeros.path, contents: Data("{".utf8)))
    let zfd = open(zeros.path, O_WRONLY)
    #expect(zfd >= 0)
    #expect(ftruncate(zfd, 300_000_000) == 0)
    close(zfd)
    for command in ["import", "migrate"] {
      let r = try s.cli.run([command, zeros.path])
      #expect(r.status == 4, "\(command): \(r.stderr)")
      #expect(r.stderr.contains("holds a NUL byte (at byte 1)"), "\(command): \(r.stderr)")
      let device = try s.cli.run([command, "/dev/zero"])
      #expect(device.status == 4, "\(command) /dev/zero: \(device.stderr)")
      #expect(
        device.stderr.contains("/dev/zero is a character device, not a regular file"), "\(command): \(device.stderr)")
    }
    for command in ["import", "migrate"] {
      let over = try s.cli.run([command, big.path])
      #expect(over.status == 4, "\(command): \(over.stderr)")
      #expect(over.stderr.contains("1073741825 bytes"), "\(command): \(over.stderr)")
      #expect(over.stderr.contains("1073741824 bytes"), "\(command): \(over.stderr)")
    }
    try s.expectUnchanged()
  }
}
