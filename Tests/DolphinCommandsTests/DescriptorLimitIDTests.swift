import Foundation
import Testing
import TestSupport

/// Review 29-b, 2: with almost no file descriptor left (`ulimit -n 9`), SQLite still opened the
/// workspace but Foundation's `UUID()` could not open `/dev/urandom`: a capture, a task and a
/// handoff were all stored under 00000000-0000-4000-8000-000000000000, and the export could not
/// be imported. At every limit a command now either fails naming the limit, or stores a record
/// under a random id of its own.
@Suite("Record ids under a file-descriptor limit")
struct DescriptorLimitIDTests {
  @Test("under ulimit -n 8…14 no record gets the all-zero id, and the ids stay distinct")
  func noZeroID() throws {
    let dir = TemporaryDirectory("fd-limit-ids")
    defer { dir.remove() }
    let ws = dir.appending("ws").path
    let dolphin = dolphinExecutable().path
    #expect(try runDolphin(["capture", "fact", "seed", "--workspace", ws]).status == 0)
    var stored: [String] = []
    for limit in 8...14 {
      for command in ["capture fact 'item \(limit)'", "task add 'task \(limit)'"] {
        let r = try runProcess("/bin/sh", ["-c", "ulimit -n \(limit); '\(dolphin)' \(command) --json --workspace '\(ws)'"])
        #expect(!r.stdout.contains("00000000-0000-4000-8000-000000000000"), "ulimit -n \(limit), \(command): \(r.stdout)")
        if r.status == 0 {
          let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
          let record = (object?["item"] ?? object?["task"]) as? [String: Any]
          if let id = record?["id"] as? String { stored.append(id) }
        }
        // A limit too low to work fails (with a storage error naming `ulimit -n`, or earlier, in
        // the runtime, before dolphin's code runs); what matters here is that nothing is stored
        // under the all-zero id.
      }
    }
    #expect(!stored.isEmpty)
    #expect(Set(stored).count == stored.count, "\(stored)")
    #expect(!stored.contains("00000000-0000-4000-8000-000000000000"))
  }
}
