import ContinuityKit
import Foundation

/// User text read from standard input (`-`) or from a file (`--content-file`), bounded by the
/// field's limit before any of it is stored or even fully read.
///
/// - At most `limit × Limits.inputBytesPerCharacter` bytes are read; a regular file larger
///   than that is refused from its size, unread. Standard input stops as soon as what was read
///   is over the character limit, so `yes | dolphin capture … --content -` ends at once.
/// - Input holding a NUL byte is not text and is refused (`/dev/zero`, images, archives).
/// - Input that is not UTF-8 is refused.
/// - The character limit, and its Unicode scalar bound (``Limits/unicodeScalarLimit(forCharacters:)``:
///   a few characters carrying thousands of combining marks are refused), are checked on the
///   text as given, before the sanitizer drops control characters (the engine checks them
///   again, and refuses text with nothing printable).
enum TextInput {
  enum Source {
    case standardInput
    /// A file named by `option` (e.g. `--content-file`), which errors name.
    case file(String, option: String)
  }

  /// Reads `field`'s text from `source`.
  /// - Parameters:
  ///   - field: the field, e.g. `content`, named in errors with `limit`.
  ///   - limit: the field's bound in `Character`s.
  /// - Throws: ``ValidationError`` (exit 4) naming the field, the limit and what was given;
  ///   ``CLIError/notFound(_:)`` (exit 3) when nothing is at the file's path;
  ///   ``CLIError/input(_:)`` (exit 4) for a file that cannot be read.
  ///   - dropsFinalLineBreak: for a field the library trims (a handoff's focus, summary and
  ///     next steps), one final line break (`\n` or `\r\n`, which `echo` adds, or a lone `\r`,
  ///     an old Mac line end, as `--next -` reads one) is dropped before the bound is checked, so
  ///     `limit` characters and a line break are taken (review 19-d);
  ///     other text is read as given, its final line break counted and kept.
  static func read(
    _ source: Source, field: String, limit: Int, console: Console, dropsFinalLineBreak: Bool = false
  ) throws -> String {
    if case .file(let path, let option) = source { try Commands.requireExistingPath(path, option: option) }
    let allowance = dropsFinalLineBreak ? 1 : 0
    let maxBytes = limit * Limits.inputBytesPerCharacter + 2 * allowance
    let origin: String
    switch source {
    case .standardInput: origin = "standard input"
    case .file(let path, _): origin = "'\(path)'"
    }
    // Stops the read as soon as the answer is known: not text, or over the limit.
    let stop: ([UInt8]) -> Bool = { bytes in
      bytes.contains(0)
        || (bytes.count > limit + allowance
          && String(decoding: bytes[..<completeUTF8Prefix(bytes)], as: UTF8.self).count > limit + allowance)
    }
    let result: BoundedInput.Result
    switch load(source, maxBytes: maxBytes, stop: stop, console: console) {
    case .success(let r): result = r
    case .failure(.tooLarge(let path, let size, _)):
      throw ValidationError(
        field: field, limit: limit,
        message: "\(field) file '\(path)' is \(size) bytes; the limit is \(limit) characters, read as at most "
          + "\(maxBytes) bytes, so it was not read")
    case .failure(.notRegularFile(let path, let kind)):
      // A FIFO, socket or device: refused before it is read, so that none can block or run on.
      let option = if case .file(_, let option) = source { option } else { field }
      throw CLIError.input(
        "\(option): '\(path)' is \(kind), not a regular file; name a regular file, or give the text on "
          + "standard input with --\(field) -")
    case .failure(let failure):
      if case .file(_, let option) = source { throw CLIError.input("\(option): \(failure.description)") }
      throw CLIError.input("\(field): \(failure.description)")
    }
    var text = try decodedText(result, field: field, origin: origin)
    if dropsFinalLineBreak, !result.truncated, let last = text.last, last == "\n" || last == "\r\n" || last == "\r" {
      text.removeLast()
    }
    if result.truncated {
      // The read stopped once the answer was clear, so the whole size is not known: what was
      // read is named as a lower bound (review 30-a, 13: the message gave no size at all).
      let read = text.count
      throw ValidationError(
        field: field, limit: limit, actual: read > limit ? read : nil,
        message: read > limit
          ? "\(field) is more than \(limit) characters; the limit is \(limit) characters (\(origin) holds at least "
            + "\(read) characters, \(result.bytes.count) bytes: it was read only until that was clear)"
          : "\(field) from \(origin) is more than \(maxBytes) bytes; the limit is \(limit) characters, read as "
            + "at most \(maxBytes) bytes")
    }
    let count = text.count
    if count > limit {
      throw ValidationError(
        field: field, limit: limit, actual: count,
        message: "\(field) is \(count) characters; the limit is \(limit) characters (read from \(origin))")
    }
    do { try Limits.checkUnicodeScalars(field, text, characters: count, limit: limit) } catch {
      var refused = error
      refused.message += " (read from \(origin))"
      throw refused
    }
    return text
  }

