import Foundation

/// Checks on disk that erased records are gone: every byte of every file under the workspace
/// directory is searched for the text form of each erased record's id (every stored row holds
/// its id beside its text, so a surviving id means a surviving row, free page or WAL frame).
enum EraseVerifier {
  /// Scans the files and fills in `verification`'s files, bytes and leaked ids.
  ///
  /// An erased id may legitimately remain where a live record mentions it (an activity
  /// receipt's changed ids after erasing knowledge); such ids are not counted as leaked.
  /// - Complexity: O(total file size), plus one pass over the live records when an erased id
  ///   is found at all.
  ///
  /// Files in `keptFiles` (legacy backups a partial erase keeps on purpose) are scanned too, but
  /// a hit there is reported in ``EraseVerification/retainedCopies``, not as a leak.
  static func verify(
    _ erased: Set<UUID>, in directory: URL, keptFiles: Set<String>, store: any WorkspaceStore,
    into verification: inout EraseVerification
  ) throws {
    var found = Set<UUID>()
    var hitsByFile: [(String, Set<UUID>)] = []
    for file in regularFiles(under: directory) {
      guard let data = try? Data(contentsOf: file, options: .alwaysMapped) else {
        verification.notes.append("could not read \(file.path)")
        continue
      }
      verification.filesScanned.append(file.path)
      verification.bytesScanned += data.count
      guard !erased.isEmpty else { continue }
      var hits = Set<UUID>()
      data.withUnsafeBytes { bytes in
        forEachUUID(in: bytes) { id in if erased.contains(id) { hits.insert(id) } }
      }
      if keptFiles.contains(file.path) || keptFiles.contains(file.resolvingSymlinksInPath().path) {
        if !hits.isEmpty { verification.retainedCopies.append(file.path) }
      } else if !hits.isEmpty {
        found.formUnion(hits)
        hitsByFile.append((file.path, hits))
      }
    }
    if !found.isEmpty {
      let live = try liveIDs(store)
      verification.mentionedByKeptRecords = found.intersection(live).count
      found.subtract(live)
    }
    verification.leakedIDs = Array(found.sorted { $0.uuidString < $1.uuidString }.prefix(20))
    verification.filesWithLeaks = hitsByFile.filter { !$0.1.isDisjoint(with: found) }.map(\.0)
  }

  /// Every regular file below `directory`, sorted by path.
  static func regularFiles(under directory: URL) -> [URL] {
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [])
    else { return [] }
    var out: [URL] = []
    for case let url as URL in enumerator
    where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
      out.append(url)
    }
    return out.sorted { $0.path < $1.path }
  }

  /// Ids mentioned anywhere in the live workspace (records, quarantine, legacy-import records).
  static func liveIDs(_ store: any WorkspaceStore) throws -> Set<UUID> {
    let text = try store.read { tx in
      try StableJSON.string(tx.snapshot()) + (try StableJSON.string(tx.listQuarantine()))
        + (try StableJSON.string(tx.listLegacyImports()))
    }
    var out = Set<UUID>()
    var copy = text
    copy.withUTF8 { buf in forEachUUID(in: UnsafeRawBufferPointer(buf)) { out.insert($0) } }
    return out
  }

  /// Calls `body` with every UUID written as 36 characters (8-4-4-4-12 hex digits, either case).
  static func forEachUUID(in bytes: UnsafeRawBufferPointer, _ body: (UUID) -> Void) {
    let n = bytes.count
    guard n >= 36 else { return }
    func isHex(_ c: UInt8) -> Bool {
      (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }
    let dash = UInt8(ascii: "-")
    var i = 0
    while i <= n - 36 {
      if bytes[i + 8] == dash, bytes[i + 13] == dash, bytes[i + 18] == dash, bytes[i + 23] == dash {
        var ok = true
        for k in 0..<36 where k != 8 && k != 13 && k != 18 && k != 23 && !isHex(bytes[i + k]) {
          ok = false
          break
        }
        if ok, let id = UUID(uuidString: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<(i + 36)]), as: UTF8.self)) {
          body(id)
          i += 36
          continue
        }
      }
      i += 1
    }
  }
}
