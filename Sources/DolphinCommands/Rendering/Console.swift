import ContinuityKit
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the CLI reads and writes: real standard streams, or buffers in tests.
public final class Console: @unchecked Sendable {
  private(set) var out = ""
  private(set) var err = ""
  private let buffered: Bool
  /// Whether standard input is a terminal (confirmation prompts are only asked there).
  public let isInteractive: Bool
  private var inputLines: [String]
  /// The process environment.
  public let environment: [String: String]

  /// Real standard streams.
  public static func standard() -> Console {
    Console(buffered: false, isInteractive: isatty(0) == 1, input: [], environment: ProcessInfo.processInfo.environment)
  }

  /// A console that records output, for tests.
  public init(buffered: Bool = true, isInteractive: Bool = false, input: [String] = [], environment: [String: String] = [:]) {
    self.buffered = buffered
    self.isInteractive = isInteractive
    self.inputLines = input
    self.environment = environment
  }

  /// The `errno` of the first write to standard output that failed (a full disk, `/dev/full`,
  /// a closed descriptor), or nil; later lines are still tried. ``DolphinCLI`` reports it and
  /// exits ``ExitCode/storage`` (review 20-a, #1: `dolphin export > backup.json` on a full disk
  /// left a truncated backup and exited 0).
  public private(set) var outputFailure: Int32?

  /// What was written to stdout (buffered consoles only).
  public var standardOutput: String { out }
  /// What was written to stderr (buffered consoles only).
  public var standardError: String { err }

  /// Prints a line to stdout. Every line is made inert (``TerminalText/inert(_:)``, which is
  /// idempotent), so no path or argument echoed back can drive the terminal.
  func print(_ raw: String) {
    let s = TerminalText.inert(raw)
    if buffered {
      out += s + "\n"
    } else if let failure = Self.writeAll(s + "\n", to: STDOUT_FILENO), outputFailure == nil {
      outputFailure = failure
    }
  }

  /// Writes `text` to `descriptor`, all of it or until the descriptor fails, and returns the
  /// failure's `errno` (`EIO` for a write that wrote nothing), or nil. A closed stdout
  /// (`dolphin … >&-`) does not stop the process: `FileHandle.write` crashed it (exit 132,
  /// review s13) after the command had run.
  @discardableResult
  static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
    errno = 0
    guard !SecureFile.writeAll(descriptor, Data(text.utf8)) else { return nil }
    return errno == 0 ? EIO : errno
  }

  /// The error for a failed write to standard output: what failed and why, and that the
  /// command itself ran (its output is what was lost or cut short).
  func outputFailureMessage(_ failure: Int32) -> String {
    "could not write standard output: \(SystemErrorCause.describe(failure)); the command ran, but what it "
      + "printed is lost or cut short (a file it was redirected to is incomplete: do not use it)"
  }

  func printError(_ raw: String) {
    let s = TerminalText.inert(raw)
    if buffered { err += s + "\n" } else { Self.writeAll(s + "\n", to: STDERR_FILENO) }
  }

  /// Prints a warning or notice line to stderr (`dolphin: warning: …`), made inert as
  /// ``printError(_:)`` does and with each bidi control shown as an escape
  /// (``TerminalText/escapingBidiControls(_:)``), as error messages show them: what a warning
  /// quotes — a workspace path, a file name — was never sanitized, and a right-to-left override
  /// in it would reorder the rest of the line on the screen.
  func printDiagnostic(_ raw: String) {
    printError(TerminalText.escapingBidiControls(raw))
  }

  /// Reads one line from stdin (nil at end of input).
  func readLine() -> String? {
    if buffered { return inputLines.isEmpty ? nil : inputLines.removeFirst() }
    return Swift.readLine(strippingNewline: true)
  }

  /// Shows `prompt` on stderr and reads the answer from stdin (nil at end of input). On real
  /// streams SIGINT (Ctrl-C) and SIGTERM while it waits give
  /// ``PromptAnswer/interrupted(signal:)`` instead of ending the process
  /// (``InterruptiblePrompt``); a buffered console reads its next input line.
  func askConfirmation(_ prompt: String) -> PromptAnswer {
    if buffered {
      printError(prompt)
      return .line(readLine())
    }
    return InterruptiblePrompt.ask { printError(prompt) }
  }

  /// Reads standard input, never more than `maxBytes + 1` bytes (see
  /// ``BoundedInput/read(fileDescriptor:source:maxBytes:stop:)``): `yes | dolphin …` stops
  /// once the bound is passed instead of growing without end.
  func readStandardInput(maxBytes: Int, stop: ([UInt8]) -> Bool = { _ in false }) throws(BoundedInput.Failure)
    -> BoundedInput.Result
  {
    if buffered {
      defer { inputLines = [] }
      let all = Array(inputLines.joined(separator: "\n").utf8)
      return BoundedInput.Result(bytes: Array(all.prefix(maxBytes + 1)), truncated: all.count > maxBytes)
    }
    return try BoundedInput.read(fileDescriptor: STDIN_FILENO, source: "standard input", maxBytes: maxBytes, stop: stop)
  }

  /// Prints a value as one JSON document (sorted keys, pretty), as ``printJSONText(_:)`` prints.
  func printJSON<T: Encodable>(_ value: T) throws {
    printJSONText(try StableJSON.string(value, pretty: true))
  }

  /// Prints `value`, a report whose command then fails with `failure`, as one JSON document
  /// with an `error` object beside the report's own members — `{"kind", "message", "exitCode"}`,
  /// as every other failure with `--json` prints it — so that a script checking `.error` finds
  /// it (review, s17: `doctor --json` on a missing workspace had none). Without a failure, as
  /// ``printJSON(_:)``.
  /// - Precondition: `value` encodes as a JSON object.
  func printJSON<T: Encodable>(_ value: T, failure: ReportedFailure?) throws {
    guard let failure else { return try printJSON(value) }
    let message = TerminalText.escapingBidiControls(escapingLineBreaks(failure.message))
    try printJSON(
      ReportWithError(value: value, error: .init(kind: failure.kind, message: message, exitCode: failure.code)))
  }

  /// Prints a JSON text with DEL and the C1 controls (U+007F–U+009F), which JSON may carry raw,
  /// and the bidirectional controls (``TerminalText/escapingBidiControls(_:)``: U+202E and the
  /// rest), written as `\u` escapes: the same data, and nothing a terminal acts on or that
  /// reverses the rest of a line on the screen. ``print(_:)`` would show C1 controls as `␡` and
  /// U+FFFD, changing the values a script reads (review, s13: a stored U+0085 came out of
  /// `export` as U+FFFD). Outside strings a JSON text is ASCII, so only string contents change.
  func printJSONText(_ json: String) {
    func escapes(_ scalar: Unicode.Scalar) -> Bool {
      (0x7F...0x9F).contains(scalar.value) || scalar.properties.isBidiControl
    }
    guard json.unicodeScalars.contains(where: escapes) else { return print(json) }
    var escaped = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      if escapes(scalar) {
        escaped.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
      } else {
        escaped.append(scalar)
      }
    }
    print(String(escaped))
  }
}