  /// `result` as text, refused when it is not: saved as UTF-16, holding a NUL byte, or not
  /// UTF-8 (a read cut short may end inside a character, which is not the input's fault: that
  /// character is left out).
  /// - Parameters:
  ///   - field: the field the text is for, named in errors.
  ///   - origin: where it was read, `standard input` or `'PATH'`.
  /// - Throws: ``ValidationError`` naming `field`, `origin` and the byte at fault.
  private static func decodedText(_ result: BoundedInput.Result, field: String, origin: String) throws -> String {
    let bytes = result.bytes
    // Named as UTF-16, as `import` names it, not by its first NUL (review 21-a, 12).
    if UTF8Validation.startsWithUTF16ByteOrderMark(bytes) {
      throw ValidationError(
        field: field,
        message: "\(field) from \(origin) is saved as UTF-16 (it starts with a UTF-16 byte order mark); give UTF-8 text")
    }
    if let nul = bytes.firstIndex(of: 0) {
      throw ValidationError(
        field: field,
        message: "\(field) from \(origin) is not text: it holds a NUL byte (at byte \(nul)); give UTF-8 text")
    }
    let end = result.truncated ? completeUTF8Prefix(bytes) : bytes.count
    if let offset = UTF8Validation.firstInvalidByteOffset(in: bytes[..<end]) {
      // Where, as `import` says it: the first byte that is not part of valid UTF-8.
      throw ValidationError(
        field: field,
        message: "\(field) from \(origin) is not UTF-8 text: the byte \(hexByte(bytes[offset])) at byte offset "
          + "\(offset) (counting from 0) is not valid UTF-8; convert it to UTF-8 first (e.g. with iconv)")
    }
    return String(decoding: bytes[..<end], as: UTF8.self)
  }

  /// Reads a list from standard input, one entry per non-blank line (`handoff create --next -`):
  /// each line trimmed of the white space around it and of characters that show nothing
  /// (``Sanitizer/showsNothing(_:)``: a Braille blank U+2800 or a zero-width space before the
  /// text; review 28-d, 9: `\u{2800}x` was stored with its invisible start), blank lines
  /// skipped, so that neither counts toward any bound. Each entry keeps its line number, so an
  /// error about it can name the line (review 28-d, 9: `--next #2` named the step, not the line
  /// the user sees); lines are numbered by `\n`, `\r\n` and a lone `\r` (an old Mac line end),
  /// as editors number them, each ending one line, though U+2028, U+2029, VT, FF and NEL end an
  /// entry too without starting a new line. The entries' number and length are the caller's to
  /// check, as for entries given as arguments (`--next has 13 steps; the limit is 12`).
  ///
  /// At most `maxBytes` are read: enough for every entry at its bound with blank lines
  /// between, and a bound on memory whatever is piped in (`yes |` stops there).
  /// - Parameters:
  ///   - option: the option as the user gave it, `--next`, named in errors.
  ///   - field: the library's field, `nextSteps`.
  ///   - maxBytes: the most bytes read, e.g. ``Limits/handoffNextStepsInputBytes``.
  ///   - entries: what the list holds at most, and each entry, for the error over `maxBytes`
  ///     (`12 steps of at most 300 characters`).
  /// - Throws: ``ValidationError`` naming `option` and `maxBytes` for more input than that, or
  ///   for input that is not UTF-8 text; ``CLIError/input(_:)`` when it cannot be read.
  static func readLines(
    option: String, field: String, maxBytes: Int, entries: String, console: Console
  ) throws -> [(line: Int, text: String)] {
    let result: BoundedInput.Result
    switch load(.standardInput, maxBytes: maxBytes, stop: BoundedInput.stopAtFirstNUL(), console: console) {
    case .success(let r): result = r
    case .failure(let failure): throw CLIError.input("\(option) -: \(failure.description)")
    }
    let text = try decodedText(result, field: field, origin: "standard input")
    if result.truncated {
      throw ValidationError(
        field: field, limit: maxBytes,
        message: "\(option) -: standard input is more than \(maxBytes) bytes, the most read for \(option) - "
          + "(\(entries), one per non-blank line); nothing was stored")
    }
    // Entries end at any line break (`\n`, `\r\n`, `\r`, U+2028 and the other separators); the
    // line an entry is on is counted as editors count lines, by `\n`, `\r\n` (one Character,
    // one break) and a lone `\r`, which old Mac files end lines with and editors show as a line
    // end too (review 30-b, 7: `a\rb\r<301 characters>` was named line 1): two entries a U+2028
    // splits share one line (review 29-b, 7: they were named as different lines).
    var entries: [(line: Int, text: String)] = []
    var line = 1
    var start = text.startIndex
    var i = text.startIndex
    while i < text.endIndex {
      let c = text[i]
      let next = text.index(after: i)
      if c.isNewline {
        let entry = trimmedOfInvisibleEnds(text[start..<i])
        if !entry.isEmpty { entries.append((line, entry)) }
        if c == "\n" || c == "\r\n" || c == "\r" { line += 1 }
        start = next
      }
      i = next
    }
    let last = trimmedOfInvisibleEnds(text[start...])
    if !last.isEmpty { entries.append((line, last)) }
    return entries
  }

