import Foundation
// Measures CodeAnalyzer throughput in MB/s (10^6 bytes per second, all rules, one thread) over
// a corpus of Swift files. Reports the best of N passes by wall-clock time and by the thread's
// CPU time (the latter is steadier on a shared machine).
// Usage: analyze-throughput [--repeat N] FILE...   (build with -c release)
@_spi(Tooling) import KnowledgeEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// CPU time of the calling thread, in seconds.
func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

var repeats = 5
var paths: [String] = []
var arguments = CommandLine.arguments.dropFirst()[...]
while let argument = arguments.popFirst() {
  if argument == "--repeat", let value = arguments.popFirst().flatMap({ Int($0) }) {
    repeats = max(1, value)
  } else {
    paths.append(argument)
  }
}
let sources = paths.compactMap { path in
  FileManager.default.contents(atPath: path).map { (path, String(decoding: $0, as: UTF8.self)) }
}
let bytes = sources.reduce(0) { $0 + $1.1.utf8.count }
var bestWall = Double.infinity
var bestCPU = Double.infinity
var findings = 0
for _ in 0..<repeats {
  findings = 0
  let wallStart = Date()
  let cpuStart = threadCPUSeconds()
  for (path, source) in sources {
    findings += CodeAnalyzer.analyzeWithoutBounds(source: source, fileName: path).totalFindings
  }
  bestCPU = min(bestCPU, threadCPUSeconds() - cpuStart)
  bestWall = min(bestWall, Date().timeIntervalSince(wallStart))
}
let megabytes = Double(bytes) / 1_000_000
func format(_ value: Double) -> String { String(format: "%.1f", value) }
print(
  "files=\(sources.count) bytes=\(bytes) findings=\(findings) best_of=\(repeats) "
    + "wall_s=\(String(format: "%.4f", bestWall)) MB/s_wall=\(format(megabytes / bestWall)) "
    + "cpu_s=\(String(format: "%.4f", bestCPU)) MB/s_cpu=\(format(megabytes / bestCPU))")
