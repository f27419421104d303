import ContinuityKit
import Foundation
import Synchronization

/// A fresh temporary directory, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
  public let url: URL
  public var path: String { url.path }

  /// Creates `…/dolphin-tests-<uuid>` under the system temporary directory.
  public init(_ label: String = "t") {
    url = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
      .appendingPathComponent("dolphin-tests-\(label)-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    // 755 whatever the umask: dolphin refuses a workspace on a path others may write.
    chmod(url.path, 0o755)
  }

  /// A path inside the directory.
  public func appending(_ name: String) -> URL { url.appendingPathComponent(name) }

  public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A deterministic environment: time starts at `start` and advances `step` seconds per call;
/// ids count up from `00000000-0000-0000-0000-000000000001`.
public func fixedEnvironment(start: Date = Date(timeIntervalSince1970: 1_790_000_000), step: TimeInterval = 1) -> Environment {
  let state = Mutex((tick: 0, id: 0))
  return Environment(
    now: { state.withLock { s in s.tick += 1; return start.addingTimeInterval(Double(s.tick) * step) } },
    makeID: {
      state.withLock { s in
        s.id += 1
        return sequentialID(s.id)
      }
    })
}

/// The UUID whose last 12 hex digits are `n`.
public func sequentialID(_ n: Int) -> UUID {
  let hex = String(n, radix: 16)
  let padded = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
  return UUID(uuidString: "00000000-0000-0000-0000-\(padded.uppercased())") ?? UUID()
}

/// The directory of the repository (found from this file's path).
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The built `dolphin` executable next to the test bundle (`.build/<config>/dolphin`).
public func dolphinExecutable() -> URL {
  var dir = Bundle.main.bundleURL
  for _ in 0..<4 {
    let candidate = dir.appendingPathComponent("dolphin")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    dir = dir.deletingLastPathComponent()
  }
  return repositoryRoot.appendingPathComponent(".build/debug/dolphin")
}

/// What a process printed and returned.
public struct ProcessResult: Sendable {
  public var status: Int32
  public var stdout: String
  public var stderr: String
}

/// Runs the `dolphin` binary with `arguments`, optional stdin text and extra environment, in
/// `currentDirectory` (default: this process's).
public func runDolphin(
  _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], currentDirectory: URL? = nil
) throws -> ProcessResult {
  try runProcess(
    dolphinExecutable().path, arguments, stdin: stdin, environment: environment, currentDirectory: currentDirectory)
}

/// Runs a process to completion and collects its output.
public func runProcess(
  _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
  currentDirectory: URL? = nil
) throws -> ProcessResult {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: executable)
  p.arguments = arguments
  if let currentDirectory { p.currentDirectoryURL = currentDirectory }
  var env = ProcessInfo.processInfo.environment
  for (k, v) in environment { env[k] = v }
  p.environment = env
  let out = Pipe(), err = Pipe(), input = Pipe()
  p.standardOutput = out
  p.standardError = err
  p.standardInput = input
  try p.run()
  if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
  try? input.fileHandleForWriting.close()
  // Read both pipes concurrently so a full pipe cannot block the child.
  let errData = Mutex(Data())
  let group = DispatchGroup()
  group.enter()
  DispatchQueue.global().async {
    let d = err.fileHandleForReading.readDataToEndOfFile()
    errData.withLock { $0 = d }
    group.leave()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  p.waitUntilExit()
  return ProcessResult(
    status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self))
}

/// The files under `directory` (recursively, every regular file: the database, its `-wal` and
/// `-shm`, backups) whose bytes contain `needle` in UTF-8, as paths relative to `directory`.
public func filesContaining(_ needle: String, under directory: URL) -> [String] {
  let pattern = Data(needle.utf8)
  var hits: [String] = []
  guard let e = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else {
    return []
  }
  for case let url as URL in e where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
    if let data = try? Data(contentsOf: url), data.range(of: pattern) != nil {
      hits.append(String(url.path.dropFirst(directory.path.count + 1)))
    }
  }
  return hits.sorted()
}

/// Every regular file under `directory`, relative paths, sorted.
public func regularFiles(under directory: URL) -> [String] {
  guard let e = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else {
    return []
  }
  var out: [String] = []
  for case let url as URL in e where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
    out.append(String(url.path.dropFirst(directory.path.count + 1)))
  }
  return out.sorted()
}

/// Obviously fake values, each correctly shaped for its kind. They are assembled from pieces so
/// that secret scanners reading this source do not mistake them for real leaks.
public enum FakeSecrets {
  public static let rsaKey = "-----BEGIN RSA " + """
    PRIVATE KEY-----
    MIIEpAIBAAKCAQEAzFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE0123
    FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE4567
    -----END RSA PRIVATE KEY-----
    """
  public static let openSSHKey = "-----BEGIN OPENSSH " + """
    PRIVATE KEY-----
    b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
    -----END OPENSSH PRIVATE KEY-----
    """
  public static let aws = "AKIA" + "FAKEFAKEFAKE1234"
  public static let awsSession = "ASIA" + "FAKE0123456789AB"
  public static let gitHub = "ghp" + "_FAKEfake0123456789FAKEfake0123456789"
  public static let gitHubOAuth = "gho" + "_FAKEfake0123456789FAKEfake0123456789"
  public static let gitHubServer = "ghs" + "_FAKEfake0123456789FAKEfake0123456789"
  public static let gitHubFineGrained = "github" + "_pat_11FAKEFAKE0123456789_fakefakefakefake0123456789FAKEFAKE"
  public static let gitLab = "glpat" + "-FAKEfake0123456789xyz"
  public static let slack = "xoxb" + "-123456789012-1234567890123-FAKEfakeFAKEfake"
  public static let stripe = "sk_" + "live_FAKEfake0123456789FAKEfake"
  public static let stripeRestricted = "rk_" + "live_FAKEfake0123456789FAKEfake"
  public static let google = "AIza" + "SyFAKEfake0123456789FAKEfake0123456"
  public static let openAI = "sk" + "-FAKEfake0123456789FAKEfake0123456789FAKEfake"
  public static let openAIProject = "sk" + "-proj-FAKEfake0123456789FAKEfake0123456789abcd"
  public static let jwt = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiJmYWtlIn0.ZmFrZXNpZ25hdHVyZWZha2U"
  /// The secret access key of AWS's documentation (40 characters; it spells EXAMPLE).
  public static let awsSecretExample = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
  /// 40 characters in the shape of an AWS secret access key.
  public static let awsSecret = "FAKEfake0123/FAKEfake+" + "0123FAKEfake0123ab"
  public static let huggingFace = "hf" + "_FAKEfakeFAKEfakeFAKEfakeFAKEfake01"
  public static let npm = "npm" + "_FAKEfake0123456789FAKEfake0123456789"
}

extension JSONValue {
  /// For an MCP `CallToolResult` that failed (`isError: true`): the JSON details the server sends
  /// as its second text block (`{"error", "receipt"?, "workspace"?}`), parsed; nil when the
  /// result is no error, carries `structuredContent` (which a failure never does), or has no
  /// such block.
  public var toolErrorDetails: JSONValue? {
    guard self["isError"] == .bool(true), self["structuredContent"] == nil,
      let blocks = self["content"]?.array, blocks.count == 2,
      case .string(let text)? = blocks[1]["text"]
    else { return nil }
    return try? JSONValue(parsing: text)
  }
}
