import ContinuityKit
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``ResponseGenerator`` for any OpenAI-compatible `/v1/chat/completions` server on loopback
/// (llama.cpp's `llama-server`, Ollama, `python -m llama_cpp.server`).
///
/// It speaks HTTP/1.1 itself over a socket to the literal loopback address that
/// ``LoopbackURLValidator`` produced, so no proxy setting (`http_proxy`, `ALL_PROXY`, system
/// configuration) and no name resolution can send the request anywhere else.
public struct LoopbackChatGenerator: ResponseGenerator {
  public let endpoint: LoopbackURLValidator.Endpoint
  public let model: String
  /// Most tokens to generate.
  public let maxTokens: Int
  /// Socket send/receive timeout in seconds.
  public let timeoutSeconds: Int
  public var label: String { "loopback model at \(endpoint.hostHeader)" }

  /// - Parameters:
  ///   - url: the server's base URL, validated by ``LoopbackURLValidator/validate(_:name:)``.
  ///   - urlName: what `url` is called in a refusal (`--model-url`, `DOLPHIN_MODEL_URL`).
  /// - Throws: ``AgentError/model(_:)`` when `url` is not an allowed loopback URL.
  public init(
    url: String, urlName: String = "model URL", model: String = "local", maxTokens: Int = 256, timeoutSeconds: Int = 120
  ) throws(AgentError) {
    self.endpoint = try LoopbackURLValidator.validate(url, name: urlName)
    self.model = model
    self.maxTokens = maxTokens
    self.timeoutSeconds = timeoutSeconds
  }

  /// The request path: `<base>/v1/chat/completions` (or `<base>/chat/completions` when the
  /// base already ends in `/v1`).
  public var path: String {
    endpoint.basePath.hasSuffix("/v1") ? endpoint.basePath + "/chat/completions" : endpoint.basePath + "/v1/chat/completions"
  }

  public func generate(_ messages: [PromptMessage]) async throws -> String {
    let body: JSONValue = .object([
      "model": .string(model), "temperature": 0, "max_tokens": .integer(maxTokens), "stream": false,
      "messages": .array(messages.map { .object(["role": .string($0.role.rawValue), "content": .string($0.content)]) }),
    ])
    let payload = body.serialized(sortedKeys: true)
    let endpoint = self.endpoint, path = self.path, timeout = self.timeoutSeconds
    let response: HTTPResponse = try await withCheckedThrowingContinuation { cont in
      DispatchQueue.global().async {
        do { cont.resume(returning: try LoopbackHTTP.post(endpoint, path: path, body: payload, timeoutSeconds: timeout)) } catch {
          cont.resume(throwing: error)
        }
      }
    }
    guard response.status == 200 else {
      throw AgentError.model("the model server answered HTTP \(response.status): \(Truncation.truncate(String(decoding: response.body, as: UTF8.self), to: 200))")
    }
    // A reply that cannot be read is said as such, not as a missing field (review 21-a, 10).
    let json: JSONValue
    do {
      json = try JSONValue(parsing: response.body)
    } catch {
      throw AgentError.model(
        "the model server's reply (\(response.body.count) bytes) could not be read as JSON: "
          + Truncation.truncate("\(error)", to: 200))
    }
    guard let content = json["choices"]?.array?.first?["message"]?["content"]?.string else {
      throw AgentError.model("the model server's answer has no choices[0].message.content")
    }
    return content
  }
}

/// A parsed HTTP response.
struct HTTPResponse {
  var status: Int
  var headers: [String: String]
  var body: [UInt8]
}

