import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One finished child process: wall time and peak resident set size.
struct ProcessSample {
  var status: Int32
  /// Wall-clock milliseconds from spawn to exit.
  var milliseconds: Double
  /// Peak RSS in kilobytes (`ru_maxrss` from `wait4(2)`).
  ///
  /// Beware: `posix_spawn` starts the child in the parent's address space, and Linux keeps
  /// that address space's high-water mark across `exec`, so this is at least the spawning
  /// process's own peak. Use ``ProcessTimer/peakRSSKilobytes(_:_:)`` for the child alone.
  var maxRSSKilobytes: Int
  /// CPU milliseconds the child used, user and system time (`ru_utime` + `ru_stime` from
  /// `wait4(2)`, the child's own): unlike wall time, it does not grow while other processes
  /// hold the cores.
  var cpuMilliseconds: Double = 0
}

/// Spawns processes directly (`posix_spawn`) and reaps them with `wait4`, so each run's wall
/// time and peak memory are measured without a shell in between.
enum ProcessTimer {
  /// Runs `executable` with `arguments`; stdout and stderr go to /dev/null.
  static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> ProcessSample {
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for p in argv { free(p) }
      for p in envp { free(p) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard rc == 0 else { return ProcessSample(status: -1, milliseconds: 0, maxRSSKilobytes: 0) }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1e3 + Double(t.tv_usec) / 1e3 }
    return ProcessSample(
      status: exitStatus, milliseconds: elapsed, maxRSSKilobytes: Int(usage.ru_maxrss),
      cpuMilliseconds: ms(usage.ru_utime) + ms(usage.ru_stime))
  }
}

extension ProcessTimer {
  /// The peak RSS in kilobytes of `executable` alone, measured by `/usr/bin/time -f %M` (a
  /// small process, so its child's high-water mark starts from its own size, not from this
  /// process's); nil when `/usr/bin/time` is missing or the run failed.
  static func peakRSSKilobytes(_ executable: String, _ arguments: [String]) -> Int? {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else { return nil }
    let output = NSTemporaryDirectory() + "dolphin-bench-rss-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: output) }
    let sample = run(time, ["-f", "%M", "-o", output, executable] + arguments)
    guard sample.status == 0, let text = try? String(contentsOfFile: output, encoding: .utf8) else {
      return nil
    }
    return text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
  }
}

/// This process's peak resident set size so far, in kilobytes (`getrusage(RUSAGE_SELF)`).
func selfMaxRSSKilobytes() -> Int {
  var usage = rusage()
  #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Int(usage.ru_maxrss)
  #else
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
  #endif
}

/// Percentile by linear interpolation between closest ranks (NumPy's default).
func percentile(_ values: [Double], _ p: Double) -> Double {
  guard !values.isEmpty else { return .nan }
  let s = values.sorted()
  let rank = p / 100 * Double(s.count - 1)
  let lo = Int(rank.rounded(.down)), hi = Int(rank.rounded(.up))
  return s[lo] + (s[hi] - s[lo]) * (rank - Double(lo))
}