/// Stored text made safe for a terminal: controls shown as pictures (``TerminalText/inert(_:)``)
/// and bidirectional controls as escapes (``TerminalText/escapingBidiControls(_:)``). Capture
/// and import never store the latter, but another program writing the database can, and a
/// right-to-left override in a title would print the rest of the line reversed (`gpj.exe`
/// shown as `exe.jpg`).
func inert(_ s: String) -> String { TerminalText.inert(TerminalText.escapingBidiControls(s)) }

/// A stored one-line field (a title, a handoff's focus, a tag, a next step) printed unquoted
/// after a label: kept on one line (``TerminalText/singleLine(_:)``: a line break or tab shows as
/// one space), so that a line break stored in it cannot print what reads as another row, and
/// every other control written as an escape (``TerminalText/escapingControls(_:)``: `\u{7}`,
/// `\u{1B}`), as ``inertQuoted(_:)`` writes it: a stored title shows its controls the same way
/// in every list, detail and search row (README, "Using the CLI").
func inertLine(_ s: String) -> String { inert(TerminalText.escapingControls(TerminalText.singleLine(s))) }

/// A stored one-line field in double quotes (``TerminalText/quoted(_:)``: `\` and `"` inside
/// escaped, a line break or tab written as `\n` or `\t` and every other control as `\u{1B}`, on
/// one line), its bidirectional controls escaped as ``inert(_:)`` does: a quote inside a title
/// cannot close the quotation early and append what reads as the line's own id or date.
func inertQuoted(_ s: String) -> String { inert(TerminalText.quoted(s)) }


/// A report and the failure that follows it, encoded as one JSON object: the report's members
/// and `error` (``Console/printJSON(_:failure:)``).
struct ReportWithError<Report: Encodable>: Encodable {
  struct Body: Encodable {
    var kind: String
    var message: String
    var exitCode: Int32
  }
  enum Key: String, CodingKey { case error }
  var value: Report
  var error: Body

  func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder)
    var c = encoder.container(keyedBy: Key.self)
    try c.encode(error, forKey: .error)
  }
}
