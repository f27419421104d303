import Foundation
import Testing
import TestSupport

/// Regression (third review, s13): with stdout closed (`dolphin capture … >&-`), printing the
/// confirmation crashed the process (`FileHandle.write`, exit 132 and a backtrace) after the
/// record had been stored. Review 20-a, #1: output that cannot be written — a closed stdout, a
/// full disk (`/dev/full`) — exited 0 with nothing said, so `dolphin export > backup.json` on a
/// full disk left a truncated backup that looked like a good one. Now it is an error (exit 5)
/// that says the command ran and its output is incomplete.
@Suite("commands whose standard output cannot be written", .serialized)
struct ClosedStdoutTests {
  static func shell(_ command: String, home: TemporaryDirectory) throws -> ProcessResult {
    let dolphin = "'" + dolphinExecutable().path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    return try runProcess("/bin/sh", ["-c", "\(dolphin) \(command)"], environment: ["DOLPHIN_HOME": home.appending("ws").path])
  }

  static let message = "dolphin: error: could not write standard output: "

  @Test("capture with stdout closed stores the item, says its output was lost, exits 5 without a crash report")
  func captureWithClosedStdout() throws {
    let home = TemporaryDirectory("closed-stdout")
    defer { home.remove() }
    let run = try Self.shell("capture fact 'Written blind' --content x >&-", home: home)
    #expect(run.status == 5, "\(run.stderr)")
    #expect(run.stderr.contains(Self.message), "\(run.stderr)")
    #expect(run.stderr.contains("the command ran, but what it printed is lost or cut short"), "\(run.stderr)")
    #expect(!run.stderr.contains("Fatal error"), "\(run.stderr)")
    let list = try runProcess(
      dolphinExecutable().path, ["knowledge", "list"], environment: ["DOLPHIN_HOME": home.appending("ws").path])
    #expect(list.stdout.contains("Written blind"), "\(list.stdout)")
  }

  @Test("export, a list and --json reports to a full disk (/dev/full) fail with exit 5 naming the cause", arguments: [
    "export", "export --format markdown", "knowledge list", "status --json", "doctor --json",
  ])
  func fullDisk(_ command: String) throws {
    try #require(FileManager.default.fileExists(atPath: "/dev/full"), "this test needs /dev/full (Linux)")
    let home = TemporaryDirectory("full-stdout")
    defer { home.remove() }
    #expect(try Self.shell("capture decision 'Keep backups' --content 'Exported nightly'", home: home).status == 0)
    let run = try Self.shell("\(command) > /dev/full", home: home)
    #expect(run.status == 5, "\(command): \(run.status) \(run.stderr)")
    #expect(run.stderr.contains(Self.message + "the disk is full"), "\(run.stderr)")
    #expect(run.stderr.contains("a file it was redirected to is incomplete"), "\(run.stderr)")
  }

  @Test("a command that already failed keeps its own exit code when its output cannot be written either")
  func failureKeepsItsCode() throws {
    let home = TemporaryDirectory("full-stdout-failure")
    defer { home.remove() }
    let run = try Self.shell("knowledge get not-a-uuid --json > /dev/full", home: home)
    #expect(run.status == 4, "\(run.status) \(run.stderr)")
  }

  @Test("output that reaches standard output leaves the exit code alone")
  func goodOutput() throws {
    let home = TemporaryDirectory("good-stdout")
    defer { home.remove() }
    let run = try Self.shell("capture fact 'Seen' --content x > /dev/null", home: home)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(!run.stderr.contains(Self.message), "\(run.stderr)")
  }
}
