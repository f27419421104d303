import ContinuityKit
import Foundation
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Review 31-a, 4: Ctrl-C at `ask`'s approval prompt killed the process, leaving
/// `user: /task add …` in the chat log with no receipt and no answer, and the next handoff
/// copied it as if it had run. The call is now denied, with a receipt, and the run's answer is
/// recorded before the command exits. These drive the built binary with a pseudo-terminal as
/// its standard input, as a user's terminal is.
@Suite("dolphin ask interrupted at the approval prompt", .serialized)
struct AskInterruptedApprovalTests {
  /// How the process ended, and what it printed.
  struct Ended {
    var status: Int32
    var stdout: String
    var stderr: String
    var reason: Process.TerminationReason
  }

  /// A pseudo-terminal's two ends. Glibc's module does not import `posix_openpt` and its
  /// companions (they need `_XOPEN_SOURCE`), so they are looked up in the C library.
  static func openTerminal() throws -> (master: Int32, slave: Int32) {
    typealias OpenPT = @convention(c) (Int32) -> Int32
    typealias OnMaster = @convention(c) (Int32) -> Int32
    typealias PTSName = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    let openpt = try #require(dlsym(nil, "posix_openpt").map { unsafeBitCast($0, to: OpenPT.self) })
    let grantpt = try #require(dlsym(nil, "grantpt").map { unsafeBitCast($0, to: OnMaster.self) })
    let unlockpt = try #require(dlsym(nil, "unlockpt").map { unsafeBitCast($0, to: OnMaster.self) })
    let ptsname = try #require(dlsym(nil, "ptsname_r").map { unsafeBitCast($0, to: PTSName.self) })
    let master = openpt(O_RDWR | O_NOCTTY)
    try #require(master >= 0, "posix_openpt: \(errno)")
    var name = [CChar](repeating: 0, count: 256)
    let named = grantpt(master) == 0 && unlockpt(master) == 0 && ptsname(master, &name, name.count) == 0
    let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let slave = named ? open(path, O_RDWR | O_NOCTTY) : -1
    if slave < 0 { close(master) }
    try #require(slave >= 0, "no pseudo-terminal: errno \(errno)")
    return (master, slave)
  }

  /// Runs `dolphin ask MESSAGE` in `cli`'s workspace with a pseudo-terminal as standard input,
  /// waits (at most 60 s) for its `[y/N]` prompt on stderr, then calls `act` with the process id
  /// and the terminal's master end.
  static func atPrompt(_ cli: CLI, _ message: String, _ act: (pid_t, Int32) -> Void) throws -> Ended {
    let (master, slave) = try openTerminal()
    defer { close(master) }
    let p = Process()
    p.executableURL = dolphinExecutable()
    p.arguments = ["ask", message, "--workspace", cli.workspace]
    p.standardInput = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let outData = Mutex(Data()), errData = Mutex(Data())
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      while true {
        let d = err.fileHandleForReading.availableData
        if d.isEmpty { break }
        errData.withLock { $0.append(d) }
      }
      group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
      let d = out.fileHandleForReading.readDataToEndOfFile()
      outData.withLock { $0 = d }
      group.leave()
    }
    try p.run()
    close(slave)
    let deadline = Date().addingTimeInterval(60)
    while p.isRunning, Date() < deadline, !String(decoding: errData.withLock { $0 }, as: UTF8.self).contains("[y/N]") {
      Thread.sleep(forTimeInterval: 0.05)
    }
    act(p.processIdentifier, master)
    p.waitUntilExit()
    group.wait()
    return Ended(
      status: p.terminationStatus, stdout: String(decoding: outData.withLock { $0 }, as: UTF8.self),
      stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self), reason: p.terminationReason)
  }

  @Test("SIGINT or SIGTERM at the prompt: the call is denied with a receipt, the answer is recorded, a handoff shows both",
    arguments: [SIGINT, SIGTERM])
  func interrupted(_ signal: Int32) throws {
    let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "The workspace exists"]).status == 0)
    let ended = try Self.atPrompt(cli, "/task add Interrupted task") { pid, _ in _ = kill(pid, signal) }
    let r = ended
    #expect(r.stderr.contains("[y/N]"), "the prompt was shown: \(r.stderr)")
    #expect(ended.reason == .exit && r.status == 1, "\(ended.reason) \(r.status): \(r.stderr)")
    #expect(r.stderr.contains("task_add was denied: interrupted (\(name)) at the approval prompt"), "\(r.stderr)")
    #expect(r.stdout.contains("task_add denied: task_add was not run: interrupted (\(name)) at the approval prompt"), "\(r.stdout)")

    let receipts = try #require(try cli.json(["activity"])["receipts"] as? [[String: Any]])
    let last = try #require(receipts.last)
    #expect(last["tool"] as? String == "task_add" && last["outcome"] as? String == "denied", "\(last)")
    #expect(last["message"] as? String == "interrupted (\(name)) at the approval prompt", "\(last)")
    #expect((try cli.json(["task", "list"])["tasks"] as? [Any])?.isEmpty == true, "no task was added")

    #expect(try cli.run(["ask", "/handoff after interrupt", "--yes"]).status == 0)
    let excerpts = try #require(try cli.record("handoff", ["handoff", "get", "latest"])["recentExcerpts"] as? [String])
    let asked = try #require(excerpts.firstIndex(of: "user: /task add Interrupted task"), "\(excerpts)")
    #expect(
      excerpts.indices.contains(asked + 1)
        && excerpts[asked + 1].hasPrefix("assistant: task_add denied: task_add was not run: interrupted (\(name))"),
      "the command is followed by what came of it: \(excerpts)")
  }

  @Test("an answer past the 1,024-byte bound is read whole and judged by its first 1,024 bytes")
  func longAnswer() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "The workspace exists"]).status == 0)
    // `y`, then 1,500 spaces: the kept 1,024 bytes trim to `y`, and the rest of the line is
    // read and dropped rather than left for the shell.
    let approved = try Self.atPrompt(cli, "/task add Long answer task") { _, master in
      var answer = Array(("y" + String(repeating: " ", count: 1_500) + "\n").utf8)
      _ = write(master, &answer, answer.count)
    }
    #expect(approved.reason == .exit && approved.status == 0, "\(approved.status): \(approved.stderr)")
    // 1,500 letters: no `y`, declined.
    let declined = try Self.atPrompt(cli, "/task add Declined task") { _, master in
      var answer = Array((String(repeating: "n", count: 1_500) + "\n").utf8)
      _ = write(master, &answer, answer.count)
    }
    #expect(declined.reason == .exit && declined.status == 1, "\(declined.status): \(declined.stderr)")
    let tasks = try #require(try cli.json(["task", "list"])["tasks"] as? [[String: Any]])
    #expect(tasks.map { $0["title"] as? String } == ["Long answer task"], "\(tasks)")
  }

  @Test("an answer typed at the terminal is still read: y approves the call")
  func approvedAtTerminal() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    #expect(try cli.run(["capture", "fact", "The workspace exists"]).status == 0)
    let ended = try Self.atPrompt(cli, "/task add Approved task") { _, master in
      var answer = Array("y\n".utf8)
      _ = write(master, &answer, answer.count)
    }
    #expect(ended.reason == .exit && ended.status == 0, "\(ended.status): \(ended.stderr)")
    let tasks = try #require(try cli.json(["task", "list"])["tasks"] as? [[String: Any]])
    #expect(tasks.map { $0["title"] as? String } == ["Approved task"], "\(tasks)")
  }
}
