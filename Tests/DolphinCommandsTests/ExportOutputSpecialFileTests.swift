import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `export --output X [--force]` replaces only a regular file (review 18-c, C1: a device node, a
/// FIFO and a `/dev/stdout`-like link were swapped for a regular 0600 file, and the refusal for
/// `--output /dev/stdout` told the user to pass --force).
@Suite("export --output never replaces a special file or a link", .serialized)
struct ExportOutputSpecialFileTests {
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    /// Makes the special file at the given path; false when this system does not allow it.
    var make: @Sendable (String) -> Bool
    /// The file type that must still be there afterwards (`S_IFCHR`, `S_IFIFO`, `S_IFLNK`).
    var type: mode_t
    var stderr: String
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "character device", make: { mknod($0, S_IFCHR | 0o600, dev_t((1 << 8) | 3)) == 0 }, type: S_IFCHR,
      stderr: "is a character device, not a regular file; nothing was written. Export writes a new regular file and "
        + "replaces only a regular file, even with --force; to write to standard output, give --output - or leave "
        + "--output out"),
    Case(
      name: "FIFO", make: { mkfifo($0, 0o600) == 0 }, type: S_IFIFO,
      stderr: "is a FIFO (named pipe), not a regular file; nothing was written"),
    Case(
      name: "link to the process's stdout", make: { symlink("/proc/self/fd/1", $0) == 0 }, type: S_IFLNK,
      stderr: "is a symbolic link to a FIFO (named pipe); nothing was written. Export never replaces a symbolic link or "
        + "writes through one, even with --force; to write to standard output, give --output - or leave --output out"),
  ]

  @Test("refused with and without --force, left as it is, and --force is not suggested", arguments: cases)
  func refused(_ c: Case) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.json(["capture", "fact", "keep me"])
    let path = cli.dir.appending("out.json").path
    guard c.make(path) else {
      #expect(c.type == S_IFCHR, "only making a device may be refused here (\(errno))")
      return
    }
    for force in [[], ["--force"]] {
      let r = try cli.run(["export", "--output", path] + force)
      #expect(r.status == 4, "\(force): \(r.stderr)")
      #expect(r.stderr.contains("--output \(path) \(c.stderr)"), "\(r.stderr)")
      #expect(!r.stderr.contains("pass --force"), "\(r.stderr)")
      var st = stat()
      #expect(lstat(path, &st) == 0 && st.st_mode & S_IFMT == c.type, "\(c.name) is still there after \(force)")
    }
  }

  @Test("--output /dev/stdout is refused without suggesting --force, and says that - means stdout")
  func devStdout() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.json(["capture", "fact", "keep me"])
    for force in [[], ["--force"]] {
      let r = try cli.run(["export", "--output", "/dev/stdout"] + force)
      #expect(r.status == 4, "\(r.stderr)")
      #expect(r.stderr.contains("--output /dev/stdout is a symbolic link to"), "\(r.stderr)")
      #expect(r.stderr.contains("give --output - or leave --output out"), "\(r.stderr)")
      #expect(!r.stderr.contains("pass --force"), "\(r.stderr)")
      #expect(r.stdout.isEmpty)
    }
    var st = stat()
    #expect(lstat("/dev/stdout", &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
  }

  @Test("a link to a regular file is neither replaced nor written through; the message names the file to give instead")
  func linkToRegularFile() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    _ = try cli.json(["capture", "fact", "keep me"])
    let target = cli.dir.appending("real.json").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    let link = cli.dir.appending("latest.json").path
    #expect(symlink(target, link) == 0)
    let r = try cli.run(["export", "--output", link, "--force"])
    #expect(r.status == 4, "\(r.stderr)")
    let resolved = try #require(realpath(target, nil))
    defer { free(resolved) }
    #expect(
      r.stderr.contains(
        "--output \(link) is a symbolic link to the regular file \(String(cString: resolved)); nothing was written. "
          + "Export never replaces a symbolic link or writes through one: to replace that file, name it "
          + "(--output \(String(cString: resolved)) --force)"), "\(r.stderr)")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == target)
    // Naming the file itself replaces it, as the message says.
    let named = try cli.run(["export", "--output", String(cString: resolved), "--force"])
    #expect(named.status == 0, "\(named.stderr)")
    #expect(try String(contentsOfFile: target, encoding: .utf8).contains("keep me"))
  }
}
