import ContinuityKit
import Foundation

/// Produces the assistant's prose from a grounded prompt. Its output is interpretation: it is
/// never stored as knowledge and never counts as a receipt.
public protocol ResponseGenerator: Sendable {
  /// A short label for display, e.g. `loopback model at http://127.0.0.1:8080`.
  var label: String { get }
  /// - Throws: ``AgentError/model(_:)``.
  func generate(_ messages: [PromptMessage]) async throws -> String
}

/// Validates model endpoints: only loopback is allowed, decided from the URL text alone before
/// any name resolution or connection.
///
/// Accepted: scheme `http`; host `localhost`, a canonical dotted-quad IPv4 address in
/// 127.0.0.0/8 (four decimal parts, no leading zeros), or `[::1]`; an optional port; no user
/// info; a path of URL path characters only (letters, digits, `-._~!$&'()*+,;=:@/` and `%XX`
/// escapes). Everything else is refused, including `127.0.0.1.example.com`, `http://127.0.0.1@host`,
/// `[::ffff:127.0.0.1]` and other IPv4-mapped forms, `0x7f.1`, `127.1`, `https` (no TLS
/// stack is linked; loopback needs none), queries, fragments, and a path holding a space, a
/// line break or another control character (written into the request line, a line break
/// would add headers to the request: review 28-c, 2).
public enum LoopbackURLValidator {
  /// The address to connect to and the request path prefix.
  public struct Endpoint: Sendable, Equatable {
    /// `127.x.y.z` or `::1` (literal; `localhost` maps to `127.0.0.1` without resolving).
    public var address: String
    public var isIPv6: Bool
    public var port: UInt16
    /// The Host header value.
    public var hostHeader: String
    /// Path prefix without a trailing slash (`""` or e.g. `/v1`).
    public var basePath: String
  }

  /// What a refusal says is allowed, in README's words: `http://HOST[:PORT][/PATH]` with HOST in
  /// 127.0.0.0/8, `localhost` or `[::1]` (review 28-c, 10: it said "only http://127.0.0.1:PORT",
  /// while 127.0.0.2 is accepted too).
  public static let allowedForm =
    "only http://HOST[:PORT][/PATH] with HOST in 127.0.0.0/8 (e.g. 127.0.0.1), localhost or [::1] is allowed"

  /// Validates `text` as a loopback model URL.
  /// - Parameters:
  ///   - text: the URL as given.
  ///   - name: what the URL is called in a refusal: `model URL` by default; the CLI names its
  ///     source (`--model-url`, `DOLPHIN_MODEL_URL`).
  /// - Throws: ``AgentError/model(_:)`` naming what is not allowed, e.g. `DOLPHIN_MODEL_URL
  ///   'http://evil.com' refused: the host must be a loopback address; only …`, the URL quoted
  ///   with its control characters escaped and cut at 100 characters.
  public static func validate(_ text: String, name: String = "model URL") throws(AgentError) -> Endpoint {
    func refuse(_ why: String) -> AgentError {
      .model(
        "\(name) '\(Truncation.truncate(TerminalText.escapingBidiControls(Limits.escaped(text)), to: 100))' refused: "
          + "\(why); \(allowedForm)")
    }
    guard text.hasPrefix("http://") else { throw refuse("the scheme must be http") }
    let rest = text.dropFirst("http://".count)
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    let authority = String(rest[..<authorityEnd])
    var path = String(rest[authorityEnd...])
    if path.contains("?") || path.contains("#") { throw refuse("queries and fragments are not allowed") }
    if let (offset, scalar) = firstNonPathCharacter(in: path) {
      throw refuse(
        "its path holds \(describe(scalar)) at character \(offset + 1) of the path, which a request line cannot carry; a "
          + "path may hold only letters, digits, -._~!$&'()*+,;=:@/ and %XX escapes (write a space as %20)")
    }
    if authority.contains("@") { throw refuse("user info is not allowed") }
    if authority.isEmpty { throw refuse("no host") }
    var host: String
    var portText: String?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { throw refuse("unterminated IPv6 literal") }
      host = String(authority[authority.index(after: authority.startIndex)..<close])
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw refuse("junk after the IPv6 literal") }
        portText = String(after.dropFirst())
      }
      guard host == "::1" || host.lowercased() == "0:0:0:0:0:0:0:1" else { throw refuse("the IPv6 host must be ::1") }
      host = "::1"
    } else {
      let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count <= 2 else { throw refuse("malformed host and port") }
      host = String(parts[0]).lowercased()
      if parts.count == 2 { portText = String(parts[1]) }
      if host == "localhost" {
        host = "127.0.0.1"
      } else {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ o in
          !o.isEmpty && o.count <= 3 && o.allSatisfy(\.isASCII) && o.allSatisfy(\.isNumber) && (o.count == 1 || o.first != "0") && (Int(o) ?? 256) <= 255
        }) else { throw refuse("the host must be a loopback address") }
        guard octets[0] == "127" else { throw refuse("\(host) is not in 127.0.0.0/8") }
      }
    }
    var port: UInt16 = 80
    if let p = portText {
      guard !p.isEmpty, p.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt16(p), n > 0 else { throw refuse("bad port") }
      port = n
    }
    while path.hasSuffix("/") { path.removeLast() }
    let isV6 = host == "::1"
    return Endpoint(address: host, isIPv6: isV6, port: port, hostHeader: isV6 ? "[::1]:\(port)" : "\(host):\(port)", basePath: path)
  }

  /// Whether `byte` may stand in a request path as it is: RFC 3986 `pchar` and `/` (a `%` only
  /// as an escape's start, checked by ``firstNonPathCharacter(in:)``).
  static func isPathByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return "-._~!$&'()*+,;=:@/%".utf8.contains(byte)
    }
  }

  /// The first character of `path` a request line may not carry as it is — a space, a control
  /// character, a non-ASCII character, a `%` not followed by two hex digits, or another
  /// character outside ``isPathByte(_:)`` — with its offset in Unicode scalars; nil when there
  /// is none.
  static func firstNonPathCharacter(in path: String) -> (Int, Unicode.Scalar)? {
    let scalars = Array(path.unicodeScalars)
    func isHex(_ s: Unicode.Scalar) -> Bool { s.isASCII && s.properties.isASCIIHexDigit }
    for (i, s) in scalars.enumerated() {
      guard s.isASCII, isPathByte(UInt8(s.value)) else { return (i, s) }
      if s == "%", !(i + 2 < scalars.count && isHex(scalars[i + 1]) && isHex(scalars[i + 2])) { return (i, s) }
    }
    return nil
  }

  /// `a space (U+0020)`, `a line feed (U+000A)`, `'"' (U+0022)`, `the non-ASCII character U+00E9`: a
  /// character named so that a refusal says which one it is without printing a control or an
  /// invisible character.
  static func describe(_ s: Unicode.Scalar) -> String {
    let code = String(format: "U+%04X", s.value)
    switch s {
    case " ": return "a space (\(code))"
    case "\n": return "a line feed (\(code))"
    case "\r": return "a carriage return (\(code))"
    case "\t": return "a tab (\(code))"
    case "%": return "a '%' that does not start a %XX escape"
    default:
      if s.properties.generalCategory == .control { return "a control character (\(code))" }
      if s.isASCII { return "'\(Character(s))' (\(code))" }
      if s.properties.isWhitespace { return "a white-space character (\(code))" }
      return "the non-ASCII character \(code) (percent-encode it as UTF-8 %XX escapes)"
    }
  }
}
