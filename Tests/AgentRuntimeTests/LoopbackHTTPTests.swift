import Foundation
import Testing

@testable import AgentRuntime

/// A misbehaving model server's HTTP answers fail with a clear error instead of crashing.
@Suite("loopback HTTP parsing of a misbehaving model server")
struct LoopbackHTTPTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var response: String
    var testDescription: String { name }
  }

  static let hostile: [Case] = [
    Case(name: "no header end", response: "HTTP/1.1 200 OK\r\nContent-Length: 5"),
    Case(name: "no status code", response: "HTTP/1.1\r\n\r\n{}"),
    Case(name: "negative chunk size", response: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nabc\r\n0\r\n\r\n"),
    Case(name: "chunk size near Int.max", response: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabc\r\n0\r\n\r\n"),
    Case(name: "chunk longer than the body", response: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc"),
    Case(name: "chunk size not hex", response: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"),
  ]

  @Test("hostile responses are errors, never traps", arguments: hostile)
  func hostileResponses(_ c: Case) {
    #expect(throws: AgentError.self) { try LoopbackHTTP.parse(Array(c.response.utf8)) }
  }

  @Test("a well-formed chunked answer is joined")
  func chunked() throws {
    let r = try LoopbackHTTP.parse(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n".utf8))
    #expect(r.status == 200)
    #expect(r.body == Array("abcde".utf8))
  }
}
