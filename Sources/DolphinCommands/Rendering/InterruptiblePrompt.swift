import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The answer to a confirmation prompt read from standard input.
enum PromptAnswer: Equatable, Sendable {
  /// The line typed, without its line break (at most ``InterruptiblePrompt/maxAnswerBytes``
  /// bytes of it); nil at end of input.
  case line(String?)
  /// SIGINT (Ctrl-C) or SIGTERM arrived while the prompt waited; `signal` names it.
  case interrupted(signal: String)
}

/// The write end of the pipe through which a signal wakes a waiting prompt; -1 when none waits.
/// Set before the handler is installed and reset after it is removed.
nonisolated(unsafe) private var promptWakePipe: Int32 = -1

/// Writes the signal's number to ``promptWakePipe``: only `write(2)`, which is
/// async-signal-safe, and `errno` is kept.
private func promptSignalHandler(_ signal: Int32) {
  let saved = errno
  var byte = UInt8(truncatingIfNeeded: signal)
  _ = write(promptWakePipe, &byte, 1)
  errno = saved
}

/// A prompt that SIGINT (Ctrl-C) and SIGTERM interrupt rather than kill, so that the caller
/// can record what the interrupted question was about before it exits (review 31-a, 4: Ctrl-C
/// at `ask`'s approval prompt killed the process and left the user's command in the chat log
/// with no receipt and no answer).
enum InterruptiblePrompt {
  /// Most bytes of an answer kept; the rest of a longer line is read and dropped.
  static let maxAnswerBytes = 1_024

  /// Shows a prompt with `show` and reads one line from standard input. From just before
  /// `show` until the answer, SIGINT and SIGTERM end the wait (``PromptAnswer/interrupted(signal:)``)
  /// instead of the process; their earlier handlers are restored afterwards, so that a later
  /// signal acts as it did before.
  static func ask(_ show: () -> Void) -> PromptAnswer {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      show()
      return .line(Swift.readLine(strippingNewline: true))
    }
    defer {
      close(ends[0])
      close(ends[1])
    }
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    promptWakePipe = ends[1]
    let previousInterrupt = signal(SIGINT, promptSignalHandler)
    let previousTerminate = signal(SIGTERM, promptSignalHandler)
    defer {
      _ = signal(SIGINT, previousInterrupt)
      _ = signal(SIGTERM, previousTerminate)
      promptWakePipe = -1
    }
    show()
    var bytes: [UInt8] = []
    while true {
      var fds = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0),
      ]
      if poll(&fds, 2, -1) < 0 {
        if errno == EINTR { continue }
        return .line(nil)
      }
      if fds[1].revents != 0 {
        var number: UInt8 = 0
        _ = read(ends[0], &number, 1)
        return .interrupted(signal: Int32(number) == SIGTERM ? "SIGTERM" : "SIGINT")
      }
      guard fds[0].revents != 0 else { continue }
      var byte: UInt8 = 0
      let count = read(STDIN_FILENO, &byte, 1)
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      if count <= 0 { return .line(bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)) }
      if byte == UInt8(ascii: "\n") {
        // As `readLine(strippingNewline:)`: a `\r\n` line end is dropped whole.
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return .line(String(decoding: bytes, as: UTF8.self))
      }
      if bytes.count < maxAnswerBytes { bytes.append(byte) }
    }
  }
}
