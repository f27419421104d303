import Foundation
import Testing
import TestSupport

/// Regression (third review, s13): with stdout closed (`dolphin capture … >&-`), printing the
/// confirmation crashed the process (`FileHandle.write`, exit 132 and a backtrace) after the
/// record had been stored. The output is lost, as any tool's would be; the command's result stands.
@Suite("commands run with stdout closed", .serialized)
struct ClosedStdoutTests {
  @Test("capture with stdout closed stores the item and exits 0 without a crash report")
  func captureWithClosedStdout() throws {
    let home = TemporaryDirectory("closed-stdout")
    defer { home.remove() }
    let dolphin = "'" + dolphinExecutable().path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    let run = try runProcess(
      "/bin/sh", ["-c", "\(dolphin) capture fact 'Written blind' --content x >&-"],
      environment: ["DOLPHIN_HOME": home.appending("ws").path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(!run.stderr.contains("Fatal error"), "\(run.stderr)")
    let list = try runProcess(
      dolphinExecutable().path, ["knowledge", "list"], environment: ["DOLPHIN_HOME": home.appending("ws").path])
    #expect(list.stdout.contains("Written blind"), "\(list.stdout)")
  }
}
