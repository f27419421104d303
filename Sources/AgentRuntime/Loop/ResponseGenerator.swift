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
/// info. Everything else is refused, including `127.0.0.1.example.com`, `http://127.0.0.1@host`,
/// `[::ffff:127.0.0.1]` and other IPv4-mapped forms, `0x7f.1`, `127.1` and `https` (no TLS
/// stack is linked; loopback needs none).
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

  /// - Throws: ``AgentError/model(_:)`` naming what is not allowed.
  public static func validate(_ text: String) throws(AgentError) -> Endpoint {
    func refuse(_ why: String) -> AgentError {
      .model("model URL '\(Truncation.truncate(text, to: 100))' refused: \(why); only http://127.0.0.1:PORT, http://localhost:PORT or http://[::1]:PORT are allowed")
    }
    guard text.hasPrefix("http://") else { throw refuse("the scheme must be http") }
    let rest = text.dropFirst("http://".count)
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    let authority = String(rest[..<authorityEnd])
    var path = String(rest[authorityEnd...])
    if path.contains("?") || path.contains("#") { throw refuse("queries and fragments are not allowed") }
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
}
