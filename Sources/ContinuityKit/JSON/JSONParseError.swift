/// Why bytes are not an acceptable JSON text, and where.
///
/// ``byteOffset`` counts UTF-8 bytes from the start of the input (0-based) and points at the
/// first byte that could not be accepted, or at the input's length when it ended too early.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Sendable, Equatable {
    /// The input ended inside a value (or was empty, or only whitespace).
    case unexpectedEnd
    /// A byte that cannot start or continue a value here (shown as a character or `0xNN`).
    case unexpectedByte(UInt8)
    /// A complete value was followed by something other than whitespace.
    case trailingData
    /// A number broke the grammar (`01`, `1.`, `-`, `1e`, `+1`).
    case invalidNumber
    /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
    case invalidEscape
    /// `\u` not followed by four hexadecimal digits.
    case invalidUnicodeEscape
    /// A `\uD800`–`\uDFFF` escape without its partner, refused under
    /// ``JSONParser/LoneSurrogatePolicy/reject``.
    case loneSurrogate
    /// Bytes in a string that are not well-formed UTF-8 (RFC 3629: overlong forms, encoded
    /// surrogates and values above U+10FFFF included).
    case invalidUTF8
    /// An unescaped control character (U+0000–U+001F) inside a string.
    case controlCharacterInString
    /// The same key twice in one object (RFC 8259 §4 leaves the meaning open; we refuse).
    case duplicateKey(String)
    /// Arrays and objects nested deeper than `limit`.
    case depthLimitExceeded(limit: Int)
    /// The input is `size` bytes, more than `limit`.
    case sizeLimitExceeded(limit: Int, size: Int)
  }

  /// What went wrong.
  public let reason: Reason
  /// Where, in UTF-8 bytes from the start of the input.
  public let byteOffset: Int

  /// An error for `reason` at `byteOffset`.
  public init(_ reason: Reason, at byteOffset: Int) {
    self.reason = reason
    self.byteOffset = byteOffset
  }

  /// `invalid JSON at byte N: ` followed by ``explanation``.
  public var description: String { "invalid JSON at byte \(byteOffset): \(explanation)" }

  /// What is wrong and how to fix it, without the location, e.g. `the JSON text ends too
  /// early; complete the value`.
  public var explanation: String {
    let what: String
    switch reason {
    case .unexpectedEnd:
      what = "the JSON text ends too early; complete the value"
    case .unexpectedByte(let byte):
      what = "unexpected \(Self.show(byte)); expected a JSON value or punctuation here"
    case .trailingData:
      what = "extra data after the JSON value; the text must hold exactly one JSON value"
    case .invalidNumber:
      what = "invalid number; JSON numbers look like -12, 0.5 or 1e-3 (no leading zeros, no +)"
    case .invalidEscape:
      what = #"invalid escape; use one of \" \\ \/ \b \f \n \r \t \uXXXX"#
    case .invalidUnicodeEscape:
      what = #"\u must be followed by four hexadecimal digits"#
    case .loneSurrogate:
      what = "a UTF-16 surrogate escape without its partner; pair \\uD8xx with \\uDCxx"
    case .invalidUTF8:
      what = "the string is not valid UTF-8; send UTF-8 text"
    case .controlCharacterInString:
      what = #"a control character inside a string; escape it (\n, \t, \u0001)"#
    case .duplicateKey(let key):
      what = "the key \"\(key)\" appears twice in one object; keep one"
    case .depthLimitExceeded(let limit):
      what = "arrays and objects are nested deeper than \(limit) levels; flatten the value"
    case .sizeLimitExceeded(let limit, let size):
      what = "the JSON text is \(size) bytes, over the \(limit)-byte limit; send less"
    }
    return what
  }

  /// ``explanation``, naming what was found where `bytes` (the input that was parsed) shows it:
  /// for a lone surrogate, the escape itself (`\ud800 is a UTF-16 surrogate escape without its
  /// partner; …`).
  /// - Parameter bytes: the parsed input, UTF-8.
  public func explanation(in bytes: some Collection<UInt8>) -> String {
    guard case .loneSurrogate = reason else { return explanation }
    let escape = bytes.dropFirst(byteOffset).prefix(6)
    guard escape.count == 6, escape.first == UInt8(ascii: "\\") else { return explanation }
    return "\(String(decoding: escape, as: UTF8.self)) is \(explanation)"
  }

  private static func show(_ byte: UInt8) -> String {
    if let name = quoteLikeName(byte) { return name }
    if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
  }

  /// A name for the characters that read badly between single quotes (a backslash, an
  /// apostrophe, a double quote), or nil for any other byte.
  static func quoteLikeName(_ byte: UInt8) -> String? {
    switch byte {
    case UInt8(ascii: "\\"): "backslash"
    case UInt8(ascii: "'"): "apostrophe"
    case UInt8(ascii: "\""): "double quote"
    default: nil
    }
  }
}
