import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A one-connection-at-a-time HTTP server on 127.0.0.1 for tests.
public final class TinyHTTPServer: @unchecked Sendable {
  /// No socket on 127.0.0.1 could be bound and listened on.
  public struct CannotBind: Error {}

  let fd: Int32
  /// The port it listens on.
  public let port: Int
  private let last = Mutex<String?>(nil)
  /// The last request received, headers and body, as text.
  public var lastRequest: String? { last.withLock { $0 } }

  /// Starts listening on an ephemeral port of 127.0.0.1; every request gets `reply` as a 200
  /// `application/json` response.
  /// - Throws: ``TinyHTTPServer/CannotBind`` when no socket can be bound.
  public init(reply: String) throws {
    let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = 0
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
    var one: Int32 = 1
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    guard rc == 0, listen(s, 4) == 0 else { throw CannotBind() }
    var bound = sockaddr_in()
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &len) } }
    fd = s
    port = Int(UInt16(bigEndian: bound.sin_port))
    let body = Array(reply.utf8)
    let listener = fd
    Thread.detachNewThread { [self] in
      while true {
        let c = accept(listener, nil, nil)
        if c < 0 { return }
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
          let n = recv(c, &buf, buf.count, 0)
          if n <= 0 { break }
          data += buf[0..<n]
          let text = String(decoding: data, as: UTF8.self)
          if let headerEnd = text.range(of: "\r\n\r\n"),
            let cl = text.range(of: "Content-Length: ").map({ Int(text[$0.upperBound...].prefix { $0.isNumber }) ?? 0 }),
            text.utf8.distance(from: text.utf8.startIndex, to: headerEnd.upperBound.samePosition(in: text.utf8) ?? text.utf8.endIndex) + cl <= data.count
          {
            break
          }
        }
        self.last.withLock { $0 = String(decoding: data, as: UTF8.self) }
        let response = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body
        _ = response.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(c)
      }
    }
  }

  /// Stops listening.
  public func stop() {
    shutdown(fd, Int32(SHUT_RDWR))
    close(fd)
  }
}
