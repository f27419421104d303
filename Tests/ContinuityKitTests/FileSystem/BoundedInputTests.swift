import ContinuityKit
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Bounded input reads")
struct BoundedInputTests {
  @Test("an endless source (/dev/zero) is read only one byte past the bound")
  func endlessSource() throws {
    let fd = open("/dev/zero", O_RDONLY)
    try #require(fd >= 0)
    defer { close(fd) }
    let r = try BoundedInput.read(fileDescriptor: fd, source: "/dev/zero", maxBytes: 100_000)
    #expect(r.bytes.count == 100_001)
    #expect(r.truncated)
  }

  @Test("stop ends the read after the chunk that decides it")
  func earlyStop() throws {
    let fd = open("/dev/zero", O_RDONLY)
    try #require(fd >= 0)
    defer { close(fd) }
    let r = try BoundedInput.read(fileDescriptor: fd, source: "/dev/zero", maxBytes: 10_000_000) { $0.contains(0) }
    #expect(r.truncated)
    #expect(r.bytes.count <= 64 * 1024)
  }

  /// Regression (review, s14): `readFile` opened a FIFO for reading, which waits for a writer
  /// that may never come (`--content-file`, `import` and `migrate` hung until killed), and read
  /// devices such as `/dev/zero` to the bound. A named file must now be a regular one: anything
  /// else is refused for what it is, from `stat` and without blocking.
  @Test("a FIFO without a writer, a link to one, or a device is refused for what it is, without blocking")
  func specialFilesRefused() throws {
    let dir = TemporaryDirectory("bounded-special")
    defer { dir.remove() }
    let fifo = dir.appending("notes.txt").path
    try #require(mkfifo(fifo, 0o600) == 0)
    // Nobody ever opens the FIFO for writing: opening it to read would wait forever.
    #expect(throws: BoundedInput.Failure.notRegularFile(path: fifo, kind: "a FIFO (named pipe)")) {
      try BoundedInput.readFile(atPath: fifo, maxBytes: 1_000)
    }
    let link = dir.appending("link-to-fifo.txt").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fifo)
    #expect(throws: BoundedInput.Failure.notRegularFile(path: link, kind: "a FIFO (named pipe)")) {
      try BoundedInput.readFile(atPath: link, maxBytes: 1_000)
    }
    #expect(throws: BoundedInput.Failure.notRegularFile(path: "/dev/zero", kind: "a character device")) {
      try BoundedInput.readFile(atPath: "/dev/zero", maxBytes: 1_000)
    }
    #expect(
      BoundedInput.Failure.notRegularFile(path: fifo, kind: "a FIFO (named pipe)").description
        == "'\(fifo)' is a FIFO (named pipe), not a regular file")
  }

  @Test("a regular file over the bound is refused from its size, unread; one within it is read whole")
  func regularFiles() throws {
    let dir = TemporaryDirectory("bounded")
    defer { dir.remove() }
    let big = dir.appending("big").path
    // Sparse: 100 MB of size, no data written.
    let fd = open(big, O_CREAT | O_WRONLY, 0o600)
    try #require(fd >= 0)
    #expect(ftruncate(fd, 100_000_000) == 0)
    close(fd)
    #expect(throws: BoundedInput.Failure.tooLarge(path: big, size: 100_000_000, maxBytes: 512_000)) {
      try BoundedInput.readFile(atPath: big, maxBytes: 512_000)
    }
    let small = dir.appending("small")
    try Data(repeating: UInt8(ascii: "a"), count: 200_000).write(to: small)
    // `stop` is for sources of unknown size; a regular file within the bound is read whole.
    let r = try BoundedInput.readFile(atPath: small.path, maxBytes: 512_000) { _ in true }
    #expect(r.bytes.count == 200_000 && !r.truncated)
    #expect(throws: BoundedInput.Failure.isDirectory(path: dir.path)) {
      try BoundedInput.readFile(atPath: dir.path, maxBytes: 10)
    }
    #expect(throws: BoundedInput.Failure.cannotOpen(path: dir.appending("none").path, reason: "no such file")) {
      try BoundedInput.readFile(atPath: dir.appending("none").path, maxBytes: 10)
    }
  }

  @Test("with stopsRegularFiles a large regular file of NUL bytes is read one chunk, not up to the bound")
  func regularFileStopsAtFirstNUL() throws {
    let dir = TemporaryDirectory("bounded-nul")
    defer { dir.remove() }
    let zeros = dir.appending("zeros").path
    // Sparse: 200 MB that read as NUL bytes.
    let fd = open(zeros, O_CREAT | O_WRONLY, 0o600)
    try #require(fd >= 0)
    #expect(ftruncate(fd, 200_000_000) == 0)
    close(fd)
    let r = try BoundedInput.readFile(
      atPath: zeros, maxBytes: 1 << 30, stopsRegularFiles: true, stop: BoundedInput.stopAtFirstNUL())
    #expect(r.truncated)
    #expect(r.bytes.count <= 64 * 1024, "read \(r.bytes.count) bytes")
    // Without it the regular file is read whole (sizes stay exact for text fields).
    let whole = try BoundedInput.readFile(atPath: zeros, maxBytes: 1 << 30, stop: BoundedInput.stopAtFirstNUL())
    #expect(whole.bytes.count == 200_000_000 && !whole.truncated)
  }

  @Test("stopAtFirstNUL finds a NUL in a later chunk and nothing in NUL-free text")
  func stopAtFirstNULAcrossChunks() throws {
    let dir = TemporaryDirectory("bounded-nul-late")
    defer { dir.remove() }
    let late = dir.appending("late")
    try (Data(repeating: UInt8(ascii: "a"), count: 150_000) + Data([0]) + Data(repeating: UInt8(ascii: "b"), count: 500_000))
      .write(to: late)
    let r = try BoundedInput.readFile(
      atPath: late.path, maxBytes: 1_000_000, stopsRegularFiles: true, stop: BoundedInput.stopAtFirstNUL())
    #expect(r.truncated && r.bytes.firstIndex(of: 0) == 150_000)
    #expect(r.bytes.count <= 3 * 64 * 1024)
    let text = dir.appending("text")
    try Data(repeating: UInt8(ascii: "a"), count: 300_000).write(to: text)
    let t = try BoundedInput.readFile(
      atPath: text.path, maxBytes: 1_000_000, stopsRegularFiles: true, stop: BoundedInput.stopAtFirstNUL())
    #expect(t.bytes.count == 300_000 && !t.truncated)
  }

  @Test("user text is length-checked as given, before the sanitizer drops controls")
  func sanitizedInput() throws {
    #expect(throws: ValidationError.tooLong("content", limit: 16_000, actual: 20_000)) {
      try Limits.sanitizedInput("content", String(repeating: "\u{1}", count: 20_000), limit: 16_000)
    }
    #expect(throws: ValidationError.self) { try Limits.sanitizedInput("content", "\u{1}\u{200B}", limit: 16_000) }
    #expect(try Limits.sanitizedInput("title", "  a\u{1}b ", limit: 300, trimming: true) == "ab")
    #expect(try Limits.sanitizedInput("content", "", limit: 10) == "")
    // White space alone is refused where it is kept as given (s16); trimmed fields become empty.
    #expect(throws: Limits.onlyWhitespace("content", " \n", consequence: "nothing was stored")) {
      try Limits.sanitizedInput("content", " \n", limit: 10)
    }
    #expect(try Limits.sanitizedInput("title", " \n", limit: 10, trimming: true) == "")
    #expect(try Limits.sanitizedInput("content", " a\n", limit: 10) == " a\n")
  }
}
