import Foundation
import Testing

/// `dolphin-bench doctor-export` end to end: the workspace it builds, its checks of the command
/// line, and that a timed command that fails fails the benchmark. `/bin/true` and `/bin/false`
/// stand in for the `dolphin` binary, which this package does not build.
struct DoctorExportCommandTests {
  let bench = SynthCommandTests()

  func scratch() throws -> URL {
    let url = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("dolphin-bench-doctor-export-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("builds the lived-in workspace, times both binaries alternately, and reads a kept workspace again")
  func buildsAndTimes() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("result.json").path
    let result = try bench.run([
      "doctor-export", "--items", "1000", "--runs", "1", "--dolphin", "/bin/true", "--baseline", "/bin/true",
      "--corpus", SynthCommandTests.unicodeCorpus, "--keep", dir.path, "--out", out,
    ])
    #expect(result.status == 0, "stderr: \(result.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
    let counts = try #require(json["counts"] as? [String: Int])
    #expect(counts["knowledge"] == 1_000)
    #expect(counts["memory"] == 50)
    #expect(counts["task"] == 1_000)
    #expect(counts["handoff"] == 50)
    #expect(counts["message"] == 1_000)
    #expect(counts["receipt"] == 2_000)
    #expect(counts["checkpoint"] == 200)
    #expect(json["baseline"] is [String: Any])
    #expect(json["doctorSpeedup"] is Double)
    let kept = try #require(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasPrefix("dolphin-bench-doctor-export-") })
    // The kept workspace is timed again as it is, without building anything.
    let again = try bench.run([
      "doctor-export", "--runs", "1", "--dolphin", "/bin/true", "--workspace", dir.appendingPathComponent(kept).path,
      "--out", dir.appendingPathComponent("again.json").path,
    ])
    #expect(again.status == 0, "stderr: \(again.stderr)")
    #expect(again.stdout.contains("1000 knowledge, 50 memory, 1000 message, 2000 receipt, 1000 task"), "\(again.stdout)")
    #expect(!again.stdout.contains("built in"))
  }

  @Test("a timed command that exits non-zero fails the benchmark, after writing what was measured")
  func failingCommand() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let kept = try bench.run([
      "doctor-export", "--items", "1000", "--runs", "1", "--dolphin", "/bin/true", "--corpus",
      SynthCommandTests.unicodeCorpus, "--keep", dir.path, "--out", dir.appendingPathComponent("a.json").path,
    ])
    #expect(kept.status == 0, "stderr: \(kept.stderr)")
    let workspace = try #require(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasPrefix("dolphin-bench-doctor-export-") })
    let out = dir.appendingPathComponent("b.json").path
    let result = try bench.run([
      "doctor-export", "--runs", "2", "--dolphin", "/bin/false", "--workspace", dir.appendingPathComponent(workspace).path,
      "--out", out,
    ])
    #expect(result.status == 1)
    #expect(result.stderr.contains("run(s) exited non-zero"), "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: out))
  }

  @Test("the command line is checked before anything runs")
  func usage() throws {
    let both = try bench.run(["doctor-export", "--dolphin", "/bin/true", "--workspace", "/tmp/x", "--keep", "/tmp/y"])
    #expect(both.status == 64)
    #expect(both.stderr.contains("--workspace times an existing workspace and --keep builds one"))
    let missing = try bench.run(["doctor-export", "--dolphin", "/nonexistent/dolphin"])
    #expect(missing.status == 64)
    #expect(missing.stderr.contains("no dolphin binary at /nonexistent/dolphin"))
    let small = try bench.run(["doctor-export", "--dolphin", "/bin/true", "--items", "999"])
    #expect(small.status == 64)
    #expect(small.stderr.contains("--items must be in 1000…"))
  }
}