/// A minimal HTTP/1.1 client for loopback only: one POST, `Connection: close`, read to EOF,
/// `Content-Length` or chunked bodies.
enum LoopbackHTTP {
  /// Sends one POST of `body` to `path` at `e` and reads the response.
  /// - Throws: ``AgentError/model(_:)`` before anything is sent (no socket is opened) when
  ///   `path` holds a character a request line cannot carry (a space, a line break, another
  ///   control character, a non-ASCII one: ``LoopbackURLValidator`` refuses such URLs, and this
  ///   holds for any endpoint, so that no path is written raw into the request line and a line
  ///   break cannot add headers; review 28-c, 2); when connecting, sending or reading fails; for
  ///   a malformed response.
  static func post(_ e: LoopbackURLValidator.Endpoint, path: String, body: [UInt8], timeoutSeconds: Int) throws -> HTTPResponse {
    if let (offset, scalar) = LoopbackURLValidator.firstNonPathCharacter(in: path) {
      throw AgentError.model(
        "the request path holds \(LoopbackURLValidator.describe(scalar)) at character \(offset + 1), which a request "
          + "line cannot carry; nothing was sent to the model")
    }
    let fd = socket(e.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw AgentError.model("cannot create a socket: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    var rc: Int32
    if e.isIPv6 {
      var addr = sockaddr_in6()
      addr.sin6_family = sa_family_t(AF_INET6)
      addr.sin6_port = e.port.bigEndian
      inet_pton(AF_INET6, e.address, &addr.sin6_addr)
      rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
    } else {
      var addr = sockaddr_in()
      addr.sin_family = sa_family_t(AF_INET)
      addr.sin_port = e.port.bigEndian
      guard inet_pton(AF_INET, e.address, &addr.sin_addr) == 1 else { throw AgentError.model("bad loopback address \(e.address)") }
      rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    }
    guard rc == 0 else { throw AgentError.model("cannot connect to the model at \(e.hostHeader): \(String(cString: strerror(errno)))") }
    var request = Array(
      "POST \(path.isEmpty ? "/" : path) HTTP/1.1\r\nHost: \(e.hostHeader)\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
    request += body
    var sent = 0
    while sent < request.count {
      let n = request.withUnsafeBytes { send(fd, $0.baseAddress?.advanced(by: sent), request.count - sent, Int32(MSG_NOSIGNAL)) }
      guard n > 0 else { throw AgentError.model("sending to the model failed: \(String(cString: strerror(errno)))") }
      sent += n
    }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n == 0 { break }
      guard n > 0 else { throw AgentError.model("reading from the model failed: \(String(cString: strerror(errno)))") }
      received += buffer[0..<n]
      if received.count > 16 << 20 { throw AgentError.model("the model's answer exceeds 16 MiB") }
    }
    return try parse(received)
  }

  static func parse(_ data: [UInt8]) throws -> HTTPResponse {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard let headerEnd = data.firstRange(of: separator) else { throw AgentError.model("malformed HTTP response from the model") }
    let head = String(decoding: data[..<headerEnd.lowerBound], as: UTF8.self)
    var lines = head.components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst().split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw AgentError.model("malformed HTTP status line from the model") }
    var headers: [String: String] = [:]
    for l in lines {
      guard let c = l.firstIndex(of: ":") else { continue }
      headers[l[..<c].lowercased()] = l[l.index(after: c)...].trimmingCharacters(in: .whitespaces)
    }
    var body = Array(data[headerEnd.upperBound...])
    if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
      var out: [UInt8] = []
      var i = 0
      while i < body.count {
        guard let lineEnd = body[i...].firstRange(of: [13, 10]) else { break }
        let sizeText = String(decoding: body[i..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
        // A negative or huge size from a misbehaving server must fail cleanly, not trap on an
        // overflowing or inverted range.
        guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
          throw AgentError.model("malformed chunked body from the model")
        }
        if size == 0 { break }
        let start = lineEnd.upperBound
        guard size <= body.count - start else { throw AgentError.model("truncated chunked body from the model") }
        out += body[start..<(start + size)]
        i = start + size + 2
      }
      body = out
    } else if let len = headers["content-length"].flatMap(Int.init), len <= body.count {
      body = Array(body[..<len])
    }
    return HTTPResponse(status: status, headers: headers, body: body)
  }
}