  /// `line` without the characters at either end that show nothing: white space and what
  /// ``Sanitizer/showsNothing(_:)`` reads as invisible, whole characters at a time, so an emoji's
  /// variation selector (part of its character) stays.
  static func trimmedOfInvisibleEnds(_ line: Substring) -> String {
    var part = line
    while let first = part.first, Sanitizer.showsNothing(String(first)) { part.removeFirst() }
    while let last = part.last, Sanitizer.showsNothing(String(last)) { part.removeLast() }
    return String(part)
  }

  /// The offset of the first byte of `bytes` past a UTF-8 byte-order mark and JSON white space
  /// (RFC 8259 §2: space, tab, line feed, carriage return), scanning from `from` (the start, or
  /// where an earlier scan of the same bytes stopped); `bytes.count` when there is none.
  static func firstSignificantByte(_ bytes: [UInt8], from: Int? = nil) -> Int {
    var i = from ?? (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
    while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    return i
  }

  /// Whether the first byte after whitespace (and a UTF-8 byte-order mark) is known and is
  /// not `{`.
  static func notAnObject(_ bytes: [UInt8]) -> Bool {
    let i = firstSignificantByte(bytes)
    return i < bytes.count && bytes[i] != UInt8(ascii: "{")
  }

  /// A stop test for reading a document as it grows, chunk by chunk: ``notAnObject(_:)`` of the
  /// bytes read so far, resuming where the previous call's scan of leading white space ended,
  /// so that a long run of it is read once rather than once per chunk (review 25-a, 2: 64 MB of
  /// leading spaces took 30 s). Each call must be given the previous call's bytes and more.
  /// - Complexity: O(*k*) for the *k* bytes added since the previous call.
  static func stopUnlessObject() -> ([UInt8]) -> Bool {
    var scanned: Int?
    return { bytes in
      let i = firstSignificantByte(bytes, from: scanned)
      // A byte-order mark cut by the chunk's end is judged again with the next chunk.
      if scanned != nil || bytes.count >= 3 { scanned = i }
      return i < bytes.count && bytes[i] != UInt8(ascii: "{")
    }
  }

  /// What the JSON value that `bytes` start with is, judged by its first character: `an
  /// array`, `null`, `a string`, `a number`, `true`, `false`, or `text that is not JSON`.
  static func firstValueKind(_ bytes: [UInt8]) -> String {
    let i = firstSignificantByte(bytes)
    guard i < bytes.count else { return "nothing" }
    switch bytes[i] {
    case UInt8(ascii: "["): return "an array"
    case UInt8(ascii: "\""): return "a string"
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
    case UInt8(ascii: "n") where bytes[i...].starts(with: Array("null".utf8)): return "null"
    case UInt8(ascii: "t") where bytes[i...].starts(with: Array("true".utf8)): return "true"
    case UInt8(ascii: "f") where bytes[i...].starts(with: Array("false".utf8)): return "false"
    default: return "text that is not JSON"
    }
  }

  private static func load(
    _ source: Source, maxBytes: Int, stopsRegularFiles: Bool = false, stop: ([UInt8]) -> Bool, console: Console
  ) -> Result<BoundedInput.Result, BoundedInput.Failure> {
    Result { () throws(BoundedInput.Failure) in
      switch source {
      case .standardInput: try console.readStandardInput(maxBytes: maxBytes, stop: stop)
      case .file(let path, _):
        try BoundedInput.readFile(atPath: path, maxBytes: maxBytes, stopsRegularFiles: stopsRegularFiles, stop: stop)
      }
    }
  }

  /// A byte as messages show it: `0xE9`.
  static func hexByte(_ byte: UInt8) -> String {
    let hex = String(byte, radix: 16, uppercase: true)
    return "0x" + (hex.count == 1 ? "0" + hex : hex)
  }

  /// The length of the longest prefix of `bytes` that does not end inside a UTF-8 sequence
  /// (a read cut at a byte bound can split the last character).
  static func completeUTF8Prefix(_ bytes: [UInt8]) -> Int {
    var i = bytes.count
    var continuation = 0
    while i > 0, continuation < 3, bytes[i - 1] & 0xC0 == 0x80 {
      i -= 1
      continuation += 1
    }
    guard i > 0 else { return bytes.count }
    let lead = bytes[i - 1]
    let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    return length > continuation + 1 ? i - 1 : bytes.count
  }

  /// Reads a whole document (an export) from `source`, at most ``Limits/importDocumentBytes``.
  ///
  /// Every message starts by naming the document as the import's other errors do (decoding,
  /// validation, conflicts): the path as the user gave it, or `stdin`, and ends with
  /// `Nothing was imported`.
  /// - Throws: ``ValidationError`` when it is larger, holds a NUL byte or cannot be a JSON
  ///   object; ``ExportDocumentError/notUTF8(file:byteOffset:byte:)`` when it is not UTF-8;
  ///   ``CLIError/input(_:)`` when it cannot be read (a directory, say).
  static func readDocument(_ source: Source, field: String, console: Console) throws -> Data {
    let maxBytes = Limits.importDocumentBytes
    let name: String
    switch source {
    case .standardInput: name = "stdin"
    case .file(let path, _): name = path
    }
    let nothing = ". Nothing was imported"
    // A document is a JSON object: stop at once when the input cannot be one (`yes |`,
    // `/dev/zero`), instead of reading up to the bound first.
    let hasNUL = BoundedInput.stopAtFirstNUL()
    let notObject = stopUnlessObject()
    let stop: ([UInt8]) -> Bool = { bytes in hasNUL(bytes) || notObject(bytes) }
    let result: BoundedInput.Result
    switch load(source, maxBytes: maxBytes, stopsRegularFiles: true, stop: stop, console: console) {
    case .success(let r): result = r
    case .failure(.tooLarge(_, let size, _)):
      throw ValidationError(
        field: field, limit: maxBytes, actual: Int(clamping: size),
        message: "\(name) is \(size) bytes; the limit is \(maxBytes) bytes, so it was not read\(nothing)")
    case .failure(.isDirectory):
      throw CLIError.input("\(name) is a directory, not a file; name the export file\(nothing)")
    case .failure(.notRegularFile(_, let kind)):
      // A FIFO, socket or device: refused before it is read, so that none can block or run on.
      throw CLIError.input(
        "\(name) is \(kind), not a regular file; name the export file, or pipe it to `\(command: "dolphin import -")`\(nothing)")
    case .failure(.cannotOpen(_, let reason)):
      throw CLIError.input("\(name): cannot read it: \(reason)\(nothing)")
    case .failure(.readFailed(_, let reason)):
      throw CLIError.input("\(name): reading it failed: \(reason)\(nothing)")
    }
    // A UTF-16 file (as some editors and PowerShell's `>` save) is named as such, not by its
    // first NUL (review 20-a, #12).
    if UTF8Validation.startsWithUTF16ByteOrderMark(result.bytes) {
      throw ValidationError(
        field: field,
        message: "\(name) is saved as UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8\(nothing)")
    }
    if let nul = result.bytes.firstIndex(of: 0) {
      throw ValidationError(field: field, message: "\(name) is not text: it holds a NUL byte (at byte \(nul))\(nothing)")
    }
    // Named before "not a JSON object", which a leading 0xFF would otherwise read as; a read cut
    // short may end inside a character, which is not the file's fault.
    let whole = result.truncated ? completeUTF8Prefix(result.bytes) : result.bytes.count
    if let offset = UTF8Validation.firstInvalidByteOffset(in: result.bytes[..<whole]) {
      throw ExportDocumentError.notUTF8(file: name, byteOffset: offset, byte: result.bytes[offset])
    }
    if notAnObject(result.bytes) {
      throw ValidationError(
        field: field,
        message: "\(name): expected a JSON object (a dolphin export), got \(firstValueKind(result.bytes))\(nothing)")
    }
    if result.truncated {
      throw ValidationError(
        field: field, limit: maxBytes,
        message: "\(name) is more than \(maxBytes) bytes; the limit is \(maxBytes) bytes\(nothing)")
    }
    return Data(result.bytes)
  }
}
