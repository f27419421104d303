import ContinuityKit

extension JSONRPCMessage {
  /// The request id of a line refused before it could be parsed whole — nested deeper than
  /// ``JSONRPCLimits/maximumDepth``, or longer than ``JSONRPCLimits/maximumMessageBytes`` and
  /// so kept only in part (``TransportFrame/oversized(byteCount:head:)``) — read from its first
  /// bytes without building the message, so that the error is answered under the id the
  /// client waits on (review 22, 4: both were answered with `id: null`).
  ///
  /// The bytes must start a JSON object (after whitespace). Its members are read in order, each
  /// value skipped by counting brackets outside strings — no value is built, however deep — up
  /// to the first member named `id` (its name may be written with escapes); that member's value
  /// is the id when it is a string or an integer that parses by itself. A string id with a
  /// lone surrogate escape or bytes that are not UTF-8 gives nil, as
  /// ``decode(_:limits:acceptsBatches:)`` treats a flaw in the id itself. Nil too when the
  /// bytes end before that value does (an id past the kept start of an oversized line), when
  /// the object has no `id` member, or when what precedes it is not well-formed enough to be
  /// walked (a member without its name or colon).
  ///
  /// - Parameter bytes: the line, or its first bytes.
  /// - Returns: the id, or nil when it cannot be read from `bytes`.
  /// - Complexity: O(n) in the bytes up to the end of the `id` member; memory O(length of the
  ///   id).
  public static func requestID(inStartOf bytes: some Collection<UInt8>) -> JSONRPCRequestID? {
    func scan(_ buffer: UnsafeBufferPointer<UInt8>) -> JSONRPCRequestID? {
      var scanner = RequestIDScanner(bytes: buffer)
      return scanner.scan()
    }
    if let found = bytes.withContiguousStorageIfAvailable(scan) { return found }
    return Array(bytes).withUnsafeBufferPointer(scan)
  }
}

/// Walks the members of a JSON object's first bytes to its `id` (``JSONRPCMessage/requestID(inStartOf:)``).
private struct RequestIDScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  mutating func scan() -> JSONRPCRequestID? {
    skipWhitespace()
    guard next == UInt8(ascii: "{") else { return nil }
    index += 1
    while true {
      skipWhitespace()
      guard next == UInt8(ascii: "\""), let nameEnd = endOfString(from: index) else { return nil }
      let isID = Self.isIDName(bytes[index..<nameEnd])
      index = nameEnd
      skipWhitespace()
      guard next == UInt8(ascii: ":") else { return nil }
      index += 1
      skipWhitespace()
      let valueStart = index
      guard let valueEnd = endOfValue(from: valueStart) else { return nil }
      if isID {
        // Parsed by itself, strictly: an id holding a flaw is not one the client sent.
        let parser = JSONParser(options: .init(maximumDepth: 1, loneSurrogates: .reject))
        return (try? parser.parse(bytes[valueStart..<valueEnd])).flatMap(JSONRPCRequestID.init)
      }
      index = valueEnd
      skipWhitespace()
      guard next == UInt8(ascii: ",") else { return nil }  // `}`: no id; anything else: malformed.
      index += 1
    }
  }

  /// The byte at ``index``, or nil at the end.
  private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
  }

  /// Whether a member name (a JSON string, quotes included) is `id`, escapes decoded.
  private static func isIDName(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    if name.elementsEqual(#""id""#.utf8) { return true }
    guard name.contains(UInt8(ascii: "\\")), name.count <= 64 else { return false }
    return (try? JSONParser(options: .init(maximumDepth: 1, loneSurrogates: .reject)).parse(name)) == .string("id")
  }

  /// The index just past the string that starts at `start` (a `"`), or nil when the bytes end
  /// inside it.
  private func endOfString(from start: Int) -> Int? {
    var i = start + 1
    while i < bytes.count {
      switch bytes[i] {
      case UInt8(ascii: "\\"): i += 2
      case UInt8(ascii: "\""): return i + 1
      default: i += 1
      }
    }
    return nil
  }

  /// The index just past the value that starts at `start`, or nil when the bytes end inside
  /// it (a number or literal running to the end counts as cut: more digits may follow). An
  /// array or object is skipped by counting its brackets outside strings, with no recursion.
  private func endOfValue(from start: Int) -> Int? {
    guard start < bytes.count else { return nil }
    switch bytes[start] {
    case UInt8(ascii: "\""):
      return endOfString(from: start)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var i = start
      while i < bytes.count {
        switch bytes[i] {
        case UInt8(ascii: "\""):
          guard let end = endOfString(from: i) else { return nil }
          i = end
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return i + 1 }
        default:
          break
        }
        i += 1
      }
      return nil
    default:
      var i = start
      while i < bytes.count {
        switch bytes[i] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return i
        default: i += 1
        }
      }
      return nil
    }
  }
}
