import Foundation
import KnowledgeEngine
import Synchronization

/// A fresh file-backed workspace in a temporary directory, filled through the product's bulk
/// path (``KnowledgeEngine/captureBulk(_:)``: one transaction, index rows included).
///
/// The clock never moves and ids count up from 1, so two runs over the same requests store
/// the same records, and equal scores are broken by title, then by capture order.
final class BenchWorkspace {
  /// The workspace directory (removed by ``remove()``).
  let directory: URL
  let store: SQLiteWorkspaceStore
  let engine: KnowledgeEngine

  /// Opens a new workspace whose knowledge-item limit is `itemLimit` (at most
  /// `Limits.knowledgeItemsMaximum`), with the fixed clock and counting ids of
  /// ``environment(secondsPerCall:)`` unless `environment` says otherwise.
  ///
  /// The directory is created under `parent` (default: the temporary directory).
  ///
  /// - Throws: storage errors.
  init(
    label: String, itemLimit: Int = Limits.knowledgeItemsDefault,
    environment: Environment = BenchWorkspace.environment(), parent: URL? = nil
  ) throws {
    directory = (parent ?? URL(fileURLWithPath: NSTemporaryDirectory()))
      .appendingPathComponent("dolphin-bench-\(label)-\(UUID().uuidString)")
    store = try SQLiteWorkspaceStore.open(directory: directory)
    if itemLimit != Limits.knowledgeItemsDefault {
      try store.write { tx in try tx.setSettings(Settings(knowledgeItemLimit: itemLimit)) }
    }
    engine = KnowledgeEngine(store: store, environment: environment)
  }

  /// Stores `requests` in one transaction.
  ///
  /// - Returns: the stored items, in request order, and the wall time in seconds.
  /// - Throws: the first validation or capacity error (nothing is stored then).
  func captureBulk(_ requests: [CaptureRequest]) throws -> (items: [KnowledgeItem], seconds: Double)
  {
    let start = DispatchTime.now().uptimeNanoseconds
    let items = try engine.captureBulk(requests).items
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return (items, seconds)
  }

  /// The database file's size in bytes after a WAL checkpoint.
  func databaseBytes() -> Int {
    try? store.checkpoint()
    let path = directory.appendingPathComponent(SQLiteWorkspaceStore.fileName).path
    return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }

  /// Deletes the workspace directory.
  func remove() {
    try? FileManager.default.removeItem(at: directory)
  }

  /// A clock that starts at 2026-01-01T00:00:00Z and moves `secondsPerCall` forward on each
  /// reading (0: it never moves), and ids `…0001`, `…0002`, … in call order.
  static func environment(secondsPerCall: Double = 0) -> Environment {
    let counter = Mutex(0)
    let ticks = Mutex(0)
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    return Environment(
      now: {
        guard secondsPerCall != 0 else { return start }
        let n = ticks.withLock { value in
          value += 1
          return value
        }
        return start.addingTimeInterval(Double(n) * secondsPerCall)
      },
      makeID: {
        let n = counter.withLock { value in
          value += 1
          return value
        }
        let hex = String(n, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        return UUID(uuidString: "00000000-0000-4000-8000-" + padded) ?? UUID()
      })
  }
}

/// Milliseconds of CPU time this thread has used (`CLOCK_THREAD_CPUTIME_ID`): unlike wall
/// time, it does not grow when other processes compete for the cores.
func threadCPUMilliseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

/// Milliseconds elapsed while running `body`.
func milliseconds(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}
