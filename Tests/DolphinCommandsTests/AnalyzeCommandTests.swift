import ContinuityKit
import Foundation
import KnowledgeEngine
import Testing
import TestSupport

/// `dolphin analyze`: a file the user names is analyzed or refused, never silently skipped.
@Suite("dolphin analyze", .serialized)
struct AnalyzeCommandTests {
  @Test("a file named explicitly over the input limit is a validation error naming file, size and limit")
  func explicitFileTooLarge() throws {
    let dir = TemporaryDirectory("analyze-big")
    defer { dir.remove() }
    let big = dir.appending("Big.swift")
    let size = Limits.codeAnalysisBytes + 1
    try Data(repeating: UInt8(ascii: "x"), count: size).write(to: big)
    for extra in [[], ["--json"]] {
      let r = try runDolphin(["analyze", big.path] + extra)
      #expect(r.status == 4, "\(r.stdout)\n\(r.stderr)")
      #expect(r.stderr.contains("\(big.path) is \(size) bytes, over the \(Limits.codeAnalysisBytes)-byte code analysis limit"), "\(r.stderr)")
      #expect(!r.stdout.contains("0 file(s)"))
      if extra == ["--json"] { #expect(r.stdout.contains(#""field" : "source""#), "\(r.stdout)") }
    }
  }

  @Test("a file named explicitly that is not .swift is a usage error")
  func explicitFileNotSwift() throws {
    let dir = TemporaryDirectory("analyze-txt")
    defer { dir.remove() }
    let readme = dir.appending("readme.txt")
    try Data("hello\n".utf8).write(to: readme)
    let r = try runDolphin(["analyze", readme.path])
    #expect(r.status == 2, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stderr.contains("\(readme.path) is not a .swift file"), "\(r.stderr)")
    #expect(r.stdout.isEmpty)
  }

  @Test("a file named explicitly that is not UTF-8 is an error, not a skip")
  func explicitFileNotUTF8() throws {
    let dir = TemporaryDirectory("analyze-latin1")
    defer { dir.remove() }
    let file = dir.appending("Latin1.swift")
    try Data([0x6C, 0x65, 0x74, 0x20, 0xE9, 0x0A]).write(to: file)
    let r = try runDolphin(["analyze", file.path])
    #expect(r.status == 4, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stderr.contains("\(file.path): not UTF-8 text"), "\(r.stderr)")
  }

  @Test("a directory walk still skips such files with a notice and exits 0")
  func directoryWalkSkips() throws {
    let dir = TemporaryDirectory("analyze-walk")
    defer { dir.remove() }
    try Data(repeating: UInt8(ascii: "x"), count: Limits.codeAnalysisBytes + 1).write(to: dir.appending("Big.swift"))
    try Data("hello\n".utf8).write(to: dir.appending("readme.txt"))
    try Data("let x = 1\n".utf8).write(to: dir.appending("Small.swift"))
    let r = try runDolphin(["analyze", dir.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("Big.swift: skipped, \(Limits.codeAnalysisBytes + 1) bytes is over"), "\(r.stderr)")
    #expect(r.stdout.contains("1 file(s)"))
    // A small .swift file named explicitly is analyzed as before.
    let one = try runDolphin(["analyze", dir.appending("Small.swift").path])
    #expect(one.status == 0, "\(one.stderr)")
    #expect(one.stdout.contains("1 file(s)"))
  }

  @Test("an ignore file that is not applied is named in a notice (text and SARIF) and in the JSON report")
  func unappliedIgnoreFileNotice() throws {
    let dir = TemporaryDirectory("analyze-ignore-fifo")
    defer { dir.remove() }
    try FileManager.default.createDirectory(at: dir.appending(".git"), withIntermediateDirectories: true)
    let fifo = dir.appending(".gitignore").path
    #expect(mkfifo(fifo, 0o600) == 0)
    try Data("let a = b!\n".utf8).write(to: dir.appending("a.swift"))
    let notice = "dolphin: notice: \(fifo): not applied, it is a FIFO (named pipe), not a regular file; "
      + "the files it would exclude are analyzed"
    let text = try runDolphin(["analyze", dir.path])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stderr.contains(notice), "\(text.stderr)")
    let json = try runDolphin(["analyze", dir.path, "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    #expect(json.stdout.contains(#""reason" : "not_regular_file""#), "\(json.stdout)")
    #expect(json.stdout.contains(#""unappliedIgnoreFiles" : ["#), "\(json.stdout)")
    let sarif = try runDolphin(["analyze", dir.path, "--format", "sarif"])
    #expect(sarif.stdout.contains("not applied, it is a FIFO"), "\(sarif.stdout)")
  }

  @Test("a symbolic link loop named on the command line is reported as a loop (exit 4), not as a missing file")
  func symbolicLinkLoop() throws {
    let dir = TemporaryDirectory("analyze-loop")
    defer { dir.remove() }
    let fm = FileManager.default
    try fm.createSymbolicLink(atPath: dir.appending("loop").path, withDestinationPath: "loop")
    try fm.createSymbolicLink(atPath: dir.appending("a.swift").path, withDestinationPath: "b.swift")
    try fm.createSymbolicLink(atPath: dir.appending("b.swift").path, withDestinationPath: "a.swift")
    for name in ["loop", "a.swift"] {
      let path = dir.appending(name).path
      let r = try runDolphin(["analyze", path])
      #expect(r.status == 4, "\(r.stdout)\n\(r.stderr)")
      #expect(
        r.stderr.contains("dolphin: error: \(path): a symbolic link loop, or a chain of more than 40 links: following them does not reach a file or directory"),
        "\(r.stderr)")
      #expect(!r.stderr.contains("no such file"), "\(r.stderr)")
      let json = try runDolphin(["analyze", path, "--json"])
      #expect(json.status == 4)
      #expect(json.stdout.contains(#""kind" : "input""#), "\(json.stdout)")
    }
    // The other inputs read from a path say so too.
    let content = try runDolphin(["capture", "fact", "x", "--content-file", dir.appending("loop").path, "--workspace", dir.appending("ws").path])
    #expect(content.status == 4, "\(content.stderr)")
    #expect(content.stderr.contains("--content-file: \(dir.appending("loop").path): a symbolic link loop"), "\(content.stderr)")
    // A link to nothing is still "not found", and names its target.
    try fm.createSymbolicLink(atPath: dir.appending("gone.swift").path, withDestinationPath: "nothere.swift")
    let gone = try runDolphin(["analyze", dir.appending("gone.swift").path])
    #expect(gone.status == 3, "\(gone.stderr)")
    #expect(gone.stderr.contains("gone.swift: a symbolic link to 'nothere.swift', which does not exist"), "\(gone.stderr)")
  }

  @Test("a file name with line breaks cannot print a forged finding or notice: text escapes it, JSON keeps it")
  func fileNameWithLineBreaks() throws {
    let dir = TemporaryDirectory("analyze-newline")
    defer { dir.remove() }
    let forged = "x\nFAKE.swift:9:9: force_try: injected line\ny.swift"
    try Data("let a = try! f()\n".utf8).write(to: dir.appending(forged))
    let big = "big\nFAKE.swift: skipped, injected notice\n.swift"
    try Data(repeating: UInt8(ascii: "x"), count: Limits.codeAnalysisBytes + 1).write(to: dir.appending(big))
    let r = try runDolphin(["analyze", dir.path])
    #expect(r.status == 0, "\(r.stderr)")
    // After the header, the rules-checked and not-checked lines.
    let findings = r.stdout.split(separator: "\n").dropFirst(3)
    // Every finding line starts with the walked directory: none is the file name's own text.
    #expect(!findings.isEmpty && findings.allSatisfy { $0.hasPrefix(dir.path) || $0.hasPrefix("    ") }, "\(r.stdout)")
    #expect(r.stdout.contains(dir.path + "/x\\nFAKE.swift:9:9: force_try: injected line\\ny.swift:1:"), "\(r.stdout)")
    let notices = r.stderr.split(separator: "\n")
    #expect(notices.count == 1 && notices.allSatisfy { $0.hasPrefix("dolphin: notice: \(dir.path)/big\\nFAKE") }, "\(r.stderr)")
    // JSON keeps the exact names (JSON escapes them).
    let json = try runDolphin(["analyze", dir.path, "--json"])
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let reports = document?["reports"] as? [[String: Any]]
    #expect(reports?.first?["fileName"] as? String == dir.appending(forged).path, "\(json.stdout)")
    let skipped = document?["skipped"] as? [[String: Any]]
    #expect(skipped?.first?["path"] as? String == dir.appending(big).path, "\(json.stdout)")
    // An error naming such a file stays on one line too.
    let named = try runDolphin(["analyze", dir.appending("a\nFAKE.txt").path])
    #expect(named.status == 3, "\(named.stderr)")
    #expect(named.stderr.split(separator: "\n").count == 1, "\(named.stderr)")
    #expect(named.stderr.contains("a\\nFAKE.txt: no such file or directory"), "\(named.stderr)")
  }

  @Test("a walk says which .swift links lead nowhere, counts non-Swift files, and reads a hard-linked file once")
  func walkNoticesAndCounts() throws {
    let dir = TemporaryDirectory("analyze-links")
    defer { dir.remove() }
    let fm = FileManager.default
    try Data("let a = try! f()\n".utf8).write(to: dir.appending("a.swift"))
    try fm.linkItem(at: dir.appending("a.swift"), to: dir.appending("b.swift"))
    try Data("notes\n".utf8).write(to: dir.appending("notes.txt"))
    try fm.createSymbolicLink(atPath: dir.appending("gone.swift").path, withDestinationPath: "nothere.swift")
    try fm.createSymbolicLink(atPath: dir.appending("loop.swift").path, withDestinationPath: "loop.swift")
    let r = try runDolphin(["analyze", dir.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("Heuristic code analysis (read-only lexical checks; not a compiler): 1 file(s), 1 finding(s); 1 non-Swift file(s) left out\n"), "\(r.stdout)")
    #expect(r.stdout.contains("\(dir.path)/a.swift:1:9: force_try"), "\(r.stdout)")
    #expect(!r.stdout.contains("b.swift"), "\(r.stdout)")
    #expect(r.stderr.contains("dolphin: notice: \(dir.path)/gone.swift: skipped, a symbolic link to 'nothere.swift', which does not exist"), "\(r.stderr)")
    #expect(r.stderr.contains("dolphin: notice: \(dir.path)/loop.swift: skipped, a symbolic link loop"), "\(r.stderr)")
    let json = try runDolphin(["analyze", dir.path, "--json"])
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let skipped = (document?["skipped"] as? [[String: Any]])?.map { "\($0["reason"] ?? "") \(($0["path"] as? String ?? "").dropFirst(dir.path.count + 1))" }
    // The hard link's second name is said to be the same file (review 28-d, 9).
    #expect(skipped == ["same_file b.swift", "missing gone.swift", "unreadable loop.swift"], "\(json.stdout)")
    #expect(
      r.stderr.contains(
        "dolphin: notice: \(dir.path)/b.swift: skipped, the same file as \(dir.path)/a.swift (a file is read once, under the first name given)"),
      "\(r.stderr)")
    #expect(document?["nonSwiftCount"] as? Int == 1, "\(json.stdout)")
    #expect((document?["reports"] as? [Any])?.count == 1, "\(json.stdout)")
  }

  /// Review 23-a, 5: with a `.gitignore` of `*`, `analyze .` said "0 file(s), 0 finding(s)"
  /// and nothing else, which reads as a clean tree; a partial ignore was not counted either.
  @Test("the summary counts the paths .gitignore leaves out, and says so plainly when nothing was analyzed")
  func ignoredCounted() throws {
    let dir = TemporaryDirectory("analyze-ignored")
    defer { dir.remove() }
    try Data("let x = foo()!\n".utf8).write(to: dir.appending("a.swift"))
    try Data("*\n".utf8).write(to: dir.appending(".gitignore"))
    let all = try runDolphin(["analyze", dir.path])
    #expect(all.status == 0, "\(all.stderr)")
    let lines = all.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.first == "Heuristic code analysis (read-only lexical checks; not a compiler): 0 file(s), 0 finding(s); "
        + "1 path(s) ignored by .gitignore rules", "\(all.stdout)")
    #expect(
      lines.dropFirst().first == "No Swift file was analyzed: the .gitignore rules left out 1 path(s) of what was found. "
        + "A .swift file named on the command line is analyzed even when it is ignored.", "\(all.stdout)")
    let sarif = try runDolphin(["analyze", dir.path, "--format", "sarif"])
    #expect(sarif.stdout.contains(#""text" : "1 path(s) ignored by .gitignore rules, not analyzed""#), "\(sarif.stdout)")
    let json = try runDolphin(["analyze", dir.path, "--json"])
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(document?["ignoredCount"] as? Int == 1, "\(json.stdout)")
    // Named, the ignored file is analyzed.
    let named = try runDolphin(["analyze", dir.appending("a.swift").path])
    #expect(named.stdout.hasPrefix("Heuristic code analysis (read-only lexical checks; not a compiler): 1 file(s), 1 finding(s)\n"), "\(named.stdout)")

    // A partial ignore, beside a non-Swift file: both counted on the summary line.
    try Data("huge.swift\n".utf8).write(to: dir.appending(".gitignore"))
    try Data("let y = 1\n".utf8).write(to: dir.appending("huge.swift"))
    try Data("notes\n".utf8).write(to: dir.appending("notes.txt"))
    let partial = try runDolphin(["analyze", dir.path])
    #expect(
      partial.stdout.hasPrefix(
        "Heuristic code analysis (read-only lexical checks; not a compiler): 1 file(s), 1 finding(s); "
          + "1 non-Swift file(s) left out; 1 path(s) ignored by .gitignore rules\n"), "\(partial.stdout)")
    #expect(!partial.stdout.contains("No Swift file was analyzed"), "\(partial.stdout)")
  }

  @Test("a file named two ways is shown under the first name given")
  func duplicateShownUnderFirstName() throws {
    let dir = TemporaryDirectory("analyze-twice")
    defer { dir.remove() }
    try FileManager.default.createDirectory(at: dir.appending("aa"), withIntermediateDirectories: true)
    try Data("let x = try! f()\n".utf8).write(to: dir.appending("aa/A.swift"))
    try FileManager.default.createSymbolicLink(atPath: dir.appending("zz").path, withDestinationPath: "aa")
    let viaLink = dir.appending("zz").path + "/A.swift"
    let r = try runDolphin(["analyze", viaLink, dir.appending("aa/A.swift").path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("1 file(s), 1 finding(s)"), "\(r.stdout)")
    #expect(r.stdout.contains("\(viaLink):1:9: force_try"), "\(r.stdout)")
    #expect(!r.stdout.contains(dir.appending("aa/A.swift").path), "\(r.stdout)")
    // The other name is said to be skipped, naming the one analyzed (review 28-d, 9).
    #expect(
      r.stderr.contains(
        "dolphin: notice: \(dir.appending("aa/A.swift").path): skipped, the same file as \(viaLink) "
          + "(a file is read once, under the first name given)"), "\(r.stderr)")
  }

  /// Review 28-d, 9: `analyze proj/*.swift` with several links to one file in the folder (a
  /// relative link, an absolute one, one through `..`) reported `1 file(s)` under the first
  /// link's name, and nothing of the other names.
  @Test("several names of one file: one report, and a same_file notice for each other name, in text, JSON and SARIF")
  func linksToOneFileNamed() throws {
    let dir = TemporaryDirectory("analyze-same-file")
    defer { dir.remove() }
    let fm = FileManager.default
    try fm.createDirectory(at: dir.appending("proj"), withIntermediateDirectories: true)
    let ok = dir.appending("proj/ok.swift").path
    try Data("let x = try! load()\n".utf8).write(to: URL(fileURLWithPath: ok))
    try fm.createSymbolicLink(atPath: dir.appending("proj/inside.swift").path, withDestinationPath: "ok.swift")
    try fm.createSymbolicLink(atPath: dir.appending("proj/abs.swift").path, withDestinationPath: ok)
    try fm.createSymbolicLink(atPath: dir.appending("proj/up.swift").path, withDestinationPath: "../proj/ok.swift")
    try Data("let y = 1\n".utf8).write(to: dir.appending("proj/other.swift"))
    // As the shell expands proj/*.swift: in name order.
    let names = ["abs", "inside", "ok", "other", "up"].map { dir.appending("proj/\($0).swift").path }
    let first = names[0]
    let text = try runDolphin(["analyze"] + names)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.hasPrefix("Heuristic code analysis (read-only lexical checks; not a compiler): 2 file(s), 1 finding(s)\n"), "\(text.stdout)")
    #expect(text.stdout.contains("\(first):1:9: force_try"), "\(text.stdout)")
    for other in [names[1], names[2], names[4]] {
      #expect(
        text.stderr.contains(
          "dolphin: notice: \(other): skipped, the same file as \(first) (a file is read once, under the first name given)\n"),
        "\(text.stderr)")
    }
    #expect(!text.stderr.contains(names[3]), "\(text.stderr)")
    let json = try runDolphin(["analyze", "--json"] + names)
    #expect(json.status == 0, "\(json.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let skipped = try #require(document["skipped"] as? [[String: Any]])
    #expect(skipped.map { $0["path"] as? String } == [names[1], names[2], names[4]], "\(skipped)")
    #expect(skipped.allSatisfy { $0["reason"] as? String == "same_file" }, "\(skipped)")
    #expect((document["reports"] as? [[String: Any]])?.map { $0["fileName"] as? String } == [first, names[3]])
    let sarif = try runDolphin(["analyze", "--format", "sarif"] + names)
    #expect(sarif.status == 0, "\(sarif.stderr)")
    #expect(sarif.stdout.contains("\(names[1]): skipped, the same file as \(first)"), "\(sarif.stdout)")
    // A path given twice is read once, and said to be.
    let twice = try runDolphin(["analyze", ok, ok])
    #expect(twice.status == 0, "\(twice.stderr)")
    #expect(twice.stdout.contains("1 file(s), 1 finding(s)"), "\(twice.stdout)")
    #expect(twice.stderr.contains("dolphin: notice: \(ok): skipped, named more than once (a file is read once)"), "\(twice.stderr)")
  }

  /// Review 21-a F1: `analyze` missed `password2 = "…"` and reported prose assigned to `token`.
  @Test("analyze reports a credential name with a digit or suffix, and not prose assigned to token")
  func hardcodedSecretKeyNames() throws {
    let dir = TemporaryDirectory("analyze-secret-names")
    defer { dir.remove() }
    let file = dir.appending("Config.swift")
    try Data(
      """
      let password2 = "Tr0ub4dor&3"
      let token = "not a secret"
      let authToken = "hello world"
      let password = "Enter your password"
      let REDIS_PASSWORD_PROD = "Tr0ub4dor3"

      """.utf8
    ).write(to: file)
    let r = try runDolphin(["analyze", file.path])
    #expect(r.status == 0, "\(r.stderr)")
    let reported = r.stdout.split(separator: "\n").filter { $0.hasPrefix(file.path) }.map { $0.split(separator: " ")[0] }
    #expect(reported == ["\(file.path):1:5:", "\(file.path):5:5:"], "\(r.stdout)")
    #expect(r.stdout.contains("\(file.path):1:5: hardcoded_secret"), "\(r.stdout)")
    #expect(!r.stdout.contains("Tr0ub4dor"), "the secret is not printed: \(r.stdout)")
  }

  /// Review 20-b, F13: the report counted findings but did not say which rules ran, so a short
  /// report on a file with a hard-coded password and an empty catch read as "nothing else wrong".
  @Test("the text report names the rules checked and what is not checked; the new rules fire on such a file")
  func reportNamesRules() throws {
    let dir = TemporaryDirectory("analyze-rules")
    defer { dir.remove() }
    let file = dir.appending("Bad.swift")
    try Data(
      """
      final class Client {
        let password = "hunter2hunter2"
        func run() {
          do { try send() } catch { }
        }
      }

      """.utf8
    ).write(to: file)
    let r = try runDolphin(["analyze", file.path])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count >= 3, "\(r.stdout)")
    #expect(lines[1] == CodeRule.checkedLine(CodeRule.allCases), "\(r.stdout)")
    #expect(lines[2].hasPrefix("Not checked (heuristic rules only): SQL or shell commands built from input"), "\(r.stdout)")
    #expect(r.stdout.contains("\(file.path):2:7: hardcoded_secret"), "\(r.stdout)")
    #expect(r.stdout.contains("\(file.path):4:23: empty_catch"), "\(r.stdout)")
    #expect(!r.stdout.contains("hunter2"), "the secret is not printed: \(r.stdout)")
    let json = try runDolphin(["analyze", file.path, "--json"])
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(document?["rulesChecked"] as? [String] == CodeRule.allCases.map(\.rawValue), "\(json.stdout)")
    #expect(document?["notChecked"] as? String == CodeRule.notChecked)
  }

  /// Review 28-b, 5: an empty folder, one of only non-Swift files, or one whose every `.swift`
  /// file was skipped printed "0 file(s), 0 finding(s)" and nothing else, a report that reads as
  /// clean; only the `.gitignore` case said that nothing was analyzed.
  @Test("a folder that leaves nothing to analyze says why, in text and SARIF, and exits 0 as the .gitignore case does")
  func nothingAnalyzedSaysWhy() throws {
    let dir = TemporaryDirectory("analyze-nothing")
    defer { dir.remove() }
    let fm = FileManager.default
    for folder in ["empty", "onlytxt", "allskip"] {
      try fm.createDirectory(at: dir.appending(folder), withIntermediateDirectories: true)
    }
    try Data("# Notes\n".utf8).write(to: dir.appending("onlytxt/readme.md"))
    try Data("let x = y!\n\u{0}".utf8).write(to: dir.appending("allskip/a.swift"))
    try Data([0x6C, 0x65, 0x74, 0x20, 0xE9, 0x0A]).write(to: dir.appending("allskip/b.swift"))
    let header = "Heuristic code analysis (read-only lexical checks; not a compiler): 0 file(s), 0 finding(s)"
    let cases: [(folder: String, summary: String, why: String)] = [
      ("empty", header, "No Swift file was analyzed: no .swift file was found in the path(s) given."),
      ("onlytxt", header + "; 1 non-Swift file(s) left out",
       "No Swift file was analyzed: no .swift file was found in the path(s) given, only 1 non-Swift file(s)."),
      ("allskip", header, "No Swift file was analyzed: 2 path(s) skipped, each named in a notice with the reason."),
    ]
    for c in cases {
      let path = dir.appending(c.folder).path
      let r = try runDolphin(["analyze", path])
      #expect(r.status == 0, "\(c.folder): \(r.stderr)")
      let lines = r.stdout.split(separator: "\n").map(String.init)
      #expect(Array(lines.prefix(2)) == [c.summary, c.why], "\(c.folder): \(r.stdout)")
      let sarif = try runDolphin(["analyze", path, "--format", "sarif"])
      #expect(sarif.status == 0, "\(c.folder): \(sarif.stderr)")
      #expect(sarif.stdout.contains("\"text\" : \"\(c.why)\""), "\(c.folder): \(sarif.stdout)")
      let json = try runDolphin(["analyze", path, "--json"])
      #expect(json.status == 0, "\(c.folder): \(json.stderr)")
      let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
      #expect((document?["reports"] as? [Any])?.isEmpty == true, "\(json.stdout)")
      // Review 28-d, 8: --json says it too, as the text's reason after its lead-in.
      #expect(
        document?["noFileAnalyzed"] as? String == String(c.why.dropFirst("No Swift file was analyzed: ".count)),
        "\(c.folder): \(json.stdout)")
    }
    let skipped = try runDolphin(["analyze", dir.appending("allskip").path])
    #expect(skipped.stderr.contains("allskip/a.swift: not text: it holds a NUL byte"), "\(skipped.stderr)")
    #expect(skipped.stderr.contains("allskip/b.swift: not UTF-8 text"), "\(skipped.stderr)")

    // Skipped files beside ignored ones: both reasons, then the hint about naming an ignored file.
    try Data("b.swift\n".utf8).write(to: dir.appending("allskip/.gitignore"))
    let both = try runDolphin(["analyze", dir.appending("allskip").path])
    #expect(
      both.stdout.contains(
        "\nNo Swift file was analyzed: 1 path(s) skipped, each named in a notice with the reason; the .gitignore rules "
          + "left out 1 path(s) of what was found. A .swift file named on the command line is analyzed even when it is ignored.\n"),
      "\(both.stdout)")
    // One analyzed file, however small, and the line is gone.
    try Data("let ok = 1\n".utf8).write(to: dir.appending("empty/ok.swift"))
    let one = try runDolphin(["analyze", dir.appending("empty").path])
    #expect(!one.stdout.contains("No Swift file was analyzed"), "\(one.stdout)")
    let oneJSON = try JSONSerialization.jsonObject(
      with: Data(try runDolphin(["analyze", dir.appending("empty").path, "--json"]).stdout.utf8)) as? [String: Any]
    #expect(oneJSON?["noFileAnalyzed"] == nil && (oneJSON?["reports"] as? [Any])?.count == 1, "\(String(describing: oneJSON))")
  }
}
